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
#include <netinet/in.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/util.h>

#include "log.h"
#include "gatekeeper.h"
#include "gk_http.h"

/*
 * What the three listeners share: error names for the journal, the
 * lookup wrapper, the own-address test and letting refused clients go.
 */

const char *
gk_errname(int err)
{
	const char	*s;

	if (err == 0)
		err = ECONNRESET;
	s = strerrorname_np(err);
	return s != NULL ? s : "EIO";
}

const char *
gk_eai_name(int err)
{
	switch (err) {
	case EVUTIL_EAI_NONAME:
		return "ENOTFOUND";
	case EVUTIL_EAI_AGAIN:
		return "EAI_AGAIN";
	case EVUTIL_EAI_FAIL:
		return "EAI_FAIL";
	case EVUTIL_EAI_NODATA:
		return "ENODATA";
	case EVUTIL_EAI_MEMORY:
		return "EAI_MEMORY";
	case EVUTIL_EAI_FAMILY:
		return "EAI_FAMILY";
	default:
		return "EAI_FAIL";
	}
}

void
gk_conn_closed(enum gk_listener l)
{
	if (gk->gk_conns[l] > 0)
		gk->gk_conns[l]--;
}

/*
 * The start all three listeners share.  gk_conn_admit: -1 when the
 * listener is at its cap (the drop is journalled, fd closed).
 * gk_conn_setup: a bufferevent on fd reading at most one head, and the
 * head timer, both for conn; counted and armed.  -1 when either cannot
 * be made: fd is closed and nothing is held (the caller frees conn).
 */
int
gk_conn_admit(enum gk_listener l, evutil_socket_t fd)
{
	if (l == GK_CORRIDOR && !journal_can_keep()) {
		/* Counted as repeats: one line a second, however many. */
		journal_add(l, "", 0, 0, "deny:journal-unavailable");
		close(fd);
		return -1;
	}
	if (gk->gk_conns[l] < gk->gk_caps[l])
		return 0;
	journal_add_limited(l, "", 0, 0, "deny:too-many-connections");
	close(fd);
	return -1;
}

int
gk_conn_setup(enum gk_listener l, evutil_socket_t fd, void *conn,
    event_callback_fn on_timer, bufferevent_data_cb on_read,
    bufferevent_event_cb on_event, struct bufferevent **bevp,
    struct event **timerp)
{
	struct timeval		 tv = { GK_HEAD_TIMEOUT_SEC, 0 };
	struct bufferevent	*bev;
	struct event		*timer;

	bev = bufferevent_socket_new(gk->gk_base, fd, BEV_OPT_CLOSE_ON_FREE);
	timer = evtimer_new(gk->gk_base, on_timer, conn);
	if (bev == NULL || timer == NULL) {
		if (bev != NULL)
			bufferevent_free(bev);
		else
			close(fd);
		if (timer != NULL)
			event_free(timer);
		return -1;
	}
	*bevp = bev;
	*timerp = timer;
	gk->gk_conns[l]++;
	/* The head fits in 16 KiB; nothing more is read before it is read. */
	bufferevent_setwatermark(bev, EV_READ, 0, GK_HTTP_HEAD_MAX);
	bufferevent_setcb(bev, on_read, NULL, on_event, conn);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	evtimer_add(timer, &tv);
	return 0;
}

/* Loopback, unspecified, or one of our interface addresses. */
static int
gk_addr_is_own(const struct sockaddr *sa)
{
	const struct sockaddr_in	*sin;
	const struct sockaddr_in6	*sin6;
	struct sockaddr_in		 v4;
	size_t				 i;

	if (sa->sa_family == AF_INET6) {
		sin6 = (const struct sockaddr_in6 *)sa;
		if (IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr) ||
		    IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr))
			return 1;
		if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
			memset(&v4, 0, sizeof(v4));
			v4.sin_family = AF_INET;
			memcpy(&v4.sin_addr, &sin6->sin6_addr.s6_addr[12], 4);
			return gk_addr_is_own((struct sockaddr *)&v4);
		}
		for (i = 0; i < gk->gk_nown; i++) {
			const struct sockaddr_in6 *o =
			    (const struct sockaddr_in6 *)&gk->gk_own[i];
			if (o->sin6_family == AF_INET6 &&
			    memcmp(&o->sin6_addr, &sin6->sin6_addr, 16) == 0)
				return 1;
		}
		return 0;
	}
	if (sa->sa_family != AF_INET)
		return 0;
	sin = (const struct sockaddr_in *)sa;
	/* 127/8 and 0/8 both reach this host. */
	if ((ntohl(sin->sin_addr.s_addr) >> 24) == 127 ||
	    (ntohl(sin->sin_addr.s_addr) >> 24) == 0)
		return 1;
	for (i = 0; i < gk->gk_nown; i++) {
		const struct sockaddr_in *o =
		    (const struct sockaddr_in *)&gk->gk_own[i];
		if (o->sin_family == AF_INET &&
		    o->sin_addr.s_addr == sin->sin_addr.s_addr)
			return 1;
	}
	return 0;
}

int
gk_is_own(const struct sockaddr *sa, uint16_t port)
{
	if (port != gk->gk_ports[GK_CORRIDOR] &&
	    port != gk->gk_ports[GK_WINDOW] &&
	    port != gk->gk_ports[GK_CONTROL])
		return 0;
	return gk_addr_is_own(sa);
}

/*
 * evdns_getaddrinfo() answers a numeric host or an /etc/hosts entry
 * before it returns; the callers want one shape, so such an answer is
 * delivered from the loop instead.
 */
