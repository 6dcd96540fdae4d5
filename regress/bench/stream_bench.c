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
 * Throughput of a credit-controlled stream through a relay process
 * (source -> relay -> sink, as the supervisor forwards a pack) against a
 * plain socketpair copy of the same bytes between two processes.
 * Prints both rates, their ratio and the relay's peak RSS.  Never asserts
 * a time: bench numbers are read, not enforced.
 *
 * usage: stream_bench [megabytes]
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "imsg.h"
#include "proto.h"
#include "stream.h"

#define STREAM_ID	1
#define REPORT_TYPE	0x7fff0002u

struct relay_report {
	uint64_t	 rr_rss_start;	/* kB */
	uint64_t	 rr_hwm_end;	/* kB */
};

static uint8_t		 chunk[STREAM_CHUNK];
/* The baseline's writes: large, the fastest plain copy here (16 KiB ones,
 * the stream's chunk, are ~2.5x slower and flattered the ratio). */
#define RAW_CHUNK	(256 * 1024)
static uint8_t		 raw_chunk[RAW_CHUNK];

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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

/* CPU seconds used so far by this process and its reaped children. */
static double
cpu_used(void)
{
	struct rusage	 self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return self.ru_utime.tv_sec + self.ru_stime.tv_sec +
	    kids.ru_utime.tv_sec + kids.ru_stime.tv_sec +
	    (self.ru_utime.tv_usec + self.ru_stime.tv_usec +
	    kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) / 1e6;
}

static void
wait_fd(int fd, int want_out)
{
	struct pollfd	 pfd;

	pfd.fd = fd;
	pfd.events = POLLIN | (want_out ? POLLOUT : 0);
	if (poll(&pfd, 1, -1) == -1 && errno != EINTR)
		err(1, "poll");
}

static void
reap(pid_t pid)
{
	int	 status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		errx(1, "child %d failed: %#x", (int)pid, status);
}

/* The baseline: write(2) and read(2) of large chunks, no framing. */
static double
raw_copy(uint64_t total)
{
	int		 sv[2];
	pid_t		 pid;
	uint8_t		*buf;
	uint64_t	 got = 0, sent = 0;
	ssize_t		 n;
	double		 t0;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		err(1, "socketpair");
	t0 = now();
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		close(sv[1]);
		while (sent < total) {
			n = write(sv[0], raw_chunk, total - sent < RAW_CHUNK ?
			    total - sent : RAW_CHUNK);
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0)
				_exit(1);
			sent += n;
		}
		_exit(0);
	}
	close(sv[0]);
	if ((buf = malloc(RAW_CHUNK)) == NULL)
		err(1, NULL);
	while ((n = read(sv[1], buf, RAW_CHUNK)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			err(1, "read");
		got += n;
	}
	close(sv[1]);
	reap(pid);
	if (got != total)
		errx(1, "raw: %llu of %llu bytes", (unsigned long long)got,
		    (unsigned long long)total);
	free(buf);
	return now() - t0;
}

