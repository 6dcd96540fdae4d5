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
 * The server inside a space (spec "The server inside a space", "Token",
 * "The exec channel"), from spaced's side.  Everything here is a chain
 * of place requests: spaced-docker runs a fixed command inside the
 * space, its output goes to spaced-journal, which alone reads it and
 * says what it was.  spaced holds the token only while it needs it and
 * never writes it anywhere but to the exec's stdin.
 *
 *   create  the place creates and starts; the token goes in through a
 *           temporary name; the server must then answer ready within
 *           the spec's bounds, or everything the create made goes.
 *   start   the place starts; the token is read back; ready again.
 *           When the place moved the space to the current tools (a
 *           new container, the old one aside), the move ends once the
 *           server is ready (MOVE_DONE) and is undone on any failure
 *           (MOVE_UNDO: the new container by its id, the old one back
 *           under its name).  Calls of start for one space share one
 *           run; stop waits for it.
 *   server  the token is read back; one request through curl.
 *   token   the token is read back, for its owner.
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
#include "tools_key.h"

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

#define SHARE_POLL_MS		100	/* a shared start looks at its run */

/*
 * One start of one space under way, and its answer for the calls that
 * share it.  Kept until the last of them has read the answer.
 */
struct start_run {
	TAILQ_ENTRY(start_run)	 sr_entry;
	char			 sr_owner[SPACE_OWNER_SIZE];
	char			 sr_id[SPACE_ID_SIZE];
	uint32_t		 sr_leader;	/* request id; 0 once over */
	int			 sr_over;	/* answered: below */
	int			 sr_refs;	/* calls still to answer */
	struct space_done	 sr_done;	/* sd_code "" when it worked */
	struct space_info	 sr_info;
	int			 sr_have_info;
};
static TAILQ_HEAD(, start_run) start_runs =
    TAILQ_HEAD_INITIALIZER(start_runs);

static void	ask(struct request *);
static void	sv_tools(struct request *, enum procid, struct imsg *);
static int	agent_space_id(struct request *);
static void	token_read(struct request *);
static void	fail(struct request *, const char *, const char *);
static void	run_close(struct request *, const char *, const char *);
static int	move_send(struct request *, uint32_t);

static const struct agent_profile *
profile(void)
{
	const struct spaced_conf *conf = spaced_config();

	if (strcmp(conf->sc_agent, AGENT_NONE) == 0)
		return NULL;
	return config_agent(conf, conf->sc_agent);
}

int
agent_fill(uid_t uid, struct space_agent *sa)
{
	static struct ctl_tools_info	 ti;
	const struct agent_profile	*ag;

	memset(sa, 0, sizeof(*sa));
	if ((ag = profile()) == NULL)
		return 0;
	if (tools_current("", uid, &ti) == -1 ||
	    strlcpy(sa->sa_tools, ti.ti_volume, sizeof(sa->sa_tools)) >=
	    sizeof(sa->sa_tools) || space_agent_build(ag, sa) == -1) {
		memset(sa, 0, sizeof(*sa));
		return -1;
	}
	return 0;
}

int
agent_none(void)
{
	return profile() == NULL;
}

/*
 * One exec in the space; with kind, its output goes to spaced-journal,
 * which is told first, so that it knows the stream before data comes.
 */
static int
run(struct request *r, const char *const *argv, const void *in, size_t inlen,
    uint32_t timeout_ms, uint64_t output_max, uint32_t kind)
{
	static struct space_exec_req	 se;
	struct journal_server_req	 js;
	const struct agent_profile	*ag = profile();
	struct stream_route		*s = NULL;
	int				 fd, rv;

	memset(&se, 0, sizeof(se));
	space_req_fill(r, &se.se_space, r->r_u.srv.id);
	se.se_target = EXEC_TARGET_SPACE;
	se.se_timeout_ms = timeout_ms;
	se.se_output_max = output_max;
	if (space_exec_argv(&se, argv) == -1)
		fatalx("%s: argv", __func__);
	if (inlen > sizeof(se.se_stdin))
		fatalx("%s: stdin", __func__);
	memcpy(se.se_stdin, in, inlen);
	se.se_stdin_len = inlen;
	r->r_u.srv.exec_code[0] = '\0';
	r->r_u.srv.exec_exit = -1;
	/* The cap on engine connections is per place request: a new one. */
	r->r_conns = 0;

	if (kind != 0) {
		if ((s = stream_open(r, EP_WORKER(PROC_DOCKER),
		    EP_WORKER(PROC_JOURNAL))) == NULL) {
			explicit_bzero(&se, sizeof(se));
			fail(r, ERR_BUSY, "no stream for the server's answer");
			return -1;
		}
		se.se_out_stream = s->s_id;
		r->r_u.srv.stream = s;
		memset(&js, 0, sizeof(js));
		js.js_stream = s->s_id;
		js.js_kind = kind;
		js.js_body = r->r_u.srv.op == SV_OP_SERVER &&
		    kind == JOURNAL_SERVER_ANSWER;
		if (r->r_u.srv.op != SV_OP_SERVER && ag != NULL &&
		    kind == JOURNAL_SERVER_ANSWER) {
			js.js_ready_status = ag->ag_ready_status;
			strlcpy(js.js_ready_field, ag->ag_ready_field,
			    sizeof(js.js_ready_field));
		}
		if (request_send(r, PROC_JOURNAL, IMSG_JOURNAL_SERVER_REQ, -1,
		    &js, sizeof(js)) == -1) {
			explicit_bzero(&se, sizeof(se));
			fail(r, ERR_WORKER_UNAVAILABLE, "spaced-journal is not "
			    "there");
			return -1;
		}
	}
	if ((fd = docker_connect()) == -1) {
		explicit_bzero(&se, sizeof(se));
		fail(r, ERR_DOCKER_UNREACHABLE, "spaced cannot connect to the "
		    "Docker socket");
		return -1;
	}
	rv = request_send(r, PROC_DOCKER, IMSG_SPACE_EXEC_REQ, fd, &se,
	    sizeof(se));
	explicit_bzero(&se, sizeof(se));
	if (rv == -1) {
		fail(r, ERR_WORKER_UNAVAILABLE, "spaced-docker is not there");
		return -1;
	}
	return 0;
}

