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
 * A space's exec on the Docker place (relay_exec.h): a child subreaper
 * between the engine and the command.  What the command leaves while it
 * runs (a setsid, a double fork, a cleared environment) is re-parented
 * here, not to the space's pid 1, so the kill of the exec
 * (worker-docker/docker_execcall.c) finds all of it by the parent
 * chain.  Otherwise it is not there: the command's status (a signal as
 * 128+n, as the engine says), its terminal, stdio and signals pass;
 * what it leaves at a normal end runs on under pid 1.  No shell and no
 * parser: the argv after "--" is executed as given.
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "relay.h"

/* The runtime's PATH when the exec's environment has none (runc's). */
#define SUBREAPER_PATH	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:" \
			"/sbin:/bin"

extern char	**environ;

/* A start that failed, in the engine's words (lower case, as runc's). */
static __dead void
subreaper_fail(const char *what, int saved)
{
	char	 why[128];

	strlcpy(why, strerror(saved), sizeof(why));
	why[0] = tolower((unsigned char)why[0]);
	log_warnx("exec %s: %s", what, why);
	_exit(saved == ENOENT ? 127 : 126);
}

/*
 * execvp, without its /bin/sh for a file that is no executable: the
 * engine runs none either.  127 when nothing was found, 126 when it
 * could not run (as a shell, and the native place, say).
 */
static __dead void
subreaper_run(char **argv)
{
	const char	*p;
	char		 file[PATH_MAX];
	size_t		 dlen;
	int		 n, eacces = 0;

	if (strchr(argv[0], '/') != NULL) {
		execve(argv[0], argv, environ);
		subreaper_fail(argv[0], errno);
	}
	if ((p = getenv("PATH")) == NULL)
		p = SUBREAPER_PATH;
	for (;; p += dlen + 1) {
		dlen = strcspn(p, ":");
		/* an empty entry is the current folder, as execvp's */
		n = snprintf(file, sizeof(file), "%.*s%s%s", (int)dlen, p,
		    dlen > 0 ? "/" : "", argv[0]);
		if (n > 0 && (size_t)n < sizeof(file)) {
			execve(file, argv, environ);
			if (errno == EACCES)
				eacces = 1;
			else if (errno != ENOENT && errno != ENOTDIR &&
			    errno != ESTALE && errno != ENODEV &&
			    errno != ETIMEDOUT)
				subreaper_fail(file, errno);
		}
		if (p[dlen] == '\0')
			break;
	}
	if (eacces)
		subreaper_fail(argv[0], EACCES);
	log_warnx("exec: \"%s\": executable file not found in $PATH", argv[0]);
	_exit(127);
}

/*
 * The command: a process group of its own, as it had as the engine's
 * first process, and on a terminal the foreground one, so ^C and ^Z
 * reach it and not us (tini does the same).  SIGTTOU is held while we
 * are still a background group; then the mask and SIGCHLD we were given.
 */
static __dead void
subreaper_child(char **argv, const sigset_t *mask,
    const struct sigaction *chld)
{
	sigset_t	 ttou;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	(void)sigprocmask(SIG_BLOCK, &ttou, NULL);
	(void)setpgid(0, 0);
	(void)tcsetpgrp(STDIN_FILENO, getpgrp());	/* ENOTTY: no terminal */
	(void)sigaction(SIGCHLD, chld, NULL);
	if (sigprocmask(SIG_SETMASK, mask, NULL) == -1)
		_exit(126);
	subreaper_run(argv);
}

/* The command's stdio ends when the command's holders close it, not us. */
static void
subreaper_stdio(void)
{
	int	 fd, i;

	if ((fd = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1) {
		for (i = 0; i <= STDERR_FILENO; i++)
			close(i);
		return;
	}
	for (i = 0; i <= STDERR_FILENO; i++)
		if (fd != i)
			(void)dup2(fd, i);
	if (fd > STDERR_FILENO)
		close(fd);
}

__dead void
relay_exec(char **argv)
{
	struct sigaction	 dfl, chld;
	sigset_t		 set, mask;
	siginfo_t		 si;
	pid_t			 cmd, pid;
	int			 i, status;

	/* Without it, nothing is ours to find: the exec does not start. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1) {
		log_warn("PR_SET_CHILD_SUBREAPER");
		_exit(126);
	}
	/* Held from before the fork: no signal to pass, no end, is lost. */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (i = 0; relay_fwd_sigs[i] != 0; i++)
		sigaddset(&set, relay_fwd_sigs[i]);
	if (sigprocmask(SIG_BLOCK, &set, &mask) == -1) {
		log_warn("sigprocmask");
		_exit(126);
	}
	/* An ignored SIGCHLD would reap the command's status away. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	if (sigaction(SIGCHLD, &dfl, &chld) == -1) {
		log_warn("sigaction");
		_exit(126);
	}
	if ((cmd = fork()) == -1) {
		log_warn("fork");
		_exit(126);
	}
	if (cmd == 0)
		subreaper_child(argv, &mask, &chld);
	subreaper_stdio();
	for (;;) {
		if (sigwaitinfo(&set, &si) == -1)
			continue;
		if (si.si_signo != SIGCHLD) {
			(void)kill(cmd, si.si_signo);	/* ours until reaped */
			continue;
		}
		/* Each orphan that ended is reaped; the command's end is ours. */
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			if (pid == cmd)
				_exit(relay_exit_code(status));
	}
}
