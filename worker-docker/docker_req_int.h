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

#ifndef SPACED_DOCKER_REQ_INT_H
#define SPACED_DOCKER_REQ_INT_H

/* A request's insides, for docker_req.c and docker_req_stream.c only. */

#include <sys/queue.h>

#include <time.h>

#include <event2/bufferevent.h>
#include <event2/event.h>

#include "docker_req.h"

enum rq_state {
	RQ_SEND,		/* the call is being written (and read) */
	RQ_READ,		/* written; reading its answer */
	RQ_DELAY,		/* rq_pending goes out when rq_delay fires */
	RQ_CONN,		/* waiting for a new connection for rq_pending */
	RQ_STREAM,		/* raw: the op's own bytes */
	RQ_IDLE,		/* waiting for its child; maybe no connection */
};

struct docker_req {
	TAILQ_ENTRY(docker_req)	 rq_entry;
	const struct docker_op	*rq_op;
	uint32_t		 rq_peerid;
	enum rq_state		 rq_state;
	int			 rq_fd;
	struct bufferevent	*rq_bev;
	struct event		*rq_timer;
	struct event		*rq_delay;
	struct docker_call	 rq_pending;	/* RQ_DELAY, RQ_CONN */
	int			 rq_has_pending;
	int			 rq_conns;	/* asked for so far */
	int			 rq_shutdown;	/* SHUT_WR once drained */
	struct docker_req	*rq_parent;	/* a child's, until it goes */
	struct docker_req	*rq_child;
	int			 rq_is_child;
	int			 rq_parsing;	/* rq_answer is initialised */
	size_t			 rq_got;	/* bytes of this answer */
	int			 rq_replied;
	char			 rq_what[64];	/* "GET /version", for logs */
	struct timespec		 rq_sent;	/* of this call, for logs */
	void			*rq_data;	/* op_state_size bytes */
	struct docker_parser	 rq_answer;
};

#endif /* SPACED_DOCKER_REQ_INT_H */
