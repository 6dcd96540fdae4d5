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
 * The request state machine of docker_req.h on libevent bufferevents.
 * libevent's evhttp cannot be the client (it closes a pre-connected fd
 * and drops a 101 stream; docker-engine-api.md 4.2), so a bufferevent
 * carries the bytes and docker_parse.c reads them.
 */

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/util.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "docker_env.h"
#include "docker_http.h"
#include "docker_req.h"
#include "docker_req_int.h"

#define RQ_CONNS_MAX	4	/* new connections one request may ask for */


static void	rq_fail(struct docker_req *, const char *, int);
static int	rq_feed(struct docker_req *);
static int	rq_send(struct docker_req *, struct docker_call *);
static void	rq_readcb(struct bufferevent *, void *);
static void	rq_writecb(struct bufferevent *, void *);
static void	rq_eventcb(struct bufferevent *, short, void *);
static void	rq_timeout(int, short, void *);
static void	rq_fail_now(struct docker_req *, const char *);
static void	rq_arm(struct docker_req *, int);

void
docker_req_init(struct event_base *base, docker_reply_fn reply,
    uint32_t conn_type)
{
	env->de_base = base;
	env->de_reply = reply;
	env->de_conn_type = conn_type;
}

static void
call_clear(struct docker_call *cl)
{
	json_decref(cl->cl_body);
	free(cl->cl_raw);
	memset(cl, 0, sizeof(*cl));
}

void
docker_req_deadline(struct docker_req *rq, int ms)
{
	rq_arm(rq, ms);
}

void
docker_req_record(struct docker_req *rq, uint32_t type, const void *data,
    size_t len)
{
	if (rq->rq_replied)
		fatalx("%s: %s: a record after the answer", __func__,
		    rq->rq_op->op_name);
	env->de_reply(type, rq->rq_peerid, data, len);
}

static void	rq_next(struct docker_req *, enum docker_next,
		    struct docker_call *);

void
docker_req_reply(struct docker_req *rq, const void *data, size_t len)
{
	struct docker_req	*parent = rq->rq_parent;
	struct docker_call	 next;
	enum docker_next	 nx;

	if (rq->rq_replied)
		fatalx("%s: %s answered twice", __func__, rq->rq_op->op_name);
	rq->rq_replied = 1;
	if (!rq->rq_is_child) {
		env->de_reply(rq->rq_op->op_rep, rq->rq_peerid, data, len);
		return;
	}
	/* A parent that went (cancelled) takes no answer. */
	if (parent == NULL)
		return;
	/* Answered, it is done with its parent, which may spawn the next. */
	parent->rq_child = NULL;
	rq->rq_parent = NULL;
	memset(&next, 0, sizeof(next));
	nx = parent->rq_op->op_child(parent, data, len, &next);
	if (parent->rq_state != RQ_IDLE || nx == DOCKER_WAIT) {
		call_clear(&next);
		return;
	}
	rq_next(parent, nx, &next);
}

/*
 * Everything a request holds goes here, answered or not.  The
 * bufferevent is not told to close the fd: its own free may wait for
 * the loop, and a cancel must give the socket back at once.
 */
static void
rq_free(struct docker_req *rq)
{
	/* A child waiting for more work of its parent's goes with it. */
	if (rq->rq_child != NULL && rq->rq_child->rq_op->op_idle)
		rq_free(rq->rq_child);
	if (rq->rq_parent != NULL)
		rq->rq_parent->rq_child = NULL;
	if (rq->rq_child != NULL)
		rq->rq_child->rq_parent = NULL;
	TAILQ_REMOVE(&env->de_reqs, rq, rq_entry);
	env->de_nreqs--;
	if (rq->rq_bev != NULL)
		bufferevent_free(rq->rq_bev);
	if (rq->rq_fd != -1)
		close(rq->rq_fd);
	if (rq->rq_timer != NULL)
		event_free(rq->rq_timer);
	if (rq->rq_delay != NULL)
		event_free(rq->rq_delay);
	if (rq->rq_has_pending)
		call_clear(&rq->rq_pending);
	if (rq->rq_parsing)
		docker_parse_free(&rq->rq_answer);
	if (rq->rq_op->op_free != NULL && rq->rq_data != NULL)
		rq->rq_op->op_free(rq->rq_data);
	free(rq->rq_data);
	free(rq);
}

