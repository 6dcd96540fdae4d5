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
 * The space operations: create, list, show, verify, stop and start.
 * Each is one request to the place; create and start first make sure
 * of the current tools, then wait for the server inside (server.c);
 * list and show ask each running space's server whether it is ready.
 * Calls of start for one space share one run, and a stop waits for it.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_parse.h"
#include "spaced.h"
#include "server.h"

#define SHARE_POLL_MS		100	/* a shared start looks at its run */

/* 32 random bytes as base64url, unpadded: 43 characters. */
static void
token_new(char *tok, size_t len)
{
	static const char	 b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	uint8_t			 raw[SPACE_TOKEN_BYTES + 2];
	size_t			 i, o = 0;
	uint32_t		 v;

	memset(raw, 0, sizeof(raw));
	arc4random_buf(raw, SPACE_TOKEN_BYTES);
	for (i = 0; i < SPACE_TOKEN_BYTES && o + 4 < len; i += 3) {
		v = raw[i] << 16 | raw[i + 1] << 8 | raw[i + 2];
		tok[o++] = b64[v >> 18 & 63];
		tok[o++] = b64[v >> 12 & 63];
		if (i + 1 < SPACE_TOKEN_BYTES)
			tok[o++] = b64[v >> 6 & 63];
		if (i + 2 < SPACE_TOKEN_BYTES)
			tok[o++] = b64[v & 63];
	}
	tok[o] = '\0';
	explicit_bzero(raw, sizeof(raw));
}

/* The place moved the space: the two containers, for the end. */
static void
sv_moved(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct space_move	 mv;

	if (imsg_get_data(imsg, &mv, sizeof(mv)) == -1 ||
	    sv->op != SV_OP_START || sv->step != SV_PLACE || sv->moving ||
	    memchr(mv.mv_old, '\0', sizeof(mv.mv_old)) == NULL ||
	    memchr(mv.mv_new, '\0', sizeof(mv.mv_new)) == NULL ||
	    mv.mv_old[0] == '\0' || mv.mv_new[0] == '\0' ||
	    strspn(mv.mv_old, "0123456789abcdef") != strlen(mv.mv_old) ||
	    strspn(mv.mv_new, "0123456789abcdef") != strlen(mv.mv_new))
		fatalx("%s: bad move from %s", __func__, proc_title(from));
	sv->moving = 1;
	sv->move = mv;
}

static void
owner_of(struct request *r, char *buf, size_t len)
{
	if (space_owner_fmt(buf, len, spaced_config()->sc_install_id,
	    r->r_uid) == -1)
		fatalx("%s: install id", __func__);
}

/* The place's request for the space of r, after tools_first or not. */
static void
place_start(struct request *r, const struct space_req *sq)
{
	const char	*code;

	if ((code = place_send(r, IMSG_SPACE_START_REQ, sq, sizeof(*sq))) !=
	    NULL)
		sv_fail(r, code, place_why(code));
}

static const char *
tools_first(struct request *r, const struct space_req *sq,
    uint32_t place_type)
{
	struct sv_state		*sv = SV(r);

	sv->sq = *sq;
	sv->place = place_type;
	sv->step = SV_TOOLS;
	return tools_ensure(r, "", 1);
}

static int
start_busy(const char *owner, const char *id)
{
	struct start_run	*sr;

	return (sr = startrun_find(owner, id)) != NULL && startrun_led(sr);
}

/*
 * start looks the space up before the tools: an unknown ID (or another
 * owner's) is answered at once, not after a fill of minutes.
 */
static const char *
start_lookup(struct request *r, const struct space_req *sq)
{
	struct sv_state		*sv = SV(r);

	sv->sq = *sq;
	sv->place = IMSG_SPACE_START_REQ;
	sv->step = SV_LOOKUP;
	return place_lookup_caller(r, sq);
}

/* The restarts before it counted: on to the lookup. */
static void
start_counted(struct request *r)
{
	struct space_req	 sq = SV(r)->sq;
	const char		*code;

	sv_deaths_base(r);
	if ((code = start_lookup(r, &sq)) != NULL)
		sv_fail(r, code, place_why(code));
}

