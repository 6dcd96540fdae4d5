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

#ifndef SPACED_STREAM_H
#define SPACED_STREAM_H

/*
 * Chunked streams with credit-based flow control over imsg channels:
 * neither side ever buffers more than one window.  -1 with EBADMSG or
 * EPROTO leaves the channel untrustworthy (docs/notes/common-streams.md).
 */

#include <stddef.h>
#include <stdint.h>

#include "imsg.h"

/* Measured: docs/perf.md, "common". */
#define STREAM_WINDOW		(1024 * 1024)
#define STREAM_CREDIT_BATCH	(STREAM_WINDOW / 2)
#define STREAM_CHUNK		IMSG_MAX_PAYLOAD

/* IMSG_STREAM_CREDIT payload: bytes consumed since the last credit. */
struct stream_credit {
	uint32_t	 bytes;
};

/* IMSG_STREAM_END payload. */
struct stream_end {
	uint64_t	 total;		/* bytes of DATA sent */
	int32_t		 status;	/* 0, or the sender's error */
	uint32_t	 reserved;	/* zero; keeps the size fixed */
};

struct stream_tx {
	uint32_t	 st_id;
	uint64_t	 st_sent;
	uint64_t	 st_credited;
	int		 st_ended;
};

struct stream_rx {
	uint32_t	 sr_id;
	uint64_t	 sr_received;
	uint64_t	 sr_consumed;
	uint64_t	 sr_credited;	/* consumed bytes credited back */
	int		 sr_ended;
	int32_t		 sr_status;	/* from END */
};

/* A relay's count: refuses a sender that ignores credit. */
struct stream_gauge {
	uint64_t	 sg_forwarded;
	uint64_t	 sg_credited;
	int		 sg_ended;
};

/* Sender. */
void	 stream_tx_init(struct stream_tx *, uint32_t id);
/* Bytes that may be sent now (may exceed STREAM_CHUNK). */
size_t	 stream_tx_avail(const struct stream_tx *);
/* len <= STREAM_CHUNK and <= stream_tx_avail(), else -1 EMSGSIZE/ENOBUFS. */
int	 stream_tx_send(struct stream_tx *, struct imsgbuf *, const void *,
	    size_t len);
int	 stream_tx_end(struct stream_tx *, struct imsgbuf *, int32_t status);
/* Take an IMSG_STREAM_CREDIT for this stream. */
int	 stream_tx_credit(struct stream_tx *, const struct imsg *);

/* Receiver. */
void	 stream_rx_init(struct stream_rx *, uint32_t id);
/* Take an IMSG_STREAM_DATA; *data points into the imsg's payload. */
int	 stream_rx_data(struct stream_rx *, const struct imsg *,
	    const uint8_t **data, size_t *len);
/* The application is done with len more bytes: queue credit when due. */
int	 stream_rx_consumed(struct stream_rx *, struct imsgbuf *, size_t len);
/* Take an IMSG_STREAM_END: checks the total; status in sr_status. */
int	 stream_rx_end(struct stream_rx *, const struct imsg *);

void	 stream_gauge_init(struct stream_gauge *);
void	 stream_write_now(struct imsgev *, size_t queued_before);
int	 stream_relay(struct imsgev *to, struct imsg *,
	    struct stream_gauge *);

#endif /* SPACED_STREAM_H */
