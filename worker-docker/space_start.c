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
 * start, once the space verified: the gatekeeper first (a stopped one
 * under a running space is repaired), then the corridor, then the
 * space, or its move onto the current tools (space_move.c).
 */

#include <string.h>

#include "errors.h"
#include "log.h"
#include "space.h"

static enum docker_next
start_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	start_call(sp, sp->step == T_GK_START ? ROLE_GATEKEEPER : ROLE_SPACE, next);
	return DOCKER_CALL;
}

static enum docker_next
start_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[128];

	if (p->dp_status != 204 && p->dp_status != 304) {
		engine_message(p, msg, sizeof(msg));
		done(rq, ERR_DOCKER_FAILED, msg, 0);
		return DOCKER_DONE;
	}
	if (sp->step == T_SP_START) {
		send_info(rq, &sp->meta, "running", "running", NULL, 0, 0);
		done(rq, "", NULL, 0);
		return DOCKER_DONE;
	}
	return SP_ADVANCE;
}

static enum docker_next
corridor_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	corridor_call(sp, next);
	return DOCKER_CALL;
}

static enum docker_next
corridor_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200) {
		corridor_call(sp, next);
		next->cl_delay_ms = SP_CORRIDOR_POLL_MS;
		return DOCKER_CALL;
	}
	/* The way out is under our control: now the space. */
	if (move_wanted(sp)) {
		/* on the current tools: the old one goes aside */
		sp->moving = 1;
		sp->step = M_RENAME;
		return SP_SEND;
	}
	if (strcmp(sp->sp_state, "running") != 0)
		return SP_ADVANCE;
	send_info(rq, &sp->meta, "running", "running", NULL, 0, 0);
	done(rq, "", NULL, 0);
	return DOCKER_DONE;
}

const struct sp_step_row space_start_steps[] = {
	{ T_GK_START,	start_send,	start_take,	T_CORRIDOR },
	{ T_CORRIDOR,	corridor_send,	corridor_take,	T_SP_START },
	{ T_SP_START,	start_send,	start_take,	T_SP_START },
};
const size_t space_start_steps_n = sizeof(space_start_steps) /
    sizeof(space_start_steps[0]);
