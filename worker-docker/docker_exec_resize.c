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
 * exec -t's resize: POST /exec/{id}/resize, a child of the exec on a
 * connection of its own that it keeps: after each answer it sends the
 * size wanted then, RZ_GAP_MS after the last at the soonest, or waits
 * (op_idle) for docker_exec_resize_more.  A flood of sizes is then one
 * connection and ten calls a second.  The engine holds a resize until
 * the exec has started, so the first may go out beside the start.  It
 * answers the exec (op_child) only when it ends: its connection broke,
 * or a call's deadline passed.
 */

#include <sys/types.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "log.h"
#include "place_proto.h"
#include "docker_execcall.h"
#include "docker_req.h"

#define RZ_GAP_MS	100	/* between two calls at least */

struct exec_resize {
	struct exec_resize_req	 rz;
	struct timespec		 last;	/* the last call went */
};

/* How long the next call waits: RZ_GAP_MS after the last went out. */
static int
rz_wait_ms(struct exec_resize *st)
{
	struct timespec	 now;
	long		 ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = RZ_GAP_MS - ((now.tv_sec - st->last.tv_sec) * 1000 +
	    (now.tv_nsec - st->last.tv_nsec) / 1000000);
	if (ms < 0 || ms > RZ_GAP_MS)
		ms = 0;
	/* The next one counts from when this one goes out. */
	st->last = now;
	st->last.tv_nsec += ms * 1000000;
	if (st->last.tv_nsec >= 1000000000) {
		st->last.tv_sec++;
		st->last.tv_nsec -= 1000000000;
	}
	return (int)ms;
}

/* The call for the size wanted now; -1 if it does not fit. */
static int
rz_call(struct exec_resize *st, struct docker_call *cl)
{
	struct exec_tty	*t = st->rz.rz_tty;

	cl->cl_method = "POST";
	if ((size_t)snprintf(cl->cl_path, sizeof(cl->cl_path),
	    "%s/exec/%s/resize?h=%u&w=%u", st->rz.rz_api, st->rz.rz_exec_id,
	    (unsigned)t->want_rows, (unsigned)t->want_cols) >=
	    sizeof(cl->cl_path))
		return -1;
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	cl->cl_delay_ms = rz_wait_ms(st);
	t->sent_rows = t->want_rows;
	t->sent_cols = t->want_cols;
	t->busy = 1;
	return 0;
}

static int
rz_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct exec_resize	*st = docker_req_state(rq);

	if (len != sizeof(st->rz))
		return -1;
	memcpy(&st->rz, data, len);
	if (memchr(st->rz.rz_api, '\0', sizeof(st->rz.rz_api)) == NULL ||
	    memchr(st->rz.rz_exec_id, '\0', sizeof(st->rz.rz_exec_id)) ==
	    NULL || st->rz.rz_tty == NULL || st->rz.rz_tty->want_rows == 0 ||
	    st->rz.rz_tty->want_cols == 0)
		return -1;
	return rz_call(st, cl);
}

static enum docker_next
rz_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct exec_resize	*st = docker_req_state(rq);
	struct space_done	 sd;

	st->rz.rz_tty->busy = 0;
	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	sd.sd_exit = -1;
	docker_req_reply(rq, &sd, sizeof(sd));
	return DOCKER_DONE;
}

int
docker_exec_resize_more(struct docker_req *rq)
{
	struct exec_resize	*st = docker_req_state(rq);
	struct docker_call	 cl;

	if (docker_req_op(rq) != &docker_exec_resize_op)
		return -1;
	memset(&cl, 0, sizeof(cl));
	if (rz_call(st, &cl) == -1) {
		st->rz.rz_tty->busy = 0;
		return -1;
	}
	if (docker_req_resume(rq, &cl) == -1) {
		st->rz.rz_tty->busy = 0;
		return -1;
	}
	return 0;
}

/* Answered: a refusal is logged; the next size on this connection. */
static enum docker_next
rz_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct exec_resize	*st = docker_req_state(rq);
	struct exec_tty		*t = st->rz.rz_tty;

	if (p->dp_status != 200 && p->dp_status != 201)
		log_warnx("exec: resize: the engine answered %d",
		    p->dp_status);
	t->busy = 0;
	if (t->want_rows == t->sent_rows && t->want_cols == t->sent_cols)
		return DOCKER_WAIT;
	if (rz_call(st, next) == -1)
		return DOCKER_WAIT;
	/* A deadline a call, not one for the whole flood. */
	docker_req_deadline(rq, DOCKER_TIMEOUT_MS + next->cl_delay_ms);
	return DOCKER_CALL;
}

const struct docker_op docker_exec_resize_op = {
	.op_name = "exec-resize",
	.op_state_size = sizeof(struct exec_resize),
	.op_start = rz_start,
	.op_answer = rz_answer,
	.op_fail = rz_fail,
	.op_idle = 1,
};
