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
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "proto.h"
#include "sandbox.h"
#include "supervisor/spaced.h"
#include "worker-docker/docker_worker.h"
#include "worker-git/git_worker.h"
#include "gatekeeper/collector/journal_worker.h"

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
	allowed(&spaced_sandbox, PROBE_OPEN, "open of /proc and files");
}
