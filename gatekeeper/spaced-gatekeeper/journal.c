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

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
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
	uint32_t	 jr_count;	/* attempts it stands for */
	char		 jr_host[GK_JOURNAL_HOST_MAX + 1];
	char		 jr_decision[GK_JOURNAL_DECISION_MAX + 1];
};

/*
 * Lines a slow stdout reader has not taken yet: the one event loop must
 * never wait for a log reader (a stalled docker log pipe would freeze
 * every tunnel).  Room for a full ring of the longest records (sized in
 * docs/perf.md); a line that does not fit is dropped whole and counted.
 */
#define JOURNAL_OUT_MAX		(256 * 1024)
#define JOURNAL_OUT_CHUNK	(64 * 1024)
/* Past half of it, the corridor refuses rather than go unrecorded. */
#define JOURNAL_OUT_CLOSED	(JOURNAL_OUT_MAX / 2)

/*
 * A flood of denials: the first of each is a line at once, its repeats
 * within a second one line with their count; past this many denial
 * lines in a second, hosts fold as "*" (the count says how many).
 */
#define JOURNAL_FOLD_MS		1000
#define JOURNAL_DENIALS_SEC	1000

enum journal_out_kind {
	JO_FILE = 0,	/* a file, /dev/null: never waits for a reader */
	JO_PIPE,	/* pipe, FIFO, terminal: non-blocking, our own */
	JO_SOCKET	/* send(MSG_DONTWAIT): its description untouched */
};

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

	json_t	*j;

	journal_iso(r->jr_at_ms, at, sizeof(at));
	j = json_pack("{s:s, s:s, s:s, s:i, s:s}", "at", at,
	    "listener", journal_listener_str(r->jr_listener),
	    "host", r->jr_host, "port", (json_int_t)r->jr_port,
	    "decision", r->jr_decision);
	if (j != NULL && r->jr_count > 1 && json_object_set_new(j, "count",
	    json_integer((json_int_t)r->jr_count)) == -1) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static void
journal_lost(uint64_t n)
{
	struct gk_journal	*gj = &gk->gk_journal;

	gj->gj_unwritten += n;
	gj->gj_dropped += n;
}

static ssize_t
journal_out_write(const void *p, size_t len)
{
	struct gk_journal	*gj = &gk->gk_journal;
	ssize_t			 n;

	do {
		if (gj->gj_out_kind == JO_SOCKET)
			n = send(STDOUT_FILENO, p, len,
			    MSG_DONTWAIT | MSG_NOSIGNAL);
		else
			n = write(STDOUT_FILENO, p, len);
	} while (n == -1 && errno == EINTR);
	return n;
}

/* The reader is gone for good: the lines still held never arrive. */
static void
journal_out_fail(void)
{
	struct gk_journal	*gj = &gk->gk_journal;
	size_t			 len = evbuffer_get_length(gj->gj_out);
	const char		*p, *e;
	uint64_t		 lines = 0;

	if (len > 0 && (p = (const char *)evbuffer_pullup(gj->gj_out,
	    len)) != NULL)
		for (e = p + len; (p = memchr(p, '\n', e - p)) != NULL; p++)
			lines++;
	journal_lost(lines);
	evbuffer_drain(gj->gj_out, len);
	event_del(gj->gj_out_ev);
	gj->gj_out_failed = 1;
}

static void
journal_out_flush(evutil_socket_t fd, short ev, void *arg)
{
	struct gk_journal	*gj = &gk->gk_journal;
	size_t			 len;
	const void		*p;
	ssize_t			 n;

	while ((len = evbuffer_get_length(gj->gj_out)) > 0) {
		if (len > JOURNAL_OUT_CHUNK)
			len = JOURNAL_OUT_CHUNK;
		if ((p = evbuffer_pullup(gj->gj_out, len)) == NULL)
			break;
		if ((n = journal_out_write(p, len)) == -1) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;		/* the event comes back */
			journal_out_fail();
			return;
		}
		evbuffer_drain(gj->gj_out, (size_t)n);
	}
	event_del(gj->gj_out_ev);
}

/* One whole line: written, held, or dropped whole; never waited for. */
static void
journal_out_line(const char *s, size_t len)
{
	struct gk_journal	*gj = &gk->gk_journal;
	size_t			 off = 0;
	ssize_t			 n;

	if (gj->gj_out_kind == JO_FILE || gj->gj_out == NULL) {
		while (off < len) {
			if ((n = journal_out_write(s + off, len - off)) <= 0) {
				journal_lost(1);
				return;
			}
			off += (size_t)n;
		}
		return;
	}
	if (evbuffer_get_length(gj->gj_out) + len > JOURNAL_OUT_MAX) {
		journal_lost(1);
		return;
	}
	if (evbuffer_get_length(gj->gj_out) == 0) {
		/* Nothing queued: the order allows writing at once. */
		if ((n = journal_out_write(s, len)) == -1 &&
		    errno != EAGAIN && errno != EWOULDBLOCK) {
			journal_lost(1);
			return;
		}
		if (n > 0)
			off = (size_t)n;
	}
	if (off == len)
		return;
	/* A tail must follow its head, or the stream holds half a line. */
	if (evbuffer_add(gj->gj_out, s + off, len - off) == -1 ||
	    event_add(gj->gj_out_ev, NULL) == -1) {
		journal_lost(1);
		if (off > 0)
			journal_out_fail();
	}
}

