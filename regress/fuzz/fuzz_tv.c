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
 * docker_listing_fuzz.c's reach into tools list's state: struct tv is
 * tools_volume.h's, whose step names clash with space.h's, so the
 * target holds it only through these.
 */

#include <stdlib.h>
#include <string.h>

#include "worker-docker/tools_volume.h"

struct tv	*fuzz_tv_new(const char *);
void		 fuzz_tv_free(struct tv *);
size_t		 fuzz_tv_nvols(const struct tv *);
const struct tools_volume_info *fuzz_tv_vol(const struct tv *, size_t);

struct tv *
fuzz_tv_new(const char *owner)
{
	struct tv	*tv;

	if ((tv = calloc(1, sizeof(*tv))) == NULL)
		abort();
	strlcpy(tv->req.te_owner, owner, sizeof(tv->req.te_owner));
	return tv;
}

void
fuzz_tv_free(struct tv *tv)
{
	free(tv->vols);
	free(tv);
}

size_t
fuzz_tv_nvols(const struct tv *tv)
{
	return tv->nvols;
}

const struct tools_volume_info *
fuzz_tv_vol(const struct tv *tv, size_t i)
{
	return &tv->vols[i];
}
