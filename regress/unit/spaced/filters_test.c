/*
 * Copyright (c) 2026 The spaced developers
 *
 * Permission to use, copy, modify, and distribute this software for any
 * purpose with or without fee is hereby granted, provided that the above
 * copyright notice and this permission notice appear in all copies.
 *
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 * WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 * MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 * ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 * ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 * OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */

/*
 * Each process's own filter, tried for real: the calls its row in
 * docs/privsep.md forbids kill it with SIGSYS, and the same probe in a
 * process without the filter succeeds (the positive control), so a kill
 * here is the filter's doing and nothing else's.
 */

#include <sys/stat.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto.h"
#include "sandbox.h"
#include "supervisor/spaced/spaced.h"
#include "worker-docker/docker_worker.h"
#include "worker-git/spaced-git/git_worker.h"
#include "gatekeeper/spaced-journal/journal_worker.h"

static pid_t	 sp_child[2], sp_stranger;
static char	 sp_sockdir[64], sp_elsewhere[64];

/* spaced's filter as spaced_privdrop builds it, for the test's children. */
static void
spaced_spec_enter(void)
{
	struct spaced_sandbox	 ss;
	char			 sock[128];

	snprintf(sock, sizeof(sock), "%s/spaced.sock", sp_sockdir);
	spaced_sandbox_build(&ss, sp_child, 2, getpid(), sock);
	sandbox_enter(&ss.ss_spec);
}

/* Fork; the child enters spec (if any) and tries call; wait status. */
static int
try_call(const struct sandbox_spec *spec, int call)
{
	char	 dir[] = "/tmp/filters-test.XXXXXX";
	pid_t	 pid;
	int	 status;

	cr_assert_not_null(mkdtemp(dir));
	if ((pid = fork()) == 0) {
		/* The journal's Landlock rule is its working directory. */
		if (chdir(dir) == -1)
			_exit(250);
		if (spec != NULL)
			sandbox_enter(spec);
		_exit(sandbox_probe(call) == 0 ? 0 : 1);
	}
	cr_assert(pid > 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	rmdir(dir);
	return status;
}

static void
killed(const struct sandbox_spec *spec, int call, const char *what)
{
	int	 st;

	st = try_call(NULL, call);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "control: %s must work unconfined (status %#x)", what, st);
	st = try_call(spec, call);
	cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
	    "%s: %s must die of SIGSYS (status %#x)", spec->sb_name, what, st);
}

static void
allowed(const struct sandbox_spec *spec, int call, const char *what)
{
	int	 st = try_call(spec, call);

	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "%s: %s must be allowed (status %#x)", spec->sb_name, what, st);
}

Test(filters, docker_no_exec_socket_connect_fork)
{
	killed(&docker_sandbox, PROBE_EXECVE, "execve");
	killed(&docker_sandbox, PROBE_SOCKET, "socket");
	killed(&docker_sandbox, PROBE_CONNECT, "connect");
	killed(&docker_sandbox, PROBE_FORK, "fork");
}

Test(filters, docker_cannot_open)
{
	int	 st;

	st = try_call(NULL, PROBE_OPEN);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "control");
	st = try_call(&docker_sandbox, PROBE_OPEN);
	/* Refused (EACCES) or killed: either way no file is opened. */
	cr_assert((WIFEXITED(st) && WEXITSTATUS(st) == 1) ||
	    (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS),
	    "docker opened a file (status %#x)", st);
}

Test(filters, git_no_exec_socket)
{
	killed(&git_sandbox, PROBE_EXECVE, "execve");
	killed(&git_sandbox, PROBE_SOCKET, "socket");
	killed(&git_sandbox, PROBE_FORK, "fork");
}

Test(filters, journal_no_exec_socket_and_nothing_outside_its_store)
{
	int	 st;

	killed(&journal_sandbox, PROBE_EXECVE, "execve");
	killed(&journal_sandbox, PROBE_SOCKET, "socket");
	/* open is in its groups; Landlock keeps it to the store. */
	st = try_call(&journal_sandbox, PROBE_OPEN);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1,
	    "journal opened /etc/passwd (status %#x)", st);
}

Test(filters, spaced_no_exec_no_fork_after_start)
{
	killed(&spaced_sandbox, PROBE_EXECVE, "execve");
	killed(&spaced_sandbox, PROBE_FORK, "fork");
	/* What it keeps: the Docker socket is connected by spaced. */
	allowed(&spaced_sandbox, PROBE_SOCKET, "socket");
}

/*
 * spaced once it serves, with its real filter for two "workers" (sleeping
 * children of the test): it may signal them and read their /proc, read
 * its own /proc, remove files in its socket directory; it may not signal
 * anyone else, read any other file or remove one elsewhere.
 */
static pid_t
sleeper(void)
{
	pid_t	 pid;

	if ((pid = fork()) == 0) {
		pause();
		_exit(0);
	}
	cr_assert(pid > 0);
	return pid;
}

static void
sp_setup(void)
{
	sp_child[0] = sleeper();
	sp_child[1] = sleeper();
	sp_stranger = sleeper();
	strlcpy(sp_sockdir, "/tmp/filters-sock.XXXXXX", sizeof(sp_sockdir));
	strlcpy(sp_elsewhere, "/tmp/filters-else.XXXXXX",
	    sizeof(sp_elsewhere));
	cr_assert_not_null(mkdtemp(sp_sockdir));
	cr_assert_not_null(mkdtemp(sp_elsewhere));
}