/* The lookup's records are not start's answer; the later ones are. */
static void
start_info(struct request *r, enum procid from, struct imsg *imsg)
{
	if (SV(r)->step == SV_LOOKUP)
		place_lookup_record(r, from, imsg, 1);
	else
		sv_info(r, from, imsg);
}

static void
start_record(struct request *r, enum procid from, struct imsg *imsg)
{
	if (SV(r)->step != SV_LOOKUP)
		sv_record(r, from, imsg);
}

/*
 * The lookup's word: the place's refusal, or on to the tools.  Not
 * place_lookup_done: the refusal closes the run every call shares.
 */
static void
start_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct space_done	 sd;
	const char		*code;

	if (sv->step != SV_LOOKUP) {
		sv_done(r, from, imsg);
		return;
	}
	space_done_take(from, imsg, &sd);
	if (sd.sd_code[0] != '\0') {
		startrun_close(r, sd.sd_code, sd.sd_message);
		request_data(r, &sd, sizeof(sd));
		request_fail(r, sd.sd_code);
		return;
	}
	if ((code = tools_first(r, &sv->sq, IMSG_SPACE_START_REQ)) != NULL)
		sv_fail(r, code, "the tools could not be asked for");
}

/* A call that shares a run answers as its leader did, or leads it. */
static void
share_poll(struct request *r)
{
	struct sv_state		*sv = SV(r);
	struct start_run	*sr = sv->run;
	struct space_done	 sd;
	struct space_req	 sq;
	const char		*code;

	if (r->r_answered)
		return;
	if (sr->sr_over) {
		sv->run = NULL;
		sd = sr->sr_done;
		if (sd.sd_code[0] == '\0' && sr->sr_have_info)
			request_data(r, &sr->sr_info, sizeof(sr->sr_info));
		startrun_unref(sr);
		if (sd.sd_code[0] == '\0')
			request_end(r);
		else
			request_refuse(r, sd.sd_code, sd.sd_message);
		return;
	}
	if (startrun_led(sr)) {
		request_pause(r, SHARE_POLL_MS, share_poll);
		return;
	}
	/* Its leader left without an answer: this call runs it now. */
	log_debug("request %u: leads the start of %s now", r->r_id, sr->sr_id);
	sr->sr_leader = r->r_id;
	sr->sr_refs--;		/* the one of the leader that left */
	sv->step = SV_PLACE;
	space_req_fill(r, &sq, sv->id);
	if (agent_fill(r->r_uid, &sq.sq_agent) == -1) {
		sv_fail(r, ERR_TOOLS_FILL_FAILED, "the agent's tools cannot be "
		    "described");
		return;
	}
	if (agent_none()) {
		place_start(r, &sq);
		return;
	}
	if ((code = tools_first(r, &sq, IMSG_SPACE_START_REQ)) != NULL)
		sv_fail(r, code, "the tools could not be asked for");
}

/* 1 when r joined a start under way, 0 when it leads a new one. */
static int
start_join(struct request *r)
{
	struct sv_state		*sv = SV(r);
	char			 owner[SPACE_OWNER_SIZE];
	struct start_run	*sr;

	owner_of(r, owner, sizeof(owner));
	if ((sr = startrun_find(owner, sv->id)) != NULL) {
		sr->sr_refs++;
		sv->run = sr;
		sv->step = SV_SHARE;
		log_debug("request %u: shares the start of %s", r->r_id,
		    sr->sr_id);
		share_poll(r);
		return 1;
	}
	sv->run = startrun_new(owner, sv->id, r->r_id);
	return 0;
}

