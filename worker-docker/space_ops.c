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
 * The space operations' rows for the op table, and the driver of their
 * steps: each step's row (space.h) names its call and what its answer
 * does; the operation files never call back into this one.
 */

#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "space.h"
#include "docker_ops.h"
#include "docker_steps.h"
#include "tools_prune.h"

static enum docker_next	version_take(struct docker_req *, struct sp *,
			    const struct docker_parser *, struct docker_call *);
static const struct sp_step_row version_row = {
	S_VERSION, NULL, version_take, S_VERSION
};
static const size_t version_row_n = 1;

static const struct {
	const struct sp_step_row	*t_rows;
	const size_t			*t_n;
} step_tables[] = {
	{ &version_row, &version_row_n },
	{ space_create_steps, &space_create_steps_n },
	{ space_start_steps, &space_start_steps_n },
	{ space_verify_steps, &space_verify_steps_n },
	{ space_stop_steps, &space_stop_steps_n },
	{ space_remove_steps, &space_remove_steps_n },
	{ space_list_steps, &space_list_steps_n },
	{ space_move_steps, &space_move_steps_n },
};

/* step_row and sp_go, the driver of these rows (docker_steps.h). */
STEPS_GENERATE(sp, sp, step, sp_step_row, sp_step, step_tables, SP_SEND,
    SP_ADVANCE)

/* The API version is known: each operation's first step. */
static enum docker_next
version_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	const char	*code, *message;

	if ((code = engine_version_take(p, sp->api, sizeof(sp->api),
	    &message)) != NULL) {
		done(rq, code, message, 0);
		return DOCKER_DONE;
	}
	switch (sp->op) {
	case IMSG_SPACE_CREATE_REQ:
		return create_begin(rq, sp);
	case IMSG_SPACE_LIST_REQ:
		sp->step = L_C;
		break;
	case IMSG_SPACE_SHOW_REQ:
		sp->step = sp->sq.sq_look ? L_LOOK : L_C;
		break;
	case IMSG_SPACE_VERIFY_REQ:
		sp->step = V_SP;
		break;
	case IMSG_SPACE_START_REQ:
		/* first: a move this process did not finish? */
		sp->step = P_ASIDE;
		break;
	case IMSG_SPACE_MOVE_DONE_REQ:
		sp->step = D_OLD;
		break;
	case IMSG_SPACE_MOVE_UNDO_REQ:
		return move_undo(rq, sp, "", NULL, 0);
	case IMSG_SPACE_STOP_REQ:
		sp->step = ST_SP;
		break;
	case IMSG_SPACE_REMOVE_REQ:
		sp->step = sp->sq.sq_oom ? R_OOM_OWN : R_LIST_C;
		break;
	default:
		fatalx("%s: op %u", __func__, sp->op);
	}
	return SP_SEND;
}

/* The ops this file drives; the branch's row is handed to create. */
static const struct docker_op	gk_branch_op;

static int
sp_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct sp	*sp = docker_req_state(rq);

	memcpy(&sp->sq, data, sizeof(sp->sq));
	sp->op = docker_req_op(rq)->op_req;
	sp->branch_op = &gk_branch_op;
	/*
	 * Its ensure kept its tools from a prune (tools_prune.h): kept
	 * now till this request's end, whatever ends it.
	 */
	if (sp->op == IMSG_SPACE_CREATE_REQ || sp->op == IMSG_SPACE_START_REQ) {
		sp->tools_peer = docker_req_peerid(rq);
		tools_claim(sp->tools_peer);
	}
	/* spaced checked these; a worker trusts its parent, but not blindly */
	if (!space_owner_valid(sp->sq.sq_owner) ||
	    memchr(sp->sq.sq_space_image, '\0', SPACE_IMAGE_MAX) == NULL ||
	    memchr(sp->sq.sq_gk_image, '\0', SPACE_IMAGE_MAX) == NULL ||
	    memchr(sp->sq.sq_hosts, '\0', SPACE_HOSTS_MAX) == NULL ||
	    memchr(sp->sq.sq_name, '\0', sizeof(sp->sq.sq_name)) == NULL ||
	    memchr(sp->sq.sq_project, '\0', sizeof(sp->sq.sq_project)) ==
	    NULL ||
	    (sp->op != IMSG_SPACE_CREATE_REQ && sp->op != IMSG_SPACE_LIST_REQ &&
	    !space_id_valid(sp->sq.sq_id)) ||
	    space_agent_check(&sp->sq.sq_agent) != NULL)
		return -1;
	if (sp->op == IMSG_SPACE_CREATE_REQ) {
		memcpy(sp->token, ((const struct space_create_req *)data)->
		    cq_token, sizeof(sp->token));
		if (sp->token[0] != '\0' &&
		    !space_token_valid(sp->token, sizeof(sp->token)))
			return -1;
		sp->writes_token = sp->token[0] != '\0';
	}
	if (sp->op != IMSG_SPACE_CREATE_REQ && sp->op != IMSG_SPACE_LIST_REQ)
		strlcpy(sp->meta.sm_id, sp->sq.sq_id, sizeof(sp->meta.sm_id));
	sp->step = S_VERSION;
	engine_version_call(sp->api, sizeof(sp->api), cl);
	return 0;
}

