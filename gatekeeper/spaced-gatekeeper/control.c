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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "log.h"
#include "gatekeeper.h"
#include "gk_http.h"

/*
 * The control channel, on 127.0.0.1 only, which the space cannot reach:
 * health, the network mode and allowlist, grants, and the journal.  One
 * request per connection.  A secret is stored and never answered back.
 */

#define C_HEADER_MAX	128
#define C_SECRET_MAX	8192
#define C_URL_MAX	2048
#define C_GRANTS_MAX	256

struct control_conn {
	struct bufferevent	*ct_bev;
	struct event		*ct_timer;
	size_t			 ct_headlen;
	size_t			 ct_bodylen;
	int			 ct_have_head;
	int			 ct_route;
	int			 ct_keepalive;
};

enum control_route {
	CR_NONE = 0,
	CR_HEALTH,
	CR_NETWORK,
	CR_GRANTS,
	CR_JOURNAL
};

static void
control_free(struct control_conn *ct)
{
	bufferevent_free(ct->ct_bev);
	event_free(ct->ct_timer);
	free(ct);
	gk_conn_closed(GK_CONTROL);
}

static void	control_read(struct bufferevent *, void *);
static void	control_event(struct bufferevent *, short, void *);

static void
control_sent(struct bufferevent *bev, void *arg)
{
	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		control_free(arg);
}

/* Ready for the next request on a persistent connection. */
static void
control_next(struct control_conn *ct)
{
	struct timeval	 tv = { GK_HEAD_TIMEOUT_SEC, 0 };

	ct->ct_have_head = 0;
	ct->ct_headlen = 0;
	ct->ct_bodylen = 0;
	ct->ct_route = CR_NONE;
	ct->ct_keepalive = 0;
	bufferevent_setwatermark(ct->ct_bev, EV_READ, 0, GK_HTTP_HEAD_MAX);
	bufferevent_setcb(ct->ct_bev, control_read, NULL, control_event, ct);
	bufferevent_enable(ct->ct_bev, EV_READ);
	evtimer_add(ct->ct_timer, &tv);
	/* A pipelined request already here; from the loop, not recursion. */
	if (evbuffer_get_length(bufferevent_get_input(ct->ct_bev)) > 0)
		bufferevent_trigger(ct->ct_bev, EV_READ,
		    BEV_TRIG_IGNORE_WATERMARKS | BEV_TRIG_DEFER_CALLBACKS);
}

static void
control_event(struct bufferevent *bev, short what, void *arg)
{
	control_free(arg);
}

static void
control_timeout(evutil_socket_t fd, short ev, void *arg)
{
	control_free(arg);
}

static void
control_reply(struct control_conn *ct, int status, const char *body)
{
	const char	*reason;

	switch (status) {
	case 200:
		reason = "OK";
		break;
	case 400:
		reason = "Bad Request";
		break;
	case 404:
		reason = "Not Found";
		break;
	case 413:
		reason = "Payload Too Large";
		break;
	default:
		reason = "Internal Server Error";
		break;
	}
	evbuffer_add_printf(bufferevent_get_output(ct->ct_bev),
	    "HTTP/1.1 %d %s\r\ncontent-type: application/json\r\n"
	    "content-length: %zu\r\nconnection: %s\r\n\r\n%s",
	    status, reason, strlen(body),
	    ct->ct_keepalive ? "keep-alive" : "close", body);
	if (ct->ct_keepalive) {
		evbuffer_drain(bufferevent_get_input(ct->ct_bev),
		    ct->ct_bodylen);
		ct->ct_bodylen = 0;
		control_next(ct);
		return;
	}
	bufferevent_disable(ct->ct_bev, EV_READ);
	bufferevent_setwatermark(ct->ct_bev, EV_WRITE, 0, 0);
	bufferevent_setcb(ct->ct_bev, NULL, control_sent, control_event, ct);
}

static void
control_error(struct control_conn *ct, int status, const char *code)
{
	char	 body[128];

	snprintf(body, sizeof(body), "{\"error\":\"%s\"}", code);
	control_reply(ct, status, body);
}

