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
 * (sends a known pattern under credit) or the sink (checks and counts
 * it), several streams at once.  It proves the route a pack will take,
 * worker -> spaced -> worker or client, and measures it
 * (regress/bench/spaced_stream.sh).
 */

#include <errno.h>
#include <string.h>

#include "log.h"
#include "proc.h"
#include "stream.h"

#define TEST_STREAMS_MAX	8

/*
 * The byte at offset i of a test stream is pattern[i % PATTERN_PERIOD]:
 * a prime period, so a lost, doubled or reordered chunk shifts what
 * follows and no longer compares equal.  Any run of a chunk's length
 * starts somewhere in the first period of pattern[].
 */
#define PATTERN_PERIOD	4099
static uint8_t		 pattern[PATTERN_PERIOD + STREAM_CHUNK];
static int		 pattern_ready;

struct test_stream {
	int		 ts_used;
	int		 ts_source;	/* 1: we send; 0: we check */
	uint32_t	 ts_request;	/* spaced's request id */
	struct stream_tx ts_tx;
	uint64_t	 ts_left;
	struct stream_rx ts_rx;
	uint64_t	 ts_bad;	/* chunks that did not compare */
};
static struct test_stream	 tstreams[TEST_STREAMS_MAX];

const uint8_t *
stream_test_pattern(uint64_t offset)
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

static void	test_stream_msg(struct imsgev *, struct imsg *, void *);

static void
test_free(struct test_stream *ts)
{
	worker_stream_unregister(ts->ts_source ? ts->ts_tx.st_id :
	    ts->ts_rx.sr_id);
	memset(ts, 0, sizeof(*ts));
}

static void
test_pump(struct imsgev *iev, struct test_stream *ts)
{
	struct stream_tx	*tx = &ts->ts_tx;
	size_t			 n;

	while (ts->ts_left > 0 && stream_tx_avail(tx) > 0) {
		n = stream_tx_avail(tx);
		if (n > STREAM_CHUNK)
			n = STREAM_CHUNK;
		if (n > ts->ts_left)
			n = ts->ts_left;
		if (stream_tx_send(tx, &iev->ibuf,
		    stream_test_pattern(tx->st_sent), n) == -1)
			fatal("%s: stream_tx_send", __func__);
		ts->ts_left -= n;
	}
	if (ts->ts_left == 0) {
		/* END is the source's final answer to the request. */
		if (stream_tx_end(tx, &iev->ibuf, 0) == -1)
			fatal("%s: stream_tx_end", __func__);
		test_free(ts);
	}
	imsg_event_add(iev);
}

/* RECV or SEND from spaced: a new test stream, as sink or source. */
void
worker_stream_test(struct imsgev *iev, struct imsg *imsg)
{
	struct stream_test_msg	 tm;
	struct test_stream	*ts = NULL;
	size_t			 i;

	if (imsg_get_data(imsg, &tm, sizeof(tm)) == -1 || tm.tm_stream == 0)
		fatalx("%s: bad test stream request", __func__);
	for (i = 0; i < TEST_STREAMS_MAX; i++)
		if (!tstreams[i].ts_used) {
			ts = &tstreams[i];
			break;
		}
	/* spaced allows fewer at once than this (STREAMS_MAX a worker). */
	if (ts == NULL)
		fatalx("%s: more than %d test streams", __func__,
		    TEST_STREAMS_MAX);
	ts->ts_used = 1;
	ts->ts_request = imsg_get_peerid(imsg);
	if (worker_stream_register(tm.tm_stream, test_stream_msg, ts) == -1)
		fatalx("%s: stream %u in use", __func__, tm.tm_stream);
	if (imsg_get_type(imsg) == IMSG_STREAM_TEST_SEND) {
		ts->ts_source = 1;
		stream_tx_init(&ts->ts_tx, tm.tm_stream);
		ts->ts_left = tm.tm_bytes;
		test_pump(iev, ts);
	} else
		stream_rx_init(&ts->ts_rx, tm.tm_stream);
}

static void
test_stream_msg(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct test_stream	*ts = arg;
	struct stream_test_msg	 tm;
	const uint8_t		*data;
	size_t			 len;
	uint64_t		 offset;

	if (ts->ts_source) {
		if (stream_tx_credit(&ts->ts_tx, imsg) == -1)
			fatal("%s: credit", __func__);
		test_pump(iev, ts);
		return;
	}
	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		offset = ts->ts_rx.sr_received;
		if (stream_rx_data(&ts->ts_rx, imsg, &data, &len) == -1)
			fatal("%s: data", __func__);
		if (memcmp(data, stream_test_pattern(offset), len) != 0)
			ts->ts_bad++;
		if (stream_rx_consumed(&ts->ts_rx, &iev->ibuf, len) == -1)
			fatal("%s: consumed", __func__);
		imsg_event_add(iev);
		break;
	case IMSG_STREAM_END:
		if (stream_rx_end(&ts->ts_rx, imsg) == -1)
			fatal("%s: end", __func__);
		memset(&tm, 0, sizeof(tm));
		tm.tm_stream = ts->ts_rx.sr_id;
		tm.tm_bytes = ts->ts_rx.sr_received;
		tm.tm_bad = ts->ts_bad;
		imsg_compose_event(iev, IMSG_STREAM_TEST_DONE, ts->ts_request,
		    0, -1, &tm, sizeof(tm));
		test_free(ts);
		break;
	default:
		fatalx("%s: credit to a sink", __func__);
	}
}

/* A cancel from spaced: 1 when one of ours was still running. */
int
worker_stream_test_cancel(uint32_t request)
{
	size_t	 i;

	for (i = 0; i < TEST_STREAMS_MAX; i++)
		if (tstreams[i].ts_used && tstreams[i].ts_request == request) {
			test_free(&tstreams[i]);
			return 1;
		}
	return 0;
}
