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
 * Arbitrary bytes from a peer into an imsgbuf reader: the first two bytes
 * pick the channel's maxsize, the rest arrive over a socketpair in pieces.
 * Every message taken goes through imsg_expect, the stream receiver or
 * imsg_forward.
 * Cost is linear in the input (each byte is read and copied a bounded
 * number of times), so -max_len bounds the time of one run.
 *
 * fuzz-link: common/lib/imsg.c common/lib/imsg_event.c common/lib/stream.c common/lib/log.c
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "imsg.h"
#include "proto.h"
#include "stream.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static volatile uint64_t sink;	/* payload reads are not optimised away */
static struct imsgbuf	 fwd;	/* a relay's next hop, never written */

/* Take every complete message; 0 to go on, -1 once the stream is bad. */
static int
drain(struct imsgbuf *ibuf, struct stream_rx *rx)
{
	struct imsg	 imsg;
	const uint8_t	*data;
	size_t		 len;
	uint64_t	 v;
	int		 r;

	while ((r = imsgbuf_get(ibuf, &imsg)) == 1) {
		switch (imsg_get_type(&imsg)) {
		case IMSG_STREAM_DATA:
			if (stream_rx_data(rx, &imsg, &data, &len) == 0) {
				if (len > 0)
					sink ^= data[0] ^ data[len - 1];
				stream_rx_consumed(rx, ibuf, len);
			}
			break;
		case IMSG_STREAM_END:
			stream_rx_end(rx, &imsg);
			break;
		case IMSG_STREAM_CREDIT:
			(void)imsg_expect(&imsg, IMSG_STREAM_CREDIT,
			    sizeof(struct stream_credit));
			break;
		default:
			/* A fixed struct of 8 bytes, as most replies. */
			if (imsg_expect(&imsg, imsg_get_type(&imsg), 8) == 0) {
				memcpy(&v, imsg.data, sizeof(v));
				sink ^= v;
			}
			/* Or relay it: the payload moves to another queue. */
			if (imsg_get_type(&imsg) & 1)
				(void)imsg_forward(&fwd, &imsg);
			break;
		}
		imsg_free(&imsg);
	}
	return r == -1 ? -1 : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len)
{
	static struct imsgbuf	 ibuf;	/* 32 KiB: keep it off the stack */
	struct stream_rx	 rx;
	int			 sv[2];
	size_t			 off, piece;
	ssize_t			 n;

	if (len < 2)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		return 0;
	imsgbuf_init(&ibuf, sv[1]);
	imsgbuf_init(&fwd, -1);
	imsgbuf_set_maxsize(&ibuf, (size_t)buf[0] << 8 | buf[1]);
	stream_rx_init(&rx, 0);
	buf += 2;
	len -= 2;
	/* Pieces of varying size, to cut messages at every place. */
	for (off = 0; off < len; off += piece) {
		piece = 1 + (off * 131 + buf[off]) % 4096;
		if (piece > len - off)
			piece = len - off;
		if (write(sv[0], buf + off, piece) != (ssize_t)piece)
			break;
		n = imsgbuf_read(&ibuf);
		if (n <= 0 || drain(&ibuf, &rx) == -1)
			break;
	}
	close(sv[0]);
	while ((n = imsgbuf_read(&ibuf)) > 0)
		if (drain(&ibuf, &rx) == -1)
			break;
	imsgbuf_clear(&ibuf);
	imsgbuf_clear(&fwd);
	close(sv[1]);
	return 0;
}
