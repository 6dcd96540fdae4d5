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
 * spaced-relay: its pure helpers, and its filter spec installed in a
 * forked child (the sandbox suite's helpers), each forbidden call with
 * a positive control that shows it works unconfined.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "proto.h"
#include "gatekeeper/spaced-relay/relay.h"
#include "restart_line.h"
#include "sandbox.h"
#include "sbt.h"

Test(relay_parse, target_path)
{
	struct sockaddr_un	 sun;
	char			 longdir[sizeof(sun.sun_path)];

	cr_assert(relay_target_path(&sun, "/run/spaced", "corridor.sock") == 0);
	cr_assert_str_eq(sun.sun_path, "/run/spaced/corridor.sock");
	cr_assert(sun.sun_family == AF_UNIX);
	cr_assert(relay_target_path(&sun, "/run/spaced/", "window.sock") == 0);
	cr_assert_str_eq(sun.sun_path, "/run/spaced/window.sock");
	errno = 0;
	cr_assert(relay_target_path(&sun, "run", "window.sock") == -1);
	cr_assert(errno == EINVAL);
	cr_assert(relay_target_path(&sun, "", "window.sock") == -1);
	/* Exactly full (no room for the NUL) fails; one less fits. */
	memset(longdir, 'a', sizeof(longdir));
	longdir[0] = '/';
	longdir[sizeof(sun.sun_path) - 3] = '\0';	/* + "/x" + NUL fills it */
	cr_assert(relay_target_path(&sun, longdir, "xy") == -1);
	cr_assert(errno == ENAMETOOLONG);
	cr_assert(relay_target_path(&sun, longdir, "x") == 0);
}

Test(relay_parse, conn_cap)
{
	cr_assert(relay_conn_cap(1048576, 256) == 256);
	cr_assert(relay_conn_cap(16 + 6 * 256, 256) == 256);
	cr_assert(relay_conn_cap(16 + 6 * 256 - 1, 256) == 255);
	cr_assert(relay_conn_cap(1024, 256) == (1024 - 16) / 6);
	cr_assert(relay_conn_cap(3, 256) == 1);
}

Test(relay_parse, exit_code)
{
	cr_assert(relay_exit_code(7 << 8) == 7);
	cr_assert(relay_exit_code(0) == 0);
	cr_assert(relay_exit_code(SIGTERM) == 128 + SIGTERM);
	cr_assert(relay_exit_code(SIGKILL) == 128 + SIGKILL);
}

/* The keeper starts a server again after a death, never after an exit. */
Test(relay_parse, should_restart)
{
	cr_assert(relay_should_restart(SIGKILL) == 1);	/* the oom killer */
	cr_assert(relay_should_restart(SIGSEGV) == 1);
	cr_assert(relay_should_restart(SIGABRT) == 1);
	cr_assert(relay_should_restart(SIGTERM) == 0);	/* told to stop */
	cr_assert(relay_should_restart(7 << 8) == 0);	/* its own exit */
	cr_assert(relay_should_restart(0) == 0);
	cr_assert(relay_should_restart(126 << 8) == 0);	/* cannot run */
	cr_assert(relay_should_restart(127 << 8) == 0);	/* not found */
}

Test(relay_parse, backoff)
{
	unsigned int	 b = 0, i;

	cr_assert(relay_backoff(0, 0) == 1);
	cr_assert(relay_backoff(1, 0) == 2);
	cr_assert(relay_backoff(2, 5) == 4);
	for (i = 0; i < 20; i++)
		b = relay_backoff(b, 0);
	cr_assert(b == RELAY_BACKOFF_MAX);
	/* A server that lived long starts again at once. */
	cr_assert(relay_backoff(RELAY_BACKOFF_MAX, RELAY_BACKOFF_RESET) == 1);
}

Test(relay_parse, stop_signal)
{
	cr_assert(relay_stop_signal(SIGTERM));
	cr_assert(relay_stop_signal(SIGINT));
	cr_assert(!relay_stop_signal(SIGWINCH));
	cr_assert(!relay_stop_signal(SIGUSR1));
}

/* The agent's shell: any argv but the relay's own forms. */
Test(relay_parse, is_shell)
{
	char	*sh_c[] = { "/opt/spaced/spaced-relay", "-c", "ls", NULL };
	char	*sh_lc[] = { "/opt/spaced/spaced-relay", "-l", "-c", "ls", NULL };
	char	*own_w[] = { "spaced-relay", "-w", "/w", "--", "x", NULL };
	char	*own_d[] = { "spaced-relay", "-d/run", "--", "x", NULL };
	char	*own_dd[] = { "spaced-relay", "--", "x", NULL };
	char	*alone[] = { "spaced-relay", NULL };

	cr_assert(relay_is_shell(3, sh_c));
	cr_assert(relay_is_shell(4, sh_lc));
	cr_assert(!relay_is_shell(5, own_w));
	cr_assert(!relay_is_shell(4, own_d));
	cr_assert(!relay_is_shell(3, own_dd));
	cr_assert(relay_is_shell(1, alone));	/* an interactive shell */
}

/* A space's exec: the flag, "--" and a command; anything else is not. */
Test(relay_parse, is_exec)
{
	char	*ex[] = { "/opt/spaced/spaced-relay", "--exec", "--", "ls",
	    NULL };
	char	*ex_dash[] = { "spaced-relay", "--exec", "--", "--exec",
	    NULL };
	char	*no_cmd[] = { "spaced-relay", "--exec", "--", NULL };
	char	*no_dd[] = { "spaced-relay", "--exec", "ls", NULL };
	char	*sh_c[] = { "spaced-relay", "-c", "--exec", NULL };
	char	*own_dd[] = { "spaced-relay", "--", "--exec", "--", NULL };

	cr_assert(relay_is_exec(4, ex));
	cr_assert(relay_is_exec(4, ex_dash));	/* the command's own, as given */
	cr_assert(!relay_is_exec(3, no_cmd));
	cr_assert(!relay_is_exec(3, no_dd));
	cr_assert(!relay_is_exec(3, sh_c));
	cr_assert(!relay_is_exec(4, own_dd));
	cr_assert(!relay_is_exec(1, ex));
}

/* The commands' process cap: all but an eighth of the space's pids. */
/* The one line a restart: what died by its name only when it is safe. */
Test(relay_parse, restart_line)
{
	char	 buf[RESTART_LINE_MAX];

	cr_assert_gt(relay_restart_line(buf, sizeof(buf), 1,
	    "/opt/spaced-tools/bin/opencode", W_EXITCODE(0, SIGKILL), 0, 1),
	    0);
	cr_assert_str_eq(buf, "spaced-relay: restart 1 opencode signal 9 "
	    "backoff 1\n");
	relay_restart_line(buf, sizeof(buf), 2, "bad name\n", W_EXITCODE(0,
	    SIGSEGV), 0, 2);
	cr_assert_str_eq(buf, "spaced-relay: restart 2 server signal 11 "
	    "backoff 2\n");
	relay_restart_line(buf, sizeof(buf), 3, "node", W_EXITCODE(1, 0),
	    EAGAIN, 4);
	cr_assert_str_eq(buf, "spaced-relay: restart 3 node fork 11 "
	    "backoff 4\n");
	relay_restart_line(buf, sizeof(buf), 4, "/", 0, EAGAIN, 4);
	cr_assert_str_eq(buf, "spaced-relay: restart 4 server fork 11 "
	    "backoff 4\n");
	cr_assert_eq(relay_restart_line(buf, 10, 1, "x", 9, 0, 1), -1);
}

/* The server's name: what spaced's "/bin/sh -c" command execs. */
Test(relay_parse, server_name)
{
	char	 buf[RESTART_WHAT_MAX + 2];
	char	*agent[] = { "/bin/sh", "-c", "while [ ! -s t ]; do sleep 1; "
	    "done; X=\"$(cat t)\"; export X; exec hostile-server 27601", NULL };
	char	*path[] = { "/bin/sh", "-c", "exec /opt/bin/opencode serve",
	    NULL };
	char	*plain[] = { "/usr/bin/node", "x.js", NULL };
	char	*noexec[] = { "sh", "-c", "node x.js", NULL };
	char	*execdir[] = { "sh", "-c", "exec /opt/", NULL };

	relay_server_name(agent, buf, sizeof(buf));
	cr_assert_str_eq(buf, "hostile-server");
	relay_server_name(path, buf, sizeof(buf));
	cr_assert_str_eq(buf, "opencode");
	relay_server_name(plain, buf, sizeof(buf));
	cr_assert_str_eq(buf, "node");
	relay_server_name(noexec, buf, sizeof(buf));
	cr_assert_str_eq(buf, "sh");
	relay_server_name(execdir, buf, sizeof(buf));
	cr_assert_str_eq(buf, "");
}

Test(relay, command_nproc)
{
	cr_assert_eq(relay_command_nproc("512\n"), 448);
	cr_assert_eq(relay_command_nproc("512"), 448);
	cr_assert_eq(relay_command_nproc("32\n"), 28);
	cr_assert_eq(relay_command_nproc("31\n"), 0);	/* too small to share */
	cr_assert_eq(relay_command_nproc("max\n"), 0);
	cr_assert_eq(relay_command_nproc(""), 0);
	cr_assert_eq(relay_command_nproc("-1"), 0);
	cr_assert_eq(relay_command_nproc("12x"), 0);
	cr_assert_eq(relay_command_nproc(
	    "99999999999999999999999999999999999999999"), 0);
}

/* The spec exactly as the relay installs it, Landlock included. */
static const struct sandbox_spec *spec = &relay_sandbox_spec;

static char	 sockpath[108];
static int	 listen_fd = -1;

static void
make_listener(void)
{
	struct sockaddr_un	 sun;

	snprintf(sockpath, sizeof(sockpath), "/tmp/relay-unit.%d.sock",
	    (int)getpid());
	unlink(sockpath);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, sockpath, sizeof(sun.sun_path));
	listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert(listen_fd != -1);
	cr_assert(bind(listen_fd, (struct sockaddr *)&sun, sizeof(sun)) == 0);
	cr_assert(listen(listen_fd, 16) == 0);
}

