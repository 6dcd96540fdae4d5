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
 * A tools request's failure.  Once a call decided to fill, the rollback
 * removes by name what its fill made (the one-shots of this key, the
 * filler's gatekeeper, its socket volume and bridge, the volume); after
 * an interrupted step it waits and sweeps again.
 */

#include <stdio.h>
#include <string.h>

#include "log.h"
#include "tools_volume.h"

#define TV_SWEEP_PAUSE_MS	2000		/* the spec's */

static enum docker_next
rb_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX];

	if (tv->rb_i < tv->rb_n) {
		tv->step = R_DEL;
		tv_call(tv, next, "DELETE", TV_CAP, "%s", tv->rb[tv->rb_i]);
		return DOCKER_CALL;
	}
	if (tv->uncertain && tv->sweeps < 2) {
		/* A late call may still make them: wait, sweep again. */
		tv->sweeps++;
		tv->rb_i = 0;
		tv->rb_fail[0] = '\0';
		tv->step = R_PAUSE;
		tv_call(tv, next, "GET", TV_CAP, "/_ping");
		next->cl_delay_ms = TV_SWEEP_PAUSE_MS;
		return DOCKER_CALL;
	}
	if (tv->rb_fail[0] != '\0') {
		if (snprintf(msg, sizeof(msg), "%s; rollback failures:%s",
		    tv->message, tv->rb_fail) < 0)
			msg[0] = '\0';
		strlcpy(tv->message, msg, sizeof(tv->message));
	}
	tools_reply(rq, tv, tv->code, tv->message, tv->uncertain,
	    tv->exit_code);
	return DOCKER_DONE;
}

static enum docker_next
del_take(struct docker_req *rq, struct tv *tv, const struct docker_parser *p,
    struct docker_call *next)
{
	char	 msg[96];

	if (p->dp_status != 204 && p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		strlcat(tv->rb_fail, " ", sizeof(tv->rb_fail));
		strlcat(tv->rb_fail, tv->rb[tv->rb_i], sizeof(tv->rb_fail));
		log_warnx("tools: rollback: DELETE %s: %s", tv->rb[tv->rb_i],
		    msg);
	}
	tv->rb_i++;
	return TV_SEND;
}

static enum docker_next
pause_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	return TV_SEND;
}

static void
rb_add(struct tv *tv, const char *fmt, const char *name, const char *suffix)
{
	if (tv->rb_n >= sizeof(tv->rb) / sizeof(tv->rb[0]))
		return;
	snprintf(tv->rb[tv->rb_n++], sizeof(tv->rb[0]), fmt, name, suffix);
}

/*
 * What the relay's fill left (space_runtime.c): its container, and the
 * runtime volume when this call made it and did not finish filling it.
 */
static void
rb_runtime(struct tv *tv)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (tv->rt.rt_cid[0] != '\0')
		rb_add(tv, "/containers/%s%s?force=1", tv->rt.rt_cid, "");
	if (tv->rt.rt_created && runtime_volume_name(name, sizeof(name),
	    tv->rt.rt_key) == 0)
		rb_add(tv, "/volumes/%s%s", name, "");
}

enum docker_next
tv_fail(struct docker_req *rq, struct tv *tv, const char *code,
    const char *message, int interrupted, struct docker_call *next)
{
	if (tv->rolling_back || next == NULL) {
		/* The cleanup itself broke: say so. */
		if (!tv->rolling_back) {
			strlcpy(tv->code, code, sizeof(tv->code));
			strlcpy(tv->message, message != NULL ? message : "",
			    sizeof(tv->message));
		}
		strlcat(tv->message, "; the rollback did not finish",
		    sizeof(tv->message));
		tools_reply(rq, tv, tv->code, tv->message, 1, tv->exit_code);
		return DOCKER_DONE;
	}
	rtfill_release(rq, &tv->rt);
	strlcpy(tv->code, code, sizeof(tv->code));
	strlcpy(tv->message, message != NULL ? message : "",
	    sizeof(tv->message));
	tv->uncertain = interrupted;
	tv->rb_n = tv->rb_i = 0;
	tv->rb_fail[0] = '\0';
	log_warnx("tools: %s: %s (%s)%s", tv->req.te_volume, code,
	    tv->message, tv->filling ? ": rolling back" : "");
	if (tv->filling) {
		/* The same call found the names free, or ours: by name. */
		rb_add(tv, "/containers/%s-%s?force=1", tv->req.te_volume,
		    "fill");
		rb_add(tv, "/containers/%s-%s?force=1", tv->req.te_volume,
		    "check");
		rb_add(tv, "/containers/%s-%s?force=1", tv->req.te_volume,
		    "fill-gk");
		rb_add(tv, "/volumes/%s%s", tv->req.te_volume, "");
		rb_add(tv, "/volumes/%s-%s", tv->req.te_volume, "fill-sock");
		rb_add(tv, "/networks/%s-%s", tv->req.te_volume, "fill-net");
		rb_runtime(tv);
	} else if (tv->cid[0] != '\0')
		rb_add(tv, "/containers/%s%s?force=1", tv->cid, "");
	else if (tv->rb_n == 0 && !interrupted) {
		tools_reply(rq, tv, code, tv->message, 0, tv->exit_code);
		return DOCKER_DONE;
	}
	tv->rolling_back = 1;
	if (!tv->filling && tv->cid[0] == '\0') {
		/* interrupted, nothing of ours known: a one-shot may be late */
		tools_reply(rq, tv, code, tv->message, interrupted,
		    tv->exit_code);
		return DOCKER_DONE;
	}
	tv->step = R_DEL;
	return TV_SEND;
}

const struct tv_step_row tools_rollback_steps[] = {
	{ R_DEL,	rb_send,	del_take,	R_DEL },
	{ R_PAUSE,	rb_send,	pause_take,	R_PAUSE },
};
const size_t tools_rollback_steps_n = sizeof(tools_rollback_steps) /
    sizeof(tools_rollback_steps[0]);
