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
 * Control-style round trip to spaced-docker: WORKER_PING over its
 * channel, p50 and p99, alone and while ten slow (1 s) checks against
 * the stand-in Engine are in flight all the time (each answer is
 * replaced by a new request), in one run, with the ratio.  The worker
 * is the real binary, driven as spaced drives it
 * (regress/lib/worker_harness.c).  Never asserts a time.
 *
 * usage: docker_async_bench [pings]
 */

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "place_proto.h"
#include "regress/lib/worker_harness.h"

#define SLOW_MS		1000
#define NSLOW		10
#define PACE_US		1000

static struct wh	 w;
static struct fe	 f;
static int		 checks_done, checks_bad;
static uint64_t		 checks_us;
static uint64_t		 sent_at[NSLOW + 1];
static int		 loaded, in_flight;

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
send_check(uint32_t slot)
{
	int	 fd;

	if ((fd = fe_connect(&f, "ok")) == -1)
		err(1, "connect to the stand-in engine");
	sent_at[slot] = wh_now_us();
	in_flight++;
	if (wh_send(&w, IMSG_DOCKER_CHECK_REQ, slot, fd) == -1)
		err(1, "send check");
}

/* One ping; check answers met on the way are counted and replaced. */
static uint64_t
ping(uint32_t id)
{
	struct docker_check_msg	 dc;
	struct imsg		 imsg;
	uint64_t		 t = wh_now_us();
	uint32_t		 slot;

	if (wh_send(&w, IMSG_WORKER_PING, id, -1) == -1)
		err(1, "send ping");
	for (;;) {
		if (wh_recv(&w, &imsg, 5 * SLOW_MS) != 1)
			errx(1, "no answer from spaced-docker");
		if (imsg_get_type(&imsg) == IMSG_WORKER_PING &&
		    imsg_get_peerid(&imsg) == id) {
			imsg_free(&imsg);
			return wh_now_us() - t;
		}
		if (imsg_get_type(&imsg) != IMSG_DOCKER_CHECK_REP ||
		    imsg_get_data(&imsg, &dc, sizeof(dc)) == -1)
			errx(1, "unexpected imsg %u", imsg_get_type(&imsg));
		slot = imsg_get_peerid(&imsg);
		imsg_free(&imsg);
		if (slot < 1 || slot > NSLOW)
			errx(1, "check answer for slot %u", slot);
		checks_done++;
		in_flight--;
		checks_bad += dc.dc_available != 1;
		checks_us += wh_now_us() - sent_at[slot];
		if (loaded)
			send_check(slot);
	}
}

static void
measure(const char *what, uint64_t *v, int n, uint64_t *p50, uint64_t *p99)
{
	int	 i;

	/* Paced, so the loaded run spans rounds of slow answers. */
	for (i = 0; i < n; i++) {
		v[i] = ping(i + 100);
		usleep(PACE_US);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	*p50 = v[n / 2];
	*p99 = v[n * 99 / 100];
	printf("%-40s p50 %7.1f us   p99 %7.1f us   (n=%d)\n", what,
	    *p50 / 1.0, *p99 / 1.0, n);
}

int
main(int argc, char *argv[])
{
	uint64_t	*v, a50, a99, l50, l99;
	int		 n = argc > 1 ? atoi(argv[1]) : 2000, i;

	if (n < 100)
		errx(2, "usage: docker_async_bench [pings >= 100]");
	if ((v = calloc(n, sizeof(*v))) == NULL)
		err(1, "calloc");
	if (fe_start(&f, SLOW_MS) == -1)
		errx(1, "fake_engine did not start");
	if (wh_start(&w) == -1)
		errx(1, "spaced-docker did not start");
	for (i = 0; i < 200; i++)	/* warm up */
		ping(i + 1);

	measure("WORKER_PING, spaced-docker alone", v, n, &a50, &a99);

	loaded = 1;
	for (i = 1; i <= NSLOW; i++)
		send_check(i);
	measure("WORKER_PING, 10 slow checks in flight", v, n, &l50, &l99);
	loaded = 0;
	/* The last round, so every request sent is counted. */
	while (in_flight > 0)
		ping(1);

	printf("ratio loaded/alone: p50 %.2f, p99 %.2f\n",
	    (double)l50 / a50, (double)l99 / a99);
	printf("slow checks answered meanwhile: %d (%d not available), "
	    "mean %.0f ms each against a %d ms engine\n", checks_done,
	    checks_bad, checks_us / 1000.0 / checks_done, SLOW_MS);
	wh_stop(&w);
	fe_stop(&f);
	free(v);
	return checks_bad != 0;
}
