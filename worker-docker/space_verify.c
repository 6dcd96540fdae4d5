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
 * verify, and the verify inside create and start: every container,
 * network and volume of the space inspected and checked against what
 * create asks for (docker_verify.c); what differs is a violation.
 */

#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space.h"
#include "tools_key.h"

/* The runtime key a space was made with: its mount's volume name. */
static void
mounted_runtime_key(const json_t *c, char *key, size_t len)
{
	const json_t	*m;
	const char	*dst, *name;
	size_t		 i, plen = strlen(RUNTIME_VOLUME_PREFIX);

	json_array_foreach(json_object_get(c, "Mounts"), i, m) {
		dst = json_string_value(json_object_get(m, "Destination"));
		name = json_string_value(json_object_get(m, "Name"));
		if (dst == NULL || name == NULL ||
		    strcmp(dst, HARDEN_RUNTIME_DIR) != 0 ||
		    strncmp(name, RUNTIME_VOLUME_PREFIX, plen) != 0 ||
		    !runtime_key_valid(name + plen))
			continue;
		strlcpy(key, name + plen, len);
		return;
	}
}

/*
 * Whether a space was made with the space CA bundle: its variables say
 * so (the runtime it mounts is fixed with them), and a move keeps them.
 */
static int
made_with_ca(const json_t *c)
{
	const json_t	*v;
	size_t		 i;

	json_array_foreach(json_object_get(json_object_get(c, "Config"),
	    "Env"), i, v)
		if (json_is_string(v) && strcmp(json_string_value(v),
		    harden_space_ca_env[0]) == 0)
			return 1;
	return 0;
}

/*
 * The tools a space was made with may be older than the current ones:
 * a mount at SPACE_TOOLS_DIR of this owner's tools (the current name
 * but for its key) is what it is checked against.
 */
static void
mounted_tools(const json_t *c, char *cur, size_t len)
{
	const json_t	*m;
	const char	*dst, *name;
	size_t		 i, n = strlen(cur);

	if (n <= TOOLS_KEY_LEN)
		return;
	json_array_foreach(json_object_get(c, "Mounts"), i, m) {
		dst = json_string_value(json_object_get(m, "Destination"));
		name = json_string_value(json_object_get(m, "Name"));
		if (dst == NULL || name == NULL ||
		    strcmp(dst, SPACE_TOOLS_DIR) != 0 || strlen(name) != n ||
		    strncmp(name, cur, n - TOOLS_KEY_LEN) != 0 ||
		    !tools_key_valid(name + n - TOOLS_KEY_LEN))
			continue;
		strlcpy(cur, name, len);
		return;
	}
}

/* Every check done: what verify, create and start make of the report. */
static enum docker_next
sp_verified(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	switch (sp->op) {
	case IMSG_SPACE_VERIFY_REQ:
		send_violations(rq, &sp->report);
		done(rq, "", NULL, 0);
		return DOCKER_DONE;
	case IMSG_SPACE_CREATE_REQ:
		if (sp->report.hr_n > 0 || sp->report.hr_truncated) {
			/* the branch's go to its parent, which sends them */
			if (!sp->branch)
				send_violations(rq, &sp->report);
			return sp_fail(rq, sp, ERR_SPACE_VERIFY_FAILED,
			    "the new space does not verify", 0, next);
		}
		/* With a token, its parent starts the gatekeeper. */
		if (sp->branch && sp->writes_token)
			return branch_answer(rq, sp, "", NULL, 0);
		sp->step = sp->branch ? C_GK_START : C_SP_OWN;
		sp->i = 0;
		return SP_SEND;
	case IMSG_SPACE_START_REQ:
		/* Changed behind our back: named, and not started. */
		if (sp->report.hr_n > 0 || sp->report.hr_truncated) {
			send_violations(rq, &sp->report);
			done(rq, ERR_SPACE_VERIFY_FAILED, "the space does not "
			    "verify; see spacectl verify", 0);
			return DOCKER_DONE;
		}
		sp->step = strcmp(sp->gk_state, "running") == 0 ?
		    T_CORRIDOR : T_GK_START;
		return SP_SEND;
	default:
		fatalx("%s: op %u", __func__, sp->op);
	}
}

/* The inspect answer, or NULL for a 404; -1 for any other status. */
static int
inspected(const struct docker_parser *p, json_t **o)
{
	*o = NULL;
	if (p->dp_status != 200 && p->dp_status != 404)
		return -1;
	if (p->dp_status == 200)
		*o = engine_json(p);
	return 0;
}

static enum docker_next
engine_failed(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[SPACE_RESOURCE_MAX];

	engine_message(p, msg, sizeof(msg));
	return sp_fail(rq, sp, ERR_DOCKER_FAILED, msg, 0, next);
}

static enum docker_next
container_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, sp->step == V_SP ? ROLE_SPACE : ROLE_GATEKEEPER, name,
	    sizeof(name));
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json", name);
	return DOCKER_CALL;
}

