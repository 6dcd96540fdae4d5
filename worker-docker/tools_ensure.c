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
 * ensure (spec "Tools volume", "ensure", "Fill rollback"): the volume
 * by its labels, the one-shots a killed worker left, then a check of
 * its marker, or a fill and a check again; after a new fill, this
 * owner's other tools volumes go.  A hiccup never removes a filled
 * volume; two ensures of one volume in this worker take turns.
 */

#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "docker_tools.h"
#include "tools_answer.h"
#include "tools_volume.h"

#define TV_WAIT_POLL_MS		250

static const char marker_mismatch[] = "the tools volume %s holds "
    "content that cannot be trusted, and spaces made with these tools "
    "still use it: apply or discard the work in those spaces and remove "
    "them, and the next call fills it again";

/* --- the volume's turn, then the volume by its labels ---------------- */

static enum docker_next
wait_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	if (!turn_take(tv->req.te_volume, tv->peerid)) {
		/* Another ensure of this volume runs; ask again. */
		tv_call(tv, next, "GET", TV_CAP, "/_ping");
		next->cl_delay_ms = TV_WAIT_POLL_MS;
		return DOCKER_CALL;
	}
	tv->holder = 1;
	return TV_ADVANCE;
}

static enum docker_next
wait_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	return TV_SEND;
}

static enum docker_next
vol_get_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "GET", TV_CAP, "/volumes/%s", tv->volume);
	return DOCKER_CALL;
}

static enum docker_next
vol_get_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 msg[SPACE_DONE_MESSAGE_MAX];
	const char	*why;

	if (p->dp_status == 200) {
		why = tools_answer_labels(p, tv->req.te_owner,
		    TOOLS_ROLE_VOLUME, tv->key);
		if (why != NULL) {
			snprintf(msg, sizeof(msg), "a volume named %s "
			    "exists and is not this owner's tools "
			    "volume of this key (%s): it is left alone",
			    tv->volume, why);
			tools_reply(rq, tv, ERR_TOOLS_NOT_OURS, msg, 0, -1);
			return DOCKER_DONE;
		}
	} else if (p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		tools_reply(rq, tv, ERR_DOCKER_FAILED, msg, 0, -1);
		return DOCKER_DONE;
	}
	tv->verdict = p->dp_status == 200 ? TOOLS_VERDICT_FILLED :
	    TOOLS_VERDICT_ABSENT;	/* present / absent, for now */
	return TV_ADVANCE;
}

/* --- one-shots of this key a killed worker left, by label ------------ */

static enum docker_next
sweep_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 f[768], key[64], owner[256];

	if ((size_t)snprintf(key, sizeof(key), "%s=%s", LABEL_TOOLS_KEY,
	    tv->key) >= sizeof(key) || (size_t)snprintf(owner, sizeof(owner),
	    "%s=%s", LABEL_OWNER, tv->req.te_owner) >= sizeof(owner))
		fatalx("%s: filter", __func__);
	engine_label_filter(f, sizeof(f), 2, key, owner);
	tv_call(tv, next, "GET", TV_LIST_CAP,
	    "/containers/json?all=1&filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
sweep_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	tv->nstale = tools_stale_take(p, tv->req.te_owner, tv->key, tv->stale,
	    TV_STALE_MAX);
	tv->istale = 0;
	return TV_ADVANCE;
}

/* Then what is left of a fill's gatekeeper (tools_corridor.c's G_CLEAR). */
static enum docker_next
sweep_del_send(struct docker_req *rq, struct tv *tv,
    struct docker_call *next)
{
	if (tv->istale < tv->nstale) {
		tv_call(tv, next, "DELETE", TV_CAP, "/containers/%s?force=1",
		    tv->stale[tv->istale]);
		return DOCKER_CALL;
	}
	tv->gi = 0;
	tv->step = G_CLEAR;
	return TV_SEND;
}


/* Refused or gone: the create's name check tells. */
static enum docker_next
sweep_del_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	tv->istale++;
	return TV_SEND;
}

/* --- the check's verdict: filled, fill again, or reject -------------- */

static enum docker_next
checked_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX];

	switch (tv->verdict) {
	case TOOLS_VERDICT_FILLED:
		tools_reply(rq, tv, "", NULL, 0, -1);
		return DOCKER_DONE;
	case TOOLS_VERDICT_ABSENT:
	case TOOLS_VERDICT_MISMATCH:
		log_info("tools: %s: %s: removing it to fill again",
		    tv->volume, tools_verdict_name(tv->verdict));
		return TV_ADVANCE;
	default:
		snprintf(msg, sizeof(msg), "the marker of %s could not be read "
		    "(exit %d): the volume is kept", tv->volume, tv->exit_code);
		return tv_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
}

static enum docker_next
vol_del_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "DELETE", TV_CAP, "/volumes/%s", tv->volume);
	return DOCKER_CALL;
}

/* Refused because a container mounts it: tools_marker_mismatch. */
static enum docker_next
vol_del_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX];

	if (p->dp_status == 409) {
		if (snprintf(msg, sizeof(msg), marker_mismatch, tv->volume) < 0)
			msg[0] = '\0';
		tools_reply(rq, tv, ERR_TOOLS_MARKER, msg, 0, -1);
		return DOCKER_DONE;
	}
	if (p->dp_status != 204 && p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		tools_reply(rq, tv, ERR_DOCKER_FAILED, msg, 0, -1);
		return DOCKER_DONE;
	}
	return TV_ADVANCE;
}

