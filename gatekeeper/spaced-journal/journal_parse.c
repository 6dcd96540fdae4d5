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
 * The journal worker's parsers: a gatekeeper's JSON line to a record,
 * a record to the store's line and back, lines out of a stream, and the
 * multiset that says which records are new.  Pure (STYLE.md 18).
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "journal_parse.h"

static int
printable(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

static int
num(const char *s, size_t n, int lo, int hi)
{
	int	 v = 0;
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	return v >= lo && v <= hi;
}

/* "2026-12-03T19:19:20.569Z", as the gatekeeper writes it. */
static int
at_valid(const char *s, size_t len)
{
	static const char	 shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
	size_t			 i;

	if (len != JOURNAL_AT_LEN)
		return 0;
	for (i = 0; i < len; i++)
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') :
		    s[i] != shape[i])
			return 0;
	return num(s + 5, 2, 1, 12) && num(s + 8, 2, 1, 31) &&
	    num(s + 11, 2, 0, 23) && num(s + 14, 2, 0, 59) &&
	    num(s + 17, 2, 0, 60);
}

int
journal_entry_valid(const struct journal_entry *je, const char **errstr)
{
	size_t	 n;

	if (memchr(je->je_at, '\0', sizeof(je->je_at)) == NULL ||
	    !at_valid(je->je_at, strlen(je->je_at))) {
		*errstr = "bad time";
		return -1;
	}
	if (strcmp(je->je_listener, "corridor") != 0 &&
	    strcmp(je->je_listener, "window") != 0) {
		*errstr = "bad listener";
		return -1;
	}
	if ((n = strnlen(je->je_host, sizeof(je->je_host))) ==
	    sizeof(je->je_host) || !printable(je->je_host, n)) {
		*errstr = "bad host";
		return -1;
	}
	if ((n = strnlen(je->je_decision, sizeof(je->je_decision))) == 0 ||
	    n == sizeof(je->je_decision) || !printable(je->je_decision, n)) {
		*errstr = "bad decision";
		return -1;
	}
	if (je->je_port > 65535) {
		*errstr = "bad port";
		return -1;
	}
	return 0;
}

/* A string field of at most max bytes, no NUL inside, into buf. */
static int
get_string(json_t *v, char *buf, size_t size, size_t max)
{
	const char	*s;
	size_t		 n;

	if (!json_is_string(v))
		return -1;
	s = json_string_value(v);
	n = json_string_length(v);
	if (n > max || n >= size || strlen(s) != n)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

int
journal_line_parse(const char *line, size_t len, struct journal_entry *je,
    const char **errstr)
{
	json_error_t	 err;
	json_t		*o, *port;
	json_int_t	 p;

	memset(je, 0, sizeof(*je));
	*errstr = "not a record";
	if (len == 0 || len > JOURNAL_LINE_MAX) {
		*errstr = "bad length";
		return -1;
	}
	if ((o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &err)) ==
	    NULL) {
		*errstr = "not JSON";
		return -1;
	}
	if (!json_is_object(o) || json_object_size(o) != 5)
		goto bad;
	if (get_string(json_object_get(o, "at"), je->je_at,
	    sizeof(je->je_at), JOURNAL_AT_LEN) == -1 ||
	    get_string(json_object_get(o, "listener"), je->je_listener,
	    sizeof(je->je_listener), JOURNAL_LISTENER_MAX - 1) == -1 ||
	    get_string(json_object_get(o, "host"), je->je_host,
	    sizeof(je->je_host), JOURNAL_HOST_MAX) == -1 ||
	    get_string(json_object_get(o, "decision"), je->je_decision,
	    sizeof(je->je_decision), JOURNAL_DECISION_MAX) == -1)
		goto bad;
	port = json_object_get(o, "port");
	if (!json_is_integer(port) || (p = json_integer_value(port)) < 0 ||
	    p > 65535)
		goto bad;
	je->je_port = (uint32_t)p;
	json_decref(o);
	if (journal_entry_valid(je, errstr) == -1) {
		memset(je, 0, sizeof(*je));
		return -1;
	}
	return 0;
bad:
	json_decref(o);
	memset(je, 0, sizeof(*je));
	return -1;
}

