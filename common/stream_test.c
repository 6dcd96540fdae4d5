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
 * The worker side of the stream self-test: any worker can be the source
 * (sends a known pattern under credit) or the sink (checks and sums it).
 * It proves the route a pack will take, worker -> spaced -> worker, and
 * measures it (regress/bench/spaced_stream.sh).
 */

#include <errno.h>
#include <string.h>

#include "log.h"
#include "proc.h"
#include "stream.h"

/*
 * The byte at offset i of a test stream is pattern[i % PATTERN_PERIOD]:
 * a prime period, so a lost, doubled or reordered chunk shifts what
 * follows and no longer compares equal.  Any run of a chunk's length
 * starts somewhere in the first period of pattern[].
 */
#define PATTERN_PERIOD	4099
static uint8_t		 pattern[PATTERN_PERIOD + STREAM_CHUNK];
static int		 pattern_ready;

static struct stream_tx	 tx;
static uint64_t		 tx_left;
static int		 tx_active;
static struct stream_rx	 rx;
static uint64_t		 rx_bad;	/* chunks that did not compare */
static int		 rx_active;

static const uint8_t *
pattern_at(uint64_t offset)
{
	size_t	 i;

	if (!pattern_ready) {
		for (i = 0; i < sizeof(pattern); i++)
			pattern[i] = (uint8_t)((i % PATTERN_PERIOD) * 131 +
			    (i % PATTERN_PERIOD) / 7);
		pattern_ready = 1;
	}
	return pattern + offset % PATTERN_PERIOD;
}

static void
test_pump(struct imsgev *iev)
{
	size_t		 n;

	while (tx_left > 0 && stream_tx_avail(&tx) > 0) {
		n = stream_tx_avail(&tx);
		if (n > STREAM_CHUNK)
			n = STREAM_CHUNK;
		if (n > tx_left)
			n = tx_left;
		if (stream_tx_send(&tx, &iev->ibuf, pattern_at(tx.st_sent),
		    n) == -1)
			fatal("%s: stream_tx_send", __func__);
		tx_left -= n;
	}
	if (tx_left == 0 && !tx.st_ended) {
		if (stream_tx_end(&tx, &iev->ibuf, 0) == -1)
			fatal("%s: stream_tx_end", __func__);
		tx_active = 0;
	}
	imsg_event_add(iev);
}

/* One message of the stream self-test, as source or as sink. */
void
worker_stream_test(struct imsgev *iev, struct imsg *imsg)
{
	struct stream_test_msg	 tm;
	const uint8_t		*data;
	size_t			 len;
	uint64_t		 offset;

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_TEST_SEND:
		if (tx_active || imsg_get_data(imsg, &tm, sizeof(tm)) == -1)
			fatalx("%s: bad SEND", __func__);
		stream_tx_init(&tx, imsg_get_peerid(imsg));
		tx_left = tm.tm_bytes;
		tx_active = 1;
		test_pump(iev);
		break;
	case IMSG_STREAM_CREDIT:
		if (stream_tx_credit(&tx, imsg) == -1)
			fatal("%s: credit", __func__);
		if (tx_active)
			test_pump(iev);
		break;
	case IMSG_STREAM_DATA:
		if (!rx_active) {
			stream_rx_init(&rx, imsg_get_peerid(imsg));
			rx_bad = 0;
			rx_active = 1;
		}
		offset = rx.sr_received;
		if (stream_rx_data(&rx, imsg, &data, &len) == -1)
			fatal("%s: data", __func__);
		if (memcmp(data, pattern_at(offset), len) != 0)
			rx_bad++;
		if (stream_rx_consumed(&rx, &iev->ibuf, len) == -1)
			fatal("%s: consumed", __func__);
		imsg_event_add(iev);
		break;
	case IMSG_STREAM_END:
		if (!rx_active) {
			stream_rx_init(&rx, imsg_get_peerid(imsg));
			rx_bad = 0;
		}
		if (stream_rx_end(&rx, imsg) == -1)
			fatal("%s: end", __func__);
		memset(&tm, 0, sizeof(tm));
		tm.tm_bytes = rx.sr_received;
		tm.tm_bad = rx_bad;
		rx_active = 0;
		imsg_compose_event(iev, IMSG_STREAM_TEST_DONE,
		    imsg_get_peerid(imsg), 0, -1, &tm, sizeof(tm));
		break;
	}
}
