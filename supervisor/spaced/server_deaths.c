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
 * A create or start whose server dies as it starts: the relay starts it
 * again each time and the journal keeps a restart record each time
 * (collect.c counts them, restarts_seen.c holds the count).
 * SERVER_DEATHS_MAX of them before the first ready end the wait,
 * whatever each died of: only deaths count, never the time a slow
 * start takes.  The undo (a create's remove, a start's stop) then says
 * whether the kernel killed for memory in the space (sq_oom).  Every
 * failed create's undo is here too (sv_undo, sv_deaths_undone).
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "log.h"
#include "place_proto.h"
#include "spaced.h"
#include "server.h"

/* A new space's server never dies while it starts, unless it cannot. */
#define SERVER_DEATHS_MAX	3

/*
 * The journal's count is the space's whole life: a start counts past
 * the count its run found as it began, once a collection had read the
 * log up to then (space.c).  When that count was not known, the first
 * one seen is the base: a start's count may fall short, never run
 * ahead of its deaths.
 */
void
sv_deaths_base(struct request *r)
{
	struct sv_state		*sv = SV(r);
	uint64_t		 n;

	if (sv->run != NULL && restarts_of(r->r_uid, sv->id, &n)) {
		sv->run->sr_deaths_base = n;
		sv->run->sr_deaths_known = 1;
	}
}

static int
deaths_since(struct request *r, uint64_t *n)
{
	struct sv_state		*sv = SV(r);
	struct start_run	*sr = sv->run;

	if (!restarts_of(r->r_uid, sv->id, n))
		return 0;
	if (sv->op == SV_OP_CREATE)
		return 1;
	if (sr == NULL)
		return 0;
	if (!sr->sr_deaths_known) {
		sr->sr_deaths_base = *n;
		sr->sr_deaths_known = 1;
	}
	*n = *n > sr->sr_deaths_base ? *n - sr->sr_deaths_base : 0;
	return 1;
}

/*
 * After an attempt found the server not ready: 1 when the create or
 * start must end (ERR_SERVER_FAILED, msg says why), else 0 and its
 * restarts are collected again.
 */
int
sv_deaths(struct request *r, char *msg, size_t len)
{
	struct sv_state	*sv = SV(r);
	uint64_t	 n = 0;

	if (sv->op != SV_OP_CREATE && sv->op != SV_OP_START)
		return 0;
	if (!deaths_since(r, &n) || n < SERVER_DEATHS_MAX) {
		collect_restarts_now(r->r_uid, sv->id);
		return 0;
	}
	snprintf(msg, len, "the agent's server died %llu times as it "
	    "started and was never ready", (unsigned long long)n);
	return 1;
}

/*
 * The undo of a create whose server died, or was never ready (a server
 * starved of memory may crawl without dying again): its remove asks
 * whether the kernel killed for memory in the space (sq_oom).
 */
int
sv_deaths_ask(const char *code)
{
	return strcmp(code, ERR_SERVER_FAILED) == 0 ||
	    strcmp(code, ERR_SERVER_NOT_READY) == 0;
}

/*
 * A start whose server kept dying ends as a create does, its undo a
 * stop: the server cannot run (the relay would start it again for
 * good), and the stopped space says whether the kernel killed for
 * memory in it.  A start never ready stays running, as ever: a slow
 * server may yet come up.  1 when sv_fail's answer is taken here.
 */
int
sv_deaths_stop(struct request *r, const char *code, const char *message)
{
	struct sv_state		*sv = SV(r);

	if (sv->op != SV_OP_START || sv->step == SV_ROLLBACK ||
	    strcmp(code, ERR_SERVER_FAILED) != 0)
		return 0;
	sv_undo(r, code, message, IMSG_SPACE_STOP_REQ);
	return 1;
}

/*
 * The undo of a failed create (type IMSG_SPACE_REMOVE_REQ) or start
 * (IMSG_SPACE_STOP_REQ): the failure is kept for sv_deaths_undone,
 * which answers once the place is done; a send that fails answers now.
 */
void
sv_undo(struct request *r, const char *code, const char *message,
    uint32_t type)
{
	struct sv_state		*sv = SV(r);
	struct space_req	 sq;
	int			 stop = type == IMSG_SPACE_STOP_REQ;

	strlcpy(sv->code, code, sizeof(sv->code));
	strlcpy(sv->message, message != NULL ? message : "",
	    sizeof(sv->message));
	log_warnx("request %u: space %s: %s (%s): %s it", r->r_id, sv->id,
	    code, sv->message, stop ? "stopping" : "removing");
	sv->step = SV_ROLLBACK;
	space_req_fill(r, &sq, sv->id);
	sq.sq_oom = sv_deaths_ask(code);
	if (place_send(r, type, &sq, sizeof(sq)) == NULL)
		return;
	snprintf(sv->message, sizeof(sv->message), "%.150s; and the space "
	    "could not be %s", message != NULL ? message : code,
	    stop ? "stopped" : "removed");
	startrun_close(r, code, sv->message);
	request_refuse(r, code, sv->message);
}

/*
 * The undo's answer to sq_oom: the kills for memory, in words after
 * the failure's, with what to do.
 */
static void
deaths_memory(struct request *r, const struct space_done *sd,
    char *msg, size_t len)
{
	struct sv_state	*sv = SV(r);
	uint64_t	 limit;

	if ((sv->op != SV_OP_CREATE && sv->op != SV_OP_START) ||
	    !sv_deaths_ask(sv->code) || sd->sd_code[0] != '\0' ||
	    sd->sd_exit <= 0)
		return;
	limit = sv->have_info ? sv->info.si_memory : sv->sq.sq_memory;
	snprintf(msg + strlen(msg), len - strlen(msg), "; the space ran out "
	    "of memory (its limit is %llu MiB): the kernel killed in it; a "
	    "space made with a larger spacectl create -m has more",
	    (unsigned long long)(limit >> 20));
}

/* The undo is over (SV_ROLLBACK): the failure's answer, at last. */
void
sv_deaths_undone(struct request *r, const struct space_done *sd)
{
	struct sv_state	*sv = SV(r);
	char		 msg[SPACE_DONE_MESSAGE_MAX];

	if (sd->sd_code[0] != '\0')
		snprintf(msg, sizeof(msg), "%.150s; %s the space failed too "
		    "(%.40s)", sv->message, sv->op == SV_OP_START ?
		    "stopping" : "removing", sd->sd_code);
	else
		strlcpy(msg, sv->message, sizeof(msg));
	deaths_memory(r, sd, msg, sizeof(msg));
	startrun_close(r, sv->code, msg);
	request_refuse(r, sv->code, msg);
}
