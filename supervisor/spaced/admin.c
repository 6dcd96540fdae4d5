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
 * The operations of an administrator and of anyone who asks after
 * spaced itself: status, privileges, check, verbose, probe, ping and
 * stream-test.  Each asks one worker at most, and answers once.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ctl_check.h"
#include "errors.h"
#include "log.h"
#include "spaced.h"


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

struct status_state {
	char	 git[CTL_DETAIL_MAX];
	char	 journal[CTL_DETAIL_MAX];
};
const size_t status_state_size = sizeof(struct status_state);

static void
status_answer(struct request *r)
{
	struct status_state	*st = r->r_state;
	struct ctl_proc	 cp;
	struct ctl_conn	*cc = r->r_cc;
	enum procid	 id;
	int		 admin = cc != NULL && CTL_ADMIN(cc);

	for (id = 0; id < PROC_MAX; id++) {
		/* In containers; one a review, started by spaced-launch. */
		if (id == PROC_GATEKEEPER || id == PROC_QUARANTINE)
			continue;
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
				strlcpy(cp.cp_detail, config_reload_state(),
				    sizeof(cp.cp_detail));
			}
		} else {
			strlcpy(cp.cp_state, children[id].c_ready ? "running" :
			    "starting", sizeof(cp.cp_state));
			cp.cp_pid = children[id].c_pid;
		}
		if (id == PROC_GIT)
			strlcpy(cp.cp_detail, st->git,
			    sizeof(cp.cp_detail));
		if (id == PROC_JOURNAL)
			strlcpy(cp.cp_detail, st->journal,
			    sizeof(cp.cp_detail));
		/* The spaced-git it started for callers, and those waiting. */
		if (id == PROC_LAUNCH && admin)
			gitinst_status(cp.cp_detail, sizeof(cp.cp_detail));
		/* Which pid is which is the operator's business. */
		if (!admin)
			cp.cp_pid = 0;
		request_data(r, &cp, sizeof(cp));
	}
	request_end(r);
}

const char *
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
	struct status_state	*st = r->r_state;
	struct git_version_msg	 gv;

	if (imsg_get_data(imsg, &gv, sizeof(gv)) == -1 ||
	    !valid_string(gv.gv_libgit2, sizeof(gv.gv_libgit2)))
		fatalx("%s: bad version answer from git", __func__);
	snprintf(st->git, sizeof(st->git), "libgit2 %s", gv.gv_libgit2);
	if (last_answer(r, from))
		status_answer(r);
}

static void
status_journal(struct request *r, enum procid from, struct imsg *imsg)
{
	struct status_state	*st = r->r_state;
	struct journal_stat_msg	 js;

	if (imsg_get_data(imsg, &js, sizeof(js)) == -1)
		fatalx("%s: bad stat answer from %s", __func__,
		    proc_title(from));
	snprintf(st->journal, sizeof(st->journal),
	    "%llu records, %llu bytes", (unsigned long long)js.js_records,
	    (unsigned long long)js.js_bytes);
	if (last_answer(r, from))
		status_answer(r);
}

const struct answer_row status_answers[] = {
	{ IMSG_GIT_VERSION_REP, PROC_BIT(PROC_GIT),
	    sizeof(struct git_version_msg), 1, status_git },
	{ IMSG_JOURNAL_STAT_REP, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_stat_msg), 1, status_journal },
	{ 0 }
};

/* --- privileges ------------------------------------------------------- */

const char *
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

/*
 * Callers outside the docker group (check is open to anyone) share one
 * engine check at a time and its answer for CHECK_CACHE_SECONDS; those
 * who ask meanwhile wait for it, so a flood costs the engine one call.
 * Room for every request the control socket may hold (128 x 16).
 * The native place's record is asked of spaced-ns every time (no engine
 * behind it); r_list_pending counts the records a check still waits for.
 */
#define CHECK_CACHE_SECONDS	5
#define CHECK_WAITERS_MAX	2048
static struct {
	struct docker_check_msg	 answer;
	struct timespec		 at;
	int			 valid;
	uint32_t		 fetcher;	/* its check in flight, or 0 */
	uint32_t		 waiters[CHECK_WAITERS_MAX];
	size_t			 nwaiters;
} check_cache;

