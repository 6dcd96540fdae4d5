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
 * How a spaced-git died, in words for its caller and the log: the step
 * of spaced-launch's child that failed, and its errno; or the signal
 * (its name) or exit status of spaced-git itself, and whether it had
 * said it was ready.  Pure: spaced-launch's report in, words out.
 */

#ifndef GITDEATH_H
#define GITDEATH_H

#include <stddef.h>

#include "git_proto.h"

#define GITDEATH_HOW_MAX	192

void	 gitdeath_how(const struct launch_exit *, int ready, char *, size_t);
/*
 * Its fatal line (IMSG_WORKER_FATAL): outside bytes (a path, libgit2's
 * words), taken only NUL-terminated in their field, escaped into esc.
 */
struct worker_fatal;
int	 gitdeath_line(const struct worker_fatal *, char *esc, size_t);
/* After how (of len bytes) it died, what it said as it died, if any. */
void	 gitdeath_said(char *how, size_t len, const char *said);

#endif
