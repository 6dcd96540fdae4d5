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
 * exec: a command in a space or its gatekeeper, for a client.  spaced
 * checks the argv it is given, opens the output stream (place ->
 * client) and, when asked, the stdin stream (client -> place), tells
 * the client their ids, and hands the rest to the place with an engine
 * socket.  The bytes pass through the stream table unread; the place's
 * DONE carries the exit code.
 */

#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include "ctl_check.h"
#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_agent.h"
#include "spaced.h"

/* The space of an exec, and whether its owner removed it meanwhile. */
struct exec_state {
	char		 id[SPACE_ID_SIZE];
	int		 removed;
};
const size_t exec_state_size = sizeof(struct exec_state);
#define XS(r)	((struct exec_state *)(r)->r_state)

struct exec_gone {
	uid_t		 uid;
	const char	*id;
	int		 removed;
};

static void
exec_mark(struct request *r, void *arg)
{
	struct exec_state	*xs = r->r_state;
	struct exec_gone	*g = arg;

	if (xs != NULL && r->r_uid == g->uid && strcmp(xs->id, g->id) == 0)
		xs->removed = g->removed;
}

void
exec_space_removed(uid_t uid, const char *id, int removed)
{
	struct exec_gone	 g = { uid, id, removed };

	request_each(IMSG_CTL_EXEC, exec_mark, &g);
	request_each(IMSG_CTL_ATTACH, exec_mark, &g);
}

static const char	*exec_go(struct request *, const struct ctl_exec *);

const char *
exec_start(struct request *r, struct imsg *imsg)
{
	static struct ctl_exec		 cx;

	if (imsg_get_data(imsg, &cx, sizeof(cx)) == -1 ||
	    !ctl_exec_valid(&cx))
		return ERR_BAD_REQUEST;
	if (cx.cx_target != EXEC_TARGET_SPACE &&
	    cx.cx_target != EXEC_TARGET_GATEKEEPER) {
		request_refuse(r, ERR_INVALID_EXEC_TARGET, "the targets are "
		    "the space and its gatekeeper");
		return NULL;
	}
	/*
	 * -T ends the whole command, from inside the space with its
	 * /bin/sh (Docker) or under its keeper (native); a command in the
	 * gatekeeper has neither, and would run on past its time.
	 */
	if (cx.cx_target == EXEC_TARGET_GATEKEEPER && cx.cx_timeout_ms != 0) {
		request_refuse(r, ERR_INVALID_TIMEOUT, "exec -g takes no -T: "
		    "a command in the gatekeeper cannot be ended at its time "
		    "(the gatekeeper has no shell to end it from)");
		return NULL;
	}
	return exec_go(r, &cx);
}

/*
 * attach: the agent's own screen, an exec -t of the profile's attach
 * command through a fixed /bin/sh line (space_agent_attach): the client
 * names only the space and its terminal.
 */
const char *
attach_start(struct request *r, struct imsg *imsg)
{
	static struct ctl_exec		 cx;
	const struct agent_profile	*ag = agent_profile();
	char				 line[SPACE_AGENT_CMD_MAX];
	const char			*argv[] = { "/bin/sh", "-c", line, NULL };
	size_t				 i, n, off = 0;

	if (imsg_get_data(imsg, &cx, sizeof(cx)) == -1 ||
	    !ctl_attach_valid(&cx))
		return ERR_BAD_REQUEST;
	if (ag == NULL || space_agent_attach(ag, line, sizeof(line)) == -1) {
		request_refuse(r, ERR_NO_ATTACH, "the agent profile names no "
		    "attach command");
		return NULL;
	}
	memset(cx.cx_argv, 0, sizeof(cx.cx_argv));
	for (i = 0; argv[i] != NULL; i++) {
		n = strlen(argv[i]) + 1;
		memcpy(cx.cx_argv + off, argv[i], n);
		off += n;
	}
	cx.cx_argc = i;
	cx.cx_argv_len = off;
	cx.cx_tty = 1;
	cx.cx_stdin = 1;
	return exec_go(r, &cx);
}

static const char *
exec_go(struct request *r, const struct ctl_exec *cx)
{
	static struct space_exec_req	 se;
	struct ctl_exec_streams		 xs;
	struct stream_route		*out, *in = NULL;
	enum procid			 place;

	memset(&se, 0, sizeof(se));
	space_req_fill(r, &se.se_space, cx->cx_id);
	strlcpy(XS(r)->id, cx->cx_id, sizeof(XS(r)->id));
	se.se_target = cx->cx_target;
	se.se_timeout_ms = cx->cx_timeout_ms;
	se.se_argc = cx->cx_argc;
	se.se_argv_len = cx->cx_argv_len;
	memcpy(se.se_argv, cx->cx_argv, cx->cx_argv_len);
	se.se_tty = cx->cx_tty;
	se.se_rows = cx->cx_rows;
	se.se_cols = cx->cx_cols;
	/* Marks a terminal's exec, which alone takes resizes. */
	if (cx->cx_tty && (r->r_heap = calloc(1, 1)) == NULL)
		return ERR_INTERNAL;

	/* The streams end at the place the space lives on. */
	place = place_of(cx->cx_id);
	if ((out = stream_open(r, EP_WORKER(place),
	    EP_CLIENT(r->r_cc))) == NULL || (cx->cx_stdin &&
	    (in = stream_open(r, EP_CLIENT(r->r_cc),
	    EP_WORKER(place))) == NULL))
		return ERR_BUSY;
	se.se_out_stream = out->s_id;
	se.se_in_stream = in != NULL ? in->s_id : 0;
	if (place_send_or_refuse(r, IMSG_SPACE_EXEC_REQ, &se, sizeof(se)) ==
	    -1)
		return NULL;
	/* The client learns the streams once the place knows them. */
	xs.xs_in = se.se_in_stream;
	xs.xs_out = se.se_out_stream;
	request_data(r, &xs, sizeof(xs));
	return NULL;
}

/* The last word: always passed on, it carries the exit code. */
static void
exec_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_done	 sd;

	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    memchr(sd.sd_code, '\0', sizeof(sd.sd_code)) == NULL ||
	    memchr(sd.sd_message, '\0', sizeof(sd.sd_message)) == NULL ||
	    (sd.sd_code[0] == '\0' && (sd.sd_exit < 0 || sd.sd_exit > 255)))
		fatalx("%s: bad done from %s", __func__, proc_title(from));
	/* Killed with its space: say so, the exit code stays the place's. */
	if (XS(r)->removed)
		strlcpy(sd.sd_message, "the space was removed while the "
		    "command ran", sizeof(sd.sd_message));
	request_data(r, &sd, sizeof(sd));
	if (sd.sd_code[0] == '\0')
		request_end(r);
	else
		request_fail(r, sd.sd_code);
}

const struct answer_row exec_answers[] = {
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done),
	    AR_FINAL, exec_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ 0 }
};
