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
 * The chain of the server inside a space (spec "The server inside a
 * space", "Token"): fixed commands the place runs in the space, whose
 * output goes to spaced-journal, which alone reads it.  spaced holds
 * the token only while it needs it and writes it nowhere but to an
 * exec's stdin.  How each step is bounded: docs/notes/spaced-server.md.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_parse.h"
#include "space_server.h"
#include "spaced.h"
#include "server.h"

#define ATTEMPT_EXEC_MS(ms)	((ms) + 2000)
#define TOKEN_READ_MS		10000
#define REQUEST_EXEC_MS		(SERVER_REQUEST_MS + 2000)
/* What an exec of curl may print: the answer's caps and curl's line. */
#define ANSWER_OUTPUT_MAX	(SERVER_HEADERS_MAX + SERVER_BODY_MAX + 8192)
#define TOKEN_OUTPUT_MAX	(SERVER_TOKEN_MAX + 1)

/* The commands, by absolute path in the pinned image. */
/* At most one byte past the longest token: a huge file is cut there. */
static const char *const token_read_argv[] = {
	"/usr/bin/head", "-c", "129", SPACE_TOKEN_FILE, NULL
};
static const char *const curl_argv[] = SERVER_CURL_ARGV;

static void	ask(struct request *);
static int	move_send(struct request *, uint32_t);
static int	agent_space_id(struct request *);

const size_t server_state_size = sizeof(struct sv_state);

/*
 * One exec in the space; with kind, its output goes to spaced-journal,
 * which is told first, so that it knows the stream before data comes.
 */
static int
run(struct request *r, const char *const *argv, const void *in, size_t inlen,
    uint32_t timeout_ms, uint64_t output_max, uint32_t kind)
{
	struct sv_state		*sv = SV(r);
	static struct space_exec_req	 se;
	struct journal_server_req	 js;
	const struct agent_profile	*ag = agent_profile();
	struct stream_route		*s = NULL;
	const char			*code;

	memset(&se, 0, sizeof(se));
	space_req_fill(r, &se.se_space, sv->id);
	se.se_target = EXEC_TARGET_SPACE;
	se.se_timeout_ms = timeout_ms;
	se.se_output_max = output_max;
	if (space_exec_argv(&se, argv) == -1)
		fatalx("%s: argv", __func__);
	if (inlen > sizeof(se.se_stdin))
		fatalx("%s: stdin", __func__);
	memcpy(se.se_stdin, in, inlen);
	se.se_stdin_len = inlen;
	sv->exec_code[0] = '\0';
	sv->exec_exit = -1;
	/* The cap on engine connections is per place request: a new one. */
	r->r_conns = 0;

	if (kind != 0) {
		if ((s = stream_open(r, EP_WORKER(place_of(sv->id)),
		    EP_WORKER(PROC_JOURNAL))) == NULL) {
			explicit_bzero(&se, sizeof(se));
			sv_fail(r, ERR_BUSY, "no stream for the server's "
			    "answer");
			return -1;
		}
		se.se_out_stream = s->s_id;
		sv->stream = s;
		memset(&js, 0, sizeof(js));
		js.js_stream = s->s_id;
		js.js_kind = kind;
		js.js_body = sv->op == SV_OP_SERVER &&
		    kind == JOURNAL_SERVER_ANSWER;
		if (sv->op != SV_OP_SERVER && ag != NULL &&
		    kind == JOURNAL_SERVER_ANSWER) {
			js.js_ready_status = ag->ag_ready_status;
			strlcpy(js.js_ready_field, ag->ag_ready_field,
			    sizeof(js.js_ready_field));
		}
		if (request_send(r, PROC_JOURNAL, IMSG_JOURNAL_SERVER_REQ, -1,
		    &js, sizeof(js)) == -1) {
			explicit_bzero(&se, sizeof(se));
			sv_fail(r, ERR_WORKER_UNAVAILABLE, "spaced-journal "
			    "is not there");
			return -1;
		}
	}
	code = place_send(r, IMSG_SPACE_EXEC_REQ, &se, sizeof(se));
	explicit_bzero(&se, sizeof(se));
	if (code != NULL) {
		sv_fail(r, code, place_why(code));
		return -1;
	}
	return 0;
}

static void
forget_token(struct request *r)
{
	struct sv_state		*sv = SV(r);

	explicit_bzero(sv->token, sizeof(sv->token));
}

/*
 * The answer, once.  A create that made a space removes it first and
 * answers when the place is done (rollback_done).
 */
void
sv_fail(struct request *r, const char *code, const char *message)
{
	struct sv_state		*sv = SV(r);

	forget_token(r);
	evtimer_del(&r->r_pause);
	if (sv->op == SV_OP_START && sv->moving &&
	    sv->step != SV_MOVE_UNDO && sv->step !=
	    SV_MOVE_DONE) {
		/* The new container goes, by its id; the old comes back. */
		strlcpy(sv->code, code, sizeof(sv->code));
		strlcpy(sv->message, message != NULL ? message : code,
		    sizeof(sv->message));
		log_warnx("request %u: space %s: %s (%s): undoing its move",
		    r->r_id, sv->id, code, sv->message);
		if (move_send(r, IMSG_SPACE_MOVE_UNDO_REQ) == 0)
			return;
		snprintf(sv->message, sizeof(sv->message),
		    "%.150s; and its move could not be undone", message !=
		    NULL ? message : code);
		startrun_close(r, code, sv->message);
		request_refuse(r, code, sv->message);
		return;
	}
	if (sv_deaths_stop(r, code, message))
		return;
	if (sv->op != SV_OP_CREATE || !sv->made ||
	    sv->step == SV_ROLLBACK) {
		startrun_close(r, code, message != NULL ? message : "");
		request_refuse(r, code, message != NULL ? message : "");
		return;
	}
	sv_undo(r, code, message, IMSG_SPACE_REMOVE_REQ);
}

static double
since(const struct timespec *t)
{
	struct timespec	 now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	    (now.tv_nsec - t->tv_nsec) / 1e9;
}

static double
waited(struct request *r)
{
	struct sv_state		*sv = SV(r);

	return since(&sv->wait_start);
}

/* The end of a move: MOVE_DONE or MOVE_UNDO with the two ids. */
static int
move_send(struct request *r, uint32_t type)
{
	struct sv_state		*sv = SV(r);
	struct space_move_req	 mq;

	memset(&mq, 0, sizeof(mq));
	space_req_fill(r, &mq.mq_space, sv->id);
	mq.mq_move = sv->move;
	/* The current tools volume: a prune after the move keeps it. */
	mq.mq_space.sq_agent = sv->sq.sq_agent;
	tools_keep_current(r->r_uid, &mq.mq_keep);
	sv->step = type == IMSG_SPACE_MOVE_DONE_REQ ? SV_MOVE_DONE :
	    SV_MOVE_UNDO;
	return place_send(r, type, &mq, sizeof(mq)) == NULL ? 0 : -1;
}

/* create and start waited for the server: it is ready (list's record). */
static void
ready_report(struct request *r)
{
	struct sv_state		*sv = SV(r);
	struct ctl_ready	 cy;

	memset(&cy, 0, sizeof(cy));
	strlcpy(cy.cy_id, sv->info.si_id, sizeof(cy.cy_id));
	cy.cy_ready = CTL_READY_YES;
	request_data(r, &cy, sizeof(cy));
}

/* The space is up and its server answers: the record, then END. */
static void
succeed(struct request *r)
{
	struct sv_state		*sv = SV(r);

	forget_token(r);
	if (sv->op == SV_OP_START && sv->moving &&
	    sv->step != SV_MOVE_DONE) {
		/* Ready on the new tools: the old container goes. */
		if (move_send(r, IMSG_SPACE_MOVE_DONE_REQ) == 0)
			return;
		log_warnx("request %u: space %s: the old container of its "
		    "move could not be removed now; the next start will",
		    r->r_id, sv->id);
	}
	startrun_close(r, "", NULL);
	if (sv->op == SV_OP_CREATE || sv->op == SV_OP_START)
		events_emit(sv->op == SV_OP_CREATE ? "create" : "start",
		    r->r_uid, sv->have_info ? sv->info.si_id : sv->id,
		    sv->have_info && sv->info.si_place[0] != '\0' ?
		    sv->info.si_place : "docker");
	if (sv->have_info) {
		request_data(r, &sv->info, sizeof(sv->info));
		/* The wait just asked the server: ready, as show says it. */
		if (!sv->none && (sv->op == SV_OP_CREATE ||
		    sv->op == SV_OP_START))
			ready_report(r);
	}
	request_end(r);
}

static void
pause_over(struct request *r)
{
	if (!r->r_answered)
		ask(r);
}

/* One readiness attempt, or the server request: curl inside. */
static void
ask(struct request *r)
{
	struct sv_state		*sv = SV(r);
	static char			 config[SPACE_EXEC_STDIN_MAX];
	const struct agent_profile	*ag = agent_profile();
	struct server_request		 sr;
	struct ctl_server		*cv = &sv->req;
	char				 ctype[160];
	int				 n;

	if (ag == NULL) {
		sv_fail(r, ERR_INTERNAL, "no agent profile");
		return;
	}
	memset(&sr, 0, sizeof(sr));
	sr.sr_port = ag->ag_port;
	sr.sr_auth_user = ag->ag_auth_user[0] != '\0' ? ag->ag_auth_user :
	    NULL;
	sr.sr_token = sv->token;
	if (sv->op == SV_OP_SERVER) {
		sr.sr_method = cv->cv_method;
		sr.sr_path = cv->cv_path;
		sr.sr_max_ms = SERVER_REQUEST_MS;
		if (cv->cv_content_type[0] != '\0') {
			snprintf(ctype, sizeof(ctype), "Content-Type: %s",
			    cv->cv_content_type);
			sr.sr_headers[sr.sr_nheaders++] = ctype;
		}
		sr.sr_body = cv->cv_bodylen > 0 ? cv->cv_body : NULL;
		sr.sr_bodylen = cv->cv_bodylen;
	} else {
		sr.sr_method = ag->ag_ready_method;
		sr.sr_path = ag->ag_ready_path;
		/* A probe of list or show is one attempt: the full limit. */
		if (sv->ask_ms <= 0)
			sv->ask_ms = SERVER_ATTEMPT_MS;
		sr.sr_max_ms = sv->ask_ms;
		sv->attempts++;
		clock_gettime(CLOCK_MONOTONIC, &sv->ask_start);
	}
	n = server_curl_config(&sr, config, sizeof(config));
	if (n < 0) {
		explicit_bzero(config, sizeof(config));
		sv_fail(r, sv->op == SV_OP_SERVER ? ERR_REQUEST_TOO_LARGE :
		    ERR_INTERNAL, "the request does not fit one exec's stdin");
		return;
	}
	sv->step = SV_ASK;
	(void)run(r, curl_argv, config, (size_t)n, sv->op ==
	    SV_OP_SERVER ? REQUEST_EXEC_MS : ATTEMPT_EXEC_MS(sr.sr_max_ms),
	    ANSWER_OUTPUT_MAX, JOURNAL_SERVER_ANSWER);
	explicit_bzero(config, sizeof(config));
}

void
sv_token_read(struct request *r)
{
	struct sv_state		*sv = SV(r);

	sv->step = SV_TOKEN_READ;
	(void)run(r, token_read_argv, NULL, 0, TOKEN_READ_MS, TOKEN_OUTPUT_MAX,
	    JOURNAL_SERVER_TOKEN);
}

/*
 * Readiness: attempts with a growing limit, within the spec's bounds
 * (why so: docs/notes/spaced-server.md).
 */
static void
wait_ready(struct request *r)
{
	struct sv_state		*sv = SV(r);

	clock_gettime(CLOCK_MONOTONIC, &sv->wait_start);
	sv->attempts = 0;
	sv->ask_ms = SERVER_ATTEMPT_FIRST_MS;
	ask(r);
}

/*
 * list and show: the running spaces of the answer, asked one by one.
 * One allocation, r_heap, so that a request freed midway frees it all.
 */
struct probe_list {
	size_t		 n, cap, next;
	char		 ids[][SPACE_ID_SIZE];
};

static void
probe_add(struct request *r, const char *id)
{
	struct probe_list	*pl = r->r_heap;
	size_t			 cap;

	if (pl == NULL || pl->n == pl->cap) {
		cap = pl == NULL ? 16 : pl->cap * 2;
		if ((pl = realloc(pl, sizeof(*pl) + cap * sizeof(pl->ids[0])))
		    == NULL)
			fatal("%s", __func__);
		if (r->r_heap == NULL)
			pl->n = pl->next = 0;
		pl->cap = cap;
		r->r_heap = pl;
	}
	strlcpy(pl->ids[pl->n++], id, sizeof(pl->ids[0]));
}

static void
probe_next(struct request *r)
{
	struct sv_state		*sv = SV(r);
	struct probe_list	*pl = r->r_heap;

	if (pl == NULL || pl->next == pl->n) {
		request_end(r);
		return;
	}
	strlcpy(sv->id, pl->ids[pl->next++], sizeof(sv->id));
	sv_token_read(r);
}

/* One space's readiness for list and show; never a failure of theirs. */
static void
probe_report(struct request *r, int ready, const char *code)
{
	struct sv_state		*sv = SV(r);
	struct ctl_ready	 cy;

	forget_token(r);
	memset(&cy, 0, sizeof(cy));
	strlcpy(cy.cy_id, sv->id, sizeof(cy.cy_id));
	cy.cy_ready = ready ? CTL_READY_YES : CTL_READY_NO;
	if (!ready)
		strlcpy(cy.cy_code, code, sizeof(cy.cy_code));
	request_data(r, &cy, sizeof(cy));
	probe_next(r);
}

/*
 * The client of a create left.  Before the place is asked, and while
 * spaced-docker makes it, cancelling is the undo (spaced-docker rolls
 * back).  spaced-ns makes a space to its end whatever comes (review
 * F3: a space then stood, unannounced and unfollowed): its create goes
 * on alone, as one the place made does, and removes what it made.
 */
int
agent_abandon(struct request *r)
{
	struct sv_state		*sv = SV(r);

	if (sv->op != SV_OP_CREATE)
		return 0;
	if (!sv->made && (sv->step != SV_PLACE || r->r_place != PROC_NS))
		return 0;
	if (sv->step == SV_ROLLBACK)
		return 1;
	sv->abandoned = 1;
	if (sv->made && sv->step == SV_PAUSE)
		sv_fail(r, ERR_CANCELLED, "the client left");
	return 1;
}

/* --- the answers ------------------------------------------------------- */

/* The space runs: the client may bring code in while the server starts. */
static void
running_tell(struct request *r)
{
	struct ctl_space_running	 cn;

	memset(&cn, 0, sizeof(cn));
	strlcpy(cn.cn_id, SV(r)->id, sizeof(cn.cn_id));
	request_data(r, &cn, sizeof(cn));
}

/*
 * The place refused a create or start (its done, or its tools step's):
 * its words, with place_refusal's hint where it applies, are the
 * answer, its uncertainty kept.
 */
void
sv_place_refused(struct request *r, struct space_done *sd)
{
	strlcpy(sd->sd_message, place_refusal(r, sd->sd_code,
	    sd->sd_message), sizeof(sd->sd_message));
	startrun_close(r, sd->sd_code, sd->sd_message);
	request_data(r, sd, sizeof(*sd));
	request_fail(r, sd->sd_code);
}

void
sv_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct space_done	 sd;
	char			 msg[SPACE_DONE_MESSAGE_MAX];

	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    memchr(sd.sd_code, '\0', sizeof(sd.sd_code)) == NULL ||
	    memchr(sd.sd_message, '\0', sizeof(sd.sd_message)) == NULL ||
	    (sd.sd_code[0] != '\0' &&
	    !space_code_valid(sd.sd_code, sizeof(sd.sd_code))) ||
	    (sd.sd_code[0] == '\0' && (sd.sd_exit < -1 || sd.sd_exit > 255)))
		fatalx("%s: bad done from %s", __func__, proc_title(from));

	switch (sv->step) {
	case SV_PLACE:
		/* A list asked both places: the last one's word ends it. */
		if (r->r_list_pending > 1) {
			r->r_list_pending--;
			return;
		}
		if (sd.sd_code[0] != '\0') {
			sv_place_refused(r, &sd);
			return;
		}
		/* Its client left while spaced-ns made it: undone. */
		if (sv->abandoned && sv->op == SV_OP_CREATE) {
			if (agent_space_id(r) == -1) {
				sv_fail(r, ERR_INTERNAL, "the place named no "
				    "space");
				return;
			}
			sv->made = 1;
			sv_fail(r, ERR_CANCELLED, "the client left");
			return;
		}
		if (sv->none) {
			succeed(r);
			return;
		}
		if (sv->op == SV_OP_PROBE) {
			probe_next(r);
			return;
		}
		if (agent_space_id(r) == -1) {
			sv_fail(r, ERR_INTERNAL, "the place named no space");
			return;
		}
		sv->made = sv->op == SV_OP_CREATE;
		if (sv->op != SV_OP_CREATE) {
			sv_token_read(r);
			return;
		}
		/* The place wrote the token as the space started. */
		running_tell(r);
		wait_ready(r);
		return;
	case SV_TOKEN_READ:
	case SV_ASK: {
		struct journal_server_exit	 jx;

		/* How it ended, for spaced-journal's verdict. */
		strlcpy(sv->exec_code, sd.sd_code,
		    sizeof(sv->exec_code));
		memset(&jx, 0, sizeof(jx));
		jx.jx_timedout = strcmp(sd.sd_code, ERR_TIMEOUT) == 0;
		jx.jx_exit = sd.sd_code[0] == '\0' ? sd.sd_exit : -1;
		if (strcmp(sd.sd_code, ERR_OUTPUT_TOO_LARGE) == 0 ||
		    jx.jx_timedout)
			jx.jx_exit = 0;	/* it ran: its output is the verdict */
		if (request_send(r, PROC_JOURNAL, IMSG_JOURNAL_SERVER_EXIT, -1,
		    &jx, sizeof(jx)) == -1)
			sv_fail(r, ERR_WORKER_UNAVAILABLE, "spaced-journal "
			    "is not there");
		return;
	}
	case SV_MOVE_DONE:
		if (sd.sd_code[0] != '\0')
			log_warnx("request %u: space %s runs on its new tools; "
			    "its old container stays (%s: %s)", r->r_id,
			    sv->id, sd.sd_code, sd.sd_message);
		succeed(r);
		return;
	case SV_MOVE_UNDO:
		/* The failure's code; the place says what is back. */
		snprintf(msg, sizeof(msg), "%.120s; %.128s",
		    sv->message, sd.sd_code[0] == '\0' ? "the space "
		    "keeps its old container" : sd.sd_message);
		startrun_close(r, sv->code, msg);
		request_refuse(r, sv->code, msg);
		return;
	case SV_ROLLBACK:
		sv_deaths_undone(r, &sd);
		return;
	default:
		fatalx("%s: step %d", __func__, sv->step);
	}
}

