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
 * Streams between workers pass through spaced unread: DATA and END go
 * forward, CREDIT goes back (common/stream.c stream_relay), and a gauge
 * per stream refuses a worker that sends past its window, so spaced
 * never holds more than a window of any stream.  For now the only
 * stream is the self-test, spaced-git to spaced-journal.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "spaced.h"
#include "stream.h"

#define STREAM_TEST_MAX		(64ULL << 30)	/* 64 GiB */

static struct {
	int			 active;
	uint32_t		 id;		/* the control connection */
	struct timespec		 start;
	struct stream_gauge	 gauge;
} st;

/* VmHWM of spaced itself, KiB; 0 when /proc does not say. */
static uint64_t
peak_rss(void)
{
	char		 buf[4096], *p;
	ssize_t		 n;
	int		 fd;

	if ((fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if ((p = strstr(buf, "VmHWM:")) == NULL)
		return 0;
	return strtoull(p + 6, NULL, 10);
}

const char *
relay_stream_test(uint32_t ctl_id, const struct stream_test_msg *req)
{
	struct stream_test_msg	 tm;

	if (req->tm_bytes > STREAM_TEST_MAX)
		return ERR_BAD_REQUEST;
	if (st.active)
		return ERR_BUSY;
	memset(&tm, 0, sizeof(tm));
	tm.tm_bytes = req->tm_bytes;
	if (worker_compose(PROC_GIT, IMSG_STREAM_TEST_SEND, ctl_id, -1, &tm,
	    sizeof(tm)) == -1)
		return ERR_WORKER_UNAVAILABLE;
	st.active = 1;
	st.id = ctl_id;
	stream_gauge_init(&st.gauge);
	clock_gettime(CLOCK_MONOTONIC, &st.start);
	return NULL;
}

void
relay_dispatch(enum procid from, struct imsg *imsg)
{
	struct stream_test_msg	 tm;
	struct timespec		 now;
	uint32_t		 type = imsg_get_type(imsg);
	enum procid		 to;

	/* Bad input from a worker is fatal (STYLE.md 7). */
	if (!st.active || imsg_get_peerid(imsg) != st.id)
		fatalx("%s: stream message %u from %s for no stream", __func__,
		    type, proc_title(from));
	if (type == IMSG_STREAM_TEST_DONE) {
		if (from != PROC_JOURNAL ||
		    imsg_get_data(imsg, &tm, sizeof(tm)) == -1)
			fatalx("%s: bad DONE from %s", __func__,
			    proc_title(from));
		clock_gettime(CLOCK_MONOTONIC, &now);
		tm.tm_usec = (now.tv_sec - st.start.tv_sec) * 1000000ULL +
		    (now.tv_nsec - st.start.tv_nsec) / 1000;
		tm.tm_peak_rss = peak_rss();
		st.active = 0;
		control_answer(st.id, IMSG_CTL_DATA, &tm, sizeof(tm));
		control_end(st.id);
		return;
	}
	if ((type == IMSG_STREAM_CREDIT) != (from == PROC_JOURNAL))
		fatalx("%s: stream message %u from the wrong side (%s)",
		    __func__, type, proc_title(from));
	to = from == PROC_GIT ? PROC_JOURNAL : PROC_GIT;
	if (stream_relay(&children[to].c_iev, imsg, &st.gauge) == -1)
		fatal("%s: %s broke the stream", __func__, proc_title(from));
}
