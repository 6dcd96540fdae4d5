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
 * A spaced-git that found its repository changed under it (a stale
 * one) is retired, and the request goes once to a new one: what the
 * operations of code in, code out and files share, above the
 * instances (gitinst.c), which never call it.
 */

#include <sys/types.h>

#include <string.h>

#include "errors.h"
#include "git_proto.h"
#include "spaced.h"

int
gitinst_relaunch(struct request *r, const char *code, const char *dir,
    int *relaunched)
{
	struct git_req	 gq = r->r_git_req;
	const char	*why;

	gitinst_retire(r->r_git);
	if (strcmp(code, ERR_GIT_WORKER_STALE) != 0 || *relaunched)
		return 0;
	*relaunched = 1;
	if ((why = gitinst_attach(r, dir, r->r_git_type, &gq)) != NULL)
		request_refuse(r, why, "no new spaced-git");
	return 1;
}
