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
 * A bare exec's held first frame (docker_exec_stream.c): one GET
 * /exec/{id}/json, a child of the exec on a connection of its own, so
 * that a command's own first line need not wait for its next output or
 * its end.  It answers docker_exec_started's 1, 0 or -1 (no answer).
 */

#include <sys/types.h>

#include <stdio.h>
#include <string.h>

#include "docker_execcall.h"
#include "docker_req.h"

static int
es_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct exec_started_req	*es = docker_req_state(rq);

	if (len != sizeof(*es))
		return -1;
	memcpy(es, data, len);
	if (memchr(es->es_api, '\0', sizeof(es->es_api)) == NULL ||
	    memchr(es->es_exec_id, '\0', sizeof(es->es_exec_id)) == NULL ||
	    es->es_exec_id[0] == '\0')
		return -1;
	cl->cl_method = "GET";
	if ((size_t)snprintf(cl->cl_path, sizeof(cl->cl_path),
	    "%s/exec/%s/json", es->es_api, es->es_exec_id) >=
	    sizeof(cl->cl_path))
		return -1;
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	return 0;
}

static enum docker_next
es_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	int	 started = docker_exec_started(p);

	docker_req_reply(rq, &started, sizeof(started));
	return DOCKER_DONE;
}

/* Unanswered: the exec's exit decides, as before the question. */
static enum docker_next
es_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	int	 started = -1;

	docker_req_reply(rq, &started, sizeof(started));
	return DOCKER_DONE;
}

const struct docker_op docker_exec_started_op = {
	.op_name = "exec-started",
	.op_state_size = sizeof(struct exec_started_req),
	.op_start = es_start,
	.op_answer = es_answer,
	.op_fail = es_fail,
};
