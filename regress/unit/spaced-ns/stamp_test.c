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
 * The times of relay.err lines (ns_stamp_next): lines read together
 * are a second apart, so spaced-journal, which keeps one restart a
 * second, counts each; a flood counts no more than one a second of the
 * pipe's life, and no line is stamped past its read or before the
 * pipe.  A second apart is what spaced-journal's gap keeps (its own
 * unit tests: restart_keep).
 */

#include <criterion/criterion.h>
#include <stdint.h>
#include <time.h>

#include "worker-ns/ns.h"

static int64_t
ms(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000 + t->tv_nsec / 1000000;
}

/* What spaced-journal keeps of times in order: a second past the last. */
static size_t
kept(const struct timespec *ts, size_t n)
{
	size_t	 i, k = 0;
	int64_t	 last = INT64_MIN / 2;

	for (i = 0; i < n; i++)
		if (ms(&ts[i]) - last >= 1000) {
			last = ms(&ts[i]);
			k++;
		}
	return k;
}

/* n lines in one read at now, the pipe made at birth. */
static void
one_read(const struct timespec *birth, const struct timespec *now,
    struct timespec *ts, size_t n)
{
	struct timespec	 last = *birth;
	size_t		 i;

	last.tv_sec--;
	for (i = 0; i < n; i++)
		ns_stamp_next(&last, now, n - 1 - i, &ts[i]);
}

Test(stamp, a_burst_read_at_once_counts_each)
{
	struct timespec	 birth = { 1000, 5 }, now = { 1060, 123456789 };
	struct timespec	 ts[5];
	size_t		 i;

	one_read(&birth, &now, ts, 5);
	for (i = 0; i < 5; i++) {
		cr_assert(ms(&ts[i]) <= ms(&now), "line %zu past the read", i);
		cr_assert(ts[i].tv_sec >= birth.tv_sec, "line %zu before the "
		    "pipe", i);
	}
	cr_assert_eq(ms(&ts[4]), ms(&now), "the last line at the read");
	cr_assert_eq(kept(ts, 5), 5, "5 restarts read at once: %zu kept",
	    kept(ts, 5));
}

Test(stamp, the_next_read_follows_the_last_line)
{
	struct timespec	 last = { 999, 0 }, now = { 1000, 0 }, ts[3];

	ns_stamp_next(&last, &now, 0, &ts[0]);
	now.tv_sec = 1003;
	now.tv_nsec = 500;
	ns_stamp_next(&last, &now, 1, &ts[1]);
	ns_stamp_next(&last, &now, 0, &ts[2]);
	cr_assert_eq(kept(ts, 3), 3);
	cr_assert(ms(&ts[1]) > ms(&ts[0]) && ms(&ts[2]) > ms(&ts[1]),
	    "in order");
}

/* The control: a forger's lines a tenth of a second apart, one each. */
Test(stamp, lines_read_one_by_one_keep_their_times)
{
	struct timespec	 last = { 999, 0 }, now = { 1000, 0 }, ts[10];
	size_t		 i;

	for (i = 0; i < 10; i++) {
		now.tv_nsec = (long)i * 100000000;
		ns_stamp_next(&last, &now, 0, &ts[i]);
		cr_assert_eq(ms(&ts[i]), ms(&now), "read %zu at its time", i);
	}
	cr_assert_eq(kept(ts, 10), 1, "a second's lines: one kept");
}

Test(stamp, a_flood_counts_one_a_second_of_the_pipe)
{
	static struct timespec	 ts[20000];
	struct timespec		 birth = { 5000, 0 }, now = { 5030, 0 };
	size_t			 i;

	one_read(&birth, &now, ts, 20000);
	for (i = 0; i < 20000; i++)
		cr_assert(ts[i].tv_sec >= birth.tv_sec &&
		    ms(&ts[i]) <= ms(&now), "line %zu out of the pipe's life",
		    i);
	cr_assert_leq(kept(ts, 20000), 31, "%zu kept in 30 s",
	    kept(ts, 20000));
	/* And a second read a second later: one more at most. */
	now.tv_sec++;
	{
		struct timespec	 last = ts[19999], more[100];

		for (i = 0; i < 100; i++)
			ns_stamp_next(&last, &now, 99 - i, &more[i]);
		for (i = 0; i < 100; i++)
			cr_assert(ms(&more[i]) >= ms(&ts[19999]));
		cr_assert_leq(kept(more, 100), 1);
	}
}