void
docker_req_finish(struct docker_req *rq)
{
	if (!rq->rq_replied || rq->rq_state != RQ_IDLE)
		fatalx("%s: %s is not done waiting", __func__,
		    rq->rq_op->op_name);
	rq_free(rq);
}

static void
rq_arm(struct docker_req *rq, int ms)
{
	struct timeval	 tv;

	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	if (evtimer_add(rq->rq_timer, &tv) == -1)
		fatalx("%s: evtimer_add", __func__);
}

/* Drops the connection; the request lives on without one. */
static void
rq_disconnect(struct docker_req *rq)
{
	if (rq->rq_bev != NULL)
		bufferevent_free(rq->rq_bev);
	rq->rq_bev = NULL;
	if (rq->rq_fd != -1)
		close(rq->rq_fd);
	rq->rq_fd = -1;
}

/* Sends next once the parent gave a new connection. */
static void
rq_call_new(struct docker_req *rq, struct docker_call *next, int timeout_ms)
{
	if (rq->rq_replied || rq->rq_conns >= RQ_CONNS_MAX)
		fatalx("%s: %s: a new connection after the answer, or too many",
		    __func__, rq->rq_op->op_name);
	rq_disconnect(rq);
	if (rq->rq_has_pending)
		call_clear(&rq->rq_pending);
	rq->rq_pending = *next;
	rq->rq_has_pending = 1;
	rq->rq_state = RQ_CONN;
	rq->rq_conns++;
	if (timeout_ms > 0)
		rq_arm(rq, timeout_ms);
	env->de_reply(env->de_conn_type, rq->rq_peerid, NULL, 0);
}

/*
 * A call failed: the op answers, or goes on with a cleanup on a new
 * connection from the parent (the old one may hold half an answer).
 */
static void
rq_fail(struct docker_req *rq, const char *code, int interrupted)
{
	struct docker_call	 next;

	log_warnx("docker: %s: %s: %s", rq->rq_op->op_name,
	    rq->rq_what[0] != '\0' ? rq->rq_what : "(not sent)", code);
	memset(&next, 0, sizeof(next));
	/* Past RQ_CONNS_MAX the op must answer now: no next to fill. */
	if (!rq->rq_replied) switch (rq->rq_op->op_fail(rq, code, interrupted,
	    rq->rq_conns < RQ_CONNS_MAX ? &next : NULL)) {
	case DOCKER_CALL:
	case DOCKER_CALL_NEW:
		rq_call_new(rq, &next, rq->rq_op->op_cleanup_ms > 0 ?
		    rq->rq_op->op_cleanup_ms : DOCKER_TIMEOUT_MS);
		return;
	case DOCKER_WAIT:
		/* for its child; the cleanup comes on a new connection */
		call_clear(&next);
		rq_disconnect(rq);
		rq->rq_state = RQ_IDLE;
		rq_arm(rq, rq->rq_op->op_cleanup_ms > 0 ?
		    rq->rq_op->op_cleanup_ms : DOCKER_TIMEOUT_MS);
		return;
	default:
		break;
	}
	if (!rq->rq_replied)
		fatalx("%s: %s failed without an answer", __func__,
		    rq->rq_op->op_name);
	rq_free(rq);
}

/* A waiting parent goes on: on its connection, or a new one. */
static void
rq_next(struct docker_req *rq, enum docker_next nx, struct docker_call *next)
{
	switch (nx) {
	case DOCKER_DONE:
		call_clear(next);
		if (!rq->rq_replied)
			fatalx("%s: %s finished without an answer", __func__,
			    rq->rq_op->op_name);
		rq_free(rq);
		break;
	case DOCKER_CALL:
		if (rq->rq_bev != NULL) {
			(void)rq_send(rq, next);
			break;
		}
		/* FALLTHROUGH */
	case DOCKER_CALL_NEW:
		rq_call_new(rq, next, 0);
		break;
	default:
		fatalx("%s: %s: %d from a wait", __func__, rq->rq_op->op_name,
		    nx);
	}
}

