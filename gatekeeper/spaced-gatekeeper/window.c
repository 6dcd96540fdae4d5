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
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent_ssl.h>
#include <event2/util.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

#include "log.h"
#include "gatekeeper.h"
#include "gk_http.h"

/*
 * The window: a reverse proxy for services whose secret must not enter
 * the space.  /model/<grant id>/<rest> goes to the grant's upstream with
 * the grant's header set and the client's credentials removed.  One
 * request per connection: "Connection: close" both ways, and the answer
 * streams back as bytes.  The deadline is silence from the upstream.
 */

#define W_REFUSED_403 "HTTP/1.1 403 Forbidden\r\n" \
	"x-gatekeeper-reason: refused\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define W_REFUSED_400 "HTTP/1.1 400 Bad Request\r\n" \
	"x-gatekeeper-reason: refused\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define W_REFUSED_503 "HTTP/1.1 503 Service Unavailable\r\n" \
	"x-gatekeeper-reason: refused\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define W_UNREACHABLE_502 "HTTP/1.1 502 Bad Gateway\r\n" \
	"x-gatekeeper-reason: unreachable\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"
#define W_TIMEOUT_504 "HTTP/1.1 504 Gateway Timeout\r\n" \
	"x-gatekeeper-reason: timeout\r\ncontent-length: 0\r\n" \
	"connection: close\r\n\r\n"

enum window_state {
	WC_HEAD = 0,
	WC_RESOLVING,
	WC_CONNECTING,
	WC_STREAMING
};

struct window_conn {
	struct bufferevent	*wc_client;
	struct bufferevent	*wc_up;
	struct event		*wc_timer;	/* head timeout, then deadline */
	struct gk_lookup	*wc_lookup;
	struct evbuffer		*wc_request;	/* the head we send upstream */
	enum window_state	 wc_state;
	int			 wc_out;	/* holds a socket-out place */
	int			 wc_answered;	/* bytes went to the client */
	int			 wc_tls;
	char			*wc_host;	/* the grant's upstream host */
	long			 wc_port;
	enum gk_body_kind	 wc_body;
	uint64_t		 wc_left;	/* of a Content-Length body */
	int			 wc_body_done;
	int			 wc_client_eof;	/* half-closed before streaming */
	int			 wc_raw;	/* past the final answer's head */
	struct gk_chunk		 wc_chunk;
};

static void	window_client_read(struct bufferevent *, void *);
static void	window_client_write(struct bufferevent *, void *);
static void	window_client_event(struct bufferevent *, short, void *);
static void	window_up_read(struct bufferevent *, void *);
static void	window_up_write(struct bufferevent *, void *);
static void	window_up_event(struct bufferevent *, short, void *);

static const char *const window_dropped[] = {
	"authorization", "x-api-key", "proxy-authorization", "host",
	"connection", "keep-alive", "proxy-connection", "upgrade", "te",
	NULL
};

static void
window_free(struct window_conn *wc)
{
	if (wc->wc_lookup != NULL)
		gk_lookup_cancel(wc->wc_lookup);
	if (wc->wc_up != NULL)
		bufferevent_free(wc->wc_up);
	if (wc->wc_out)
		gk->gk_window_out--;
	if (wc->wc_request != NULL)
		evbuffer_free(wc->wc_request);
	event_free(wc->wc_timer);
	free(wc->wc_host);
	free(wc);
}

static void
window_close(struct window_conn *wc)
{
	bufferevent_free(wc->wc_client);
	window_free(wc);
	gk_conn_closed(GK_WINDOW);
}

static void
window_answer(struct window_conn *wc, const char *answer, size_t len)
{
	struct bufferevent	*client = wc->wc_client;

	window_free(wc);
	gk_refuse(client, answer, len, GK_WINDOW);
}

static void
window_journal(struct window_conn *wc, const char *decision)
{
	journal_add(GK_WINDOW, wc->wc_host, strlen(wc->wc_host), wc->wc_port,
	    decision);
}

/* The client keeps what it has been sent; then it goes. */
static void
window_finish_write(struct bufferevent *bev, void *arg)
{
	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
		bufferevent_free(bev);
		gk_conn_closed(GK_WINDOW);
	}
}

static void
window_finish_event(struct bufferevent *bev, short what, void *arg)
{
	bufferevent_free(bev);
	gk_conn_closed(GK_WINDOW);
}