/* What the space was made with, read from its container. */
static void
space_adopt(struct sp *sp, const json_t *o)
{
	strlcpy(sp->rt_key, sp->sq.sq_runtime_key, sizeof(sp->rt_key));
	mounted_runtime_key(o, sp->rt_key, sizeof(sp->rt_key));
	sp->rt_ca = made_with_ca(o);
	strlcpy(sp->tools_cur, sp->sq.sq_agent.sa_tools,
	    sizeof(sp->tools_cur));
	mounted_tools(o, sp->sq.sq_agent.sa_tools,
	    sizeof(sp->sq.sq_agent.sa_tools));
	sp_params(sp);
}

static enum docker_next
space_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	json_t		*o;
	const char	*why;

	if (inspected(p, &o) == -1)
		return engine_failed(rq, sp, p, next);
	if (o == NULL && p->dp_status == 404 &&
	    sp->op == IMSG_SPACE_VERIFY_REQ) {
		/* Only the aside container of a move?  Say so. */
		sp->step = A_ASIDE;
		return SP_SEND;
	}
	if (o == NULL && p->dp_status == 404 &&
	    sp->op != IMSG_SPACE_CREATE_REQ) {
		done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
		return DOCKER_DONE;
	}
	if (sp->op != IMSG_SPACE_CREATE_REQ) {
		if ((why = space_labels_parse(json_object_get(
		    json_object_get(o, "Config"), "Labels"), sp->sq.sq_owner,
		    sp->sq.sq_id, ROLE_SPACE, &sp->meta)) != NULL) {
			json_decref(o);
			/* Another owner's space is no space of the caller's. */
			log_debug("%s: %s", sp->sq.sq_id, why);
			done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
			return DOCKER_DONE;
		}
		space_adopt(sp, o);
	}
	container_state(o, sp->sp_state, sizeof(sp->sp_state));
	if (sp->op == IMSG_SPACE_START_REQ)
		move_decide(sp, o);
	harden_verify_space(o, &sp->hp, &sp->report);
	json_decref(o);
	/* In create, the gatekeeper's branch verifies its own. */
	sp->step = sp->op == IMSG_SPACE_CREATE_REQ ? V_VOL : V_GK;
	sp->i = 0;
	return SP_SEND;
}

static enum docker_next
gk_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	json_t	*o;

	if (inspected(p, &o) == -1)
		return engine_failed(rq, sp, p, next);
	if (o == NULL) {
		if (sp->op == IMSG_SPACE_START_REQ) {
			done(rq, ERR_GATEKEEPER_MISSING, NULL, 0);
			return DOCKER_DONE;
		}
		harden_report_add(&sp->report, "gatekeeper_missing",
		    "no gatekeeper container");
	} else {
		sp->gk_present = 1;
		container_state(o, sp->gk_state, sizeof(sp->gk_state));
		harden_verify_gatekeeper(o, &sp->hp, &sp->report);
	}
	json_decref(o);
	return SP_ADVANCE;
}

static enum docker_next
net_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, ROLE_NETWORK, name, sizeof(name));
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/networks/%s", name);
	return DOCKER_CALL;
}

static enum docker_next
net_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	json_t	*o;

	if (inspected(p, &o) == -1)
		return engine_failed(rq, sp, p, next);
	if (o == NULL)
		harden_report_add(&sp->report, "network",
		    "the outer network is missing");
	else
		harden_verify_network(o, &sp->hp, &sp->report);
	json_decref(o);
	if (sp->branch)
		return sp_verified(rq, sp, next);
	sp->i = 0;
	return SP_ADVANCE;
}

static enum docker_next
vol_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, space_volume_roles[sp->i], name, sizeof(name));
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s", name);
	return DOCKER_CALL;
}

static enum docker_next
vol_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	json_t	*o;

	if (inspected(p, &o) == -1)
		return engine_failed(rq, sp, p, next);
	if (o == NULL)
		harden_report_add(&sp->report, "mounts",
		    "a volume of the space is missing");
	else
		harden_verify_volume(o, &sp->hp, space_volume_roles[sp->i],
		    &sp->report);
	json_decref(o);
	if (++sp->i >= NVOLUME_ROLES)
		return SP_ADVANCE;
	return SP_SEND;
}

static enum docker_next
rt_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (runtime_volume_name(name, sizeof(name), sp->rt_key) == -1)
		strlcpy(name, "spaced-runtime-missing", sizeof(name));
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s", name);
	return DOCKER_CALL;
}

static enum docker_next
rt_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	json_t	*o;

	if (inspected(p, &o) == -1)
		return engine_failed(rq, sp, p, next);
	if (o == NULL)
		harden_report_add(&sp->report, "runtime_mount",
		    "the runtime volume is missing");
	else
		harden_verify_runtime_volume(o, &sp->hp, &sp->report);
	json_decref(o);
	return sp_verified(rq, sp, next);
}

const struct sp_step_row space_verify_steps[] = {
	{ V_SP,		container_send,	space_take,	V_GK },
	{ V_GK,		container_send,	gk_take,	V_NET },
	{ V_NET,	net_send,	net_take,	V_VOL },
	{ V_VOL,	vol_send,	vol_take,	V_RT },
	{ V_RT,		rt_send,	rt_take,	V_RT },
};
const size_t space_verify_steps_n = sizeof(space_verify_steps) /
    sizeof(space_verify_steps[0]);
