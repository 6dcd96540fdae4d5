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
 * The journal store against a root hand: a record edited, removed,
 * moved or added in the files is named by --verify, the untouched
 * store passes, across rotations and the space's cap; a crash at any
 * point of a write loses at most the record being written.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gatekeeper/spaced-journal/chain.h"
#include "gatekeeper/spaced-journal/store.h"

#define BASE	"0123abcd-0-aabbccddeeff"
#define CUR	BASE ".journal"

static const uint8_t	 key[CHAIN_KEY_LEN] = { 7, 7, 7 };
static const struct store_limits big = {
	.sl_segment = 1 << 30, .sl_space = (off_t)1 << 32,
	.sl_all = (off_t)1 << 40, .sl_batch = 4096,
};

/* Each test in a store of its own (Criterion forks a process a test). */
static void
in_tmpdir(void)
{
	char	 dir[] = "/tmp/spaced-store-test.XXXXXX";

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
}

static void
entry(struct journal_entry *je, unsigned i)
{
	memset(je, 0, sizeof(*je));
	strlcpy(je->je_at, "2026-12-06T04:00:00.000Z", sizeof(je->je_at));
	strlcpy(je->je_listener, "corridor", sizeof(je->je_listener));
	snprintf(je->je_host, sizeof(je->je_host), "host-%u.example", i);
	je->je_port = 443;
	strlcpy(je->je_decision, i % 3 ? "deny:not-on-allowlist" : "allow",
	    sizeof(je->je_decision));
	je->je_count = 1;
}

static void
fill(unsigned n, const struct store_limits *lim)
{
	struct store		 st;
	struct journal_entry	 je;
	unsigned		 i;

	cr_assert_eq(store_open(&st, BASE, key, lim), 0);
	for (i = 0; i < n; i++) {
		entry(&je, i);
		cr_assert_eq(store_add(&st, &je, 1000, i), 0, "record %u", i);
	}
	cr_assert_eq(store_commit(&st), 0);
	store_close(&st);
}

static void
verify(struct journal_verdict *jv)
{
	store_verify(BASE, key, jv);
}

/* The file's lines, to edit by hand. */
static char **
lines(const char *path, size_t *n)
{
	static char	 arena[1024][CHAIN_LINE_MAX + 2], *l[1024];
	FILE		*fp;

	cr_assert_not_null(fp = fopen(path, "r"));
	for (*n = 0; *n < 1023 && fgets(arena[*n], sizeof(arena[*n]), fp) !=
	    NULL; (*n)++)
		l[*n] = arena[*n];
	fclose(fp);
	return l;
}

static void
rewrite(const char *path, char **l, size_t n)
{
	FILE	*fp;
	size_t	 i;

	cr_assert_not_null(fp = fopen(path, "w"));
	for (i = 0; i < n; i++)
		fputs(l[i], fp);
	fclose(fp);
}

/* --verify names seq, with a reason that holds why. */
static void
broken_why(uint64_t seq, const char *what, const char *why)
{
	struct journal_verdict	 jv;

	verify(&jv);
	cr_assert_eq(jv.jv_status, -1, "%s: not found", what);
	cr_assert_eq(jv.jv_seq, seq, "%s: named %llu (%s), not %llu", what,
	    (unsigned long long)jv.jv_seq, jv.jv_reason,
	    (unsigned long long)seq);
	cr_assert(why == NULL || strstr(jv.jv_reason, why) != NULL,
	    "%s: \"%s\" does not say \"%s\"", what, jv.jv_reason, why);
}

static void
broken_at(uint64_t seq, const char *what)
{
	broken_why(seq, what, NULL);
}

/* A store line longer than any record (a root hand's) is not one; a
 * check that ends spaced-journal instead was found by journal_fuzz. */