static void
window_finish(struct window_conn *wc)
{
	struct bufferevent	*client = wc->wc_client;
	struct timeval		 tv = { GK_LINGER_SEC, 0 };

	window_free(wc);
	if (evbuffer_get_length(bufferevent_get_output(client)) == 0) {
		bufferevent_free(client);
		gk_conn_closed(GK_WINDOW);
		return;
	}
	bufferevent_disable(client, EV_READ);
	bufferevent_setwatermark(client, EV_WRITE, 0, 0);
	bufferevent_set_timeouts(client, NULL, &tv);
	bufferevent_setcb(client, NULL, window_finish_write,
	    window_finish_event, NULL);
}

/* An upstream that failed: 502 while nothing was sent, else just close. */
static void
window_failed(struct window_conn *wc, const char *code, const char *answer,
    size_t len)
{
	char	 decision[GK_JOURNAL_DECISION_MAX + 1];

	snprintf(decision, sizeof(decision), "failed:%s", code);
	window_journal(wc, decision);
	if (wc->wc_answered)
		window_finish(wc);
	else
		window_answer(wc, answer, len);
}

static struct gk_grant *
window_grant(const char *id)
{
	struct gk_grant	*gr;

	TAILQ_FOREACH(gr, &gk->gk_grants, gr_entry)
		if (strcmp(gr->gr_id, id) == 0)
			return gr;
	return NULL;
}

static int
window_dropped_field(const struct gk_http_field *f, const struct gk_grant *gr)
{
	size_t	 i;

	for (i = 0; window_dropped[i] != NULL; i++)
		if (gk_http_field_is(f, window_dropped[i]))
			return 1;
	return gk_http_field_is(f, gr->gr_header);
}

/* The head the upstream gets; the secret is in it and nowhere else. */
static struct evbuffer *
window_build_request(const struct gk_http_head *h, const struct gk_grant *gr,
    const char *rest, size_t restlen)
{
	struct evbuffer			*b;
	const struct gk_http_field	*f;
	size_t				 i, plen = strlen(gr->gr_path);
	int				 v6, dflt;

	if ((b = evbuffer_new()) == NULL)
		return NULL;
	evbuffer_add(b, h->hh_method, h->hh_methodlen);
	evbuffer_add(b, " ", 1);
	if (plen == 0)
		evbuffer_add(b, "/", 1);
	else {
		evbuffer_add(b, gr->gr_path, plen);
		if (gr->gr_path[plen - 1] != '/' && restlen > 0)
			evbuffer_add(b, "/", 1);
	}
	evbuffer_add(b, rest, restlen);
	v6 = strchr(gr->gr_host, ':') != NULL;
	dflt = strcmp(gr->gr_port, gr->gr_tls ? "443" : "80") == 0;
	evbuffer_add_printf(b, " HTTP/1.1\r\nHost: %s%s%s%s%s\r\n",
	    v6 ? "[" : "", gr->gr_host, v6 ? "]" : "", dflt ? "" : ":",
	    dflt ? "" : gr->gr_port);
	for (i = 0; i < h->hh_nfields; i++) {
		f = &h->hh_fields[i];
		if (window_dropped_field(f, gr))
			continue;
		evbuffer_add(b, f->hf_name, f->hf_namelen);
		evbuffer_add(b, ": ", 2);
		evbuffer_add(b, f->hf_value, f->hf_valuelen);
		evbuffer_add(b, "\r\n", 2);
	}
	evbuffer_add_printf(b, "%s: ", gr->gr_header);
	evbuffer_add(b, gr->gr_secret, gr->gr_secretlen);
	evbuffer_add(b, "\r\nConnection: close\r\n\r\n", 23);
	return b;
}