static void
journal_emit(const struct journal_record *r)
{
	json_t	*j;
	char	*s;
	size_t	 len;

	if ((j = journal_record_json(r)) == NULL)
		return;
	/* The collector keeps what follows its cursor: (boot, seq). */
	if (json_object_set_new(j, "boot",
	    json_integer((json_int_t)gk->gk_journal.gj_boot_ms)) == -1 ||
	    json_object_set_new(j, "seq",
	    json_integer((json_int_t)gk->gk_journal.gj_seq++)) == -1) {
		json_decref(j);
		return;
	}
	s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (s == NULL)
		return;
	len = strlen(s);
	s[len] = '\n';	/* json_dumps leaves room: the NUL */
	journal_out_line(s, len + 1);
	free(s);
}

/*
 * Before the sandbox: make stdout a writer that never blocks the loop.
 * O_NONBLOCK on the inherited description would reach every process
 * that shares it (the shell of a terminal, docker's shim, an --init),
 * so a pipe, FIFO or terminal is opened again through /proc for a
 * description of our own, and a socket is written with MSG_DONTWAIT.
 * A file or /dev/null never waits for a reader and stays as it is.
 */
void
journal_init(struct event_base *base)
{
	struct gk_journal	*gj = &gk->gk_journal;
	struct stat		 st;
	int			 fd, fl;
	struct timespec		 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	gj->gj_boot_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;

	if (fstat(STDOUT_FILENO, &st) == -1) {
		/* Closed: keep fd 1 from becoming a socket we would log into. */
		if ((fd = open("/dev/null", O_WRONLY)) != -1 &&
		    fd != STDOUT_FILENO) {
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
		return;
	}
	if (S_ISSOCK(st.st_mode))
		gj->gj_out_kind = JO_SOCKET;
	else if (S_ISFIFO(st.st_mode) ||
	    (S_ISCHR(st.st_mode) && isatty(STDOUT_FILENO))) {
		fd = open("/proc/self/fd/1", O_WRONLY | O_NONBLOCK | O_NOCTTY |
		    O_CLOEXEC);
		if (fd != -1) {
			if (dup2(fd, STDOUT_FILENO) == -1)
				fatal("journal: dup2");
			close(fd);
		} else if (S_ISFIFO(st.st_mode)) {
			/* No /proc: the shared pipe, but never a frozen loop. */
			log_warn("journal: cannot reopen stdout, setting "
			    "O_NONBLOCK on the inherited pipe");
			if ((fl = fcntl(STDOUT_FILENO, F_GETFL)) == -1 ||
			    fcntl(STDOUT_FILENO, F_SETFL, fl | O_NONBLOCK) == -1)
				fatal("journal: stdout O_NONBLOCK");
		} else {
			log_warn("journal: terminal stdout stays blocking");
			return;
		}
		gj->gj_out_kind = JO_PIPE;
	} else
		return;
	if ((gj->gj_out = evbuffer_new()) == NULL ||
	    (gj->gj_out_ev = event_new(base, STDOUT_FILENO,
	    EV_WRITE | EV_PERSIST, journal_out_flush, NULL)) == NULL)
		fatalx("journal: out of memory");
}

/* Into the ring and out on stdout. */
static void
journal_put(const struct journal_record *rec)
{
	struct gk_journal	*gj = &gk->gk_journal;
	struct journal_record	*r;

	if (gj->gj_ring == NULL &&
	    (gj->gj_ring = calloc(GK_JOURNAL_RING, sizeof(*r))) == NULL) {
		log_warnx("journal: out of memory");
		return;
	}
	if (gj->gj_count == GK_JOURNAL_RING)
		gj->gj_dropped++;
	else
		gj->gj_count++;
	r = &gj->gj_ring[gj->gj_next];
	gj->gj_next = (gj->gj_next + 1) % GK_JOURNAL_RING;
	*r = *rec;
	journal_emit(r);
}

/* The repeats counted so far become one record. */
static void
journal_fold_flush(void)
{
	struct gk_journal	*gj = &gk->gk_journal;
	struct journal_record	 r;

	if (gj->gj_repeats == 0)
		return;
	r = *gj->gj_last;
	r.jr_count = gj->gj_repeats;
	r.jr_at_ms = gj->gj_repeat_at_ms;
	gj->gj_repeats = 0;
	if (gj->gj_fold_ev != NULL)
		evtimer_del(gj->gj_fold_ev);
	journal_put(&r);
}

static void
journal_fold_timer(evutil_socket_t fd, short ev, void *arg)
{
	journal_fold_flush();
}

static int
journal_same(const struct journal_record *a, const struct journal_record *b)
{
	return a->jr_listener == b->jr_listener && a->jr_port == b->jr_port &&
	    strcmp(a->jr_host, b->jr_host) == 0 &&
	    strcmp(a->jr_decision, b->jr_decision) == 0;
}

/* 1 when r, a denial, was counted as a repeat of the last one. */
static int
journal_fold(struct journal_record *r)
{
	struct gk_journal	*gj = &gk->gk_journal;
	struct timeval		 tv = { JOURNAL_FOLD_MS / 1000, 0 };

	if (gk->gk_base == NULL)
		return 0;
	if (gj->gj_sec != r->jr_at_ms / 1000) {
		gj->gj_sec = r->jr_at_ms / 1000;
		gj->gj_sec_lines = 0;
	}
	if (gj->gj_sec_lines >= JOURNAL_DENIALS_SEC) {
		strlcpy(r->jr_host, "*", sizeof(r->jr_host));
		r->jr_port = 0;
	}
	if (gj->gj_last == NULL || !journal_same(gj->gj_last, r))
		return 0;
	if (gj->gj_fold_ev == NULL && (gj->gj_fold_ev = evtimer_new(
	    gk->gk_base, journal_fold_timer, NULL)) == NULL)
		return 0;
	if (gj->gj_repeats++ == 0) {
		gj->gj_repeat_at_ms = r->jr_at_ms;
		evtimer_add(gj->gj_fold_ev, &tv);
	}
	if (gj->gj_repeats == UINT32_MAX)
		journal_fold_flush();
	return 1;
}

void
journal_add(enum gk_listener l, const char *host, size_t hostlen, long port,
    const char *decision)
{
	struct gk_journal	*gj = &gk->gk_journal;
	struct journal_record	 r;
	struct timespec		 ts;
	int			 deny = strncmp(decision, "deny", 4) == 0;

	memset(&r, 0, sizeof(r));
	clock_gettime(CLOCK_REALTIME, &ts);
	r.jr_at_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	r.jr_listener = (uint8_t)l;
	r.jr_port = (port < 0 || port > 65535) ? 0 : (int32_t)port;
	r.jr_count = 1;
	journal_copy(r.jr_host, GK_JOURNAL_HOST_MAX, host, hostlen);
	journal_copy(r.jr_decision, GK_JOURNAL_DECISION_MAX, decision,
	    strlen(decision));
	if (deny && journal_fold(&r))
		return;
	journal_fold_flush();
	journal_put(&r);
	if (!deny) {
		free(gj->gj_last);
		gj->gj_last = NULL;
		return;
	}
	gj->gj_sec_lines++;
	if (gj->gj_last == NULL &&
	    (gj->gj_last = malloc(sizeof(*gj->gj_last))) == NULL)
		return;
	*gj->gj_last = r;
}

/*
 * A record that could not be kept would go unseen: past half of the
 * stdout buffer, or with its reader gone, new corridor connections are
 * refused instead (gk_conn_admit), and that refusal is journalled.
 */
int
journal_can_keep(void)
{
	struct gk_journal	*gj = &gk->gk_journal;

	if (gj->gj_out_failed)
		return 0;
	return gj->gj_out == NULL ||
	    evbuffer_get_length(gj->gj_out) < JOURNAL_OUT_CLOSED;
}

void
journal_add_limited(enum gk_listener l, const char *host, size_t hostlen,
    long port, const char *decision)
{
	struct gk_journal	*gj = &gk->gk_journal;
	struct timespec		 ts;
	int			 kind, li = (int)l;

	kind = strcmp(decision, "deny:too-many-connections") == 0 ? 0 : 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* Five hundred notes would erase everything else the ring holds. */
	if (gj->gj_limited_seen[li][kind] &&
	    ts.tv_sec - gj->gj_limited_last[li][kind] < 60)
		return;
	gj->gj_limited_seen[li][kind] = 1;
	gj->gj_limited_last[li][kind] = ts.tv_sec;
	journal_add(l, host, hostlen, port, decision);
}

/*
 * {"records":[...],"dropped":N,"unwritten":M}: dropped counts records
 * the ring let go and lines stdout never took; unwritten is the stdout
 * part.  NULL on allocation failure.
 */
char *
journal_dump(void)
{
	struct gk_journal	*gj = &gk->gk_journal;
	json_t			*top, *arr, *rec;
	size_t			 i, first;
	char			*s;

	journal_fold_flush();
	if ((top = json_object()) == NULL)
		return NULL;
	if ((arr = json_array()) == NULL) {
		json_decref(top);
		return NULL;
	}
	json_object_set_new(top, "records", arr);
	first = (gj->gj_next + GK_JOURNAL_RING - gj->gj_count) %
	    GK_JOURNAL_RING;
	for (i = 0; i < gj->gj_count; i++) {
		rec = journal_record_json(
		    &gj->gj_ring[(first + i) % GK_JOURNAL_RING]);
		if (rec == NULL || json_array_append_new(arr, rec) == -1) {
			json_decref(top);
			return NULL;
		}
	}
	json_object_set_new(top, "dropped",
	    json_integer((json_int_t)gj->gj_dropped));
	json_object_set_new(top, "unwritten",
	    json_integer((json_int_t)gj->gj_unwritten));
	s = json_dumps(top, JSON_COMPACT);
	json_decref(top);
	return s;
}
