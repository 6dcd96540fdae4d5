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
 * The spec's "New tools at the next start": a start of a stopped space
 * whose tools mount is not the current tools volume moves it onto a new
 * container (the old one renamed aside), which spaced keeps (MOVE_DONE)
 * or undoes (MOVE_UNDO).  The new container is removed only by the Id
 * its create returned, never by name (docs/notes/spaced-docker-move.md).
 */

#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "space.h"
#include "tools_prune.h"

#define MOVE_REPAIRS_MAX	3	/* looks again after a refusal */

static void
aside_name(struct sp *sp, char *buf, size_t len)
{
	if (space_aside_name(buf, len, sp->meta.sm_id) == -1)
		fatalx("%s: bad id", __func__);
}

/* Inspect answer: ours (this owner, this id, role space)? Its Id too. */
static int
move_ours(struct sp *sp, const json_t *o, char *cid, size_t len)
{
	const char	*id;

	if (space_labels_check(json_object_get(json_object_get(o, "Config"),
	    "Labels"), sp->sq.sq_owner, sp->meta.sm_id, ROLE_SPACE) != NULL)
		return 0;
	id = json_string_value(json_object_get(o, "Id"));
	if (!docker_plain_ref(id) || strlen(id) >= SPACE_CID_SIZE)
		return 0;
	if (cid != NULL)
		strlcpy(cid, id, len);
	return 1;
}

static int
has_name(const json_t *o, const char *name)
{
	const char	*n = json_string_value(json_object_get(o, "Name"));

	return n != NULL && n[0] == '/' && strcmp(n + 1, name) == 0;
}

static int
is_running(const json_t *o)
{
	return json_is_true(json_object_get(json_object_get(o, "State"),
	    "Running"));
}

/*
 * After the old container's inspect in start: is it a move?  Stopped,
 * with an agent, and its tools mount (adopted into sa_tools for the
 * checkers) is not the current tools volume.  A running space is never
 * touched, whatever tools it runs on.
 */
void
move_decide(struct sp *sp, const json_t *o)
{
	json_int_t	 mem;

	sp->move = 0;
	if (o == NULL || sp->sq.sq_agent.sa_name[0] == '\0' ||
	    sp->tools_cur[0] == '\0' ||
	    strcmp(sp->sq.sq_agent.sa_tools, sp->tools_cur) == 0 ||
	    strcmp(sp->sp_state, "running") == 0 ||
	    !move_ours(sp, o, sp->mv.mv_old, sizeof(sp->mv.mv_old)))
		return;
	mem = json_integer_value(json_object_get(json_object_get(o,
	    "HostConfig"), "Memory"));
	sp->move_memory = mem > 0 ? (uint64_t)mem : sp->meta.sm_memory;
	sp->move = 1;
}

/* The create body of the new container: current tools, old labels. */
static enum docker_next
move_create(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char		 plain[SPACE_RESOURCE_MAX];
	const char	*why = NULL;

	strlcpy(sp->sq.sq_agent.sa_tools, sp->tools_cur,
	    sizeof(sp->sq.sq_agent.sa_tools));
	sp->meta.sm_memory = sp->move_memory;
	sp_params(sp);
	role_name(sp, ROLE_SPACE, plain, sizeof(plain));
	sp_call(sp, next, "POST", SP_SMALL_CAP, "/containers/create?name=%s",
	    plain);
	if ((next->cl_body = harden_space_create(&sp->hp, &why)) == NULL)
		return move_undo(rq, sp, ERR_INTERNAL, why, 0);
	return DOCKER_CALL;
}

/* After the corridor in start: the stopped space moves. */
int
move_wanted(const struct sp *sp)
{
	return strcmp(sp->sp_state, "running") != 0 && sp->move;
}

/* The call of the move's step sp is at. */
static enum docker_next
move_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 plain[SPACE_RESOURCE_MAX], aside[SPACE_RESOURCE_MAX];
	char	 f[512];

	role_name(sp, ROLE_SPACE, plain, sizeof(plain));
	aside_name(sp, aside, sizeof(aside));
	switch (sp->step) {
	case M_CREATE:
		return move_create(rq, sp, next);
	case P_ASIDE:
	case A_ASIDE:
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    aside);
		break;
	case P_PLAIN:
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    plain);
		break;
	case P_DEL:
		/* Without force: Docker refuses a running container. */
		sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/containers/%s?v=0",
		    sp->mv.mv_new);
		break;
	case P_BACK:
		sp_call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/rename?name=%s", sp->aside_cid, plain);
		break;
	case M_RENAME:
		sp_call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/rename?name=%s", sp->mv.mv_old, aside);
		break;
	case M_VERIFY:
	case M_RUNNING:
	case U_NEW:
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    sp->mv.mv_new);
		break;
	case M_START:
		sp_call(sp, next, "POST", SP_SMALL_CAP, "/containers/%s/start",
		    sp->mv.mv_new);
		break;
	case U_DEL:
		/* By the Id its create returned, and by nothing else. */
		sp_call(sp, next, "DELETE", SP_SMALL_CAP,
		    "/containers/%s?force=1&v=0", sp->mv.mv_new);
		break;
	case U_OLD:
	case D_OLD:
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    sp->mv.mv_old);
		break;
	case U_BACK:
		sp_call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/rename?name=%s", sp->mv.mv_old, plain);
		break;
	case D_DEL:
		sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/containers/%s?v=0",
		    sp->mv.mv_old);
		break;
	case D_PRUNE:
		tools_owner_filter(f, sizeof(f), sp->sq.sq_owner);
		sp_call(sp, next, "GET", SP_LIST_CAP, "/volumes?filters=%s", f);
		break;
	case D_PRUNE_DEL:
		sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/volumes/%s",
		    sp->rt_stale[sp->rt_istale]);
		break;
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
	return DOCKER_CALL;
}

