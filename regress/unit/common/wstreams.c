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
 * A worker's stream table (proc.c): full and taken are answers, never
 * a death, and a stream marked over is not one in use.  Each test runs
 * in a process of its own, so each starts with an empty table.
 */

#include <errno.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "imsg.h"
#include "proc.h"

static void
handler(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	(void)iev;
	(void)imsg;
	(void)arg;
}

Test(wstreams, a_full_table_answers_enospc)
{
	uint32_t	 id;

	for (id = 1; id <= WORKER_STREAMS_MAX; id++)
		cr_assert_eq(worker_stream_register(id, handler, NULL), 0);
	errno = 0;
	cr_assert_eq(worker_stream_register(id, handler, NULL), -1);
	cr_assert_eq(errno, ENOSPC);
	/* One let go is room for one more. */
	worker_stream_unregister(7);
	cr_assert_eq(worker_stream_register(id, handler, NULL), 0);
}

Test(wstreams, an_id_in_use_answers_eexist)
{
	cr_assert_eq(worker_stream_register(42, handler, NULL), 0);
	errno = 0;
	cr_assert_eq(worker_stream_register(42, handler, NULL), -1);
	cr_assert_eq(errno, EEXIST);
	cr_assert_eq(worker_stream_register(0, handler, NULL), -1);
}

Test(wstreams, ended_refuses_an_id_in_use_and_takes_no_slot)
{
	uint32_t	 id;

	cr_assert_eq(worker_stream_register(5, handler, NULL), 0);
	errno = 0;
	cr_assert_eq(worker_stream_ended(5), -1);
	cr_assert_eq(errno, EEXIST);
	/* Still registered: the refusal left it alone. */
	cr_assert_eq(worker_stream_register(5, handler, NULL), -1);
	/* Marked over: thousands of refusals fill nothing. */
	for (id = 1000; id < 5000; id++)
		cr_assert_eq(worker_stream_ended(id), 0);
	for (id = 100; id < 100 + WORKER_STREAMS_MAX - 1; id++)
		cr_assert_eq(worker_stream_register(id, handler, NULL), 0);
}
