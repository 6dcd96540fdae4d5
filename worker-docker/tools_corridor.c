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
 * The filler's relay and its one way out, made before it and removed
 * after it.  The relay first: the runtime volume, filled or compared by
 * the steps a space's create runs (space_runtime.c), which the filler
 * mounts read-only.  Then a bridge from spaced's pool, a socket volume
 * for the gatekeeper's sockets (the gatekeeper writes it: nothing in it
 * is ever run), and a gatekeeper whose allowlist is the registry alone;
 * all by name of the volume and labelled as its owner's.  A failure
 * goes to the fill's rollback, which removes them by the same names
 * (docs/privsep.md).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "docker_harden.h"
#include "docker_runtime.h"
#include "tools_answer.h"
#include "tools_volume.h"

#define TV_NET_TRIES	8

/* The name of the corridor's resource of role r. */
static void
corridor_name(struct tv *tv, enum tools_role r, char *buf, size_t len)
{
	tools_params(tv, r);
	if (harden_tools_name(&tv->tp, buf, len) == -1)
		fatalx("%s: name", __func__);
}

/* The filler's turn to be made: its relay, then its gatekeeper. */
enum docker_next
tv_corridor(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv->phase = PH_FILL;
	tv->gk_cid[0] = tv->net_subnet[0] = '\0';
	tv->net_tries = 0;
	if (rtfill_begin(&tv->rt, tv->api, tv->rt_owner,
	    tv->req.te_image, docker_runtime_key()) == -1)
		return tv_fail(rq, tv, ERR_RUNTIME_MISSING, "spaced sent no "
		    "relay for the filler", 0, next);
	tv->step = G_RUNTIME;
	return TV_SEND;
}

/* --- the relay: the runtime volume, as a create fills it ------------- */

RTFILL_STEP_GENERATE(struct tv, TV_ADVANCE, tv_fail)

/* After the filler: its gatekeeper, sockets and bridge go. */
enum docker_next
tv_corridor_down(struct tv *tv)
{
	tv->gi = 0;
	tv->step = G_DOWN;
	return TV_SEND;
}

/*
 * Three deletes by name, 404 being fine: at every ensure's sweep, what
 * a killed worker left of this key's fill (the names hold install, uid
 * and key: no other owner's), a failure only logged; after a fill,
 * this fill's, a failure failing it (its rollback tries again).
 */
static enum docker_next
del_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	static const enum tools_role	 order[] = { TOOLS_ROLE_FILL_GK,
					    TOOLS_ROLE_FILL_SOCK,
					    TOOLS_ROLE_FILL_NET };
	char				 name[SPACE_RESOURCE_MAX];

	if (tv->gi >= sizeof(order) / sizeof(order[0])) {
		/* Swept: a check of a volume that is there, or a fill. */
		if (tv->step == G_CLEAR && tv->verdict == TOOLS_VERDICT_FILLED)
			return tv_oneshot(tv, PH_CHECK);
		if (tv->step == G_CLEAR) {
			tv->step = S_VOL_CREATE;
			return TV_SEND;
		}
		tv->step = S_FILLED;
		return TV_SEND;
	}
	corridor_name(tv, order[tv->gi], name, sizeof(name));
	switch (order[tv->gi]) {
	case TOOLS_ROLE_FILL_GK:
		tv_call(tv, next, "DELETE", TV_CAP, "/containers/%s?force=1",
		    name);
		break;
	case TOOLS_ROLE_FILL_SOCK:
		tv_call(tv, next, "DELETE", TV_CAP, "/volumes/%s", name);
		break;
	default:
		tv_call(tv, next, "DELETE", TV_CAP, "/networks/%s", name);
		break;
	}
	return DOCKER_CALL;
}

static enum docker_next
del_take(struct docker_req *rq, struct tv *tv, const struct docker_parser *p,
    struct docker_call *next)
{
	char	 msg[160], why[96];

	if (p->dp_status != 204 && p->dp_status != 200 &&
	    p->dp_status != 404) {
		engine_message(p, why, sizeof(why));
		if (tv->step == G_CLEAR)
			log_warnx("tools: %s: what an earlier fill left of its "
			    "gatekeeper stays: %s", tv->volume, why);
		else {
			snprintf(msg, sizeof(msg), "the filler's gatekeeper "
			    "stays: %s", why);
			return tv_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
		}
	}
	tv->gi++;
	return TV_SEND;
}

/* --- the bridge: a free slot of the pool, as a space's --------------- */

static enum docker_next
nets_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "GET", TV_LIST_CAP, "/networks");
	return DOCKER_CALL;
}

static const struct net_pool *
pool_of(struct tv *tv)
{
	static struct net_pool	 np;

	np.np_base = tv->req.te_net_base;
	np.np_pool_prefix = tv->req.te_net_pool_prefix;
	np.np_prefix = tv->req.te_net_prefix;
	return &np;
}

/* The next free slot from where the key points; 0, or -1. */
static int
net_pick(struct tv *tv)
{
	const struct net_pool	*np = pool_of(tv);
	long			 slot;

	slot = net_pool_pick(tv->net_used, net_pool_slots(np),
	    strtoull(tv->key, NULL, 16) % net_pool_slots(np));
	if (slot == -1 || net_pool_cidr(np, slot, tv->net_subnet,
	    sizeof(tv->net_subnet)) == -1)
		return -1;
	net_pool_set(tv->net_used, slot);
	return 0;
}