/* One place's record; the answer ends with the last one awaited. */
static void
check_reply(struct request *r, const struct docker_check_msg *dc)
{
	request_data(r, dc, sizeof(*dc));
	if (--r->r_list_pending <= 0)
		request_end(r);
}

/* An engine answer: kept, and given to everyone who waits for one. */
static void
check_serve(const struct docker_check_msg *dc)
{
	struct request	*w;
	size_t		 i;

	check_cache.answer = *dc;
	clock_gettime(CLOCK_MONOTONIC, &check_cache.at);
	check_cache.valid = 1;
	check_cache.fetcher = 0;
	for (i = 0; i < check_cache.nwaiters; i++)
		if ((w = request_find(check_cache.waiters[i])) != NULL)
			check_reply(w, dc);
	check_cache.nwaiters = 0;
}

/* 1: answered from the cache or waiting for it; 0: r asks the engine. */
static int
check_from_cache(struct request *r, const char **code)
{
	struct request	*f;
	struct timespec	 now;

	*code = NULL;
	if (CTL_ADMIN(r->r_cc) || r->r_cc->cc_docker)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (check_cache.valid &&
	    now.tv_sec - check_cache.at.tv_sec < CHECK_CACHE_SECONDS) {
		check_reply(r, &check_cache.answer);
		return 1;
	}
	/* A fetcher whose client left is answered by no one: replace it. */
	if (check_cache.fetcher == 0 ||
	    (f = request_find(check_cache.fetcher)) == NULL || f->r_answered) {
		check_cache.fetcher = r->r_id;
		return 0;
	}
	if (check_cache.nwaiters == CHECK_WAITERS_MAX)
		*code = ERR_BUSY;
	else
		check_cache.waiters[check_cache.nwaiters++] = r->r_id;
	return 1;
}

/* The native place of a plain user's spaced: absent, and why. */
static void
check_native_plain(struct request *r)
{
	struct docker_check_msg	 dc;

	memset(&dc, 0, sizeof(dc));
	strlcpy(dc.dc_code, ERR_SANDBOX_UNAVAILABLE, sizeof(dc.dc_code));
	strlcpy(dc.dc_version, "native", sizeof(dc.dc_version));
	place_native_plain(dc.dc_message, sizeof(dc.dc_message));
	check_reply(r, &dc);
}

const char *
check_start(struct request *r, struct imsg *imsg)
{
	struct docker_check_msg	 dc;
	const char		*code;

	/*
	 * Docker's record, and the native place's: spaced-ns's when it
	 * runs, spaced's own when a plain user's spaced has none.
	 */
	if (geteuid() != 0) {
		r->r_list_pending = 2;
		check_native_plain(r);
	} else
		r->r_list_pending = 1 + (request_send(r, PROC_NS,
		    IMSG_DOCKER_CHECK_REQ, -1, NULL, 0) == 0);
	if (check_from_cache(r, &code))
		return code;
	/* An engine that does not answer is check's answer, not a failure. */
	if ((code = place_send(r, IMSG_DOCKER_CHECK_REQ, NULL, 0)) != NULL &&
	    strcmp(code, ERR_DOCKER_UNREACHABLE) == 0) {
		memset(&dc, 0, sizeof(dc));
		strlcpy(dc.dc_code, code, sizeof(dc.dc_code));
		/* create's words: a socket's group the user lacks, say. */
		strlcpy(dc.dc_message, place_why(code),
		    sizeof(dc.dc_message));
		check_serve(&dc);
		check_reply(r, &dc);
		return NULL;
	}
	return code;
}

static void
check_answer(struct request *r, enum procid from, struct imsg *imsg)
{
	struct docker_check_msg	 dc;

	if (imsg_get_data(imsg, &dc, sizeof(dc)) == -1 ||
	    !valid_string(dc.dc_code, sizeof(dc.dc_code)) ||
	    !valid_string(dc.dc_version, sizeof(dc.dc_version)) ||
	    !valid_string(dc.dc_api_version, sizeof(dc.dc_api_version)) ||
	    !valid_string(dc.dc_min_api_version,
	    sizeof(dc.dc_min_api_version)) ||
	    !valid_string(dc.dc_os, sizeof(dc.dc_os)) ||
	    !valid_string(dc.dc_arch, sizeof(dc.dc_arch)) ||
	    !valid_string(dc.dc_message, sizeof(dc.dc_message)))
		fatalx("bad check answer from %s", proc_title(from));
	if (from == PROC_DOCKER)
		check_serve(&dc);
	check_reply(r, &dc);
}

