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
 * repo-compare snap DIR > MANIFEST
 * repo-compare diff BEFORE AFTER SPACE_ID: prints each difference that
 * is not allowed, exits 1 when there is one (see repo_compare.h).
 */

#include <stdio.h>
#include <string.h>

#include "regress/lib/repo_compare.h"

static int
load(const char *path, struct rc_manifest *m)
{
	FILE	*fp;
	int	 r;

	if ((fp = fopen(path, "r")) == NULL)
		return (-1);
	r = rc_load(fp, m);
	fclose(fp);
	return (r);
}

int
main(int argc, char *argv[])
{
	struct rc_manifest	 a, b;
	size_t			 bad;

	if (argc == 3 && strcmp(argv[1], "snap") == 0) {
		if (rc_take(argv[2], &a) == -1) {
			perror(argv[2]);
			return (2);
		}
		rc_save(&a, stdout);
		rc_free(&a);
		return (0);
	}
	if (argc != 5 || strcmp(argv[1], "diff") != 0) {
		fprintf(stderr, "usage: repo-compare snap dir\n"
		    "       repo-compare diff before after space-id\n");
		return (2);
	}
	if (load(argv[2], &a) == -1 || load(argv[3], &b) == -1) {
		perror("manifest");
		return (2);
	}
	bad = rc_diff(&a, &b, argv[4], stdout);
	rc_free(&a);
	rc_free(&b);
	return (bad > 0);
}