int
docker_req_spawn(struct docker_req *parent, const struct docker_op *op,
    const void *data, size_t len)
{
	struct docker_req	*rq;
	struct docker_call	 cl;

	/* An op with children of its own (exec -t) may be a child too. */
	if (parent->rq_child != NULL || parent->rq_is_child)
		fatalx("%s: %s: one child, no grandchildren", __func__,
		    parent->rq_op->op_name);
	if ((rq = calloc(1, sizeof(*rq))) == NULL ||
	    (op->op_state_size > 0 &&
	    (rq->rq_data = calloc(1, op->op_state_size)) == NULL))
		fatal("%s: calloc", __func__);
	rq->rq_op = op;
	rq->rq_peerid = parent->rq_peerid;
	rq->rq_fd = -1;
	rq->rq_is_child = 1;
	rq->rq_parent = parent;
	parent->rq_child = rq;
	TAILQ_INSERT_TAIL(&env->de_reqs, rq, rq_entry);
	env->de_nreqs++;
	if ((rq->rq_timer = evtimer_new(env->de_base, rq_timeout, rq)) == NULL)
		fatalx("%s: evtimer_new", __func__);
	rq_arm(rq, op->op_timeout_ms > 0 ? op->op_timeout_ms :
	    DOCKER_TIMEOUT_MS);
	memset(&cl, 0, sizeof(cl));
	if (op->op_start(rq, data, len, &cl) == -1) {
		call_clear(&cl);
		rq_fail_now(rq, ERR_INTERNAL);
		return -1;
	}
	rq_call_new(rq, &cl, 0);
	return 0;
}

int
docker_req_resume(struct docker_req *rq, struct docker_call *cl)
{
	if (!rq->rq_op->op_idle || rq->rq_state != RQ_IDLE ||
	    rq->rq_replied || (rq->rq_bev == NULL &&
	    rq->rq_conns >= RQ_CONNS_MAX)) {
		call_clear(cl);
		return -1;
	}
	rq_arm(rq, rq->rq_op->op_timeout_ms > 0 ? rq->rq_op->op_timeout_ms :
	    DOCKER_TIMEOUT_MS);
	rq_next(rq, DOCKER_CALL, cl);
	return 0;
}

/* A failure before the first call: there is nothing to clean up. */
static void
rq_fail_now(struct docker_req *rq, const char *code)
{
	struct docker_call	 next;

	memset(&next, 0, sizeof(next));
	if (rq->rq_op->op_fail(rq, code, 0, &next) != DOCKER_DONE ||
	    !rq->rq_replied)
		fatalx("%s: %s: no answer to a refused start", __func__,
		    rq->rq_op->op_name);
	call_clear(&next);
	rq_free(rq);
}

/* A socket for rq: non-blocking, in a bufferevent.  -1 if not a socket. */
static int
rq_connect(struct docker_req *rq, int fd)
{
	struct stat	 sb;

	rq->rq_fd = fd;
	if (fd == -1 || fstat(fd, &sb) == -1 || !S_ISSOCK(sb.st_mode) ||
	    evutil_make_socket_nonblocking(fd) == -1)
		return -1;
	if ((rq->rq_bev = bufferevent_socket_new(env->de_base, fd, 0)) == NULL)
		fatalx("%s: bufferevent_socket_new", __func__);
	bufferevent_setcb(rq->rq_bev, rq_readcb, rq_writecb, rq_eventcb, rq);
	/* Read no further ahead than the parser is fed. */
	bufferevent_setwatermark(rq->rq_bev, EV_READ, 0, DOCKER_READ_HIWAT);
	/*
	 * libevent moves at most 16 KiB a read or write by default: a
	 * streamed exec then costs a loop turn and a syscall each 16 KiB.
	 * Reads stop at the watermark anyway; a write takes what is queued,
	 * which the stream's credit bounds.
	 */
	if (bufferevent_set_max_single_read(rq->rq_bev, DOCKER_READ_HIWAT) ==
	    -1 || bufferevent_set_max_single_write(rq->rq_bev,
	    DOCKER_WRITE_MAX) == -1)
		fatalx("%s: bufferevent_set_max_single", __func__);
	if (bufferevent_enable(rq->rq_bev, EV_READ | EV_WRITE) == -1)
		fatalx("%s: bufferevent_enable", __func__);
	return 0;
}