static void
sp_teardown(void)
{
	char	 path[128];
	size_t	 i;

	for (i = 0; i < 2; i++)
		kill(sp_child[i], SIGKILL);
	kill(sp_stranger, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0)
		;
	snprintf(path, sizeof(path), "%s/f", sp_sockdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/f", sp_elsewhere);
	unlink(path);
	rmdir(sp_sockdir);
	rmdir(sp_elsewhere);
}

static int
touch(const char *dir)
{
	char	 path[128];
	int	 fd;

	snprintf(path, sizeof(path), "%s/f", dir);
	if ((fd = open(path, O_WRONLY | O_CREAT, 0600)) == -1)
		return -1;
	close(fd);
	return 0;
}

enum sp_act { SP_KILL, SP_READ, SP_UNLINK };

/* The child enters spaced's filter (when asked), then acts once. */
static int
sp_try(int confined, enum sp_act act, const char *arg, pid_t pid)
{
	char	 path[128], buf[64];
	pid_t	 cpid;
	int	 fd, status, rc;

	if ((cpid = fork()) == 0) {
		if (confined)
			spaced_spec_enter();
		switch (act) {
		case SP_KILL:
			rc = kill(pid, SIGCONT);
			break;
		case SP_READ:
			if ((fd = open(arg, O_RDONLY | O_CLOEXEC)) == -1) {
				rc = -1;
				break;
			}
			rc = read(fd, buf, sizeof(buf)) > 0 ? 0 : -1;
			close(fd);
			break;
		case SP_UNLINK:
			snprintf(path, sizeof(path), "%s/f", arg);
			rc = unlink(path);
			break;
		default:
			rc = -1;
		}
		_exit(rc == 0 ? 0 : errno);
	}
	cr_assert(cpid > 0);
	cr_assert_eq(waitpid(cpid, &status, 0), cpid);
	return status;
}

#define SP_OK(st, what) cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, \
	"%s must work (status %#x)", (what), (st))
#define SP_KILLED(st, what) cr_assert(WIFSIGNALED(st) && \
	WTERMSIG(st) == SIGSYS, "%s must die of SIGSYS (status %#x)", \
	(what), (st))
#define SP_REFUSED(st, what) cr_assert(WIFEXITED(st) && \
	WEXITSTATUS(st) == EACCES, "%s must get EACCES (status %#x)", \
	(what), (st))

Test(filters, spaced_signals_only_its_children, .init = sp_setup,
    .fini = sp_teardown)
{
	int	 st;

	st = sp_try(0, SP_KILL, NULL, sp_stranger);
	SP_OK(st, "control: unconfined kill of the stranger");
	st = sp_try(1, SP_KILL, NULL, sp_child[0]);
	SP_OK(st, "kill of child 0");
	st = sp_try(1, SP_KILL, NULL, sp_child[1]);
	SP_OK(st, "kill of child 1");
	st = sp_try(1, SP_KILL, NULL, sp_stranger);
	SP_KILLED(st, "kill of a process that is not its child");
	st = sp_try(1, SP_KILL, NULL, getpid());
	SP_KILLED(st, "kill of its parent");
	st = sp_try(1, SP_KILL, NULL, -1);
	SP_KILLED(st, "kill(-1)");
	st = sp_try(1, SP_KILL, NULL, 0);
	SP_KILLED(st, "kill(0), its process group");
}

Test(filters, spaced_reads_only_its_proc, .init = sp_setup,
    .fini = sp_teardown)
{
	char	 path[64];
	int	 st;

	if (sandbox_landlock_abi() == 0)
		cr_skip_test("no Landlock in this kernel");
	st = sp_try(0, SP_READ, "/etc/passwd", 0);
	SP_OK(st, "control: unconfined read of /etc/passwd");
	st = sp_try(1, SP_READ, "/etc/passwd", 0);
	SP_REFUSED(st, "read of /etc/passwd");
	snprintf(path, sizeof(path), "/proc/%d/status", (int)sp_child[1]);
	st = sp_try(1, SP_READ, path, 0);
	SP_OK(st, "read of a child's /proc status");
	st = sp_try(1, SP_READ, "/proc/self/status", 0);
	SP_OK(st, "read of its own /proc status");
	snprintf(path, sizeof(path), "/proc/%d/status", (int)sp_stranger);
	st = sp_try(1, SP_READ, path, 0);
	SP_REFUSED(st, "read of another process's /proc status");
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)getpid());
	st = sp_try(1, SP_READ, path, 0);
	SP_REFUSED(st, "read of its parent's environment");
}

Test(filters, spaced_removes_only_in_its_socket_dir, .init = sp_setup,
    .fini = sp_teardown)
{
	int	 st;

	if (sandbox_landlock_abi() == 0)
		cr_skip_test("no Landlock in this kernel");
	cr_assert(touch(sp_elsewhere) == 0);
	cr_assert(touch(sp_sockdir) == 0);
	st = sp_try(1, SP_UNLINK, sp_elsewhere, 0);
	SP_REFUSED(st, "unlink outside the socket directory");
	st = sp_try(0, SP_UNLINK, sp_elsewhere, 0);
	SP_OK(st, "control: unconfined unlink there");
	st = sp_try(1, SP_UNLINK, sp_sockdir, 0);
	SP_OK(st, "unlink in the socket directory");
}
