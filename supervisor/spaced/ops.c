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
 * The operations of the control socket, one row each: the request type,
 * its payload length, whether it needs an admin, its deadline, how it
 * starts, and the worker answers it takes.  A new operation is a start
 * function, its answer handlers and one row; control.c and request.c
 * check everything a row says before any of it runs.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space_parse.h"
#include "spaced.h"

#define STREAM_TEST_MAX		(64ULL << 30)	/* 64 GiB */

static int
valid_string(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

static int
is_worker(uint32_t id)
{
	return id == PROC_DOCKER || id == PROC_GIT || id == PROC_JOURNAL;
}

/* Whether the answer being handled is the last one due. */
static int
last_answer(struct request *r, enum procid from)
{
	return (r->r_waiting & ~PROC_BIT(from)) == 0;
}

/* --- status ----------------------------------------------------------- */

static void
status_answer(struct request *r)
{
	struct ctl_proc	 cp;
	struct ctl_conn	*cc = r->r_cc;
	enum procid	 id;
	int		 admin = cc != NULL && CTL_ADMIN(cc);

	for (id = 0; id < PROC_MAX; id++) {
		if (id == PROC_GATEKEEPER)
			continue;	/* runs in containers, not here */
		memset(&cp, 0, sizeof(cp));
		cp.cp_clients = cp.cp_requests = cp.cp_streams = -1;
		strlcpy(cp.cp_name, procs[id].p_binary, sizeof(cp.cp_name));
		if (id == PROC_PARENT) {
			strlcpy(cp.cp_state, "running", sizeof(cp.cp_state));
			cp.cp_pid = getpid();
			if (admin) {
				cp.cp_clients = control_clients();
				cp.cp_requests = request_count();
				cp.cp_streams = stream_count();
			}
		} else {
			strlcpy(cp.cp_state, children[id].c_ready ? "running" :
			    "starting", sizeof(cp.cp_state));
			cp.cp_pid = children[id].c_pid;
		}
		if (id == PROC_GIT)
			strlcpy(cp.cp_detail, r->r_u.status.git,
			    sizeof(cp.cp_detail));
		if (id == PROC_JOURNAL)
			strlcpy(cp.cp_detail, r->r_u.status.journal,
			    sizeof(cp.cp_detail));
		/* Which pid is which is the operator's business. */
		if (!admin)
			cp.cp_pid = 0;
		request_data(r, &cp, sizeof(cp));
	}
	request_end(r);
}

static const char *
status_start(struct request *r, struct imsg *imsg)
{
	/* A worker that cannot be asked shows no detail. */
	(void)request_send(r, PROC_GIT, IMSG_GIT_VERSION_REQ, -1, NULL, 0);
	if (CTL_ADMIN(r->r_cc))
		(void)request_send(r, PROC_JOURNAL, IMSG_JOURNAL_STAT_REQ, -1,
		    NULL, 0);
	if (r->r_waiting == 0)
		status_answer(r);
	return NULL;
}

static void
status_git(struct request *r, enum procid from, struct imsg *imsg)
{
	struct git_version_msg	 gv;

	(void)imsg_get_data(imsg, &gv, sizeof(gv));
	if (!valid_string(gv.gv_libgit2, sizeof(gv.gv_libgit2)))
		fatalx("%s: bad version answer from git", __func__);
	snprintf(r->r_u.status.git, sizeof(r->r_u.status.git), "libgit2 %s",
	    gv.gv_libgit2);
	if (last_answer(r, from))
		status_answer(r);
}

static void
status_journal(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_stat_msg	 js;

	(void)imsg_get_data(imsg, &js, sizeof(js));
	snprintf(r->r_u.status.journal, sizeof(r->r_u.status.journal),
	    "%llu records, %llu bytes", (unsigned long long)js.js_records,
	    (unsigned long long)js.js_bytes);
	if (last_answer(r, from))
		status_answer(r);
}

static const struct answer_row status_answers[] = {
	{ IMSG_GIT_VERSION_REP, PROC_BIT(PROC_GIT),
	    sizeof(struct git_version_msg), 1, status_git },
	{ IMSG_JOURNAL_STAT_REP, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_stat_msg), 1, status_journal },
	{ 0 }
};

