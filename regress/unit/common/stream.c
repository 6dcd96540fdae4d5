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

/* Streams: credit accounting on both ends and in a relay. */

#include <sys/types.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "helpers.h"
#include "imsg.h"
#include "proto.h"
#include "stream.h"

static uint8_t		 chunk[STREAM_CHUNK];

static void
setup(void)
{
	pair_setup();
	memset(chunk, 0xa5, sizeof(chunk));
}

TestSuite(stream, .init = setup, .fini = pair_teardown);

/* Hand-made stream messages: a peer that does not use our API. */
static struct imsg
fake(uint32_t type, uint32_t id, const void *data, size_t len)
{
	struct imsg	 imsg;

	memset(&imsg, 0, sizeof(imsg));
	imsg.hdr.type = type;
	imsg.hdr.len = IMSG_HEADER_SIZE + len;
	imsg.hdr.peerid = id;
	imsg.fd = -1;
	imsg.data = (uint8_t *)(uintptr_t)data;	/* read only */
	return imsg;
}

/* A sender moves 2 MiB through a receiver in one process. */
Test(stream, roundtrip)
{
	struct stream_tx tx;
	struct stream_rx rx;
	struct imsg	 imsg;
	const uint8_t	*data;
	size_t		 len, want = 2 * 1024 * 1024, sent = 0, loops = 0;
	int		 ended = 0;

	stream_tx_init(&tx, 9);
	stream_rx_init(&rx, 9);
	while (!ended) {
		cr_assert_lt(loops++, 100000);
		while (sent < want && stream_tx_avail(&tx) >= STREAM_CHUNK) {
			cr_assert_eq(stream_tx_send(&tx, &pair_wr, chunk,
			    STREAM_CHUNK), 0);
			sent += STREAM_CHUNK;
		}
		if (sent == want && !tx.st_ended)
			cr_assert_eq(stream_tx_end(&tx, &pair_wr, 5), 0);
		cr_assert_eq(imsgbuf_write(&pair_wr), 0);
		imsgbuf_read(&pair_rd);
		while (imsgbuf_get(&pair_rd, &imsg) == 1) {
			if (imsg_get_type(&imsg) == IMSG_STREAM_END) {
				cr_assert_eq(stream_rx_end(&rx, &imsg), 0);
				ended = 1;
			} else {
				cr_assert_eq(stream_rx_data(&rx, &imsg, &data,
				    &len), 0);
				cr_assert_eq(len, STREAM_CHUNK);
				cr_assert_arr_eq(data, chunk, len);
				cr_assert_eq(stream_rx_consumed(&rx, &pair_rd,
				    len), 0);
			}
			imsg_free(&imsg);
		}
		cr_assert_eq(imsgbuf_write(&pair_rd), 0);
		imsgbuf_read(&pair_wr);
		while (imsgbuf_get(&pair_wr, &imsg) == 1) {
			cr_assert_eq(stream_tx_credit(&tx, &imsg), 0);
			imsg_free(&imsg);
		}
	}
	cr_assert_eq(rx.sr_received, want);
	cr_assert_eq(rx.sr_status, 5);
	/* It needed credit: more than one window went through. */
	cr_assert_gt(tx.st_credited, 0);
}

/* The sender's API will not overrun the window or the chunk size. */
Test(stream, sender_limits)
{
	struct stream_tx tx;
	size_t		 i;

	stream_tx_init(&tx, 1);
	cr_assert_eq(stream_tx_avail(&tx), STREAM_WINDOW);
	cr_assert_eq(stream_tx_send(&tx, &pair_wr, chunk, STREAM_CHUNK + 1), -1);
	cr_assert_eq(errno, EMSGSIZE);
	for (i = 0; i < STREAM_WINDOW / STREAM_CHUNK; i++)
		cr_assert_eq(stream_tx_send(&tx, &pair_wr, chunk, STREAM_CHUNK), 0);
	cr_assert_eq(stream_tx_avail(&tx), 0);
	cr_assert_eq(stream_tx_send(&tx, &pair_wr, chunk, 1), -1);
	cr_assert_eq(errno, ENOBUFS);
}

/*
 * A sender that ignores credit is refused by the receiver at the first
 * byte beyond the window: it cannot make the receiver buffer more.
 */
