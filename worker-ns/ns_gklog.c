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
 * A native gatekeeper's stdout (its journal lines): a pipe spaced-ns
 * copies unread into gk.log, turned over at the Docker place's cap into
 * gk.log.1 to .4 (five files of 10 MiB, as its json-file driver keeps),
 * at a line's end.  Its stderr likewise into gk.err, with a smaller cap;
 * and the space relay's stderr into relay.err, each line after the time
 * spaced-ns read it, as the engine stamps a container's log (lines read
 * together a second apart: ns_stamp_next).
 */

#include <sys/queue.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "ns.h"

#define GKL_PIPE_SIZE	(1 << 20)	/* a burst never stalls the gatekeeper */
#define GKL_CHUNK	65536
#define GKL_MARKS	64	/* seconds of writing since's cursor knows */

/*
 * The first write of a second s: every byte before off (a line's start)
 * was copied before s, so a collection since s may begin at off.
 */
struct gkl_mark {
	time_t			 sec;
	off_t			 off;
};

struct gkl {
	TAILQ_ENTRY(gkl)	 entry;
	char			 id[SPACE_ID_SIZE];
	const char		*leaf;		/* gk.log, gk.err, relay.err */
	int			 stamp;		/* each line after its time */
	int			 mid_line;	/* the last byte was no newline */
	off_t			 max;		/* a file's cap */
	int			 files;		/* kept, the live one counted */
	int			 rfd;
	int			 out;
	off_t			 size;
	off_t			 line_end;	/* after gk.log's last newline */
	dev_t			 dev;		/* gk.log's, for the marks */
	ino_t			 ino;
	struct gkl_mark		 marks[GKL_MARKS];
	size_t			 nmarks;	/* a ring: the oldest at first */
	size_t			 first;
	time_t			 floor;		/* bytes before the marks: by then */
	struct timespec		 last;		/* the last line's stamp */
	struct event		 ev;
};
static TAILQ_HEAD(, gkl)	 gkls = TAILQ_HEAD_INITIALIZER(gkls);
static const char		 gk_log[] = "gk.log";
static const char		 gk_err[] = "gk.err";
static const char		 relay_err[] = "relay.err";
static struct event_base	*gkl_base;

void
ns_gklog_base(struct event_base *base)
{
	gkl_base = base;
}

static int
gkl_open(struct gkl *g)
{
	char		 path[PATH_MAX];
	struct stat	 st;

	if (ns_path(path, sizeof(path), g->id, g->leaf) == -1 ||
	    (g->out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) == -1)
		return -1;
	memset(&st, 0, sizeof(st));
	(void)fstat(g->out, &st);
	g->size = g->line_end = st.st_size;
	g->dev = st.st_dev;
	g->ino = st.st_ino;
	/* What a run before this one wrote: at its last change at latest. */
	g->floor = st.st_size > 0 ? st.st_mtim.tv_sec : 0;
	g->nmarks = g->first = 0;
	return 0;
}

/* gk.log becomes gk.log.1, and so on; the oldest is dropped. */
static void
gkl_rotate(struct gkl *g)
{
	char	 from[PATH_MAX], to[PATH_MAX], leaf[24];
	int	 i;

	if (g->out != -1)
		close(g->out);
	g->out = -1;
	snprintf(leaf, sizeof(leaf), "%s.%d", g->leaf, g->files - 1);
	if (ns_path(to, sizeof(to), g->id, leaf) == -1)
		return;
	(void)unlink(to);
	for (i = g->files - 2; i >= 0; i--) {
		if (i == 0)
			strlcpy(leaf, g->leaf, sizeof(leaf));
		else
			snprintf(leaf, sizeof(leaf), "%s.%d", g->leaf, i);
		if (ns_path(from, sizeof(from), g->id, leaf) == -1)
			return;
		(void)rename(from, to);
		strlcpy(to, from, sizeof(to));
	}
	if (gkl_open(g) == -1)
		log_warn("space %s: %s", g->id, g->leaf);
}

static void
gkl_free(struct gkl *g)
{
	event_del(&g->ev);
	TAILQ_REMOVE(&gkls, g, entry);
	close(g->rfd);
	if (g->out != -1)
		close(g->out);
	free(g);
}

/* A mark at the first write of each second; the ring drops the oldest. */
static void
gkl_mark(struct gkl *g)
{
	struct gkl_mark	*m;
	time_t		 now = time(NULL);

	if (g->nmarks > 0 && g->marks[(g->first + g->nmarks - 1) %
	    GKL_MARKS].sec == now)
		return;
	if (g->nmarks == GKL_MARKS) {
		if (g->marks[g->first].sec > g->floor)
			g->floor = g->marks[g->first].sec;
		g->first = (g->first + 1) % GKL_MARKS;
		g->nmarks--;
	}
	m = &g->marks[(g->first + g->nmarks++) % GKL_MARKS];
	m->sec = now;
	m->off = g->line_end;
}

