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
 * What the code-out fuzzers share (quarantine_fuzz.c, apply_fuzz.c): a
 * repository of one base commit made once, the packs an input left
 * cleared, and the caps that keep an input small and quick.
 */

#ifndef FUZZ_REPO_H
#define FUZZ_REPO_H

#include <git2.h>

#include "worker-git/spaced-git/quarantine.h"

/*
 * dir ("/tmp/NAME.XXXXXX", static) made and removed at exit: a bare
 * repository whose base commit no ref names, or with a work tree at
 * it (HEAD, checked out).  Aborts on any failure.
 */
void	fz_repo_base(char *dir, int bare, git_oid *base);
/* Every pack under gitdir/objects/pack goes. */
void	fz_packs_clear(const char *gitdir);
void	fz_caps(struct qr_caps *);

#endif
