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

#include <criterion/criterion.h>
#include <signal.h>
#include <event2/event.h>
#include <string.h>

#include "worker-docker/docker_ops.h"
#include "worker-docker/docker_req.h"
#include "inproc.h"

int		 inproc_answers;
uint32_t	 inproc_last_type;
uint32_t	 inproc_last_peerid;
uint8_t		 inproc_last[16384];
size_t		 inproc_last_len;

static void
capture(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	cr_assert_leq(len, sizeof(inproc_last));
	inproc_answers++;
	inproc_last_type = type;
	inproc_last_peerid = peerid;
	memcpy(inproc_last, data, len);
	inproc_last_len = len;
}

struct event_base *
inproc_begin(void)
{
	struct event_base	*base;

	/* As the worker does (proc.c): a write to an engine that closed is EPIPE. */
	signal(SIGPIPE, SIG_IGN);
	cr_assert_not_null(base = event_base_new());
	docker_req_init(base, capture, 9999);
	inproc_answers = 0;
	return base;
}

void
inproc_end(struct event_base *base)
{
	cr_assert_eq(docker_req_count(), 0, "a request outlived the loop");
	event_base_free(base);
}

void
inproc_check(int fd, int timeout_ms, struct docker_check_msg *m)
{
	struct event_base	*base = inproc_begin();

	docker_req_start(docker_op_find(IMSG_DOCKER_CHECK_REQ), 1, fd,
	    timeout_ms, NULL, 0);
	/* Runs until the request is gone: nothing else is on this loop. */
	cr_assert_eq(event_base_dispatch(base), 1);
	cr_assert_eq(inproc_answers, 1, "one answer, not %d", inproc_answers);
	cr_assert_eq(inproc_last_type, IMSG_DOCKER_CHECK_REP);
	cr_assert_eq(inproc_last_peerid, 1);
	cr_assert_eq(inproc_last_len, sizeof(*m));
	memcpy(m, inproc_last, sizeof(*m));
	inproc_end(base);
}

/*
 * A two-call operation, as issue 7's will be: GET /_ping, then GET
 * /version on the same connection.  Answers "ok <Api-Version body>" or
 * "fail <code>" as a string, and counts its calls in its own state.
 */
struct pv_state {
	int	 pv_calls;
};

static int
pv_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct pv_state	*st = docker_req_state(rq);

	st->pv_calls = 1;
	cl->cl_method = "GET";
	strlcpy(cl->cl_path, "/_ping", sizeof(cl->cl_path));
	cl->cl_cap = 64;
	return 0;
}

static enum docker_next
pv_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct pv_state	*st = docker_req_state(rq);
	char		 out[128];

	if (st->pv_calls == 1 && p->dp_status == 200 && p->dp_body_len == 2 &&
	    memcmp(p->dp_body, "OK", 2) == 0) {
		st->pv_calls++;
		next->cl_method = "GET";
		strlcpy(next->cl_path, "/version", sizeof(next->cl_path));
		next->cl_cap = 64 * 1024;
		return DOCKER_CALL;
	}
	snprintf(out, sizeof(out), "%s %d %d", st->pv_calls == 2 &&
	    p->dp_status == 200 ? "ok" : "bad", st->pv_calls, p->dp_status);
	docker_req_reply(rq, out, strlen(out) + 1);
	return DOCKER_DONE;
}

static enum docker_next
pv_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	char	 out[128];

	snprintf(out, sizeof(out), "fail %s", code);
	docker_req_reply(rq, out, strlen(out) + 1);
	return DOCKER_DONE;
}

const struct docker_op inproc_ping_version_op = {
	.op_name = "ping-version",
	.op_req = 9001,
	.op_rep = 9002,
	.op_fd = 1,
	.op_state_size = sizeof(struct pv_state),
	.op_start = pv_start,
	.op_answer = pv_answer,
	.op_fail = pv_fail,
};