/* Move what belongs to the request body upstream; the rest is dropped. */
static int
window_pump_body(struct window_conn *wc)
{
	struct evbuffer		*in = bufferevent_get_input(wc->wc_client);
	struct evbuffer		*out = bufferevent_get_output(wc->wc_up);
	struct evbuffer_iovec	 v[8];
	size_t			 len = evbuffer_get_length(in), take = 0, used;
	int			 n, i;
	enum gk_http_status	 st = GK_HTTP_NEED_MORE;

	if (wc->wc_body_done) {
		evbuffer_drain(in, len);
		return 0;
	}
	switch (wc->wc_body) {
	case GK_BODY_NONE:
		wc->wc_body_done = 1;
		evbuffer_drain(in, len);
		return 0;
	case GK_BODY_LENGTH:
		take = len < wc->wc_left ? len : (size_t)wc->wc_left;
		wc->wc_left -= take;
		if (wc->wc_left == 0)
			wc->wc_body_done = 1;
		break;
	case GK_BODY_CHUNKED:
		n = evbuffer_peek(in, -1, NULL, v, 8);
		if (n > 8)
			n = 8;
		for (i = 0; i < n && st == GK_HTTP_NEED_MORE; i++) {
			st = gk_chunk_scan(&wc->wc_chunk, v[i].iov_base,
			    v[i].iov_len, &used);
			take += used;
		}
		if (st == GK_HTTP_MALFORMED)
			return -1;
		if (st == GK_HTTP_COMPLETE)
			wc->wc_body_done = 1;
		break;
	}
	evbuffer_remove_buffer(in, out, take);
	if (wc->wc_body_done)
		evbuffer_drain(in, evbuffer_get_length(in));
	if (evbuffer_get_length(out) >= GK_PUMP_HIGH)
		bufferevent_disable(wc->wc_client, EV_READ);
	return 0;
}

static void
window_deadline(evutil_socket_t fd, short ev, void *arg)
{
	struct window_conn	*wc = arg;

	if (wc->wc_state == WC_HEAD) {
		window_close(wc);
		return;
	}
	/* Exactly one record: nothing of this request journals after it. */
	window_failed(wc, "timeout", W_TIMEOUT_504, sizeof(W_TIMEOUT_504) - 1);
}

static void
window_rearm(struct window_conn *wc)
{
	struct timeval	 tv;

	tv.tv_sec = gk->gk_deadline_ms / 1000;
	tv.tv_usec = (gk->gk_deadline_ms % 1000) * 1000;
	evtimer_add(wc->wc_timer, &tv);
}

static const char *
window_tls_code(struct bufferevent *bev)
{
	SSL	*ssl = bufferevent_openssl_get_ssl(bev);
	long	 v;

	if (ssl == NULL)
		return "EPROTO";
	v = SSL_get_verify_result(ssl);
	switch (v) {
	case X509_V_OK:
		return "EPROTO";
	case X509_V_ERR_HOSTNAME_MISMATCH:
	case X509_V_ERR_IP_ADDRESS_MISMATCH:
		return "ERR_TLS_CERT_ALTNAME_INVALID";
	case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
		return "DEPTH_ZERO_SELF_SIGNED_CERT";
	case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
		return "SELF_SIGNED_CERT_IN_CHAIN";
	case X509_V_ERR_CERT_HAS_EXPIRED:
		return "CERT_HAS_EXPIRED";
	case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
		return "UNABLE_TO_GET_ISSUER_CERT_LOCALLY";
	case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
		return "UNABLE_TO_VERIFY_LEAF_SIGNATURE";
	default:
		return "CERT_UNTRUSTED";
	}
}

static void
window_up_event(struct bufferevent *bev, short what, void *arg)
{
	struct window_conn	*wc = arg;
	int			 err = EVUTIL_SOCKET_ERROR();
	unsigned long		 sslerr = 0;

	if (what & BEV_EVENT_CONNECTED) {
		wc->wc_state = WC_STREAMING;
		bufferevent_write_buffer(wc->wc_up, wc->wc_request);
		evbuffer_free(wc->wc_request);
		wc->wc_request = NULL;
		bufferevent_setwatermark(wc->wc_up, EV_WRITE,
		    GK_PUMP_HIGH / 2, 0);
		bufferevent_setwatermark(wc->wc_client, EV_WRITE,
		    GK_PUMP_HIGH / 2, 0);
		bufferevent_setwatermark(wc->wc_client, EV_READ, 0, 0);
		bufferevent_setcb(wc->wc_client, window_client_read,
		    window_client_write, window_client_event, wc);
		bufferevent_enable(wc->wc_up, EV_READ | EV_WRITE);
		if (!wc->wc_client_eof)
			bufferevent_enable(wc->wc_client, EV_READ | EV_WRITE);
		/* A client that half-closed must have sent its whole body. */
		if (window_pump_body(wc) == -1 ||
		    (wc->wc_client_eof && !wc->wc_body_done))
			window_close(wc);
		return;
	}
	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR) &&
	    wc->wc_answered) {
		/* The answer is complete; the client gets all of it. */
		window_up_read(bev, wc);
		window_finish(wc);
		return;
	}
	if (wc->wc_tls) {
		while (bufferevent_get_openssl_error(bev) != 0)
			sslerr = 1;
	}
	if (wc->wc_tls && (sslerr || wc->wc_state == WC_CONNECTING) &&
	    err == 0)
		window_failed(wc, window_tls_code(bev), W_UNREACHABLE_502,
		    sizeof(W_UNREACHABLE_502) - 1);
	else
		window_failed(wc, gk_errname(err), W_UNREACHABLE_502,
		    sizeof(W_UNREACHABLE_502) - 1);
}

