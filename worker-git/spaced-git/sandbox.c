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
 * spaced-git's filter: files through libgit2 (Landlock narrows where),
 * never a socket or an exec (no transports, hooks or helpers).  Without
 * a repository Landlock grants no path, and as root the empty chroot
 * holds it where the kernel has no Landlock.
 */

#include <stddef.h>

#include "sandbox.h"
#include "git_worker.h"

const struct sandbox_spec git_sandbox = {
	.sb_name = "git",
	/* stdio: its channel; rpath, wpath: the repository, once it has one */
	.sb_groups = SB_STDIO | SB_RPATH | SB_WPATH,
	.sb_extra = NULL,
	.sb_landlock_dir = NULL,
};

/*
 * A quarantine's: its store alone, the chroot's root (or, for a
 * spaced that is no root, the folder it was started in).
 */
const struct sandbox_spec qr_sandbox = {
	.sb_name = "quarantine",
	.sb_groups = SB_STDIO | SB_RPATH | SB_WPATH,
	.sb_extra = NULL,
	.sb_landlock_dir = ".",
};
