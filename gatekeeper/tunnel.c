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

#include <sys/socket.h>

#include <stdlib.h>
#include <time.h>

#include <event2/buffer.h>

#include "log.h"
#include "gatekeeper.h"

/*
 * The byte pump of an established tunnel, torn down the way TCP means
 * it: an EOF on one side becomes shutdown(SHUT_WR) on the other once
 * what is buffered for it has gone out, and a death (error, reset) frees
 * the place at once while the survivor flushes what it holds and goes.
 * Reading a side stops while the other still has GK_PUMP_HIGH to send.
 */

struct tunnel {
	struct bufferevent	*tn_side[2];
	int			 tn_eof[2];	/* side i sent us EOF */
	int			 tn_shut[2];	/* we shut side i's writing */
	struct event		*tn_idle;
	time_t			 tn_last;	/* last byte, monotonic */
	void			(*tn_done)(void *);
	void			*tn_arg;
};

static void	tunnel_read(struct bufferevent *, void *);
static void	tunnel_write(struct bufferevent *, void *);
static void	tunnel_event(struct bufferevent *, short, void *);
static void	tunnel_linger_write(struct bufferevent *, void *);
static void	tunnel_linger_event(struct bufferevent *, short, void *);

static time_t
tunnel_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int
tunnel_index(struct tunnel *tn, struct bufferevent *bev)
{
	return bev == tn->tn_side[0] ? 0 : 1;
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
tunnel_free(struct tunnel *tn)
{
	int	 i;

	for (i = 0; i < 2; i++)
		if (tn->tn_side[i] != NULL)
			bufferevent_free(tn->tn_side[i]);
	event_free(tn->tn_idle);
	tunnel_release(tn);
	free(tn);
}

/* A survivor writes out what it holds, then closes; bounded in time. */
static void
tunnel_linger(struct bufferevent *bev)
{
	struct timeval	 tv = { GK_LINGER_SEC, 0 };

	bufferevent_disable(bev, EV_READ);
	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
		bufferevent_free(bev);
		return;
	}
	bufferevent_setwatermark(bev, EV_WRITE, 0, 0);
	bufferevent_set_timeouts(bev, NULL, &tv);
	bufferevent_setcb(bev, NULL, tunnel_linger_write, tunnel_linger_event,
	    NULL);
}

static void
tunnel_linger_write(struct bufferevent *bev, void *arg)
{
	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		bufferevent_free(bev);
}

static void
tunnel_linger_event(struct bufferevent *bev, short what, void *arg)
{
	bufferevent_free(bev);
}

static void
tunnel_check_done(struct tunnel *tn)
{
	if (tn->tn_eof[0] && tn->tn_eof[1] && tn->tn_shut[0] && tn->tn_shut[1])
		tunnel_free(tn);
}

/* Side i ended: pass the close on to the other once its output is out. */
static void
tunnel_pass_close(struct tunnel *tn, int i)
{
	struct bufferevent	*other = tn->tn_side[!i];

	if (tn->tn_shut[!i])
		return;
	if (evbuffer_get_length(bufferevent_get_output(other)) > 0) {
		/* Tell us when it is empty, not merely low. */
		bufferevent_setwatermark(other, EV_WRITE, 0, 0);
		return;
	}
	shutdown(bufferevent_getfd(other), SHUT_WR);
	tn->tn_shut[!i] = 1;
}

static void
tunnel_read(struct bufferevent *bev, void *arg)
{
	struct tunnel		*tn = arg;
	int			 i = tunnel_index(tn, bev);
	struct bufferevent	*other = tn->tn_side[!i];
	struct evbuffer		*out = bufferevent_get_output(other);

	tn->tn_last = tunnel_now();
	evbuffer_add_buffer(out, bufferevent_get_input(bev));
	if (evbuffer_get_length(out) >= GK_PUMP_HIGH)
		bufferevent_disable(bev, EV_READ);
}