static void
drop_listener(void)
{
	if (listen_fd != -1)
		close(listen_fd);
	unlink(sockpath);
}

TestSuite(relay_filter, .init = make_listener, .fini = drop_listener);

static int
try_open(void)
{
	int	 fd;

	if ((fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC)) == -1)
		return errno;
	close(fd);
	return 0;
}

static int
try_openat(void)
{
	int	 fd;

	if ((fd = (int)syscall(SYS_openat, AT_FDCWD, "/etc/passwd",
	    O_RDONLY | O_CLOEXEC)) == -1)
		return errno;
	close(fd);
	return 0;
}

static int
try_execve(void)
{
	return sandbox_probe(PROBE_EXECVE) == 0 ? 0 : errno;
}

static int
try_fork(void)
{
	pid_t	 pid;

	/* The raw call: glibc's fork would use clone, also not allowed. */
	if ((pid = (pid_t)syscall(SYS_fork)) == -1)
		return errno;
	if (pid == 0)
		_exit(0);
	(void)waitpid(pid, NULL, 0);
	return 0;
}

static int
try_socket(int family, int type)
{
	int	 fd;

	if ((fd = socket(family, type, 0)) == -1)
		return errno;
	close(fd);
	return 0;
}

static int try_inet(void) { return try_socket(AF_INET, SOCK_STREAM); }
static int try_inet6(void) { return try_socket(AF_INET6, SOCK_STREAM); }
static int try_unix_dgram(void) { return try_socket(AF_UNIX, SOCK_DGRAM); }
static int try_netlink(void) { return try_socket(AF_NETLINK, SOCK_RAW); }

