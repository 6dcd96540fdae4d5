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
 * exec -t's resize: one POST /exec/{id}/resize, a child of the exec on
 * a connection of its own.  The engine holds a resize until the exec has
 * started, so the first one may go out beside the start.  Its answer is
 * a struct space_done to the exec (op_child).
 */

#include <sys/types.h>

#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "place_proto.h"
#include "docker_execcall.h"
#include "docker_req.h"

struct exec_resize {
	struct exec_resize_req	 rz;
};

static void
rz_answer_done(struct docker_req *rq, const char *code)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	sd.sd_exit = -1;
	docker_req_reply(rq, &sd, sizeof(sd));
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
	    NULL || st->rz.rz_rows == 0 || st->rz.rz_cols == 0)
		return -1;
	cl->cl_method = "POST";
	if ((size_t)snprintf(cl->cl_path, sizeof(cl->cl_path),
	    "%s/exec/%s/resize?h=%u&w=%u", st->rz.rz_api, st->rz.rz_exec_id,
	    (unsigned)st->rz.rz_rows, (unsigned)st->rz.rz_cols) >=
	    sizeof(cl->cl_path))
		return -1;
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	return 0;
}

static enum docker_next
rz_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	rz_answer_done(rq, p->dp_status == 200 || p->dp_status == 201 ? "" :
	    ERR_DOCKER_FAILED);
	return DOCKER_DONE;
}

static enum docker_next
rz_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	rz_answer_done(rq, code);
	return DOCKER_DONE;
}

const struct docker_op docker_exec_resize_op = {
	.op_name = "exec-resize",
	.op_state_size = sizeof(struct exec_resize),
	.op_start = rz_start,
	.op_answer = rz_answer,
	.op_fail = rz_fail,
};
