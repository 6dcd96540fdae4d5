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
 * A command's keeper: what a space's exec helper forks for each command,
 * inside the space's pid namespace, and the command's parent.  It is a
 * child subreaper, so whatever the command starts and leaves (a setsid,
 * a double fork, a daemon, with its environment cleared or not) has the
 * keeper for its parent and none of the space's other processes; the
 * helper itself cannot be that, being outside the namespace.  Told to
 * end (SIGTERM, from the helper or as its death signal) it SIGKILLs its
 * children until it has none, which is the whole command.  When the
 * command's first process ends it ends with that status, and what the
 * command left running goes to the space's pid 1, as before.  It stays
 * the helper's user, which the space's user cannot signal or trace, and
 * holds none of the command's descriptors.
 */

#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ns.h"

/* A process's parent, from its /proc stat (the space's /proc); -1. */
static pid_t
keeper_parent(pid_t pid)
{
	char	 buf[512], *p, state;
	int	 ppid;

	if ((p = ns_proc_stat(pid, buf, sizeof(buf))) == NULL ||
	    sscanf(p, " %c %d", &state, &ppid) != 2)
		return -1;
	return ppid;
}

/*
 * SIGKILL to each child of ours.  A child stays ours until we reap it,
 * so the pid read is still that child's when the signal goes.
 */
static void
keeper_kill_children(pid_t cmd)
{
	DIR		*d;
	struct dirent	*e;
	pid_t		 me = getpid(), pid;

	(void)kill(cmd, SIGKILL);	/* without /proc, the command at least */
	if ((d = opendir("/proc")) == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    keeper_parent((pid = strtol(e->d_name, NULL, 10))) == me)
			(void)kill(pid, SIGKILL);
	closedir(d);
}

/*
 * The whole command: what a killed child had is ours the moment it dies
 * (the kernel hands it over before the child can be reaped), and is
 * killed on the next round; done when we have no child left.
 */
static __dead void
keeper_end(pid_t cmd)
{
	for (;;) {
		keeper_kill_children(cmd);
		if (waitpid(-1, NULL, 0) == -1 && errno == ECHILD)
			_exit(128 + SIGKILL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
}

/*
 * Forked by the helper with SIGTERM and SIGCHLD held and the command's
 * descriptors on 0-2 (and tty's socket); mask is what the command gets.
 * life: as ns_command's, the helper holds its other end.
 */
__dead void
ns_keeper(const struct ns_space *ns, char *const argv[], int life,
    const struct ns_tty *tty, const sigset_t *mask)
{
	struct pollfd	 pfd = { life, POLLIN, 0 };
	sigset_t	 set;
	siginfo_t	 si;
	pid_t		 cmd, pid;
	int		 status;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	signal(SIGCHLD, SIG_DFL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1 ||
	    prctl(PR_SET_PDEATHSIG, SIGTERM) == -1 ||
	    (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLHUP)))
		_exit(126);	/* the helper went before the prctl took */
	if ((cmd = fork()) == -1) {
		dprintf(2, "spaced-ns: fork: %s\n", strerror(errno));
		_exit(126);
	}
	if (cmd == 0) {
		sigprocmask(SIG_SETMASK, mask, NULL);
		ns_command(ns, 0, argv, life, tty);
	}
	/* The command's output ends when the command's holders close it. */
	if (ns_null_stdio() == -1)
		keeper_end(cmd);
	ns_close_others(-1, -1, -1);
	for (;;) {
		if (sigwaitinfo(&set, &si) == -1)
			continue;
		if (si.si_signo == SIGTERM)
			keeper_end(cmd);
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			if (pid == cmd)
				_exit(WIFEXITED(status) ? WEXITSTATUS(status) :
				    128 + WTERMSIG(status));
	}
}
