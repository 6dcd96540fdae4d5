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
 * stop: the space first, then the gatekeeper, each only after its
 * labels were read and found to be this owner's.  As the end of a
 * start whose server kept dying (sq_oom), the stopped space container
 * says whether the kernel killed for memory in it (State.OOMKilled, as
 * a create's undo reads it: space_remove.c).
 */

#include "errors.h"
#include "log.h"
#include "space.h"

#define SP_STOP_SECONDS		5	/* SIGTERM, then SIGKILL */

static enum space_role
stop_role(const struct sp *sp)
{
	return sp->step == ST_SP || sp->step == ST_SP_STOP ||
	    sp->step == ST_SP_OOM ? ROLE_SPACE : ROLE_GATEKEEPER;
}

/* Stopped: with sq_oom, the kills for memory in the exit's place. */
static enum docker_next
stop_done(struct docker_req *rq, struct sp *sp)
{
	if (sp->sq.sq_oom)
		done_exit(rq, sp->oom);
	else
		done(rq, "", NULL, 0);
	return DOCKER_DONE;
}

static enum docker_next
inspect_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, stop_role(sp), name, sizeof(name));
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json", name);
	return DOCKER_CALL;
}

static enum docker_next
inspect_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 msg[128];
	json_t		*o;
	const char	*why;

	if (p->dp_status == 404) {
		if (sp->step == ST_SP) {
			/* Only the aside container of a move? */
			sp->step = A_ASIDE;
			return SP_SEND;
		}
		return stop_done(rq, sp);	/* nothing left to stop */
	}
	if (p->dp_status != 200) {
		engine_message(p, msg, sizeof(msg));
		done(rq, ERR_DOCKER_FAILED, msg, 0);
		return DOCKER_DONE;
	}
	o = engine_json(p);
	why = space_labels_check(json_object_get(json_object_get(o,
	    "Config"), "Labels"), sp->sq.sq_owner, sp->sq.sq_id, stop_role(sp));
	json_decref(o);
	if (why != NULL) {
		/* Another owner's space is no space of the caller's. */
		log_debug("stop: %s: %s", sp->sq.sq_id, why);
		done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
		return DOCKER_DONE;
	}
	return SP_ADVANCE;
}

static enum docker_next
stop_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, stop_role(sp), name, sizeof(name));
	sp_call(sp, next, "POST", SP_SMALL_CAP, "/containers/%s/stop?t=%d",
	    name, SP_STOP_SECONDS);
	return DOCKER_CALL;
}

static enum docker_next
stop_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[128];

	if (p->dp_status != 204 && p->dp_status != 304 &&
	    p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		done(rq, ERR_DOCKER_FAILED, msg, 0);
		return DOCKER_DONE;
	}
	if (sp->step == ST_GK_STOP)
		return stop_done(rq, sp);
	if (sp->sq.sq_oom) {
		sp->step = ST_SP_OOM;
		return SP_SEND;
	}
	return SP_ADVANCE;
}

/* The space container, stopped: did the kernel kill for memory?  */
static enum docker_next
oom_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	json_t	*o;

	if (p->dp_status == 200 && (o = engine_json(p)) != NULL) {
		if (space_labels_check(json_object_get(json_object_get(o,
		    "Config"), "Labels"), sp->sq.sq_owner, sp->sq.sq_id,
		    ROLE_SPACE) == NULL)
			sp->oom = json_is_true(json_object_get(
			    json_object_get(o, "State"), "OOMKilled"));
		json_decref(o);
	}
	return SP_ADVANCE;
}

const struct sp_step_row space_stop_steps[] = {
	{ ST_SP,	inspect_send,	inspect_take,	ST_SP_STOP },
	{ ST_SP_STOP,	stop_send,	stop_take,	ST_GK },
	{ ST_SP_OOM,	inspect_send,	oom_take,	ST_GK },
	{ ST_GK,	inspect_send,	inspect_take,	ST_GK_STOP },
	{ ST_GK_STOP,	stop_send,	stop_take,	ST_GK_STOP },
};
const size_t space_stop_steps_n = sizeof(space_stop_steps) /
    sizeof(space_stop_steps[0]);