/* --- privileges ------------------------------------------------------- */

static const char *
privileges_start(struct request *r, struct imsg *imsg)
{
	struct ctl_privileges	 cv;
	enum procid		 id;

	for (id = 0; id < PROC_MAX; id++) {
		if (id == PROC_GATEKEEPER)
			continue;
		if (id == PROC_PARENT) {
			if (audit_process(procs[id].p_binary, getpid(),
			    spaced_landlock(), &cv) == -1)
				continue;
		} else if (children[id].c_pid == 0 ||
		    audit_process(procs[id].p_binary, children[id].c_pid,
		    children[id].c_landlock, &cv) == -1)
			continue;
		request_data(r, &cv, sizeof(cv));
	}
	request_end(r);
	return NULL;
}

/* --- check ------------------------------------------------------------ */

static const char *
check_start(struct request *r, struct imsg *imsg)
{
	struct docker_check_msg	 dc;
	int			 s;

	if ((s = docker_connect()) == -1) {
		memset(&dc, 0, sizeof(dc));
		strlcpy(dc.dc_code, ERR_DOCKER_UNREACHABLE, sizeof(dc.dc_code));
		request_data(r, &dc, sizeof(dc));
		request_end(r);
		return NULL;
	}
	if (request_send(r, PROC_DOCKER, IMSG_DOCKER_CHECK_REQ, s, NULL, 0)
	    == -1)
		return ERR_WORKER_UNAVAILABLE;
	return NULL;
}

static void
check_answer(struct request *r, enum procid from, struct imsg *imsg)
{
	struct docker_check_msg	 dc;

	(void)imsg_get_data(imsg, &dc, sizeof(dc));
	if (!valid_string(dc.dc_code, sizeof(dc.dc_code)) ||
	    !valid_string(dc.dc_version, sizeof(dc.dc_version)) ||
	    !valid_string(dc.dc_api_version, sizeof(dc.dc_api_version)) ||
	    !valid_string(dc.dc_min_api_version,
	    sizeof(dc.dc_min_api_version)) ||
	    !valid_string(dc.dc_os, sizeof(dc.dc_os)) ||
	    !valid_string(dc.dc_arch, sizeof(dc.dc_arch)))
		fatalx("bad check answer from docker");
	request_data(r, &dc, sizeof(dc));
	request_end(r);
}

static const struct answer_row check_answers[] = {
	{ IMSG_DOCKER_CHECK_REP, PROC_BIT(PROC_DOCKER),
	    sizeof(struct docker_check_msg), 1, check_answer },
	{ 0 }
};

/* --- verbose ---------------------------------------------------------- */

static const char *
verbose_start(struct request *r, struct imsg *imsg)
{
	struct ctl_verbose	 cv;

	(void)imsg_get_data(imsg, &cv, sizeof(cv));
	log_setverbose(cv.cv_level);
	request_end(r);
	return NULL;
}

/* --- probe and ping: one worker, one answer --------------------------- */

static const char *
probe_start(struct request *r, struct imsg *imsg)
{
	struct probe_msg	 pm;

	(void)imsg_get_data(imsg, &pm, sizeof(pm));
	if (!is_worker(pm.pr_proc) || pm.pr_call < PROBE_EXECVE ||
	    pm.pr_call > PROBE_FORK)
		return ERR_BAD_REQUEST;
	log_warnx("control: uid %u probes %s with call %u",
	    (unsigned)r->r_uid, proc_title(pm.pr_proc), pm.pr_call);
	if (request_send(r, pm.pr_proc, IMSG_WORKER_PROBE, -1, &pm,
	    sizeof(pm)) == -1)
		return ERR_WORKER_UNAVAILABLE;
	return NULL;
}

