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
 * spaced-journal's parsers: a gatekeeper's line is a record only when
 * it is exactly one, whatever hostile bytes it carries, and it says
 * where it stands (its run and number); lines come out of any pieces.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatekeeper/spaced-journal/journal_parse.h"

#define GOOD	"{\"boot\":1,\"seq\":0,\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\"," \
		"\"host\":\"registry.npmjs.org\",\"port\":443,\"decision\":\"allow\"}"

/* Each line with the cursor the gatekeeper adds, unless it has one. */
static int
parse(const char *line, struct journal_entry *je)
{
	struct journal_cursor	 cur;
	const char		*errstr;
	char			*full;
	int			 rv;

	if (line[0] != '{' || strstr(line, "\"boot\"") != NULL)
		return journal_line_parse(line, strlen(line), je, &cur,
		    &errstr);
	cr_assert(asprintf(&full, "{\"boot\":1,\"seq\":0,%s", line + 1) > 0);
	rv = journal_line_parse(full, strlen(full), je, &cur, &errstr);
	free(full);
	return rv;
}

Test(line, good)
{
	struct journal_entry	 je;

	cr_assert_eq(parse(GOOD, &je), 0);
	cr_assert_str_eq(je.je_at, "2026-12-03T19:19:20.569Z");
	cr_assert_str_eq(je.je_listener, "corridor");
	cr_assert_str_eq(je.je_host, "registry.npmjs.org");
	cr_assert_eq(je.je_port, 443);
	cr_assert_str_eq(je.je_decision, "allow");
}

Test(line, what_the_gatekeeper_writes)
{
	struct journal_entry	 je;

	/* window, a failed: decision, an empty host, port 0 */
	cr_assert_eq(parse("{\"at\":\"2026-01-31T00:00:00.000Z\","
	    "\"listener\":\"window\",\"host\":\"\",\"port\":0,"
	    "\"decision\":\"deny:unreadable-request\"}", &je), 0);
	cr_assert_eq(parse("{\"decision\":\"failed:ECONNREFUSED\",\"port\":"
	    "65535,\"host\":\"a b?c\",\"listener\":\"corridor\",\"at\":"
	    "\"2026-12-31T23:59:60.999Z\"}", &je), 0);
	cr_assert_str_eq(je.je_decision, "failed:ECONNREFUSED");
}

static const char *const hostile[] = {
	"",
	"not json",
	"{",
	"[]",
	"\"a string\"",
	"null",
	"{}",
	/* duplicate keys */
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"at\":\"2026-12-03T19:19:20.569Z\","
	"\"listener\":\"corridor\",\"host\":\"h\",\"port\":443,\"decision\":\"allow\"}",
	/* a sixth field */
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"allow\",\"path\":\"/x\"}",
	/* a field missing */
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443}",
	/* huge numbers, negative, real, string ports */
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":99999999999999999999999999,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":65536,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":-1,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443.0,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":\"443\",\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":1e308,\"decision\":\"allow\"}",
	/* control characters, NUL, a tab or newline that would split a store line */
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\\u0001\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\\u0000x\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\\tx\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"allow\\nx\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\\u00e9\",\"port\":443,\"decision\":\"allow\"}",
	/* wrong listener, bad times, empty decision */
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"control\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-13-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03 19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T24:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":\"h\",\"port\":443,\"decision\":\"\"}",
	/* wrong types */
	"{\"at\":1,\"listener\":\"corridor\",\"host\":\"h\",\"port\":443,"
	"\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":[\"h\"],\"port\":443,\"decision\":\"allow\"}",
	"{\"at\":\"2026-12-03T19:19:20.569Z\",\"listener\":\"corridor\","
	"\"host\":null,\"port\":443,\"decision\":\"allow\"}",
	/* trailing garbage */
	GOOD "x",
	GOOD GOOD,
	NULL
};

Test(line, hostile_lines_are_no_record)
{
	struct journal_entry	 je;
	size_t			 i;

	for (i = 0; hostile[i] != NULL; i++) {
		memset(&je, 0x55, sizeof(je));
		cr_expect_eq(parse(hostile[i], &je), -1, "line %zu: %s", i,
		    hostile[i]);
		/* nothing half-filled is left behind */
		cr_expect_eq(je.je_at[0], '\0', "line %zu", i);
	}
}

/* A field one byte over its cap is refused; at the cap it is taken. */
Test(line, caps)
{
	struct journal_entry	 je;
	char			 line[JOURNAL_LINE_MAX * 2], host[400],
				 dec[100];

	memset(host, 'a', sizeof(host));
	memset(dec, 'd', sizeof(dec));
	snprintf(line, sizeof(line), "{\"at\":\"2026-12-03T19:19:20.569Z\","
	    "\"listener\":\"corridor\",\"host\":\"%.*s\",\"port\":443,"
	    "\"decision\":\"%.*s\"}", JOURNAL_HOST_MAX, host,
	    JOURNAL_DECISION_MAX, dec);
	cr_assert_eq(parse(line, &je), 0);
	cr_assert_eq(strlen(je.je_host), JOURNAL_HOST_MAX);
	snprintf(line, sizeof(line), "{\"at\":\"2026-12-03T19:19:20.569Z\","
	    "\"listener\":\"corridor\",\"host\":\"%.*s\",\"port\":443,"
	    "\"decision\":\"allow\"}", JOURNAL_HOST_MAX + 1, host);
	cr_assert_eq(parse(line, &je), -1);
	snprintf(line, sizeof(line), "{\"at\":\"2026-12-03T19:19:20.569Z\","
	    "\"listener\":\"corridor\",\"host\":\"h\",\"port\":443,"
	    "\"decision\":\"%.*s\"}", JOURNAL_DECISION_MAX + 1, dec);
	cr_assert_eq(parse(line, &je), -1);
}

