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
 * The baseline of regress/bench/spaced_stream.sh: N MiB written in
 * 256 KiB writes into a socketpair and read by another process, the
 * plainest copy the stream through spaced can be held against.
 * usage: rawcopy MiB; prints MiB/s.
 */

#include <sys/socket.h>
#include <sys/wait.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Large writes: the fastest plain copy here (16 KiB ones are ~2.5x
 * slower, and made the ratio flatter than the truth). */
#define RAW_CHUNK	(256 * 1024)

int
main(int argc, char *argv[])
{
	static char	 buf[RAW_CHUNK];
	struct timespec	 a, b;
	long long	 total, left;
	ssize_t		 n;
	int		 sp[2];
	pid_t		 pid;
	int		 status;

	if (argc != 2 || (total = atoll(argv[1]) << 20) <= 0)
		errx(2, "usage: rawcopy MiB");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == -1)
		err(1, "socketpair");
	memset(buf, 'x', sizeof(buf));
	clock_gettime(CLOCK_MONOTONIC, &a);
	if ((pid = fork()) == 0) {
		close(sp[0]);
		for (left = total; left > 0; left -= n)
			if ((n = read(sp[1], buf, sizeof(buf))) <= 0)
				_exit(1);
		_exit(0);
	}
	close(sp[1]);
	for (left = total; left > 0; left -= n)
		if ((n = write(sp[0], buf, left < (long long)sizeof(buf) ?
		    left : (long long)sizeof(buf))) <= 0)
			err(1, "write");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		errx(1, "the reader failed: %#x", status);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", (total / 1048576.0) / ((b.tv_sec - a.tv_sec) +
	    (b.tv_nsec - a.tv_nsec) / 1e9));
	return 0;
}