static void
forget_token(struct request *r)
{
	explicit_bzero(r->r_u.srv.token, sizeof(r->r_u.srv.token));
}

/*
 * The answer, once.  A create that made a space removes it first and
 * answers when the place is done (rollback_done).
 */
static void
fail(struct request *r, const char *code, const char *message)
{
	struct space_req	 sq;
	int			 fd;

	forget_token(r);
	evtimer_del(&r->r_pause);
	if (r->r_u.srv.op == SV_OP_START && r->r_u.srv.moving &&
	    r->r_u.srv.step != SV_MOVE_UNDO && r->r_u.srv.step !=
	    SV_MOVE_DONE) {
		/* The new container goes, by its id; the old comes back. */
		strlcpy(r->r_u.srv.code, code, sizeof(r->r_u.srv.code));
		strlcpy(r->r_u.srv.message, message != NULL ? message : code,
		    sizeof(r->r_u.srv.message));
		log_warnx("request %u: space %s: %s (%s): undoing its move",
		    r->r_id, r->r_u.srv.id, code, r->r_u.srv.message);
		if (move_send(r, IMSG_SPACE_MOVE_UNDO_REQ) == 0)
			return;
		snprintf(r->r_u.srv.message, sizeof(r->r_u.srv.message),
		    "%.150s; and its move could not be undone", message !=
		    NULL ? message : code);
		run_close(r, code, r->r_u.srv.message);
		space_fail(r, code, r->r_u.srv.message);
		return;
	}
	if (r->r_u.srv.op != SV_OP_CREATE || !r->r_u.srv.made ||
	    r->r_u.srv.step == SV_ROLLBACK) {
		run_close(r, code, message != NULL ? message : "");
		space_fail(r, code, message != NULL ? message : "");
		return;
	}
	strlcpy(r->r_u.srv.code, code, sizeof(r->r_u.srv.code));
	strlcpy(r->r_u.srv.message, message != NULL ? message : "",
	    sizeof(r->r_u.srv.message));
	log_warnx("request %u: space %s: %s (%s): removing it", r->r_id,
	    r->r_u.srv.id, code, r->r_u.srv.message);
	r->r_u.srv.step = SV_ROLLBACK;
	space_req_fill(r, &sq, r->r_u.srv.id);
	if ((fd = docker_connect()) == -1 || request_send(r, PROC_DOCKER,
	    IMSG_SPACE_REMOVE_REQ, fd, &sq, sizeof(sq)) == -1) {
		snprintf(r->r_u.srv.message, sizeof(r->r_u.srv.message),
		    "%s; and the space could not be removed", message != NULL ?
		    message : code);
		space_fail(r, code, r->r_u.srv.message);
	}
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
	return since(&r->r_u.srv.wait_start);
}

/* The end of a move: MOVE_DONE or MOVE_UNDO with the two ids. */
static int
move_send(struct request *r, uint32_t type)
{
	struct space_move_req	 mq;
	int			 fd;

	memset(&mq, 0, sizeof(mq));
	space_req_fill(r, &mq.mq_space, r->r_u.srv.id);
	mq.mq_move = r->r_u.srv.move;
	/* The current tools volume: a prune after the move keeps it. */
	mq.mq_space.sq_agent = r->r_u.srv.sq.sq_agent;
	r->r_u.srv.step = type == IMSG_SPACE_MOVE_DONE_REQ ? SV_MOVE_DONE :
	    SV_MOVE_UNDO;
	if ((fd = docker_connect()) == -1 || request_send(r, PROC_DOCKER,
	    type, fd, &mq, sizeof(mq)) == -1)
		return -1;
	return 0;
}

