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
 * A space operation's failure: create rolls back what it made, a move
 * is undone, the gatekeeper's branch tells its parent; anything else
 * answers at once.
 */

#include <string.h>

#include "log.h"
#include "space.h"

/* The gatekeeper's branch is done: code "" when its container runs. */
enum docker_next
branch_answer(struct docker_req *rq, struct sp *sp, const char *code,
    const char *message, int interrupted)
{
	struct branch_result	 br;

	memset(&br, 0, sizeof(br));
	strlcpy(br.br_code, code, sizeof(br.br_code));
	if (message != NULL)
		strlcpy(br.br_message, message, sizeof(br.br_message));
	br.br_interrupted = interrupted;
	br.br_report = sp->report;
	docker_req_reply(rq, &br, sizeof(br));
	return DOCKER_DONE;
}

/*
 * A create past its name check removes everything with its id and
 * owner (the runtime volume stays: other spaces use it), then answers
 * with the first failure's code.
 */
enum docker_next
sp_fail(struct docker_req *rq, struct sp *sp, const char *code,
    const char *message, int interrupted, struct docker_call *next)
{
	rtfill_release(rq, &sp->rt);
	/* The gatekeeper's branch: its parent rolls back. */
	if (sp->branch)
		return branch_answer(rq, sp, code, message, interrupted);
	/* A move under way: the new one goes, the old one comes back. */
	if (sp->moving || sp->op == IMSG_SPACE_MOVE_UNDO_REQ) {
		if (sp->undoing || next == NULL) {
			done(rq, sp->undoing ? sp->code : code, "the move's "
			    "undo did not finish: see spacectl list", 1);
			return DOCKER_DONE;
		}
		return move_undo(rq, sp, code, message, interrupted);
	}
	/* Before its names were found free, a create has made nothing. */
	if (sp->op != IMSG_SPACE_CREATE_REQ || !sp->names_free) {
		done(rq, code, message, 0);
		return DOCKER_DONE;
	}
	if (sp->rolling_back || next == NULL) {
		/* The cleanup itself broke: say so, the list will show. */
		if (!sp->rolling_back)
			strlcpy(sp->code, code, sizeof(sp->code));
		done(rq, sp->code, "the rollback did not finish", 1);
		return DOCKER_DONE;
	}
	sp->rolling_back = 1;
	sp->uncertain = interrupted;
	strlcpy(sp->code, code, sizeof(sp->code));
	if (message != NULL)
		strlcpy(sp->message, message, sizeof(sp->message));
	log_warnx("docker: create %s: %s (%s): rolling back", sp->meta.sm_id,
	    code, message != NULL ? message : "");
	/* The branch may still make things: the sweep waits for it. */
	if (sp->child_running) {
		sp->rollback_pending = 1;
		return DOCKER_WAIT;
	}
	return sp_rollback(sp);
}
