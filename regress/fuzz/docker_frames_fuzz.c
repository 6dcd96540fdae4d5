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
 * fuzz-link: worker-docker/docker_frames.c worker-docker/docker_runtime.c worker-docker/docker_env.c common/proto/labels.c common/lib/log.c
 *
 * The exec stream's frame reader and the runtime volume's tar reader,
 * both fed bytes the engine sends.  Input: one byte that seeds how the
 * stream is cut, then the stream.  Whole and in pieces the frame reader
 * must hand back the same payload bytes in the same order, never point
 * outside what it was given, and agree on the outcome.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worker-docker/docker_frames.h"
#include "worker-docker/docker_runtime.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The payload and its outcome: -1 malformed, else 0. */
static int
frames(const uint8_t *d, size_t len, unsigned int seed, uint8_t *out,
    size_t *outlen)
{
	struct frame_reader	 fr;
	const uint8_t		*p;
	size_t			 at = 0, piece, used, plen, o = 0;
	uint8_t			 type;
	int			 rv;

	frame_reader_init(&fr);
	while (at < len) {
		piece = len - at;
		if (seed != 0) {
			seed = seed * 1103515245 + 12345;
			piece = 1 + (seed >> 16) % 13;
			if (piece > len - at)
				piece = len - at;
		}
		while (piece > 0) {
			rv = frame_feed(&fr, d + at, piece, &used, &type, &p,
			    &plen);
			if (used > piece)
				__builtin_trap();
			if (rv == -1) {
				*outlen = o;
				return -1;
			}
			if (rv == 1) {
				if (p < d + at || p + plen > d + at + piece ||
				    (type != FRAME_STDOUT &&
				    type != FRAME_STDERR))
					__builtin_trap();
				memcpy(out + o, p, plen);
				o += plen;
			} else if (used != piece)
				__builtin_trap();
			at += used;
			piece -= used;
			if (rv == 0)
				break;
		}
	}
	*outlen = o;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	uint8_t		*a, *b;
	size_t		 alen, blen;
	int		 ra, rb;

	if (len < 1)
		return 0;
	if ((a = malloc(len)) == NULL || (b = malloc(len)) == NULL)
		abort();
	ra = frames(data + 1, len - 1, 0, a, &alen);
	rb = frames(data + 1, len - 1, data[0] | 1, b, &blen);
	if (ra != rb || alen != blen || memcmp(a, b, alen) != 0)
		__builtin_trap();
	/* The same bytes as an archive: it must never read past them. */
	(void)tar_first_file_equals(data + 1, len - 1, "spaced-relay", a,
	    alen);
	free(a);
	free(b);
	return 0;
}