/* A listener of its own would let it take connections meant for others. */
static int
try_bind_listen(void)
{
	struct sockaddr_un	 sun;
	int			 fd, rc;

	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return errno;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	/* Abstract: no file left behind if the call works. */
	memcpy(sun.sun_path, "\0relay-unit-bind", 16);
	rc = bind(fd, (struct sockaddr *)&sun,
	    offsetof(struct sockaddr_un, sun_path) + 16);
	if (rc == 0)
		rc = listen(fd, 1);
	close(fd);
	return rc == -1 ? errno : 0;
}

/* What the relay does for each connection, after it is confined. */
static int
try_relay_connect(void)
{
	struct sockaddr_un	 sun;
	int			 fd, p[2];
	char			 c = 'x';

	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1)
		return errno;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, sockpath, sizeof(sun.sun_path));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		return errno;
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) == -1)
		return errno;
	if (write(p[1], &c, 1) != 1)
		return errno;
	if (splice(p[0], NULL, fd, NULL, 1, SPLICE_F_NONBLOCK) != 1)
		return errno;
	if (shutdown(fd, SHUT_WR) == -1)
		return errno;
	close(fd);
	return 0;
}

static int
try_accept4(void)
{
	int	 fd;

	/* Nothing pending: EAGAIN proves the call passed the filter. */
	if (fcntl(listen_fd, F_SETFL, O_NONBLOCK) == -1)
		return SBT_BROKEN;
	if ((fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC)) == -1)
		return errno == EAGAIN ? 0 : errno;
	close(fd);
	return 0;
}

