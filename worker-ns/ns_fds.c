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
 * A child's descriptors: what it keeps of spaced-ns's, and /dev/null
 * for its standard ones.
 */

#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

#include "ns.h"

/* close_range(2), or a loop where the kernel lacks it (before 5.9). */
static void
close_from_to(int lo, unsigned int hi)
{
	int	 fd;

	if (syscall(SYS_close_range, lo, hi, 0) == 0 || errno != ENOSYS)
		return;
	for (fd = lo; fd < 1024 && (unsigned int)fd <= hi; fd++)
		(void)close(fd);
}

/* Every descriptor of spaced-ns's closed in a child but 0-2 and keep[]. */
void
ns_close_all_but(int *keep, size_t n)
{
	size_t	 i, j;
	int	 lo = 3, t;

	/* Ascending, then each gap in one call: a thousand close(2)s cost. */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (keep[j] < keep[i]) {
				t = keep[i];
				keep[i] = keep[j];
				keep[j] = t;
			}
	for (i = 0; i < n; i++) {
		if (keep[i] < lo)
			continue;
		if (keep[i] > lo)
			close_from_to(lo, keep[i] - 1);
		lo = keep[i] + 1;
	}
	close_from_to(lo, ~0U);
}

void
ns_close_others(int k1, int k2, int k3)
{
	int	 keep[3] = { k1, k2, k3 };

	ns_close_all_but(keep, 3);
}

/*
 * /dev/null on stdin, stdout and stderr: spaced-ns's own are spaced's
 * log pipe, which a space's bytes would flood without a cap.
 */
int
ns_null_stdio(void)
{
	int	 fd, rv = 0;

	if ((fd = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		return -1;
	if (dup2(fd, STDIN_FILENO) == -1 || dup2(fd, STDOUT_FILENO) == -1 ||
	    dup2(fd, STDERR_FILENO) == -1)
		rv = -1;
	if (fd > STDERR_FILENO)
		close(fd);
	return rv;
}