static enum docker_next
nets_take(struct docker_req *rq, struct tv *tv, const struct docker_parser *p,
    struct docker_call *next)
{
	memset(tv->net_used, 0, sizeof(tv->net_used));
	if (net_pool_mark_body(p->dp_status == 200 ? p->dp_body : NULL,
	    p->dp_body_len, pool_of(tv), tv->net_used) == -1)
		return tv_fail(rq, tv, ERR_DOCKER_FAILED,
		    "the engine's networks unlisted", 0, next);
	if (net_pick(tv) == -1)
		return tv_fail(rq, tv, ERR_NETWORK_POOL_FULL, "no free subnet "
		    "in the space network pool of spaced.conf for the "
		    "filler's gatekeeper", 0, next);
	return TV_ADVANCE;
}

/* --- the bridge, the socket volume, the gatekeeper: made, verified --- */

static enum docker_next
made_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX];
	const char	*why = NULL;

	switch (tv->step) {
	case G_NET:
		tools_params(tv, TOOLS_ROLE_FILL_NET);
		tv_call(tv, next, "POST", TV_CAP, "/networks/create");
		next->cl_body = harden_tools_network_create(&tv->tp, &why);
		break;
	case G_SOCK:
		tools_params(tv, TOOLS_ROLE_FILL_SOCK);
		tv_call(tv, next, "POST", TV_CAP, "/volumes/create");
		next->cl_body = harden_tools_volume_create(&tv->tp, &why);
		break;
	default:
		corridor_name(tv, TOOLS_ROLE_FILL_GK, name, sizeof(name));
		tv_call(tv, next, "POST", TV_CAP, "/containers/create?name=%s",
		    name);
		next->cl_body = harden_tools_create(&tv->tp, &why);
		break;
	}
	if (next->cl_body == NULL)
		return tv_fail(rq, tv, ERR_INTERNAL, why, 0, next);
	return DOCKER_CALL;
}

static enum docker_next
made_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	struct harden_report	 hr;
	char			 msg[160];
	const char		*why;

	if (p->dp_status != 201) {
		engine_message(p, msg, sizeof(msg));
		/* Another bridge took the slot since the listing. */
		if (tv->step == G_NET && strstr(msg, "overlap") != NULL &&
		    ++tv->net_tries <= TV_NET_TRIES && net_pick(tv) == 0)
			return TV_SEND;
		return tv_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
	harden_report_init(&hr);
	why = tools_made_take(p, tv->req.te_owner, tv->step == G_SOCK ?
	    TOOLS_ROLE_FILL_SOCK : TOOLS_ROLE_FILL_NET, tv->key, &hr,
	    tv->step == G_GK ? tv->gk_cid : NULL, sizeof(tv->gk_cid));
	/* A volume's name answers 201 even when it was there, not ours. */
	if (why != NULL)
		return tv_fail(rq, tv, ERR_TOOLS_NOT_OURS, "the filler's "
		    "socket volume is not ours", 0, next);
	if (hr.hr_n > 0 ||
	    (tv->step == G_GK && tv->gk_cid[0] == '\0')) {
		snprintf(msg, sizeof(msg), "the filler's gatekeeper: %s",
		    hr.hr_n > 0 ? hr.hr_v[0].hv_check : "no Id");
		return tv_fail(rq, tv, ERR_SPACE_VERIFY_FAILED, msg, 0, next);
	}
	return TV_ADVANCE;
}

static enum docker_next
inspect_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "GET", TV_CAP, "/containers/%s/json", tv->gk_cid);
	return DOCKER_CALL;
}

static enum docker_next
inspect_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	struct harden_report	 hr;
	char			 msg[SPACE_DONE_MESSAGE_MAX];
	json_t			*o;

	if (p->dp_status != 200)
		return tv_fail(rq, tv, ERR_DOCKER_FAILED,
		    "inspect of the filler's gatekeeper", 0, next);
	o = engine_json(p);
	harden_report_init(&hr);
	tools_params(tv, TOOLS_ROLE_FILL_GK);
	harden_verify_tools(o, &tv->tp, &hr);
	json_decref(o);
	if (hr.hr_n > 0) {
		if (snprintf(msg, sizeof(msg), "the filler's gatekeeper: %s: "
		    "%s", hr.hr_v[0].hv_check, hr.hr_v[0].hv_message) < 0)
			msg[0] = '\0';
		return tv_fail(rq, tv, ERR_SPACE_VERIFY_FAILED, msg, 0, next);
	}
	return TV_ADVANCE;
}

static enum docker_next
start_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "POST", TV_CAP, "/containers/%s/start", tv->gk_cid);
	return DOCKER_CALL;
}

/* The gatekeeper runs: then the filler itself. */
static enum docker_next
start_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[160];

	if (p->dp_status != 204 && p->dp_status != 304) {
		engine_message(p, msg, sizeof(msg));
		return tv_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
	return tv_oneshot(tv, PH_FILL);
}

const struct tv_step_row tools_corridor_steps[] = {
	{ G_RUNTIME,	runtime_send,	runtime_take,	G_NETS },
	{ G_CLEAR,	del_send,	del_take,	G_CLEAR },
	{ G_NETS,	nets_send,	nets_take,	G_NET },
	{ G_NET,	made_send,	made_take,	G_SOCK },
	{ G_SOCK,	made_send,	made_take,	G_GK },
	{ G_GK,		made_send,	made_take,	G_GK_INSPECT },
	{ G_GK_INSPECT,	inspect_send,	inspect_take,	G_GK_START },
	{ G_GK_START,	start_send,	start_take,	G_GK_START },
	{ G_DOWN,	del_send,	del_take,	G_DOWN },
};
const size_t tools_corridor_steps_n = sizeof(tools_corridor_steps) /
    sizeof(tools_corridor_steps[0]);