static void
probe_answer(struct request *r, enum procid from, struct imsg *imsg)
{
	struct probe_msg	 pm;

	(void)imsg_get_data(imsg, &pm, sizeof(pm));
	pm.pr_proc = from;
	request_data(r, &pm, sizeof(pm));
	request_end(r);
}

static const struct answer_row probe_answers[] = {
	{ IMSG_WORKER_PROBE, PROC_BIT(PROC_DOCKER) | PROC_BIT(PROC_GIT) |
	    PROC_BIT(PROC_JOURNAL), sizeof(struct probe_msg), 1,
	    probe_answer },
	{ 0 }
};

static const char *
ping_start(struct request *r, struct imsg *imsg)
{
	struct ping_msg	 pg;

	(void)imsg_get_data(imsg, &pg, sizeof(pg));
	if (!is_worker(pg.pg_proc))
		return ERR_BAD_REQUEST;
	if (request_send(r, pg.pg_proc, IMSG_WORKER_PING, -1, NULL, 0) == -1)
		return ERR_WORKER_UNAVAILABLE;
	return NULL;
}

static void
ping_answer(struct request *r, enum procid from, struct imsg *imsg)
{
	request_end(r);
}

static const struct answer_row ping_answers[] = {
	{ IMSG_WORKER_PING, PROC_BIT(PROC_DOCKER) | PROC_BIT(PROC_GIT) |
	    PROC_BIT(PROC_JOURNAL), 0, 1, ping_answer },
	{ 0 }
};

/* --- stream-test: spaced-git -> spaced -> spaced-journal or the client - */

static void
stream_test_result(struct request *r, uint64_t bytes, uint64_t bad)
{
	struct ctl_stream_test	*ct = &r->r_u.stream_test;
	struct timespec		 now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ct->ct_bytes = bytes;
	ct->ct_bad = bad;
	ct->ct_usec = (now.tv_sec - r->r_start.tv_sec) * 1000000ULL +
	    (now.tv_nsec - r->r_start.tv_nsec) / 1000;
	ct->ct_peak_rss = peak_rss();
	request_data(r, ct, sizeof(*ct));
	request_end(r);
}

static const char *
stream_test_start(struct request *r, struct imsg *imsg)
{
	struct ctl_stream_test	*ct = &r->r_u.stream_test;
	struct stream_end_point	 src = EP_WORKER(PROC_GIT), dst;
	struct stream_test_msg	 tm;
	struct stream_route	*s;

	(void)imsg_get_data(imsg, ct, sizeof(*ct));
	if (ct->ct_bytes > STREAM_TEST_MAX || ct->ct_reserved != 0 ||
	    (ct->ct_sink != CTL_SINK_JOURNAL && ct->ct_sink != CTL_SINK_CLIENT))
		return ERR_BAD_REQUEST;
	if (ct->ct_sink == CTL_SINK_JOURNAL)
		dst = EP_WORKER(PROC_JOURNAL);
	else
		dst = EP_CLIENT(r->r_cc);
	if ((s = stream_open(r, src, dst)) == NULL)
		return ERR_BUSY;
	memset(&tm, 0, sizeof(tm));
	tm.tm_stream = s->s_id;
	tm.tm_bytes = ct->ct_bytes;
	/* The sink first: it must know the stream before data comes. */
	if (ct->ct_sink == CTL_SINK_JOURNAL &&
	    request_send(r, PROC_JOURNAL, IMSG_STREAM_TEST_RECV, -1, &tm,
	    sizeof(tm)) == -1)
		return ERR_WORKER_UNAVAILABLE;
	if (request_send(r, PROC_GIT, IMSG_STREAM_TEST_SEND, -1, &tm,
	    sizeof(tm)) == -1)
		return ERR_WORKER_UNAVAILABLE;
	return NULL;
}

