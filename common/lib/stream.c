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
 * Chunked streams with credit flow control; see stream.h.
 */

#include <sys/types.h>

#include <errno.h>
#include <string.h>

#include "imsg.h"
#include "proto.h"
#include "stream.h"

static int
stream_check(const struct imsg *imsg, uint32_t id, uint32_t type)
{
	if (imsg_get_type(imsg) != type || imsg_get_peerid(imsg) != id ||
	    imsg->fd != -1) {
		errno = EBADMSG;
		return -1;
	}
	return 0;
}

void
stream_tx_init(struct stream_tx *tx, uint32_t id)
{
	memset(tx, 0, sizeof(*tx));
	tx->st_id = id;
}

size_t
stream_tx_avail(const struct stream_tx *tx)
{
	if (tx->st_ended)
		return 0;
	return STREAM_WINDOW - (tx->st_sent - tx->st_credited);
}

int
stream_tx_send(struct stream_tx *tx, struct imsgbuf *ibuf, const void *data,
    size_t len)
{
	if (len > STREAM_CHUNK) {
		errno = EMSGSIZE;
		return -1;
	}
	if (len > stream_tx_avail(tx)) {
		errno = ENOBUFS;
		return -1;
	}
	if (imsg_compose(ibuf, IMSG_STREAM_DATA, tx->st_id, 0, -1, data,
	    len) == -1)
		return -1;
	tx->st_sent += len;
	return 0;
}

int
stream_tx_end(struct stream_tx *tx, struct imsgbuf *ibuf, int32_t status)
{
	struct stream_end	 end;

	if (tx->st_ended) {
		errno = EINVAL;
		return -1;
	}
	memset(&end, 0, sizeof(end));
	end.total = tx->st_sent;
	end.status = status;
	if (imsg_compose(ibuf, IMSG_STREAM_END, tx->st_id, 0, -1, &end,
	    sizeof(end)) == -1)
		return -1;
	tx->st_ended = 1;
	return 0;
}

int
stream_tx_credit(struct stream_tx *tx, const struct imsg *imsg)
{
	struct stream_credit	 cr;

	if (stream_check(imsg, tx->st_id, IMSG_STREAM_CREDIT) == -1 ||
	    imsg_get_data(imsg, &cr, sizeof(cr)) == -1)
		return -1;
	/* Credit for bytes never sent would let the window grow forever. */
	if (cr.bytes > tx->st_sent - tx->st_credited) {
		errno = EPROTO;
		return -1;
	}
	tx->st_credited += cr.bytes;
	return 0;
}

void
stream_rx_init(struct stream_rx *rx, uint32_t id)
{
	memset(rx, 0, sizeof(*rx));
	rx->sr_id = id;
}

int
stream_rx_data(struct stream_rx *rx, const struct imsg *imsg,
    const uint8_t **data, size_t *len)
{
	size_t	 n;

	if (stream_check(imsg, rx->sr_id, IMSG_STREAM_DATA) == -1)
		return -1;
	n = imsg_get_len(imsg);
	/* Only what we granted: a sender ignoring credit is cut off here. */
	if (rx->sr_ended ||
	    rx->sr_received + n > rx->sr_credited + STREAM_WINDOW) {
		errno = EPROTO;
		return -1;
	}
	rx->sr_received += n;
	*data = imsg->data;
	*len = n;
	return 0;
}

int
stream_rx_consumed(struct stream_rx *rx, struct imsgbuf *ibuf, size_t len)
{
	struct stream_credit	 cr;

	if (len > rx->sr_received - rx->sr_consumed) {
		errno = EINVAL;
		return -1;
	}
	rx->sr_consumed += len;
	if (rx->sr_ended ||
	    rx->sr_consumed - rx->sr_credited < STREAM_CREDIT_BATCH)
		return 0;
	cr.bytes = rx->sr_consumed - rx->sr_credited;
	if (imsg_compose(ibuf, IMSG_STREAM_CREDIT, rx->sr_id, 0, -1, &cr,
	    sizeof(cr)) == -1)
		return -1;
	rx->sr_credited = rx->sr_consumed;
	return 0;
}

int
stream_rx_end(struct stream_rx *rx, const struct imsg *imsg)
{
	struct stream_end	 end;

	if (stream_check(imsg, rx->sr_id, IMSG_STREAM_END) == -1 ||
	    imsg_get_data(imsg, &end, sizeof(end)) == -1)
		return -1;
	if (rx->sr_ended || end.total != rx->sr_received) {
		errno = EPROTO;
		return -1;
	}
	rx->sr_ended = 1;
	rx->sr_status = end.status;
	return 0;
}

/*
 * Relay: forward one IMSG_STREAM_* message to another channel unchanged
 * (type, peerid, pid, payload): DATA and END go forward, CREDIT goes
 * back.  With a gauge (may be NULL) the window is enforced as well.  The
 * payload moves to the output queue (imsg_forward); imsg_free the imsg
 * as usual.
 */
void
stream_gauge_init(struct stream_gauge *sg)
{
	memset(sg, 0, sizeof(*sg));
}

static int
stream_gauge_take(struct stream_gauge *sg, const struct imsg *imsg)
{
	struct stream_credit	 cr;
	struct stream_end	 end;
	size_t			 n = imsg_get_len(imsg);

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (sg->sg_ended || sg->sg_forwarded + n >
		    sg->sg_credited + STREAM_WINDOW)
			goto proto;
		sg->sg_forwarded += n;
		return 0;
	case IMSG_STREAM_CREDIT:
		if (imsg_get_data(imsg, &cr, sizeof(cr)) == -1)
			return -1;
		if (cr.bytes > sg->sg_forwarded - sg->sg_credited)
			goto proto;
		sg->sg_credited += cr.bytes;
		return 0;
	case IMSG_STREAM_END:
		if (imsg_get_data(imsg, &end, sizeof(end)) == -1)
			return -1;
		if (sg->sg_ended || end.total != sg->sg_forwarded)
			goto proto;
		sg->sg_ended = 1;
		return 0;
	}
	errno = EBADMSG;
	return -1;
 proto:
	errno = EPROTO;
	return -1;
}

/*
 * What was just queued on a channel that had nothing queued before goes
 * now (MSG_DONTWAIT), not after one more turn of the loop: a keystroke
 * and its echo cross two processes each way.  A busy channel keeps its
 * batching; what is not written waits for EV_WRITE, and an error shows
 * there too.
 */
void
stream_write_now(struct imsgev *iev, size_t queued_before)
{
	if (queued_before == 0)
		(void)imsgbuf_write(&iev->ibuf);
	imsg_event_add(iev);
}

int
stream_relay(struct imsgev *to, struct imsg *imsg, struct stream_gauge *sg)
{
	uint32_t	 type = imsg_get_type(imsg);
	size_t		 len = imsg_get_len(imsg);
	size_t		 before = imsgbuf_queuelen(&to->ibuf);

	/* Stream messages never carry fds; sizes are fixed but for DATA. */
	if (imsg->fd != -1 ||
	    (type != IMSG_STREAM_DATA && type != IMSG_STREAM_CREDIT &&
	    type != IMSG_STREAM_END) ||
	    (type == IMSG_STREAM_CREDIT && len != sizeof(struct stream_credit)) ||
	    (type == IMSG_STREAM_END && len != sizeof(struct stream_end))) {
		errno = EBADMSG;
		return -1;
	}
	if (sg != NULL && stream_gauge_take(sg, imsg) == -1)
		return -1;
	if (imsg_forward(&to->ibuf, imsg) == -1)
		return -1;
	stream_write_now(to, before);
	return 0;
}