/* MOVE_DONE and MOVE_UNDO: a space_req and the two Ids. */
static int
sp_move_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct sp		*sp = docker_req_state(rq);
	struct space_move_req	 mq;

	memcpy(&mq, data, sizeof(mq));
	if (sp_start(rq, &mq.mq_space, sizeof(mq.mq_space), cl) == -1 ||
	    memchr(mq.mq_move.mv_old, '\0', SPACE_CID_SIZE) == NULL ||
	    memchr(mq.mq_move.mv_new, '\0', SPACE_CID_SIZE) == NULL ||
	    !docker_plain_ref(mq.mq_move.mv_old) ||
	    (sp->op == IMSG_SPACE_MOVE_UNDO_REQ &&
	    !docker_plain_ref(mq.mq_move.mv_new)) ||
	    tools_keep_valid(&mq.mq_keep) == -1)
		return -1;
	sp->mv = mq.mq_move;
	sp->mq_keep = mq.mq_keep;
	return 0;
}

static enum docker_next
sp_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct sp			*sp = docker_req_state(rq);
	const struct sp_step_row	*row = step_row(sp->step);

	if (row->st_take == NULL)
		fatalx("%s: an answer at step %d", __func__, sp->step);
	return sp_go(rq, sp, row->st_take(rq, sp, p, next), next);
}

static enum docker_next
sp_op_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct sp	*sp = docker_req_state(rq);

	return sp_go(rq, sp, sp_fail(rq, sp, code, NULL, interrupted, next),
	    next);
}

/* A child's answer: the gatekeeper's branch, or the token's exec. */
static enum docker_next
sp_child_take(struct docker_req *rq, struct sp *sp, const void *data,
    size_t len, struct docker_call *next)
{
	if (sp->token_child) {
		if (len != sizeof(sp->token_sd) || sp->token_done)
			fatalx("%s: a second answer of the token", __func__);
		memcpy(&sp->token_sd, data, len);
		if (memchr(sp->token_sd.sd_code, '\0',
		    sizeof(sp->token_sd.sd_code)) == NULL)
			fatalx("%s: a bad answer of the token", __func__);
		sp->token_child = sp->child_running = 0;
		sp->token_done = 1;
		if (sp->rollback_pending)
			return sp_rollback(sp);
		/* Only a request that waits for it goes on; else later. */
		if (sp->step == C_WAIT_TOKEN)
			return token_joined(rq, sp, next);
		return DOCKER_WAIT;
	}
	if (len != sizeof(*sp->child) || sp->child_done)
		fatalx("%s: a second answer of the branch", __func__);
	if ((sp->child = malloc(sizeof(*sp->child))) == NULL)
		fatal("%s", __func__);
	memcpy(sp->child, data, len);
	sp->child_running = 0;
	sp->child_done = 1;
	if (sp->rollback_pending) {
		if (sp->child->br_interrupted)
			sp->uncertain = 1;
		return sp_rollback(sp);
	}
	if (sp->step == C_WAIT_GK)
		return gk_joined(rq, sp, next);
	return DOCKER_WAIT;
}

static enum docker_next
sp_child(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *next)
{
	struct sp	*sp = docker_req_state(rq);

	return sp_go(rq, sp, sp_child_take(rq, sp, data, len, next), next);
}

/* What a cancel does next: a call goes on a new connection. */
static enum docker_next
cancel_go(struct docker_req *rq, struct sp *sp, enum docker_next nx,
    struct docker_call *next)
{
	return sp_go(rq, sp, nx, next) == DOCKER_CALL ? DOCKER_CALL_NEW :
	    DOCKER_DONE;
}

