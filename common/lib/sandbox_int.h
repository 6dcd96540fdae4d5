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

/* Between the files of the sandbox; no program includes this. */

#ifndef SPACED_SANDBOX_INT_H
#define SPACED_SANDBOX_INT_H

struct sandbox_spec;

/* sandbox_drop_privileges chrooted this process. */
extern int	 sb_chrooted;

/* Returns the ABI in force, 0 when the kernel has no Landlock. */
int	 sb_landlock(const struct sandbox_spec *);
/* Installs the filter; fatal if it cannot. */
void	 sb_seccomp(const struct sandbox_spec *);

#endif /* SPACED_SANDBOX_INT_H */
