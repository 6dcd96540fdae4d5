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
 * A large stream through a relay process, as the supervisor forwards a
 * pack or an exec stream: source -> relay -> sink, three processes.  The
 * sink (this process) checks the byte count and a checksum the source
 * computed, and the relay reports its own memory growth.
 *
 * SPACED_STREAM_MB sets the size (default 1024).
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "helpers.h"
#include "imsg.h"
#include "proto.h"
#include "stream.h"

#define STREAM_ID	0x51
/* The relay may grow by this much at most while it forwards. */
#define RELAY_RSS_BOUND	(16 * 1024 * 1024)

/*
 * ASan's quarantine keeps freed chunks (256 MiB by default), which would
 * hide the relay's real footprint; keep it small in this binary.
 */
const char	*__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "quarantine_size_mb=1";
}

struct relay_report {
	uint64_t	 rr_rss_start;	/* kB */
	uint64_t	 rr_hwm_end;	/* kB */
	uint64_t	 rr_peak_queue;	/* bytes queued toward the sink */
	uint64_t	 rr_forwarded;
};

struct source_report {
	uint64_t	 sr_bytes;
	uint64_t	 sr_sum;
};

static uint64_t
checksum(uint64_t h, const uint8_t *p, size_t len)
{
	uint64_t	 w;
	size_t		 i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t
proc_status_kb(const char *field)
{
	FILE		*f;
	char		 line[256];
	uint64_t	 v = 0;
	size_t		 flen = strlen(field);

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, field, flen) == 0 && line[flen] == ':')
			v = strtoull(line + flen + 1, NULL, 10);
	fclose(f);
	return v;
}

static uint64_t
stream_size(void)
{
	const char	*s = getenv("SPACED_STREAM_MB");
	long		 mb = 1024;

	if (s != NULL && (mb = strtol(s, NULL, 10)) <= 0)
		mb = 1024;
	return (uint64_t)mb * 1024 * 1024;
}

/* Wait until fd is readable (and writable when want_out). */
static void
wait_fd(int fd, int want_out)
{
	struct pollfd	 pfd;

	pfd.fd = fd;
	pfd.events = POLLIN | (want_out ? POLLOUT : 0);
	if (poll(&pfd, 1, -1) == -1 && errno != EINTR)
		_exit(10);
}

static void __attribute__((__noreturn__))
source_main(int fd, int report, uint64_t total)
{
	struct imsgbuf	 ibuf;
	struct stream_tx tx;
	struct imsg	 imsg;
	struct source_report sr;
	uint8_t		*chunk;
	uint64_t	 sent = 0, k = 0, x = 0x9e3779b97f4a7c15ULL;
	size_t		 i, len;
	ssize_t		 n;

	if ((chunk = malloc(STREAM_CHUNK)) == NULL)
		_exit(11);
	for (i = 0; i < STREAM_CHUNK; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		chunk[i] = x;
	}
	memset(&sr, 0, sizeof(sr));
	imsgbuf_init(&ibuf, fd);
	stream_tx_init(&tx, STREAM_ID);
	while (!tx.st_ended || imsgbuf_queuelen(&ibuf) > 0) {
		while (sent < total && stream_tx_avail(&tx) >= STREAM_CHUNK) {
			/* Every chunk differs: a counter and a moving word. */
			memcpy(chunk, &k, sizeof(k));
			chunk[8 + k % (STREAM_CHUNK - 8)] ^= 0x5a;
			len = total - sent < STREAM_CHUNK ? total - sent :
			    STREAM_CHUNK;
			sr.sr_sum = checksum(sr.sr_sum, chunk, len);
			if (stream_tx_send(&tx, &ibuf, chunk, len) == -1)
				_exit(12);
			sent += len;
			k++;
		}
		if (sent == total && !tx.st_ended &&
		    stream_tx_end(&tx, &ibuf, 0) == -1)
			_exit(13);
		if (imsgbuf_write(&ibuf) == -1)
			_exit(14);
		if (tx.st_ended && imsgbuf_queuelen(&ibuf) == 0)
			break;
		wait_fd(fd, imsgbuf_queuelen(&ibuf) > 0);
		n = imsgbuf_read(&ibuf);
		if (n == 0)
			_exit(15);
		if (n == -1 && errno != EAGAIN)
			_exit(16);
		while (imsgbuf_get(&ibuf, &imsg) == 1) {
			if (stream_tx_credit(&tx, &imsg) == -1)
				_exit(17);
			imsg_free(&imsg);
		}
	}
	sr.sr_bytes = sent;
	write_all(report, &sr, sizeof(sr));
	/* Stay until the relay is done, taking its last credits. */
	for (;;) {
		wait_fd(fd, 0);
		n = imsgbuf_read(&ibuf);
		if (n == 0)
			break;
		if (n == -1 && errno != EAGAIN)
			_exit(18);
		while (imsgbuf_get(&ibuf, &imsg) == 1) {
			if (stream_tx_credit(&tx, &imsg) == -1)
				_exit(19);
			imsg_free(&imsg);
		}
	}
	_exit(0);
}

