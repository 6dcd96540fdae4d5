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
 * list (spacectl tools): this owner's tools volumes, the spaces that
 * mount each, and the state of each marker, read by a check one-shot
 * unless an ensure works on that volume now.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "tools_volume.h"

/* The next volume to read (its one-shot), or the answer. */
static enum docker_next
list_next(struct docker_req *rq, struct tv *tv)
{
	struct tools_volume_info	*v;

	if (tv->ivol > 0 && tv->ivol <= tv->nvols) {
		v = &tv->vols[tv->ivol - 1];
		docker_req_record(rq, IMSG_TOOLS_VOLUME, v, sizeof(*v));
	}
	while (tv->ivol < tv->nvols) {
		v = &tv->vols[tv->ivol];
		strlcpy(tv->volume, v->tv_name, sizeof(tv->volume));
		strlcpy(tv->key, v->tv_key, sizeof(tv->key));
		strlcpy(tv->desc, v->tv_description, sizeof(tv->desc));
		/* A volume an ensure works on now is not read now. */
		if (turn_take(tv->volume, tv->peerid))
			return tv_oneshot(tv, PH_LIST);
		v->tv_state = TOOLS_STATE_UNKNOWN;
		docker_req_record(rq, IMSG_TOOLS_VOLUME, v, sizeof(*v));
		tv->ivol++;
	}
	tools_reply(rq, tv, "", NULL, 0, -1);
	return DOCKER_DONE;
}

static enum docker_next
listing_failed(struct docker_req *rq, struct tv *tv)
{
	tools_reply(rq, tv, ERR_DOCKER_FAILED, "listing the tools volumes", 0,
	    -1);
	return DOCKER_DONE;
}

static enum docker_next
vols_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 f[768];

	tools_owner_filter(f, sizeof(f), tv->req.te_owner);
	tv_call(tv, next, "GET", TV_LIST_CAP, "/volumes?filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
vols_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200)
		return listing_failed(rq, tv);
	tools_take_volumes(tv, p);
	return TV_ADVANCE;
}

static enum docker_next
ctrs_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 f[768], owner[256];

	if ((size_t)snprintf(owner, sizeof(owner), "%s=%s", LABEL_OWNER,
	    tv->req.te_owner) >= sizeof(owner))
		fatalx("%s: owner", __func__);
	engine_label_filter(f, sizeof(f), 1, owner);
	tv_call(tv, next, "GET", TV_LIST_CAP,
	    "/containers/json?all=1&filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
ctrs_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200)
		return listing_failed(rq, tv);
	tools_take_mounts(tv, p);
	tv->ivol = 0;
	return list_next(rq, tv);
}

/* A volume's one-shot is gone: its state, then the next volume. */
static enum docker_next
read_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	struct tools_volume_info	*v = &tv->vols[tv->ivol];

	if (tv->os_code[0] != '\0')
		v->tv_state = TOOLS_STATE_UNKNOWN;
	else
		switch (tv->verdict) {
		case TOOLS_VERDICT_FILLED:
			v->tv_state = TOOLS_STATE_FILLED;
			break;
		case TOOLS_VERDICT_ABSENT:
			v->tv_state = TOOLS_STATE_EMPTY;
			break;
		case TOOLS_VERDICT_MISMATCH:
			v->tv_state = TOOLS_STATE_MISMATCH;
			break;
		default:
			v->tv_state = TOOLS_STATE_UNKNOWN;
			break;
		}
	turn_release(tv->volume, tv->peerid);
	tv->ivol++;
	return list_next(rq, tv);
}

const struct tv_step_row tools_list_steps[] = {
	{ L_VOLS,	vols_send,	vols_take,	L_CTRS },
	{ L_CTRS,	ctrs_send,	ctrs_take,	L_CTRS },
	{ L_READ,	read_send,	NULL,		L_READ },
};
const size_t tools_list_steps_n = sizeof(tools_list_steps) /
    sizeof(tools_list_steps[0]);
