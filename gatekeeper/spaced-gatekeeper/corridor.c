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
#include <strings.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/util.h>

#include "log.h"
#include "gatekeeper.h"
#include "gk_http.h"

/*
 * The corridor: an HTTP CONNECT proxy that takes names, never addresses,
 * refuses by rule before any lookup and by resolved address after it,
 * and connects to the very address it checked.  Why it refused goes to
 * the journal only; the space sees one 403 whatever the rule.
 */

#define REFUSED_403 "HTTP/1.1 403 Forbidden\r\n" \
	"x-gatekeeper-reason: refused\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define REFUSED_400 "HTTP/1.1 400 Bad Request\r\n" \
	"x-gatekeeper-reason: refused\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define REFUSED_503 "HTTP/1.1 503 Service Unavailable\r\n" \
	"x-gatekeeper-reason: refused\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define UNREACHABLE_502 "HTTP/1.1 502 Bad Gateway\r\n" \
	"x-gatekeeper-reason: unreachable\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define ESTABLISHED "HTTP/1.1 200 Connection Established\r\n\r\n"

enum corridor_state {
	CC_HEAD = 0,
	CC_RESOLVING,
	CC_CONNECTING
};

struct corridor_conn {
	TAILQ_ENTRY(corridor_conn) cc_entry;	/* while an orphan */
	struct bufferevent	*cc_client;
	struct bufferevent	*cc_up;
	struct event		*cc_timer;	/* head, then connect timeout */
	struct gk_lookup	*cc_lookup;
	enum corridor_state	 cc_state;
	int			 cc_place;	/* holds a tunnel place */
	int			 cc_client_eof;	/* half-closed while we worked */
	int			 cc_orphan;	/* uncounted, in gk_orphans */
	char			 cc_name[GK_NAME_MAX + 1];
};

/*
 * Clients that half-closed while their name was resolved or their
 * connect was pending.  They hold no place and no connection slot, so
 * walking away holds nothing; they still get their answer when the
 * attempt ends.  At most GK_DRAIN_MAX: past that the oldest goes.
 */

static void	corridor_read(struct bufferevent *, void *);
static void	corridor_client_event(struct bufferevent *, short, void *);
static void	corridor_up_event(struct bufferevent *, short, void *);

static void
corridor_release_place(struct corridor_conn *cc)
{
	if (cc->cc_place) {
		cc->cc_place = 0;
		gk->gk_tunnels--;
	}
}

static void
corridor_unorphan(struct corridor_conn *cc)
{
	if (cc->cc_orphan) {
		TAILQ_REMOVE(&gk->gk_orphans, cc, cc_entry);
		gk->gk_norphans--;
		cc->cc_orphan = 0;
	}
}

/* Everything but the client's socket; the caller decides about that. */
static void
corridor_free(struct corridor_conn *cc)
{
	corridor_unorphan(cc);
	if (cc->cc_lookup != NULL)
		gk_lookup_cancel(cc->cc_lookup);
	if (cc->cc_up != NULL)
		bufferevent_free(cc->cc_up);
	event_free(cc->cc_timer);
	corridor_release_place(cc);
	free(cc);
}

/* Nothing is in flight yet: both sockets go at once. */
static void
corridor_close(struct corridor_conn *cc)
{
	int	 counted = !cc->cc_orphan;

	bufferevent_free(cc->cc_client);
	corridor_free(cc);
	if (counted)
		gk_conn_closed(GK_CORRIDOR);
}

static void
corridor_answer(struct corridor_conn *cc, const char *answer, size_t len)
{
	struct bufferevent	*client = cc->cc_client;

	/* The drain counts it again while it lasts, and uncounts it. */
	if (cc->cc_orphan)
		gk->gk_conns[GK_CORRIDOR]++;
	corridor_free(cc);
	gk_refuse(client, answer, len, GK_CORRIDOR);
}

static void
corridor_refuse(struct corridor_conn *cc, enum gk_refusal r)
{
	if (r == GK_DENY_MALFORMED)
		corridor_answer(cc, REFUSED_400, sizeof(REFUSED_400) - 1);
	else
		corridor_answer(cc, REFUSED_403, sizeof(REFUSED_403) - 1);
}