struct relay {
	struct event_base	*base;
	struct imsgev		 src, snk;
	struct stream_gauge	 gauge;
	struct relay_report	 report;
	int			 ended;
	int			 reported;
};

static struct relay	 relay;

static void
relay_finish(void)
{
	if (!relay.ended || relay.reported ||
	    imsgbuf_queuelen(&relay.snk.ibuf) > 0)
		return;
	relay.reported = 1;
	relay.report.rr_hwm_end = proc_status_kb("VmHWM");
	relay.report.rr_forwarded = relay.gauge.sg_forwarded;
	if (imsg_compose(&relay.snk.ibuf, TEST_TYPE_RSS, 0, 0, -1,
	    &relay.report, sizeof(relay.report)) == -1 ||
	    imsgbuf_flush(&relay.snk.ibuf) == -1)
		_exit(20);
}

static void
relay_dispatch(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg, *other;
	struct imsg	 imsg;
	int		 r;

	other = iev == &relay.src ? &relay.snk : &relay.src;
	if (imsgev_handle(iev, event) == -1) {
		/* The source may hang up once it sent END. */
		if (errno == 0 && iev == &relay.src && relay.ended) {
			event_del(&iev->ev);
			relay_finish();
			return;
		}
		/* The sink hangs up once it has the report: done. */
		if (errno == 0 && iev == &relay.snk && relay.reported) {
			event_base_loopbreak(relay.base);
			return;
		}
		_exit(21);
	}
	while ((r = imsgbuf_get(&iev->ibuf, &imsg)) == 1) {
		/* DATA and END only forward, CREDIT only back. */
		if ((iev == &relay.src) ==
		    (imsg_get_type(&imsg) == IMSG_STREAM_CREDIT))
			_exit(22);
		if (stream_relay(other, &imsg, &relay.gauge) == -1)
			_exit(23);
		if (imsg_get_type(&imsg) == IMSG_STREAM_END)
			relay.ended = 1;
		imsg_free(&imsg);
	}
	if (r == -1)
		_exit(24);
	if (relay.snk.ibuf.outq_bytes > relay.report.rr_peak_queue)
		relay.report.rr_peak_queue = relay.snk.ibuf.outq_bytes;
	imsg_event_add(iev);
	relay_finish();
}

static void __attribute__((__noreturn__))
relay_main(int src, int snk)
{
	relay.report.rr_rss_start = proc_status_kb("VmRSS");
	if ((relay.base = event_base_new()) == NULL)
		_exit(25);
	imsgev_init(&relay.src, relay.base, src, relay_dispatch, NULL);
	imsgev_init(&relay.snk, relay.base, snk, relay_dispatch, NULL);
	stream_gauge_init(&relay.gauge);
	imsg_event_add(&relay.src);
	imsg_event_add(&relay.snk);
	if (event_base_dispatch(relay.base) == -1)
		_exit(26);
	_exit(0);
}

static void
reap(pid_t pid, const char *what)
{
	int	 status;

	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "%s: status %#x", what, status);
}

