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
 * What a native space's agent needs of spaced-ns beside the space: the
 * folder of its tools, and its token written into its home through a
 * command's stdin (never an argv, a variable or a file of the host's).
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ns.h"

/* A volume name as spaced makes it, as a folder of <state>/tools. */
int
ns_tools_path(char *buf, size_t len, const char *volume)
{
	size_t	 n = strlen(volume);
	int	 r;

	if (n == 0 || n >= TOOLS_MSG_VOLUME_MAX || volume[0] == '.' ||
	    strspn(volume, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_.-") != n)
		return -1;
	r = snprintf(buf, len, "%s/%s/%s", ns_state(), NS_TOOLS_DIR, volume);
	return r < 0 || (size_t)r >= len ? -1 : 0;
}

/*
 * fds for ns_enter_exec: a pipe on stdin, whose write end is *in, and
 * out on stdout and stderr (/dev/null when out is -1).  The caller
 * closes fds[0] and fds[1] once the command has them; out is theirs.
 */
int
ns_stdin_fds(int out, int fds[3], int *in)
{
	int	 p[2];

	if (out == -1 && (out = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		return -1;
	if (pipe2(p, O_CLOEXEC) == -1) {
		close(out);
		return -1;
	}
	fds[0] = p[0];
	fds[1] = fds[2] = out;
	*in = p[1];
	return 0;
}

#define NS_RUN_STDIN_MS	(10 * 1000)

/*
 * A command in the space with bytes on its stdin, waited for: 0 when it
 * exited 0.  The bytes go through a pipe, never argv or environment.
 */
int
ns_run_stdin(const struct ns_space *ns, int target, pid_t target_pid,
    char *const argv[], const char *in, size_t len)
{
	int	 wr, fds[3], status, i;
	pid_t	 pid, w;
	ssize_t	 n;

	if (ns_stdin_fds(-1, fds, &wr) == -1)
		return -1;
	pid = ns_enter_exec(ns, target, target_pid, argv, fds, NULL);
	close(fds[0]);
	close(fds[1]);
	while (pid != -1 && len > 0) {
		if ((n = write(wr, in, len)) == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		in += n;
		len -= n;
	}
	close(wr);
	if (pid == -1)
		return -1;
	/* The space can stop the command (kill -STOP): 10 s at most. */
	for (i = 0; (w = waitpid(pid, &status, WNOHANG)) != pid; i++) {
		if ((w == -1 && errno != EINTR) || i == NS_RUN_STDIN_MS / 50) {
			(void)kill(pid, SIGKILL);
			(void)waitpid(pid, &status, 0);
			return -1;
		}
		usleep(50 * 1000);
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && len == 0 ?
	    0 : -1;
}

/* The token into the space's home, by the fixed script's stdin. */
int
ns_token_write(const struct ns_space *ns, pid_t init, const char *token)
{
	char *const	 argv[] = SPACE_TOKEN_WRITE_ARGV;

	return ns_run_stdin(ns, EXEC_TARGET_SPACE, init, argv, token,
	    strlen(token));
}
