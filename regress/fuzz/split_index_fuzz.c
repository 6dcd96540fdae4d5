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
 * A split index and its shared index as spaced-git reads them
 * (worker-git/spaced-git/split_parse.c) for code in: no parse reads
 * past its bytes, and a merge keeps git's order, each path and stage
 * once, and no more entries than both hold.  The input is the split
 * index's length (4 bytes), the split index, then the shared index.
 * fuzz-link: worker-git/spaced-git/split_parse.c
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worker-git/spaced-git/split_parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sx_index	 split, shared, merged;
	const char	*why;
	uint32_t	 n;
	size_t		 i;
	int		 c;

	if (size < 4)
		return 0;
	n = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 |
	    (uint32_t)data[2] << 8 | data[3];
	data += 4;
	size -= 4;
	if (n > size)
		n = (uint32_t)size;
	if (sx_parse(data, n, &split, &why) == -1)
		return 0;
	if (sx_parse(data + n, size - n, &shared, &why) == 0) {
		if (sx_merge(&split, &shared, &merged, &why) == 0) {
			if (merged.sx_n > split.sx_n + shared.sx_n)
				abort();
			for (i = 1; i < merged.sx_n; i++) {
				c = strcmp(merged.sx_entries[i - 1].se_path,
				    merged.sx_entries[i].se_path);
				if (c > 0 || (c == 0 &&
				    (merged.sx_entries[i - 1].se_flags &
				    SX_FLAG_STAGE) >= (merged.sx_entries[i].se_flags &
				    SX_FLAG_STAGE)))
					abort();
			}
			sx_free(&merged);
		}
		sx_free(&shared);
	}
	sx_free(&split);
	return 0;
}
