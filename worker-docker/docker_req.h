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

#ifndef SPACED_DOCKER_REQ_H
#define SPACED_DOCKER_REQ_H

/*
 * The Engine API client: one state machine per request on the worker's
 * event loop, its HTTP calls in sequence on the socket spaced passed,
 * one answer to the parent under one deadline; nothing blocks
 * (docs/notes/spaced-docker-requests.md).  An operation is one row of
 * struct docker_op (docker_ops.c).
 */

#include <stddef.h>
#include <stdint.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "docker_parse.h"

#define DOCKER_TIMEOUT_MS	10000	/* a whole operation, by default */
#define DOCKER_PATH_MAX		1024
#define DOCKER_REQ_MAX		256	/* in flight; each holds a socket */
/* Unparsed bytes held per connection; the parser caps the rest. */
#define DOCKER_READ_HIWAT	(64 * 1024)
#define DOCKER_WRITE_MAX	(256 * 1024)	/* one write(2) at most */
#define DOCKER_STREAM_LOWAT	(256 * 1024)	/* drained below this */

struct event_base;
struct docker_req;

/* One HTTP call.  The request takes over cl_body and cl_raw. */
struct docker_call {
	const char	*cl_method;		/* "GET", "POST", ... */
	char		 cl_path[DOCKER_PATH_MAX];
	json_t		*cl_body;		/* sent as JSON, or NULL */
	uint8_t		*cl_raw;		/* or these bytes (malloc) */
	size_t		 cl_raw_len;
	const char	*cl_type;		/* cl_raw's Content-Type */
	size_t		 cl_cap;		/* largest answer body taken */
	int		 cl_delay_ms;		/* wait before sending */
	int		 cl_upgrade;		/* ask for the raw stream */
};

enum docker_next {
	DOCKER_DONE = 0,	/* op answered the parent (docker_req_reply) */
	DOCKER_CALL,		/* send *next on the same connection */
	/*
	 * After a 101: the connection is the op's raw stream now, read
	 * through op_stream_read and written with docker_req_stream_*.
	 */
	DOCKER_STREAM,
	/* send *next on a new connection from the parent */
	DOCKER_CALL_NEW,
	/* nothing to send until a child answers (op_child) */
	DOCKER_WAIT,
};

struct docker_op {
	const char	*op_name;		/* for logs */
	uint32_t	 op_req;		/* imsg type that starts it */
	uint32_t	 op_rep;		/* imsg type of its answer */
	size_t		 op_len;		/* exact request payload size */
	int		 op_fd;			/* 1: the request carries a socket */
	int		 op_timeout_ms;		/* 0: DOCKER_TIMEOUT_MS */
	size_t		 op_state_size;		/* zeroed, docker_req_state() */
	/* The first call, from the request payload; -1 refuses it. */
	int		(*op_start)(struct docker_req *, const void *, size_t,
			    struct docker_call *);
	/*
	 * A complete answer to the last call (any status; dp_upgraded for
	 * a 101, whose stream bytes stay unread in the connection).
	 */
	enum docker_next (*op_answer)(struct docker_req *,
			    const struct docker_parser *, struct docker_call *);
	/*
	 * The operation failed before it answered: answer with code, or
	 * (DOCKER_CALL) go on with *next on a new connection, under a
	 * fresh deadline of op_cleanup_ms: a rollback after a broken call.
	 * interrupted is 1 when a call may still finish in the engine.
	 */
	enum docker_next (*op_fail)(struct docker_req *, const char *code,
			    int interrupted, struct docker_call *next);
	int		 op_cleanup_ms;
	void		(*op_free)(void *state);	/* or NULL */
	/*
	 * Raw stream mode (DOCKER_STREAM): bytes as they come (drain what
	 * was used), its end (error 0 at EOF), and output drained.  The
	 * end answers the parent or goes on with a call (DOCKER_CALL_NEW).
	 */
	/* returns 0 when it ended the request (docker_req_stream_fail) */
	int		(*op_stream_read)(struct docker_req *,
			    struct evbuffer *);
	enum docker_next (*op_stream_end)(struct docker_req *, int error,
			    struct docker_call *);
	void		(*op_stream_drained)(struct docker_req *);
	/*
	 * The answer of a child (docker_req_spawn), whatever the parent is
	 * doing.  What it returns counts only when the parent waits
	 * (DOCKER_WAIT); otherwise return DOCKER_WAIT and keep the answer.
	 */
	enum docker_next (*op_child)(struct docker_req *, const void *, size_t,
			    struct docker_call *);
	/*
	 * The parent cancelled (its client left, a deadline passed): NULL
	 * frees the request at once.  Otherwise DOCKER_DONE (answered),
	 * DOCKER_WAIT (it goes on as it is) or DOCKER_CALL_NEW (*next on a
	 * new connection: a rollback).  Its last word then ends the
	 * request in spaced instead of a cancel acknowledgement.
	 */
	enum docker_next (*op_cancel)(struct docker_req *,
			    struct docker_call *);
	/*
	 * A child that waits (DOCKER_WAIT) for more work from its parent
	 * (docker_req_resume) keeping its connection, with no deadline
	 * while it waits; it ends with its parent.
	 */
	int		 op_idle;
};