/* The source's END went through (or was dropped after a cancel). */
static void
stream_test_ended(struct request *r)
{
	struct stream_route	*s = r->r_streams[0];

	if (!r->r_answered && !s->s_aborted &&
	    r->r_u.stream_test.ct_sink == CTL_SINK_CLIENT)
		stream_test_result(r, s->s_gauge.sg_forwarded, 0);
	request_worker_done(r, PROC_GIT);
}

static void
stream_test_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct stream_test_msg	 tm;

	(void)imsg_get_data(imsg, &tm, sizeof(tm));
	if (tm.tm_stream != r->r_streams[0]->s_id)
		fatalx("%s: journal answered for stream %u, not %u", __func__,
		    tm.tm_stream, r->r_streams[0]->s_id);
	stream_test_result(r, tm.tm_bytes, tm.tm_bad);
}

static const struct answer_row stream_test_answers[] = {
	{ IMSG_STREAM_TEST_DONE, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct stream_test_msg), 1, stream_test_done },
	{ 0 }
};

/* --- the space operations: create, list, show, verify, stop, start, remove */

/*
 * Engine connections spaced hands one request beyond the first: enough
 * for a second call in flight and a cleanup; a place that wants more
 * gets IMSG_SPACE_CONN without one.
 */
#define SPACE_CONNS_MAX		8

static const struct {
	uint32_t	 sp_ctl;
	uint32_t	 sp_place;
	int		 sp_id;		/* takes a space id */
} space_types[] = {
	{ IMSG_CTL_CREATE,	IMSG_SPACE_CREATE_REQ,	0 },
	{ IMSG_CTL_LIST,	IMSG_SPACE_LIST_REQ,	0 },
	{ IMSG_CTL_SHOW,	IMSG_SPACE_SHOW_REQ,	1 },
	{ IMSG_CTL_VERIFY,	IMSG_SPACE_VERIFY_REQ,	1 },
	{ IMSG_CTL_STOP,	IMSG_SPACE_STOP_REQ,	1 },
	{ IMSG_CTL_START,	IMSG_SPACE_START_REQ,	1 },
	{ IMSG_CTL_REMOVE,	IMSG_SPACE_REMOVE_REQ,	1 },
};

/*
 * What every space request says besides its own fields: the caller's
 * own spaces (the uid is the kernel's, not theirs), the installation's
 * runtime, the images of the config.
 */
void
space_req_fill(struct request *r, struct space_req *sq, const char *id)
{
	const struct spaced_conf *conf = spaced_config();

	memset(sq, 0, sizeof(*sq));
	if (space_owner_fmt(sq->sq_owner, sizeof(sq->sq_owner),
	    conf->sc_install_id, r->r_uid) == -1 ||
	    space_owner_fmt(sq->sq_runtime_owner, sizeof(sq->sq_runtime_owner),
	    conf->sc_install_id, geteuid()) == -1)
		fatalx("%s: install id \"%s\"", __func__, conf->sc_install_id);
	strlcpy(sq->sq_id, id, sizeof(sq->sq_id));
	strlcpy(sq->sq_space_image, conf->sc_space_image,
	    sizeof(sq->sq_space_image));
	strlcpy(sq->sq_gk_image, conf->sc_gk_image, sizeof(sq->sq_gk_image));
	strlcpy(sq->sq_runtime_key, runtime_key(), sizeof(sq->sq_runtime_key));
	strlcpy(sq->sq_hosts, runtime_hosts(), sizeof(sq->sq_hosts));
}

