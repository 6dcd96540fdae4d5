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
 * A create whose server dies as it starts: the relay starts it again
 * each time and the journal keeps a restart record each time (collect.c
 * counts them, restarts_seen.c holds the count).  SERVER_DEATHS_MAX of
 * them before the first ready end the wait, whatever each died of: only
 * deaths count, never the time a slow start takes.  The undo then says
 * whether the kernel killed for memory in the space (sq_oom).
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "place_proto.h"
#include "spaced.h"
#include "server.h"

/* A new space's server never dies while it starts, unless it cannot. */
#define SERVER_DEATHS_MAX	3

/*
 * After an attempt found the server not ready: 1 when the create must
 * end (ERR_SERVER_FAILED, msg says why), else 0 and its restarts are
 * collected again.
 */
int
sv_deaths(struct request *r, char *msg, size_t len)
{
	struct sv_state	*sv = SV(r);
	uint64_t	 n = 0;

	if (sv->op != SV_OP_CREATE)
		return 0;
	if (!restarts_of(r->r_uid, sv->id, &n) || n < SERVER_DEATHS_MAX) {
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
 * The undo's answer to sq_oom: the kills for memory, in words after
 * the failure's, with what to do.
 */
void
sv_deaths_memory(struct request *r, const struct space_done *sd,
    char *msg, size_t len)
{
	struct sv_state	*sv = SV(r);
	uint64_t	 limit;

	if (sv->op != SV_OP_CREATE || !sv_deaths_ask(sv->code) ||
	    sd->sd_code[0] != '\0' || sd->sd_exit <= 0)
		return;
	limit = sv->have_info ? sv->info.si_memory : sv->sq.sq_memory;
	snprintf(msg + strlen(msg), len - strlen(msg), "; the space ran out "
	    "of memory (its limit is %llu MiB): the kernel killed in it; a "
	    "space made with a larger spacectl create -m has more",
	    (unsigned long long)(limit >> 20));
}
