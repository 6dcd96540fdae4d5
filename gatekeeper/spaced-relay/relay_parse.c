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

/* Pure helpers of spaced-relay: no I/O, no globals. */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relay.h"
#include "relay_exec.h"
#include "restart_line.h"

/*
 * sockdir/name as a UNIX socket address.  -1 (ENAMETOOLONG) when it
 * does not fit sun_path with its NUL, so a long folder fails at start
 * instead of at the first connection; -1 (EINVAL) for an empty or
 * relative folder, which would resolve against a cwd nobody chose.
 */
int
relay_target_path(struct sockaddr_un *sun, const char *sockdir,
    const char *name)
{
	int	 n;

	if (sockdir == NULL || sockdir[0] != '/' || name == NULL ||
	    name[0] == '\0') {
		errno = EINVAL;
		return -1;
	}
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	n = snprintf(sun->sun_path, sizeof(sun->sun_path), "%s%s%s", sockdir,
	    sockdir[strlen(sockdir) - 1] == '/' ? "" : "/", name);
	if (n < 0 || (size_t)n >= sizeof(sun->sun_path)) {
		memset(sun, 0, sizeof(*sun));
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/*
 * How many connections fit an fd limit: each costs RELAY_FDS_PER_CONN,
 * RELAY_FDS_SPARE are the relay's own.  At most want, at least 1.
 */
int
relay_conn_cap(unsigned long long nofile_max, int want)
{
	unsigned long long	 fit;

	if (nofile_max <= RELAY_FDS_SPARE + RELAY_FDS_PER_CONN)
		return 1;
	fit = (nofile_max - RELAY_FDS_SPARE) / RELAY_FDS_PER_CONN;
	return fit < (unsigned long long)want ? (int)fit : want;
}

/* A wait status as a shell reports it: the code, or 128 + the signal. */
int
relay_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

/*
 * Whether the keeper starts the server again: after a death by a
 * signal (the oom killer's SIGKILL, a crash's SIGSEGV or SIGABRT), not
 * after a stop signal nor an exit, which passes on as the relay's own.
 */
int
relay_should_restart(int status)
{
	return WIFSIGNALED(status) && !relay_stop_signal(WTERMSIG(status));
}

/* Seconds before the next start: 1, doubling to a cap, 1 again after a long life. */
unsigned int
relay_backoff(unsigned int prev, long lived)
{
	if (prev == 0 || lived >= RELAY_BACKOFF_RESET)
		return 1;
	return prev >= RELAY_BACKOFF_MAX / 2 ? RELAY_BACKOFF_MAX : prev * 2;
}

/* The signals that stop the space: the server is not started again. */
int
relay_stop_signal(int sig)
{
	return sig == SIGTERM || sig == SIGINT || sig == SIGHUP ||
	    sig == SIGQUIT;
}

/*
 * 1 when argv is a space's exec (relay_exec.h): the flag, "--" and a
 * command; what follows "--" is the command's, never read here.
 */
int
relay_is_exec(int argc, char *const *argv)
{
	return argc > RELAY_EXEC_ARGS &&
	    strcmp(argv[1], RELAY_EXEC_FLAG) == 0 &&
	    strcmp(argv[2], "--") == 0;
}

/*
 * 1 when argv is the agent's shell's, not the relay's own (-d, -w, --):
 * a shell may be started with no argument at all (an interactive one).
 */
int
relay_is_shell(int argc, char *const *argv)
{
	if (argc < 2)
		return 1;
	return strcmp(argv[1], "--") != 0 && strncmp(argv[1], "-d", 2) != 0 &&
	    strncmp(argv[1], "-w", 2) != 0;
}

/*
 * The agent's commands' process cap from the space's pids.max (text,
 * as read): all but an eighth, so a fork bomb of theirs leaves the
 * server room for its threads and its next command.  0: no cap (no
 * limit, "max", a limit too small to share, or text not a number).
 */
long long
relay_command_nproc(const char *pids_max)
{
	const char	*errstr;
	char		 buf[32];
	long long	 max;

	if (strlcpy(buf, pids_max, sizeof(buf)) >= sizeof(buf))
		return 0;
	buf[strcspn(buf, "\n")] = '\0';
	max = strtonum(buf, 1, LLONG_MAX / 2, &errstr);
	if (errstr != NULL || max < RELAY_PIDS_MIN)
		return 0;
	return max - max / RELAY_PIDS_RESERVE;
}

/*
 * The restart line (restart_line.h) into buf, newline ended: what died
 * is name's last part when it is made of RESTART_WHAT_CHARS, else
 * "server"; how, a signal's number, or the fork's errno when no server
 * could start.  Returns its length, or -1 when buf is too small.
 */
int
relay_restart_line(char *buf, size_t len, unsigned int n, const char *name,
    int status, int fork_errno, unsigned int backoff)
{
	const char	*what, *slash;
	int		 code, m;

	what = name != NULL && (slash = strrchr(name, '/')) != NULL ?
	    slash + 1 : name;
	if (what == NULL || what[0] == '\0' ||
	    strlen(what) > RESTART_WHAT_MAX ||
	    what[strspn(what, RESTART_WHAT_CHARS)] != '\0')
		what = "server";
	code = fork_errno != 0 ? fork_errno : WIFSIGNALED(status) ?
	    WTERMSIG(status) : 0;
	if (n > RESTART_COUNT_MAX)
		n = RESTART_COUNT_MAX;
	m = snprintf(buf, len, "%s%u %s %s %d backoff %u\n", RESTART_LINE_TAG,
	    n, what, fork_errno != 0 ? "fork" : "signal", code, backoff);
	return m < 0 || (size_t)m >= len ? -1 : m;
}

/*
 * What the keeper starts, by name: the program a "/bin/sh -c" command
 * ends by exec'ing (how spaced starts every agent's server), else
 * argv[0].  Into buf, cut to len; relay_restart_line checks it.
 */
void
relay_server_name(char *const *argv, char *buf, size_t len)
{
	const char	*cmd, *p, *at = NULL, *base, *name;
	size_t		 n;

	base = strrchr(argv[0], '/') != NULL ? strrchr(argv[0], '/') + 1 :
	    argv[0];
	if (strcmp(base, "sh") == 0 && argv[1] != NULL &&
	    strcmp(argv[1], "-c") == 0 && (cmd = argv[2]) != NULL) {
		for (p = cmd; (p = strstr(p, "exec ")) != NULL; p++)
			if (p == cmd || p[-1] == ' ' || p[-1] == ';')
				at = p + 5;
		if (at != NULL) {
			at += strspn(at, " ");
			n = strcspn(at, " ;&|");
			/* Within the word only: base is argv[0]'s. */
			for (name = at, p = at; p < at + n; p++)
				if (*p == '/')
					name = p + 1;
			n -= name - at;
			snprintf(buf, len, "%.*s", (int)n, name);
			return;
		}
	}
	strlcpy(buf, base, len);
}