/* A failure spaced itself answers, the way a place's DONE would be. */
void
space_fail(struct request *r, const char *code, const char *message)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	strlcpy(sd.sd_message, message, sizeof(sd.sd_message));
	request_data(r, &sd, sizeof(sd));
	request_fail(r, code);
}

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
	struct space_req	 sq;
	int			 s;

	if (r->r_answered)
		return;
	space_req_fill(r, &sq, r->r_u.srv.id);
	if (agent_start_busy(sq.sq_owner, r->r_u.srv.id)) {
		request_pause(r, STOP_POLL_MS, stop_resume);
		return;
	}
	if (agent_fill(r->r_uid, &sq.sq_agent) == -1) {
		space_fail(r, ERR_TOOLS_FILL_FAILED, "the agent's tools cannot "
		    "be described");
		return;
	}
	if ((s = docker_connect()) == -1) {
		space_fail(r, ERR_DOCKER_UNREACHABLE, "spaced cannot connect "
		    "to the Docker socket");
		return;
	}
	if (request_send(r, PROC_DOCKER, IMSG_SPACE_STOP_REQ, s, &sq,
	    sizeof(sq)) == -1)
		space_fail(r, ERR_WORKER_UNAVAILABLE, "spaced-docker is not "
		    "there");
}

static const char *
space_start(struct request *r, struct imsg *imsg)
{
	struct ctl_space	 cs;
	struct space_create_req	 cq;
	struct space_req	*sq = &cq.cq_space;
	const char		*errstr;
	size_t			 i;
	int			 s;

	for (i = 0; i < sizeof(space_types) / sizeof(space_types[0]); i++)
		if (space_types[i].sp_ctl == r->r_op->op_type)
			break;
	if (i == sizeof(space_types) / sizeof(space_types[0]))
		fatalx("%s: %s is no space operation", __func__,
		    r->r_op->op_name);
	(void)imsg_get_data(imsg, &cs, sizeof(cs));
	if (ctl_space_check(&cs, space_types[i].sp_id, &errstr) == -1) {
		log_debug("control: uid %u: %s: %s", (unsigned)r->r_uid,
		    r->r_op->op_name, errstr);
		return ERR_BAD_REQUEST;
	}

	memset(&cq, 0, sizeof(cq));
	space_req_fill(r, sq, cs.cs_id);
	/* A remove cleans up after code in once the place is done. */
	if (r->r_op->op_type == IMSG_CTL_REMOVE)
		strlcpy(r->r_u.git.req.gq_space, cs.cs_id,
		    sizeof(r->r_u.git.req.gq_space));
	strlcpy(sq->sq_name, cs.cs_name, sizeof(sq->sq_name));
	strlcpy(sq->sq_project, cs.cs_project, sizeof(sq->sq_project));
	sq->sq_memory = cs.cs_memory;
	if (r->r_op->op_type == IMSG_CTL_CREATE && (sq->sq_runtime_key[0] ==
	    '\0' || sq->sq_hosts[0] == '\0')) {
		space_fail(r, ERR_RUNTIME_MISSING, "spaced could not read "
		    SPACED_RELAY_BINARY ", " SPACED_HOSTS_FILE " or the space "
		    "ca bundle at start: see its log");
		return NULL;
	}
	/* What runs in it: the checkers of verify and start want it too. */
	if (agent_fill(r->r_uid, &sq->sq_agent) == -1) {
		space_fail(r, ERR_TOOLS_FILL_FAILED, "the agent's tools cannot "
		    "be described: see spaced's log for what it could not "
		    "read at start");
		return NULL;
	}
	switch (r->r_op->op_type) {
	case IMSG_CTL_CREATE:
		agent_space_begin(r, cs.cs_id, SV_OP_CREATE);
		break;
	case IMSG_CTL_START:
		agent_space_begin(r, cs.cs_id, SV_OP_START);
		break;
	case IMSG_CTL_LIST:
	case IMSG_CTL_SHOW:
		agent_space_begin(r, cs.cs_id, SV_OP_PROBE);
		break;
	}
	/* One run of start per space; a stop waits for it (server.c). */
	if (r->r_op->op_type == IMSG_CTL_START && agent_space_join(r))
		return NULL;
	if (r->r_op->op_type == IMSG_CTL_STOP &&
	    agent_start_busy(sq->sq_owner, cs.cs_id)) {
		strlcpy(r->r_u.srv.id, cs.cs_id, sizeof(r->r_u.srv.id));
		request_pause(r, STOP_POLL_MS, stop_resume);
		return NULL;
	}
	/* create and start first make sure of the current tools. */
	if ((r->r_op->op_type == IMSG_CTL_CREATE ||
	    r->r_op->op_type == IMSG_CTL_START) && !agent_none())
		return agent_tools_first(r, sq, space_types[i].sp_place);

	if ((s = docker_connect()) == -1) {
		space_fail(r, ERR_DOCKER_UNREACHABLE, "spaced cannot connect "
		    "to the Docker socket");
		return NULL;
	}
	/* A create without an agent: no token ("") in its request. */
	if (request_send(r, PROC_DOCKER, space_types[i].sp_place, s, &cq,
	    r->r_op->op_type == IMSG_CTL_CREATE ? sizeof(cq) : sizeof(*sq)) ==
	    -1)
		return ERR_WORKER_UNAVAILABLE;
	return NULL;
}