/* The space is up and its server answers: the record, then END. */
static void
succeed(struct request *r)
{
	forget_token(r);
	if (r->r_u.srv.op == SV_OP_START && r->r_u.srv.moving &&
	    r->r_u.srv.step != SV_MOVE_DONE) {
		/* Ready on the new tools: the old container goes. */
		if (move_send(r, IMSG_SPACE_MOVE_DONE_REQ) == 0)
			return;
		log_warnx("request %u: space %s: the old container of its "
		    "move could not be removed now; the next start will",
		    r->r_id, r->r_u.srv.id);
	}
	run_close(r, "", NULL);
	if (r->r_u.srv.have_info)
		request_data(r, &r->r_u.srv.info, sizeof(r->r_u.srv.info));
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
	static char			 config[SPACE_EXEC_STDIN_MAX];
	const struct agent_profile	*ag = profile();
	struct server_request		 sr;
	struct ctl_server		*cv = &r->r_u.srv.req;
	char				 ctype[160];
	int				 n;

	if (ag == NULL) {
		fail(r, ERR_INTERNAL, "no agent profile");
		return;
	}
	memset(&sr, 0, sizeof(sr));
	sr.sr_port = ag->ag_port;
	sr.sr_auth_user = ag->ag_auth_user[0] != '\0' ? ag->ag_auth_user :
	    NULL;
	sr.sr_token = r->r_u.srv.token;
	if (r->r_u.srv.op == SV_OP_SERVER) {
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
		if (r->r_u.srv.ask_ms <= 0)
			r->r_u.srv.ask_ms = SERVER_ATTEMPT_MS;
		sr.sr_max_ms = r->r_u.srv.ask_ms;
		r->r_u.srv.attempts++;
		clock_gettime(CLOCK_MONOTONIC, &r->r_u.srv.ask_start);
	}
	n = server_curl_config(&sr, config, sizeof(config));
	if (n < 0) {
		explicit_bzero(config, sizeof(config));
		fail(r, r->r_u.srv.op == SV_OP_SERVER ? ERR_REQUEST_TOO_LARGE :
		    ERR_INTERNAL, "the request does not fit one exec's stdin");
		return;
	}
	r->r_u.srv.step = SV_ASK;
	(void)run(r, curl_argv, config, (size_t)n, r->r_u.srv.op ==
	    SV_OP_SERVER ? REQUEST_EXEC_MS : ATTEMPT_EXEC_MS(sr.sr_max_ms),
	    ANSWER_OUTPUT_MAX, JOURNAL_SERVER_ANSWER);
	explicit_bzero(config, sizeof(config));
}

static void
token_read(struct request *r)
{
	r->r_u.srv.step = SV_TOKEN_READ;
	(void)run(r, token_read_argv, NULL, 0, TOKEN_READ_MS, TOKEN_OUTPUT_MAX,
	    JOURNAL_SERVER_TOKEN);
}

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

/*
 * The wait (spec: 3 s an attempt, 0.5 s apart, none begun after 120 s),
 * tightened within those bounds.  OpenCode accepts connections a
 * second or so before it answers, and a request that comes in that
 * window is never answered (measured: 12 s and more), so an attempt
 * that lands there is lost whole.  The first attempt's limit is 0.5 s,
 * a second more after each attempt that used up its limit, up to the
 * spec's 3 s: a server that answers slowly is still seen.  Attempts
 * begin 0.5 s apart, start to start, and never before the last one
 * ended, so the one lost in the window costs its limit and no pause.
 */
static void
wait_ready(struct request *r)
{
	clock_gettime(CLOCK_MONOTONIC, &r->r_u.srv.wait_start);
	r->r_u.srv.attempts = 0;
	r->r_u.srv.ask_ms = SERVER_ATTEMPT_FIRST_MS;
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
	struct probe_list	*pl = r->r_heap;

	if (pl == NULL || pl->next == pl->n) {
		request_end(r);
		return;
	}
	strlcpy(r->r_u.srv.id, pl->ids[pl->next++], sizeof(r->r_u.srv.id));
	token_read(r);
}

/* One space's readiness for list and show; never a failure of theirs. */
static void
probe_report(struct request *r, int ready, const char *code)
{
	struct ctl_ready	 cy;

	forget_token(r);
	memset(&cy, 0, sizeof(cy));
	strlcpy(cy.cy_id, r->r_u.srv.id, sizeof(cy.cy_id));
	cy.cy_ready = ready ? CTL_READY_YES : CTL_READY_NO;
	if (!ready)
		strlcpy(cy.cy_code, code, sizeof(cy.cy_code));
	request_data(r, &cy, sizeof(cy));
	probe_next(r);
}

/*
 * The client of a create left.  Until the place answered, cancelling
 * is the undo (the place rolls back); after, the space stands and only
 * this chain knows it is unfinished: it goes on alone and removes it.
 */
