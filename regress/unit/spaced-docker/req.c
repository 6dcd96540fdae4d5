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
 * docker_req.c in the test process: cancel gives back everything a
 * request holds, the in-flight cap answers busy, keep-alive carries two
 * calls on one connection, and a JSON body goes out as sent.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <criterion/criterion.h>
#include <event2/event.h>
#include <jansson.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "place_proto.h"
#include "worker-docker/docker_ops.h"
#include "worker-docker/docker_req.h"
#include "worker_harness.h"
#include "inproc.h"

static struct fe	 f;

static void
start_engine(int delay_ms)
{
	cr_assert_eq(fe_start(&f, delay_ms), 0, "fake_engine did not start");
}

Test(req, cancel_frees_fd_timer_and_buffers)
{
	const struct docker_op	*check = docker_op_find(IMSG_DOCKER_CHECK_REQ);
	struct event_base	*base;
	int			 nfds, i;

	start_engine(0);
	base = inproc_begin();
	nfds = wh_nfds(getpid());
	for (i = 0; i < 3; i++)
		cr_assert_eq(docker_req_start(check, i == 0 ? 1 : 2,
		    fe_connect(&f, "stall"), 0, NULL, 0), 0);
	/* Let them send and wait on the stalled engine. */
	for (i = 0; i < 5; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	cr_assert_eq(docker_req_count(), 3);
	cr_assert_eq(wh_nfds(getpid()), nfds + 3);
	/* Positive control: with requests pending the loop has events (0). */
	cr_assert_eq(event_base_loop(base, EVLOOP_NONBLOCK), 0);

	cr_assert_eq(docker_req_cancel(2), 2);
	cr_assert_eq(docker_req_count(), 1);
	cr_assert_eq(wh_nfds(getpid()), nfds + 1, "cancel left an fd open");
	cr_assert_eq(docker_req_cancel(99), 0);
	cr_assert_eq(docker_req_cancel(1), 1);
	cr_assert_eq(wh_nfds(getpid()), nfds);
	cr_assert_eq(docker_req_cancel(1), 0);

	/* No timer is left: the loop has nothing to wait for (1). */
	cr_assert_eq(event_base_loop(base, EVLOOP_NONBLOCK), 1,
	    "a deadline timer survived");
	cr_assert_eq(inproc_answers, 0, "a cancelled request answered");
	inproc_end(base);	/* LeakSanitizer checks the buffers at exit */
	fe_stop(&f);
}

/* Cancel while its answer is half read: the parser's body goes too. */
Test(req, cancel_mid_answer)
{
	const struct docker_op	*check = docker_op_find(IMSG_DOCKER_CHECK_REQ);
	struct event_base	*base = inproc_begin();
	const char		*part = "HTTP/1.1 200 OK\r\nContent-Length: "
				    "100\r\n\r\n{\"Version\":";
	int			 sv[2], nfds, i;
	char			 req[512];

	nfds = wh_nfds(getpid());
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(docker_req_start(check, 3, sv[0], 0, NULL, 0), 0);
	for (i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	cr_assert_gt(read(sv[1], req, sizeof(req)), 0);
	cr_assert_eq(write(sv[1], part, strlen(part)), (ssize_t)strlen(part));
	for (i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	cr_assert_eq(docker_req_cancel(3), 1);
	cr_assert_eq(wh_nfds(getpid()), nfds + 1);	/* our end only */
	close(sv[1]);
	event_base_dispatch(base);
	cr_assert_eq(inproc_answers, 0);
	inproc_end(base);
}

Test(req, in_flight_cap_answers_busy)
{
	const struct docker_op	*check = docker_op_find(IMSG_DOCKER_CHECK_REQ);
	struct event_base	*base = inproc_begin();
	struct docker_check_msg	 m;
	int			 sv[2], peer[DOCKER_REQ_MAX], i;

	for (i = 0; i < DOCKER_REQ_MAX; i++) {
		cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		peer[i] = sv[1];
		cr_assert_eq(docker_req_start(check, i, sv[0], 0, NULL, 0), 0);
	}
	cr_assert_eq(inproc_answers, 0);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(docker_req_start(check, 999, sv[0], 0, NULL, 0), -1);
	cr_assert_eq(inproc_answers, 1);
	cr_assert_eq(inproc_last_peerid, 999);
	memcpy(&m, inproc_last, sizeof(m));
	cr_assert_str_eq(m.dc_code, ERR_BUSY);
	cr_assert_eq(docker_req_count(), DOCKER_REQ_MAX);
	for (i = 0; i < DOCKER_REQ_MAX; i++) {
		cr_assert_eq(docker_req_cancel(i), 1);
		close(peer[i]);
	}
	close(sv[1]);
	inproc_end(base);
}

static void
two_calls(const char *mode, const char *want)
{
	struct event_base	*base = inproc_begin();

	cr_assert_eq(docker_req_start(&inproc_ping_version_op, 5,
	    fe_connect(&f, mode), 5000, NULL, 0), 0);
	event_base_dispatch(base);
	cr_assert_eq(inproc_answers, 1);
	cr_assert_str_eq((char *)inproc_last, want, "%s", mode);
	inproc_end(base);
}

Test(req, keep_alive_two_calls_one_connection)
{
	start_engine(0);
	two_calls("ok", "ok 2 200");
	two_calls("chunked", "ok 2 200");
	two_calls("truncated", "fail " ERR_DOCKER_UNREADABLE);
	two_calls("close", "fail " ERR_DOCKER_UNREACHABLE);
	fe_stop(&f);
}

/* An HTTP/1.0 answer closes the connection: no second call on it. */
Test(req, no_second_call_after_close)
{
	struct event_base	*base = inproc_begin();
	const char		*a = "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n"
				    "\r\nOK";
	char			 req[512];
	int			 sv[2], i;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(docker_req_start(&inproc_ping_version_op, 5, sv[0], 5000,
	    NULL, 0), 0);
	for (i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	cr_assert_gt(read(sv[1], req, sizeof(req)), 0);
	cr_assert_eq(write(sv[1], a, strlen(a)), (ssize_t)strlen(a));
	event_base_dispatch(base);
	cr_assert_str_eq((char *)inproc_last, "fail " ERR_DOCKER_UNREACHABLE);
	close(sv[1]);
	inproc_end(base);
}

/* A body given as JSON goes out compact, with its length. */
static int
post_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	cl->cl_method = "POST";
	strlcpy(cl->cl_path, "/v1.41/networks/create", sizeof(cl->cl_path));
	cl->cl_body = json_pack("{s:s, s:b}", "Name", "n", "Internal", 1);
	cl->cl_cap = 1024;
	return 0;
}

static enum docker_next
post_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	char	 out[16];

	snprintf(out, sizeof(out), "%d", p->dp_status);
	docker_req_reply(rq, out, strlen(out) + 1);
	return DOCKER_DONE;
}

static enum docker_next
post_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	docker_req_reply(rq, code, strlen(code) + 1);
	return DOCKER_DONE;
}

Test(req, json_body_sent)
{
	static const struct docker_op	 post = {
		.op_name = "post", .op_rep = 9003, .op_fd = 1,
		.op_start = post_start, .op_answer = post_answer,
		.op_fail = post_fail,
	};
	struct event_base	*base = inproc_begin();
	const char		*want = "POST /v1.41/networks/create HTTP/1.1\r\n"
				    "Host: docker\r\nUser-Agent: spaced\r\n"
				    "Content-Type: application/json\r\n"
				    "Content-Length: 28\r\n\r\n"
				    "{\"Name\":\"n\",\"Internal\":true}";
	const char		*a = "HTTP/1.1 201 Created\r\n"
				    "Content-Length: 2\r\n\r\n{}";
	char			 req[512];
	size_t			 got = 0;
	ssize_t			 n;
	int			 sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(docker_req_start(&post, 1, sv[0], 5000, NULL, 0), 0);
	while (got < strlen(want)) {
		event_base_loop(base, EVLOOP_NONBLOCK);
		n = recv(sv[1], req + got, sizeof(req) - 1 - got, MSG_DONTWAIT);
		if (n > 0)
			got += n;
	}
	req[got] = '\0';
	cr_assert_str_eq(req, want);
	cr_assert_eq(write(sv[1], a, strlen(a)), (ssize_t)strlen(a));
	event_base_dispatch(base);
	cr_assert_str_eq((char *)inproc_last, "201");
	close(sv[1]);
	inproc_end(base);
}

/* We never pipeline: an answer that came before we asked is refused. */
Test(req, bytes_before_asking_refused)
{
	struct event_base	*base = inproc_begin();
	const char		*a = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
				    "\r\nOK" "HTTP/1.1 200 OK\r\n"
				    "Content-Length: 2\r\n\r\n{}";
	char			 req[512];
	int			 sv[2], i;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(docker_req_start(&inproc_ping_version_op, 5, sv[0], 5000,
	    NULL, 0), 0);
	for (i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	cr_assert_gt(read(sv[1], req, sizeof(req)), 0);
	cr_assert_eq(write(sv[1], a, strlen(a)), (ssize_t)strlen(a));
	event_base_dispatch(base);
	cr_assert_str_eq((char *)inproc_last, "fail " ERR_DOCKER_UNREADABLE);
	close(sv[1]);
	inproc_end(base);
}