/*
 * The time of a line that after more lines of the same read follow: the
 * read's time less a second for each, and at least a second after the
 * line before (last), which is at least the pipe's birth.  The relay's
 * restarts come a second apart at least (the keeper's least backoff)
 * and spaced-journal keeps one a second, so lines read together, after
 * spaced-ns was slow to read, all count; the relay's bytes are the
 * space's, and a flood of them still counts no more than one a second
 * of the pipe's life, as lines read one by one: never past the read's
 * time, a line that finds no free second is stamped then, a repeat
 * the journal drops.  Pure (unit/spaced-ns).
 */
void
ns_stamp_next(struct timespec *last, const struct timespec *now,
    size_t after, struct timespec *ts)
{
	struct timespec	 t = *now;

	t.tv_sec -= (time_t)after;
	if (t.tv_sec < last->tv_sec + 1 || (t.tv_sec == last->tv_sec + 1 &&
	    t.tv_nsec < last->tv_nsec)) {
		t = *last;
		t.tv_sec++;
	}
	if (t.tv_sec > now->tv_sec || (t.tv_sec == now->tv_sec &&
	    t.tv_nsec > now->tv_nsec))
		t = *now;
	*ts = t;
	if (t.tv_sec > last->tv_sec || (t.tv_sec == last->tv_sec &&
	    t.tv_nsec > last->tv_nsec))
		*last = t;
}

/* The engine's stamp of a log line, "2026-12-06T10:11:02.123456789Z ". */
static void
gkl_stamp(const struct timespec *ts, char *buf, size_t len)
{
	struct tm	 tm;
	char		 sec[24];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%09ldZ ", sec, ts->tv_nsec);
}

/* Bytes up to and with each newline, a stamp before each line's first. */
static ssize_t
gkl_put_stamped(struct gkl *g, const char *buf, size_t n)
{
	struct iovec	 iov[2];
	struct timespec	 now, ts;
	char		 stamp[40];
	const char	*nl;
	size_t		 off, len, starts;
	ssize_t		 w, total = 0;

	/* The lines that begin in this read. */
	starts = !g->mid_line;
	for (off = 0; off + 1 < n; off++)
		if (buf[off] == '\n')
			starts++;
	clock_gettime(CLOCK_REALTIME, &now);
	for (off = 0; off < n; off += len) {
		nl = memchr(buf + off, '\n', n - off);
		len = nl != NULL ? (size_t)(nl - buf) + 1 - off : n - off;
		iov[0].iov_base = stamp;
		iov[0].iov_len = 0;
		if (!g->mid_line) {
			ns_stamp_next(&g->last, &now, --starts, &ts);
			gkl_stamp(&ts, stamp, sizeof(stamp));
			iov[0].iov_len = strlen(stamp);
		}
		iov[1].iov_base = (void *)(uintptr_t)(buf + off);
		iov[1].iov_len = len;
		if ((w = writev(g->out, iov, 2)) !=
		    (ssize_t)(iov[0].iov_len + len))
			return w > 0 ? total + w : -1;
		g->mid_line = nl == NULL;
		total += w;
		if (nl != NULL)
			g->line_end = g->size + total;
	}
	return total;
}

static void
gkl_put(struct gkl *g, const char *buf, size_t n)
{
	const char	*nl;
	ssize_t		 w;

	if (g->out == -1 || n == 0)
		return;
	gkl_mark(g);
	if (g->stamp) {
		if ((w = gkl_put_stamped(g, buf, n)) > 0)
			g->size += w;
		return;
	}
	if ((w = write(g->out, buf, n)) <= 0)
		return;
	if ((nl = memrchr(buf, '\n', w)) != NULL)
		g->line_end = g->size + (nl - buf) + 1;
	g->size += w;
}

/*
 * Where a collection since since may begin in the gk.log of dev and ino
 * that a running gatekeeper writes: the start of the first line copied
 * at since or later (before it, every line was there earlier); -1 when
 * it cannot be known, and the whole file is sent.
 */
off_t
ns_gklog_since(const char *id, dev_t dev, ino_t ino, uint32_t since)
{
	struct gkl	*g;
	size_t		 i;

	TAILQ_FOREACH(g, &gkls, entry)
		if (strcmp(g->id, id) == 0 && g->out != -1 && g->leaf != gk_err &&
		    g->dev == dev && g->ino == ino)
			break;
	if (g == NULL || since == 0 || g->floor >= (time_t)since)
		return -1;
	for (i = 0; i < g->nmarks; i++)
		if (g->marks[(g->first + i) % GKL_MARKS].sec >= (time_t)since)
			return g->marks[(g->first + i) % GKL_MARKS].off;
	return g->line_end;	/* nothing copied since then */
}

