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
 * remove, and the rollback of a failed create: everything with the
 * space's id and owner, by label, containers first; a missing resource
 * counts as removed.  After an interrupted create it waits, sweeps by
 * name (labelled or not), and by label once more.
 */

#include <string.h>

#include <jansson.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space.h"

#define SP_SWEEP_PAUSE_MS	2000	/* the spec's wait between sweeps */

/* The next resource of this type to delete, or NULL. */
static struct sp_res *
next_to_delete(struct sp *sp, enum sp_res_type type)
{
	size_t	 i;

	for (i = 0; i < sp->nres; i++)
		if (sp->res[i].r_type == type && !sp->res[i].r_done)
			return &sp->res[i];
	return NULL;
}

int
removal_in_progress(const struct docker_parser *p)
{
	char	 msg[160];

	engine_message(p, msg, sizeof(msg));
	return p->dp_status == 409 && strstr(msg, "already in progress") !=
	    NULL;
}

static void
remove_finish(struct docker_req *rq, struct sp *sp)
{
	size_t	 i;

	for (i = 0; i < sp->nres; i++)
		if (sp->res[i].r_done == 2)
			send_resource(rq, &sp->res[i], SPACE_RES_FAILED);
		else if (!sp->rolling_back)
			send_resource(rq, &sp->res[i], SPACE_RES_REMOVED);
	if (sp->rolling_back)
		done(rq, sp->code, sp->message, sp->uncertain);
	else if (sp->sq.sq_oom)
		done_exit(rq, sp->oom);
	else
		done(rq, "", NULL, 0);
}

/*
 * --- R_OOM_*: before the undo of a create whose server kept dying or
 * was never ready, did the kernel kill for memory in the space?  The
 * engine says so once the container stopped (State.OOMKilled; its
 * events keep too few to ask).
 * A space container of the caller's alone is stopped; any failure here
 * only leaves the answer at "no".
 */

static enum docker_next
oom_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, ROLE_SPACE, name, sizeof(name));
	if (sp->step == R_OOM_STOP)
		sp_call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/stop?t=0", name);
	else
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    name);
	return DOCKER_CALL;
}

static enum docker_next
oom_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	json_t	*o;
	int	 ours;

	if (sp->step == R_OOM_STOP)
		return SP_ADVANCE;
	if (p->dp_status != 200 || (o = engine_json(p)) == NULL) {
		sp->step = R_LIST_C;
		return SP_SEND;
	}
	ours = space_labels_check(json_object_get(json_object_get(o,
	    "Config"), "Labels"), sp->sq.sq_owner, sp->sq.sq_id,
	    ROLE_SPACE) == NULL;
	if (ours && sp->step == R_OOM_LOOK)
		sp->oom = json_is_true(json_object_get(json_object_get(o,
		    "State"), "OOMKilled"));
	json_decref(o);
	if (!ours || sp->step == R_OOM_LOOK) {
		sp->step = R_LIST_C;
		return SP_SEND;
	}
	return SP_ADVANCE;
}

/* The rollback of create: what the runtime fill left, then the sweep. */
enum docker_next
sp_rollback(struct sp *sp)
{
	struct sp_res	*r;

	sp->rollback_pending = 0;
	sp->nres = 0;
	if (sp->rt.rt_cid[0] != '\0' && (r = res_add(sp)) != NULL) {
		r->r_type = RES_CONTAINER;
		strlcpy(r->r_ref, sp->rt.rt_cid, sizeof(r->r_ref));
		strlcpy(r->r_name, "runtime-fill", sizeof(r->r_name));
	}
	/* A fill that failed leaves nothing: the volume it made goes. */
	if (sp->rt.rt_created && (r = res_add(sp)) != NULL) {
		r->r_type = RES_VOLUME;
		(void)runtime_volume_name(r->r_ref, sizeof(r->r_ref),
		    sp->rt_key);
		strlcpy(r->r_name, r->r_ref, sizeof(r->r_name));
	}
	sp->step = R_LIST_C;
	return SP_SEND;
}

/* --- R_LIST_*: one type's listing, by label ---------------------------- */

static enum docker_next
list_c_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 f[768];

	label_filter(sp, sp->meta.sm_id, f, sizeof(f));
	sp_call(sp, next, "GET", SP_LIST_CAP,
	    "/containers/json?all=1&filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
list_v_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 f[768];

	label_filter(sp, sp->meta.sm_id, f, sizeof(f));
	sp_call(sp, next, "GET", SP_LIST_CAP, "/volumes?filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
list_n_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 f[768];

	label_filter(sp, sp->meta.sm_id, f, sizeof(f));
	sp_call(sp, next, "GET", SP_LIST_CAP, "/networks?filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
list_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, enum sp_res_type type)
{
	char	 msg[SPACE_RESOURCE_MAX];

	if (take_listing(sp, p, type, sp->meta.sm_id) == -1) {
		engine_message(p, msg, sizeof(msg));
		if (!sp->rolling_back) {
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		sp->uncertain = 1;
	}
	return SP_ADVANCE;
}

static enum docker_next
list_c_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return list_take(rq, sp, p, RES_CONTAINER);
}

static enum docker_next
list_v_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return list_take(rq, sp, p, RES_VOLUME);
}

static enum docker_next
list_n_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return list_take(rq, sp, p, RES_NETWORK);
}