Test(stream_relay, large_stream_bounded_relay, .timeout = 600)
{
	int		 a[2], b[2], rep[2];
	pid_t		 src, rel;
	struct imsgbuf	 ibuf;
	struct stream_rx rx;
	struct imsg	 imsg;
	struct relay_report rr;
	struct source_report sr;
	const uint8_t	*data;
	size_t		 len;
	uint64_t	 total = stream_size(), sum = 0;
	int		 done = 0;
	ssize_t		 n;

	test_socketpair(a);
	test_socketpair(b);
	cr_assert_eq(pipe(rep), 0);
	cr_assert_neq(src = fork(), -1);
	if (src == 0) {
		close(a[1]); close(b[0]); close(b[1]); close(rep[0]);
		source_main(a[0], rep[1], total);
	}
	cr_assert_neq(rel = fork(), -1);
	if (rel == 0) {
		close(a[0]); close(b[1]); close(rep[0]); close(rep[1]);
		relay_main(a[1], b[0]);
	}
	close(a[0]); close(a[1]); close(b[0]); close(rep[1]);

	imsgbuf_init(&ibuf, b[1]);
	stream_rx_init(&rx, STREAM_ID);
	memset(&rr, 0, sizeof(rr));
	while (!done) {
		wait_fd(b[1], imsgbuf_queuelen(&ibuf) > 0);
		cr_assert_eq(imsgbuf_write(&ibuf), 0);
		n = imsgbuf_read(&ibuf);
		cr_assert_neq(n, 0, "relay hung up early");
		if (n == -1)
			cr_assert_eq(errno, EAGAIN);
		while (!done && imsgbuf_get(&ibuf, &imsg) == 1) {
			switch (imsg_get_type(&imsg)) {
			case IMSG_STREAM_DATA:
				cr_assert_eq(stream_rx_data(&rx, &imsg, &data,
				    &len), 0);
				sum = checksum(sum, data, len);
				cr_assert_eq(stream_rx_consumed(&rx, &ibuf,
				    len), 0);
				break;
			case IMSG_STREAM_END:
				cr_assert_eq(stream_rx_end(&rx, &imsg), 0);
				break;
			case TEST_TYPE_RSS:
				cr_assert(rx.sr_ended);
				cr_assert_eq(imsg_get_data(&imsg, &rr,
				    sizeof(rr)), 0);
				done = 1;
				break;
			default:
				cr_assert_fail("type %u", imsg_get_type(&imsg));
			}
			imsg_free(&imsg);
		}
	}
	imsgbuf_clear(&ibuf);
	close(b[1]);
	reap(rel, "relay");
	reap(src, "source");
	cr_assert_eq(read_full(rep[0], &sr, sizeof(sr)), sizeof(sr));
	close(rep[0]);

	cr_assert_eq(rx.sr_status, 0);
	cr_assert_eq(rx.sr_received, total);
	cr_assert_eq(sr.sr_bytes, total);
	cr_assert_eq(sum, sr.sr_sum, "checksum differs");
	cr_assert_eq(rr.rr_forwarded, total);
	/* What the relay queued is bounded by the window, not the stream. */
	cr_assert_leq(rr.rr_peak_queue,
	    STREAM_WINDOW + (STREAM_WINDOW / STREAM_CHUNK + 2) *
	    IMSG_HEADER_SIZE + sizeof(struct stream_end));
	cr_assert_gt(rr.rr_rss_start, 0);
	cr_assert_leq((rr.rr_hwm_end - rr.rr_rss_start) * 1024,
	    RELAY_RSS_BOUND, "relay grew by %" PRIu64 " kB",
	    rr.rr_hwm_end - rr.rr_rss_start);
	cr_log_info("stream %" PRIu64 " MiB; relay rss start %" PRIu64
	    " kB, peak %" PRIu64 " kB, peak queue %" PRIu64 " B",
	    total >> 20, rr.rr_rss_start, rr.rr_hwm_end, rr.rr_peak_queue);
}

/* A source that sends two windows without waiting for credit. */
static void __attribute__((__noreturn__))
greedy_source_main(int fd)
{
	struct imsgbuf	 ibuf;
	uint8_t		*chunk;
	size_t		 i;

	if ((chunk = calloc(1, STREAM_CHUNK)) == NULL)
		_exit(11);
	imsgbuf_init(&ibuf, fd);
	for (i = 0; i < 2 * STREAM_WINDOW / STREAM_CHUNK; i++)
		if (imsg_compose(&ibuf, IMSG_STREAM_DATA, STREAM_ID, 0, -1,
		    chunk, STREAM_CHUNK) == -1)
			_exit(12);
	/* The relay hangs up part way: a failed flush is expected. */
	(void)imsgbuf_flush(&ibuf);
	_exit(0);
}

/*
 * Over real sockets: the relay cuts off a source that ignores credit
 * as soon as it exceeds the window, and the sink (which never credits)
 * receives no more than one window.  The large stream above is the
 * positive control: the same relay passes a source that waits.
 */
Test(stream_relay, source_ignoring_credit_is_cut_off)
{
	int		 a[2], b[2], status;
	pid_t		 src, rel;
	struct imsgbuf	 ibuf;
	struct imsg	 imsg;
	uint64_t	 got = 0;
	ssize_t		 n;

	test_socketpair(a);
	test_socketpair(b);
	cr_assert_neq(src = fork(), -1);
	if (src == 0) {
		close(a[1]); close(b[0]); close(b[1]);
		greedy_source_main(a[0]);
	}
	cr_assert_neq(rel = fork(), -1);
	if (rel == 0) {
		close(a[0]); close(b[1]);
		relay_main(a[1], b[0]);
	}
	close(a[0]); close(a[1]); close(b[0]);

	imsgbuf_init(&ibuf, b[1]);
	for (;;) {
		wait_fd(b[1], 0);
		if ((n = imsgbuf_read(&ibuf)) == 0)
			break;
		if (n == -1)
			cr_assert_eq(errno, EAGAIN);
		while (imsgbuf_get(&ibuf, &imsg) == 1) {
			cr_assert_eq(imsg_expect(&imsg, IMSG_STREAM_DATA,
			    STREAM_CHUNK), 0);
			got += imsg_get_len(&imsg);
			imsg_free(&imsg);
		}
	}
	cr_assert_eq(waitpid(rel, &status, 0), rel);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 23,
	    "relay status %#x", status);
	cr_assert_leq(got, STREAM_WINDOW);
	reap(src, "source");
	imsgbuf_clear(&ibuf);
	close(b[1]);
}
