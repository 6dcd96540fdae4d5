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

#include <string.h>

#include "docker_frames.h"

void
frame_reader_init(struct frame_reader *fr)
{
	memset(fr, 0, sizeof(*fr));
}

int
frame_at_boundary(const struct frame_reader *fr)
{
	return fr->fr_have == 0 && fr->fr_left == 0;
}

int
frame_feed(struct frame_reader *fr, const uint8_t *buf, size_t len,
    size_t *used, uint8_t *type, const uint8_t **data, size_t *dlen)
{
	size_t	 n, off = 0;

	*used = 0;
	while (off < len) {
		if (fr->fr_left > 0) {
			n = len - off < fr->fr_left ? len - off : fr->fr_left;
			fr->fr_left -= n;
			*type = fr->fr_type;
			*data = buf + off;
			*dlen = n;
			*used = off + n;
			return 1;
		}
		n = FRAME_HEAD - fr->fr_have;
		if (n > len - off)
			n = len - off;
		memcpy(fr->fr_head + fr->fr_have, buf + off, n);
		fr->fr_have += n;
		off += n;
		if (fr->fr_have < FRAME_HEAD)
			break;
		fr->fr_have = 0;
		/* 0 is stdin, which docker copies to stdout; nothing else. */
		if (fr->fr_head[0] > FRAME_STDERR || fr->fr_head[1] != 0 ||
		    fr->fr_head[2] != 0 || fr->fr_head[3] != 0) {
			fr->fr_errstr = "not an exec frame head";
			*used = off;
			return -1;
		}
		fr->fr_type = fr->fr_head[0] == FRAME_STDERR ? FRAME_STDERR :
		    FRAME_STDOUT;
		fr->fr_left = (uint32_t)fr->fr_head[4] << 24 |
		    (uint32_t)fr->fr_head[5] << 16 |
		    (uint32_t)fr->fr_head[6] << 8 | fr->fr_head[7];
	}
	*used = off;
	return 0;
}
