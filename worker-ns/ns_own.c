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
 * A filled tools tree made root's, world-readable and without a write
 * bit for others or a setid bit: what a space may run and never change.
 * Nothing here follows a link, even one put in place of a file after
 * the walk looked at it.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

#include "ns.h"

/* path's mode, unless it is a link now (its target may be the host's). */
int
ns_own_mode(const char *path)
{
	char		 proc[32];
	struct stat	 st;
	int		 fd, rv = 0;

	if ((fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		rv = -1;
	else if (!S_ISLNK(st.st_mode)) {
		/* O_PATH has no fchmod: /proc's link is the file itself. */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		rv = chmod(proc, (st.st_mode & 0755) |
		    (S_ISDIR(st.st_mode) ? 0555 : 0444));
	}
	close(fd);
	return rv;
}

static int
own_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (lchown(path, 0, 0) == -1)
		return -1;
	return type == FTW_SL ? 0 : ns_own_mode(path);
}

int
ns_own_tree(const char *dir)
{
	return nftw(dir, own_one, 32, FTW_PHYS);
}