Test(line, overlong_and_deep)
{
	struct journal_entry	 je;
	struct journal_cursor	 cur;
	const char		*errstr;
	char			*buf;
	size_t			 i, n = JOURNAL_LINE_MAX;

	buf = malloc(n + 2);
	cr_assert_not_null(buf);
	memset(buf, ' ', n + 1);
	memcpy(buf, GOOD, strlen(GOOD));
	/* a record padded to the cap is taken, a byte more is not */
	cr_assert_eq(journal_line_parse(buf, n, &je, &cur, &errstr), 0);
	cr_assert_eq(journal_line_parse(buf, n + 1, &je, &cur, &errstr), -1);
	/* deep nesting within the cap ends in a refusal, not a crash */
	for (i = 0; i < n; i++)
		buf[i] = i < n / 2 ? '[' : ']';
	cr_assert_eq(journal_line_parse(buf, n, &je, &cur, &errstr), -1);
	free(buf);
}

/* --- lines ------------------------------------------------------------ */

struct got {
	char	 lines[16][JOURNAL_LINE_MAX + 1];
	size_t	 n;
};

static void
take(const char *line, size_t len, void *arg)
{
	struct got	*g = arg;

	cr_assert_lt(g->n, 16);
	cr_assert_eq(strlen(line), len);
	memcpy(g->lines[g->n++], line, len + 1);
}

Test(split, any_pieces)
{
	static const char	 in[] = "one\ntwo\n\nthree\nfour";
	struct journal_splitter	 js;
	struct got		*g;
	size_t			 step, at;

	g = calloc(1, sizeof(*g));
	for (step = 1; step <= sizeof(in); step++) {
		memset(g, 0, sizeof(*g));
		journal_split_init(&js);
		for (at = 0; at < sizeof(in) - 1; at += step)
			journal_split(&js, (const uint8_t *)in + at,
			    at + step > sizeof(in) - 1 ? sizeof(in) - 1 - at :
			    step, take, g);
		journal_split_end(&js, take, g);
		cr_assert_eq(g->n, 4, "step %zu", step);
		cr_assert_str_eq(g->lines[0], "one");
		cr_assert_str_eq(g->lines[2], "three");
		cr_assert_str_eq(g->lines[3], "four");
		cr_assert_eq(js.js_dropped, 0);
	}
	free(g);
}

Test(split, overlong_lines_dropped_and_counted)
{
	struct journal_splitter	 js;
	struct got		*g;
	uint8_t			*big;
	size_t			 n = JOURNAL_LINE_MAX + 10, i;

	g = calloc(1, sizeof(*g));
	big = malloc(n);
	memset(big, 'x', n);
	journal_split_init(&js);
	journal_split(&js, (const uint8_t *)"a\n", 2, take, g);
	/* one long line, in pieces */
	for (i = 0; i < n; i += 1000)
		journal_split(&js, big + i, i + 1000 > n ? n - i : 1000, take,
		    g);
	journal_split(&js, (const uint8_t *)"\nb\n", 3, take, g);
	/* exactly at the cap is a line */
	journal_split(&js, big, JOURNAL_LINE_MAX, take, g);
	journal_split(&js, (const uint8_t *)"\n", 1, take, g);
	/* an overlong last line without a newline */
	journal_split(&js, big, n, take, g);
	journal_split_end(&js, take, g);
	cr_assert_eq(g->n, 3);
	cr_assert_str_eq(g->lines[0], "a");
	cr_assert_str_eq(g->lines[1], "b");
	cr_assert_eq(strlen(g->lines[2]), JOURNAL_LINE_MAX);
	cr_assert_eq(js.js_dropped, 2);
	free(big);
	free(g);
}

/* --- dedupe ----------------------------------------------------------- */


/* The tip names spaced-journal reports to spaced after a start. */
Test(tip_name, of_this_install_only)
{
	char		 id[SPACE_ID_SIZE];
	uint32_t	 uid = 7;

	cr_assert_eq(journal_tip_name(".abcdef0123456789-1000-0123456789ab.tip",
	    "abcdef0123456789", &uid, id), 0);
	cr_assert_eq(uid, 1000);
	cr_assert_str_eq(id, "0123456789ab");
	cr_assert_eq(journal_tip_name(".abcdef0123456789-0-0123456789ab.tip",
	    "abcdef0123456789", &uid, id), 0);
	cr_assert_eq(uid, 0);
	/* another install, a journal file, bad uids and ids */
	cr_assert_eq(journal_tip_name(".bbcdef0123456789-0-0123456789ab.tip",
	    "abcdef0123456789", &uid, id), -1);
	cr_assert_eq(journal_tip_name("abcdef0123456789-0-0123456789ab.journal",
	    "abcdef0123456789", &uid, id), -1);
	cr_assert_eq(journal_tip_name(".abcdef0123456789--0123456789ab.tip",
	    "abcdef0123456789", &uid, id), -1);
	cr_assert_eq(journal_tip_name(".abcdef0123456789-01-0123456789ab.tip",
	    "abcdef0123456789", &uid, id), -1);
	cr_assert_eq(journal_tip_name(".abcdef0123456789-99999999999-0123456789ab.tip",
	    "abcdef0123456789", &uid, id), -1);
	cr_assert_eq(journal_tip_name(".abcdef0123456789-0-0123456789AB.tip",
	    "abcdef0123456789", &uid, id), -1);
	cr_assert_eq(journal_tip_name(".abcdef0123456789-0-0123456789a.tip",
	    "abcdef0123456789", &uid, id), -1);
	cr_assert_eq(journal_tip_name(".abcdef0123456789-0-0123456789ab.tipx",
	    "abcdef0123456789", &uid, id), -1);
}
