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
 * server and token (spec "The server inside a space", "Token"): the
 * token is read back from the space, then given to its owner, or used
 * for one request to the server inside through curl.
 */

#include <sys/types.h>

#include <string.h>
#include <time.h>

#include "ctl_check.h"
#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_parse.h"
#include "spaced.h"
#include "server.h"

const char *
server_start(struct request *r, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct ctl_server	*cv = &sv->req;

	if (imsg_get_data(imsg, cv, sizeof(*cv)) == -1 ||
	    !ctl_server_valid(cv))
		return ERR_BAD_REQUEST;
	if (agent_none()) {
		request_refuse(r, ERR_NO_AGENT, "spaces here run no agent "
		    "(default agent none in spaced.conf)");
		return NULL;
	}
	sv->op = SV_OP_SERVER;
	strlcpy(sv->id, cv->cv_id, sizeof(sv->id));
	sv_token_read(r);
	return NULL;
}

const char *
token_start(struct request *r, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct ctl_space	 cs;

	if (imsg_get_data(imsg, &cs, sizeof(cs)) == -1 ||
	    !ctl_token_valid(&cs))
		return ERR_BAD_REQUEST;
	if (agent_none()) {
		request_refuse(r, ERR_NO_AGENT, "spaces here run no agent "
		    "(default agent none in spaced.conf)");
		return NULL;
	}
	sv->op = SV_OP_TOKEN;
	strlcpy(sv->id, cs.cs_id, sizeof(sv->id));
	sv_token_read(r);
	return NULL;
}

/* The token read, and for server the request: each an exec in the space. */
#define ROW_EXEC_DONE	{ IMSG_SPACE_DONE, PLACE_BITS, \
			    sizeof(struct space_done), AR_FINAL, sv_done }
#define ROW_CONN	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, \
			    AR_ALWAYS, space_conn }
#define ROW_VERDICT	{ IMSG_JOURNAL_SERVER_REP, PROC_BIT(PROC_JOURNAL), \
			    sizeof(struct journal_server_rep), AR_FINAL, \
			    sv_rep }

const struct answer_row token_answers[] = {
	ROW_EXEC_DONE, ROW_CONN, ROW_VERDICT, { 0 }
};

const struct answer_row server_answers[] = {
	ROW_EXEC_DONE, ROW_CONN,
	{ IMSG_JOURNAL_SERVER_BODY, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_server_body), 0, sv_body },
	ROW_VERDICT, { 0 }
};