static int
control_allowlist_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
control_allowlist_free(struct gk_allowlist *al)
{
	size_t	 i;

	for (i = 0; i < al->al_count; i++)
		free(al->al_names[i]);
	free(al->al_names);
	al->al_names = NULL;
	al->al_count = 0;
}

/* {"mode":"allowlist"|"open","domains":[...]}: all of it or nothing. */
static int
control_network(json_t *req)
{
	json_t			*mode, *domains, *d;
	struct gk_allowlist	 al = { NULL, 0 };
	enum gk_mode		 m;
	char			 name[GK_NAME_MAX + 1];
	size_t			 i, n, j;

	mode = json_object_get(req, "mode");
	if (!json_is_string(mode))
		return -1;
	if (strcmp(json_string_value(mode), "allowlist") == 0)
		m = GK_MODE_ALLOWLIST;
	else if (strcmp(json_string_value(mode), "open") == 0)
		m = GK_MODE_OPEN;
	else
		return -1;
	domains = json_object_get(req, "domains");
	if (domains != NULL && !json_is_array(domains))
		return -1;
	n = domains == NULL ? 0 : json_array_size(domains);
	if (n > 0 && (al.al_names = calloc(n, sizeof(char *))) == NULL)
		return -1;
	json_array_foreach(domains, i, d) {
		/* The list holds only what the corridor itself would take. */
		if (!json_is_string(d) ||
		    gk_name_normalize(json_string_value(d),
		    json_string_length(d), name, sizeof(name)) == -1 ||
		    (al.al_names[al.al_count] = strdup(name)) == NULL) {
			control_allowlist_free(&al);
			return -1;
		}
		al.al_count++;
	}
	if (al.al_count > 1) {
		qsort(al.al_names, al.al_count, sizeof(char *),
		    control_allowlist_cmp);
		for (i = 1, j = 1; i < al.al_count; i++) {
			if (strcmp(al.al_names[i], al.al_names[j - 1]) == 0)
				free(al.al_names[i]);
			else
				al.al_names[j++] = al.al_names[i];
		}
		al.al_count = j;
	}
	control_allowlist_free(&gk->gk_allow);
	gk->gk_allow = al;
	gk->gk_mode = m;
	return 0;
}

static int
control_token_ok(const char *s, size_t n)
{
	size_t	 i;

	if (n == 0 || n > C_HEADER_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') ||
		    (s[i] != '\0' && strchr("!#$%&'*+-.^_`|~", s[i]) != NULL)))
			return 0;
	return 1;
}

/*
 * http[s]://host[:port][/path]: no user info, query or fragment, nothing
 * outside visible ASCII.  Fills the grant's tls, host, port and path.
 */
