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
 * stdfds_open: a closed 0, 1 or 2 is /dev/null after it, one left open
 * is left as it was, and nothing more is opened.
 */

#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "stdfds.h"

static int
is_null(int fd)
{
	char	 at[PATH_MAX];
	ssize_t	 n;
	char	 path[32];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((n = readlink(path, at, sizeof(at) - 1)) == -1)
		return 0;
	at[n] = '\0';
	return strcmp(at, "/dev/null") == 0;
}

/* In a child: the test's own 0-2 are Criterion's. */
static int
child_closed(void)
{
	struct stat	 before, after;
	int		 next;

	if (fstat(1, &before) == -1 || close(0) == -1 || close(2) == -1)
		return 10;
	if (stdfds_open() == -1)
		return 11;
	if (!is_null(0) || !is_null(2))
		return 12;
	if (fstat(1, &after) == -1 || after.st_ino != before.st_ino ||
	    after.st_dev != before.st_dev)
		return 13;
	/* Nothing else held: the next number is the one after 2's. */
	if ((next = dup(1)) == -1)
		return 14;
	close(next);
	return stdfds_open() == 0 && dup(1) == next ? 0 : 15;
}

Test(stdfds, closed_ones_on_dev_null_the_open_one_kept)
{
	pid_t	 pid;
	int	 status;

	if ((pid = fork()) == 0)
		_exit(child_closed());
	cr_assert(pid != -1);
	cr_assert(waitpid(pid, &status, 0) == pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "child said %d", WEXITSTATUS(status));
}