/* --- R_DEL_*: each resource listed, one call each ---------------------- */

static enum docker_next
del_send(struct sp *sp, enum sp_res_type type, struct docker_call *next)
{
	struct sp_res	*r;

	if ((r = next_to_delete(sp, type)) == NULL)
		return SP_ADVANCE;
	switch (r->r_type) {
	case RES_CONTAINER:
		sp_call(sp, next, "DELETE", SP_SMALL_CAP,
		    "/containers/%s?force=1&v=0", r->r_ref);
		break;
	case RES_VOLUME:
		sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/volumes/%s",
		    r->r_ref);
		break;
	case RES_NETWORK:
		sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/networks/%s",
		    r->r_ref);
		break;
	}
	return DOCKER_CALL;
}

static enum docker_next
del_c_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	return del_send(sp, RES_CONTAINER, next);
}

static enum docker_next
del_v_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	return del_send(sp, RES_VOLUME, next);
}

/* The last type: done, or after an interrupted create a second sweep. */
static enum docker_next
del_n_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	enum docker_next	 nx;

	if ((nx = del_send(sp, RES_NETWORK, next)) != SP_ADVANCE)
		return nx;
	if (sp->rolling_back && sp->uncertain && sp->sweeps++ == 0)
		return SP_ADVANCE;	/* R_PAUSE */
	remove_finish(rq, sp);
	return DOCKER_DONE;
}

static enum docker_next
del_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, enum sp_res_type type)
{
	struct sp_res	*r = next_to_delete(sp, type);

	r->r_done = engine_status_ok(p) || p->dp_status == 404 ||
	    removal_in_progress(p) ? 1 : 2;
	return SP_SEND;
}

static enum docker_next
del_c_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return del_take(rq, sp, p, RES_CONTAINER);
}

static enum docker_next
del_v_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return del_take(rq, sp, p, RES_VOLUME);
}

static enum docker_next
del_n_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return del_take(rq, sp, p, RES_NETWORK);
}

/* --- the second sweep: a pause, then by name ------------------------- */

static enum docker_next
pause_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/_ping");
	next->cl_delay_ms = SP_SWEEP_PAUSE_MS;
	return DOCKER_CALL;
}

static enum docker_next
pause_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	sp->i = 0;
	return SP_ADVANCE;
}

/* By name, labelled or not (spec); then once more by label. */
static enum docker_next
name_del_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (sp->i >= NNAME_ROLES)
		return SP_ADVANCE;	/* R_LIST_C, for a late create */
	role_name(sp, space_name_roles[sp->i], name, sizeof(name));
	if (space_name_roles[sp->i] <= ROLE_GATEKEEPER)
		sp_call(sp, next, "DELETE", SP_SMALL_CAP,
		    "/containers/%s?force=1", name);
	else if (space_name_roles[sp->i] == ROLE_NETWORK)
		sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/networks/%s", name);
	else
		sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/volumes/%s", name);
	return DOCKER_CALL;
}

static enum docker_next
name_del_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	enum space_role	 role = space_name_roles[sp->i];
	struct sp_res	*r;

	if (!engine_status_ok(p) && p->dp_status != 404 &&
	    !removal_in_progress(p) && (r = res_add(sp)) != NULL) {
		r->r_type = role <= ROLE_GATEKEEPER ? RES_CONTAINER :
		    role == ROLE_NETWORK ? RES_NETWORK : RES_VOLUME;
		strlcpy(r->r_id, sp->meta.sm_id, sizeof(r->r_id));
		role_name(sp, role, r->r_name, sizeof(r->r_name));
		r->r_done = 2;
	}
	sp->i++;
	return SP_SEND;
}

const struct sp_step_row space_remove_steps[] = {
	{ R_LIST_C,	list_c_send,	list_c_take,	R_DEL_C },
	{ R_DEL_C,	del_c_send,	del_c_take,	R_LIST_V },
	{ R_LIST_V,	list_v_send,	list_v_take,	R_DEL_V },
	{ R_DEL_V,	del_v_send,	del_v_take,	R_LIST_N },
	{ R_LIST_N,	list_n_send,	list_n_take,	R_DEL_N },
	{ R_DEL_N,	del_n_send,	del_n_take,	R_PAUSE },
	{ R_PAUSE,	pause_send,	pause_take,	R_NAME_DEL },
	{ R_NAME_DEL,	name_del_send,	name_del_take,	R_LIST_C },
	{ R_OOM_OWN,	oom_send,	oom_take,	R_OOM_STOP },
	{ R_OOM_STOP,	oom_send,	oom_take,	R_OOM_LOOK },
	{ R_OOM_LOOK,	oom_send,	oom_take,	R_LIST_C },
};
const size_t space_remove_steps_n = sizeof(space_remove_steps) /
    sizeof(space_remove_steps[0]);