/*
 * Undo: the new container goes by its Id (when its create returned
 * one), then the old one gets its name back.  In start it answers with
 * the failure's code; as spaced's MOVE_UNDO with "" when everything is
 * back, else space_move_failed.  The message says "keeps its old
 * container" only when that is true.
 */
enum docker_next
move_undo(struct docker_req *rq, struct sp *sp, const char *code,
    const char *message, int interrupted)
{
	sp->undoing = 1;
	sp->uncertain = interrupted;
	strlcpy(sp->code, code, sizeof(sp->code));
	strlcpy(sp->message, message != NULL ? message : code,
	    sizeof(sp->message));
	if (sp->op == IMSG_SPACE_START_REQ)
		log_warnx("docker: start %s: %s (%s): undoing the move",
		    sp->meta.sm_id, code, sp->message);
	sp->step = sp->mv.mv_new[0] != '\0' ? U_NEW : U_OLD;
	return SP_SEND;
}

static void
move_undone(struct docker_req *rq, struct sp *sp)
{
	struct sp_res	 r;
	char		 what[128], msg[SPACE_DONE_MESSAGE_MAX];
	int		 all = sp->old_back && !sp->new_failed;

	memset(&r, 0, sizeof(r));
	r.r_type = RES_CONTAINER;
	strlcpy(r.r_id, sp->meta.sm_id, sizeof(r.r_id));
	if (sp->new_failed) {
		snprintf(r.r_name, sizeof(r.r_name), "%.12s (new)",
		    sp->mv.mv_new);
		send_resource(rq, &r, SPACE_RES_FAILED);
	}
	if (!sp->old_back) {
		snprintf(r.r_name, sizeof(r.r_name), "%.12s (old)",
		    sp->mv.mv_old);
		send_resource(rq, &r, SPACE_RES_FAILED);
	}
	if (all)
		strlcpy(what, "the space keeps its old container",
		    sizeof(what));
	else
		snprintf(what, sizeof(what), "%s%s%s",
		    sp->new_failed ? "the new container could not be "
		    "removed" : "", sp->new_failed && !sp->old_back ? "; " : "",
		    sp->old_gone ? "the old container is gone" :
		    !sp->old_back ? "the old container stays aside: start the "
		    "space again to repair it" : "");
	if (sp->op == IMSG_SPACE_MOVE_UNDO_REQ) {
		done(rq, all ? "" : ERR_SPACE_MOVE_FAILED, what,
		    sp->uncertain);
		return;
	}
	snprintf(msg, sizeof(msg), "%.120s; %s", sp->message, what);
	done(rq, sp->code, msg, sp->uncertain);
}

