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
 * The relay's restart lines as spaced-journal takes them from a space's
 * stderr: only the exact shape after the engine's time is a restart;
 * each is kept once by that time, at most one a second, and the store's
 * count and cursor survive a reopen and a crash before the tip.
 */

#include <sys/types.h>

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatekeeper/spaced-journal/journal_parse.h"
#include "gatekeeper/spaced-journal/restart_parse.h"
#include "gatekeeper/spaced-journal/journal_worker.h"
#include "gatekeeper/spaced-journal/store.h"

#define BASE	"0123abcd-0-aabbccddeeff"
#define T0	"2026-12-06T10:11:02.123456789Z "
#define LINE1	T0 "spaced-relay: restart 1 hostile-server signal 9 backoff 1"

static const uint8_t	 key[CHAIN_KEY_LEN] = { 9 };
static const struct store_limits big = {
	.sl_segment = 1 << 30, .sl_space = (off_t)1 << 32,
	.sl_all = (off_t)1 << 40, .sl_batch = 4096,
};

static void
in_tmpdir(void)
{
	char	 dir[] = "/tmp/spaced-restart-test.XXXXXX";

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
}

static int
parse(const char *line, struct restart_rec *rr)
{
	const char	*errstr;

	return restart_line_parse(line, strlen(line), rr, &errstr);
}

Test(restart_parse, the_relays_line_after_the_engines_time)
{
	struct restart_rec	 rr;
	struct journal_entry	 je;
	const char		*errstr;

	cr_assert_eq(parse(LINE1, &rr), 0);
	cr_assert_str_eq(rr.rr_at, "2026-12-06T10:11:02.123Z");
	cr_assert_str_eq(rr.rr_what, "hostile-server");
	cr_assert_str_eq(rr.rr_how, "signal");
	cr_assert(rr.rr_n == 1 && rr.rr_code == 9 && rr.rr_backoff == 1);
	cr_assert_eq(rr.rr_ms, 1796551862123LL);
	restart_entry(&rr, &je);
	cr_assert_eq(journal_entry_valid(&je, &errstr), 0);
	cr_assert_str_eq(je.je_listener, "server");
	cr_assert_str_eq(je.je_host, "hostile-server");
	cr_assert_str_eq(je.je_decision, "restart 1 signal 9 backoff 1");
	cr_assert_eq(parse(T0 "spaced-relay: restart 3 opencode fork 11 "
	    "backoff 30", &rr), 0);
	cr_assert_str_eq(rr.rr_how, "fork");
}

Test(restart_parse, anything_but_the_exact_shape_is_no_restart)
{
	static const char *const bad[] = {
		"spaced-relay: restart 1 x signal 9 backoff 1",
		"2026-12-06T10:11:02Z spaced-relay: restart 1 x signal 9 backoff 1",
		"2026-12-06T10:11:02.123456789+01:00 spaced-relay: restart 1 x signal 9 backoff 1",
		"2026-13-06T10:11:02.123456789Z spaced-relay: restart 1 x signal 9 backoff 1",
		T0 "spaced-relay: restart 0 x signal 9 backoff 1",
		T0 "spaced-relay: restart 01 x signal 9 backoff 1",
		T0 "spaced-relay: restart 1 x signal 9 backoff 1 ",
		T0 "spaced-relay: restart 1 x signal 9 backoff",
		T0 "spaced-relay: restart 1 x exit 1 backoff 1",
		T0 "spaced-relay: restart 1 x/y signal 9 backoff 1",
		T0 "spaced-relay: restart 1  signal 9 backoff 1",
		T0 "spaced-relay: restart 1 x signal 1234567890 backoff 1",
		T0 "spaced-relay: restart 1 "
		    "abcdefghijklmnopqrstuvwxyzabcdefg signal 9 backoff 1",
		T0 "spaced-relay: server ended (137), restart 1 in 1 s",
		T0 "{\"event\":\"server_restart\",\"restarts\":1}",
		NULL
	};
	struct restart_rec	 rr;
	size_t			 i;

	for (i = 0; bad[i] != NULL; i++)
		cr_assert_eq(parse(bad[i], &rr), -1, "%s", bad[i]);
	/* A NUL inside is no line of the relay's either. */
	cr_assert_eq(restart_line_parse(LINE1 "\0", sizeof(LINE1), &rr,
	    &(const char *){ NULL }), -1);
}

static int
keep(struct store *st, const char *line, struct journal_restart *jt)
{
	return restart_keep(st, line, strlen(line), jt);
}

Test(restart_keep, once_by_the_engines_time_and_one_a_second_at_most,
    .init = in_tmpdir)
{
	struct store		 st;
	struct journal_restart	 jt;

	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_NEW);
	cr_assert(jt.jt_new == 1 && jt.jt_total == 1);
	cr_assert_str_eq(jt.jt_detail,
	    "hostile-server restart 1 signal 9 backoff 1");
	/* The next collection overlaps: the same line is not new. */
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_KEPT_BEFORE);
	/* A flood of lines within the second counts for nothing. */
	cr_assert_eq(keep(&st, "2026-12-06T10:11:02.999999999Z spaced-relay: "
	    "restart 2 x signal 9 backoff 1", &jt), RESTART_TOO_SOON);
	cr_assert_eq(keep(&st, "2026-12-06T10:11:03.123000000Z spaced-relay: "
	    "restart 2 x signal 9 backoff 2", &jt), RESTART_NEW);
	cr_assert_eq(jt.jt_total, 2);
	cr_assert_eq(keep(&st, T0 "hello from the agent", &jt),
	    RESTART_NOT_ONE);
	cr_assert_eq(st.st_restarts, 2);
	cr_assert_eq(store_commit(&st), 0);
	store_close(&st);

	/* Reopened: the cursor and the count come from the tip. */
	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	cr_assert_eq(st.st_restarts, 2);
	cr_assert_str_eq(st.st_rat, "2026-12-06T10:11:03.123Z");
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_KEPT_BEFORE);
	store_close(&st);
}

