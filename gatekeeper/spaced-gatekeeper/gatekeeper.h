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

#ifndef GATEKEEPER_H
#define GATEKEEPER_H

/*
 * spaced-gatekeeper: a space's only way out.  The corridor (CONNECT
 * proxy), the window (reverse proxy with grants), the control channel
 * (loopback only) and the journal.  Decisions are gk_rules.c's.
 */

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/dns.h>
#include <openssl/ssl.h>

#include "gk_rules.h"

/* The spec's numbers. */
#define GK_DEADLINE_DEFAULT_MS	300000
#define GK_CORRIDOR_CAP_DEFAULT	128
#define GK_WINDOW_CAP_DEFAULT	64
#define GK_CONTROL_CAP_DEFAULT	8
#define GK_TUNNEL_CAP		64
#define GK_TUNNEL_IDLE_SEC	300
#define GK_CONNECT_TIMEOUT_SEC	15
#define GK_HEAD_TIMEOUT_SEC	10
#define GK_WINDOW_OUT_CAP	64
#define GK_DRAIN_MAX		16	/* refused clients waited on */
#define GK_CLOSING_MAX		64	/* tunnels the client closed, draining */
#define GK_JOURNAL_RING		500
#define GK_CONTROL_BODY_MAX	65536
/* Stop reading one side while the other has this much still to send. */
#define GK_PUMP_HIGH		(64 * 1024)
#define GK_PUMP_CHUNK		(64 * 1024)	/* one read or write */
#define GK_LINGER_SEC		10	/* flushing what a dead tunnel held */
#define GK_ANSWERS_MAX		32	/* addresses of one lookup considered */
#define GK_OWN_ADDRS_MAX	64

enum gk_listener {
	GK_CORRIDOR = 0,
	GK_WINDOW,
	GK_CONTROL
};

struct gk_grant {
	TAILQ_ENTRY(gk_grant)	 gr_entry;
	char			*gr_id;
	int			 gr_tls;
	char			*gr_host;	/* name or address, no brackets */
	char			*gr_port;
	char			*gr_path;	/* "" or starting with '/' */
	char			*gr_header;
	char			*gr_secret;
	size_t			 gr_secretlen;
};
TAILQ_HEAD(gk_grants, gk_grant);

/* journal.c: the ring of records and the stdout they are written to. */
struct gk_journal {
	struct journal_record	*gj_ring;
	size_t			 gj_next;	/* slot for the next record */
	size_t			 gj_count;
	uint64_t		 gj_dropped;	/* ring or stdout */
	uint64_t		 gj_unwritten;	/* stdout alone */
	/* Last limited record's monotonic second, by listener and kind */
	int64_t			 gj_limited_last[3][2];
	int			 gj_limited_seen[3][2];
	int			 gj_out_failed;	/* the reader is gone */
	/* Repeats of the last denial, counted into one record (journal.c) */
	struct journal_record	*gj_last;
	uint32_t		 gj_repeats;
	int64_t			 gj_repeat_at_ms;
	struct event		*gj_fold_ev;
	int64_t			 gj_sec;	/* denial lines in this second */
	uint32_t		 gj_sec_lines;
	int			 gj_out_kind;	/* enum journal_out_kind */
	struct evbuffer		*gj_out;
	struct event		*gj_out_ev;
	/* Each stdout line's place: this run's start, and its number. */
	int64_t			 gj_boot_ms;
	uint64_t		 gj_seq;
};

/* spaced-gatekeeper's environment. */
struct gk {
	struct event_base	*gk_base;
	struct evdns_base	*gk_dns;
	struct sockaddr_storage	 gk_bind;
	socklen_t		 gk_bindlen;
	uint16_t		 gk_ports[3];	/* by enum gk_listener */
	int			 gk_caps[3];
	int			 gk_conns[3];	/* open connections */
	long			 gk_deadline_ms;
	int			 gk_tunnels;	/* corridor places taken */
	int			 gk_window_out;	/* window sockets out */
	enum gk_mode		 gk_mode;
	struct gk_allowlist	 gk_allow;
	struct gk_grants	 gk_grants;
	struct sockaddr_storage	 gk_own[GK_OWN_ADDRS_MAX];
	size_t			 gk_nown;
	int			 gk_ready;	/* all three listeners up */