Test(stream, receiver_refuses_sender_ignoring_credit)
{
	struct stream_rx rx;
	struct imsg	 imsg;
	const uint8_t	*data;
	size_t		 len, i;

	stream_rx_init(&rx, 4);
	imsg = fake(IMSG_STREAM_DATA, 4, chunk, STREAM_CHUNK);
	/* Positive control: a whole window is taken. */
	for (i = 0; i < STREAM_WINDOW / STREAM_CHUNK; i++)
		cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), 0);
	imsg = fake(IMSG_STREAM_DATA, 4, chunk, 1);
	cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), -1);
	cr_assert_eq(errno, EPROTO);
	cr_assert_eq(rx.sr_received, STREAM_WINDOW);

	/* Consuming half a window grants exactly that much more. */
	cr_assert_eq(stream_rx_consumed(&rx, &pair_rd, STREAM_CREDIT_BATCH), 0);
	cr_assert_eq(imsgbuf_queuelen(&pair_rd), 1);
	imsg = fake(IMSG_STREAM_DATA, 4, chunk, STREAM_CHUNK);
	for (i = 0; i < STREAM_CREDIT_BATCH / STREAM_CHUNK; i++)
		cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), 0);
	imsg = fake(IMSG_STREAM_DATA, 4, chunk, 1);
	cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), -1);
	cr_assert_eq(errno, EPROTO);
}

/* Credit comes in batches of at least half a window. */
Test(stream, credit_batches)
{
	struct stream_rx rx;
	struct imsg	 imsg, got;
	struct stream_credit cr;
	const uint8_t	*data;
	size_t		 len, i;

	stream_rx_init(&rx, 4);
	imsg = fake(IMSG_STREAM_DATA, 4, chunk, STREAM_CHUNK);
	for (i = 0; i < STREAM_WINDOW / STREAM_CHUNK; i++) {
		cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), 0);
		cr_assert_eq(stream_rx_consumed(&rx, &pair_rd, len), 0);
	}
	cr_assert_eq(imsgbuf_queuelen(&pair_rd), 2);
	cr_assert_eq(stream_rx_consumed(&rx, &pair_rd, 1), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(imsgbuf_flush(&pair_rd), 0);
	for (i = 0; i < 2; i++) {
		cr_assert_eq(wait_get(&pair_wr, &got), 1);
		cr_assert_eq(imsg_get_peerid(&got), 4);
		cr_assert_eq(imsg_expect(&got, IMSG_STREAM_CREDIT, sizeof(cr)),
		    0);
		cr_assert_eq(imsg_get_data(&got, &cr, sizeof(cr)), 0);
		cr_assert_eq(cr.bytes, STREAM_CREDIT_BATCH);
		imsg_free(&got);
	}
}

/* Credit for bytes never sent is a protocol error. */
Test(stream, credit_beyond_sent)
{
	struct stream_tx tx;
	struct stream_credit cr;
	struct imsg	 imsg;

	stream_tx_init(&tx, 2);
	cr_assert_eq(stream_tx_send(&tx, &pair_wr, chunk, 1000), 0);
	cr.bytes = 1001;
	imsg = fake(IMSG_STREAM_CREDIT, 2, &cr, sizeof(cr));
	cr_assert_eq(stream_tx_credit(&tx, &imsg), -1);
	cr_assert_eq(errno, EPROTO);
	cr.bytes = 1000;			/* positive control */
	cr_assert_eq(stream_tx_credit(&tx, &imsg), 0);
	cr_assert_eq(stream_tx_avail(&tx), STREAM_WINDOW);
	cr.bytes = 1;
	cr_assert_eq(stream_tx_credit(&tx, &imsg), -1);
	cr_assert_eq(errno, EPROTO);
}