int
agent_abandon(struct request *r)
{
	if (r->r_u.srv.op != SV_OP_CREATE || !r->r_u.srv.made)
		return 0;
	if (r->r_u.srv.step == SV_ROLLBACK)
		return 1;
	r->r_u.srv.abandoned = 1;
	if (r->r_u.srv.step == SV_PAUSE)
		fail(r, ERR_CANCELLED, "the client left");
	return 1;
}

/* --- the answers ------------------------------------------------------- */

static void
sv_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_done	 sd;
	char			 msg[SPACE_DONE_MESSAGE_MAX];

	(void)imsg_get_data(imsg, &sd, sizeof(sd));
	if (memchr(sd.sd_code, '\0', sizeof(sd.sd_code)) == NULL ||
	    memchr(sd.sd_message, '\0', sizeof(sd.sd_message)) == NULL ||
	    (sd.sd_code[0] != '\0' &&
	    !space_code_valid(sd.sd_code, sizeof(sd.sd_code))) ||
	    (sd.sd_code[0] == '\0' && (sd.sd_exit < -1 || sd.sd_exit > 255)))
		fatalx("%s: bad done from %s", __func__, proc_title(from));

	switch (r->r_u.srv.step) {
	case SV_PLACE:
		if (sd.sd_code[0] != '\0') {
			run_close(r, sd.sd_code, sd.sd_message);
			request_data(r, &sd, sizeof(sd));
			request_fail(r, sd.sd_code);
			return;
		}
		if (r->r_u.srv.none) {
			succeed(r);
			return;
		}
		if (r->r_u.srv.op == SV_OP_PROBE) {
			probe_next(r);
			return;
		}
		if (agent_space_id(r) == -1) {
			fail(r, ERR_INTERNAL, "the place named no space");
			return;
		}
		r->r_u.srv.made = r->r_u.srv.op == SV_OP_CREATE;
		if (r->r_u.srv.op != SV_OP_CREATE) {
			token_read(r);
			return;
		}
		/* The place wrote the token as the space started. */
		wait_ready(r);
		return;
	case SV_TOKEN_READ:
	case SV_ASK: {
		struct journal_server_exit	 jx;

		/* How it ended, for spaced-journal's verdict. */
		strlcpy(r->r_u.srv.exec_code, sd.sd_code,
		    sizeof(r->r_u.srv.exec_code));
		memset(&jx, 0, sizeof(jx));
		jx.jx_timedout = strcmp(sd.sd_code, ERR_TIMEOUT) == 0;
		jx.jx_exit = sd.sd_code[0] == '\0' ? sd.sd_exit : -1;
		if (strcmp(sd.sd_code, ERR_OUTPUT_TOO_LARGE) == 0 ||
		    jx.jx_timedout)
			jx.jx_exit = 0;	/* it ran: its output is the verdict */
		if (request_send(r, PROC_JOURNAL, IMSG_JOURNAL_SERVER_EXIT, -1,
		    &jx, sizeof(jx)) == -1)
			fail(r, ERR_WORKER_UNAVAILABLE, "spaced-journal is not "
			    "there");
		return;
	}
	case SV_MOVE_DONE:
		if (sd.sd_code[0] != '\0')
			log_warnx("request %u: space %s runs on its new tools; "
			    "its old container stays (%s: %s)", r->r_id,
			    r->r_u.srv.id, sd.sd_code, sd.sd_message);
		succeed(r);
		return;
	case SV_MOVE_UNDO:
		/* The failure's code; the place says what is back. */
		snprintf(msg, sizeof(msg), "%.120s; %.128s",
		    r->r_u.srv.message, sd.sd_code[0] == '\0' ? "the space "
		    "keeps its old container" : sd.sd_message);
		run_close(r, r->r_u.srv.code, msg);
		space_fail(r, r->r_u.srv.code, msg);
		return;
	case SV_ROLLBACK:
		if (sd.sd_code[0] != '\0')
			snprintf(msg, sizeof(msg), "%.150s; removing the space "
			    "failed too (%.40s)", r->r_u.srv.message,
			    sd.sd_code);
		else
			strlcpy(msg, r->r_u.srv.message, sizeof(msg));
		space_fail(r, r->r_u.srv.code, msg);
		return;
	default:
		fatalx("%s: step %d", __func__, r->r_u.srv.step);
	}
}

/* The place failed the exec: the container is gone or stopped. */
static int
exec_failed(struct request *r)
{
	const char	*c = r->r_u.srv.exec_code;

	return c[0] != '\0' && strcmp(c, ERR_TIMEOUT) != 0 &&
	    strcmp(c, ERR_OUTPUT_TOO_LARGE) != 0;
}

