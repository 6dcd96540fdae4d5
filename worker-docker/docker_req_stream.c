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
 * A request in raw stream mode (after a 101): the op's own bytes in and
 * out of the connection, with flow control; an answer's body handed to
 * the op; and a request's fields for its op.  Leaf functions: they call
 * nothing of docker_req.c, which calls them.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "log.h"
#include "docker_env.h"
#include "docker_req_int.h"

size_t
docker_req_count(void)
{
	return env->de_nreqs;
}

void *
docker_req_state(struct docker_req *rq)
{
	return rq->rq_data;
}

uint32_t
docker_req_peerid(const struct docker_req *rq)
{
	return rq->rq_peerid;
}

const struct docker_op *
docker_req_op(const struct docker_req *rq)
{
	return rq->rq_op;
}

struct docker_req *
docker_req_child(struct docker_req *rq)
{
	return rq->rq_child;
}

void
docker_req_stream_write(struct docker_req *rq, const void *data, size_t len)
{
	struct evbuffer	*out;
	const uint8_t	*p = data;
	ssize_t		 n;

	if (rq->rq_state != RQ_STREAM || rq->rq_shutdown)
		fatalx("%s: not a stream, or shut", __func__);
	out = bufferevent_get_output(rq->rq_bev);
	/*
	 * An idle connection: the bytes go now (a keystroke), not after
	 * one more turn of the loop.  What is left, or an error, is the
	 * bufferevent's as before; its write callback (the credit) runs
	 * from the loop, never inside a caller's own loop of writes.
	 */
	if (evbuffer_get_length(out) == 0 && len > 0) {
		while ((n = write(rq->rq_fd, p, len)) == -1 && errno == EINTR)
			;
		if (n > 0) {
			p += n;
			len -= n;
		}
		if (len == 0) {
			bufferevent_trigger(rq->rq_bev, EV_WRITE,
			    BEV_TRIG_IGNORE_WATERMARKS |
			    BEV_TRIG_DEFER_CALLBACKS);
			return;
		}
	}
	if (evbuffer_add(out, p, len) == -1)
		fatal("%s: evbuffer_add", __func__);
}

struct evbuffer *
docker_req_stream_input(struct docker_req *rq)
{
	if (rq->rq_state != RQ_STREAM || rq->rq_bev == NULL)
		return NULL;
	return bufferevent_get_input(rq->rq_bev);
}

size_t
docker_req_stream_queued(struct docker_req *rq)
{
	if (rq->rq_bev == NULL)
		return 0;
	return evbuffer_get_length(bufferevent_get_output(rq->rq_bev));
}

void
docker_req_stream_shutdown(struct docker_req *rq)
{
	if (rq->rq_state != RQ_STREAM || rq->rq_shutdown)
		return;
	rq->rq_shutdown = 1;
	if (docker_req_stream_queued(rq) == 0) {
		rq->rq_shutdown = 2;
		(void)shutdown(rq->rq_fd, SHUT_WR);
	}
}

void
docker_req_stream_pause(struct docker_req *rq, int pause)
{
	if (rq->rq_bev == NULL)
		return;
	if (pause)
		bufferevent_disable(rq->rq_bev, EV_READ);
	else
		bufferevent_enable(rq->rq_bev, EV_READ);
}

uint8_t *
docker_req_body_take(struct docker_req *rq, size_t *len)
{
	uint8_t	*body = rq->rq_answer.dp_body;

	*len = rq->rq_answer.dp_body_len;
	rq->rq_answer.dp_body = NULL;
	rq->rq_answer.dp_body_len = rq->rq_answer.dp_body_alloc = 0;
	return body;
}