static long
corridor_port_num(const char *p, size_t n)
{
	long	 v = 0;
	size_t	 i;

	if (n == 0 || n > 5)
		return 0;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* host[:port] or [v6][:port] for the journal, never trusted for routing. */
static void
corridor_authority(const char *a, size_t n, const char **host,
    size_t *hostlen, long *port)
{
	const char	*colon, *rb;

	*host = a;
	*hostlen = n;
	if (n > 0 && a[0] == '[' && (rb = memchr(a, ']', n)) != NULL) {
		*hostlen = rb + 1 - a;
		if ((size_t)(rb + 1 - a) < n && rb[1] == ':')
			*port = corridor_port_num(rb + 2, n - (rb + 2 - a));
		return;
	}
	if ((colon = memrchr(a, ':', n)) != NULL &&
	    memchr(a, ':', n) == colon) {
		*hostlen = colon - a;
		*port = corridor_port_num(colon + 1, n - (colon + 1 - a));
	}
}

/* A plain proxy request: the destination host, never the path. */
static void
corridor_not_connect(struct corridor_conn *cc, const struct gk_http_head *h)
{
	const struct gk_http_field	*f;
	const char			*t = h->hh_target, *a, *e, *at;
	size_t				 n = h->hh_targetlen, hostlen = 0;
	const char			*host = "";
	long				 port = 80;

	if (n > 7 && strncasecmp(t, "http://", 7) == 0)
		a = t + 7;
	else if (n > 8 && strncasecmp(t, "https://", 8) == 0) {
		a = t + 8;
		port = 443;
	} else
		a = NULL;
	if (a != NULL) {
		for (e = a; e < t + n && *e != '/' && *e != '?' && *e != '#';
		    e++)
			;
		if ((at = memrchr(a, '@', e - a)) != NULL)
			a = at + 1;
		corridor_authority(a, e - a, &host, &hostlen, &port);
	} else if ((f = gk_http_field_get(h, "host")) != NULL)
		corridor_authority(f->hf_value, f->hf_valuelen, &host,
		    &hostlen, &port);
	journal_add(GK_CORRIDOR, host, hostlen, port, "deny:not-connect");
	corridor_answer(cc, REFUSED_403, sizeof(REFUSED_403) - 1);
}

static void
corridor_connect_timeout(evutil_socket_t fd, short ev, void *arg)
{
	struct corridor_conn	*cc = arg;

	if (cc->cc_state == CC_RESOLVING) {
		journal_add(GK_CORRIDOR, cc->cc_name, strlen(cc->cc_name),
		    GK_CORRIDOR_PORT, "deny:unresolved:EAI_AGAIN");
		corridor_refuse(cc, GK_DENY_NOT_A_NAME);
		return;
	}
	journal_add(GK_CORRIDOR, cc->cc_name, strlen(cc->cc_name),
	    GK_CORRIDOR_PORT, "failed:ETIMEDOUT");
	corridor_answer(cc, UNREACHABLE_502, sizeof(UNREACHABLE_502) - 1);
}

static void
corridor_resolved(int err, struct evutil_addrinfo *res, void *arg)
{
	struct corridor_conn	*cc = arg;
	struct sockaddr_storage	 answers[GK_ANSWERS_MAX];
	socklen_t		 lens[GK_ANSWERS_MAX];
	struct evutil_addrinfo	*ai;
	size_t			 n = 0, chosen = 0;
	enum gk_refusal		 r;
	char			 decision[GK_JOURNAL_DECISION_MAX + 1];
	size_t			 namelen = strlen(cc->cc_name);

	cc->cc_lookup = NULL;
	if (err != 0) {
		snprintf(decision, sizeof(decision), "deny:unresolved:%s",
		    gk_eai_name(err));
		journal_add(GK_CORRIDOR, cc->cc_name, namelen,
		    GK_CORRIDOR_PORT, decision);
		corridor_refuse(cc, GK_DENY_NOT_A_NAME);
		return;
	}
	for (ai = res; ai != NULL && n < GK_ANSWERS_MAX; ai = ai->ai_next) {
		if ((ai->ai_family != AF_INET && ai->ai_family != AF_INET6) ||
		    ai->ai_addrlen > sizeof(answers[0]))
			continue;
		memset(&answers[n], 0, sizeof(answers[n]));
		memcpy(&answers[n], ai->ai_addr, ai->ai_addrlen);
		lens[n] = ai->ai_addrlen;
		n++;
	}
	evutil_freeaddrinfo(res);

	r = gk_choose_address(answers, n, &chosen);
	if (r == GK_DENY_MALFORMED) {
		journal_add(GK_CORRIDOR, cc->cc_name, namelen,
		    GK_CORRIDOR_PORT, "deny:unresolved:ENODATA");
		corridor_refuse(cc, GK_DENY_NOT_A_NAME);
		return;
	}
	if (r != GK_ALLOW) {
		journal_add(GK_CORRIDOR, cc->cc_name, namelen,
		    GK_CORRIDOR_PORT, gk_refusal_str(r));
		corridor_refuse(cc, r);
		return;
	}
	journal_add(GK_CORRIDOR, cc->cc_name, namelen, GK_CORRIDOR_PORT,
	    "allow");

	if (answers[chosen].ss_family == AF_INET)
		((struct sockaddr_in *)&answers[chosen])->sin_port =
		    htons(GK_CORRIDOR_PORT);
	else
		((struct sockaddr_in6 *)&answers[chosen])->sin6_port =
		    htons(GK_CORRIDOR_PORT);
	cc->cc_up = bufferevent_socket_new(gk->gk_base, -1,
	    BEV_OPT_CLOSE_ON_FREE);
	if (cc->cc_up == NULL) {
		journal_add(GK_CORRIDOR, cc->cc_name, namelen,
		    GK_CORRIDOR_PORT, "failed:ENOMEM");
		corridor_answer(cc, UNREACHABLE_502,
		    sizeof(UNREACHABLE_502) - 1);
		return;
	}
	bufferevent_setcb(cc->cc_up, NULL, NULL, corridor_up_event, cc);
	cc->cc_state = CC_CONNECTING;
	/*
	 * The connection goes to the address checked above: no second
	 * lookup.  A failure here has already run corridor_up_event.
	 */
	(void)bufferevent_socket_connect(cc->cc_up,
	    (struct sockaddr *)&answers[chosen], lens[chosen]);
}

static void
corridor_tunnel_done(void *arg)
{
	gk->gk_tunnels--;
	gk_conn_closed(GK_CORRIDOR);
}

static void
corridor_up_event(struct bufferevent *bev, short what, void *arg)
{
	struct corridor_conn	*cc = arg;
	struct bufferevent	*client = cc->cc_client, *up = cc->cc_up;
	int			 err = EVUTIL_SOCKET_ERROR(), eof;
	char			 decision[GK_JOURNAL_DECISION_MAX + 1];

	if (what & BEV_EVENT_CONNECTED) {
		/*
		 * The tunnel takes both sockets and the place; an orphan
		 * gave its places up already and starts closing.
		 */
		cc->cc_up = NULL;
		cc->cc_place = 0;
		eof = cc->cc_client_eof;
		corridor_free(cc);
		bufferevent_write(client, ESTABLISHED, sizeof(ESTABLISHED) - 1);
		if (tunnel_start(client, up, eof, eof ? NULL :
		    corridor_tunnel_done, NULL) == NULL && !eof)
			corridor_tunnel_done(NULL);
		return;
	}
	snprintf(decision, sizeof(decision), "failed:%s", gk_errname(err));
	journal_add(GK_CORRIDOR, cc->cc_name, strlen(cc->cc_name),
	    GK_CORRIDOR_PORT, decision);
	corridor_answer(cc, UNREACHABLE_502, sizeof(UNREACHABLE_502) - 1);
}

static void
corridor_connect(struct corridor_conn *cc, const struct gk_http_head *h)
{
	enum gk_refusal	 r;
	const char	*host;
	size_t		 hostlen;
	long		 port = 0;
	struct timeval	 tv = { GK_CONNECT_TIMEOUT_SEC, 0 };

	corridor_authority(h->hh_target, h->hh_targetlen, &host, &hostlen,
	    &port);
	r = gk_refuse_target(h->hh_target, h->hh_targetlen, gk->gk_mode,
	    &gk->gk_allow, cc->cc_name, sizeof(cc->cc_name));
	if (r != GK_ALLOW) {
		journal_add(GK_CORRIDOR, host, hostlen, port,
		    gk_refusal_str(r));
		corridor_refuse(cc, r);
		return;
	}
	if (gk->gk_tunnels >= GK_TUNNEL_CAP) {
		journal_add(GK_CORRIDOR, cc->cc_name, strlen(cc->cc_name),
		    GK_CORRIDOR_PORT, "deny:too-many-tunnels");
		corridor_answer(cc, REFUSED_503, sizeof(REFUSED_503) - 1);
		return;
	}
	gk->gk_tunnels++;
	cc->cc_place = 1;
	cc->cc_state = CC_RESOLVING;
	evbuffer_drain(bufferevent_get_input(cc->cc_client), h->hh_headlen);
	evtimer_add(cc->cc_timer, &tv);
	/* Only a name every rule above took is ever looked up. */
	cc->cc_lookup = gk_lookup_start(cc->cc_name, corridor_resolved, cc);
	if (cc->cc_lookup == NULL) {
		journal_add(GK_CORRIDOR, cc->cc_name, strlen(cc->cc_name),
		    GK_CORRIDOR_PORT, "deny:unresolved:EAI_MEMORY");
		corridor_refuse(cc, GK_DENY_NOT_A_NAME);
	}
}

static void
corridor_read(struct bufferevent *bev, void *arg)
{
	static struct gk_http_head corridor_head;	/* one at a time */
	struct corridor_conn	*cc = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	size_t			 len = evbuffer_get_length(in);
	const char		*p;

	if (cc->cc_state != CC_HEAD)
		return;	/* tunnel bytes wait in the buffer */
	if (len > GK_HTTP_HEAD_MAX)
		len = GK_HTTP_HEAD_MAX;
	if ((p = (const char *)evbuffer_pullup(in, len)) == NULL) {
		corridor_close(cc);
		return;
	}
	switch (gk_http_parse(p, len, &corridor_head)) {
	case GK_HTTP_NEED_MORE:
		return;
	case GK_HTTP_MALFORMED:
		journal_add_limited(GK_CORRIDOR, "", 0, 0,
		    "deny:unreadable-request");
		corridor_answer(cc, REFUSED_400, sizeof(REFUSED_400) - 1);
		return;
	case GK_HTTP_COMPLETE:
		break;
	}
	event_del(cc->cc_timer);
	if (!gk_http_method_is(&corridor_head, "CONNECT"))
		corridor_not_connect(cc, &corridor_head);
	else
		corridor_connect(cc, &corridor_head);
}

static void
corridor_client_event(struct bufferevent *bev, short what, void *arg)
{
	struct corridor_conn	*cc = arg;

	/*
	 * A half-close while the name resolves or the connect is pending
	 * frees its tunnel place and its connection slot at once, so
	 * walking away holds nothing; the attempt still ends with its
	 * answer (an orphan, see above).  A reset or an error is a client
	 * gone: everything goes now, the lookup cancelled.
	 */
	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR) &&
	    cc->cc_state != CC_HEAD && !cc->cc_orphan) {
		cc->cc_client_eof = 1;
		corridor_release_place(cc);
		gk_conn_closed(GK_CORRIDOR);
		cc->cc_orphan = 1;
		TAILQ_INSERT_TAIL(&gk->gk_orphans, cc, cc_entry);
		if (++gk->gk_norphans > GK_DRAIN_MAX)
			corridor_close(TAILQ_FIRST(&gk->gk_orphans));
		return;
	}
	corridor_close(cc);
}

static void
corridor_head_timeout(evutil_socket_t fd, short ev, void *arg)
{
	struct corridor_conn	*cc = arg;

	if (cc->cc_state == CC_HEAD)
		corridor_close(cc);
	else
		corridor_connect_timeout(fd, ev, arg);
}

void
corridor_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct corridor_conn	*cc;

	if (gk_conn_admit(GK_CORRIDOR, fd) == -1)
		return;
	if ((cc = calloc(1, sizeof(*cc))) == NULL) {
		close(fd);
		return;
	}
	if (gk_conn_setup(GK_CORRIDOR, fd, cc, corridor_head_timeout, corridor_read,
	    corridor_client_event, &cc->cc_client, &cc->cc_timer) == -1)
		free(cc);
}
