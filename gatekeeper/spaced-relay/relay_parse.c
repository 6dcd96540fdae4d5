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