static __attribute__((__noreturn__)) void
source_main(int fd, uint64_t total)
{
	struct imsgbuf	 ibuf;
	struct stream_tx tx;
	struct imsg	 imsg;
	uint64_t	 sent = 0;
	size_t		 len;
	ssize_t		 n;

	imsgbuf_init(&ibuf, fd);
	stream_tx_init(&tx, STREAM_ID);
	for (;;) {
		while (sent < total && stream_tx_avail(&tx) >= STREAM_CHUNK) {
			len = total - sent < STREAM_CHUNK ? total - sent :
			    STREAM_CHUNK;
			if (stream_tx_send(&tx, &ibuf, chunk, len) == -1)
				_exit(2);
			sent += len;
		}
		if (sent == total && !tx.st_ended &&
		    stream_tx_end(&tx, &ibuf, 0) == -1)
			_exit(3);
		if (imsgbuf_write(&ibuf) == -1)
			_exit(4);
		if (tx.st_ended && imsgbuf_queuelen(&ibuf) == 0)
			break;
		wait_fd(fd, imsgbuf_queuelen(&ibuf) > 0);
		if ((n = imsgbuf_read(&ibuf)) == 0 ||
		    (n == -1 && errno != EAGAIN))
			_exit(5);
		while (imsgbuf_get(&ibuf, &imsg) == 1) {
			if (stream_tx_credit(&tx, &imsg) == -1)
				_exit(6);
			imsg_free(&imsg);
		}
	}
	/* Wait for the relay to hang up; late credits are dropped. */
	for (;;) {
		wait_fd(fd, 0);
		if ((n = imsgbuf_read(&ibuf)) == 0)
			break;
		if (n == -1 && errno != EAGAIN)
			_exit(7);
		while (imsgbuf_get(&ibuf, &imsg) == 1)
			imsg_free(&imsg);
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
	if (imsg_compose(&relay.snk.ibuf, REPORT_TYPE, 0, 0, -1,
	    &relay.report, sizeof(relay.report)) == -1 ||
	    imsgbuf_flush(&relay.snk.ibuf) == -1)
		_exit(20);
}

static void
relay_dispatch(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg, *other;
	struct imsg	 imsg;
	ssize_t		 n;
	int		 r, rounds;

	other = iev == &relay.src ? &relay.snk : &relay.src;
	if (imsgev_handle(iev, event) == -1) {
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
	for (rounds = 0;; rounds++) {
		while ((r = imsgbuf_get(&iev->ibuf, &imsg)) == 1) {
			if (stream_relay(other, &imsg, &relay.gauge) == -1)
				_exit(23);
			if (imsg_get_type(&imsg) == IMSG_STREAM_END)
				relay.ended = 1;
			imsg_free(&imsg);
		}
		if (r == -1)
			_exit(24);
		/* Take what else is there now: fewer, larger writes. */
		if (!(event & EV_READ) || rounds == 8)
			break;
		/* EOF shows again on the next event, handled there. */
		if ((n = imsgbuf_read(&iev->ibuf)) == 0 ||
		    (n == -1 && errno == EAGAIN))
			break;
		if (n == -1)
			_exit(27);
	}
	imsg_event_add(iev);
	relay_finish();
}

static __attribute__((__noreturn__)) void
relay_main(int src, int snk)
{
	prctl(PR_SET_NAME, "bench-relay");	/* for profilers */
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

/*
 * source -> relay -> sink, or source -> sink without a relay (rr NULL);
 * this process is the sink.
 */
static double
relayed_stream(uint64_t total, struct relay_report *rr)
{
	int		 a[2], b[2], done = 0;
	pid_t		 src, rel;
	struct imsgbuf	 ibuf;
	struct stream_rx rx;
	struct imsg	 imsg;
	const uint8_t	*data;
	size_t		 len;
	ssize_t		 n;
	double		 t0, t;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, a) == -1 ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, b) == -1)
		err(1, "socketpair");
	t0 = now();
	if ((src = fork()) == -1)
		err(1, "fork");
	if (src == 0) {
		close(a[1]); close(b[1]);
		if (rr == NULL)
			source_main(b[0], total);
		close(b[0]);
		source_main(a[0], total);
	}
	rel = -1;
	if (rr != NULL) {
		if ((rel = fork()) == -1)
			err(1, "fork");
		if (rel == 0) {
			close(a[0]); close(b[1]);
			relay_main(a[1], b[0]);
		}
	}
	close(a[0]); close(a[1]); close(b[0]);

	imsgbuf_init(&ibuf, b[1]);
	stream_rx_init(&rx, STREAM_ID);
	t = 0;
	while (!done) {
		wait_fd(b[1], imsgbuf_queuelen(&ibuf) > 0);
		if (imsgbuf_write(&ibuf) == -1)
			err(1, "write");
		if ((n = imsgbuf_read(&ibuf)) == 0)
			errx(1, "relay hung up");
		if (n == -1 && errno != EAGAIN)
			err(1, "read");
		while (!done && imsgbuf_get(&ibuf, &imsg) == 1) {
			switch (imsg_get_type(&imsg)) {
			case IMSG_STREAM_DATA:
				if (stream_rx_data(&rx, &imsg, &data,
				    &len) == -1 ||
				    stream_rx_consumed(&rx, &ibuf, len) == -1)
					err(1, "stream data");
				break;
			case IMSG_STREAM_END:
				if (stream_rx_end(&rx, &imsg) == -1)
					err(1, "stream end");
				t = now() - t0;
				done = rr == NULL;
				break;
			case REPORT_TYPE:
				if (imsg_get_data(&imsg, rr, sizeof(*rr)) == -1)
					err(1, "report");
				done = 1;
				break;
			default:
				errx(1, "unexpected type %u",
				    imsg_get_type(&imsg));
			}
			imsg_free(&imsg);
		}
	}
	imsgbuf_clear(&ibuf);
	close(b[1]);
	if (rel != -1)
		reap(rel);
	reap(src);
	if (rx.sr_received != total)
		errx(1, "stream: %llu of %llu bytes",
		    (unsigned long long)rx.sr_received,
		    (unsigned long long)total);
	return t;
}