Test(chain, a_line_longer_than_any_record_is_no_record)
{
	static char	 line[CHAIN_LINE_MAX + 2 * CHAIN_MAC_LEN + 8];
	uint8_t		 prev[CHAIN_MAC_LEN] = { 1 };
	size_t		 n = sizeof(line) - 1;

	memset(line, 'a', n);
	line[n - 2 * CHAIN_MAC_LEN - 1] = '\t';
	cr_assert_eq(chain_check(key, prev, line, n), 0);
}

Test(chain, mac_binds_every_field_and_the_one_before)
{
	struct chain_rec	 cr, back;
	const char		*errstr;
	char			 line[CHAIN_LINE_MAX + 1], edit[CHAIN_LINE_MAX + 1];
	uint8_t			 prev[CHAIN_MAC_LEN] = { 1 }, other[CHAIN_MAC_LEN];
	size_t			 i, n;

	memset(&cr, 0, sizeof(cr));
	entry(&cr.cr_entry, 5);
	cr.cr_entry.je_seq = 5;
	cr.cr_boot = 1764993600000;
	cr.cr_gkseq = 9;
	cr_assert_eq(chain_fmt(key, prev, &cr, line, sizeof(line)), 0);
	n = strlen(line);
	cr_assert_eq(chain_scan(line, n, &back, &errstr), 0);
	cr_assert_eq(memcmp(&cr, &back, sizeof(cr)), 0);
	cr_assert_eq(chain_check(key, prev, line, n), 1);
	memcpy(other, prev, sizeof(other));
	other[31] ^= 0x80;
	cr_assert_eq(chain_check(key, other, line, n), 0);
	memcpy(other, key, sizeof(other));
	other[0] ^= 1;
	cr_assert_eq(chain_check(other, prev, line, n), 0);
	/* any byte of the body changed (to a digit: it still scans) */
	for (i = 0; i < n - 2 * CHAIN_MAC_LEN - 1; i++) {
		memcpy(edit, line, n + 1);
		edit[i] = edit[i] == '1' ? '2' : '1';
		cr_expect_eq(chain_check(key, prev, edit, n), 0, "byte %zu", i);
	}
}

Test(chain, store_lines_refused)
{
	struct chain_rec	 cr;
	const char		*errstr;
	static const char	*bad[] = {
		"",
		"0\t2026-12-06T04:00:00.000Z\tcorridor\th\t443\tallow\t1\t0\t0",
		"00\t2026-12-06T04:00:00.000Z\tcorridor\th\t443\tallow\t1\t0\t0\t"
		    "0000000000000000000000000000000000000000000000000000000000000000",
		"0\t2026-12-06T04:00:00.000Z\tcorridor\th\t443\tallow\t0\t0\t0\t"
		    "0000000000000000000000000000000000000000000000000000000000000000",
		"0\t2026-12-06T04:00:00.000Z\tcontrol\th\t443\tallow\t1\t0\t0\t"
		    "0000000000000000000000000000000000000000000000000000000000000000",
		"0\t2026-12-06T04:00:00.000Z\tcorridor\th\t65536\tallow\t1\t0\t0\t"
		    "0000000000000000000000000000000000000000000000000000000000000000",
		"0\t2026-12-06T04:00:00.000Z\tcorridor\th\t443\tallow\t1\t0\t0\t"
		    "000000000000000000000000000000000000000000000000000000000000000G",
		"0\t2026-12-06T04:00:00.000Z\tcorridor\th\t443\tallow\t1\t0\t0\t"
		    "00000000000000000000000000000000000000000000000000000000000000",
		"18446744073709551616\t2026-12-06T04:00:00.000Z\tcorridor\th\t443"
		    "\tallow\t1\t0\t0\t"
		    "0000000000000000000000000000000000000000000000000000000000000000",
	};
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(chain_scan(bad[i], strlen(bad[i]), &cr, &errstr),
		    -1, "line %zu", i);
}

