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
 * The tools volume's rows for the op table, and the driver of their
 * steps (tools_volume.h); the step files never call back into this one.
 */

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "docker_ops.h"
#include "docker_steps.h"
#include "tools_volume.h"

static enum docker_next	version_take(struct docker_req *, struct tv *,
			    const struct docker_parser *, struct docker_call *);
static const struct tv_step_row version_row = {
	S_VERSION, NULL, version_take, S_VERSION
};
static const size_t version_row_n = 1;

static const struct {
	const struct tv_step_row	*t_rows;
	const size_t			*t_n;
} step_tables[] = {
	{ &version_row, &version_row_n },
	{ tools_ensure_steps, &tools_ensure_steps_n },
	{ tools_fill_steps, &tools_fill_steps_n },
	{ tools_rollback_steps, &tools_rollback_steps_n },
	{ tools_list_steps, &tools_list_steps_n },
	{ tools_corridor_steps, &tools_corridor_steps_n },
};

/* step_row and tv_go, the driver of these rows (docker_steps.h). */
STEPS_GENERATE(tv, tv, step, tv_step_row, tv_step, step_tables, TV_SEND,
    TV_ADVANCE)

static enum docker_next
version_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	const char	*code, *message;

	if ((code = engine_version_take(p, tv->api, sizeof(tv->api),
	    &message)) != NULL) {
		tools_reply(rq, tv, code, message, 0, -1);
		return DOCKER_DONE;
	}
	tv->step = tv->op == IMSG_TOOLS_LIST_REQ ? L_VOLS : S_WAIT;
	return TV_SEND;
}

static int
tv_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct tv	*tv = docker_req_state(rq);
	char		 name[TOOLS_MSG_VOLUME_MAX];
	time_t		 now = time(NULL);
	struct tm	 tm;
	size_t		 i;

	memcpy(&tv->req, data, sizeof(tv->req));
	tv->op = docker_req_op(rq)->op_req;
	tv->peerid = docker_req_peerid(rq);
	for (i = 0; i < TOOLS_MSG_FILES_MAX; i++)
		tv->files[i].f_fd = -1;
	tools_track(tv);
	gmtime_r(&now, &tm);
	strftime(tv->created, sizeof(tv->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	/* spaced checked all this; a worker trusts its parent, not blindly */
	if (!space_owner_valid(tv->req.te_owner) ||
	    memchr(tv->req.te_image, '\0', sizeof(tv->req.te_image)) == NULL ||
	    memchr(tv->req.te_description, '\0',
	    sizeof(tv->req.te_description)) == NULL ||
	    memchr(tv->req.te_key, '\0', sizeof(tv->req.te_key)) == NULL ||
	    memchr(tv->req.te_volume, '\0', sizeof(tv->req.te_volume)) ==
	    NULL || memchr(tv->req.te_gk_image, '\0',
	    sizeof(tv->req.te_gk_image)) == NULL ||
	    tv->req.te_pad[0] != 0 || tv->req.te_pad[1] != 0 ||
	    tv->req.te_hold > 1 || tools_keep_valid(&tv->req.te_keep) == -1 ||
	    tv->req.te_nfiles > TOOLS_MSG_FILES_MAX)
		return -1;
	if (tv->op == IMSG_TOOLS_ENSURE_REQ) {
		if (tv->req.te_image[0] == '\0' ||
		    !tools_key_valid(tv->req.te_key) ||
		    tools_owner_volume(tv->req.te_owner, tv->req.te_key, name,
		    sizeof(name)) == -1 ||
		    strcmp(name, tv->req.te_volume) != 0 ||
		    agent_profile_check(&tv->req.te_profile) != NULL ||
		    tv->req.te_nfiles == 0 || tools_fill_uid(tv->req.te_key,
		    tv->req.te_uid_first, tv->req.te_uid_count) == 0 ||
		    tv->req.te_gk_image[0] == '\0' ||
		    tools_runtime_owner(tv->req.te_owner,
		    tv->req.te_runtime_uid, tv->rt_owner,
		    sizeof(tv->rt_owner)) == -1 || !net_pool_valid(
		    &(struct net_pool){ tv->req.te_net_base,
		    tv->req.te_net_pool_prefix, tv->req.te_net_prefix }))
			return -1;
		strlcpy(tv->volume, tv->req.te_volume, sizeof(tv->volume));
		strlcpy(tv->key, tv->req.te_key, sizeof(tv->key));
		strlcpy(tv->desc, tv->req.te_description, sizeof(tv->desc));
	} else if (tv->req.te_image[0] == '\0')
		return -1;
	tv->step = S_VERSION;
	engine_version_call(tv->api, sizeof(tv->api), cl);
	return 0;
}

static enum docker_next
tv_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct tv			*tv = docker_req_state(rq);
	const struct tv_step_row	*row = step_row(tv->step);

	if (tv->step != O_STREAM)
		docker_req_deadline(rq, TV_STEP_MS);
	if (row->st_take == NULL)
		fatalx("%s: an answer at step %d", __func__, tv->step);
	return tv_go(rq, tv, row->st_take(rq, tv, p, next), next);
}