/* The place failed the exec: the container is gone or stopped. */
static int
exec_failed(struct request *r)
{
	struct sv_state		*sv = SV(r);
	const char	*c = sv->exec_code;

	return c[0] != '\0' && strcmp(c, ERR_TIMEOUT) != 0 &&
	    strcmp(c, ERR_OUTPUT_TOO_LARGE) != 0;
}

void
sv_rep(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct journal_server_rep	 jr;
	struct ctl_server_result	 cz;
	struct ctl_token		 ct;
	char				 msg[SPACE_DONE_MESSAGE_MAX];
	long				 took, pause;

	if (imsg_get_data(imsg, &jr, sizeof(jr)) == -1)
		fatalx("%s: bad answer from %s", __func__, proc_title(from));
	/*
	 * Both ends are done with the output: its END went before the
	 * place's DONE, the journal's credit before this answer.  A wait
	 * of many attempts must not hold a stream for each.
	 */
	if (sv->stream != NULL) {
		stream_close(sv->stream);
		sv->stream = NULL;
	}
	if (memchr(jr.jr_code, '\0', sizeof(jr.jr_code)) == NULL ||
	    memchr(jr.jr_token, '\0', sizeof(jr.jr_token)) == NULL ||
	    jr.jr_verdict < SERVER_ANSWER ||
	    jr.jr_verdict > SERVER_UNREADABLE ||
	    (jr.jr_verdict != SERVER_ANSWER && (jr.jr_code[0] == '\0' ||
	    !space_code_valid(jr.jr_code, sizeof(jr.jr_code)))) ||
	    jr.jr_ready > 1 || jr.jr_status > 999)
		fatalx("%s: bad answer from %s", __func__, proc_title(from));

	if (sv->abandoned) {
		explicit_bzero(&jr, sizeof(jr));
		sv_fail(r, ERR_CANCELLED, "the client left");
		return;
	}
	if (sv->op == SV_OP_PROBE) {
		if (sv->step == SV_TOKEN_READ &&
		    jr.jr_verdict == SERVER_ANSWER && !exec_failed(r)) {
			strlcpy(sv->token, jr.jr_token,
			    sizeof(sv->token));
			explicit_bzero(&jr, sizeof(jr));
			ask(r);
			return;
		}
		explicit_bzero(jr.jr_token, sizeof(jr.jr_token));
		if (exec_failed(r))
			probe_report(r, 0, sv->exec_code);
		else if (jr.jr_verdict != SERVER_ANSWER)
			probe_report(r, 0, sv->step == SV_TOKEN_READ ?
			    ERR_TOKEN_UNREADABLE : jr.jr_code);
		else
			probe_report(r, jr.jr_ready, ERR_SERVER_NOT_READY);
		return;
	}
	if (sv->step == SV_TOKEN_READ) {
		if (exec_failed(r)) {
			/* No space of the caller's: an unknown ID's words. */
			sv_fail(r, sv->exec_code, strcmp(sv->exec_code,
			    ERR_SPACE_NOT_FOUND) == 0 ? "" : "the token "
			    "cannot be read: the space does not run "
			    "(spacectl start starts it)");
			explicit_bzero(&jr, sizeof(jr));
			return;
		}
		if (jr.jr_verdict != SERVER_ANSWER) {
			sv_fail(r, ERR_TOKEN_UNREADABLE, "the space's token "
			    "file is not 32 to 128 characters of base64url");
			explicit_bzero(&jr, sizeof(jr));
			return;
		}
		strlcpy(sv->token, jr.jr_token,
		    sizeof(sv->token));
		explicit_bzero(&jr, sizeof(jr));
		switch (sv->op) {
		case SV_OP_TOKEN:
			memset(&ct, 0, sizeof(ct));
			strlcpy(ct.ct_token, sv->token,
			    sizeof(ct.ct_token));
			request_data(r, &ct, sizeof(ct));
			explicit_bzero(&ct, sizeof(ct));
			succeed(r);
			return;
		case SV_OP_SERVER:
			ask(r);
			return;
		default:
			wait_ready(r);
			return;
		}
	}
	if (sv->step != SV_ASK)
		fatalx("%s: step %d", __func__, sv->step);
	if (sv->op == SV_OP_SERVER) {
		if (exec_failed(r)) {
			sv_fail(r, sv->exec_code, NULL);
			return;
		}
		if (jr.jr_verdict != SERVER_ANSWER) {
			sv_fail(r, jr.jr_code, "the server inside gave no "
			    "answer spaced takes");
			return;
		}
		memset(&cz, 0, sizeof(cz));
		cz.cz_status = jr.jr_status;
		cz.cz_bodylen = jr.jr_bodylen;
		request_data(r, &cz, sizeof(cz));
		succeed(r);
		return;
	}
	/* Readiness. */
	if (jr.jr_verdict == SERVER_ANSWER && jr.jr_ready) {
		log_debug("request %u: space %s ready after %d attempts, "
		    "%.1f s", r->r_id, sv->id, sv->attempts,
		    waited(r));
		succeed(r);
		return;
	}
	if (exec_failed(r) || jr.jr_verdict == SERVER_EXEC_FAILED) {
		snprintf(msg, sizeof(msg), "the space stopped answering while "
		    "its server started (%s)", exec_failed(r) ?
		    sv->exec_code : "exec failed");
		sv_fail(r, exec_failed(r) ? sv->exec_code :
		    ERR_SPACE_NOT_RUNNING, msg);
		return;
	}
	if (sv_deaths(r, msg, sizeof(msg))) {
		sv_fail(r, ERR_SERVER_FAILED, msg);
		return;
	}
	took = (long)(since(&sv->ask_start) * 1000);
	server_attempt_next(&sv->ask_ms, took);
	pause = server_attempt_pause(took);
	/* No attempt begins later than the wait's bound. */
	if (waited(r) + pause / 1000.0 > agent_profile()->ag_ready_wait) {
		snprintf(msg, sizeof(msg), "the server inside was not ready "
		    "after %.0f s (%d attempts; last: %s)", waited(r),
		    sv->attempts, jr.jr_verdict == SERVER_ANSWER ?
		    "answered, not ready" : jr.jr_code);
		sv_fail(r, ERR_SERVER_NOT_READY, msg);
		return;
	}
	sv->step = SV_PAUSE;
	request_pause(r, (int)pause, pause_over);
}

