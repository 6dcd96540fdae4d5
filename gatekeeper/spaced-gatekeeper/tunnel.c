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
#include <sys/queue.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "log.h"
#include "gatekeeper.h"

/*
 * The byte pump of an established tunnel, on the two sockets themselves:
 * each read is spliced through a pipe to the other side at once, so the
 * bytes never cross into this process, and only what the other side
 * would not take yet stays in the pipe (at most one pipe's worth per
 * direction, while its source is not read).  An idle tunnel holds no
 * buffer.  Torn down the way TCP means it: an EOF on one side becomes
 * shutdown(SHUT_WR) on the other once what is kept for it has gone out.
 * The place is free once the client closed (its EOF) or either side
 * died; what is left drains uncounted, at most GK_CLOSING_MAX tunnels.
 */

struct tunnel_side {
	int		 ts_fd;
	struct event	*ts_read;
	struct event	*ts_write;
	char		*ts_pend;	/* bufferevent leftovers, written first */
	size_t		 ts_pendlen;
	size_t		 ts_pendoff;
	int		 ts_pipe[2];	/* the bytes on their way here */
	size_t		 ts_piped;	/* how many sit in ts_pipe */
	int		 ts_eof;	/* it sent us EOF */
	int		 ts_shut;	/* we shut its writing */
	int		 ts_shut_wanted; /* once ts_pend is out */
};

struct tunnel {
	TAILQ_ENTRY(tunnel)	 tn_entry;	/* while closing */
	struct tunnel_side	 tn_side[2];	/* 0 the client, 1 upstream */
	struct event		*tn_timer;	/* idle, then linger */
	time_t			 tn_last;	/* last byte, monotonic */
	int			 tn_lingering;	/* one side is gone */
	int			 tn_closing;	/* in gk_closing */
	void			(*tn_done)(void *);
	void			*tn_arg;
};

#define TUNNEL_SPLICE	(SPLICE_F_MOVE | SPLICE_F_NONBLOCK)

static time_t
tunnel_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static void
tunnel_release(struct tunnel *tn)
{
	void	(*done)(void *) = tn->tn_done;

	/* The place is free from here on, whatever still lingers. */
	tn->tn_done = NULL;
	if (done != NULL)
		done(tn->tn_arg);
}

static void
tunnel_side_close(struct tunnel_side *ts)
{
	if (ts->ts_read != NULL)
		event_free(ts->ts_read);
	if (ts->ts_write != NULL)
		event_free(ts->ts_write);
	ts->ts_read = ts->ts_write = NULL;
	if (ts->ts_fd != -1)
		close(ts->ts_fd);
	ts->ts_fd = -1;
	free(ts->ts_pend);
	ts->ts_pend = NULL;
	ts->ts_pendlen = ts->ts_pendoff = 0;
	if (ts->ts_pipe[0] != -1)
		close(ts->ts_pipe[0]);
	if (ts->ts_pipe[1] != -1)
		close(ts->ts_pipe[1]);
	ts->ts_pipe[0] = ts->ts_pipe[1] = -1;
	ts->ts_piped = 0;
}

/* Bytes kept for side ts: leftovers, then what sits in its pipe. */
static size_t
tunnel_kept(const struct tunnel_side *ts)
{
	return ts->ts_pendlen - ts->ts_pendoff + ts->ts_piped;
}

static void
tunnel_free(struct tunnel *tn)
{
	if (tn->tn_closing) {
		TAILQ_REMOVE(&gk->gk_closing, tn, tn_entry);
		gk->gk_nclosing--;
	}
	tunnel_side_close(&tn->tn_side[0]);
	tunnel_side_close(&tn->tn_side[1]);
	if (tn->tn_timer != NULL)
		event_free(tn->tn_timer);
	tunnel_release(tn);
	free(tn);
}

static void
tunnel_check_done(struct tunnel *tn)
{
	if (tn->tn_side[0].ts_eof && tn->tn_side[1].ts_eof &&
	    tn->tn_side[0].ts_shut && tn->tn_side[1].ts_shut)
		tunnel_free(tn);
}

/*
 * Side i is dead: the place is free now; the other side writes out what
 * it holds, within GK_LINGER_SEC, and goes.
 */
static void
tunnel_death(struct tunnel *tn, int i)
{
	struct tunnel_side	*other = &tn->tn_side[!i];
	struct timeval		 tv = { GK_LINGER_SEC, 0 };

	tunnel_side_close(&tn->tn_side[i]);
	if (tn->tn_lingering || other->ts_fd == -1 ||
	    tunnel_kept(other) == 0) {
		tunnel_free(tn);
		return;
	}
	tunnel_release(tn);
	tn->tn_lingering = 1;
	if (other->ts_read != NULL)
		event_del(other->ts_read);
	evtimer_add(tn->tn_timer, &tv);
}

