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

/* The libevent glue: arming, draining and a peer that goes away. */

#include <sys/types.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "helpers.h"
#include "imsg.h"

#define NMSG	200

static struct event_base *base;
static struct imsgev	 a, b;
static int		 got, eof_seen, eof_errno;

static void
dispatch(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg;
	struct imsg	 imsg;
	uint32_t	 v;

	if (imsgev_handle(iev, event) == -1) {
		eof_seen = 1;
		eof_errno = errno;
		event_base_loopbreak(base);
		return;
	}
	while (imsgbuf_get(&iev->ibuf, &imsg) == 1) {
		cr_assert_eq(imsg_expect(&imsg, TEST_TYPE, sizeof(v)), 0);
		cr_assert_eq(imsg_get_data(&imsg, &v, sizeof(v)), 0);
		cr_assert_eq(v, (uint32_t)got);
		got++;
		imsg_free(&imsg);
	}
	imsg_event_add(iev);
	if (got == NMSG)
		event_base_loopbreak(base);
}

/* A writer that leaves re-arming to imsgev_handle. */
static void
writer_dispatch(int fd, short event, void *arg)
{
	cr_assert_eq(imsgev_handle(arg, event), 0);
}

Test(event, compose_event_delivers_and_drains)
{
	int		 sv[2];
	uint32_t	 i;

	test_socketpair(sv);
	cr_assert_not_null(base = event_base_new());
	imsgev_init(&a, base, sv[0], writer_dispatch, NULL);
	imsgev_init(&b, base, sv[1], dispatch, NULL);
	imsg_event_add(&a);
	imsg_event_add(&b);
	cr_assert_eq(a.events & EV_WRITE, 0);
	for (i = 0; i < NMSG; i++)
		cr_assert_eq(imsg_compose_event(&a, TEST_TYPE, 0, 0, -1, &i,
		    sizeof(i)), 0);
	/* Output queued: the writer asks for EV_WRITE. */
	cr_assert_neq(a.events & EV_WRITE, 0);
	cr_assert_eq(event_base_dispatch(base), 0);
	cr_assert_eq(got, NMSG);
	cr_assert_eq(imsgbuf_queuelen(&a.ibuf), 0);
	/* Drained: EV_WRITE is gone, EV_READ stays. */
	cr_assert_eq(a.events & EV_WRITE, 0);
	cr_assert(event_pending(&a.ev, EV_READ, NULL));

	/* The peer hangs up: -1 with errno 0, and the event is removed. */
	imsgev_clear(&a);
	close(sv[0]);
	cr_assert_eq(event_base_dispatch(base), 0);
	cr_assert(eof_seen);
	cr_assert_eq(eof_errno, 0);
	cr_assert_not(event_pending(&b.ev, EV_READ | EV_WRITE, NULL));
	imsgev_clear(&b);
	close(sv[1]);
	event_base_free(base);
}