	/* gk_util.c: refused clients read to their end, GK_DRAIN_MAX */
	TAILQ_HEAD(, gk_drain)	 gk_drains;
	int			 gk_ndrains;
	/* corridor.c: clients that left while their attempt went on */
	TAILQ_HEAD(, corridor_conn) gk_orphans;
	int			 gk_norphans;
	/* tunnel.c: tunnels the client closed, uncounted, GK_CLOSING_MAX */
	TAILQ_HEAD(, tunnel)	 gk_closing;
	int			 gk_nclosing;
	struct gk_journal	 gk_journal;
	/* tls.c: the trust store's bytes, then the context made of them */
	char			*gk_tls_ca;
	size_t			 gk_tls_calen;
	SSL_CTX			*gk_tls_ctx;
};

extern struct gk	*gk;

/* journal.c */
void	 journal_add(enum gk_listener, const char *host, size_t hostlen,
	    long port, const char *decision);
/* Once per listener and kind per minute (cap drops, unreadable requests). */
void	 journal_add_limited(enum gk_listener, const char *host,
	    size_t hostlen, long port, const char *decision);
char	*journal_dump(void);
/* 0 when a new record could not be kept: the corridor then refuses. */
int	 journal_can_keep(void);
/* stdout as a writer that never blocks the loop; before the sandbox. */
void	 journal_init(struct event_base *);

/* corridor.c, window.c, control.c: evconnlistener callbacks. */
void	 corridor_accept(struct evconnlistener *, evutil_socket_t,
	    struct sockaddr *, int, void *);
void	 window_accept(struct evconnlistener *, evutil_socket_t,
	    struct sockaddr *, int, void *);
void	 control_accept(struct evconnlistener *, evutil_socket_t,
	    struct sockaddr *, int, void *);

/* tunnel.c: the byte pump of an established corridor tunnel. */
struct tunnel;
struct tunnel *tunnel_start(struct bufferevent *client,
	    struct bufferevent *upstream, int client_eof, void (*done)(void *),
	    void *arg);

/*
 * client.c: spaced-gatekeeper -C METHOD PATH [-p PORT] [-t SECONDS],
 * one request to the control channel on 127.0.0.1.  argv[1] is "-C".
 * Exits 0 on a 2xx answer, 1 on any other, 2 when there is none.
 */
#define GK_CLIENT_PORT_DEFAULT	9099
#define GK_CLIENT_DEADLINE_SEC	10
#define GK_CLIENT_BODY_MAX	(1024 * 1024)		/* from stdin */
#define GK_CLIENT_ANSWER_MAX	(2 * 1024 * 1024)	/* head and body */
int	 client_main(int, char **);
/* Pure: 0 when the request line may carry them, else -1. */
int	 client_method_ok(const char *);
int	 client_path_ok(const char *);
int	 client_answer(const char *buf, size_t len, int eof, int *status,
	    size_t *bodyoff, size_t *bodylen, const char **errstr);

/* tls.c: trust store read at start, the context made on first use. */
void	 tls_preload(void);
SSL_CTX	*tls_context(void);

/* util (main.c and friends). */
const char *gk_errname(int);
const char *gk_eai_name(int);
/* Answer, then drain the client until it ends; at most GK_DRAIN_MAX. */
void	 gk_refuse(struct bufferevent *, const char *answer, size_t len,
	    enum gk_listener);
/* Count a closed connection of a listener. */
void	 gk_conn_closed(enum gk_listener);
int	 gk_conn_admit(enum gk_listener, evutil_socket_t);
int	 gk_conn_setup(enum gk_listener, evutil_socket_t, void *conn,
	    event_callback_fn on_timer, bufferevent_data_cb on_read,
	    bufferevent_event_cb on_event, struct bufferevent **,
	    struct event **);
int	 gk_is_own(const struct sockaddr *, uint16_t port);
/* evdns_getaddrinfo that never calls back before it returns. */
struct gk_lookup;
struct gk_lookup *gk_lookup_start(const char *name,
	    void (*cb)(int, struct evutil_addrinfo *, void *), void *arg);
void	 gk_lookup_cancel(struct gk_lookup *);

#endif /* GATEKEEPER_H */