static void
sv_rep(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_server_rep	 jr;
	struct ctl_server_result	 cz;
	struct ctl_token		 ct;
	char				 msg[SPACE_DONE_MESSAGE_MAX];
	long				 took, pause;

	(void)imsg_get_data(imsg, &jr, sizeof(jr));
	/*
	 * Both ends are done with the output: its END went before the
	 * place's DONE, the journal's credit before this answer.  A wait
	 * of many attempts must not hold a stream for each.
	 */
	if (r->r_u.srv.stream != NULL) {
		stream_close(r->r_u.srv.stream);
		r->r_u.srv.stream = NULL;
	}
	if (memchr(jr.jr_code, '\0', sizeof(jr.jr_code)) == NULL ||
	    memchr(jr.jr_token, '\0', sizeof(jr.jr_token)) == NULL ||
	    jr.jr_verdict < SERVER_ANSWER || jr.jr_verdict > SERVER_UNREADABLE ||
	    (jr.jr_verdict != SERVER_ANSWER && (jr.jr_code[0] == '\0' ||
	    !space_code_valid(jr.jr_code, sizeof(jr.jr_code)))) ||
	    jr.jr_ready > 1 || jr.jr_status > 999)
		fatalx("%s: bad answer from %s", __func__, proc_title(from));

	if (r->r_u.srv.abandoned) {
		explicit_bzero(&jr, sizeof(jr));
		fail(r, ERR_CANCELLED, "the client left");
		return;
	}
	if (r->r_u.srv.op == SV_OP_PROBE) {
		if (r->r_u.srv.step == SV_TOKEN_READ &&
		    jr.jr_verdict == SERVER_ANSWER && !exec_failed(r)) {
			strlcpy(r->r_u.srv.token, jr.jr_token,
			    sizeof(r->r_u.srv.token));
			explicit_bzero(&jr, sizeof(jr));
			ask(r);
			return;
		}
		explicit_bzero(jr.jr_token, sizeof(jr.jr_token));
		if (exec_failed(r))
			probe_report(r, 0, r->r_u.srv.exec_code);
		else if (jr.jr_verdict != SERVER_ANSWER)
			probe_report(r, 0, r->r_u.srv.step == SV_TOKEN_READ ?
			    ERR_TOKEN_UNREADABLE : jr.jr_code);
		else
			probe_report(r, jr.jr_ready, ERR_SERVER_NOT_READY);
		return;
	}
	if (r->r_u.srv.step == SV_TOKEN_READ) {
		if (exec_failed(r)) {
			fail(r, r->r_u.srv.exec_code, "the token cannot be "
			    "read: the space does not run");
			explicit_bzero(&jr, sizeof(jr));
			return;
		}
		if (jr.jr_verdict != SERVER_ANSWER) {
			fail(r, ERR_TOKEN_UNREADABLE, "the space's token file "
			    "is not 32 to 128 characters of base64url");
			explicit_bzero(&jr, sizeof(jr));
			return;
		}
		strlcpy(r->r_u.srv.token, jr.jr_token,
		    sizeof(r->r_u.srv.token));
		explicit_bzero(&jr, sizeof(jr));
		switch (r->r_u.srv.op) {
		case SV_OP_TOKEN:
			memset(&ct, 0, sizeof(ct));
			strlcpy(ct.ct_token, r->r_u.srv.token,
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
	if (r->r_u.srv.step != SV_ASK)
		fatalx("%s: step %d", __func__, r->r_u.srv.step);

	if (r->r_u.srv.op == SV_OP_SERVER) {
		if (exec_failed(r)) {
			fail(r, r->r_u.srv.exec_code, NULL);
			return;
		}
		if (jr.jr_verdict != SERVER_ANSWER) {
			fail(r, jr.jr_code, "the server inside gave no answer "
			    "spaced takes");
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
		    "%.1f s", r->r_id, r->r_u.srv.id, r->r_u.srv.attempts,
		    waited(r));
		succeed(r);
		return;
	}
	if (exec_failed(r) || jr.jr_verdict == SERVER_EXEC_FAILED) {
		snprintf(msg, sizeof(msg), "the space stopped answering while "
		    "its server started (%s)", exec_failed(r) ?
		    r->r_u.srv.exec_code : "exec failed");
		fail(r, exec_failed(r) ? r->r_u.srv.exec_code :
		    ERR_SPACE_NOT_RUNNING, msg);
		return;
	}
	took = (long)(since(&r->r_u.srv.ask_start) * 1000);
	server_attempt_next(&r->r_u.srv.ask_ms, took);
	pause = server_attempt_pause(took);
	/* No attempt begins later than the wait's bound. */
	if (waited(r) + pause / 1000.0 > profile()->ag_ready_wait) {
		snprintf(msg, sizeof(msg), "the server inside was not ready "
		    "after %.0f s (%d attempts; last: %s)", waited(r),
		    r->r_u.srv.attempts, jr.jr_verdict == SERVER_ANSWER ?
		    "answered, not ready" : jr.jr_code);
		fail(r, ERR_SERVER_NOT_READY, msg);
		return;
	}
	r->r_u.srv.step = SV_PAUSE;
	request_pause(r, (int)pause, pause_over);
}

static void
sv_body(struct request *r, enum procid from, struct imsg *imsg)
{
	static struct journal_server_body	 jb;
	static struct ctl_server_chunk		 ck;

	(void)imsg_get_data(imsg, &jb, sizeof(jb));
	if (r->r_u.srv.op != SV_OP_SERVER || r->r_u.srv.step != SV_ASK ||
	    jb.jb_len == 0 || jb.jb_len > sizeof(jb.jb_data))
		fatalx("%s: bad body from %s", __func__, proc_title(from));
	memset(&ck, 0, sizeof(ck));
	ck.ck_len = jb.jb_len;
	memcpy(ck.ck_data, jb.jb_data, jb.jb_len);
	request_data(r, &ck, sizeof(ck));
}

/* The place's records: the space's info waits for the readiness. */
static void
sv_info(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_info	 si;

	if (r->r_u.srv.op == SV_OP_PROBE && r->r_u.srv.step == SV_PLACE) {
		if (space_info_take(r, from, imsg, &si) == -1)
			return;
		request_data(r, &si, sizeof(si));
		if (!r->r_u.srv.none && strcmp(si.si_state, "running") == 0)
			probe_add(r, si.si_id);
		return;
	}
	if (r->r_u.srv.step != SV_PLACE)
		fatalx("%s: info from %s out of turn", __func__,
		    proc_title(from));
	if (space_info_take(r, from, imsg, &r->r_u.srv.info) == 0)
		r->r_u.srv.have_info = 1;
}

/* The place moved the space: the two containers, for the end. */
static void
sv_moved(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_move	 mv;

	(void)imsg_get_data(imsg, &mv, sizeof(mv));
	if (r->r_u.srv.op != SV_OP_START || r->r_u.srv.step != SV_PLACE ||
	    r->r_u.srv.moving ||
	    memchr(mv.mv_old, '\0', sizeof(mv.mv_old)) == NULL ||
	    memchr(mv.mv_new, '\0', sizeof(mv.mv_new)) == NULL ||
	    mv.mv_old[0] == '\0' || mv.mv_new[0] == '\0' ||
	    strspn(mv.mv_old, "0123456789abcdef") != strlen(mv.mv_old) ||
	    strspn(mv.mv_new, "0123456789abcdef") != strlen(mv.mv_new))
		fatalx("%s: bad move from %s", __func__, proc_title(from));
	r->r_u.srv.moving = 1;
	r->r_u.srv.move = mv;
}

static void
sv_record(struct request *r, enum procid from, struct imsg *imsg)
{
	/* The rollback's list of what it removed is not create's answer. */
	if (r->r_u.srv.step == SV_ROLLBACK)
		return;
	if (imsg_get_type(imsg) == IMSG_SPACE_VIOLATION)
		space_violation(r, from, imsg);
	else
		space_resource(r, from, imsg);
}

const struct answer_row agent_space_answers[] = {
	{ IMSG_SPACE_INFO, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_info), 0, sv_info },
	{ IMSG_SPACE_VIOLATION, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_violation), 0, sv_record },
	{ IMSG_SPACE_RESOURCE, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_resource), 0, sv_record },
	{ IMSG_SPACE_MOVED, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_move), 0, sv_moved },
	{ IMSG_SPACE_DONE, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_done), AR_FINAL, sv_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ IMSG_TOOLS_DONE, PROC_BIT(PROC_DOCKER), sizeof(struct tools_done),
	    AR_FINAL, sv_tools },
	{ IMSG_JOURNAL_SERVER_BODY, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_server_body), 0, sv_body },
	{ IMSG_JOURNAL_SERVER_REP, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_server_rep), AR_FINAL, sv_rep },
	{ 0 }
};

