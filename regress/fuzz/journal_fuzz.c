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
 * fuzz-link: gatekeeper/spaced-journal/journal_parse.c
 *
 * The input is a gatekeeper's log as spaced-journal takes it: split into
 * lines in two piece sizes (the first byte picks one), each line parsed
 * as a record.  Invariants: both splits give the same lines; a record
 * that was taken is within its caps, printable, and goes to the store's
 * form and back unchanged; the multiset counts each line once.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatekeeper/spaced-journal/journal_parse.h"

#define CHECK(x)	do { if (!(x)) abort(); } while (0)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct run {
	uint64_t		 lines;
	uint64_t		 records;
	uint64_t		 hash;
	struct journal_seen	*seen;	/* what it takes */
	struct journal_seen	*store;	/* where the new ones go */
	uint64_t		 fresh;
};

static void
printable(const char *s)
{
	for (; *s != '\0'; s++)
		CHECK((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f);
}

static void
one_line(const char *line, size_t len, void *arg)
{
	struct run		*r = arg;
	struct journal_entry	 je, back;
	const char		*errstr;
	char			 key[JOURNAL_KEY_MAX];
	size_t			 i;
	int			 rv;

	CHECK(len > 0 && len <= JOURNAL_LINE_MAX && strlen(line) <= len);
	CHECK(memchr(line, '\n', len) == NULL);
	r->lines++;
	for (i = 0; i < len; i++)
		r->hash = (r->hash ^ (unsigned char)line[i]) * 0x100000001b3ULL;
	r->hash = (r->hash ^ '\n') * 0x100000001b3ULL;
	if (journal_line_parse(line, len, &je, &errstr) == -1)
		return;
	r->records++;
	CHECK(strlen(je.je_at) == JOURNAL_AT_LEN);
	CHECK(strcmp(je.je_listener, "corridor") == 0 ||
	    strcmp(je.je_listener, "window") == 0);
	CHECK(strlen(je.je_host) <= JOURNAL_HOST_MAX);
	CHECK(strlen(je.je_decision) >= 1 &&
	    strlen(je.je_decision) <= JOURNAL_DECISION_MAX);
	CHECK(je.je_port <= 65535);
	printable(je.je_at);
	printable(je.je_host);
	printable(je.je_decision);
	CHECK(journal_entry_fmt(&je, key, sizeof(key)) == 0);
	CHECK(strchr(key, '\n') == NULL);
	CHECK(journal_entry_scan(key, strlen(key), &back, &errstr) == 0);
	CHECK(memcmp(&je, &back, sizeof(je)) == 0);
	if (r->seen != NULL) {
		CHECK((rv = journal_seen_take(r->seen, key)) != -1);
		r->fresh += rv;
		if (rv == 1 && r->store != NULL)
			CHECK(journal_seen_stored(r->store, key) == 0);
	}
}

static void
split(const uint8_t *data, size_t len, size_t step, struct run *r)
{
	struct journal_splitter	*js;
	size_t			 at, n;

	CHECK((js = malloc(sizeof(*js))) != NULL);
	journal_split_init(js);
	for (at = 0; at < len; at += n) {
		n = len - at < step ? len - at : step;
		journal_split(js, data + at, n, one_line, r);
	}
	journal_split_end(js, one_line, r);
	r->lines += js->js_dropped * 1000003;
	free(js);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct run	 a, b;

	if (len < 1)
		return 0;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	CHECK((a.seen = journal_seen_new()) != NULL);
	CHECK((a.store = journal_seen_new()) != NULL);
	split(data + 1, len - 1, (size_t)data[0] + 1, &a);
	split(data + 1, len - 1, len, &b);
	CHECK(a.lines == b.lines && a.records == b.records &&
	    a.hash == b.hash);
	/* into an empty store, every record is new */
	CHECK(a.fresh == a.records);
	/* the same log again, against what it stored, adds nothing */
	memset(&b, 0, sizeof(b));
	b.seen = a.store;
	split(data + 1, len - 1, 7, &b);
	CHECK(b.fresh == 0 && b.records == a.records);
	journal_seen_free(a.seen);
	journal_seen_free(a.store);
	return 0;
}