/*
 * The answer's head goes to the client with "Connection: close" in place
 * of the upstream's own connection fields: this connection carries one
 * request.  Interim (1xx) heads pass the same way; the rest are bytes.
 * A head that cannot be read passes untouched.
 */
static void
window_answer_heads(struct window_conn *wc, struct evbuffer *in,
    struct evbuffer *out)
{
	static struct gk_http_head	 window_answer_head; /* one at a time */
	struct gk_http_head		*h = &window_answer_head;
	const struct gk_http_field	*f;
	const char			*p, *eol;
	size_t				 len, i;

	while (!wc->wc_raw && (len = evbuffer_get_length(in)) > 0) {
		if (len > GK_HTTP_HEAD_MAX)
			len = GK_HTTP_HEAD_MAX;
		if ((p = (const char *)evbuffer_pullup(in, len)) == NULL)
			return;
		switch (gk_http_parse_response(p, len, h)) {
		case GK_HTTP_NEED_MORE:
			return;
		case GK_HTTP_MALFORMED:
			wc->wc_raw = 1;
			return;
		case GK_HTTP_COMPLETE:
			break;
		}
		eol = memchr(p, '\n', h->hh_headlen);
		evbuffer_add(out, p, eol - p + 1);
		for (i = 0; i < h->hh_nfields; i++) {
			f = &h->hh_fields[i];
			if (gk_http_field_is(f, "connection") ||
			    gk_http_field_is(f, "keep-alive") ||
			    gk_http_field_is(f, "proxy-connection"))
				continue;
			evbuffer_add(out, f->hf_name, f->hf_namelen);
			evbuffer_add(out, ": ", 2);
			evbuffer_add(out, f->hf_value, f->hf_valuelen);
			evbuffer_add(out, "\r\n", 2);
		}
		if (h->hh_status >= 200)
			evbuffer_add(out, "Connection: close\r\n", 19);
		evbuffer_add(out, "\r\n", 2);
		evbuffer_drain(in, h->hh_headlen);
		wc->wc_answered = 1;
		if (h->hh_status >= 200 || h->hh_status == 101)
			wc->wc_raw = 1;
	}
}

static void
window_up_read(struct bufferevent *bev, void *arg)
{
	struct window_conn	*wc = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	struct evbuffer		*out = bufferevent_get_output(wc->wc_client);

	if (evbuffer_get_length(in) == 0)
		return;
	/* Silence is what the deadline measures: any byte resets it. */
	window_rearm(wc);
	window_answer_heads(wc, in, out);
	if (wc->wc_raw && evbuffer_get_length(in) > 0) {
		wc->wc_answered = 1;
		evbuffer_add_buffer(out, in);
	}
	if (evbuffer_get_length(out) >= GK_PUMP_HIGH)
		bufferevent_disable(bev, EV_READ);
}

static void
window_up_write(struct bufferevent *bev, void *arg)
{
	struct window_conn	*wc = arg;

	if (!wc->wc_body_done)
		bufferevent_enable(wc->wc_client, EV_READ);
}

static void
window_client_read(struct bufferevent *bev, void *arg)
{
	struct window_conn	*wc = arg;

	if (wc->wc_state == WC_STREAMING && window_pump_body(wc) == -1)
		window_close(wc);
}

static void
window_client_write(struct bufferevent *bev, void *arg)
{
	struct window_conn	*wc = arg;

	if (wc->wc_up != NULL)
		bufferevent_enable(wc->wc_up, EV_READ);
}

static void
window_client_event(struct bufferevent *bev, short what, void *arg)
{
	struct window_conn	*wc = arg;

	/*
	 * An EOF while the answer streams is a client that went: with one
	 * request per connection nothing else can come, and a client that
	 * closed cannot be told from one that half-closed until a write
	 * fails, which a quiet upstream may never cause.  Its place and the
	 * socket out are freed now.
	 */
	window_close(wc);
}