/* --- create and start: the place first --------------------------------- */

void
agent_space_begin(struct request *r, const char *id, int op)
{
	memset(&r->r_u.srv, 0, sizeof(r->r_u.srv));
	r->r_u.srv.op = op;
	r->r_u.srv.step = SV_PLACE;
	r->r_u.srv.none = agent_none();
	strlcpy(r->r_u.srv.id, id, sizeof(r->r_u.srv.id));
}

/* --- start: one run per space ----------------------------------------- */

static void
owner_of(struct request *r, char *buf, size_t len)
{
	if (space_owner_fmt(buf, len, spaced_config()->sc_install_id,
	    r->r_uid) == -1)
		fatalx("%s: install id", __func__);
}

/* The run under way for (owner, id), or NULL. */
static struct start_run *
run_find(const char *owner, const char *id)
{
	struct start_run	*sr;

	TAILQ_FOREACH(sr, &start_runs, sr_entry)
		if (!sr->sr_over && strcmp(sr->sr_owner, owner) == 0 &&
		    strcmp(sr->sr_id, id) == 0)
			return sr;
	return NULL;
}

/* Its leader still runs it (a leader that left gave no answer). */
static int
run_led(const struct start_run *sr)
{
	struct request	*l;

	return sr->sr_leader != 0 && (l = request_find(sr->sr_leader)) !=
	    NULL && !l->r_answered && l->r_u.srv.run == sr;
}