/* Where answers go: the worker's channel, or a test. */
typedef void	(*docker_reply_fn)(uint32_t type, uint32_t peerid,
		    const void *, size_t);

/* conn_type: the message asking the parent for another connection. */
void		 docker_req_init(struct event_base *, docker_reply_fn,
		    uint32_t conn_type);
/* The parent's answer to that: a connected socket, or -1. */
void		 docker_req_conn(uint32_t peerid, int fd);
/*
 * Starts op for the parent's request peerid over fd (taken: closed when
 * the request ends, even on failure).  timeout_ms 0 takes the op's.
 * Returns -1 (and has answered through op_fail) when it cannot start.
 */
int		 docker_req_start(const struct docker_op *, uint32_t peerid,
		    int fd, int timeout_ms, const void *data, size_t len);
/* The running request of op for the parent's peerid, or NULL. */
struct docker_req *docker_req_find(uint32_t peerid, const struct docker_op *);
/* Ends every request of peerid without an answer; returns how many. */
int		 docker_req_cancel(uint32_t peerid);
/* Requests in flight. */
size_t		 docker_req_count(void);

/* For operations: answer the parent (once), and the op's own state. */
void		 docker_req_reply(struct docker_req *, const void *, size_t);
/* A record before the answer (any number). */
void		 docker_req_record(struct docker_req *, uint32_t type,
		    const void *, size_t);
void		*docker_req_state(struct docker_req *);
/*
 * An op that answered while it waited (DOCKER_WAIT), from outside the
 * request's own callbacks (a stream's credit): the request is freed.
 */
void		 docker_req_finish(struct docker_req *);
uint32_t	 docker_req_peerid(const struct docker_req *);
/* The whole operation's deadline, from now (an exec's own time limit). */
void		 docker_req_deadline(struct docker_req *, int ms);
const struct docker_op *docker_req_op(const struct docker_req *);
/*
 * The answer's body, now the op's to free (NULL when empty), from
 * op_answer: a large one is then held once, not once more as a copy.
 */
uint8_t		*docker_req_body_take(struct docker_req *, size_t *len);

/*
 * A second request beside this one, on a connection of its own (asked of
 * the parent of the process): same peerid, so a cancel ends both; its
 * answer goes to the op's op_child, never to spaced.  One at a time.
 */
int		 docker_req_spawn(struct docker_req *, const struct docker_op *,
		    const void *, size_t);
/* The request's child, or NULL. */
struct docker_req *docker_req_child(struct docker_req *);
/*
 * An op_idle child that waits sends *cl: on its kept connection, or a
 * new one if the engine closed it.  -1 (cl cleared) if it cannot.
 */
int		 docker_req_resume(struct docker_req *, struct docker_call *);

/* Raw stream mode. */
void		 docker_req_stream_write(struct docker_req *, const void *,
		    size_t);
size_t		 docker_req_stream_queued(struct docker_req *);
/* What the engine sent and the op has not taken yet, or NULL. */
struct evbuffer	*docker_req_stream_input(struct docker_req *);
/* EOF to the engine (shutdown SHUT_WR) once the output is written. */
void		 docker_req_stream_shutdown(struct docker_req *);
/* Take no more bytes for now (flow control), or again. */
void		 docker_req_stream_pause(struct docker_req *, int);
/* The op's own end of the stream (a cap, a cancel from its side). */
void		 docker_req_stream_fail(struct docker_req *, const char *);

#endif /* SPACED_DOCKER_REQ_H */