/*
 * Past the cap, turned over after the chunk's last line end, so that
 * every file holds whole lines (no line end at all: before the chunk).
 * A file never passes the cap by more than a chunk.
 */
static void
gkl_write(struct gkl *g, const char *buf, size_t n)
{
	const char	*nl;
	size_t		 head;

	if (g->size + (off_t)n <= g->max) {
		gkl_put(g, buf, n);
		return;
	}
	head = (nl = memrchr(buf, '\n', n)) != NULL ? nl - buf + 1 : 0;
	gkl_put(g, buf, head);
	gkl_rotate(g);
	gkl_put(g, buf + head, n - head);
}

/*
 * Copies what the pipe holds; at EOF (the gatekeeper ended) lets go of
 * g and says 1.
 */
static int
gkl_drain(struct gkl *g)
{
	static char	 buf[GKL_CHUNK];
	ssize_t		 n;

	for (;;) {
		if ((n = read(g->rfd, buf, sizeof(buf))) == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
		}
		if (n <= 0) {
			gkl_free(g);
			return 1;
		}
		gkl_write(g, buf, n);
	}
}

static void
gkl_read(int fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	(void)gkl_drain(arg);
}

/*
 * The write end of a pipe into leaf for a new gatekeeper of id, owned
 * by the gatekeeper's uid; -1 when none can be made.  What the last one
 * of id left in its pipe is copied first.
 */
static int
gkl_new(const char *id, uid_t owner, const char *leaf, off_t max, int files)
{
	struct gkl	*g, *next;
	int		 p[2];

	TAILQ_FOREACH_SAFE(g, &gkls, entry, next)
		if (strcmp(g->id, id) == 0 && g->leaf == leaf &&
		    gkl_drain(g) == 0)
			gkl_free(g);
	if (gkl_base == NULL || (g = calloc(1, sizeof(*g))) == NULL)
		return -1;
	strlcpy(g->id, id, sizeof(g->id));
	g->leaf = leaf;
	g->stamp = leaf == relay_err;
	/* No line is stamped before the pipe was made. */
	clock_gettime(CLOCK_REALTIME, &g->last);
	g->last.tv_sec--;
	g->max = max;
	g->files = files;
	g->out = -1;
	if (pipe2(p, O_CLOEXEC) == -1) {
		free(g);
		return -1;
	}
	(void)fcntl(p[0], F_SETPIPE_SZ, GKL_PIPE_SIZE);
	/* Its own: it reopens /proc/self/fd/1 to make it non-blocking. */
	if (fchown(p[1], owner, owner) == -1)
		log_warn("space %s: the pipe into %s", id, leaf);
	g->rfd = p[0];
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) == -1 || gkl_open(g) == -1) {
		close(p[0]);
		close(p[1]);
		if (g->out != -1)
			close(g->out);
		free(g);
		return -1;
	}
	/* Over the cap since the last run: turned over before it writes. */
	if (g->size >= g->max)
		gkl_rotate(g);
	event_set(&g->ev, g->rfd, EV_READ | EV_PERSIST, gkl_read, g);
	event_base_set(gkl_base, &g->ev);
	event_add(&g->ev, NULL);
	TAILQ_INSERT_TAIL(&gkls, g, entry);
	return p[1];
}

/* The gatekeeper's stdout: its journal lines, at the Docker place's cap. */
int
ns_gklog_open(const char *id, uid_t owner)
{
	return gkl_new(id, owner, gk_log, NS_GK_LOG_MAX, NS_GK_LOG_FILES);
}

/*
 * Its stderr (its own warnings), capped as well: spaced's log, which it
 * was, would take whatever a gatekeeper gone wrong wrote.
 */
int
ns_gkerr_open(const char *id, uid_t owner)
{
	return gkl_new(id, owner, gk_err, NS_GK_ERR_MAX, NS_GK_ERR_FILES);
}

/*
 * The space relay's stderr, its restart lines: a pipe of spaced-ns's
 * (root's, 0600: no /proc link to it opens for the space's user), read
 * with the time each line came, as the engine stamps a container's.
 */
int
ns_relayerr_open(const char *id)
{
	return gkl_new(id, (uid_t)-1, relay_err, NS_RELAY_ERR_MAX,
	    NS_RELAY_ERR_FILES);
}
