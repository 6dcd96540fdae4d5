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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "log.h"
#include "gatekeeper.h"

/*
 * The journal: a ring of GK_JOURNAL_RING records in memory, each also
 * written to stdout as one JSON line as it is made, so the collector
 * keeps what a restart of this process would lose.  Never a path, a
 * query, a body, a header value or a secret: only what the record holds.
 */

struct journal_record {
	int64_t		 jr_at_ms;
	uint8_t		 jr_listener;
	int32_t		 jr_port;
	char		 jr_host[GK_JOURNAL_HOST_MAX + 1];
	char		 jr_decision[GK_JOURNAL_DECISION_MAX + 1];
};

static struct journal_record	*journal_ring;
static size_t			 journal_next;	/* slot for the next record */
static size_t			 journal_count;
static uint64_t			 journal_dropped;
/* Monotonic second of the last limited record, per listener and kind. */
static int64_t			 journal_limited_last[3][2];
static int			 journal_limited_seen[3][2];

static const char *
journal_listener_str(int l)
{
	switch (l) {
	case GK_WINDOW:
		return "window";
	case GK_CONTROL:
		return "control";
	default:
		return "corridor";
	}
}

/* Host text the space chose: printable ASCII only, cut to the cap. */
static void
journal_copy(char *dst, size_t cap, const char *src, size_t len)
{
	size_t	 i;

	if (src == NULL)
		len = 0;
	if (len > cap)
		len = cap;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	dst[len] = '\0';
}

static void
journal_iso(int64_t ms, char *buf, size_t sz)
{
	struct tm	 tm;
	time_t		 t = (time_t)(ms / 1000);
	char		 base[32];

	gmtime_r(&t, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, sz, "%s.%03dZ", base, (int)(ms % 1000));
}

static json_t *
journal_record_json(const struct journal_record *r)
{
	char	 at[40];

	journal_iso(r->jr_at_ms, at, sizeof(at));
	return json_pack("{s:s, s:s, s:s, s:i, s:s}", "at", at,
	    "listener", journal_listener_str(r->jr_listener),
	    "host", r->jr_host, "port", (json_int_t)r->jr_port,
	    "decision", r->jr_decision);
}

static void
journal_emit(const struct journal_record *r)
{
	json_t	*j;
	char	*s;
	size_t	 len, off = 0;
	ssize_t	 n;

	if ((j = journal_record_json(r)) == NULL)
		return;
	s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (s == NULL)
		return;
	len = strlen(s);
	s[len] = '\n';	/* json_dumps leaves room: the NUL */
	len++;
	while (off < len) {
		n = write(STDOUT_FILENO, s + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	free(s);
}

void
journal_add(enum gk_listener l, const char *host, size_t hostlen, long port,
    const char *decision)
{
	struct journal_record	*r;
	struct timespec		 ts;

	if (journal_ring == NULL &&
	    (journal_ring = calloc(GK_JOURNAL_RING, sizeof(*r))) == NULL) {
		log_warnx("journal: out of memory");
		return;
	}
	if (journal_count == GK_JOURNAL_RING)
		journal_dropped++;
	else
		journal_count++;
	r = &journal_ring[journal_next];
	journal_next = (journal_next + 1) % GK_JOURNAL_RING;

	clock_gettime(CLOCK_REALTIME, &ts);
	r->jr_at_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	r->jr_listener = (uint8_t)l;
	r->jr_port = (port < 0 || port > 65535) ? 0 : (int32_t)port;
	journal_copy(r->jr_host, GK_JOURNAL_HOST_MAX, host, hostlen);
	journal_copy(r->jr_decision, GK_JOURNAL_DECISION_MAX, decision,
	    strlen(decision));
	journal_emit(r);
}

void
journal_add_limited(enum gk_listener l, const char *host, size_t hostlen,
    long port, const char *decision)
{
	struct timespec	 ts;
	int		 kind, li = (int)l;

	kind = strcmp(decision, "deny:too-many-connections") == 0 ? 0 : 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* Five hundred notes would erase everything else the ring holds. */
	if (journal_limited_seen[li][kind] &&
	    ts.tv_sec - journal_limited_last[li][kind] < 60)
		return;
	journal_limited_seen[li][kind] = 1;
	journal_limited_last[li][kind] = ts.tv_sec;
	journal_add(l, host, hostlen, port, decision);
}

char *
journal_dump(void)
{
	json_t	*top, *arr, *rec;
	size_t	 i, first;
	char	*s;

	if ((top = json_object()) == NULL)
		return NULL;
	if ((arr = json_array()) == NULL) {
		json_decref(top);
		return NULL;
	}
	json_object_set_new(top, "records", arr);
	first = (journal_next + GK_JOURNAL_RING - journal_count) %
	    GK_JOURNAL_RING;
	for (i = 0; i < journal_count; i++) {
		rec = journal_record_json(
		    &journal_ring[(first + i) % GK_JOURNAL_RING]);
		if (rec == NULL || json_array_append_new(arr, rec) == -1) {
			json_decref(top);
			return NULL;
		}
	}
	json_object_set_new(top, "dropped",
	    json_integer((json_int_t)journal_dropped));
	s = json_dumps(top, JSON_COMPACT);
	json_decref(top);
	return s;
}
