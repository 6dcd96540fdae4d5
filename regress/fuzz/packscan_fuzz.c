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
 * The scan of a pack out of a space (worker-git/spaced-git/packscan.c)
 * on any bytes, in chunks of any size: no read past them, no object
 * inflated past its declared size, no cap exceeded, and the same
 * verdict whole as in chunks.  Input: a chunk size byte, the pack.
 * fuzz-link: worker-git/spaced-git/packscan.c
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worker-git/spaced-git/packscan.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
run(const uint8_t *p, size_t len, size_t chunk, const struct packscan_caps *c)
{
	struct packscan	 ps;
	size_t		 i, n;
	int		 rc = 0;

	packscan_init(&ps, c);
	for (i = 0; i < len && rc == 0; i += n) {
		n = len - i < chunk ? len - i : chunk;
		rc = packscan_feed(&ps, p + i, n);
		if (ps.ps_state == PS_DATA && ps.ps_out > ps.ps_size)
			abort();
		if (ps.ps_inflated > c->ps_inflated_max ||
		    ps.ps_bytes > c->ps_pack_max)
			abort();
	}
	if (rc == 0)
		rc = packscan_finish(&ps);
	packscan_free(&ps);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct packscan_caps	 c;

	if (size < 1)
		return 0;
	packscan_caps_default(&c);
	c.ps_objects_max = 1000;
	c.ps_object_max = 1 << 20;
	c.ps_inflated_max = 4 << 20;
	c.ps_chain_max = 8;
	if (run(data + 1, size - 1, data[0] + 1, &c) !=
	    run(data + 1, size - 1, size, &c))
		abort();
	return 0;
}
