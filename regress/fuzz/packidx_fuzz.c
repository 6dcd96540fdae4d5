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
 * A pack's index as spaced-git reads it from the user's repository
 * (worker-git/spaced-git/packidx.c) before it copies entries the index points at:
 * whatever passes must keep every span inside the pack's data, every
 * id found where the index says, and no header parse may read past its
 * bytes.  The input is the pack's size (4 bytes) and the index; the
 * pack's header and trailer are made to match so the fuzzer goes deep.
 * fuzz-link: worker-git/spaced-git/packidx.c
 */

#include <stdint.h>
#include <string.h>

#include "worker-git/spaced-git/packidx.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct packidx	 pi;
	struct packent	 pe;
	const char	*why;
	uint8_t		 head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };
	uint8_t		 trailer[PACK_TRAILER];
	uint64_t	 packsize, off, end, prev = 12;
	uint32_t	 pos, at, i;
	size_t		 n;

	if (size < 4)
		return 0;
	packsize = (uint64_t)data[0] << 24 | data[1] << 16 | data[2] << 8 |
	    data[3];
	data += 4;
	size -= 4;
	/* The count and checksum the index claims, as a real pack would. */
	if (size >= 8 + 1024)
		memcpy(head + 8, data + 8 + 255 * 4, 4);
	memset(trailer, 0, sizeof(trailer));
	if (size >= 40)
		memcpy(trailer, data + size - 40, sizeof(trailer));
	if (packidx_parse(&pi, data, size, head, trailer, packsize,
	    &why) == 0) {
		for (i = 0; i < pi.pi_count; i++) {
			packidx_span(&pi, pi.pi_byoffset[i].pa_pos, &off, &end);
			if (off != pi.pi_byoffset[i].pa_offset || off < prev ||
			    end <= off || end > packsize - PACK_TRAILER)
				__builtin_trap();
			prev = end;
			if (packidx_find(&pi, packidx_oid(&pi, i), &pos) != 0 ||
			    pos != i || packidx_at(&pi, off, &at) != 0)
				__builtin_trap();
			(void)packidx_crc(&pi, i);
		}
		packidx_free(&pi);
	} else if (why == NULL)
		__builtin_trap();
	/* Entry headers over every prefix of the bytes. */
	for (n = 0; n <= size && n <= 64; n++)
		if (packent_parse(data, n, &pe) == 0 && pe.pe_len > n)
			__builtin_trap();
	return 0;
}