/* A child forked before confinement, outside the Landlock domain. */
static pid_t	 victim = -1;

static int
make_victim(void)
{
	if ((victim = fork()) == -1)
		return -1;
	if (victim == 0) {
		pause();
		_exit(0);
	}
	return 0;
}

static int
try_kill_child(void)
{
	int	 status;

	if (kill(victim, SIGTERM) == -1)
		return errno;
	if (wait4(victim, &status, 0, NULL) != victim)
		return errno;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? 0 : 1;
}

static int
try_kill_all(void)
{
	/* Signal 0 to every process: a broadcast the filter forbids. */
	return kill(-1, 0) == -1 ? errno : 0;
}

static int	 status_fd = -1;

static int
open_status(void)
{
	return (status_fd = open("/proc/self/status", O_RDONLY)) == -1 ?
	    errno : 0;
}

static int
try_status(void)
{
	char	 buf[4096];
	ssize_t	 n;

	if ((n = pread(status_fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return SBT_BROKEN;
	buf[n] = '\0';
	if (strstr(buf, "\nSeccomp:\t2\n") == NULL)
		return 1;
	if (strstr(buf, "\nNoNewPrivs:\t1\n") == NULL)
		return 2;
	return 0;
}

Test(relay_filter, status_shows_the_filter)
{
	int	 st;

	st = sbt_run_prepared(NULL, open_status, try_status);
	cr_assert(sbt_exit(st) == 1, "control: %s", sbt_describe(st));
	st = sbt_run_prepared(spec, open_status, try_status);
	cr_assert(sbt_exit(st) == 0, "%s", sbt_describe(st));
}

Test(relay_filter, no_open)
{
	/* Controls: unconfined, both work. */
	SBT_EXITS(NULL, try_open, 0);
	SBT_EXITS(NULL, try_openat, 0);
	/* A path probe: refused softly (EACCES), never opened. */
	SBT_EXITS(spec, try_open, EACCES);
	SBT_EXITS(spec, try_openat, EACCES);
}

Test(relay_filter, no_exec_no_fork)
{
	SBT_EXITS(NULL, try_execve, 0);
	SBT_KILLED(spec, try_execve);
	SBT_EXITS(NULL, try_fork, 0);
	SBT_KILLED(spec, try_fork);
}

Test(relay_filter, sockets_only_unix_stream)
{
	SBT_EXITS(NULL, try_inet, 0);
	SBT_KILLED(spec, try_inet);
	SBT_EXITS(NULL, try_inet6, 0);
	SBT_KILLED(spec, try_inet6);
	SBT_EXITS(NULL, try_unix_dgram, 0);
	SBT_KILLED(spec, try_unix_dgram);
	SBT_EXITS(NULL, try_netlink, 0);
	SBT_KILLED(spec, try_netlink);
	SBT_EXITS(NULL, try_bind_listen, 0);
	SBT_KILLED(spec, try_bind_listen);
}

Test(relay_filter, what_the_relay_does_still_works)
{
	/* Under Landlock with no filesystem: a path connect is no fs access. */
	SBT_EXITS(spec, try_relay_connect, 0);
	SBT_EXITS(spec, try_accept4, 0);
}

Test(relay_filter, signals_its_child_only)
{
	int	 st;

	/* Landlock ABI >= 6 would scope signals; SB_CHILD lets this one out. */
	st = sbt_run_prepared(spec, make_victim, try_kill_child);
	cr_assert(sbt_exit(st) == 0, "kill child: %s", sbt_describe(st));
	SBT_EXITS(NULL, try_kill_all, 0);
	SBT_KILLED(spec, try_kill_all);
}
