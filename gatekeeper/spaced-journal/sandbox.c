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
 * spaced-journal's filter.  It parses what comes out of gatekeepers and
 * spaces, the most hostile bytes spaced handles, so it holds nothing but
 * its store: files under it (Landlock, and a chroot into it as root),
 * no socket, no exec.
 */

#include <stddef.h>

#include "sandbox.h"
#include "journal_worker.h"

const struct sandbox_spec journal_sandbox = {
	.sb_name = "journal",
	/* stdio: its channel; rpath, wpath: the journal files */
	.sb_groups = SB_STDIO | SB_RPATH | SB_WPATH,
	.sb_extra = NULL,
	/* worker_main has made the store the working directory (or root) */
	.sb_landlock_dir = ".",
};