/*
 * The records: every string terminated and the kind the type says, or
 * the place lies and spaced stops (STYLE.md 7).  Forwarded unchanged.
 */
int
space_info_take(struct request *r, enum procid from, struct imsg *imsg,
    struct space_info *out)
{
	struct space_info	 si;
	size_t			 i;

	(void)imsg_get_data(imsg, &si, sizeof(si));
	if (si.si_kind != SPACE_REC_INFO ||
	    !valid_string(si.si_id, sizeof(si.si_id)) ||
	    !valid_string(si.si_name, sizeof(si.si_name)) ||
	    !valid_string(si.si_project, sizeof(si.si_project)) ||
	    !valid_string(si.si_created, sizeof(si.si_created)) ||
	    !valid_string(si.si_state, sizeof(si.si_state)) ||
	    !valid_string(si.si_gk_state, sizeof(si.si_gk_state)) ||
	    si.si_nmissing > SPACE_MISSING_MAX)
		fatalx("%s: bad space info from %s", __func__,
		    proc_title(from));
	for (i = 0; i < SPACE_MISSING_MAX; i++)
		if (!valid_string(si.si_missing[i], sizeof(si.si_missing[i])))
			fatalx("%s: bad space info from %s", __func__,
			    proc_title(from));
	*out = si;
	return 0;
}

void
space_info(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_info	 si;

	if (space_info_take(r, from, imsg, &si) == 0)
		request_data(r, &si, sizeof(si));
}

void
space_violation(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_violation	 sv;

	(void)imsg_get_data(imsg, &sv, sizeof(sv));
	if (sv.sv_kind != SPACE_REC_VIOLATION ||
	    !valid_string(sv.sv_check, sizeof(sv.sv_check)) ||
	    !valid_string(sv.sv_message, sizeof(sv.sv_message)))
		fatalx("%s: bad violation from %s", __func__,
		    proc_title(from));
	request_data(r, &sv, sizeof(sv));
}

void
space_resource(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_resource	 sr;

	(void)imsg_get_data(imsg, &sr, sizeof(sr));
	if (sr.sr_kind != SPACE_REC_RESOURCE ||
	    sr.sr_state < SPACE_RES_REMOVED || sr.sr_state > SPACE_RES_ORPHAN ||
	    !valid_string(sr.sr_id, sizeof(sr.sr_id)) ||
	    !valid_string(sr.sr_type, sizeof(sr.sr_type)) ||
	    !valid_string(sr.sr_name, sizeof(sr.sr_name)))
		fatalx("%s: bad resource from %s", __func__, proc_title(from));
	request_data(r, &sr, sizeof(sr));
}

static void
space_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_done	 sd;
	char			 id[SPACE_ID_SIZE];

	(void)imsg_get_data(imsg, &sd, sizeof(sd));
	if (!valid_string(sd.sd_code, sizeof(sd.sd_code)) ||
	    !valid_string(sd.sd_message, sizeof(sd.sd_message)) ||
	    (sd.sd_code[0] != '\0' &&
	    !space_code_valid(sd.sd_code, sizeof(sd.sd_code))))
		fatalx("%s: bad done from %s", __func__, proc_title(from));
	if (sd.sd_code[0] == '\0' && r->r_op->op_type == IMSG_CTL_REMOVE) {
		strlcpy(id, r->r_u.git.req.gq_space, sizeof(id));
		remove_refs(r, id);
		return;
	}
	if (sd.sd_code[0] == '\0') {
		request_end(r);
		return;
	}
	request_data(r, &sd, sizeof(sd));
	request_fail(r, sd.sd_code);
}

