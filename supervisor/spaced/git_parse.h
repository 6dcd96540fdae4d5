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

#ifndef GIT_PARSE_H
#define GIT_PARSE_H

#include <stddef.h>

/* git_parse.c: pure checks of what a repository's spaced-git answers. */
struct git_file;
struct git_limit;
struct git_snap;
struct space_done;
/* Absolute, no empty, "." or ".." component. */
int	 git_dir_valid(const char *, size_t);
int	 git_file_valid(const struct git_file *);
int	 git_limit_valid(const struct git_limit *);
int	 git_done_valid(const struct space_done *);
/* Hex ids, sha1, a branch and names that stay what they say. */
int	 git_snap_valid(const struct git_snap *);

struct git_review_rec;
int	 review_rec_valid(const struct git_review_rec *);
int	 git_hex_valid(const char *, size_t);

#endif /* GIT_PARSE_H */
