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
 * The journal worker's parsers: a gatekeeper's JSON line to a record
 * and its cursor, and lines out of a stream (the store's own lines are
 * chain.c's).  Pure (STYLE.md 18).
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
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
	/* "journal": what spaced-journal writes of its own (chain.h) */
	/* "code-out": a review or an apply, as spaced says (journal.c) */
	/* "server": a restart of the space's relay (restart_parse.c) */
	if (strcmp(je->je_listener, "corridor") != 0 &&
	    strcmp(je->je_listener, "window") != 0 &&
	    strcmp(je->je_listener, "journal") != 0 &&
	    strcmp(je->je_listener, "code-out") != 0 &&
	    strcmp(je->je_listener, "server") != 0) {
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

/* A whole number in [lo, hi]. */
static int
get_int(json_t *v, json_int_t lo, json_int_t hi, json_int_t *out)
{
	if (!json_is_integer(v) || (*out = json_integer_value(v)) < lo ||
	    *out > hi)
		return -1;
	return 0;
}

int
journal_line_parse(const char *line, size_t len, struct journal_entry *je,
    struct journal_cursor *jc, const char **errstr)
{
	json_error_t	 err;
	json_t		*o, *count;
	json_int_t	 p, boot, seq, n = 1;

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
	/* count: repeated attempts the gatekeeper folded into one */
	count = json_object_get(o, "count");
	if (!json_is_object(o) ||
	    json_object_size(o) != (count != NULL ? 8 : 7) ||
	    (count != NULL && get_int(count, 1, UINT32_MAX, &n) == -1))
		goto bad;
	if (get_int(json_object_get(o, "boot"), 0, INT64_MAX, &boot) == -1 ||
	    get_int(json_object_get(o, "seq"), 0, INT64_MAX, &seq) == -1)
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
	if (get_int(json_object_get(o, "port"), 0, 65535, &p) == -1)
		goto bad;
	je->je_port = (uint32_t)p;
	je->je_count = (uint32_t)n;
	jc->jc_boot = boot;
	jc->jc_seq = (uint64_t)seq;
	json_decref(o);
	/*
	 * Only spaced-journal writes as "journal", only spaced "code-out",
	 * and "server" comes from the space's log alone.
	 */
	if (journal_entry_valid(je, errstr) == -1 ||
	    strcmp(je->je_listener, "journal") == 0 ||
	    strcmp(je->je_listener, "code-out") == 0 ||
	    strcmp(je->je_listener, "server") == 0) {
		*errstr = "bad record";
		memset(je, 0, sizeof(*je));
		return -1;
	}
	return 0;
bad:
	json_decref(o);
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

int
journal_tip_name(const char *name, const char *install, uint32_t *uid,
    char id[SPACE_ID_SIZE])
{
	size_t		 n = strlen(install), len;
	const char	*p, *dash;
	char		 digits[16];
	const char	*errstr;
	long long	 v;

	if (name[0] != '.' || strncmp(name + 1, install, n) != 0 ||
	    name[1 + n] != '-')
		return -1;
	p = name + 2 + n;
	if ((dash = strchr(p, '-')) == NULL || dash == p ||
	    (size_t)(dash - p) >= sizeof(digits) || (p[0] == '0' && dash > p + 1))
		return -1;
	memcpy(digits, p, dash - p);
	digits[dash - p] = '\0';
	if (strspn(digits, "0123456789") != strlen(digits))
		return -1;
	v = strtonum(digits, 0, UINT32_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	len = strlen(dash + 1);
	if (len != SPACE_ID_LEN + 4 || strcmp(dash + 1 + SPACE_ID_LEN, ".tip")
	    != 0)
		return -1;
	memcpy(id, dash + 1, SPACE_ID_LEN);
	id[SPACE_ID_LEN] = '\0';
	if (!space_id_valid(id))
		return -1;
	*uid = (uint32_t)v;
	return 0;
}