static enum docker_next
move_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	struct space_move	 mv;
	char			 msg[SPACE_DONE_MESSAGE_MAX];
	char			 aside[SPACE_RESOURCE_MAX];
	char			 plain[SPACE_RESOURCE_MAX];
	const char		*code;
	json_t			*o;
	int			 ours, running, named, plain_named;

	o = p->dp_status == 200 ? engine_json(p) : NULL;
	ours = o != NULL && move_ours(sp, o, NULL, 0);
	running = o != NULL && is_running(o);
	aside_name(sp, aside, sizeof(aside));
	named = o != NULL && has_name(o, aside);
	role_name(sp, ROLE_SPACE, plain, sizeof(plain));
	plain_named = o != NULL && has_name(o, plain);

	switch (sp->step) {
	/* --- the repair, before start's verify --- */
	case P_ASIDE:
		if (p->dp_status != 200 && p->dp_status != 404)
			goto engine;
		/* None, or a stranger's under that name: never touched. */
		if (!ours || !move_ours(sp, o, sp->aside_cid,
		    sizeof(sp->aside_cid))) {
			json_decref(o);
			sp->step = V_SP;
			return SP_SEND;
		}
		log_info("docker: start %s: an unfinished move: repairing",
		    sp->meta.sm_id);
		sp->step = P_PLAIN;
		break;
	case P_PLAIN:
		if (p->dp_status == 404) {
			sp->step = P_BACK;
			break;
		}
		if (p->dp_status != 200)
			goto engine;
		if (!ours) {
			json_decref(o);
			done(rq, ERR_SPACE_NOT_OURS, "the container with the "
			    "space's name is not ours", 0);
			return DOCKER_DONE;
		}
		if (running) {
			/* A space that is already started: as usual. */
			json_decref(o);
			sp->step = V_SP;
			return SP_SEND;
		}
		/* The unfinished new one: by the Id just inspected. */
		(void)move_ours(sp, o, sp->mv.mv_new, sizeof(sp->mv.mv_new));
		sp->step = P_DEL;
		break;
	case P_DEL:
		sp->mv.mv_new[0] = '\0';
		if (p->dp_status == 409 && ++sp->repairs <= MOVE_REPAIRS_MAX) {
			/* refused: it runs now; look again */
			sp->step = P_PLAIN;
			break;
		}
		if (!engine_status_ok(p) && p->dp_status != 404)
			goto engine;
		sp->step = P_BACK;
		break;
	case P_BACK:
		if (p->dp_status == 409 && ++sp->repairs <= MOVE_REPAIRS_MAX) {
			sp->step = P_PLAIN;
			break;
		}
		if (!engine_status_ok(p) && p->dp_status != 404)
			goto engine;
		/* back under its name (or gone): start as usual */
		json_decref(o);
		sp->step = V_SP;
		return SP_SEND;

	/* --- the move, once the corridor accepts --- */
	case M_RENAME:
		if (!engine_status_ok(p)) {
			engine_message(p, msg, sizeof(msg));
			json_decref(o);
			/* it stayed where it was */
			sp->moving = 0;
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		json_decref(o);
		sp->step = M_CREATE;
		return SP_SEND;
	case M_CREATE:
		json_decref(o);
		if (p->dp_status != 201) {
			/* No Id: nothing is removed. */
			code = created_code(p, msg, sizeof(msg));
			return move_undo(rq, sp, code, msg, 0);
		}
		harden_report_init(&sp->report);
		/* An Id that does not fit whole is none, never cut. */
		if (engine_created(p, &sp->report, sp->mv.mv_new,
		    sizeof(sp->mv.mv_new)) == -1 || sp->mv.mv_new[0] == '\0') {
			send_violations(rq, &sp->report);
			return move_undo(rq, sp, ERR_SPACE_VERIFY_FAILED,
			    "the engine dropped a setting of the new container",
			    0);
		}
		sp->step = M_VERIFY;
		break;
	case M_VERIFY:
		if (o == NULL) {
			engine_message(p, msg, sizeof(msg));
			return move_undo(rq, sp, ERR_DOCKER_FAILED, msg, 0);
		}
		harden_report_init(&sp->report);
		harden_verify_space(o, &sp->hp, &sp->report);
		json_decref(o);
		if (sp->report.hr_n > 0 || sp->report.hr_truncated) {
			send_violations(rq, &sp->report);
			return move_undo(rq, sp, ERR_SPACE_VERIFY_FAILED,
			    "the new container does not verify", 0);
		}
		sp->step = M_START;
		return SP_SEND;
	case M_START:
		json_decref(o);
		if (p->dp_status != 204 && p->dp_status != 304) {
			engine_message(p, msg, sizeof(msg));
			return move_undo(rq, sp, ERR_DOCKER_FAILED, msg, 0);
		}
		sp->step = M_RUNNING;
		return SP_SEND;
	case M_RUNNING:
		json_decref(o);
		if (!running)
			return move_undo(rq, sp, ERR_SPACE_NOT_RUNNING,
			    "the new container stopped as it started", 0);
		/* spaced waits for its server, then ends or undoes it */
		sp->moving = 0;
		log_info("docker: start %s: moved to %s", sp->meta.sm_id,
		    sp->tools_cur);
		send_info(rq, &sp->meta, "running", "running", NULL, 0, 0);
		mv = sp->mv;
		docker_req_record(rq, IMSG_SPACE_MOVED, &mv, sizeof(mv));
		done(rq, "", NULL, 0);
		return DOCKER_DONE;

	/* --- the undo --- */
	case U_NEW:
		if (p->dp_status == 404) {
			sp->step = U_OLD;	/* gone already */
			break;
		}
		if (!ours) {
			/* not ours by its labels: left alone, said so */
			sp->new_failed = 1;
			sp->step = U_OLD;
			break;
		}
		sp->step = U_DEL;
		break;
	case U_DEL:
		if (!engine_status_ok(p) && p->dp_status != 404 &&
		    !removal_in_progress(p))
			sp->new_failed = 1;
		sp->step = U_OLD;
		break;
	case U_OLD:
		if (p->dp_status == 404 || (o != NULL && !ours)) {
			sp->old_gone = 1;
			json_decref(o);
			move_undone(rq, sp);
			return DOCKER_DONE;
		}
		if (o == NULL) {
			json_decref(o);
			move_undone(rq, sp);
			return DOCKER_DONE;
		}
		if (plain_named) {
			/*
			 * It has its name already: it never went aside, or
			 * something gave it back meanwhile.
			 */
			sp->old_back = 1;
			json_decref(o);
			move_undone(rq, sp);
			return DOCKER_DONE;
		}
		sp->step = U_BACK;
		break;
	case U_BACK:
		/* 409: the plain name is taken; it stays aside till a start */
		sp->old_back = engine_status_ok(p);
		json_decref(o);
		move_undone(rq, sp);
		return DOCKER_DONE;

	/* --- the end of a move that worked --- */
	case D_OLD:
		if (p->dp_status == 404) {
			json_decref(o);
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		if (!ours || !named || running) {
			/* Not aside any more, or running: never removed. */
			json_decref(o);
			done(rq, ERR_SPACE_MOVE_FAILED, "the old container is "
			    "not aside and stopped any more: left alone", 0);
			return DOCKER_DONE;
		}
		sp->step = D_DEL;
		break;
	case D_DEL:
		json_decref(o);
		if (!engine_status_ok(p) && p->dp_status != 404 &&
		    !removal_in_progress(p)) {
			engine_message(p, msg, sizeof(msg));
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		/*
		 * The old container no longer holds its tools volume:
		 * prune this owner's others but each profile's current
		 * one (spaced's mq_keep).  Docker
		 * refuses one that another space still mounts (409), and
		 * a prune never fails the move.
		 */
		if (sp->sq.sq_agent.sa_tools[0] == '\0') {
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		sp->step = D_PRUNE;
		return SP_SEND;
	case D_PRUNE:
		json_decref(o);
		sp->rt_nstale = tools_prune_list(p, sp->sq.sq_owner,
		    sp->sq.sq_agent.sa_tools, &sp->mq_keep, sp->rt_stale,
		    RT_STALE_MAX);
		sp->rt_istale = 0;
		if (sp->rt_nstale == 0) {
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		sp->step = D_PRUNE_DEL;
		return SP_SEND;
	case D_PRUNE_DEL:
		json_decref(o);
		if (engine_status_ok(p))
			log_info("space %s: pruned the tools volume %s",
			    sp->sq.sq_id, sp->rt_stale[sp->rt_istale]);
		if (++sp->rt_istale >= sp->rt_nstale) {
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		return SP_SEND;

	/* --- verify and stop: only the aside container? --- */
	case A_ASIDE:
		json_decref(o);
		if (ours) {
			done(rq, ERR_SPACE_MOVE_UNFINISHED, "only the old "
			    "container of a move is there: start the space", 0);
			return DOCKER_DONE;
		}
		done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
		return DOCKER_DONE;
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
	json_decref(o);
	return SP_SEND;

engine:
	json_decref(o);
	engine_message(p, msg, sizeof(msg));
	done(rq, ERR_DOCKER_FAILED, msg, 0);
	return DOCKER_DONE;
}

const struct sp_step_row space_move_steps[] = {
	{ P_ASIDE,	move_send,	move_take,	P_ASIDE },
	{ P_PLAIN,	move_send,	move_take,	P_PLAIN },
	{ P_DEL,	move_send,	move_take,	P_DEL },
	{ P_BACK,	move_send,	move_take,	P_BACK },
	{ M_RENAME,	move_send,	move_take,	M_RENAME },
	{ M_CREATE,	move_send,	move_take,	M_CREATE },
	{ M_VERIFY,	move_send,	move_take,	M_VERIFY },
	{ M_START,	move_send,	move_take,	M_START },
	{ M_RUNNING,	move_send,	move_take,	M_RUNNING },
	{ U_NEW,	move_send,	move_take,	U_NEW },
	{ U_DEL,	move_send,	move_take,	U_DEL },
	{ U_OLD,	move_send,	move_take,	U_OLD },
	{ U_BACK,	move_send,	move_take,	U_BACK },
	{ D_OLD,	move_send,	move_take,	D_OLD },
	{ D_DEL,	move_send,	move_take,	D_DEL },
	{ D_PRUNE,	move_send,	move_take,	D_PRUNE },
	{ D_PRUNE_DEL,	move_send,	move_take,	D_PRUNE_DEL },
	{ A_ASIDE,	move_send,	move_take,	A_ASIDE },
};
const size_t space_move_steps_n = sizeof(space_move_steps) /
    sizeof(space_move_steps[0]);
