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
 * fuzz-link: gatekeeper/spaced-journal/journal_parse.c gatekeeper/spaced-journal/chain.c common/proto/labels.c common/lib/log.c
 *
 * The input is a gatekeeper's log as spaced-journal takes it, or a
 * store file as --verify reads it: split into lines in two piece sizes
 * (the first byte picks one), each line parsed as a gatekeeper record
 * and as a store line.  Invariants: both splits give the same lines; a
 * record taken is within its caps and printable, and its store line
 * goes back unchanged with a MAC that checks after the right MAC only;
 * a store line that scans formats back to itself.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatekeeper/spaced-journal/journal_parse.h"
#include "gatekeeper/spaced-journal/chain.h"

#define CHECK(x)	do { if (!(x)) abort(); } while (0)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const uint8_t	 key[CHAIN_KEY_LEN] = { 1, 2, 3 };

struct run {
	uint64_t		 lines;
	uint64_t		 records;
	uint64_t		 stored;
	uint64_t		 hash;
	uint8_t			 prev[CHAIN_MAC_LEN];
};

static void
printable(const char *s)
{
	for (; *s != '\0'; s++)
		CHECK((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f);
}

/* A record the gatekeeper made: its store line and back, chained. */
static void
gatekeeper_line(struct run *r, const char *line, size_t len)
{
	struct journal_entry	 je;
	struct journal_cursor	 cur;
	struct chain_rec	 cr, back;
	const char		*errstr;
	char			 out[CHAIN_LINE_MAX + 1];
	uint8_t			 other[CHAIN_MAC_LEN];

	if (journal_line_parse(line, len, &je, &cur, &errstr) == -1)
		return;
	r->records++;
	CHECK(strlen(je.je_at) == JOURNAL_AT_LEN);
	CHECK(strcmp(je.je_listener, "corridor") == 0 ||
	    strcmp(je.je_listener, "window") == 0);
	CHECK(strlen(je.je_host) <= JOURNAL_HOST_MAX);
	CHECK(strlen(je.je_decision) >= 1 &&
	    strlen(je.je_decision) <= JOURNAL_DECISION_MAX);
	CHECK(je.je_port <= 65535 && je.je_count >= 1);
	printable(je.je_at);
	printable(je.je_host);
	printable(je.je_decision);
	memset(&cr, 0, sizeof(cr));
	je.je_seq = r->records;
	cr.cr_entry = je;
	cr.cr_boot = cur.jc_boot;
	cr.cr_gkseq = cur.jc_seq;
	CHECK(chain_fmt(key, r->prev, &cr, out, sizeof(out)) == 0);
	CHECK(strchr(out, '\n') == NULL && strlen(out) <= CHAIN_LINE_MAX);
	CHECK(chain_scan(out, strlen(out), &back, &errstr) == 0);
	CHECK(memcmp(&cr, &back, sizeof(cr)) == 0);
	CHECK(chain_check(key, r->prev, out, strlen(out)) == 1);
	memcpy(other, r->prev, sizeof(other));
	other[0] ^= 1;
	CHECK(chain_check(key, other, out, strlen(out)) == 0);
	memcpy(r->prev, cr.cr_mac, sizeof(r->prev));
}

/* A store line, as --verify reads one a root hand may have written. */
static void
store_line(struct run *r, const char *line, size_t len)
{
	struct chain_rec	 cr;
	const char		*errstr;
	char			 out[CHAIN_LINE_MAX + 1];
	int			 ok;

	ok = chain_check(key, r->prev, line, len);
	if (chain_scan(line, len, &cr, &errstr) == -1)
		return;
	r->stored++;
	CHECK(len <= CHAIN_LINE_MAX && cr.cr_entry.je_count >= 1);
	/* Formatting what scanned gives the same bytes, and its MAC. */
	CHECK(chain_fmt(key, r->prev, &cr, out, sizeof(out)) == 0);
	CHECK(strlen(out) == len &&
	    memcmp(out, line, len - 2 * CHAIN_MAC_LEN) == 0);
	CHECK(ok == (memcmp(out, line, len) == 0));
}

static void
one_line(const char *line, size_t len, void *arg)
{
	struct run	*r = arg;
	size_t		 i;

	CHECK(len > 0 && len <= JOURNAL_LINE_MAX && strlen(line) <= len);
	CHECK(memchr(line, '\n', len) == NULL);
	r->lines++;
	for (i = 0; i < len; i++)
		r->hash = (r->hash ^ (unsigned char)line[i]) * 0x100000001b3ULL;
	r->hash = (r->hash ^ '\n') * 0x100000001b3ULL;
	gatekeeper_line(r, line, len);
	store_line(r, line, len);
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
	split(data + 1, len - 1, (size_t)data[0] + 1, &a);
	split(data + 1, len - 1, len, &b);
	CHECK(a.lines == b.lines && a.records == b.records &&
	    a.stored == b.stored && a.hash == b.hash &&
	    memcmp(a.prev, b.prev, sizeof(a.prev)) == 0);
	return 0;
}