static void
tunnel_write(struct bufferevent *bev, void *arg)
{
	struct tunnel	*tn = arg;
	int		 i = tunnel_index(tn, bev);

	/* bev's output drained: the side feeding it may read again. */
	if (!tn->tn_eof[!i])
		bufferevent_enable(tn->tn_side[!i], EV_READ);
	else if (!tn->tn_shut[i] &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
		shutdown(bufferevent_getfd(bev), SHUT_WR);
		tn->tn_shut[i] = 1;
		tunnel_check_done(tn);
	}
}

static void
tunnel_event(struct bufferevent *bev, short what, void *arg)
{
	struct tunnel		*tn = arg;
	int			 i = tunnel_index(tn, bev);
	struct bufferevent	*other = tn->tn_side[!i];

	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR)) {
		/* Whatever it sent before the EOF goes on first. */
		tunnel_read(bev, tn);
		tn->tn_eof[i] = 1;
		bufferevent_disable(bev, EV_READ);
		tunnel_pass_close(tn, i);
		tunnel_check_done(tn);
		return;
	}
	/* A death is not a close: free the place now. */
	if (what & BEV_EVENT_READING)
		tunnel_read(bev, tn);
	bufferevent_free(bev);
	tn->tn_side[i] = NULL;
	tn->tn_side[!i] = NULL;
	tunnel_linger(other);
	event_free(tn->tn_idle);
	tunnel_release(tn);
	free(tn);
}

static void
tunnel_idle(evutil_socket_t fd, short ev, void *arg)
{
	struct tunnel	*tn = arg;
	time_t		 quiet = tunnel_now() - tn->tn_last;
	struct timeval	 tv = { 0, 0 };

	if (quiet >= GK_TUNNEL_IDLE_SEC) {
		tunnel_free(tn);
		return;
	}
	tv.tv_sec = GK_TUNNEL_IDLE_SEC - quiet;
	evtimer_add(tn->tn_idle, &tv);
}

struct tunnel *
tunnel_start(struct bufferevent *client, struct bufferevent *upstream,
    int client_eof, void (*done)(void *), void *arg)
{
	struct tunnel	*tn;
	struct timeval	 tv = { GK_TUNNEL_IDLE_SEC, 0 };
	int		 i;

	if ((tn = calloc(1, sizeof(*tn))) == NULL)
		return NULL;
	if ((tn->tn_idle = evtimer_new(gk->gk_base, tunnel_idle, tn)) == NULL) {
		free(tn);
		return NULL;
	}
	tn->tn_side[0] = client;
	tn->tn_side[1] = upstream;
	tn->tn_done = done;
	tn->tn_arg = arg;
	tn->tn_last = tunnel_now();
	evtimer_add(tn->tn_idle, &tv);
	for (i = 0; i < 2; i++) {
		bufferevent_set_timeouts(tn->tn_side[i], NULL, NULL);
		/* Fewer, larger system calls; the watermark still bounds it. */
		bufferevent_set_max_single_read(tn->tn_side[i], GK_PUMP_CHUNK);
		bufferevent_set_max_single_write(tn->tn_side[i], GK_PUMP_CHUNK);
		bufferevent_setwatermark(tn->tn_side[i], EV_READ, 0, 0);
		bufferevent_setwatermark(tn->tn_side[i], EV_WRITE,
		    GK_PUMP_HIGH / 2, 0);
		bufferevent_setcb(tn->tn_side[i], tunnel_read, tunnel_write,
		    tunnel_event, tn);
		bufferevent_enable(tn->tn_side[i], EV_READ | EV_WRITE);
	}
	/* Bytes the client sent behind its CONNECT go first. */
	if (evbuffer_get_length(bufferevent_get_input(client)) > 0)
		tunnel_read(client, tn);
	/* A client that half-closed before the tunnel existed. */
	if (client_eof) {
		tn->tn_eof[0] = 1;
		bufferevent_disable(client, EV_READ);
		tunnel_pass_close(tn, 0);
	}
	return tn;
}
