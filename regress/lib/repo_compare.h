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

#ifndef REPO_COMPARE_H
#define REPO_COMPARE_H

/*
 * The whole repository folder, .git included, before and after a code
 * in operation (spec "What code in does to the user's repository"):
 * every entry by path with its type and mode, a file by size and
 * sha256, a link by its target; sockets, FIFOs and devices by type
 * only, never opened.  rc_diff allows exactly two kinds of difference:
 * new loose objects in the repository's own .git/objects with their
 * fan-out folders (added only), and refs/spaced/spaces/<id>/start of
 * the space named, with its folders (added or removed, never moved).
 */

#include <stddef.h>
#include <stdio.h>

struct rc_entry {
	char	*re_path;	/* from the root, "" for the root itself */
	char	*re_desc;
};

struct rc_manifest {
	struct rc_entry	*rm_v;	/* sorted by path */
	size_t		 rm_n;
};

int	 rc_take(const char *, struct rc_manifest *);
void	 rc_free(struct rc_manifest *);
int	 rc_save(const struct rc_manifest *, FILE *);
int	 rc_load(FILE *, struct rc_manifest *);
/* Each difference not allowed goes to report (may be NULL); the count. */
size_t	 rc_diff(const struct rc_manifest *, const struct rc_manifest *,
	    const char *, FILE *);

#endif /* REPO_COMPARE_H */
