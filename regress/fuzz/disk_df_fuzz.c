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
 * fuzz-link: worker-docker/space_disk_parse.c common/proto/labels.c common/lib/log.c
 *
 * The engine's /system/df answer, hostile: the disk sweep takes from it
 * only this installation's spaces, each once, with an id that passes
 * space_id_valid and an owner of this installation, at most
 * DISK_SPACES_MAX of them, every string NUL-terminated in its field.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/space_disk.h"

#define INSTALL	"0123456789abcdef0123456789abcdef"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct disk_df	 df;
	json_t		*o;
	size_t		 i, j;

	if ((o = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES,
	    NULL)) == NULL)
		return 0;
	memset(&df, 0, sizeof(df));
	strlcpy(df.install, INSTALL, sizeof(df.install));
	disk_df_take(&df, o);
	json_decref(o);
	if (df.n > DISK_SPACES_MAX)
		abort();
	for (i = 0; i < df.n; i++) {
		if (memchr(df.spaces[i].sk_id, '\0', SPACE_ID_SIZE) == NULL ||
		    memchr(df.spaces[i].sk_owner, '\0', SPACE_OWNER_SIZE) ==
		    NULL || memchr(df.spaces[i].sk_state, '\0',
		    SPACE_STATE_MAX) == NULL ||
		    !space_id_valid(df.spaces[i].sk_id) ||
		    strncmp(df.spaces[i].sk_owner, INSTALL ":",
		    strlen(INSTALL) + 1) != 0)
			abort();
		for (j = 0; j < i; j++)
			if (strcmp(df.spaces[i].sk_id, df.spaces[j].sk_id) == 0)
				abort();
	}
	free(df.spaces);
	return 0;
}