Test(store, untouched_passes)
{
	struct journal_verdict	 jv;

	in_tmpdir();
	fill(50, &big);
	fill(25, &big);		/* opened again: the chain goes on */
	verify(&jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
	cr_assert_eq(jv.jv_records, 75);
	cr_assert_eq(jv.jv_first, 0);
}

Test(store, an_edited_record_is_named)
{
	char	**l;
	size_t	 n;
	char	*h;

	in_tmpdir();
	fill(50, &big);
	l = lines(CUR, &n);
	cr_assert_not_null(h = strstr(l[17], "host-17"));
	h[5] = '9';
	rewrite(CUR, l, n);
	broken_at(17, "edited");
}

Test(store, an_edited_decision_with_a_new_mac_of_its_own_is_named)
{
	char	**l;
	size_t	 n;
	char	*d;

	in_tmpdir();
	fill(50, &big);
	l = lines(CUR, &n);
	/* allow for a deny, and a MAC made up: still not the key's */
	cr_assert_not_null(d = strstr(l[20], "deny:not-on-allowlist"));
	memcpy(d, "allow", 5);
	memmove(d + 5, d + strlen("deny:not-on-allowlist"),
	    strlen(d + strlen("deny:not-on-allowlist")) + 1);
	rewrite(CUR, l, n);
	broken_at(20, "edited decision");
}

Test(store, a_removed_record_is_named)
{
	char	**l;
	size_t	 n;

	in_tmpdir();
	fill(50, &big);
	l = lines(CUR, &n);
	memmove(&l[30], &l[31], (n - 31) * sizeof(*l));
	rewrite(CUR, l, n - 1);
	broken_why(31, "removed", "stands where record 30 should");
}

Test(store, reordered_records_are_named)
{
	char	**l, *t;
	size_t	 n;

	in_tmpdir();
	fill(50, &big);
	l = lines(CUR, &n);
	t = l[10];
	l[10] = l[11];
	l[11] = t;
	rewrite(CUR, l, n);
	broken_why(11, "reordered", "stands where record 10 should");
}

Test(store, a_record_appended_by_hand_is_named)
{
	struct chain_rec	 cr;
	const char		*errstr;
	char			 **l, line[CHAIN_LINE_MAX + 2];
	uint8_t			 fake[CHAIN_MAC_LEN] = { 0 };
	size_t			 n;

	in_tmpdir();
	fill(50, &big);
	l = lines(CUR, &n);
	/* the next seq, a MAC under another key */
	memset(&cr, 0, sizeof(cr));
	entry(&cr.cr_entry, 50);
	cr.cr_entry.je_seq = 50;
	cr_assert_eq(chain_fmt(fake, fake, &cr, line, sizeof(line) - 1), 0);
	strcat(line, "\n");
	l[n] = line;
	rewrite(CUR, l, n + 1);
	broken_at(50, "appended");
	/* a copy of a real line */
	l[n] = l[n - 1];
	rewrite(CUR, l, n + 1);
	broken_at(49, "appended copy");
	(void)errstr;
}

Test(store, the_last_record_removed_is_named_by_the_tip)
{
	char	**l;
	size_t	 n;

	in_tmpdir();
	fill(50, &big);
	l = lines(CUR, &n);
	rewrite(CUR, l, n - 1);
	broken_why(49, "last removed", "missing");
	/* and nothing more is kept that would hide it */
	{
		struct store	 st;

		cr_assert_eq(store_open(&st, BASE, key, &big), -1);
		cr_assert_not_null(st.st_broken);
		store_close(&st);
	}
}

/*
 * A dropped record (MAC'd: made with the key, by store_rotate or a
 * hand that has it) says the first record still kept, in the digits
 * store_rotate writes.  One whose number is anything else was read as
 * 0 by strtoull, so a store that starts at 0 passed with it, and the
 * drop loosened the tip's restart check; now it is named.
 */
static void
fill_dropped(const char *kept)
{
	struct store		 st;
	struct journal_entry	 je;
	unsigned		 i;

	in_tmpdir();
	cr_assert_eq(store_open(&st, BASE, key, &big), 0);
	for (i = 0; i < 5; i++) {
		entry(&je, i);
		if (i == 3) {
			strlcpy(je.je_listener, "journal",
			    sizeof(je.je_listener));
			strlcpy(je.je_decision, CHAIN_DROPPED,
			    sizeof(je.je_decision));
			strlcpy(je.je_host, kept, sizeof(je.je_host));
			je.je_port = 0;
		}
		cr_assert_eq(store_add(&st, &je, 1000, i), 0, "record %u", i);
	}
	cr_assert_eq(store_commit(&st), 0);
	store_close(&st);
}

Test(store, a_dropped_record_whose_first_kept_is_no_number_is_named)
{
	static const char *const bad[] = {
		"x", "+0", "-0", " 0", "0 ", "00", "0x0", "0abc",
		"000000000000000000000", "18446744073709551616",
	};
	struct journal_verdict	 jv;
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fill_dropped(bad[i]);
		broken_why(3, bad[i], "no number");
	}
	/* The control: the number store_rotate writes, here 0. */
	fill_dropped("0");
	verify(&jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
	cr_assert_eq(jv.jv_records, 5);
}

Test(store, a_store_moved_to_another_space_is_named)
{
	struct journal_verdict	 jv;

	in_tmpdir();
	fill(5, &big);
	/* another space's name: its anchor is not this chain's */
	cr_assert_eq(rename(CUR, "0123abcd-0-000000000000.journal"), 0);
	cr_assert_eq(rename("." BASE ".tip", ".0123abcd-0-000000000000.tip"),
	    0);
	store_verify("0123abcd-0-000000000000", key, &jv);
	cr_assert_eq(jv.jv_status, -1);
	cr_assert_eq(jv.jv_seq, 0, "%s", jv.jv_reason);
}

Test(store, the_tip_removed_is_named)
{
	in_tmpdir();
	fill(5, &big);
	cr_assert_eq(unlink("." BASE ".tip"), 0);
	broken_at(5, "tip removed");
}

Test(store, rotation_keeps_the_chain)
{
	struct store_files	 sf;
	struct journal_verdict	 jv;
	struct store_limits	 small = big;
	char			**l;
	size_t			 n;
	char			*h;

	in_tmpdir();
	small.sl_segment = 2000;
	small.sl_batch = 100;
	fill(200, &small);
	cr_assert_eq(store_files(BASE, &sf), 0);
	cr_assert_gt(sf.sf_n, 5, "%zu files", sf.sf_n);
	verify(&jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
	cr_assert_eq(jv.jv_segments, sf.sf_n);
	cr_assert_gt(jv.jv_records, 200);	/* and the segment records */
	/* an edit in an old file */
	l = lines(sf.sf_names[2], &n);
	cr_assert_not_null(h = strstr(l[3], "host-"));
	h[0] = 'g';
	rewrite(sf.sf_names[2], l, n);
	verify(&jv);
	cr_assert_eq(jv.jv_status, -1);
	cr_assert(strstr(jv.jv_reason, "MAC") != NULL, "%s", jv.jv_reason);
	store_files_free(&sf);
}

Test(store, the_space_cap_drops_the_oldest_and_says_so)
{
	struct store_files	 sf;
	struct journal_verdict	 jv;
	struct store_limits	 small = big;
	struct stat		 sb;
	off_t			 total = 0;
	size_t			 i;

	in_tmpdir();
	small.sl_segment = 2000;
	small.sl_space = 8000;
	small.sl_batch = 100;
	fill(300, &small);
	cr_assert_eq(store_files(BASE, &sf), 0);
	for (i = 0; i < sf.sf_n; i++) {
		cr_assert_eq(stat(sf.sf_names[i], &sb), 0);
		total += sb.st_size;
	}
	cr_assert_leq(total, small.sl_space + small.sl_segment + 1000);
	verify(&jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
	cr_assert_gt(jv.jv_first, 0);
	/* the oldest file kept, removed by hand */
	cr_assert_eq(unlink(sf.sf_names[0]), 0);
	verify(&jv);
	cr_assert_eq(jv.jv_status, -1);
	cr_assert(strstr(jv.jv_reason, "missing") != NULL, "%s",
	    jv.jv_reason);
	store_files_free(&sf);
}

Test(store, a_cut_last_line_is_removed_and_the_chain_goes_on)
{
	struct journal_verdict	 jv;
	char			**l;
	size_t			 n;
	FILE			*fp;

	in_tmpdir();
	fill(20, &big);
	/* a crash mid-write: half a line after the tip's record */
	l = lines(CUR, &n);
	cr_assert_not_null(fp = fopen(CUR, "a"));
	fwrite(l[n - 1], 1, 30, fp);
	fclose(fp);
	verify(&jv);
	cr_assert_eq(jv.jv_status, -1, "a cut line is named until repaired");
	fill(5, &big);
	verify(&jv);
	cr_assert_eq(jv.jv_status, 0, "%s", jv.jv_reason);
	cr_assert_eq(jv.jv_records, 25);
}

Test(store, a_cut_record_the_tip_names_is_never_hidden)
{
	struct journal_verdict	 jv;
	struct store		 st;
	struct stat		 sb;

	in_tmpdir();
	fill(20, &big);
	cr_assert_eq(stat(CUR, &sb), 0);
	cr_assert_eq(truncate(CUR, sb.st_size - 30), 0);
	/* not a crash (the tip moves after the fsync): a hand */
	cr_assert_eq(store_open(&st, BASE, key, &big), -1);
	store_close(&st);
	verify(&jv);
	cr_assert_eq(jv.jv_status, -1);
}

/* One record a write, acked on a pipe after its commit. */
static void
writer(int ack)
{
	struct store		 st;
	struct journal_entry	 je;
	uint64_t		 seq;
	unsigned		 i;

	if (store_open(&st, BASE, key, &big) == -1)
		_exit(2);
	for (i = 0;; i++) {
		entry(&je, i);
		if (store_add(&st, &je, 1000, st.st_next) == -1 ||
		    store_commit(&st) == -1)
			_exit(3);
		seq = je.je_seq;
		if (write(ack, &seq, sizeof(seq)) != sizeof(seq))
			_exit(4);
	}
}

Test(store, killed_mid_write_200_times_loses_at_most_that_record,
    .timeout = 300)
{
	struct journal_verdict	 jv;
	struct store		 st;
	uint64_t		 seq, acked = 0;
	int			 p[2], round, have = 0, status;
	pid_t			 pid;
	ssize_t			 n;

	in_tmpdir();
	srandom(getpid());
	for (round = 0; round < 200; round++) {
		cr_assert_eq(pipe(p), 0);
		if ((pid = fork()) == 0) {
			close(p[0]);
			writer(p[1]);
		}
		close(p[1]);
		/* a few records in, then a kill anywhere in a write */
		cr_assert_eq(read(p[0], &seq, sizeof(seq)), sizeof(seq));
		usleep(random() % 3000);
		kill(pid, SIGKILL);
		cr_assert_eq(waitpid(pid, &status, 0), pid);
		cr_assert(WIFSIGNALED(status), "round %d: the writer "
		    "stopped on its own (%d)", round, status);
		while ((n = read(p[0], &seq, sizeof(seq))) == sizeof(seq))
			;
		close(p[0]);
		acked = seq;
		have = 1;
		/* opened again: the cut line goes, the rest holds */
		cr_assert_eq(store_open(&st, BASE, key, &big), 0,
		    "round %d: %s", round, st.st_broken);
		cr_assert_geq(st.st_next, acked + 1, "round %d: acked %llu "
		    "lost", round, (unsigned long long)acked);
		cr_assert_leq(st.st_next, acked + 2, "round %d", round);
		store_close(&st);
		verify(&jv);
		cr_assert_eq(jv.jv_status, 0, "round %d: %s", round,
		    jv.jv_reason);
	}
	cr_assert(have);
}
