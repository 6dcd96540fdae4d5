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
 * The real spaced-docker binary at its process boundary, driven as spaced
 * drives it (harness.c), against the stand-in Engine.  What must hold:
 * requests run side by side, a ping is never queued behind them, hostile
 * answers each give a clear code and the worker lives on, the deadline
 * fires against an engine that stalls, and no fd is left behind.
 */

#include <sys/types.h>

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "place_proto.h"
#include "worker-docker/docker_req.h"
#include "worker_harness.h"

#define SLOW_MS		1000
#define NSLOW		10
#define PING_ID		1000

static struct wh	 w;
static struct fe	 f;

static void
start(int delay_ms)
{
	cr_assert_eq(fe_start(&f, delay_ms), 0, "fake_engine did not start "
	    "(built? make regress/tools)");
	cr_assert_eq(wh_start(&w), 0, "spaced-docker did not get ready");
}

static void
stop(void)
{
	wh_stop(&w);
	fe_stop(&f);
}

static void
send_check(uint32_t peerid, const char *mode)
{
	int	 fd = fe_connect(&f, mode);

	cr_assert_geq(fd, 0, "connect to the %s engine", mode);
	cr_assert_eq(wh_send(&w, IMSG_DOCKER_CHECK_REQ, peerid, fd), 0);
}

/* The next answer; its check message in *dc when it is one. */
static uint32_t
next_answer(int ms, uint32_t *type, struct docker_check_msg *dc)
{
	struct imsg	 imsg;
	uint32_t	 peerid;
	int		 r;

	r = wh_recv(&w, &imsg, ms);
	if (r == 0)
		cr_assert_fail("no answer within %d ms", ms);
	cr_assert_eq(r, 1, "the worker went away");
	*type = imsg_get_type(&imsg);
	peerid = imsg_get_peerid(&imsg);
	if (*type == IMSG_DOCKER_CHECK_REP)
		cr_assert_eq(imsg_get_data(&imsg, dc, sizeof(*dc)), 0,
		    "CHECK_REP of %zu bytes", imsg_get_len(&imsg));
	else
		cr_assert_eq(*type, IMSG_WORKER_PING, "unexpected imsg %u",
		    *type);
	imsg_free(&imsg);
	return peerid;
}

/* Waits (a liveness bound, not a measure) until the engine read n. */
static int
engine_reached(int n)
{
	int	 i;

	for (i = 0; i < 500 && fe_versions(&f) < n; i++)
		usleep(10000);
	return fe_versions(&f);
}

/*
 * Ten checks against an engine that never answers: all ten reach it
 * before any answer (one at a time, nine would wait in the worker), and
 * a ping and an eleventh check answer while the ten still wait.  How
 * long it takes is regress/bench/docker_async.sh's, not a test's.
 */
Test(async, ten_checks_in_the_engine_at_once_ping_and_check_first)
{
	struct docker_check_msg	 dc;
	uint32_t		 type, peerid;
	int			 i;

	start(0);
	send_check(1, "stall");
	cr_assert_eq(wh_send(&w, IMSG_WORKER_PING, PING_ID, -1), 0);
	cr_assert_eq(next_answer(5000, &type, &dc), PING_ID);
	/* Positive control: the count sees one stalled request as one. */
	cr_assert_eq(engine_reached(1), 1, "the engine counts requests");
	for (i = 2; i <= NSLOW; i++)
		send_check(i, "stall");
	cr_assert_eq(engine_reached(NSLOW), NSLOW,
	    "checks waited in the worker, not in the engine");
	cr_assert_eq(wh_send(&w, IMSG_WORKER_PING, PING_ID + 1, -1), 0);
	peerid = next_answer(5000, &type, &dc);
	cr_assert_eq(type, IMSG_WORKER_PING, "the ping waited behind the ten");
	cr_assert_eq(peerid, PING_ID + 1);
	send_check(NSLOW + 1, "ok");
	peerid = next_answer(5000, &type, &dc);
	cr_assert_eq(type, IMSG_DOCKER_CHECK_REP);
	cr_assert_eq(peerid, NSLOW + 1, "answer for %u before the eleventh",
	    peerid);
	cr_assert_eq(dc.dc_available, 1, "%s", dc.dc_code);
	stop();
}

/*
 * Ten checks against an engine that takes 1 s each, a ping in the
 * middle: the ping answers before any check, and each check answers
 * once, available, its engine connection closed after.
 */
Test(async, ten_slow_checks_all_answer_ping_first)
{
	struct docker_check_msg	 dc;
	uint32_t		 type, peerid, seen = 0;
	int			 i, base;

	start(SLOW_MS);
	base = wh_nfds(w.wh_pid);
	for (i = 1; i <= NSLOW; i++) {
		send_check(i, "ok");
		if (i == NSLOW / 2)
			cr_assert_eq(wh_send(&w, IMSG_WORKER_PING, PING_ID,
			    -1), 0);
	}
	peerid = next_answer(3 * SLOW_MS, &type, &dc);
	cr_assert_eq(type, IMSG_WORKER_PING, "a check answered before the "
	    "ping: the ping waited behind the checks");
	cr_assert_eq(peerid, PING_ID);
	for (i = 0; i < NSLOW; i++) {
		peerid = next_answer(NSLOW * SLOW_MS, &type, &dc);
		cr_assert_eq(type, IMSG_DOCKER_CHECK_REP);
		cr_assert(peerid >= 1 && peerid <= NSLOW &&
		    !(seen & 1U << peerid), "answer for peerid %u", peerid);
		seen |= 1U << peerid;
		cr_assert_eq(dc.dc_available, 1, "check %u: %s", peerid,
		    dc.dc_code);
		cr_assert_str_eq(dc.dc_version, "20.10.24+dfsg1");
		cr_assert_str_eq(dc.dc_api_version, "1.41");
	}
	/* Every engine connection is closed once answered. */
	usleep(50000);
	cr_assert_eq(wh_nfds(w.wh_pid), base);
	stop();
}