void
docker_req_conn(uint32_t peerid, int fd)
{
	struct docker_req	*rq;
	struct docker_call	 cl;

	TAILQ_FOREACH(rq, &env->de_reqs, rq_entry)
		if (rq->rq_peerid == peerid && rq->rq_state == RQ_CONN)
			break;
	if (rq == NULL) {
		/* Cancelled while spaced connected: nobody wants it. */
		if (fd != -1)
			close(fd);
		return;
	}
	if (rq_connect(rq, fd) == -1) {
		rq_disconnect(rq);
		rq_fail(rq, ERR_DOCKER_UNREACHABLE, 0);
		return;
	}
	cl = rq->rq_pending;
	rq->rq_has_pending = 0;
	memset(&rq->rq_pending, 0, sizeof(rq->rq_pending));
	(void)rq_send(rq, &cl);
}

static void
rq_delayed(int fd, short ev, void *arg)
{
	struct docker_req	*rq = arg;
	struct docker_call	 cl;

	cl = rq->rq_pending;
	rq->rq_has_pending = 0;
	memset(&rq->rq_pending, 0, sizeof(rq->rq_pending));
	(void)rq_send(rq, &cl);
}

/* Writes one call; the answer is read as it comes.  0, or -1 failed. */
static int
rq_send(struct docker_req *rq, struct docker_call *cl)
{
	struct docker_request	 hr;
	struct evbuffer		*out;
	struct timeval		 tv;
	char			 head[DOCKER_HEAD_MAX];
	char			*body = NULL;
	int			 n;

	if (cl->cl_delay_ms > 0) {
		if (rq->rq_delay == NULL && (rq->rq_delay =
		    evtimer_new(env->de_base, rq_delayed, rq)) == NULL)
			fatalx("%s: evtimer_new", __func__);
		rq->rq_pending = *cl;
		rq->rq_pending.cl_delay_ms = 0;
		rq->rq_has_pending = 1;
		rq->rq_state = RQ_DELAY;
		tv.tv_sec = cl->cl_delay_ms / 1000;
		tv.tv_usec = (cl->cl_delay_ms % 1000) * 1000;
		if (evtimer_add(rq->rq_delay, &tv) == -1)
			fatalx("%s: evtimer_add", __func__);
		return 0;
	}
	out = bufferevent_get_output(rq->rq_bev);
	memset(&hr, 0, sizeof(hr));
	hr.rq_method = cl->cl_method;
	hr.rq_path = cl->cl_path;
	hr.rq_upgrade = cl->cl_upgrade;
	if (cl->cl_raw != NULL) {
		json_decref(cl->cl_body);
		cl->cl_body = NULL;
		body = (char *)cl->cl_raw;
		cl->cl_raw = NULL;
		hr.rq_body = body;
		hr.rq_body_len = cl->cl_raw_len;
		hr.rq_type = cl->cl_type;
	} else if (cl->cl_body != NULL) {
		if ((body = json_dumps(cl->cl_body, JSON_COMPACT)) == NULL)
			fatal("%s: json_dumps", __func__);
		json_decref(cl->cl_body);
		cl->cl_body = NULL;
		hr.rq_body = body;
		hr.rq_body_len = strlen(body);
	}
	/* Cut for logs only; what is sent is checked whole. */
	snprintf(rq->rq_what, sizeof(rq->rq_what), "%.7s %.48s",
	    cl->cl_method != NULL ? cl->cl_method : "?", cl->cl_path);
	clock_gettime(CLOCK_MONOTONIC, &rq->rq_sent);
	if ((n = docker_http_head(&hr, head, sizeof(head))) == -1) {
		free(body);
		log_warnx("docker: refusing to send an unsafe request");
		rq_fail(rq, ERR_INTERNAL, 0);
		return -1;
	}
	if (evbuffer_add(out, head, n) == -1 ||
	    (body != NULL && evbuffer_add(out, body, hr.rq_body_len) == -1))
		fatal("%s: evbuffer_add", __func__);
	free(body);
	if (rq->rq_parsing)
		docker_parse_free(&rq->rq_answer);
	docker_parse_init(&rq->rq_answer, cl->cl_cap);
	rq->rq_answer.dp_head = strcmp(cl->cl_method, "HEAD") == 0;
	rq->rq_parsing = 1;
	rq->rq_got = 0;
	rq->rq_state = RQ_SEND;
	return 0;
}