int
journal_entry_fmt(const struct journal_entry *je, char *buf, size_t len)
{
	const char	*errstr;
	int		 n;

	if (journal_entry_valid(je, &errstr) == -1)
		return -1;
	n = snprintf(buf, len, "%s\t%s\t%s\t%u\t%s", je->je_at,
	    je->je_listener, je->je_host, (unsigned)je->je_port,
	    je->je_decision);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The next tab-separated field of line into buf (size bytes). */
static int
field(const char **p, const char *end, char *buf, size_t size, int last)
{
	const char	*t;
	size_t		 n;

	if (last)
		t = end;
	else if ((t = memchr(*p, '\t', end - *p)) == NULL)
		return -1;
	n = t - *p;
	if (n >= size || memchr(*p, '\0', n) != NULL)
		return -1;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p = last ? t : t + 1;
	return 0;
}

int
journal_entry_scan(const char *line, size_t len, struct journal_entry *je,
    const char **errstr)
{
	const char	*p = line, *end = line + len;
	char		 port[8];
	int		 v = 0;
	size_t		 i;

	memset(je, 0, sizeof(*je));
	*errstr = "bad store line";
	if (field(&p, end, je->je_at, sizeof(je->je_at), 0) == -1 ||
	    field(&p, end, je->je_listener, sizeof(je->je_listener), 0) ==
	    -1 || field(&p, end, je->je_host, sizeof(je->je_host), 0) == -1 ||
	    field(&p, end, port, sizeof(port), 0) == -1 ||
	    field(&p, end, je->je_decision, sizeof(je->je_decision), 1) == -1)
		goto bad;
	if (port[0] == '\0' || strlen(port) > 5 ||
	    (port[0] == '0' && port[1] != '\0'))
		goto bad;
	for (i = 0; port[i] != '\0'; i++) {
		if (port[i] < '0' || port[i] > '9')
			goto bad;
		v = v * 10 + (port[i] - '0');
	}
	je->je_port = (uint32_t)v;
	if (journal_entry_valid(je, errstr) == -1)
		goto bad;
	return 0;
bad:
	memset(je, 0, sizeof(*je));
	return -1;
}

/* --- lines ------------------------------------------------------------ */

void
journal_split_init(struct journal_splitter *js)
{
	memset(js, 0, sizeof(*js));
}

static void
split_line(struct journal_splitter *js, journal_line_fn fn, void *arg)
{
	if (js->js_overlong)
		js->js_dropped++;
	else if (js->js_len > 0) {
		js->js_line[js->js_len] = '\0';
		fn(js->js_line, js->js_len, arg);
	}
	js->js_len = 0;
	js->js_overlong = 0;
}

void
journal_split(struct journal_splitter *js, const uint8_t *buf, size_t len,
    journal_line_fn fn, void *arg)
{
	const uint8_t	*nl;
	size_t		 n;

	while (len > 0) {
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		if (!js->js_overlong) {
			if (n > JOURNAL_LINE_MAX - js->js_len)
				js->js_overlong = 1;
			else {
				memcpy(js->js_line + js->js_len, buf, n);
				js->js_len += n;
			}
		}
		if (nl == NULL)
			return;
		split_line(js, fn, arg);
		buf += n + 1;
		len -= n + 1;
	}
}

void
journal_split_end(struct journal_splitter *js, journal_line_fn fn, void *arg)
{
	if (js->js_len > 0 || js->js_overlong)
		split_line(js, fn, arg);
}

/* --- the multiset ----------------------------------------------------- */

/*
 * The whole log comes every time, so a record is new only when this log
 * holds it more often than the store already does: a multiset of store
 * lines, counted once from the store and once from the log.  A log that
 * lost its head (the engine's rotation) adds nothing twice, and two
 * equal attempts in one millisecond stay two.
 */

struct seen_slot {
	char		*ss_key;
	uint64_t	 ss_hash;
	uint32_t	 ss_stored;
	uint32_t	 ss_seen;
};

struct journal_seen {
	struct seen_slot *sn_slots;
	size_t		 sn_cap;	/* a power of two */
	size_t		 sn_used;
};

/* FNV-1a: the keys are the store's own lines, not chosen to collide. */
static uint64_t
seen_hash(const char *s)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct journal_seen *
journal_seen_new(void)
{
	struct journal_seen	*sn;

	if ((sn = calloc(1, sizeof(*sn))) == NULL)
		return NULL;
	sn->sn_cap = 64;
	if ((sn->sn_slots = calloc(sn->sn_cap, sizeof(*sn->sn_slots))) ==
	    NULL) {
		free(sn);
		return NULL;
	}
	return sn;
}

void
journal_seen_free(struct journal_seen *sn)
{
	size_t	 i;

	if (sn == NULL)
		return;
	for (i = 0; i < sn->sn_cap; i++)
		free(sn->sn_slots[i].ss_key);
	free(sn->sn_slots);
	free(sn);
}

size_t
journal_seen_count(const struct journal_seen *sn)
{
	return sn->sn_used;
}

static struct seen_slot *
seen_find(struct seen_slot *slots, size_t cap, const char *key, uint64_t h)
{
	size_t	 i = h & (cap - 1);

	while (slots[i].ss_key != NULL && (slots[i].ss_hash != h ||
	    strcmp(slots[i].ss_key, key) != 0))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int
seen_grow(struct journal_seen *sn)
{
	struct seen_slot	*slots, *s;
	size_t			 cap = sn->sn_cap * 2, i;

	if ((slots = calloc(cap, sizeof(*slots))) == NULL)
		return -1;
	for (i = 0; i < sn->sn_cap; i++) {
		if (sn->sn_slots[i].ss_key == NULL)
			continue;
		s = seen_find(slots, cap, sn->sn_slots[i].ss_key,
		    sn->sn_slots[i].ss_hash);
		*s = sn->sn_slots[i];
	}
	free(sn->sn_slots);
	sn->sn_slots = slots;
	sn->sn_cap = cap;
	return 0;
}

static struct seen_slot *
seen_slot(struct journal_seen *sn, const char *key)
{
	struct seen_slot	*s;
	uint64_t		 h = seen_hash(key);

	if ((sn->sn_used + 1) * 2 > sn->sn_cap && seen_grow(sn) == -1)
		return NULL;
	s = seen_find(sn->sn_slots, sn->sn_cap, key, h);
	if (s->ss_key == NULL) {
		if ((s->ss_key = strdup(key)) == NULL)
			return NULL;
		s->ss_hash = h;
		sn->sn_used++;
	}
	return s;
}

int
journal_seen_stored(struct journal_seen *sn, const char *key)
{
	struct seen_slot	*s;

	if ((s = seen_slot(sn, key)) == NULL)
		return -1;
	if (s->ss_stored < UINT32_MAX)
		s->ss_stored++;
	return 0;
}

int
journal_seen_take(struct journal_seen *sn, const char *key)
{
	struct seen_slot	*s;

	if ((s = seen_slot(sn, key)) == NULL)
		return -1;
	if (s->ss_seen < UINT32_MAX)
		s->ss_seen++;
	return s->ss_seen > s->ss_stored;
}