/* --- the fill: the volume with its labels, the filler, a check ------- */

static enum docker_next
vol_create_send(struct docker_req *rq, struct tv *tv,
    struct docker_call *next)
{
	const char	*why = NULL;

	/* From here on a failure removes what this call made. */
	tv->filling = 1;
	tools_params(tv, TOOLS_ROLE_VOLUME);
	tv_call(tv, next, "POST", TV_CAP, "/volumes/create");
	if ((next->cl_body = harden_tools_volume_create(&tv->tp, &why)) ==
	    NULL)
		return tv_fail(rq, tv, ERR_INTERNAL, why, 0, next);
	return DOCKER_CALL;
}

static enum docker_next
vol_create_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 msg[SPACE_DONE_MESSAGE_MAX];
	const char	*why;

	if (p->dp_status != 201) {
		engine_message(p, msg, sizeof(msg));
		return tv_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
	/* An existing name answers 201 too, with its own labels. */
	why = tools_answer_labels(p, tv->req.te_owner, TOOLS_ROLE_VOLUME,
	    tv->key);
	if (why != NULL) {
		tv->filling = 0;
		snprintf(msg, sizeof(msg), "a volume named %s appeared and is "
		    "not ours (%s): it is left alone", tv->volume, why);
		tools_reply(rq, tv, ERR_TOOLS_NOT_OURS, msg, 0, -1);
		return DOCKER_DONE;
	}
	return tv_corridor(rq, tv, next);	/* then the filler */
}

static enum docker_next
filled_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX];

	if (tv->exit_code != 0) {
		snprintf(msg, sizeof(msg), "the fill failed at step %s "
		    "(exit %d)%s%s", tools_fill_step(tv->exit_code),
		    tv->exit_code, tv->xr.xr_err[0] != '\0' ? ": " : "",
		    tv->xr.xr_err);
		return tv_fail(rq, tv, ERR_TOOLS_FILL_FAILED, msg, 0, next);
	}
	return tv_oneshot(tv, PH_RECHECK);
}

static enum docker_next
rechecked_send(struct docker_req *rq, struct tv *tv,
    struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX];

	if (tv->verdict != TOOLS_VERDICT_FILLED) {
		snprintf(msg, sizeof(msg), "after the fill the marker reads "
		    "as: %s (exit %d)", tools_verdict_name(tv->verdict),
		    tv->exit_code);
		return tv_fail(rq, tv, ERR_TOOLS_FILL_FAILED, msg, 0, next);
	}
	/* Filled: it stays, whatever happens from here. */
	tv->filling = 0;
	tv->filled = 1;
	return TV_ADVANCE;
}

/* --- the prune: this owner's tools volumes no profile uses now ------- */

static enum docker_next
prune_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 f[768];

	tools_owner_filter(f, sizeof(f), tv->req.te_owner);
	tv_call(tv, next, "GET", TV_LIST_CAP, "/volumes?filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
prune_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	tv->nstale = tools_prune_list(p, tv->req.te_owner, tv->volume,
	    &tv->req.te_keep, tv->stale, TV_STALE_MAX);
	tv->istale = 0;
	return TV_ADVANCE;
}

static enum docker_next
prune_del_send(struct docker_req *rq, struct tv *tv,
    struct docker_call *next)
{
	if (tv->istale < tv->nstale) {
		tv_call(tv, next, "DELETE", TV_CAP, "/volumes/%s",
		    tv->stale[tv->istale]);
		return DOCKER_CALL;
	}
	tools_reply(rq, tv, "", NULL, 0, -1);
	return DOCKER_DONE;
}

/* 409: a space still mounts it, and it stays. */
static enum docker_next
prune_del_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status == 204) {
		tv->pruned++;
		log_info("tools: pruned %s", tv->stale[tv->istale]);
	}
	tv->istale++;
	return TV_SEND;
}

const struct tv_step_row tools_ensure_steps[] = {
	{ S_WAIT,	wait_send,	wait_take,	S_VOL_GET },
	{ S_VOL_GET,	vol_get_send,	vol_get_take,	S_SWEEP },
	{ S_SWEEP,	sweep_send,	sweep_take,	S_SWEEP_DEL },
	{ S_SWEEP_DEL,	sweep_del_send,	sweep_del_take,	S_SWEEP_DEL },
	{ S_CHECKED,	checked_send,	NULL,		S_VOL_DEL },
	{ S_VOL_DEL,	vol_del_send,	vol_del_take,	S_VOL_CREATE },
	{ S_VOL_CREATE,	vol_create_send, vol_create_take, S_VOL_CREATE },
	{ S_FILLED,	filled_send,	NULL,		S_FILLED },
	{ S_RECHECKED,	rechecked_send,	NULL,		S_PRUNE },
	{ S_PRUNE,	prune_send,	prune_take,	S_PRUNE_DEL },
	{ S_PRUNE_DEL,	prune_del_send,	prune_del_take,	S_PRUNE_DEL },
};
const size_t tools_ensure_steps_n = sizeof(tools_ensure_steps) /
    sizeof(tools_ensure_steps[0]);