void
sv_body(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	static struct journal_server_body	 jb;
	static struct ctl_server_chunk		 ck;

	if (imsg_get_data(imsg, &jb, sizeof(jb)) == -1 ||
	    sv->op != SV_OP_SERVER || sv->step != SV_ASK ||
	    jb.jb_len == 0 || jb.jb_len > sizeof(jb.jb_data))
		fatalx("%s: bad body from %s", __func__, proc_title(from));
	memset(&ck, 0, sizeof(ck));
	ck.ck_len = jb.jb_len;
	memcpy(ck.ck_data, jb.jb_data, jb.jb_len);
	request_data(r, &ck, sizeof(ck));
}

/* The place's records: the space's info waits for the readiness. */
void
sv_info(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);
	struct space_info	 si;

	if (sv->op == SV_OP_PROBE && sv->step == SV_PLACE) {
		space_info_take(from, imsg, &si, r->r_uid);
		collect_follow(r->r_uid, si.si_id);
		request_data(r, &si, sizeof(si));
		if (!sv->none && strcmp(si.si_state, "running") == 0)
			probe_add(r, si.si_id);
		return;
	}
	if (sv->step != SV_PLACE)
		fatalx("%s: info from %s out of turn", __func__,
		    proc_title(from));
	space_info_take(from, imsg, &sv->info, r->r_uid);
	sv->have_info = 1;
	collect_follow(r->r_uid, sv->info.si_id);
}

void
sv_record(struct request *r, enum procid from, struct imsg *imsg)
{
	struct sv_state		*sv = SV(r);

	/* The rollback's list of what it removed is not create's answer. */
	if (sv->step == SV_ROLLBACK)
		return;
	if (imsg_get_type(imsg) == IMSG_SPACE_VIOLATION)
		space_violation(r, from, imsg);
	else
		space_resource(r, from, imsg);
}

/* The created space's id comes with its info; the chain needs it. */
static int
agent_space_id(struct request *r)
{
	struct sv_state		*sv = SV(r);

	if (sv->id[0] != '\0')
		return 0;
	if (!sv->have_info)
		return -1;
	strlcpy(sv->id, sv->info.si_id, sizeof(sv->id));
	return 0;
}

void
sv_begin(struct request *r, const char *id, int op)
{
	struct sv_state		*sv = SV(r);

	memset(sv, 0, sizeof(*sv));
	sv->op = op;
	sv->step = SV_PLACE;
	sv->none = agent_none();
	strlcpy(sv->id, id, sizeof(sv->id));
}
