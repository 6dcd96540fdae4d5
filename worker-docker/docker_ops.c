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
 * The operation table: check here, the others in their files' rows
 * (docker_ops.h).  An operation is start (the first call), answer (the
 * next call, or the reply) and fail; a space or tools operation of
 * several steps is rows of its step table (space.h, tools_volume.h).
 * The state machine, deadline, connection and cancel are docker_req.c's.
 */

#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "place_proto.h"
#include "docker_check.h"
#include "docker_ops.h"
#include "docker_parse.h"

/*
 * check: GET /version, unversioned because the version we may use comes
 * from its answer.
 */
static int
check_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	cl->cl_method = "GET";
	strlcpy(cl->cl_path, "/version", sizeof(cl->cl_path));
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	return 0;
}

static enum docker_next
check_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct docker_check_msg	 dc;

	memset(&dc, 0, sizeof(dc));
	strlcpy(dc.dc_code, code, sizeof(dc.dc_code));
	docker_req_reply(rq, &dc, sizeof(dc));
	return DOCKER_DONE;
}

/*
 * Two calls on one connection: /version, then /info for the engine's
 * seccomp profile (a space's default filter is the engine's).
 */
static enum docker_next
check_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct docker_check_msg	*dc = docker_req_state(rq);
	const char		*code;
	char			 use[16], prefix[24];

	if (dc->dc_version[0] != '\0') {
		/* the answer to /info */
		if (p->dp_status != 200) {
			log_warnx("docker: GET /info: status %d", p->dp_status);
			return check_fail(rq, ERR_DOCKER_UNREADABLE, 0, NULL);
		}
		if ((code = docker_info_seccomp(p->dp_body, p->dp_body_len)) !=
		    NULL) {
			dc->dc_available = 0;
			dc->dc_host_isolation = 0;
			strlcpy(dc->dc_code, code, sizeof(dc->dc_code));
		}
		docker_req_reply(rq, dc, sizeof(*dc));
		return DOCKER_DONE;
	}
	if (p->dp_status != 200) {
		log_warnx("docker: GET /version: status %d", p->dp_status);
		return check_fail(rq, ERR_DOCKER_UNREADABLE, 0, NULL);
	}
	if ((code = docker_version_parse(p->dp_body, p->dp_body_len, dc)) !=
	    NULL) {
		log_warnx("docker: GET /version: %s (ApiVersion \"%s\")",
		    code, dc->dc_api_version);
		docker_req_reply(rq, dc, sizeof(*dc));
		return DOCKER_DONE;
	}
	if (docker_api_negotiate(dc->dc_api_version, dc->dc_min_api_version,
	    use, sizeof(use)) != NULL || dc->dc_version[0] == '\0')
		return check_fail(rq, ERR_INTERNAL, 0, NULL);
	next->cl_method = "GET";
	snprintf(next->cl_path, sizeof(next->cl_path), "/v%s/info", use);
	snprintf(prefix, sizeof(prefix), "/v%s", use);
	docker_api_remember(prefix);
	next->cl_cap = DOCKER_BODY_MAX_SMALL;
	return DOCKER_CALL;
}

static const struct docker_op docker_ops[] = {
	{
		.op_name = "check",
		.op_req = IMSG_DOCKER_CHECK_REQ,
		.op_rep = IMSG_DOCKER_CHECK_REP,
		.op_len = 0,
		.op_fd = 1,
		.op_state_size = sizeof(struct docker_check_msg),
		.op_start = check_start,
		.op_answer = check_answer,
		.op_fail = check_fail,
	},
};

const struct docker_op *
docker_op_find(uint32_t type)
{
	size_t	 i;

	for (i = 0; i < sizeof(docker_ops) / sizeof(docker_ops[0]); i++)
		if (docker_ops[i].op_req == type)
			return &docker_ops[i];
	if (type == docker_exec_op.op_req)
		return &docker_exec_op;
	if (type == docker_logs_op.op_req)
		return &docker_logs_op;
	if (type == docker_disk_op.op_req)
		return &docker_disk_op;
	for (i = 0; i < docker_space_nops; i++)
		if (docker_space_ops[i].op_req == type)
			return &docker_space_ops[i];
	for (i = 0; i < docker_tools_nops; i++)
		if (docker_tools_ops[i].op_req == type)
			return &docker_tools_ops[i];
	return NULL;
}