static void
window_resolved(int err, struct evutil_addrinfo *res, void *arg)
{
	struct window_conn	*wc = arg;
	struct evutil_addrinfo	*ai, *chosen = NULL;
	struct sockaddr_storage	 ss;
	char			 decision[GK_JOURNAL_DECISION_MAX + 1];
	int			 own = 0;
	SSL			*ssl;
	struct in6_addr		 a6;
	struct in_addr		 a4;

	wc->wc_lookup = NULL;
	if (err != 0) {
		snprintf(decision, sizeof(decision), "deny:unresolved:%s",
		    gk_eai_name(err));
		window_journal(wc, decision);
		window_answer(wc, W_REFUSED_403, sizeof(W_REFUSED_403) - 1);
		return;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((ai->ai_family != AF_INET && ai->ai_family != AF_INET6) ||
		    ai->ai_addrlen > sizeof(ss))
			continue;
		if (gk_is_own(ai->ai_addr, (uint16_t)wc->wc_port))
			own = 1;
		/* IPv4 first: the outer network has no IPv6. */
		if (chosen == NULL || (chosen->ai_family != AF_INET &&
		    ai->ai_family == AF_INET))
			chosen = ai;
	}
	if (own || chosen == NULL) {
		evutil_freeaddrinfo(res);
		window_journal(wc, own ? "deny:own-listener" :
		    "deny:unresolved:ENODATA");
		window_answer(wc, W_REFUSED_403, sizeof(W_REFUSED_403) - 1);
		return;
	}
	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, chosen->ai_addr, chosen->ai_addrlen);
	evutil_freeaddrinfo(res);
	if (ss.ss_family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = htons(wc->wc_port);
	else
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(wc->wc_port);
	window_journal(wc, "allow");

	if (wc->wc_tls) {
		if (tls_context() == NULL ||
		    (ssl = SSL_new(tls_context())) == NULL) {
			window_failed(wc, "ENOMEM", W_UNREACHABLE_502,
			    sizeof(W_UNREACHABLE_502) - 1);
			return;
		}
		if (inet_pton(AF_INET, wc->wc_host, &a4) == 1 ||
		    inet_pton(AF_INET6, wc->wc_host, &a6) == 1)
			X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl),
			    wc->wc_host);
		else {
			SSL_set_tlsext_host_name(ssl, wc->wc_host);
			SSL_set1_host(ssl, wc->wc_host);
		}
		wc->wc_up = bufferevent_openssl_socket_new(gk->gk_base, -1,
		    ssl, BUFFEREVENT_SSL_CONNECTING,
		    BEV_OPT_CLOSE_ON_FREE);
		if (wc->wc_up == NULL)
			SSL_free(ssl);
		else
			/* Plenty of servers close without close_notify. */
			bufferevent_openssl_set_allow_dirty_shutdown(wc->wc_up,
			    1);
	} else
		wc->wc_up = bufferevent_socket_new(gk->gk_base, -1,
		    BEV_OPT_CLOSE_ON_FREE);
	if (wc->wc_up == NULL) {
		window_failed(wc, "ENOMEM", W_UNREACHABLE_502,
		    sizeof(W_UNREACHABLE_502) - 1);
		return;
	}
	gk->gk_window_out++;
	wc->wc_out = 1;
	wc->wc_state = WC_CONNECTING;
	bufferevent_setcb(wc->wc_up, window_up_read, window_up_write,
	    window_up_event, wc);
	/*
	 * The address the own-listener check saw.  A failure here has
	 * already run window_up_event.
	 */
	(void)bufferevent_socket_connect(wc->wc_up, (struct sockaddr *)&ss,
	    ss.ss_family == AF_INET ? sizeof(struct sockaddr_in) :
	    sizeof(struct sockaddr_in6));
}

static int
window_always_refused(const char *host)
{
	char	 name[GK_NAME_MAX + 1];

	if (gk_name_normalize(host, strlen(host), name, sizeof(name)) == -1)
		return 0;
	return strcmp(name, GK_ALWAYS_REFUSED) == 0;
}