Test(stream, wrong_stream_type_or_length)
{
	struct stream_tx tx;
	struct stream_rx rx;
	struct stream_credit cr = { 0 };
	struct imsg	 imsg;
	const uint8_t	*data;
	size_t		 len;
	uint8_t		 big[sizeof(cr) + 1] = { 0 };

	stream_tx_init(&tx, 2);
	stream_rx_init(&rx, 2);
	imsg = fake(IMSG_STREAM_CREDIT, 3, &cr, sizeof(cr));
	cr_assert_eq(stream_tx_credit(&tx, &imsg), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg = fake(IMSG_STREAM_CREDIT, 2, big, sizeof(big));
	cr_assert_eq(stream_tx_credit(&tx, &imsg), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg = fake(IMSG_STREAM_END, 2, &cr, sizeof(cr));
	cr_assert_eq(stream_tx_credit(&tx, &imsg), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg = fake(IMSG_STREAM_DATA, 3, chunk, 10);
	cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg = fake(IMSG_STREAM_CREDIT, 2, chunk, 10);
	cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg = fake(IMSG_STREAM_END, 2, chunk, 10);
	cr_assert_eq(stream_rx_end(&rx, &imsg), -1);
	cr_assert_eq(errno, EBADMSG);
}

/* END must account for every byte, and nothing may follow it. */
Test(stream, end_total_checked)
{
	struct stream_rx rx;
	struct stream_end end;
	struct imsg	 imsg;
	const uint8_t	*data;
	size_t		 len;

	stream_rx_init(&rx, 6);
	imsg = fake(IMSG_STREAM_DATA, 6, chunk, 100);
	cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), 0);
	memset(&end, 0, sizeof(end));
	end.total = 99;
	imsg = fake(IMSG_STREAM_END, 6, &end, sizeof(end));
	cr_assert_eq(stream_rx_end(&rx, &imsg), -1);
	cr_assert_eq(errno, EPROTO);
	end.total = 100;
	cr_assert_eq(stream_rx_end(&rx, &imsg), 0);
	cr_assert_eq(stream_rx_end(&rx, &imsg), -1);
	cr_assert_eq(errno, EPROTO);
	imsg = fake(IMSG_STREAM_DATA, 6, chunk, 1);
	cr_assert_eq(stream_rx_data(&rx, &imsg, &data, &len), -1);
	cr_assert_eq(errno, EPROTO);
}

static void
relay_handler(int fd, short ev, void *arg)
{
}

/*
 * The relay's gauge refuses DATA beyond the window, so a source that
 * ignores credit cannot fill the relay's queue toward a slow sink.
 * Without the gauge (positive control) the same data is queued.
 */
Test(stream, relay_gauge_refuses_sender_ignoring_credit)
{
	struct event_base *base;
	struct imsgev	 to;
	struct stream_gauge sg;
	struct stream_credit cr;
	struct stream_end end;
	struct imsg	 imsg;
	size_t		 i, q, n = STREAM_WINDOW / STREAM_CHUNK;

	cr_assert_not_null(base = event_base_new());
	imsgev_init(&to, base, pair_sv[0], relay_handler, NULL);
	stream_gauge_init(&sg);
	imsg = fake(IMSG_STREAM_DATA, 8, chunk, STREAM_CHUNK);
	for (i = 0; i < n; i++)
		cr_assert_eq(stream_relay(&to, &imsg, &sg), 0);
	cr_assert_eq(stream_relay(&to, &imsg, &sg), -1);
	cr_assert_eq(errno, EPROTO);
	/*
	 * What an idle channel took was written at once; the socket's
	 * buffer (never read here) is full long before the window is.
	 */
	q = imsgbuf_queuelen(&to.ibuf);
	cr_assert(q > 0 && q < n, "queued %zu of %zu", q, n);
	cr_assert_eq(stream_relay(&to, &imsg, NULL), 0);
	cr_assert_eq(imsgbuf_queuelen(&to.ibuf), q + 1);

	/* Credit beyond what was forwarded is refused too. */
	cr.bytes = STREAM_WINDOW + 1;
	imsg = fake(IMSG_STREAM_CREDIT, 8, &cr, sizeof(cr));
	cr_assert_eq(stream_relay(&to, &imsg, &sg), -1);
	cr_assert_eq(errno, EPROTO);
	cr.bytes = STREAM_CHUNK;
	cr_assert_eq(stream_relay(&to, &imsg, &sg), 0);
	imsg = fake(IMSG_STREAM_DATA, 8, chunk, STREAM_CHUNK);
	cr_assert_eq(stream_relay(&to, &imsg, &sg), 0);

	memset(&end, 0, sizeof(end));
	end.total = STREAM_WINDOW;
	imsg = fake(IMSG_STREAM_END, 8, &end, sizeof(end));
	cr_assert_eq(stream_relay(&to, &imsg, &sg), -1);
	cr_assert_eq(errno, EPROTO);
	end.total = STREAM_WINDOW + STREAM_CHUNK;
	cr_assert_eq(stream_relay(&to, &imsg, &sg), 0);

	/* Only stream messages, fixed sizes, no fds. */
	imsg = fake(TEST_TYPE, 8, chunk, 4);
	cr_assert_eq(stream_relay(&to, &imsg, NULL), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg = fake(IMSG_STREAM_CREDIT, 8, chunk, 5);
	cr_assert_eq(stream_relay(&to, &imsg, NULL), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg = fake(IMSG_STREAM_DATA, 8, chunk, 5);
	imsg.fd = 0;
	cr_assert_eq(stream_relay(&to, &imsg, NULL), -1);
	cr_assert_eq(errno, EBADMSG);

	imsgev_clear(&to);
	event_base_free(base);
}