/* The stream child answered. */
static enum docker_next
tv_child(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *next)
{
	struct tv	*tv = docker_req_state(rq);

	return tv_go(rq, tv, oneshot_streamed(rq, tv, data, len, next), next);
}

static enum docker_next
tv_op_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct tv	*tv = docker_req_state(rq);

	return tv_go(rq, tv, tv_fail(rq, tv, code, NULL, interrupted, next),
	    next);
}

/* The client left, or spaced's deadline passed: undo what a fill made. */
static enum docker_next
tv_cancel(struct docker_req *rq, struct docker_call *next)
{
	struct tv	*tv = docker_req_state(rq);

	if (tv->rolling_back)
		return DOCKER_WAIT;
	if (!tv->filling && tv->cid[0] == '\0') {
		tools_reply(rq, tv, ERR_CANCELLED, NULL, 0, -1);
		return DOCKER_DONE;
	}
	return tv_go(rq, tv, tv_fail(rq, tv, ERR_CANCELLED, "the client left",
	    1, next), next) == DOCKER_CALL ? DOCKER_CALL_NEW : DOCKER_DONE;
}

static void
tv_free(void *state)
{
	struct tv	*tv = state;
	size_t		 i;

	/* tv_start may have refused it before it was listed. */
	if (tv->peerid != 0)
		tools_untrack(tv);
	if (tv->holder)
		turn_release(tv->req.te_volume, tv->peerid);
	/* The runtime's turn too, however the request ended. */
	if (tv->rt.rt_holder)
		docker_runtime_release(tv->peerid);
	if (tv->op == IMSG_TOOLS_LIST_REQ && tv->volume[0] != '\0')
		turn_release(tv->volume, tv->peerid);
	for (i = 0; i < TOOLS_MSG_FILES_MAX; i++)
		if (tv->files[i].f_fd != -1 && i < tv->nfiles)
			close(tv->files[i].f_fd);
	free(tv->vols);
}

#define TOOLS_OP(name, type) {						\
	.op_name = name, .op_req = type, .op_rep = IMSG_TOOLS_DONE,	\
	.op_len = sizeof(struct tools_ensure_req), .op_fd = 1,		\
	.op_timeout_ms = TV_STEP_MS, .op_state_size = sizeof(struct tv), \
	.op_start = tv_start, .op_answer = tv_answer,			\
	.op_fail = tv_op_fail, .op_free = tv_free, .op_child = tv_child, \
	.op_cancel = tv_cancel, .op_cleanup_ms = 30000 }

const struct docker_op docker_tools_ops[] = {
	TOOLS_OP("tools-ensure", IMSG_TOOLS_ENSURE_REQ),
	TOOLS_OP("tools-list", IMSG_TOOLS_LIST_REQ),
};
const size_t docker_tools_nops = sizeof(docker_tools_ops) /
    sizeof(docker_tools_ops[0]);