/* Another engine connection for this request, or none past the cap. */
void
space_conn(struct request *r, enum procid from, struct imsg *imsg)
{
	int	 s = -1;

	if (r->r_conns < SPACE_CONNS_MAX) {
		if ((s = docker_connect()) != -1)
			r->r_conns++;
	} else if (r->r_conns++ == SPACE_CONNS_MAX)
		log_warnx("request %u (%s): %s asks for more than %d engine "
		    "connections: answered without", r->r_id, r->r_op->op_name,
		    proc_title(from), SPACE_CONNS_MAX);
	if (worker_compose(from, IMSG_SPACE_CONN, r->r_id, s, NULL, 0) == -1)
		log_warn("request %u: IMSG_SPACE_CONN", r->r_id);
}

static const struct answer_row space_answers[] = {
	{ IMSG_SPACE_INFO, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_info), 0, space_info },
	{ IMSG_SPACE_VIOLATION, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_violation), 0, space_violation },
	{ IMSG_SPACE_RESOURCE, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_resource), 0, space_resource },
	{ IMSG_SPACE_DONE, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_done), 1, space_done },
	/* a cancelled create rolls back, and needs its connections */
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ 0 }
};

/* remove: the place's answers, then the cleanup of code in's ref. */
static const struct answer_row remove_space_answers[] = {
	{ IMSG_SPACE_RESOURCE, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_resource), 0, space_resource },
	{ IMSG_SPACE_DONE, PROC_BIT(PROC_DOCKER),
	    sizeof(struct space_done), 1, space_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	/* then the ref code in left (codein.c) */
	{ IMSG_JOURNAL_ORIGIN, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_origin), AR_FINAL, remove_origin },
	{ IMSG_GIT_DONE, PROC_BIT(PROC_GIT), sizeof(struct space_done),
	    AR_FINAL, remove_git_done },
	{ 0 }
};

/* --- the table -------------------------------------------------------- */

#define SPACE_OP(type, name, deadline) \
	{ type, name, sizeof(struct ctl_space), WHO_DOCKER, deadline, \
	    space_start, space_answers, NULL, NULL }