/* The tools are there and ours: now the place, on that volume. */
static void
sv_tools(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct tools_done	 td;
	struct space_create_req	 cq;
	const char		*code;
	size_t			 len = sizeof(cq.cq_space);

	if (sv->step != SV_TOOLS || tools_done_read(r, from, imsg, &td) == -1)
		fatalx("%s: bad tools answer from %s", __func__,
		    proc_title(from));
	if (td.td_done.sd_code[0] != '\0') {
		sv_place_refused(r, &td.td_done);
		return;
	}
	strlcpy(sv->sq.sq_agent.sa_tools, td.td_volume,
	    sizeof(sv->sq.sq_agent.sa_tools));
	sv->step = SV_PLACE;
	/*
	 * A create's token goes with it, as payload: the place writes it
	 * over an exec's stdin as soon as the space runs, so the server
	 * starts while the gatekeeper does.
	 */
	memset(&cq, 0, sizeof(cq));
	cq.cq_space = sv->sq;
	if (sv->place == IMSG_SPACE_CREATE_REQ) {
		token_new(sv->token, sizeof(sv->token));
		strlcpy(cq.cq_token, sv->token, sizeof(cq.cq_token));
		len = sizeof(cq);
	}
	code = place_send(r, sv->place, &cq, len);
	explicit_bzero(&cq, sizeof(cq));
	if (code != NULL)
		sv_fail(r, code, place_refusal(r, code, NULL));
}

static const struct {
	uint32_t	 sp_ctl;
	uint32_t	 sp_place;
	int		 sp_id;		/* takes a space id */
	int		 sp_sv_op;	/* its chain, 0 for none */
} space_types[] = {
	{ IMSG_CTL_CREATE,	IMSG_SPACE_CREATE_REQ,	0, SV_OP_CREATE },
	{ IMSG_CTL_LIST,	IMSG_SPACE_LIST_REQ,	0, SV_OP_PROBE },
	{ IMSG_CTL_SHOW,	IMSG_SPACE_SHOW_REQ,	1, SV_OP_PROBE },
	{ IMSG_CTL_VERIFY,	IMSG_SPACE_VERIFY_REQ,	1, 0 },
	{ IMSG_CTL_STOP,	IMSG_SPACE_STOP_REQ,	1, 0 },
	{ IMSG_CTL_START,	IMSG_SPACE_START_REQ,	1, SV_OP_START },
};

#define STOP_POLL_MS		100

/*
 * A stop that came while a start of the same space was under way goes
 * once that start is over, whatever its outcome: a stop that slipped in
 * between the create and the start of a move would otherwise resolve,
 * and the space would run anyway.
 */
static void
stop_resume(struct request *r)
{
	struct sv_state		*sv = SV(r);
	struct space_req	 sq;

	if (r->r_answered)
		return;
	space_req_fill(r, &sq, sv->id);
	if (start_busy(sq.sq_owner, sv->id)) {
		/* Once: a suite waits on it to order its calls (move.sh). */
		if (!sv->stop_waits)
			log_debug("request %u: stop waits for the start of %s",
			    r->r_id, sv->id);
		sv->stop_waits = 1;
		request_pause(r, STOP_POLL_MS, stop_resume);
		return;
	}
	if (agent_fill(r->r_uid, &sq.sq_agent) == -1) {
		request_refuse(r, ERR_TOOLS_FILL_FAILED, "the agent's tools "
		    "cannot be described");
		return;
	}
	(void)place_send_or_refuse(r, IMSG_SPACE_STOP_REQ, &sq, sizeof(sq));
}

