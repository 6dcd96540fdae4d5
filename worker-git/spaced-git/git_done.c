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
 * The code and message of a request's IMSG_GIT_DONE, filled in by the
 * operations; git_serve.c sends it.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <git2.h>

#include "errors.h"
#include "git_proto.h"
#include "place_proto.h"
#include "git_worker.h"

void
snap_refuse(struct space_done *sd, const char *code, const char *fmt, ...)
{
	va_list	 ap;

	strlcpy(sd->sd_code, code, sizeof(sd->sd_code));
	va_start(ap, fmt);
	vsnprintf(sd->sd_message, sizeof(sd->sd_message), fmt, ap);
	va_end(ap);
}

void
snap_libgit2(struct space_done *sd, const char *what)
{
	const git_error	*e = git_error_last();

	if (libgit2_index_split()) {
		snap_refuse(sd, ERR_UNSUPPORTED_INDEX_FORMAT, "%s first",
		    INDEX_SPLIT_WHY);
		return;
	}
	if (libgit2_index_sparse()) {
		snap_refuse(sd, ERR_UNSUPPORTED_INDEX_FORMAT, "the index is "
		    "sparse (index.sparse), which libgit2 cannot read: run git "
		    "sparse-checkout reapply --no-sparse-index first");
		return;
	}
	snap_refuse(sd, ERR_GIT_COMMAND_FAILED, "%s: %s", what,
	    e != NULL && e->message != NULL ? e->message : "libgit2 failed");
}
