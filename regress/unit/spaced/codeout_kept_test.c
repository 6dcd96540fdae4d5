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
 * Code out's kept reviews (codeout_kept.c): one user's reviews make
 * room among that user's own, never by pushing out another's.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "supervisor/spaced/spaced.h"

/* codeout_hold's question; no request is live here. */
struct request *
request_find(uint32_t id)
{
	return NULL;
}

static void
keep(uid_t uid, int n)
{
	struct codeout_kept	 k;

	memset(&k, 0, sizeof(k));
	k.ck_uid = uid;
	snprintf(k.ck_id, sizeof(k.ck_id), "%012x", (unsigned)n);
	strlcpy(k.ck_dir, "/r", sizeof(k.ck_dir));
	codeout_kept_set(&k);
}

static int
kept_of(uid_t uid, int n)
{
	struct codeout_kept	 k;
	char			 id[SPACE_ID_SIZE];

	snprintf(id, sizeof(id), "%012x", (unsigned)n);
	return codeout_kept_find(uid, id, "/r", "", "", &k) == 0;
}

static void
forget_all(void)
{
	int	 n;

	for (n = 0; n < 200; n++) {
		char	 id[SPACE_ID_SIZE];

		snprintf(id, sizeof(id), "%012x", (unsigned)n);
		codeout_kept_forget(1000, id);
		codeout_kept_forget(2000, id);
		codeout_kept_forget(3000, id);
	}
}

Test(codeout_kept, another_users_reviews_do_not_evict)
{
	int	 n;

	forget_all();
	keep(1000, 1);
	/* The table full, then one more of the other user's: 40 in all. */
	for (n = 100; n < 140; n++)
		keep(2000, n);
	cr_assert(kept_of(1000, 1), "uid 1000's review was pushed out");
	cr_assert(kept_of(2000, 139), "the newest review is kept");
	cr_assert(!kept_of(2000, 100), "uid 2000's oldest made room");
}

Test(codeout_kept, a_user_with_none_takes_the_oldest)
{
	int	 n;

	forget_all();
	for (n = 100; n < 132; n++)
		keep(2000, n);
	keep(3000, 1);
	cr_assert(kept_of(3000, 1));
	cr_assert(!kept_of(2000, 100), "the oldest of all made room");
	cr_assert(kept_of(2000, 131));
}

Test(codeout_kept, forget_is_the_users_own)
{
	forget_all();
	keep(1000, 7);
	codeout_kept_forget(2000, "000000000007");
	cr_assert(kept_of(1000, 7), "another uid's forget took it");
	codeout_kept_forget(1000, "000000000007");
	cr_assert(!kept_of(1000, 7));
}

Test(codeout_kept, one_slot_a_space)
{
	forget_all();
	keep(1000, 1);
	keep(1000, 2);
	codeout_kept_forget(1000, "000000000001");
	/* A free slot before the space's own: the space's is replaced. */
	keep(1000, 2);
	codeout_kept_forget(1000, "000000000002");
	cr_assert(!kept_of(1000, 2), "a second slot of the space stayed");
}

/*
 * Every slot full and the user has none: each review past that takes
 * the oldest of all, in order, never one just kept (reviews come many
 * a second, so the order is the one they were kept in, not a clock's).
 */
Test(codeout_kept, the_oldest_of_all_goes_in_order)
{
	int	 n;

	forget_all();
	for (n = 100; n < 132; n++)
		keep(2000, n);
	keep(3000, 1);
	keep(1000, 2);
	cr_assert(kept_of(3000, 1), "the review before went, not the oldest");
	cr_assert(kept_of(1000, 2));
	cr_assert(!kept_of(2000, 100) && !kept_of(2000, 101),
	    "the two oldest made room");
	for (n = 102; n < 132; n++)
		cr_assert(kept_of(2000, n), "%d went", n);
}

/* The same for a user's own: its oldest goes, not its newest. */
Test(codeout_kept, the_users_oldest_goes_in_order)
{
	int	 n;

	forget_all();
	keep(1000, 1);
	for (n = 100; n < 131; n++)
		keep(2000, n);
	keep(2000, 131);
	keep(2000, 132);
	cr_assert(kept_of(2000, 131), "the review before went");
	cr_assert(kept_of(2000, 132));
	cr_assert(!kept_of(2000, 100) && !kept_of(2000, 101));
	for (n = 102; n < 131; n++)
		cr_assert(kept_of(2000, n), "%d went", n);
	cr_assert(kept_of(1000, 1));
}

/*
 * A review is kept by the repository's top: apply from a subfolder of
 * it found no review (the DIR was the key) and took the space's later
 * work instead of the reviewed tip.
 */
Test(codeout_kept, the_key_is_the_repositorys_top)
{
	char	 top[64];

	codeout_kept_top("/r/pkg/src", "pkg/src", top, sizeof(top));
	cr_expect_str_eq(top, "/r");
	codeout_kept_top("/r", "", top, sizeof(top));
	cr_expect_str_eq(top, "/r");
	/* Only a whole trailing folder comes off. */
	codeout_kept_top("/r/xsrc", "src", top, sizeof(top));
	cr_expect_str_eq(top, "/r/xsrc");
	codeout_kept_top("src", "src", top, sizeof(top));
	cr_expect_str_eq(top, "src");
}
