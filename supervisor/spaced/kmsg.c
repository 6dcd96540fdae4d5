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
 * Which system call a seccomp filter killed a worker for.  The kernel
 * logs every SECCOMP_RET_KILL_PROCESS as an audit record (type 1326) in
 * its ring buffer; as root spaced opens /dev/kmsg at start, positioned at
 * the end, and looks for the dead worker's pid there.  As a plain user,
 * or when the record is rate limited away, the syscall stays unknown.
 */

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "spaced.h"

static int	 kmsg_fd = -1;

void
kmsg_open(void)
{
	if ((kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK |
	    O_CLOEXEC)) == -1) {
		log_debug("/dev/kmsg: %s; seccomp kills will not name the "
		    "syscall", strerror(errno));
		return;
	}
	if (lseek(kmsg_fd, 0, SEEK_END) == -1) {
		close(kmsg_fd);
		kmsg_fd = -1;
	}
}

/* Pure: 0 and *syscall when line is the seccomp record of pid. */
int
kmsg_parse_seccomp(const char *line, size_t len, pid_t pid, long *syscall)
{
	char		 buf[1024], want[32];
	const char	*p;
	char		*end;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (strstr(buf, "type=1326") == NULL)
		return -1;
	snprintf(want, sizeof(want), " pid=%d ", (int)pid);
	if (strstr(buf, want) == NULL)
		return -1;
	if ((p = strstr(buf, " syscall=")) == NULL)
		return -1;
	p += strlen(" syscall=");
	errno = 0;
	*syscall = strtol(p, &end, 10);
	if (errno != 0 || end == p || *syscall < 0 || *syscall > 4096)
		return -1;
	return 0;
}

void
kmsg_seccomp_syscall(pid_t pid, char *out, size_t outlen)
{
	struct timespec	 pause = { 0, 20 * 1000 * 1000 };
	char		 rec[1024], *name;
	ssize_t		 n;
	long		 nr;
	int		 tries;

	snprintf(out, outlen, "syscall unknown");
	if (kmsg_fd == -1)
		return;
	/* The audit record may trail the SIGCHLD a little. */
	for (tries = 0; tries < 10; tries++) {
		while ((n = read(kmsg_fd, rec, sizeof(rec))) > 0 ||
		    (n == -1 && errno == EPIPE)) {
			if (n <= 0)
				continue;	/* overwritten records */
			if (kmsg_parse_seccomp(rec, n, pid, &nr) == 0) {
				name = seccomp_syscall_resolve_num_arch(
				    SCMP_ARCH_NATIVE, nr);
				snprintf(out, outlen, "syscall %ld (%s)", nr,
				    name != NULL ? name : "?");
				free(name);
				return;
			}
		}
		nanosleep(&pause, NULL);
	}
}
