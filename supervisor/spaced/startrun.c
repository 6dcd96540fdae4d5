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
 * The runs of start: one start of one space under way, and its answer
 * for the calls that share it.  Below the chain (server.c), which
 * closes a run, and space.c, which joins and polls one.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "spaced.h"
#include "server.h"

static TAILQ_HEAD(, start_run) start_runs =
    TAILQ_HEAD_INITIALIZER(start_runs);

/* The run under way for (owner, id), or NULL. */
struct start_run *
startrun_find(const char *owner, const char *id)
{
	struct start_run	*sr;

	TAILQ_FOREACH(sr, &start_runs, sr_entry)
		if (!sr->sr_over && strcmp(sr->sr_owner, owner) == 0 &&
		    strcmp(sr->sr_id, id) == 0)
			return sr;
	return NULL;
}

struct start_run *
startrun_new(const char *owner, const char *id, uint32_t leader)
{
	struct start_run	*sr;

	if ((sr = calloc(1, sizeof(*sr))) == NULL)
		fatal("%s", __func__);
	strlcpy(sr->sr_owner, owner, sizeof(sr->sr_owner));
	strlcpy(sr->sr_id, id, sizeof(sr->sr_id));
	sr->sr_leader = leader;
	sr->sr_refs = 1;
	TAILQ_INSERT_TAIL(&start_runs, sr, sr_entry);
	return sr;
}

int
startrun_led(const struct start_run *sr)
{
	struct request	*l;

	return sr->sr_leader != 0 && (l = request_find(sr->sr_leader)) !=
	    NULL && !l->r_answered && SV(l)->run == sr;
}

void
startrun_unref(struct start_run *sr)
{
	if (--sr->sr_refs > 0)
		return;
	TAILQ_REMOVE(&start_runs, sr, sr_entry);
	free(sr);
}

void
startrun_close(struct request *r, const char *code, const char *message)
{
	struct sv_state		*sv = SV(r);
	struct start_run	*sr = sv->run;

	if (sv->op != SV_OP_START || sr == NULL || sr->sr_leader != r->r_id)
		return;
	sr->sr_over = 1;
	sr->sr_leader = 0;
	strlcpy(sr->sr_done.sd_code, code, sizeof(sr->sr_done.sd_code));
	strlcpy(sr->sr_done.sd_message, message != NULL ? message : "",
	    sizeof(sr->sr_done.sd_message));
	sr->sr_done.sd_exit = -1;
	sr->sr_info = sv->info;
	sr->sr_have_info = sv->have_info;
	sv->run = NULL;
	startrun_unref(sr);
}