const struct answer_row check_answers[] = {
	{ IMSG_DOCKER_CHECK_REP, PLACE_BITS,
	    sizeof(struct docker_check_msg), 1, check_answer },
	{ 0 }
};

/* --- verbose ---------------------------------------------------------- */

const char *
verbose_start(struct request *r, struct imsg *imsg)
{
	struct ctl_verbose	 cv;

	if (imsg_get_data(imsg, &cv, sizeof(cv)) == -1)
		return ERR_BAD_REQUEST;
	log_setverbose(cv.cv_level);
	request_end(r);
	return NULL;
}

/* --- probe and ping: one worker, one answer --------------------------- */

const char *
probe_start(struct request *r, struct imsg *imsg)
{
	struct probe_msg	 pm;

	if (imsg_get_data(imsg, &pm, sizeof(pm)) == -1)
		return ERR_BAD_REQUEST;
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

	if (imsg_get_data(imsg, &pm, sizeof(pm)) == -1)
		fatalx("%s: bad probe answer from %s", __func__,
		    proc_title(from));
	pm.pr_proc = from;
	request_data(r, &pm, sizeof(pm));
	request_end(r);
}

const struct answer_row probe_answers[] = {
	{ IMSG_WORKER_PROBE, PROC_BIT(PROC_DOCKER) | PROC_BIT(PROC_GIT) |
	    PROC_BIT(PROC_JOURNAL), sizeof(struct probe_msg), 1,
	    probe_answer },
	{ 0 }
};

const char *
ping_start(struct request *r, struct imsg *imsg)
{
	struct ping_msg	 pg;

	if (imsg_get_data(imsg, &pg, sizeof(pg)) == -1)
		return ERR_BAD_REQUEST;
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

const struct answer_row ping_answers[] = {
	{ IMSG_WORKER_PING, PROC_BIT(PROC_DOCKER) | PROC_BIT(PROC_GIT) |
	    PROC_BIT(PROC_JOURNAL), 0, 1, ping_answer },
	{ 0 }
};

/* --- stream-test: spaced-git -> spaced -> spaced-journal or the client - */

const size_t stream_test_state_size = sizeof(struct ctl_stream_test);

static void
stream_test_result(struct request *r, uint64_t bytes, uint64_t bad)
{
	struct ctl_stream_test	*ct = r->r_state;
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

const char *
stream_test_start(struct request *r, struct imsg *imsg)
{
	struct ctl_stream_test	*ct = r->r_state;
	struct stream_end_point	 src = EP_WORKER(PROC_GIT), dst;
	struct stream_test_msg	 tm;
	struct stream_route	*s;

	if (imsg_get_data(imsg, ct, sizeof(*ct)) == -1 ||
	    !ctl_stream_test_valid(ct))
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
void
stream_test_ended(struct request *r)
{
	struct stream_route	*s = r->r_streams[0];

	if (!r->r_answered && !s->s_aborted &&
	    ((struct ctl_stream_test *)r->r_state)->ct_sink == CTL_SINK_CLIENT)
		stream_test_result(r, s->s_gauge.sg_forwarded, 0);
	request_worker_done(r, PROC_GIT);
}

static void
stream_test_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct stream_test_msg	 tm;

	if (imsg_get_data(imsg, &tm, sizeof(tm)) == -1 ||
	    tm.tm_stream != r->r_streams[0]->s_id)
		fatalx("%s: journal answered for stream %u, not %u", __func__,
		    tm.tm_stream, r->r_streams[0]->s_id);
	stream_test_result(r, tm.tm_bytes, tm.tm_bad);
}

const struct answer_row stream_test_answers[] = {
	{ IMSG_STREAM_TEST_DONE, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct stream_test_msg), 1, stream_test_done },
	{ 0 }
};