const char *
space_start(struct request *r, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct ctl_space	 cs;
	struct space_create_req	 cq;
	struct space_req	*sq = &cq.cq_space;
	const char		*errstr, *code;
	uint32_t		 type = r->r_op->op_type;
	size_t			 i;

	for (i = 0; i < sizeof(space_types) / sizeof(space_types[0]); i++)
		if (space_types[i].sp_ctl == type)
			break;
	if (i == sizeof(space_types) / sizeof(space_types[0]))
		fatalx("%s: %s is no space operation", __func__,
		    r->r_op->op_name);
	if (imsg_get_data(imsg, &cs, sizeof(cs)) == -1)
		return ERR_BAD_REQUEST;
	if (ctl_space_check(&cs, space_types[i].sp_id, &errstr) == -1) {
		log_debug("control: uid %u: %s: %s", (unsigned)r->r_uid,
		    r->r_op->op_name, errstr);
		return ERR_BAD_REQUEST;
	}

	memset(&cq, 0, sizeof(cq));
	space_req_fill(r, sq, cs.cs_id);
	strlcpy(sq->sq_name, cs.cs_name, sizeof(sq->sq_name));
	strlcpy(sq->sq_project, cs.cs_project, sizeof(sq->sq_project));
	sq->sq_memory = cs.cs_memory;
	if (type == IMSG_CTL_CREATE &&
	    (sq->sq_runtime_key[0] == '\0' || sq->sq_hosts[0] == '\0')) {
		request_refuse(r, ERR_RUNTIME_MISSING, "spaced could not read "
		    SPACED_RELAY_BINARY ", " SPACED_HOSTS_FILE " or the space "
		    "ca bundle at start: see its log");
		return NULL;
	}
	/* What runs in it: the checkers of verify and start want it too. */
	if (agent_fill(r->r_uid, &sq->sq_agent) == -1) {
		request_refuse(r, ERR_TOOLS_FILL_FAILED, "the agent's tools "
		    "cannot be described: see spaced's log for what it could "
		    "not read at start");
		return NULL;
	}
	if (type == IMSG_CTL_CREATE) {
		if (strcmp(cs.cs_place, "native") == 0)
			r->r_place = PROC_NS;
		else if (strcmp(cs.cs_place, "docker") == 0)
			r->r_place = PROC_DOCKER;
		else {
			r->r_place = place_default();
			r->r_place_default = 1;
		}
	}
	if (space_types[i].sp_sv_op != 0)
		sv_begin(r, cs.cs_id, space_types[i].sp_sv_op);
	else
		strlcpy(sv->id, cs.cs_id, sizeof(sv->id));
	/* A native space's start: its tools are the native place's. */
	if (type == IMSG_CTL_START && place_of(cs.cs_id) == PROC_NS)
		r->r_place = PROC_NS;
	/* One run of start per space; a stop waits for it. */
	if (type == IMSG_CTL_START && start_join(r))
		return NULL;
	/* The space its event names. */
	if (type == IMSG_CTL_VERIFY)
		strlcpy(sv->id, cs.cs_id, sizeof(sv->id));
	/* Its gatekeeper's log, collected before it stops (collect.c). */
	if (type == IMSG_CTL_STOP) {
		strlcpy(sv->id, cs.cs_id, sizeof(sv->id));
		collect_then(r, cs.cs_id, stop_resume);
		return NULL;
	}
	/*
	 * start first collects the space's restarts to now: a death of
	 * its server is one past them (server_deaths.c).
	 */
	if (type == IMSG_CTL_START && !agent_none()) {
		sv->sq = *sq;
		collect_then(r, cs.cs_id, start_counted);
		return NULL;
	}
	/* create first makes sure of the current tools. */
	if (type == IMSG_CTL_CREATE && !agent_none()) {
		code = tools_first(r, sq, space_types[i].sp_place);
		/* The place's refusal in its words, as without an agent. */
		if (code != NULL && place_code(code)) {
			request_refuse(r, code, place_refusal(r, code, NULL));
			return NULL;
		}
		return code;
	}
	/* A create without an agent: no token ("") in its request. */
	(void)place_send_or_refuse(r, space_types[i].sp_place, &cq,
	    type == IMSG_CTL_CREATE ? sizeof(cq) : sizeof(*sq));
	return NULL;
}

/* verify: a space the disk sweep found at its limit is one finding more. */
static void
verify_disk(struct request *r)
{
	struct space_violation	 v;
	uint64_t		 used, limit;
	int			 over;

	if (!disk_of(SV(r)->id, &used, &limit, &over) || !over)
		return;
	memset(&v, 0, sizeof(v));
	v.sv_kind = SPACE_REC_VIOLATION;
	strlcpy(v.sv_check, "disk_limit", sizeof(v.sv_check));
	snprintf(v.sv_message, sizeof(v.sv_message), "%llu bytes on the "
	    "engine's disk, at its limit of %llu: stopped by spaced",
	    (unsigned long long)used, (unsigned long long)limit);
	request_data(r, &v, sizeof(v));
}