static void
run_unref(struct start_run *sr)
{
	if (--sr->sr_refs > 0)
		return;
	TAILQ_REMOVE(&start_runs, sr, sr_entry);
	free(sr);
}

/* The leader's answer, for the calls that share its run. */
static void
run_close(struct request *r, const char *code, const char *message)
{
	struct start_run	*sr = r->r_u.srv.run;

	if (r->r_u.srv.op != SV_OP_START || sr == NULL ||
	    sr->sr_leader != r->r_id)
		return;
	sr->sr_over = 1;
	sr->sr_leader = 0;
	strlcpy(sr->sr_done.sd_code, code, sizeof(sr->sr_done.sd_code));
	strlcpy(sr->sr_done.sd_message, message != NULL ? message : "",
	    sizeof(sr->sr_done.sd_message));
	sr->sr_done.sd_exit = -1;
	sr->sr_info = r->r_u.srv.info;
	sr->sr_have_info = r->r_u.srv.have_info;
	r->r_u.srv.run = NULL;
	run_unref(sr);
}

static void
share_poll(struct request *r)
{
	struct start_run	*sr = r->r_u.srv.run;
	struct space_done	 sd;
	int			 s;

	if (r->r_answered)
		return;
	if (sr->sr_over) {
		r->r_u.srv.run = NULL;
		sd = sr->sr_done;
		if (sd.sd_code[0] == '\0') {
			if (sr->sr_have_info)
				request_data(r, &sr->sr_info,
				    sizeof(sr->sr_info));
			run_unref(sr);
			request_end(r);
			return;
		}
		run_unref(sr);
		space_fail(r, sd.sd_code, sd.sd_message);
		return;
	}
	if (run_led(sr)) {
		request_pause(r, SHARE_POLL_MS, share_poll);
		return;
	}
	/* Its leader left without an answer: this call runs it now. */
	log_debug("request %u: leads the start of %s now", r->r_id, sr->sr_id);
	sr->sr_leader = r->r_id;
	sr->sr_refs--;		/* the one of the leader that left */
	r->r_u.srv.step = SV_PLACE;
	{
		struct space_req	 sq;
		const char		*code;

		space_req_fill(r, &sq, r->r_u.srv.id);
		if (agent_fill(r->r_uid, &sq.sq_agent) == -1) {
			fail(r, ERR_TOOLS_FILL_FAILED, "the agent's tools "
			    "cannot be described");
			return;
		}
		/* as ops.c's start: the current tools first */
		if (!agent_none()) {
			if ((code = agent_tools_first(r, &sq,
			    IMSG_SPACE_START_REQ)) != NULL)
				fail(r, code, "the tools could not be asked "
				    "for");
			return;
		}
		if ((s = docker_connect()) == -1) {
			fail(r, ERR_DOCKER_UNREACHABLE, "spaced cannot "
			    "connect to the Docker socket");
			return;
		}
		if (request_send(r, PROC_DOCKER, IMSG_SPACE_START_REQ, s, &sq,
		    sizeof(sq)) == -1)
			fail(r, ERR_WORKER_UNAVAILABLE, "spaced-docker is not "
			    "there");
	}
}

int
agent_space_join(struct request *r)
{
	char			 owner[SPACE_OWNER_SIZE];
	struct start_run	*sr;

	if (r->r_u.srv.op != SV_OP_START)
		return 0;
	owner_of(r, owner, sizeof(owner));
	if ((sr = run_find(owner, r->r_u.srv.id)) != NULL) {
		sr->sr_refs++;
		r->r_u.srv.run = sr;
		r->r_u.srv.step = SV_SHARE;
		log_debug("request %u: shares the start of %s", r->r_id,
		    sr->sr_id);
		share_poll(r);
		return 1;
	}
	if ((sr = calloc(1, sizeof(*sr))) == NULL)
		fatal("%s", __func__);
	strlcpy(sr->sr_owner, owner, sizeof(sr->sr_owner));
	strlcpy(sr->sr_id, r->r_u.srv.id, sizeof(sr->sr_id));
	sr->sr_leader = r->r_id;
	sr->sr_refs = 1;
	TAILQ_INSERT_TAIL(&start_runs, sr, sr_entry);
	r->r_u.srv.run = sr;
	return 0;
}

int
agent_start_busy(const char *owner, const char *id)
{
	struct start_run	*sr;

	return (sr = run_find(owner, id)) != NULL && run_led(sr);
}

/* The created space's id comes with its info; the chain needs it. */
static int
agent_space_id(struct request *r)
{
	if (r->r_u.srv.id[0] != '\0')
		return 0;
	if (!r->r_u.srv.have_info)
		return -1;
	strlcpy(r->r_u.srv.id, r->r_u.srv.info.si_id, sizeof(r->r_u.srv.id));
	return 0;
}