static void
window_request(struct window_conn *wc, const struct gk_http_head *h)
{
	struct gk_grant	*gr;
	char		 id[GK_GRANT_ID_MAX + 1];
	const char	*rest;
	size_t		 restlen;

	if (gk_window_split(h->hh_target, h->hh_targetlen, id, sizeof(id),
	    &rest, &restlen) == -1 || (gr = window_grant(id)) == NULL) {
		/* The id names what it tried; there is no host to name. */
		if (gk_window_split(h->hh_target, h->hh_targetlen, id,
		    sizeof(id), &rest, &restlen) == -1)
			id[0] = '\0';
		journal_add(GK_WINDOW, id, strlen(id), 0, "deny:no-grant");
		window_answer(wc, W_REFUSED_403, sizeof(W_REFUSED_403) - 1);
		return;
	}
	if ((wc->wc_host = strdup(gr->gr_host)) == NULL) {
		window_close(wc);
		return;
	}
	wc->wc_port = strtol(gr->gr_port, NULL, 10);
	wc->wc_tls = gr->gr_tls;
	if (gk_path_walks_out(rest, restlen)) {
		window_journal(wc, "deny:path-walks-out");
		window_answer(wc, W_REFUSED_403, sizeof(W_REFUSED_403) - 1);
		return;
	}
	if (window_always_refused(gr->gr_host)) {
		window_journal(wc, "deny:always-refused");
		window_answer(wc, W_REFUSED_403, sizeof(W_REFUSED_403) - 1);
		return;
	}
	if (gk_http_body_framing(h, &wc->wc_body, &wc->wc_left) == -1) {
		journal_add_limited(GK_WINDOW, "", 0, 0,
		    "deny:unreadable-request");
		window_answer(wc, W_REFUSED_400, sizeof(W_REFUSED_400) - 1);
		return;
	}
	if (gk->gk_window_out >= GK_WINDOW_OUT_CAP) {
		journal_add_limited(GK_WINDOW, "", 0, 0,
		    "deny:too-many-connections");
		window_answer(wc, W_REFUSED_503, sizeof(W_REFUSED_503) - 1);
		return;
	}
	if (wc->wc_body == GK_BODY_CHUNKED)
		gk_chunk_init(&wc->wc_chunk);
	if ((wc->wc_request = window_build_request(h, gr, rest, restlen)) ==
	    NULL) {
		window_close(wc);
		return;
	}
	evbuffer_drain(bufferevent_get_input(wc->wc_client), h->hh_headlen);
	wc->wc_state = WC_RESOLVING;
	window_rearm(wc);
	wc->wc_lookup = gk_lookup_start(wc->wc_host, window_resolved, wc);
	if (wc->wc_lookup == NULL) {
		window_journal(wc, "deny:unresolved:EAI_MEMORY");
		window_answer(wc, W_REFUSED_403, sizeof(W_REFUSED_403) - 1);
	}
}

static void
window_head_read(struct bufferevent *bev, void *arg)
{
	static struct gk_http_head window_head;	/* one parse at a time */
	struct window_conn	*wc = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	size_t			 len = evbuffer_get_length(in);
	const char		*p;

	if (wc->wc_state != WC_HEAD)
		return;	/* the body waits for the upstream */
	if (len > GK_HTTP_HEAD_MAX)
		len = GK_HTTP_HEAD_MAX;
	if ((p = (const char *)evbuffer_pullup(in, len)) == NULL) {
		window_close(wc);
		return;
	}
	switch (gk_http_parse(p, len, &window_head)) {
	case GK_HTTP_NEED_MORE:
		return;
	case GK_HTTP_MALFORMED:
		journal_add_limited(GK_WINDOW, "", 0, 0,
		    "deny:unreadable-request");
		window_answer(wc, W_REFUSED_400, sizeof(W_REFUSED_400) - 1);
		return;
	case GK_HTTP_COMPLETE:
		break;
	}
	event_del(wc->wc_timer);
	window_request(wc, &window_head);
}

static void
window_early_event(struct bufferevent *bev, short what, void *arg)
{
	struct window_conn	*wc = arg;

	/* A request followed by a half-close still gets its answer. */
	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR) &&
	    wc->wc_state != WC_HEAD) {
		wc->wc_client_eof = 1;
		return;
	}
	/* Gone before the upstream answered anything: both go at once. */
	window_close(wc);
}

void
window_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct window_conn	*wc;

	if (gk_conn_admit(GK_WINDOW, fd) == -1)
		return;
	if ((wc = calloc(1, sizeof(*wc))) == NULL) {
		close(fd);
		return;
	}
	if (gk_conn_setup(GK_WINDOW, fd, wc, window_deadline, window_head_read,
	    window_early_event, &wc->wc_client, &wc->wc_timer) == -1)
		free(wc);
}