/* verify and stop: the place's word is the answer. */
static void
space_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_done	 sd;

	space_done_take(from, imsg, &sd);
	if (sd.sd_code[0] == '\0') {
		if (r->r_op->op_type == IMSG_CTL_VERIFY)
			verify_disk(r);
		if (r->r_op->op_type == IMSG_CTL_STOP)
			events_emit("stop", r->r_uid, SV(r)->id, NULL);
		if (r->r_op->op_type == IMSG_CTL_VERIFY &&
		    SV(r)->violations > 0)
			events_emit("verify-failed", r->r_uid, SV(r)->id,
			    SV(r)->message);
		request_end(r);
		return;
	}
	/* No space of the caller's: nothing of theirs failed a check. */
	if (r->r_op->op_type == IMSG_CTL_VERIFY &&
	    strcmp(sd.sd_code, ERR_SPACE_NOT_FOUND) != 0 &&
	    strcmp(sd.sd_code, ERR_SPACE_NOT_OURS) != 0)
		events_emit("verify-failed", r->r_uid, SV(r)->id, sd.sd_code);
	request_data(r, &sd, sizeof(sd));
	request_fail(r, sd.sd_code);
}

/* verify: each finding counts, the first named in its event. */
static void
space_counted_violation(struct request *r, enum procid from,
    struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct space_violation	 sv_v;

	if (sv->violations++ == 0 &&
	    imsg_get_data(imsg, &sv_v, sizeof(sv_v)) == 0 &&
	    memchr(sv_v.sv_check, '\0', sizeof(sv_v.sv_check)) != NULL)
		strlcpy(sv->message, sv_v.sv_check, sizeof(sv->message));
	space_violation(r, from, imsg);
}

/* Each operation takes the answers of the steps it runs, no other. */
#define ROW_INFO(fn)	{ IMSG_SPACE_INFO, PLACE_BITS, \
			    sizeof(struct space_info), 0, fn }
#define ROW_VIOLATION(fn) { IMSG_SPACE_VIOLATION, PLACE_BITS, \
			    sizeof(struct space_violation), 0, fn }
#define ROW_RESOURCE(fn) { IMSG_SPACE_RESOURCE, PLACE_BITS, \
			    sizeof(struct space_resource), 0, fn }
#define ROW_DONE(fn)	{ IMSG_SPACE_DONE, PLACE_BITS, \
			    sizeof(struct space_done), AR_FINAL, fn }
/* a cancelled create rolls back, and needs its connections */
#define ROW_CONN	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, \
			    AR_ALWAYS, space_conn }
#define ROW_TOOLS	{ IMSG_TOOLS_DONE, PLACE_BITS, \
			    sizeof(struct tools_done), AR_FINAL, sv_tools }
#define ROW_READY	{ IMSG_JOURNAL_SERVER_REP, PROC_BIT(PROC_JOURNAL), \
			    sizeof(struct journal_server_rep), AR_FINAL, \
			    sv_rep }

const struct answer_row create_answers[] = {
	ROW_INFO(sv_info), ROW_VIOLATION(sv_record), ROW_RESOURCE(sv_record),
	ROW_DONE(sv_done), ROW_CONN, ROW_TOOLS, ROW_READY, { 0 }
};

const struct answer_row start_answers[] = {
	ROW_INFO(start_info), ROW_VIOLATION(start_record),
	ROW_RESOURCE(start_record),
	{ IMSG_SPACE_MOVED, PROC_BIT(PROC_DOCKER), sizeof(struct space_move),
	    0, sv_moved },
	ROW_DONE(start_done), ROW_CONN, ROW_TOOLS, ROW_READY, { 0 }
};

/* list and show, with the readiness of each running space's server */
const struct answer_row list_answers[] = {
	ROW_INFO(sv_info), ROW_VIOLATION(sv_record), ROW_RESOURCE(sv_record),
	ROW_DONE(sv_done), ROW_CONN, ROW_READY, { 0 }
};

/* verify and stop */
const struct answer_row space_answers[] = {
	ROW_INFO(space_info), ROW_VIOLATION(space_counted_violation),
	ROW_RESOURCE(space_resource), ROW_DONE(space_done), ROW_CONN, { 0 }
};