static int
tunnel_would_block(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

/* Nothing is kept for side i any more. */
static void
tunnel_flushed(struct tunnel *tn, int i)
{
	struct tunnel_side	*ts = &tn->tn_side[i];

	free(ts->ts_pend);
	ts->ts_pend = NULL;
	ts->ts_pendlen = ts->ts_pendoff = 0;
	event_del(ts->ts_write);
	if (tn->tn_lingering) {
		tunnel_free(tn);
		return;
	}
	if (ts->ts_shut_wanted && !ts->ts_shut) {
		shutdown(ts->ts_fd, SHUT_WR);
		ts->ts_shut = 1;
		tunnel_check_done(tn);
		return;
	}
	/* Its source may be read again. */
	if (!tn->tn_side[!i].ts_eof)
		event_add(tn->tn_side[!i].ts_read, NULL);
}

/* Side i would not take what is kept for it: its source waits. */
static void
tunnel_wait(struct tunnel *tn, int i)
{
	event_add(tn->tn_side[i].ts_write, NULL);
	event_del(tn->tn_side[!i].ts_read);
}

/*
 * Write out what is kept for side i, leftovers first.  Returns 1 when
 * all of it is out, 0 when side i would take no more, -1 when it died.
 */
static int
tunnel_push(struct tunnel_side *ts)
{
	ssize_t	 w;

	while (ts->ts_pendoff < ts->ts_pendlen) {
		w = send(ts->ts_fd, ts->ts_pend + ts->ts_pendoff,
		    ts->ts_pendlen - ts->ts_pendoff, MSG_NOSIGNAL);
		if (w == -1)
			return tunnel_would_block(errno) ? 0 : -1;
		ts->ts_pendoff += (size_t)w;
	}
	while (ts->ts_piped > 0) {
		w = splice(ts->ts_pipe[0], NULL, ts->ts_fd, NULL,
		    ts->ts_piped, TUNNEL_SPLICE);
		if (w == -1)
			return tunnel_would_block(errno) ? 0 : -1;
		/* An empty pipe with a count left would be our bug. */
		if (w == 0)
			return -1;
		ts->ts_piped -= (size_t)w;
	}
	return 1;
}

static void
tunnel_on_write(evutil_socket_t fd, short ev, void *arg)
{
	struct tunnel		*tn = arg;
	int			 i = fd == tn->tn_side[0].ts_fd ? 0 : 1;

	switch (tunnel_push(&tn->tn_side[i])) {
	case -1:
		tunnel_death(tn, i);
		break;
	case 1:
		tunnel_flushed(tn, i);
		break;
	}
}

/*
 * The client closed: its place and slot are free for the next tunnel
 * while this one tears down, or a client closing one tunnel after the
 * other meets the cap.  A half-closed client still gets its answer,
 * unless GK_CLOSING_MAX more closed after it.
 */
static void
tunnel_closing(struct tunnel *tn)
{
	if (tn->tn_closing)
		return;
	tn->tn_closing = 1;
	TAILQ_INSERT_TAIL(&gk->gk_closing, tn, tn_entry);
	tunnel_release(tn);
	if (++gk->gk_nclosing > GK_CLOSING_MAX)
		tunnel_free(TAILQ_FIRST(&gk->gk_closing));
}

/* Side i ended: pass the close on once what is kept for the other is out. */
static void
tunnel_on_eof(struct tunnel *tn, int i)
{
	struct tunnel_side	*other = &tn->tn_side[!i];

	if (i == 0)
		tunnel_closing(tn);
	tn->tn_side[i].ts_eof = 1;
	event_del(tn->tn_side[i].ts_read);
	if (tunnel_kept(other) > 0) {
		other->ts_shut_wanted = 1;
		return;
	}
	if (!other->ts_shut) {
		shutdown(other->ts_fd, SHUT_WR);
		other->ts_shut = 1;
	}
	tunnel_check_done(tn);
}

static void
tunnel_on_read(evutil_socket_t fd, short ev, void *arg)
{
	struct tunnel		*tn = arg;
	int			 i = fd == tn->tn_side[0].ts_fd ? 0 : 1;
	struct tunnel_side	*other = &tn->tn_side[!i];
	ssize_t			 n;

	/* Reading is on only while nothing is kept for the other side. */
	n = splice(fd, NULL, other->ts_pipe[1], NULL, GK_PUMP_CHUNK,
	    TUNNEL_SPLICE);
	if (n == -1) {
		if (!tunnel_would_block(errno))
			tunnel_death(tn, i);
		return;
	}
	if (n == 0) {
		tunnel_on_eof(tn, i);
		return;
	}
	tn->tn_last = tunnel_now();
	other->ts_piped += (size_t)n;
	switch (tunnel_push(other)) {
	case -1:
		tunnel_death(tn, !i);
		break;
	case 0:
		tunnel_wait(tn, !i);
		break;
	}
}

static void
tunnel_on_timer(evutil_socket_t fd, short ev, void *arg)
{
	struct tunnel	*tn = arg;
	time_t		 quiet = tunnel_now() - tn->tn_last;
	struct timeval	 tv = { 0, 0 };

	if (tn->tn_lingering || quiet >= GK_TUNNEL_IDLE_SEC) {
		tunnel_free(tn);
		return;
	}
	tv.tv_sec = GK_TUNNEL_IDLE_SEC - quiet;
	evtimer_add(tn->tn_timer, &tv);
}

/*
 * Take the socket of a bufferevent, with what it had read (for the
 * other side) and what it had still to write (for itself).
 */
static int
tunnel_take(struct tunnel_side *ts, struct evbuffer *from)
{
	size_t	 n = evbuffer_get_length(from);
	char	*q;

	if (n == 0)
		return 0;
	if ((q = realloc(ts->ts_pend, ts->ts_pendlen + n)) == NULL)
		return -1;
	ts->ts_pend = q;
	if (evbuffer_remove(from, q + ts->ts_pendlen, n) != (int)n)
		return -1;
	ts->ts_pendlen += n;
	return 0;
}

/*
 * Take the socket of a bufferevent, with what it had read (for the
 * other side) and what it had still to write (for itself).  The
 * bufferevent is gone afterwards, whatever the result.
 */
static int
tunnel_adopt(struct tunnel *tn, int i, struct bufferevent *bev)
{
	struct tunnel_side *ts = &tn->tn_side[i], *other = &tn->tn_side[!i];
	int		 r = 0;

	ts->ts_fd = bufferevent_getfd(bev);
	bufferevent_disable(bev, EV_READ | EV_WRITE);
	if (pipe2(ts->ts_pipe, O_NONBLOCK | O_CLOEXEC) == -1) {
		log_warn("tunnel pipe");
		ts->ts_pipe[0] = ts->ts_pipe[1] = -1;
		r = -1;
	}
	/* Only the bufferevent drains its output; now we do. */
	evbuffer_unfreeze(bufferevent_get_output(bev), 1);
	if (tunnel_take(ts, bufferevent_get_output(bev)) == -1 ||
	    tunnel_take(other, bufferevent_get_input(bev)) == -1)
		r = -1;
	/* The bufferevent goes; the socket stays ours. */
	bufferevent_setfd(bev, -1);
	bufferevent_free(bev);
	ts->ts_read = event_new(gk->gk_base, ts->ts_fd, EV_READ | EV_PERSIST,
	    tunnel_on_read, tn);
	ts->ts_write = event_new(gk->gk_base, ts->ts_fd,
	    EV_WRITE | EV_PERSIST, tunnel_on_write, tn);
	if (ts->ts_read == NULL || ts->ts_write == NULL)
		r = -1;
	return r;
}

/*
 * Takes both bufferevents (gone afterwards, also on failure, which is
 * NULL); done(arg) runs once when the place is free.
 */
struct tunnel *
tunnel_start(struct bufferevent *client, struct bufferevent *upstream,
    int client_eof, void (*done)(void *), void *arg)
{
	struct tunnel	*tn;
	struct timeval	 tv = { GK_TUNNEL_IDLE_SEC, 0 };
	int		 i, r;

	if ((tn = calloc(1, sizeof(*tn))) == NULL)
		return NULL;
	for (i = 0; i < 2; i++) {
		tn->tn_side[i].ts_fd = -1;
		tn->tn_side[i].ts_pipe[0] = tn->tn_side[i].ts_pipe[1] = -1;
	}
	r = tunnel_adopt(tn, 0, client);
	if (tunnel_adopt(tn, 1, upstream) == -1 || r == -1 ||
	    (tn->tn_timer = evtimer_new(gk->gk_base, tunnel_on_timer, tn)) ==
	    NULL) {
		/* Both bufferevents are gone: the sockets go with the tunnel. */
		tunnel_free(tn);
		return NULL;
	}
	tn->tn_done = done;
	tn->tn_arg = arg;
	tn->tn_last = tunnel_now();
	evtimer_add(tn->tn_timer, &tv);
	/* Side i is written to while it has bytes kept, else !i is read. */
	for (i = 0; i < 2; i++) {
		if (tn->tn_side[i].ts_pendlen > 0)
			event_add(tn->tn_side[i].ts_write, NULL);
		else if (!(i == 1 && client_eof))
			event_add(tn->tn_side[!i].ts_read, NULL);
	}
	/* A client that half-closed before the tunnel existed. */
	if (client_eof)
		tunnel_on_eof(tn, 0);
	return tn;
}
