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
 * The tip file against a torn write or a hand: a number that is not
 * one tip_write writes (a sign, a letter, a leading zero, past 2^64, an
 * empty field) makes the tip unreadable, never a chain position of 0
 * or 2^64-1 that open would "catch up" from or --verify would blame.
 */

#include <sys/types.h>

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatekeeper/spaced-journal/chain.h"
#include "gatekeeper/spaced-journal/store.h"

#define BASE	"0123abcd-0-aabbccddeeff"
#define TIP	"." BASE ".tip"

static const uint8_t	 key[CHAIN_KEY_LEN] = { 7, 7, 7 };
static const struct store_limits big = {
	.sl_segment = 1 << 30, .sl_space = (off_t)1 << 32,
	.sl_all = (off_t)1 << 40, .sl_batch = 4096,
};
static char	 mac[2 * CHAIN_MAC_LEN + 1];	/* the real tip's */

/* A store of five records in a folder of its own; its tip's MAC kept. */
static void
five(void)
{
	char			 dir[] = "/tmp/spaced-tip-test.XXXXXX";
	char			 line[STORE_TIP_MAX + 1];
	struct store		 st;
	struct journal_entry	 je;
	unsigned		 i;
	FILE			*fp;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	for (i = 0; i < 5; i++) {
		memset(&je, 0, sizeof(je));
		strlcpy(je.je_at, "2026-12-06T04:00:00.000Z",
		    sizeof(je.je_at));
		strlcpy(je.je_listener, "corridor", sizeof(je.je_listener));
		snprintf(je.je_host, sizeof(je.je_host), "h%u.example", i);
		je.je_port = 443;
		strlcpy(je.je_decision, "allow", sizeof(je.je_decision));
		je.je_count = 1;
		cr_assert_eq(store_add(&st, &je, 1000, i), 0);
	}
	cr_assert_eq(store_commit(&st), 0);
	store_close(&st);
	cr_assert_not_null(fp = fopen(TIP, "r"));
	cr_assert_not_null(fgets(line, sizeof(line), fp));
	fclose(fp);
	cr_assert_eq(sscanf(line, "4 %64s - 0\n", mac), 1, "%s", line);
}

static void
tip_put(const char *seq, const char *rest)
{
	FILE	*fp;

	cr_assert_not_null(fp = fopen(TIP, "w"));
	fprintf(fp, "%s %s%s\n", seq, mac, rest);
	fclose(fp);
}

Test(tip, a_number_tip_write_never_writes_makes_it_unreadable)
{
	static const char *const bad[] = {
		"", "x", "4x", "-1", "+4", " 4", "04", "00",
		"18446744073709551616",		/* 2^64 */
		"99999999999999999999999",	/* strtoull: 2^64-1 */
		"000000000000000000004",
	};
	struct store_tip	 tp;
	char			 rest[64];
	size_t			 i;

	five();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tip_put(bad[i], " - 0");
		cr_assert_eq(store_tip_read(BASE, &tp), -1, "seq \"%s\" read "
		    "as %llu", bad[i], (unsigned long long)tp.stp_seq);
		tip_put(bad[i], "");
		cr_assert_eq(store_tip_read(BASE, &tp), -1, "seq \"%s\"",
		    bad[i]);
		snprintf(rest, sizeof(rest), " - %s", bad[i]);
		tip_put("4", rest);
		cr_assert_eq(store_tip_read(BASE, &tp), -1, "restarts \"%s\" "
		    "read as %llu", bad[i],
		    (unsigned long long)tp.stp_restarts);
	}
	/* The control: the numbers tip_write writes, the largest too. */
	tip_put("4", " - 0");
	cr_assert_eq(store_tip_read(BASE, &tp), 1);
	cr_assert_eq(tp.stp_seq, 4);
	tip_put("18446744073709551615", " 2026-12-06T04:00:00.000Z "
	    "18446744073709551615");
	cr_assert_eq(store_tip_read(BASE, &tp), 1);
	cr_assert_eq(tp.stp_seq, UINT64_MAX);
	cr_assert_eq(tp.stp_restarts, UINT64_MAX);
	cr_assert_str_eq(tp.stp_rat, "2026-12-06T04:00:00.000Z");
	tip_put("0", "");
	cr_assert_eq(store_tip_read(BASE, &tp), 1);
	cr_assert_eq(tp.stp_seq, 0);
}

/*
 * A tip with no number read as 0 once: open caught the tip up (hiding
 * whatever it stood for) and --verify blamed record 1.  Now both say
 * the tip is unreadable, at the store's end.
 */
Test(tip, a_torn_tip_is_named_not_taken_as_record_0)
{
	struct store		 st;
	struct journal_verdict	 jv;

	five();
	tip_put("x", " - 0");
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, -1);
	cr_assert_eq(jv.jv_seq, 5, "named %llu: %s",
	    (unsigned long long)jv.jv_seq, jv.jv_reason);
	cr_assert(strstr(jv.jv_reason, "tip is unreadable") != NULL, "%s",
	    jv.jv_reason);
	cr_assert_eq(store_open(&st, BASE, key, &big), -1);
	cr_assert(strstr(st.st_broken, "tip is unreadable") != NULL, "%s",
	    st.st_broken);
	store_close(&st);
	/* The control: the real tip back, both are content. */
	tip_put("4", " - 0");
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	store_close(&st);
}

/* A file longer than any tip, a valid tip at its start, is none. */
Test(tip, a_tip_past_its_cap_is_unreadable)
{
	struct store_tip	 tp;
	char			 pad[STORE_TIP_MAX + 8];

	five();
	memset(pad, 'x', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	tip_put("4", " - 0\n");
	cr_assert_eq(store_tip_read(BASE, &tp), -1);
	{
		FILE	*fp;

		cr_assert_not_null(fp = fopen(TIP, "w"));
		fprintf(fp, "4 %s - 0\n%s\n", mac, pad);
		fclose(fp);
	}
	cr_assert_eq(store_tip_read(BASE, &tp), -1);
}
