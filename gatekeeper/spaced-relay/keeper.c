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
 * The keeper of the agent's server: the relay's one child, outside its
 * filter, starts the server and starts it again with a backoff when it
 * dies; and the agent's shell, which makes each command the kernel's
 * first victim before it runs the real shell.  Never listens or relays.
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "relay.h"
#include "restart_line.h"

/* Passed on to the child; SIGCHLD is the relay's own. */
const int relay_fwd_sigs[RELAY_FWD_SIGS_MAX] = {
	SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, 0
};

/* What the agent's shell runs once it made itself the first victim. */
static const char *const keeper_shells[] = { "/bin/bash", "/bin/sh", NULL };

static time_t
keeper_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Best effort: a kernel without the file still runs the command. */
static void
keeper_oom_adj(const char *value)
{
	int	 fd;

	if ((fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC)) ==
	    -1)
		return;
	if (write(fd, value, strlen(value)) == -1)
		log_warn("oom_score_adj");
	close(fd);
}

/* The space's pids limit: cgroup v2, then v1; "" when neither is seen. */
static void
keeper_pids_max(char *buf, size_t len)
{
	static const char *const files[] = { "/sys/fs/cgroup/pids.max",
	    "/sys/fs/cgroup/pids/pids.max", NULL };
	ssize_t	 n = -1;
	int	 fd, i;

	for (i = 0; files[i] != NULL && n <= 0; i++) {
		if ((fd = open(files[i], O_RDONLY | O_CLOEXEC)) == -1)
			continue;
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
}

/*
 * RLIMIT_NPROC counts the tasks of the space's own uid: capped below the
 * space's pids limit, a fork bomb of the agent's stops short and the
 * server (whose limit stays) can still make threads and start commands.
 */
static void
keeper_nproc(void)
{
	struct rlimit	 rl;
	char		 buf[32];
	long long	 cap;

	keeper_pids_max(buf, sizeof(buf));
	if ((cap = relay_command_nproc(buf)) == 0 ||
	    getrlimit(RLIMIT_NPROC, &rl) == -1)
		return;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (rlim_t)cap)
		rl.rlim_max = cap;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NPROC, &rl) == -1)
		log_warn("RLIMIT_NPROC");
}

/*
 * The agent's shell ($SHELL of the server): raise this process's
 * oom_score_adj and lower its process cap, which everything it starts
 * inherits, then become the image's shell with the same arguments.
 */
__dead void
relay_shell(char **argv)
{
	int	 i;

	keeper_oom_adj(RELAY_OOM_COMMAND);
	keeper_nproc();
	for (i = 0; keeper_shells[i] != NULL; i++) {
		argv[0] = strrchr(keeper_shells[i], '/') + 1;
		execv(keeper_shells[i], argv);
	}
	log_warn("no shell");
	_exit(127);
}

static pid_t
keeper_spawn(char **argv, const struct relay_inherit *ri, const char *self)
{
	pid_t	 pid;
	int	 i, saved, errfd;

	if ((pid = fork()) != 0) {
		if (pid == -1) {
			saved = errno;
			log_warn("fork");
			errno = saved;
		}
		return pid;
	}
	for (i = 0; relay_fwd_sigs[i] != 0; i++)
		(void)sigaction(relay_fwd_sigs[i], &ri->ri_fwd[i], NULL);
	(void)sigaction(SIGCHLD, &ri->ri_chld, NULL);
	(void)sigaction(SIGPIPE, &ri->ri_pipe, NULL);
	(void)setrlimit(RLIMIT_NOFILE, &ri->ri_nofile);
	if (sigprocmask(SIG_SETMASK, &ri->ri_mask, NULL) == -1)
		_exit(126);
	/*
	 * The server's stderr is its stdout: the container's stderr is
	 * left to the relay, whose restart lines the host reads there.
	 * A copy, closed at the exec, says why an exec failed.
	 */
	errfd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	if (dup2(STDOUT_FILENO, STDERR_FILENO) == -1)
		_exit(126);
	/* The commands the server runs through its shell come back to us. */
	if (self != NULL && setenv("SHELL", self, 1) == -1)
		_exit(126);
	execvp(argv[0], argv);
	saved = errno;
	if (errfd != -1)
		(void)dup2(errfd, STDERR_FILENO);
	errno = saved;
	log_warn("%s", argv[0]);
	_exit(saved == ENOENT ? 127 : 126);
}

/*
 * Waits for the server or a signal until deadline (0: no deadline).
 * Returns 1 with *status when the server is gone, 0 at the deadline.
 */
static int
keeper_wait(pid_t server, time_t deadline, int *stopping, int *status)
{
	sigset_t	 set;
	siginfo_t	 si;
	struct timespec	 ts;
	int		 i, sig;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (i = 0; relay_fwd_sigs[i] != 0; i++)
		sigaddset(&set, relay_fwd_sigs[i]);
	for (;;) {
		if (server > 0 && waitpid(server, status, WNOHANG) == server)
			return 1;
		memset(&ts, 0, sizeof(ts));
		if (deadline != 0) {
			if (keeper_now() >= deadline)
				return 0;
			ts.tv_sec = deadline - keeper_now();
		} else
			ts.tv_sec = 60;
		if ((sig = sigtimedwait(&set, &si, &ts)) == -1)
			continue;
		if (sig == SIGCHLD)
			continue;
		if (relay_stop_signal(sig))
			*stopping = 1;
		if (server > 0)
			(void)kill(server, sig);
		else if (*stopping)
			return 0;
	}
}

/*
 * The relay's child: waits at the gate until the relay confined itself,
 * then keeps the server running.  Exits with the server's code once the
 * server ended on its own or was told to stop.
 */
__dead void
keeper_run(char **argv, const struct relay_inherit *ri, int gate)
{
	char		 self[PATH_MAX], line[RESTART_LINE_MAX];
	char		 name[RESTART_WHAT_MAX + 2];
	const char	*shell = NULL;
	time_t		 started;
	pid_t		 server;
	ssize_t		 n;
	unsigned int	 restarts = 0, backoff = 0;
	int		 status = 0, stopping = 0, fork_errno;
	char		 c = 0;

	while (read(gate, &c, 1) == -1 && errno == EINTR)
		;
	if (c != 'c')
		_exit(126);
	close(gate);
	relay_server_name(argv, name, sizeof(name));
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		shell = self;
	} else
		log_warn("/proc/self/exe: the server's commands keep its "
		    "oom_score_adj");
	for (;;) {
		started = keeper_now();
		fork_errno = 0;
		/* A fork that failed (the pids limit) is tried again. */
		if ((server = keeper_spawn(argv, ri, shell)) == -1) {
			fork_errno = errno != 0 ? errno : EAGAIN;
			status = W_EXITCODE(1, 0);
		} else
			(void)keeper_wait(server, 0, &stopping, &status);
		if (stopping || (fork_errno == 0 &&
		    !relay_should_restart(status)))
			_exit(relay_exit_code(status));
		backoff = relay_backoff(backoff, keeper_now() - started);
		restarts++;
		/* One line on the container's stderr, for the host to collect. */
		if ((n = relay_restart_line(line, sizeof(line), restarts,
		    name, status, fork_errno, backoff)) > 0 &&
		    write(STDERR_FILENO, line, n) != n)
			log_warn("the restart line");
		(void)keeper_wait(-1, keeper_now() + backoff, &stopping,
		    &status);
		if (stopping)
			_exit(relay_exit_code(status));
	}
}
