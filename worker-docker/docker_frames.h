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

#ifndef SPACED_DOCKER_FRAMES_H
#define SPACED_DOCKER_FRAMES_H

/*
 * The frames of an exec stream without a TTY: an 8-byte head (type 0,
 * 1 or 2; three zero bytes; a big-endian uint32 length) and then that
 * many bytes.  Reads do not line up with frames, so this takes any
 * piece and hands back payload as it comes, never holding more than a
 * head.  Pure.  The payload is the command's output, forwarded opaque:
 * it is never interpreted here.
 */

#include <stddef.h>
#include <stdint.h>

#define FRAME_HEAD		8
#define FRAME_STDOUT		1
#define FRAME_STDERR		2

struct frame_reader {
	uint8_t		 fr_head[FRAME_HEAD];
	size_t		 fr_have;	/* bytes of the head so far */
	uint32_t	 fr_left;	/* payload bytes of this frame */
	uint8_t		 fr_type;
	const char	*fr_errstr;
};

void	frame_reader_init(struct frame_reader *);
/*
 * Takes from buf[0..len): *used bytes.  Returns 1 with a payload piece
 * in (*type, *data, *dlen), 0 when everything given was used and no
 * payload is due, -1 on a malformed head (fr_errstr).  Call again with
 * the rest until it returns 0.
 */
int	frame_feed(struct frame_reader *, const uint8_t *buf, size_t len,
	    size_t *used, uint8_t *type, const uint8_t **data, size_t *dlen);
/* 1 when the stream may end here (between frames). */
int	frame_at_boundary(const struct frame_reader *);

#endif /* SPACED_DOCKER_FRAMES_H */