Test(restart_keep, a_crash_before_the_tip_loses_neither_cursor_nor_count,
    .init = in_tmpdir)
{
	struct store		 st;
	struct journal_restart	 jt;
	struct journal_verdict	 jv;
	char			 tip[256];
	FILE			*fp;

	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_NEW);
	cr_assert_eq(store_commit(&st), 0);
	snprintf(tip, sizeof(tip), ".%s.tip", BASE);
	cr_assert_not_null(fp = fopen(tip, "r"));
	cr_assert_not_null(fgets(tip, sizeof(tip), fp));
	fclose(fp);
	/* The second restart is written, the tip left as it was. */
	cr_assert_eq(keep(&st, "2026-12-06T10:11:09.000000000Z spaced-relay: "
	    "restart 2 x signal 9 backoff 2", &jt), RESTART_NEW);
	cr_assert_eq(store_commit(&st), 0);
	store_close(&st);
	snprintf(tip + 200, 56, ".%s.tip", BASE);
	cr_assert_not_null(fp = fopen(tip + 200, "w"));
	fputs(tip, fp);
	fclose(fp);

	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	cr_assert_eq(st.st_restarts, 2);
	cr_assert_str_eq(st.st_rat, "2026-12-06T10:11:09.000Z");
	store_close(&st);
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
}

/*
 * spaced hears of a restart (its event, show's count) only once the
 * record is on disk: a store whose write fails tells of nothing and
 * counts nothing, and a reopen finds the count that was told.
 */
Test(restart_keep, a_store_that_cannot_write_counts_nothing,
    .init = in_tmpdir)
{
	struct store		 st;
	struct journal_restart	 jt;
	int			 ro;

	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_NEW);
	cr_assert_eq(jt.jt_total, 1);
	/* The control: the store wrote, its file is open for the next. */
	cr_assert_eq(store_commit(&st), 0);
	cr_assert_neq(st.st_fd, -1);
	cr_assert_neq(ro = open("/dev/null", O_RDONLY | O_CLOEXEC), -1);
	cr_assert_eq(dup2(ro, st.st_fd), st.st_fd);
	close(ro);
	memset(&jt, 0, sizeof(jt));
	cr_assert_eq(keep(&st, "2026-12-06T10:11:09.000000000Z spaced-relay: "
	    "restart 2 x signal 9 backoff 2", &jt), RESTART_NOT_KEPT);
	cr_assert_eq(jt.jt_new, 0);
	cr_assert_eq(st.st_restarts, 1);
	cr_assert_str_eq(st.st_rat, "2026-12-06T10:11:02.123Z");
	store_close(&st);

	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	cr_assert_eq(st.st_restarts, 1);
	store_close(&st);
}

/* The tip of BASE rewritten as "seq mac RAT COUNT". */
static void
tip_set(const char *rat, const char *count)
{
	char	 path[64], line[256], seq[32], mac[160];
	FILE	*fp;

	snprintf(path, sizeof(path), ".%s.tip", BASE);
	cr_assert_not_null(fp = fopen(path, "r"));
	cr_assert_not_null(fgets(line, sizeof(line), fp));
	fclose(fp);
	cr_assert_eq(sscanf(line, "%31s %159s", seq, mac), 2);
	cr_assert_not_null(fp = fopen(path, "w"));
	fprintf(fp, "%s %s %s %s\n", seq, mac, rat, count);
	fclose(fp);
}

/*
 * --verify holds the tip's restart count and cursor against the
 * restart records of the chain (each a chain record, MAC'd like any).
 */
Test(restart_keep, verify_holds_the_tips_count_against_the_records,
    .init = in_tmpdir)
{
	struct store		 st;
	struct journal_restart	 jt;
	struct journal_verdict	 jv;

	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_NEW);
	cr_assert_eq(keep(&st, "2026-12-06T10:11:09.000000000Z spaced-relay: "
	    "restart 2 x signal 9 backoff 2", &jt), RESTART_NEW);
	store_close(&st);
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);

	tip_set("2026-12-06T10:11:09.000Z", "3");
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, -1);
	cr_assert_str_eq(jv.jv_reason, "the tip counts 3 restarts, the "
	    "records 2");
	tip_set("2026-12-06T10:11:02.123Z", "2");
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, -1);
	cr_assert_not_null(strstr(jv.jv_reason, "last restart"));
	/* Put back, it holds again: the control. */
	tip_set("2026-12-06T10:11:09.000Z", "2");
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
}

/*
 * A buffer full at the restart commits inside store_add: the tip that
 * commit writes already counts the restart, so the file and memory
 * agree and a reopen does not keep the same line twice.
 */
Test(restart_keep, a_batch_full_at_the_restart_still_counts_it_in_the_tip,
    .init = in_tmpdir)
{
	struct store_limits	 tiny = big;
	struct store		 st;
	struct journal_restart	 jt;
	struct journal_verdict	 jv;

	tiny.sl_batch = 1;
	cr_assert_eq(store_open(&st, BASE, key, &tiny), 0);
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_NEW);
	cr_assert_eq(jt.jt_total, 1);
	cr_assert_eq(store_commit(&st), 0);
	store_close(&st);
	store_verify(BASE, key, &jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);

	cr_assert_eq(store_open(&st, BASE, key, &tiny), 0);
	cr_assert_eq(st.st_restarts, 1);
	cr_assert_eq(keep(&st, LINE1, &jt), RESTART_KEPT_BEFORE);
	store_close(&st);
}