/*
 * A create its client left, or spaced's deadline passed: what it made
 * goes, as after a failure.  Anything else simply ends.
 */
static enum docker_next
sp_cancel(struct docker_req *rq, struct docker_call *next)
{
	struct sp	*sp = docker_req_state(rq);

	/* docker_req_cancel freed the branch: it makes nothing more */
	sp->child_running = sp->token_child = 0;
	if (sp->moving || sp->op == IMSG_SPACE_MOVE_UNDO_REQ) {
		/* A move its client left: undone, as after a failure. */
		if (sp->undoing)
			return DOCKER_WAIT;
		return cancel_go(rq, sp, move_undo(rq, sp, ERR_CANCELLED,
		    "the client left", 1), next);
	}
	if (sp->op != IMSG_SPACE_CREATE_REQ || !sp->names_free) {
		done(rq, ERR_CANCELLED, NULL, 0);
		return DOCKER_DONE;
	}
	if (sp->rolling_back) {
		/* under way; a rollback waiting for the branch goes now */
		if (!sp->rollback_pending)
			return DOCKER_WAIT;
		sp->uncertain = 1;
		return cancel_go(rq, sp, sp_rollback(sp), next);
	}
	/* A call of ours may be under way in the engine: sweep twice. */
	return cancel_go(rq, sp, sp_fail(rq, sp, ERR_CANCELLED,
	    "the client left", 1, next), next);
}

static void
sp_free(void *state)
{
	struct sp	*sp = state;

	inflight_release(sp);
	if (sp->tools_peer != 0)
		tools_unkeep(sp->tools_peer);
	free(sp->res);
	free(sp->child);
	explicit_bzero(sp->token, sizeof(sp->token));
}

#define SPACE_OP(name, type, ms) SPACE_OP_LEN(name, type, ms,	\
	sizeof(struct space_req))
#define SPACE_OP_LEN(name, type, ms, len) {				\
	.op_name = name, .op_req = type, .op_rep = IMSG_SPACE_DONE,	\
	.op_len = len, .op_fd = 1,					\
	.op_timeout_ms = ms, .op_state_size = sizeof(struct sp),	\
	.op_start = sp_start, .op_answer = sp_answer,			\
	.op_fail = sp_op_fail, .op_free = sp_free, .op_child = sp_child, \
	.op_cancel = sp_cancel,						\
	.op_cleanup_ms = 30000 }

/* The end of a move: a struct space_move_req, under its own deadline. */
#define MOVE_OP(name, type) {						\
	.op_name = name, .op_req = type, .op_rep = IMSG_SPACE_DONE,	\
	.op_len = sizeof(struct space_move_req), .op_fd = 1,		\
	.op_timeout_ms = 60000, .op_state_size = sizeof(struct sp),	\
	.op_start = sp_move_start, .op_answer = sp_answer,		\
	.op_fail = sp_op_fail, .op_free = sp_free, .op_child = sp_child, \
	.op_cancel = sp_cancel,						\
	.op_cleanup_ms = 30000 }

static const struct docker_op gk_branch_op = {
	.op_name = "create-gatekeeper",
	.op_len = sizeof(struct sp),
	.op_timeout_ms = 120000,
	.op_state_size = sizeof(struct sp),
	.op_start = gk_branch_start,
	.op_answer = sp_answer,
	.op_fail = sp_op_fail,
	.op_free = sp_free,
	.op_cleanup_ms = 30000,
};

const struct docker_op docker_space_ops[] = {
	SPACE_OP_LEN("create", IMSG_SPACE_CREATE_REQ, 120000,
	    sizeof(struct space_create_req)),
	SPACE_OP("list", IMSG_SPACE_LIST_REQ, 30000),
	SPACE_OP("show", IMSG_SPACE_SHOW_REQ, 30000),
	SPACE_OP("verify", IMSG_SPACE_VERIFY_REQ, 30000),
	SPACE_OP("stop", IMSG_SPACE_STOP_REQ, 40000),
	SPACE_OP("start", IMSG_SPACE_START_REQ, 90000),
	SPACE_OP("remove", IMSG_SPACE_REMOVE_REQ, 60000),
	MOVE_OP("move-done", IMSG_SPACE_MOVE_DONE_REQ),
	MOVE_OP("move-undo", IMSG_SPACE_MOVE_UNDO_REQ),
};
const size_t docker_space_nops = sizeof(docker_space_ops) /
    sizeof(docker_space_ops[0]);
