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
 * spaced-git's filter.  It will hold one user's repository through
 * libgit2: it may read and write files (Landlock narrows where), and
 * never makes a socket or execs (no transports, no hooks, no helpers).
 * No repository is open yet, so Landlock grants no path at all, and as
 * root it is chrooted to the empty directory (procs[]): where the kernel
 * has no Landlock, that chroot is what holds it, and without either
 * sandbox_enter refuses to run it.
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