static const struct ctl_op ops[] = {
	{ IMSG_CTL_STATUS, "status", 0, WHO_ANYONE, 10, status_start,
	    status_answers, NULL, NULL },
	{ IMSG_CTL_PRIVILEGES, "privileges", 0, WHO_ADMIN, 10,
	    privileges_start, NULL, NULL, NULL },
	{ IMSG_CTL_CHECK, "check", 0, WHO_ANYONE, 30, check_start,
	    check_answers, NULL, NULL },
	{ IMSG_CTL_VERBOSE, "verbose", sizeof(struct ctl_verbose), WHO_ADMIN,
	    10, verbose_start, NULL, NULL, NULL },
	{ IMSG_CTL_PROBE, "probe", sizeof(struct probe_msg), WHO_ADMIN, 10,
	    probe_start, probe_answers, NULL, NULL },
	{ IMSG_CTL_PING, "ping", sizeof(struct ping_msg), WHO_ADMIN, 10,
	    ping_start, ping_answers, NULL, NULL },
	/* No deadline: it runs as long as bytes flow; progress says so. */
	{ IMSG_CTL_STREAM_TEST, "stream-test", sizeof(struct ctl_stream_test),
	    WHO_ADMIN, 0, stream_test_start, stream_test_answers,
	    stream_test_ended, NULL },
	/*
	 * A create pulls nothing (images are local) but starts two
	 * containers and waits for both to be ready; a start waits again.
	 */
	/* Both wait for the server inside to be ready (server.c). */
	{ IMSG_CTL_CREATE, "create", sizeof(struct ctl_space), WHO_DOCKER,
	    300, space_start, agent_space_answers, NULL, agent_abandon },
	/* with the readiness of each running space's server */
	{ IMSG_CTL_LIST, "list", sizeof(struct ctl_space), WHO_DOCKER,
	    60, space_start, agent_space_answers, NULL, NULL },
	/* As long as the command runs: progress keeps the client waiting. */
	{ IMSG_CTL_EXEC, "exec", sizeof(struct ctl_exec), WHO_DOCKER, 0,
	    exec_start, exec_answers, NULL, NULL },
	{ IMSG_CTL_NETWORK, "network", sizeof(struct ctl_network), WHO_DOCKER,
	    60, network_start, gk_answers, NULL, NULL },
	{ IMSG_CTL_GRANT, "grant", sizeof(struct ctl_grant), WHO_DOCKER, 60,
	    grant_start, gk_answers, NULL, NULL },
	/* The log of a gatekeeper, at most SPACE_LOGS_MAX, through two. */
	{ IMSG_CTL_JOURNAL, "journal", sizeof(struct ctl_journal), WHO_DOCKER,
	    60, journal_start, journal_answers, NULL, NULL },
	/* Anyone, for a repository of their own (spaced-launch checks). */
	{ IMSG_CTL_FILES, "files", sizeof(struct ctl_git), WHO_ANYONE, 60,
	    git_files_start, git_answers, NULL, NULL },
	{ IMSG_CTL_LIMITS, "limits", sizeof(struct ctl_git), WHO_ANYONE, 60,
	    git_files_start, git_answers, NULL, NULL },
	/* As long as the transfer: progress keeps the client waiting. */
	{ IMSG_CTL_CODE_IN, "code-in", sizeof(struct ctl_codein), WHO_DOCKER,
	    0, codein_start, codein_answers, NULL, NULL },
	{ IMSG_CTL_HISTORY, "history", sizeof(struct ctl_codein), WHO_DOCKER,
	    0, codein_start, codein_answers, NULL, NULL },
	{ IMSG_CTL_SHOW, "show", sizeof(struct ctl_space), WHO_DOCKER,
	    60, space_start, agent_space_answers, NULL, NULL },
	SPACE_OP(IMSG_CTL_VERIFY, "verify", 60),
	SPACE_OP(IMSG_CTL_STOP, "stop", 60),
	{ IMSG_CTL_START, "start", sizeof(struct ctl_space), WHO_DOCKER,
	    180, space_start, agent_space_answers, NULL, NULL },
	/* One request to the server inside; the token, for its owner. */
	{ IMSG_CTL_SERVER, "server", sizeof(struct ctl_server), WHO_DOCKER,
	    60, server_start, agent_space_answers, NULL, NULL },
	{ IMSG_CTL_TOKEN, "token", sizeof(struct ctl_space), WHO_DOCKER, 30,
	    token_start, agent_space_answers, NULL, NULL },
	{ IMSG_CTL_REMOVE, "remove", sizeof(struct ctl_space), WHO_DOCKER,
	    120, space_start, remove_space_answers, NULL, NULL },
	/* Each volume's marker is read by a one-shot: a few seconds each. */
	{ IMSG_CTL_TOOLS, "tools", sizeof(struct ctl_tools), WHO_DOCKER, 300,
	    tools_start, tools_answers, NULL, NULL },
	/* A fill has 30 minutes of its own (spec "The filler"). */
	{ IMSG_CTL_TOOLS_FILL, "tools-fill", sizeof(struct ctl_tools),
	    WHO_DOCKER, 32 * 60, tools_start, tools_answers, NULL, NULL },
};

const struct ctl_op *
ops_find(uint32_t type)
{
	size_t	 i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].op_type == type)
			return &ops[i];
	return NULL;
}