struct result {
	double		 wall;	/* best of the runs, seconds */
	double		 cpu;	/* CPU seconds of all its processes, best */
};

static void
measure(struct result *r, int mode, uint64_t total, struct relay_report *rr)
{
	double	 c0 = cpu_used(), t, c;

	switch (mode) {
	case 0:
		t = raw_copy(total);
		break;
	case 1:
		t = relayed_stream(total, NULL);
		break;
	default:
		t = relayed_stream(total, rr);
		break;
	}
	c = cpu_used() - c0;
	if (r->wall == 0 || t < r->wall)
		r->wall = t;
	if (r->cpu == 0 || c < r->cpu)
		r->cpu = c;
}

int
main(int argc, char *argv[])
{
	static const char *names[] = {
		"raw socketpair copy (2 processes)",
		"stream direct (2 processes)",
		"stream via relay (3 processes)",
	};
	struct relay_report rr;
	struct result	 res[3];
	uint64_t	 mb = 1024, total;
	size_t		 i;
	int		 round, mode;
	const char	*only = getenv("STREAM_BENCH_ONLY");	/* profiling */

	if (argc > 1 && (mb = strtoull(argv[1], NULL, 10)) == 0)
		errx(1, "usage: stream_bench [megabytes]");
	total = mb * 1024 * 1024;
	for (i = 0; i < sizeof(chunk); i++)
		chunk[i] = i * 2654435761u >> 24;

	/* Interleaved, best of three, to even out a busy machine. */
	memset(res, 0, sizeof(res));
	for (round = 0; round < 3; round++)
		for (mode = 0; mode < 3; mode++)
			if (only == NULL || atoi(only) == mode)
				measure(&res[mode], mode, total, &rr);
	if (only != NULL)
		return 0;

	printf("bytes: %llu MiB, best of 3\n", (unsigned long long)mb);
	for (mode = 0; mode < 3; mode++)
		printf("%-34s %6.0f MB/s wall, %6.0f MB per CPU-second\n",
		    names[mode], total / res[mode].wall / 1e6,
		    total / res[mode].cpu / 1e6);
	printf("ratio relay/raw: %.2f wall, %.2f CPU (goal >= 0.5)\n",
	    res[0].wall / res[2].wall, res[0].cpu / res[2].cpu);
	printf("ratio direct/raw: %.2f wall, %.2f CPU\n",
	    res[0].wall / res[1].wall, res[0].cpu / res[1].cpu);
	printf("relay peak RSS: %llu kB (start %llu kB, +%llu kB)\n",
	    (unsigned long long)rr.rr_hwm_end,
	    (unsigned long long)rr.rr_rss_start,
	    (unsigned long long)(rr.rr_hwm_end - rr.rr_rss_start));
	return 0;
}
