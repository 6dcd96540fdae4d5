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

#ifndef GIT_APPLY_WT_H
#define GIT_APPLY_WT_H

#include <git2.h>

#include "git_apply.h"

/* apply -w's three steps (git_apply.h says why each is as it is). */
int	 gaw_ready(git_repository *, const git_oid *, char *, size_t);
int	 gaw_changes(git_repository *, const git_oid *, const git_oid *,
	    struct ga_result *, char *, size_t);
int	 gaw_checkout(git_repository *, const git_oid *, const git_oid *,
	    char *, size_t);

#endif /* GIT_APPLY_WT_H */
