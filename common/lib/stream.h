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
 * Chunked streams with credit-based flow control over imsg channels.
 * The peerid of every IMSG_STREAM_* message is the stream id.  A sender
 * may have at most STREAM_WINDOW bytes sent and not yet credited; the
 * receiver credits bytes back as it consumes them, in batches of at
 * least STREAM_CREDIT_BATCH, and refuses data beyond the window it
 * granted, so neither side ever buffers more than one window.
 *
 * The sender and receiver queue on an imsgbuf; on an imsgev, call
 * imsg_event_add afterwards so the output gets written.
 *
 * Errors: -1 with errno EBADMSG for a message of the wrong type, length
 * or stream; EPROTO for a peer that broke the protocol (credit beyond
 * what was sent, data beyond the window, a wrong total, data after
 * END).  Either way the channel is no longer trustworthy.
 */

#include <stddef.h>
#include <stdint.h>

#include "imsg.h"

/*
 * 1 MiB: a sender stalls for credit less often, so fewer wakeups per
 * byte (relay/raw 0.45-0.51 against 0.30-0.45 with 256 KiB in
 * regress/bench/stream.sh); 2 MiB was slower again (the window no
 * longer fits in L2).  A relay queues at most one window a stream.
 */
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

/*
 * What a relay counts per stream: no data, only how much went forward
 * and how much credit came back, so a sender that ignores credit is
 * refused before it can fill the relay's output queue.
 */
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

/*
 * Relay: forward one IMSG_STREAM_* message to another channel unchanged
 * (type, peerid, pid, payload): DATA and END go forward, CREDIT goes
 * back.  With a gauge (may be NULL) the window is enforced as well.  The
 * payload moves to the output queue (imsg_forward); imsg_free the imsg
 * as usual.
 */
void	 stream_gauge_init(struct stream_gauge *);
int	 stream_relay(struct imsgev *to, struct imsg *,
	    struct stream_gauge *);

#endif /* SPACED_STREAM_H */