const char *
agent_tools_first(struct request *r, const struct space_req *sq,
    uint32_t place_type)
{
	r->r_u.srv.sq = *sq;
	r->r_u.srv.place = place_type;
	r->r_u.srv.step = SV_TOOLS;
	return tools_ensure(r, "");
}

/* The tools are there and ours: now the place, on that volume. */
static void
sv_tools(struct request *r, enum procid from, struct imsg *imsg)
{
	struct tools_done	 td;
	struct space_create_req	 cq;
	int			 fd;

	if (r->r_u.srv.step != SV_TOOLS ||
	    tools_done_read(r, from, imsg, &td) == -1)
		fatalx("%s: bad tools answer from %s", __func__,
		    proc_title(from));
	if (td.td_done.sd_code[0] != '\0') {
		run_close(r, td.td_done.sd_code, td.td_done.sd_message);
		request_data(r, &td.td_done, sizeof(td.td_done));
		request_fail(r, td.td_done.sd_code);
		return;
	}
	strlcpy(r->r_u.srv.sq.sq_agent.sa_tools, td.td_volume,
	    sizeof(r->r_u.srv.sq.sq_agent.sa_tools));
	r->r_u.srv.step = SV_PLACE;
	if ((fd = docker_connect()) == -1) {
		fail(r, ERR_DOCKER_UNREACHABLE, "spaced cannot connect "
		    "to the Docker socket");
		return;
	}
	/*
	 * A create's token goes with it, as payload: the place writes it
	 * over an exec's stdin as soon as the space runs, so the server
	 * starts while the gatekeeper does.
	 */
	memset(&cq, 0, sizeof(cq));
	cq.cq_space = r->r_u.srv.sq;
	if (r->r_u.srv.place == IMSG_SPACE_CREATE_REQ) {
		token_new(r->r_u.srv.token, sizeof(r->r_u.srv.token));
		strlcpy(cq.cq_token, r->r_u.srv.token, sizeof(cq.cq_token));
	}
	if (request_send(r, PROC_DOCKER, r->r_u.srv.place, fd, &cq,
	    r->r_u.srv.place == IMSG_SPACE_CREATE_REQ ? sizeof(cq) :
	    sizeof(cq.cq_space)) == -1)
		space_fail(r, ERR_WORKER_UNAVAILABLE, "spaced-docker is not "
		    "there");
	explicit_bzero(&cq, sizeof(cq));
}

/* --- server and token -------------------------------------------------- */

static int
method_ok(const char *m)
{
	size_t	 i;

	for (i = 0; m[i] != '\0'; i++)
		if (m[i] < 'A' || m[i] > 'Z')
			return 0;
	return i > 0;
}

const char *
server_start(struct request *r, struct imsg *imsg)
{
	struct ctl_server	*cv;

	memset(&r->r_u.srv, 0, sizeof(r->r_u.srv));
	cv = &r->r_u.srv.req;
	(void)imsg_get_data(imsg, cv, sizeof(*cv));
	if (memchr(cv->cv_id, '\0', sizeof(cv->cv_id)) == NULL ||
	    !space_id_valid(cv->cv_id) || cv->cv_pad[0] || cv->cv_pad[1] ||
	    cv->cv_pad[2] ||
	    memchr(cv->cv_method, '\0', sizeof(cv->cv_method)) == NULL ||
	    !method_ok(cv->cv_method) ||
	    memchr(cv->cv_path, '\0', sizeof(cv->cv_path)) == NULL ||
	    cv->cv_path[0] != '/' ||
	    memchr(cv->cv_content_type, '\0', sizeof(cv->cv_content_type)) ==
	    NULL || cv->cv_bodylen > sizeof(cv->cv_body))
		return ERR_BAD_REQUEST;
	if (agent_none()) {
		space_fail(r, ERR_BAD_REQUEST, "spaces here run no agent "
		    "(default agent none)");
		return NULL;
	}
	r->r_u.srv.op = SV_OP_SERVER;
	strlcpy(r->r_u.srv.id, cv->cv_id, sizeof(r->r_u.srv.id));
	token_read(r);
	return NULL;
}

const char *
token_start(struct request *r, struct imsg *imsg)
{
	struct ctl_space	 cs;

	(void)imsg_get_data(imsg, &cs, sizeof(cs));
	if (memchr(cs.cs_id, '\0', sizeof(cs.cs_id)) == NULL ||
	    !space_id_valid(cs.cs_id))
		return ERR_BAD_REQUEST;
	memset(&r->r_u.srv, 0, sizeof(r->r_u.srv));
	if (agent_none()) {
		space_fail(r, ERR_BAD_REQUEST, "spaces here run no agent "
		    "(default agent none)");
		return NULL;
	}
	r->r_u.srv.op = SV_OP_TOKEN;
	strlcpy(r->r_u.srv.id, cs.cs_id, sizeof(r->r_u.srv.id));
	token_read(r);
	return NULL;
}