static int
control_upstream(const char *u, size_t n, struct gk_grant *gr)
{
	const char	*a, *e, *hs, *he, *ps = NULL, *pe;
	size_t		 i;
	long		 port;
	char		*end;

	if (n > C_URL_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if ((unsigned char)u[i] <= 0x20 || (unsigned char)u[i] >= 0x7f ||
		    u[i] == '?' || u[i] == '#' || u[i] == '@' || u[i] == '\\')
			return -1;
	if (n > 7 && strncasecmp(u, "http://", 7) == 0) {
		gr->gr_tls = 0;
		a = u + 7;
	} else if (n > 8 && strncasecmp(u, "https://", 8) == 0) {
		gr->gr_tls = 1;
		a = u + 8;
	} else
		return -1;
	e = memchr(a, '/', u + n - a);
	if (e == NULL)
		e = u + n;
	if (e < a)
		return -1;
	if (a < e && *a == '[') {
		hs = a + 1;
		if ((he = memchr(hs, ']', e - hs)) == NULL)
			return -1;
		pe = he + 1;
		if (pe < e && *pe != ':')
			return -1;
		if (pe < e)
			ps = pe + 1;
	} else {
		hs = a;
		he = memchr(a, ':', e - a);
		if (he == NULL)
			he = e;
		else
			ps = he + 1;
		for (i = 0; hs + i < he; i++)
			if (!((hs[i] >= 'a' && hs[i] <= 'z') ||
			    (hs[i] >= 'A' && hs[i] <= 'Z') ||
			    (hs[i] >= '0' && hs[i] <= '9') ||
			    hs[i] == '.' || hs[i] == '-'))
				return -1;
	}
	if (he == hs || he - hs > GK_NAME_MAX)
		return -1;
	if (ps != NULL) {
		if (ps == e || e - ps > 5)
			return -1;
		for (i = 0; ps + i < e; i++)
			if (ps[i] < '0' || ps[i] > '9')
				return -1;
		port = strtol(ps, &end, 10);
		if (port < 1 || port > 65535)
			return -1;
	} else
		port = gr->gr_tls ? 443 : 80;
	if ((gr->gr_host = strndup(hs, he - hs)) == NULL ||
	    asprintf(&gr->gr_port, "%ld", port) == -1) {
		gr->gr_port = NULL;
		return -1;
	}
	if ((gr->gr_path = strndup(e, u + n - e)) == NULL)
		return -1;
	return 0;
}

static void
control_grant_free(struct gk_grant *gr)
{
	if (gr == NULL)
		return;
	if (gr->gr_secret != NULL) {
		explicit_bzero(gr->gr_secret, gr->gr_secretlen);
		free(gr->gr_secret);
	}
	free(gr->gr_id);
	free(gr->gr_host);
	free(gr->gr_port);
	free(gr->gr_path);
	free(gr->gr_header);
	free(gr);
}

/* {"id","upstream","header","secret"}: adds or replaces one grant. */
static int
control_grants(json_t *req)
{
	json_t		*id, *up, *hdr, *sec;
	struct gk_grant	*gr, *old;
	const char	*s;
	size_t		 i, n, count = 0;

	id = json_object_get(req, "id");
	up = json_object_get(req, "upstream");
	hdr = json_object_get(req, "header");
	sec = json_object_get(req, "secret");
	if (!json_is_string(id) || !json_is_string(up) ||
	    !json_is_string(hdr) || !json_is_string(sec))
		return -1;
	/* The window's own rule: a grant it cannot route is refused here. */
	if (!gk_grant_id_ok(json_string_value(id), json_string_length(id)) ||
	    !control_token_ok(json_string_value(hdr),
	    json_string_length(hdr)))
		return -1;
	s = json_string_value(sec);
	n = json_string_length(sec);
	if (n == 0 || n > C_SECRET_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return -1;
	/* Headers that frame the request are not a grant's to set. */
	if (strcasecmp(json_string_value(hdr), "host") == 0 ||
	    strcasecmp(json_string_value(hdr), "content-length") == 0 ||
	    strcasecmp(json_string_value(hdr), "transfer-encoding") == 0 ||
	    strcasecmp(json_string_value(hdr), "connection") == 0)
		return -1;
	if ((gr = calloc(1, sizeof(*gr))) == NULL)
		return -1;
	if (control_upstream(json_string_value(up), json_string_length(up),
	    gr) == -1 ||
	    (gr->gr_id = strdup(json_string_value(id))) == NULL ||
	    (gr->gr_header = strdup(json_string_value(hdr))) == NULL ||
	    (gr->gr_secret = malloc(n)) == NULL) {
		control_grant_free(gr);
		return -1;
	}
	memcpy(gr->gr_secret, s, n);
	gr->gr_secretlen = n;
	TAILQ_FOREACH(old, &gk->gk_grants, gr_entry) {
		if (strcmp(old->gr_id, gr->gr_id) == 0)
			break;
		count++;
	}
	if (old != NULL) {
		TAILQ_INSERT_BEFORE(old, gr, gr_entry);
		TAILQ_REMOVE(&gk->gk_grants, old, gr_entry);
		control_grant_free(old);
	} else if (count >= C_GRANTS_MAX) {
		control_grant_free(gr);
		return -1;
	} else
		TAILQ_INSERT_TAIL(&gk->gk_grants, gr, gr_entry);
	return 0;
}

static int
control_route(const struct gk_http_head *h)
{
	const char	*t = h->hh_target;
	size_t		 n = h->hh_targetlen;

#define IS(m, p) (gk_http_method_is(h, m) && n == strlen(p) && \
	memcmp(t, p, n) == 0)
	if (IS("GET", "/health"))
		return CR_HEALTH;
	if (IS("POST", "/network"))
		return CR_NETWORK;
	if (IS("POST", "/grants"))
		return CR_GRANTS;
	if (IS("GET", "/journal"))
		return CR_JOURNAL;
#undef IS
	return CR_NONE;
}

static void
control_serve(struct control_conn *ct, const char *body, size_t len)
{
	json_t		*req;
	json_error_t	 jerr;
	char		*out;
	int		 r;

	switch (ct->ct_route) {
	case CR_HEALTH:
		control_reply(ct, 200, "{\"ok\":true}");
		return;
	case CR_JOURNAL:
		if ((out = journal_dump()) == NULL) {
			control_error(ct, 500, "internal_error");
			return;
		}
		control_reply(ct, 200, out);
		free(out);
		return;
	case CR_NETWORK:
	case CR_GRANTS:
		break;
	default:
		control_error(ct, 404, "not_found");
		return;
	}
	req = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	if (req == NULL || !json_is_object(req)) {
		json_decref(req);
		control_error(ct, 400, "bad_request");
		return;
	}
	r = ct->ct_route == CR_NETWORK ? control_network(req) :
	    control_grants(req);
	json_decref(req);
	if (r == -1)
		control_error(ct, 400, "bad_request");
	else
		control_reply(ct, 200, "{\"ok\":true}");
}

/* HTTP/1.1 without "Connection: close" keeps the connection. */
static int
control_keepalive(const struct gk_http_head *h)
{
	const struct gk_http_field	*f;

	if (h->hh_minor == 0)
		return 0;
	f = gk_http_field_get(h, "connection");
	return f == NULL || f->hf_valuelen != 5 ||
	    strncasecmp(f->hf_value, "close", 5) != 0;
}

static void
control_read(struct bufferevent *bev, void *arg)
{
	static struct gk_http_head	 control_head;	/* one at a time */
	struct control_conn		*ct = arg;
	struct evbuffer			*in = bufferevent_get_input(bev);
	size_t				 len = evbuffer_get_length(in);
	enum gk_body_kind		 kind;
	uint64_t			 clen;
	const char			*p;

	if (!ct->ct_have_head) {
		if (len > GK_HTTP_HEAD_MAX)
			len = GK_HTTP_HEAD_MAX;
		if ((p = (const char *)evbuffer_pullup(in, len)) == NULL) {
			control_free(ct);
			return;
		}
		switch (gk_http_parse(p, len, &control_head)) {
		case GK_HTTP_NEED_MORE:
			return;
		case GK_HTTP_MALFORMED:
			control_error(ct, 400, "bad_request");
			return;
		case GK_HTTP_COMPLETE:
			break;
		}
		ct->ct_have_head = 1;
		ct->ct_headlen = control_head.hh_headlen;
		ct->ct_route = control_route(&control_head);
		ct->ct_keepalive = control_keepalive(&control_head);
		if (gk_http_body_framing(&control_head, &kind, &clen) == -1 ||
		    kind == GK_BODY_CHUNKED) {
			ct->ct_keepalive = 0;
			control_error(ct, 400, "bad_request");
			return;
		}
		if (clen > GK_CONTROL_BODY_MAX) {
			ct->ct_keepalive = 0;
			control_error(ct, 413, "request_too_large");
			return;
		}
		ct->ct_bodylen = (size_t)clen;
		evbuffer_drain(in, ct->ct_headlen);
		bufferevent_setwatermark(bev, EV_READ, 0,
		    GK_CONTROL_BODY_MAX + 1);
	}
	if (evbuffer_get_length(in) < ct->ct_bodylen)
		return;
	if ((p = (const char *)evbuffer_pullup(in, ct->ct_bodylen)) == NULL &&
	    ct->ct_bodylen > 0) {
		control_free(ct);
		return;
	}
	event_del(ct->ct_timer);
	control_serve(ct, p == NULL ? "" : p, ct->ct_bodylen);
}

void
control_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct control_conn	*ct;

	if (gk_conn_admit(GK_CONTROL, fd) == -1)
		return;
	if ((ct = calloc(1, sizeof(*ct))) == NULL) {
		close(fd);
		return;
	}
	if (gk_conn_setup(GK_CONTROL, fd, ct, control_timeout, control_read,
	    control_event, &ct->ct_bev, &ct->ct_timer) == -1)
		free(ct);
}
