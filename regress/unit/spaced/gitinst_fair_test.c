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
 * The fair share of the plain callers' spaced-git instances
 * (gitinst_fair.c; review 2026-12-06 F8): who may wait, who starts
 * next, whose idle instance makes room, and what counts.
 */

#include <criterion/criterion.h>

#include "supervisor/spaced/gitinst_fair.h"

#define POOL	12	/* gitinst.c's plain pool */
#define CAP	8	/* and its cap a caller */

Test(fair, the_share_shrinks_as_plain_callers_come)
{
	cr_assert_eq(fair_share(POOL, CAP, 1), 8, "one caller: its cap");
	cr_assert_eq(fair_share(POOL, CAP, 2), 6);
	cr_assert_eq(fair_share(POOL, CAP, 3), 4);
	cr_assert_eq(fair_share(POOL, CAP, 5), 2);
	cr_assert_eq(fair_share(POOL, CAP, 13), 1, "never none");
	cr_assert_eq(fair_share(POOL, CAP, 0), 8);
}

Test(fair, a_caller_under_its_share_waits_one_at_it_does_not)
{
	/* F8: two hold 6 each, the third holds none: it waits. */
	cr_assert(fair_may_wait(POOL, CAP, 3, 0, 0));
	cr_assert(fair_may_wait(POOL, CAP, 3, 3, 0));
	/* Its waits count: no queue of its own beyond its share. */
	cr_assert_not(fair_may_wait(POOL, CAP, 3, 2, 2));
	/* The holders, at their share or over it: busy as before. */
	cr_assert_not(fair_may_wait(POOL, CAP, 3, 4, 0));
	cr_assert_not(fair_may_wait(POOL, CAP, 3, 6, 0));
	/* Alone at its own cap: busy (8 a caller), no wait for itself. */
	cr_assert_not(fair_may_wait(POOL, CAP, 1, 8, 0));
}

Test(fair, the_next_is_the_caller_who_holds_the_fewest)
{
	size_t	 live[] = { 6, 2, 0, 0, 6 };
	size_t	 one[] = { 3 };

	cr_assert_eq(fair_next(live, 5), 2, "the fewest, the oldest wait");
	cr_assert_eq(fair_next(one, 1), 0);
	live[2] = 5;
	cr_assert_eq(fair_next(live, 5), 3);
}

Test(fair, room_is_made_from_the_greediest)
{
	size_t	 live[] = { 2, 6, 1, 6 };

	cr_assert_eq(fair_victim(live, 4), 1, "the most, its oldest");
	live[1] = 1;
	cr_assert_eq(fair_victim(live, 4), 3);
}

Test(fair, counts_of_a_list)
{
	struct fair_inst	 fi[] = {
		{ 1000, 1, FAIR_LIVE },
		{ 1000, 1, FAIR_ENDING },
		{ 1001, 1, FAIR_LIVE },
		{ 0, 0, FAIR_LIVE },
		{ 1002, 1, FAIR_WAITING },
		{ 1000, 1, FAIR_WAITING },
		{ 1003, 1, FAIR_ENDING },
	};
	struct fair_counts	 c;

	fair_count(fi, 7, 1000, 1, &c);
	cr_assert_eq(c.live, 3);
	cr_assert_eq(c.plain, 2, "root's is not plain");
	cr_assert_eq(c.mine, 1);
	cr_assert_eq(c.mine_all, 2, "its ending one still holds a slot");
	cr_assert_eq(c.all, 5);
	cr_assert_eq(c.waiting, 2);
	cr_assert_eq(c.mine_waiting, 1);
	cr_assert_eq(c.callers, 3, "1000, 1001, 1002: an ended one is none");
	fair_count(fi, 7, 1004, 1, &c);
	cr_assert_eq(c.callers, 4, "a new plain caller counts itself");
	fair_count(fi, 7, 0, 0, &c);
	cr_assert_eq(c.callers, 3, "root is no plain caller");
	cr_assert_eq(fair_live_of(fi, 7, 1000), 1);
	cr_assert_eq(fair_live_of(fi, 7, 1003), 0);
}

Test(fair, a_caller_over_its_share_yields)
{
	struct fair_inst	 fi[] = {
		{ 1000, 1, FAIR_LIVE }, { 1000, 1, FAIR_LIVE },
		{ 1000, 1, FAIR_LIVE }, { 1000, 1, FAIR_LIVE },
		{ 1000, 1, FAIR_LIVE }, { 1000, 1, FAIR_ENDING },
		{ 1001, 1, FAIR_LIVE }, { 1001, 1, FAIR_LIVE },
		{ 1001, 1, FAIR_LIVE }, { 1001, 1, FAIR_LIVE },
		{ 1002, 1, FAIR_WAITING }, { 0, 0, FAIR_LIVE },
	};

	/* Three callers: 4 each.  1000 holds 5, 1001 its 4. */
	cr_assert(fair_yields(fi, 12, 0, POOL, CAP), "over its share");
	cr_assert_not(fair_yields(fi, 12, 5, POOL, CAP), "an ended one");
	cr_assert_not(fair_yields(fi, 12, 6, POOL, CAP), "at its share");
	cr_assert_not(fair_yields(fi, 12, 10, POOL, CAP), "a wait");
	cr_assert_not(fair_yields(fi, 12, 11, POOL, CAP), "root's");
	cr_assert_not(fair_yields(fi, 12, 12, POOL, CAP), "out of the list");
}