/* The worker under test runs confined: its filter is what we exercise. */
static void
assert_confined(pid_t pid)
{
	char	 path[64], line[128];
	FILE	*fp;
	int	 seccomp = -1, nnp = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	cr_assert_not_null(fp = fopen(path, "r"));
	while (fgets(line, sizeof(line), fp) != NULL) {
		sscanf(line, "Seccomp: %d", &seccomp);
		sscanf(line, "NoNewPrivs: %d", &nnp);
	}
	fclose(fp);
	cr_assert_eq(seccomp, 2, "spaced-docker is not under its filter");
	cr_assert_eq(nnp, 1);
}

struct hostile {
	const char	*h_mode;
	int		 h_available;
	const char	*h_code;
};

/* Each hostile engine gets a clear code and the worker lives on. */
Test(async, hostile_engines_clear_codes_worker_survives)
{
	static const struct hostile	 hs[] = {
		{ "ok", 1, "" },
		{ "chunked", 1, "" },
		{ "truncated", 0, ERR_DOCKER_UNREADABLE },
		{ "oversized", 0, ERR_DOCKER_UNREADABLE },
		{ "badchunk", 0, ERR_DOCKER_UNREADABLE },
		{ "garbage", 0, ERR_DOCKER_UNREADABLE },
		{ "close", 0, ERR_DOCKER_UNREACHABLE },
	};
	struct docker_check_msg	 dc;
	uint32_t		 type, peerid;
	size_t			 i;
	int			 base;

	start(0);
	base = wh_nfds(w.wh_pid);
	for (i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
		send_check(i + 1, hs[i].h_mode);
		peerid = next_answer(5000, &type, &dc);
		cr_assert_eq(type, IMSG_DOCKER_CHECK_REP);
		cr_assert_eq(peerid, i + 1);
		cr_assert_eq(dc.dc_available, hs[i].h_available, "%s: %s",
		    hs[i].h_mode, dc.dc_code);
		cr_assert_str_eq(dc.dc_code, hs[i].h_code, "%s",
		    hs[i].h_mode);
		if (!hs[i].h_available)
			cr_assert_str_eq(dc.dc_version, "", "%s",
			    hs[i].h_mode);
	}
	/* All of them at once, too. */
	for (i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
		send_check(100 + i, hs[i].h_mode);
	for (i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
		peerid = next_answer(5000, &type, &dc);
		cr_assert(peerid >= 100 && peerid < 100 + sizeof(hs) /
		    sizeof(hs[0]));
		cr_assert_str_eq(dc.dc_code, hs[peerid - 100].h_code, "%s",
		    hs[peerid - 100].h_mode);
	}
	cr_assert_eq(wh_send(&w, IMSG_WORKER_PING, PING_ID, -1), 0);
	cr_assert_eq(next_answer(1000, &type, &dc), PING_ID);
	cr_assert_eq(kill(w.wh_pid, 0), 0, "the worker died");
	assert_confined(w.wh_pid);
	usleep(50000);
	cr_assert_eq(wh_nfds(w.wh_pid), base, "an engine fd was left open");
	stop();
}

/*
 * An engine that reads the request and never answers: the deadline
 * (DOCKER_TIMEOUT_MS) answers command_timeout, and pings are answered
 * all along.
 */
Test(async, deadline_fires_against_stalling_engine)
{
	struct docker_check_msg	 dc;
	uint32_t		 type, peerid;
	int			 base, i;

	start(0);
	base = wh_nfds(w.wh_pid);
	send_check(7, "stall");
	for (i = 0; i < 3; i++) {
		usleep(200000);
		cr_assert_eq(wh_send(&w, IMSG_WORKER_PING, PING_ID + i, -1),
		    0);
		/* The next answer is the ping: the check has not answered. */
		peerid = next_answer(DOCKER_TIMEOUT_MS, &type, &dc);
		cr_assert_eq(type, IMSG_WORKER_PING,
		    "ping %d: the check answered before its deadline", i);
		cr_assert_eq(peerid, PING_ID + i);
	}
	cr_assert_eq(wh_nfds(w.wh_pid), base + 1, "the engine fd is held");
	peerid = next_answer(3 * DOCKER_TIMEOUT_MS, &type, &dc);
	cr_assert_eq(type, IMSG_DOCKER_CHECK_REP);
	cr_assert_eq(peerid, 7);
	cr_assert_eq(dc.dc_available, 0);
	cr_assert_str_eq(dc.dc_code, ERR_TIMEOUT);
	usleep(50000);
	cr_assert_eq(wh_nfds(w.wh_pid), base, "the stalled fd is still open");
	stop();
}