struct gk_lookup {
	struct evdns_getaddrinfo_request *lk_req;
	void			(*lk_cb)(int, struct evutil_addrinfo *, void *);
	void			*lk_arg;
	int			 lk_starting;
	int			 lk_cancelled;
	int			 lk_err;
	struct evutil_addrinfo	*lk_res;
	struct event		*lk_later;
};

static void
gk_lookup_deliver(evutil_socket_t fd, short ev, void *arg)
{
	struct gk_lookup	*lk = arg;

	event_free(lk->lk_later);
	lk->lk_cb(lk->lk_err, lk->lk_res, lk->lk_arg);
	free(lk);
}

static void
gk_lookup_done(int err, struct evutil_addrinfo *res, void *arg)
{
	struct gk_lookup	*lk = arg;

	lk->lk_req = NULL;
	if (lk->lk_cancelled || err == EVUTIL_EAI_CANCEL) {
		if (res != NULL)
			evutil_freeaddrinfo(res);
		if (lk->lk_cancelled)
			free(lk);
		return;
	}
	lk->lk_err = err;
	lk->lk_res = res;
	if (lk->lk_starting) {
		lk->lk_later = evtimer_new(gk->gk_base, gk_lookup_deliver, lk);
		if (lk->lk_later == NULL)
			fatalx("lookup: out of memory");
		event_active(lk->lk_later, EV_TIMEOUT, 1);
		return;
	}
	lk->lk_cb(err, res, lk->lk_arg);
	free(lk);
}

struct gk_lookup *
gk_lookup_start(const char *name,
    void (*cb)(int, struct evutil_addrinfo *, void *), void *arg)
{
	struct gk_lookup	*lk;
	struct evutil_addrinfo	 hints;

	if ((lk = calloc(1, sizeof(*lk))) == NULL)
		return NULL;
	lk->lk_cb = cb;
	lk->lk_arg = arg;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	lk->lk_starting = 1;
	lk->lk_req = evdns_getaddrinfo(gk->gk_dns, name, NULL, &hints,
	    gk_lookup_done, lk);
	lk->lk_starting = 0;
	return lk;
}

void
gk_lookup_cancel(struct gk_lookup *lk)
{
	if (lk->lk_later != NULL) {
		/* Answered already, waiting in the loop. */
		event_free(lk->lk_later);
		if (lk->lk_res != NULL)
			evutil_freeaddrinfo(lk->lk_res);
		free(lk);
		return;
	}
	lk->lk_cancelled = 1;
	if (lk->lk_req != NULL)
		evdns_getaddrinfo_cancel(lk->lk_req);
	else
		free(lk);
}

/*
 * A refused client is let go, not merely answered: its input is drained
 * and it is closed when it ends, because closing with unread bytes sends
 * a reset that can throw away the answer.  At most GK_DRAIN_MAX are
 * waited on; past that the oldest goes, which costs it only the reason.
 */
struct gk_drain {
	TAILQ_ENTRY(gk_drain)	 dr_entry;
	struct bufferevent	*dr_bev;
	enum gk_listener	 dr_listener;
	int			 dr_eof;
};

static void
gk_drain_close(struct gk_drain *dr)
{
	TAILQ_REMOVE(&gk->gk_drains, dr, dr_entry);
	gk->gk_ndrains--;
	bufferevent_free(dr->dr_bev);
	gk_conn_closed(dr->dr_listener);
	free(dr);
}

static void
gk_drain_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer	*in = bufferevent_get_input(bev);

	evbuffer_drain(in, evbuffer_get_length(in));
}

static void
gk_drain_write(struct bufferevent *bev, void *arg)
{
	struct gk_drain	*dr = arg;

	if (dr->dr_eof) {
		gk_drain_close(dr);
		return;
	}
	/*
	 * The answer is out: a FIN says nothing else comes on this
	 * connection.  A client that would send its next request on it
	 * (OpenCode's fetch does, after the window's 403) waited for an
	 * answer the drain never gives; the drain goes on, so no RST.
	 */
	(void)shutdown(bufferevent_getfd(bev), SHUT_WR);
}

static void
gk_drain_event(struct bufferevent *bev, short what, void *arg)
{
	struct gk_drain	*dr = arg;

	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR) &&
	    evbuffer_get_length(bufferevent_get_output(bev)) > 0) {
		/* The client is done sending; let the answer go out. */
		dr->dr_eof = 1;
		bufferevent_disable(bev, EV_READ);
		return;
	}
	gk_drain_close(dr);
}

void
gk_refuse(struct bufferevent *bev, const char *answer, size_t len,
    enum gk_listener l)
{
	struct gk_drain	*dr;
	struct timeval	 tv = { GK_HEAD_TIMEOUT_SEC, 0 };

	if (gk->gk_ndrains >= GK_DRAIN_MAX)
		gk_drain_close(TAILQ_FIRST(&gk->gk_drains));
	if ((dr = calloc(1, sizeof(*dr))) == NULL) {
		bufferevent_free(bev);
		gk_conn_closed(l);
		return;
	}
	dr->dr_bev = bev;
	dr->dr_listener = l;
	TAILQ_INSERT_TAIL(&gk->gk_drains, dr, dr_entry);
	gk->gk_ndrains++;
	evbuffer_drain(bufferevent_get_input(bev),
	    evbuffer_get_length(bufferevent_get_input(bev)));
	/* An answer nobody reads does not hold its place forever. */
	bufferevent_set_timeouts(bev, NULL, &tv);
	bufferevent_setwatermark(bev, EV_READ, 0, 0);
	bufferevent_setwatermark(bev, EV_WRITE, 0, 0);
	bufferevent_setcb(bev, gk_drain_read, gk_drain_write, gk_drain_event,
	    dr);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	bufferevent_write(bev, answer, len);
}