/* A complete answer: the op says what comes next.  0: rq is gone. */
static int
rq_answered(struct docker_req *rq)
{
	struct docker_call	 next;
	struct timespec		 now;
	enum docker_next	 nx;

	clock_gettime(CLOCK_MONOTONIC, &now);
	log_debug("docker: %s: %d at %lld ms in %lld us", rq->rq_what,
	    rq->rq_answer.dp_status,
	    (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000,
	    (long long)(now.tv_sec - rq->rq_sent.tv_sec) * 1000000 +
	    (now.tv_nsec - rq->rq_sent.tv_nsec) / 1000);
	memset(&next, 0, sizeof(next));
	nx = rq->rq_op->op_answer(rq, &rq->rq_answer, &next);
	if (nx == DOCKER_STREAM) {
		if (!rq->rq_answer.dp_upgraded || rq->rq_op->op_stream_read ==
		    NULL)
			fatalx("%s: %s: a stream without a 101", __func__,
			    rq->rq_op->op_name);
		rq->rq_state = RQ_STREAM;
		/*
		 * Drained is told while a quarter of the stream's window
		 * still waits to go, so its credit is back before the
		 * engine runs dry.
		 */
		bufferevent_setwatermark(rq->rq_bev, EV_WRITE,
		    DOCKER_STREAM_LOWAT, 0);
		/*
		 * Called at once: the op writes what it holds, and what came
		 * with the head is the stream's already.
		 */
		(void)rq->rq_op->op_stream_read(rq,
		    bufferevent_get_input(rq->rq_bev));
		return 0;
	}
	if (nx == DOCKER_CALL_NEW) {
		rq_call_new(rq, &next, 0);
		return 0;
	}
	if (nx == DOCKER_WAIT) {
		call_clear(&next);
		rq->rq_state = RQ_IDLE;
		/* It waits for its parent, not the engine: no deadline. */
		if (rq->rq_op->op_idle)
			evtimer_del(rq->rq_timer);
		return 0;
	}
	if (nx == DOCKER_DONE) {
		call_clear(&next);
		if (!rq->rq_replied)
			fatalx("%s: %s finished without an answer", __func__,
			    rq->rq_op->op_name);
		rq_free(rq);
		return 0;
	}
	/* Keep-alive: the next call on the same connection. */
	if (rq->rq_answer.dp_close || rq->rq_answer.dp_upgraded) {
		call_clear(&next);
		log_warnx("docker: %s: the engine keeps no connection",
		    rq->rq_what);
		rq_fail(rq, ERR_DOCKER_UNREACHABLE, 0);
		return 0;
	}
	/* We never pipeline: bytes before we asked are not an answer. */
	if (evbuffer_get_length(bufferevent_get_input(rq->rq_bev)) > 0) {
		call_clear(&next);
		log_warnx("docker: %s: bytes after the answer", rq->rq_what);
		rq_fail(rq, ERR_DOCKER_UNREADABLE, 0);
		return 0;
	}
	return rq_send(rq, &next) == 0;
}

/*
 * Feeds what has arrived to the parser.  Bytes after a complete answer
 * stay in the input buffer: the next answer's on keep-alive, or the
 * stream's after a 101.  Returns 0 when rq is gone.
 */
static int
rq_feed(struct docker_req *rq)
{
	struct evbuffer		*in = bufferevent_get_input(rq->rq_bev);
	struct evbuffer_iovec	 v;
	enum docker_parse_rv	 rv;
	size_t			 used;

	while (evbuffer_get_length(in) > 0) {
		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		rv = docker_parse_feed(&rq->rq_answer, v.iov_base, v.iov_len,
		    &used);
		evbuffer_drain(in, used);
		rq->rq_got += used;
		if (rv == DP_ERROR) {
			log_warnx("docker: %s: %s", rq->rq_what,
			    rq->rq_answer.dp_errstr);
			rq_fail(rq, ERR_DOCKER_UNREADABLE, 1);
			return 0;
		}
		if (rv == DP_COMPLETE)
			return rq_answered(rq);
	}
	return 1;
}

static void
rq_readcb(struct bufferevent *bev, void *arg)
{
	struct docker_req	*rq = arg;

	if (rq->rq_state == RQ_STREAM) {
		(void)rq->rq_op->op_stream_read(rq, bufferevent_get_input(bev));
		return;
	}
	rq_feed(rq);
}

static void
rq_writecb(struct bufferevent *bev, void *arg)
{
	struct docker_req	*rq = arg;

	if (rq->rq_state == RQ_SEND)
		rq->rq_state = RQ_READ;
	if (rq->rq_state != RQ_STREAM)
		return;
	if (rq->rq_shutdown == 1 && docker_req_stream_queued(rq) == 0) {
		rq->rq_shutdown = 2;
		(void)shutdown(rq->rq_fd, SHUT_WR);
	}
	if (rq->rq_op->op_stream_drained != NULL)
		rq->rq_op->op_stream_drained(rq);
}

/* The raw stream ended: at EOF (error 0) or on an error. */
static void
rq_stream_end(struct docker_req *rq, int error)
{
	struct docker_call	 next;
	enum docker_next	 nx;

	memset(&next, 0, sizeof(next));
	nx = rq->rq_op->op_stream_end(rq, error, &next);
	if (nx == DOCKER_CALL_NEW) {
		rq_call_new(rq, &next, 0);
		return;
	}
	call_clear(&next);
	if (!rq->rq_replied)
		fatalx("%s: %s: a stream ended without an answer", __func__,
		    rq->rq_op->op_name);
	rq_free(rq);
}

void
docker_req_stream_fail(struct docker_req *rq, const char *code)
{
	rq_fail(rq, code, 1);
}

static void
rq_eventcb(struct bufferevent *bev, short what, void *arg)
{
	struct docker_req	*rq = arg;

	/* An idle keep-alive the engine closed: the next call asks anew. */
	if (rq->rq_state == RQ_IDLE) {
		if (what & (BEV_EVENT_ERROR | BEV_EVENT_EOF))
			rq_disconnect(rq);
		return;
	}
	if (rq->rq_state == RQ_STREAM) {
		if (what & (BEV_EVENT_ERROR | BEV_EVENT_EOF)) {
			/* The last bytes first: EOF may come with them. */
			if (evbuffer_get_length(bufferevent_get_input(bev)) >
			    0 && !rq->rq_op->op_stream_read(rq,
			    bufferevent_get_input(bev)))
				return;
			rq_stream_end(rq, (what & BEV_EVENT_ERROR) ?
			    EVUTIL_SOCKET_ERROR() : 0);
		}
		return;
	}
	if (what & BEV_EVENT_ERROR) {
		errno = EVUTIL_SOCKET_ERROR();
		log_warn("docker: %s", rq->rq_what);
		rq_fail(rq, ERR_DOCKER_UNREACHABLE, rq->rq_state == RQ_READ);
		return;
	}
	if (!(what & BEV_EVENT_EOF))
		return;
	if (!rq_feed(rq))
		return;
	/* Nothing at all: the engine is not there. */
	if (rq->rq_got == 0) {
		rq_fail(rq, ERR_DOCKER_UNREACHABLE, rq->rq_state == RQ_READ);
		return;
	}
	if (docker_parse_eof(&rq->rq_answer) == DP_COMPLETE) {
		rq_answered(rq);
		return;
	}
	log_warnx("docker: %s: %s", rq->rq_what, rq->rq_answer.dp_errstr);
	rq_fail(rq, ERR_DOCKER_UNREADABLE, 1);
}

static void
rq_timeout(int fd, short ev, void *arg)
{
	struct docker_req	*rq = arg;

	/* Asked, or delayed: the engine may still be at the last call. */
	rq_fail(rq, ERR_TIMEOUT, rq->rq_state != RQ_DELAY);
}

int
docker_req_start(const struct docker_op *op, uint32_t peerid, int fd,
    int timeout_ms, const void *data, size_t len)
{
	struct docker_req	*rq;
	struct docker_call	 cl;

	if ((rq = calloc(1, sizeof(*rq))) == NULL ||
	    (op->op_state_size > 0 &&
	    (rq->rq_data = calloc(1, op->op_state_size)) == NULL))
		fatal("%s: calloc", __func__);
	rq->rq_op = op;
	rq->rq_peerid = peerid;
	rq->rq_fd = -1;
	TAILQ_INSERT_TAIL(&env->de_reqs, rq, rq_entry);
	env->de_nreqs++;
	if ((rq->rq_timer = evtimer_new(env->de_base, rq_timeout, rq)) == NULL)
		fatalx("%s: evtimer_new", __func__);

	/* Nothing was asked of the engine yet: nothing to clean up. */
	if (env->de_nreqs > DOCKER_REQ_MAX) {
		if (fd != -1)
			close(fd);
		rq_fail_now(rq, ERR_BUSY);
		return -1;
	}
	if (op->op_fd && rq_connect(rq, fd) == -1) {
		rq_fail_now(rq, ERR_DOCKER_UNREACHABLE);
		return -1;
	}
	if (timeout_ms <= 0)
		timeout_ms = op->op_timeout_ms > 0 ? op->op_timeout_ms :
		    DOCKER_TIMEOUT_MS;
	rq_arm(rq, timeout_ms);

	memset(&cl, 0, sizeof(cl));
	if (op->op_start(rq, data, len, &cl) == -1) {
		call_clear(&cl);
		rq_fail_now(rq, ERR_BAD_REQUEST);
		return -1;
	}
	return rq_send(rq, &cl);
}

struct docker_req *
docker_req_find(uint32_t peerid, const struct docker_op *op)
{
	struct docker_req	*rq;

	TAILQ_FOREACH(rq, &env->de_reqs, rq_entry)
		if (rq->rq_peerid == peerid && rq->rq_op == op &&
		    !rq->rq_is_child && !rq->rq_replied)
			return rq;
	return NULL;
}

int
docker_req_cancel(uint32_t peerid)
{
	struct docker_req	*rq, *next;
	int			 n = 0;

	struct docker_call	 cl;
	enum docker_next	 nx;

	/* Children first: a parent's cancel may go on, they never do. */
	for (rq = TAILQ_FIRST(&env->de_reqs); rq != NULL; rq = next) {
		next = TAILQ_NEXT(rq, rq_entry);
		if (rq->rq_peerid != peerid || !rq->rq_is_child)
			continue;
		log_debug("docker: %s: cancelled (peer %u)",
		    rq->rq_op->op_name, peerid);
		rq_free(rq);
	}
	for (rq = TAILQ_FIRST(&env->de_reqs); rq != NULL; rq = next) {
		next = TAILQ_NEXT(rq, rq_entry);
		if (rq->rq_peerid != peerid)
			continue;
		log_debug("docker: %s: cancelled (peer %u)",
		    rq->rq_op->op_name, peerid);
		if (rq->rq_op->op_cancel == NULL || rq->rq_replied) {
			rq_free(rq);
			n++;
			continue;
		}
		memset(&cl, 0, sizeof(cl));
		switch ((nx = rq->rq_op->op_cancel(rq, &cl))) {
		case DOCKER_WAIT:
			call_clear(&cl);
			break;
		case DOCKER_CALL:
		case DOCKER_CALL_NEW:
			rq_call_new(rq, &cl, rq->rq_op->op_cleanup_ms > 0 ?
			    rq->rq_op->op_cleanup_ms : DOCKER_TIMEOUT_MS);
			break;
		default:
			rq_next(rq, nx, &cl);
			break;
		}
	}
	return n;
}
