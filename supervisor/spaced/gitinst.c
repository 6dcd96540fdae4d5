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
 * The spaced-git of each repository a caller names, started by
 * spaced-launch as the repository's owner and ended when idle.  It may
 * read a hostile repository: a lie ends that instance and fails its
 * requests, never spaced (docs/notes/spaced-router.md).
 */

#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "git_proto.h"
#include "log.h"
#include "spaced.h"

/*
 * Live instances: 16 in all, 8 a caller, 12 for callers other than root
 * and spaced's own user (the rest is kept for them).  An ended one
 * counts until spaced-launch has reaped it: 24 in all, 12 a caller,
 * under spaced-launch's 32 (docs/privsep.md).
 */
#define GITINST_MAX		16
#define GITINST_PER_CALLER	8
#define GITINST_PLAIN_MAX	12
#define GITINST_SLOTS		24
#define GITINST_SLOTS_PER_CALLER 12
#define GITINST_IDLE_SECONDS	30
#define GITINST_SWEEP_SECONDS	5
#define GITINST_REQUESTS_MAX	256

enum gitinst_state {
	GI_LAUNCHING,	/* asked spaced-launch */
	GI_STARTING,	/* started, READY still due */
	GI_READY,
	GI_ENDING,	/* killed, spaced-launch's word of its reaping due */
};

struct git_inst {
	TAILQ_ENTRY(git_inst)	 gi_entry;
	uint32_t		 gi_id;
	uid_t			 gi_caller;
	char			 gi_dir[GIT_DIR_MAX];
	enum gitinst_state	 gi_state;
	pid_t			 gi_pid;
	uid_t			 gi_owner;
	int			 gi_reaped;	/* spaced-launch said it ended */
	int			 gi_unasked;	/* its channel ended first */
	int			 gi_distrusted;
	int			 gi_retired;	/* ends once it has no request */
	time_t			 gi_idle_since;	/* 0: in use */
	int			 gi_fd;		/* spaced's end */
	struct imsgev		 gi_iev;
	int			 gi_quarantine;	/* a space's (r_qgit) */
};

static struct {
	TAILQ_HEAD(, git_inst)	 insts;
	size_t			 ninsts;	/* every one, ending included */
	uint32_t		 next_id;
	struct event		 sweep_ev;
	struct event_base	*base;
	gitinst_event_sink	 event;
} gis = {
	.insts = TAILQ_HEAD_INITIALIZER(gis.insts),
	.next_id = 1,
};

static void	gitinst_dispatch(int, short, void *);
static void	gitinst_quarantine_ready(struct git_inst *);

static time_t
now_seconds(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static struct git_inst *
gitinst_by_id(uint32_t id)
{
	struct git_inst	*gi;

	TAILQ_FOREACH(gi, &gis.insts, gi_entry)
		if (gi->gi_id == id)
			return gi;
	return NULL;
}

/*
 * The next request that waits for the instance gets it, one at a time:
 * libgit2 works synchronously, and a pack that waits for credit must
 * hear only its own stream and its own cancel.
 */
static void
gitinst_flush(struct git_inst *gi)
{
	struct request	*r, *next = NULL;
	uint32_t	 ids[GITINST_REQUESTS_MAX];
	size_t		 i, n;

	if (gi->gi_state != GI_READY || gi->gi_distrusted || gi->gi_quarantine)
		return;
	n = request_ids_of_git(gi, ids, GITINST_REQUESTS_MAX);
	for (i = 0; i < n; i++) {
		if ((r = request_find(ids[i])) == NULL || r->r_git != gi)
			continue;
		if (r->r_waiting & PROC_BIT(PROC_GIT))
			return;		/* one in flight */
		if (!r->r_answered && !r->r_git_sent && next == NULL)
			next = r;
	}
	if (next == NULL)
		return;
	next->r_git_sent = 1;
	if (request_send(next, PROC_GIT, next->r_git_type, -1,
	    &next->r_git_req, sizeof(next->r_git_req)) == -1)
		request_refuse(next, ERR_GIT_WORKER_FAILED,
		    "spaced-git took no request");
}

static void
gitinst_remove(struct git_inst *gi)
{
	TAILQ_REMOVE(&gis.insts, gi, gi_entry);
	gis.ninsts--;
	free(gi);
}

static void
gitinst_kill(struct git_inst *gi)
{
	struct launch_exit	 le;

	memset(&le, 0, sizeof(le));
	le.le_pid = gi->gi_pid;
	(void)worker_compose(PROC_LAUNCH, IMSG_LAUNCH_KILL, gi->gi_id, -1,
	    &le, sizeof(le));
}

/*
 * Every request of the instance fails; none refers to it any more.
 * Its process is killed, and the instance stays (ending) until reaped.
 */
static void
gitinst_free(struct git_inst *gi, const char *code, const char *message)
{
	struct request	*r;
	uint32_t	 ids[GITINST_REQUESTS_MAX];
	size_t		 i, n;

	n = request_ids_of_git(gi, ids, GITINST_REQUESTS_MAX);
	for (i = 0; i < n; i++) {
		if ((r = request_find(ids[i])) == NULL)
			continue;
		if (r->r_qgit == gi) {
			r->r_qgit = NULL;
			r->r_waiting &= ~PROC_BIT(PROC_QUARANTINE);
			if (!r->r_answered)
				request_refuse(r, code, message);
			else
				request_worker_done(r, PROC_QUARANTINE);
			continue;
		}
		if (r->r_git != gi)
			continue;
		r->r_git = NULL;
		r->r_waiting &= ~PROC_BIT(PROC_GIT);
		if (!r->r_answered)
			request_refuse(r, code, message);
		else
			request_worker_done(r, PROC_GIT);
	}
	streams_git_gone(gi);
	if (gi->gi_state != GI_LAUNCHING)
		imsgev_clear(&gi->gi_iev);
	close(gi->gi_fd);
	gi->gi_fd = -1;
	if (gi->gi_state == GI_LAUNCHING || gi->gi_reaped) {
		gitinst_remove(gi);
		return;
	}
	/*
	 * A closed channel ends only a spaced-git that reads it: one its
	 * owner stopped would keep spaced-launch's slot for ever.  It
	 * counts until spaced-launch has reaped it.
	 */
	gitinst_kill(gi);
	gi->gi_state = GI_ENDING;
}

static int
gitinst_idle(struct git_inst *gi)
{
	uint32_t	 id;

	return gi->gi_state == GI_READY && request_ids_of_git(gi, &id, 1) == 0;
}

/*
 * Of no use to anyone: ready, and every request on it answered and
 * cancelled (one it never acknowledges, stopped, must not hold it).
 */
static int
gitinst_unused(struct git_inst *gi)
{
	struct request	*r;
	uint32_t	 ids[GITINST_REQUESTS_MAX];
	size_t		 i, n;

	if (gi->gi_state != GI_READY)
		return 0;
	n = request_ids_of_git(gi, ids, GITINST_REQUESTS_MAX);
	for (i = 0; i < n; i++)
		if ((r = request_find(ids[i])) != NULL &&
		    (r->r_git == gi || r->r_qgit == gi) &&
		    !(r->r_answered && r->r_cancelled))
			return 0;
	return 1;
}

/* Root and spaced's own user: the instances kept for them. */
static int
gitinst_privileged(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * End the oldest unused instance of this caller (caller_only), of plain
 * callers (plain_only) or of anyone: 1 if one.
 */
static int
gitinst_evict(uid_t caller, int caller_only, int plain_only)
{
	struct git_inst	*gi;

	/* The list is in the order they were made: the oldest first. */
	TAILQ_FOREACH(gi, &gis.insts, gi_entry)
		if ((!caller_only || gi->gi_caller == caller) &&
		    (!plain_only || !gitinst_privileged(gi->gi_caller)) &&
		    gitinst_unused(gi)) {
			gitinst_free(gi, ERR_GIT_WORKER_FAILED, "");
			return 1;
		}
	return 0;
}

/* The instances counted against a new one of this caller. */
struct gitinst_counts {
	size_t	 live, plain, mine, mine_all, all;
};

static void
gitinst_count(uid_t caller, struct gitinst_counts *c)
{
	struct git_inst	*gi;

	memset(c, 0, sizeof(*c));
	TAILQ_FOREACH(gi, &gis.insts, gi_entry) {
		c->all++;
		if (gi->gi_caller == caller)
			c->mine_all++;
		if (gi->gi_state == GI_ENDING)
			continue;
		c->live++;
		if (!gitinst_privileged(gi->gi_caller))
			c->plain++;
		if (gi->gi_caller == caller)
			c->mine++;
	}
}

/*
 * Room for one more instance of this caller: at a cap an unused one
 * makes room (its own first), busy ones never do.  NULL, or why not.
 */
static const char *
gitinst_room(uid_t caller)
{
	struct gitinst_counts	 c;
	int			 plain = !gitinst_privileged(caller);

	gitinst_count(caller, &c);
	if (c.all >= GITINST_SLOTS || c.mine_all >= GITINST_SLOTS_PER_CALLER)
		return ERR_BUSY;	/* killed ones not reaped yet */
	if (c.mine >= GITINST_PER_CALLER)
		return gitinst_evict(caller, 1, 0) ? NULL : ERR_BUSY;
	if (plain && c.plain >= GITINST_PLAIN_MAX)
		return gitinst_evict(caller, 0, 1) ? NULL : ERR_BUSY;
	if (c.live >= GITINST_MAX)
		return gitinst_evict(caller, 0, 0) ? NULL : ERR_BUSY;
	return NULL;
}

const char *
gitinst_attach(struct request *r, const char *dir, uint32_t type,
    const struct git_req *gq)
{
	struct launch_git_req	 lg;
	struct git_inst		*gi;
	const char		*why;
	int			 sp[2];

	r->r_git = NULL;
	r->r_git_type = type;
	r->r_git_req = *gq;
	r->r_git_sent = 0;
	TAILQ_FOREACH(gi, &gis.insts, gi_entry) {
		if (gi->gi_caller == r->r_cc->cc_uid && !gi->gi_quarantine &&
		    strcmp(gi->gi_dir, dir) == 0 && !gi->gi_distrusted &&
		    !gi->gi_retired && gi->gi_state != GI_ENDING) {
			r->r_git = gi;
			gi->gi_idle_since = 0;
			if (gi->gi_state == GI_READY)
				gitinst_flush(gi);
			return NULL;
		}
	}
	if ((why = gitinst_room(r->r_cc->cc_uid)) != NULL)
		return why;
	if ((gi = calloc(1, sizeof(*gi))) == NULL)
		return ERR_INTERNAL;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
	    sp) == -1) {
		free(gi);
		return ERR_INTERNAL;
	}
	gi->gi_id = gis.next_id++;
	gi->gi_caller = r->r_cc->cc_uid;
	strlcpy(gi->gi_dir, dir, sizeof(gi->gi_dir));
	gi->gi_state = GI_LAUNCHING;
	gi->gi_fd = sp[0];
	TAILQ_INSERT_TAIL(&gis.insts, gi, gi_entry);
	gis.ninsts++;
	r->r_git = gi;

	memset(&lg, 0, sizeof(lg));
	lg.lg_caller = r->r_cc->cc_uid;
	lg.lg_any_owner = r->r_cc->cc_uid == 0;
	strlcpy(lg.lg_dir, dir, sizeof(lg.lg_dir));
	if (worker_compose(PROC_LAUNCH, IMSG_LAUNCH_GIT_REQ, gi->gi_id, sp[1],
	    &lg, sizeof(lg)) == -1) {
		r->r_git = NULL;
		gitinst_free(gi, ERR_WORKER_UNAVAILABLE, "");
		return ERR_WORKER_UNAVAILABLE;
	}
	return NULL;
}

/*
 * The request that waits for this quarantine gets its first step once
 * it is started, not once READY: what it is sent waits in its channel
 * until it reads, confined, so the space's exec runs during its start.
 */
static void
gitinst_quarantine_ready(struct git_inst *gi)
{
	struct request	*r;
	uint32_t	 id;

	if (request_ids_of_git(gi, &id, 1) != 1 ||
	    (r = request_find(id)) == NULL || r->r_qgit != gi ||
	    r->r_qgit_ready == NULL)
		return;
	r->r_qgit_ready(r);
}

/*
 * A space's quarantine for this request alone: spaced-git started by
 * spaced-launch in <state>/quarantine/<id>/ as _spaced-quarantine;
 * ready(r) once it is started (its channel takes requests).  NULL, or an
 * error code.
 */
const char *
gitinst_quarantine(struct request *r, const char *space,
    void (*ready)(struct request *))
{
	struct launch_qr_req	 lq;
	struct git_inst		*gi;
	const char		*why;
	int			 sp[2];

	if ((why = gitinst_room(r->r_uid)) != NULL)
		return why;
	if ((gi = calloc(1, sizeof(*gi))) == NULL)
		return ERR_INTERNAL;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
	    sp) == -1) {
		free(gi);
		return ERR_INTERNAL;
	}
	gi->gi_id = gis.next_id++;
	gi->gi_caller = r->r_uid;
	gi->gi_quarantine = 1;
	gi->gi_retired = 1;		/* never another request's */
	snprintf(gi->gi_dir, sizeof(gi->gi_dir), "the quarantine of %s",
	    space);
	gi->gi_state = GI_LAUNCHING;
	gi->gi_fd = sp[0];
	TAILQ_INSERT_TAIL(&gis.insts, gi, gi_entry);
	gis.ninsts++;
	r->r_qgit = gi;
	r->r_qgit_ready = ready;

	memset(&lq, 0, sizeof(lq));
	strlcpy(lq.lq_space, space, sizeof(lq.lq_space));
	strlcpy(lq.lq_state, spaced_config()->sc_state, sizeof(lq.lq_state));
	if (worker_compose(PROC_LAUNCH, IMSG_LAUNCH_QR_REQ, gi->gi_id, sp[1],
	    &lq, sizeof(lq)) == -1) {
		r->r_qgit = NULL;
		gitinst_free(gi, ERR_WORKER_UNAVAILABLE, "");
		return ERR_WORKER_UNAVAILABLE;
	}
	return NULL;
}

/* remove: the space's quarantine folder goes (spaced-launch). */
void
gitinst_quarantine_remove(const char *space)
{
	struct launch_qr_req	 lq;

	memset(&lq, 0, sizeof(lq));
	strlcpy(lq.lq_space, space, sizeof(lq.lq_space));
	strlcpy(lq.lq_state, spaced_config()->sc_state, sizeof(lq.lq_state));
	(void)worker_compose(PROC_LAUNCH, IMSG_LAUNCH_QR_REMOVE, 0, -1, &lq,
	    sizeof(lq));
}

/* A quarantine takes messages from its start (gitinst_quarantine_ready). */
static int
gitinst_takes(const struct git_inst *gi)
{
	return gi->gi_state == GI_READY || (gi->gi_quarantine &&
	    gi->gi_state == GI_STARTING);
}

int
gitinst_compose(struct git_inst *gi, uint32_t type, uint32_t peerid,
    const void *data, size_t len)
{
	if (!gitinst_takes(gi) || gi->gi_distrusted) {
		errno = ESRCH;
		return -1;
	}
	return imsg_compose_event(&gi->gi_iev, type, peerid, 0, -1, data,
	    len);
}

int
gitinst_relaunch(struct request *r, const char *code, const char *dir,
    int *relaunched)
{
	struct git_req	 gq = r->r_git_req;
	const char	*why;

	gitinst_retire(r->r_git);
	if (strcmp(code, ERR_GIT_WORKER_STALE) != 0 || *relaunched)
		return 0;
	*relaunched = 1;
	if ((why = gitinst_attach(r, dir, r->r_git_type, &gq)) != NULL)
		request_refuse(r, why, "no new spaced-git");
	return 1;
}

struct imsgev *
gitinst_iev(struct git_inst *gi)
{
	return gitinst_takes(gi) ? &gi->gi_iev : NULL;
}

void
gitinst_distrust(struct git_inst *gi)
{
	gi->gi_distrusted = 1;
}

void
gitinst_retire(struct git_inst *gi)
{
	gi->gi_retired = 1;
}

/*
 * An instance that died without spaced asking: in the log, and an
 * event for its caller (and root), with how it died.
 */
static void
gitinst_died(struct git_inst *gi, int status)
{
	char	 how[64], detail[CTL_EVENT_DETAIL_MAX];

	if (WIFSIGNALED(status))
		(void)snprintf(how, sizeof(how), "killed by signal %d (%s)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		(void)snprintf(how, sizeof(how), "exited with status %d",
		    WEXITSTATUS(status));
	log_warnx("spaced-git %d (uid %u, %s) %s", (int)gi->gi_pid,
	    (unsigned)gi->gi_owner, gi->gi_dir, how);
	/* The folder last: a long one is cut, never how it died. */
	(void)snprintf(detail, sizeof(detail), "spaced-git pid %d uid %u %s: ",
	    (int)gi->gi_pid, (unsigned)gi->gi_owner, how);
	(void)strlcat(detail, gi->gi_dir, sizeof(detail));
	if (gis.event != NULL)
		gis.event("worker-died", gi->gi_caller, NULL, detail);
}

/* spaced-launch reaped an instance's process: its place is free. */
static void
gitinst_exited(struct imsg *imsg)
{
	struct launch_exit	 le;
	struct git_inst		*gi;

	if (imsg_get_data(imsg, &le, sizeof(le)) == -1)
		fatalx("%s: bad exit report", __func__);
	if ((gi = gitinst_by_id(imsg_get_peerid(imsg))) == NULL ||
	    gi->gi_state == GI_LAUNCHING || gi->gi_pid != le.le_pid ||
	    gi->gi_reaped)
		fatalx("%s: exit report for no instance", __func__);
	/* Ended by spaced (idle, retired, distrusted), or on its own. */
	if (gi->gi_state != GI_ENDING || gi->gi_unasked)
		gitinst_died(gi, le.le_status);
	else
		log_debug("spaced-git %d ended", (int)le.le_pid);
	if (gi->gi_state == GI_ENDING) {
		gitinst_remove(gi);
		return;
	}
	/* A live one: its channel's end follows. */
	gi->gi_reaped = 1;
}

/* spaced-launch's word on an instance: started, refused, or ended. */
void
gitinst_launch_dispatch(struct imsg *imsg)
{
	struct launch_git_rep	 lr;
	struct git_inst		*gi;

	switch (imsg_get_type(imsg)) {
	case IMSG_LAUNCH_GIT_REP:
		if (imsg_get_data(imsg, &lr, sizeof(lr)) == -1 ||
		    memchr(lr.lr_code, '\0', sizeof(lr.lr_code)) == NULL ||
		    memchr(lr.lr_message, '\0', sizeof(lr.lr_message)) == NULL)
			fatalx("%s: bad launch answer", __func__);
		if ((gi = gitinst_by_id(imsg_get_peerid(imsg))) == NULL ||
		    gi->gi_state != GI_LAUNCHING)
			fatalx("%s: launch answer for no launch", __func__);
		if (lr.lr_pid <= 0) {
			gitinst_free(gi, lr.lr_code[0] != '\0' ? lr.lr_code :
			    ERR_CODE_IN_FAILED, lr.lr_message);
			return;
		}
		gi->gi_pid = lr.lr_pid;
		gi->gi_owner = lr.lr_uid;
		gi->gi_state = GI_STARTING;
		imsgev_init(&gi->gi_iev, gis.base, gi->gi_fd, gitinst_dispatch,
		    gi);
		imsg_event_add(&gi->gi_iev);
		log_debug("spaced-git %d for uid %u: %s", (int)gi->gi_pid,
		    (unsigned)gi->gi_owner, gi->gi_dir);
		if (gi->gi_quarantine)
			gitinst_quarantine_ready(gi);
		break;
	case IMSG_LAUNCH_EXITED:
		gitinst_exited(imsg);
		break;
	default:
		fatalx("%s: unexpected imsg %u from launch", __func__,
		    imsg_get_type(imsg));
	}
}

/* It may be stuck in a call and never read its channel's end: killed. */
static void
gitinst_end(struct git_inst *gi, const char *why)
{
	log_warnx("spaced-git %d (%s): %s", (int)gi->gi_pid, gi->gi_dir, why);
	gitinst_free(gi, ERR_GIT_WORKER_FAILED, why);
}

static int
gitinst_message(struct git_inst *gi, struct imsg *imsg)
{
	struct worker_ready_info wi;
	struct request		*r;

	switch (imsg_get_type(imsg)) {
	case IMSG_WORKER_READY:
		if (gi->gi_state != GI_STARTING ||
		    imsg_get_data(imsg, &wi, sizeof(wi)) == -1)
			return -1;
		gi->gi_state = GI_READY;
		gitinst_flush(gi);
		return 0;
	case IMSG_STREAM_DATA:
	case IMSG_STREAM_CREDIT:
	case IMSG_STREAM_END:
		if (gi->gi_state != GI_READY)
			return -1;
		streams_dispatch(EP_GIT(gi), imsg);
		return 0;
	}
	if (gi->gi_state != GI_READY)
		return -1;
	/* Its answers are for its own requests only. */
	if ((r = request_find(imsg_get_peerid(imsg))) == NULL)
		return -1;
	if (gi->gi_quarantine)
		return r->r_qgit != gi ? -1 :
		    request_dispatch(PROC_QUARANTINE, imsg);
	if (r->r_git != gi)
		return -1;
	return request_dispatch(PROC_GIT, imsg);
}

static void
gitinst_dispatch(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg;
	struct git_inst	*gi = iev->data;
	struct imsg	 imsg;
	int		 n, bad;

	if (imsgev_handle(&gi->gi_iev, event) == -1) {
		gi->gi_unasked = 1;
		gitinst_end(gi, errno != 0 ? "its channel broke" :
		    "it went away");
		return;
	}
	for (;;) {
		if ((n = imsgbuf_get(&gi->gi_iev.ibuf, &imsg)) == -1) {
			gitinst_end(gi, "it sent a bad message");
			return;
		}
		if (n == 0)
			break;
		bad = gitinst_message(gi, &imsg) == -1;
		imsg_free(&imsg);
		if (bad || gi->gi_distrusted) {
			gitinst_end(gi, "it gave an answer spaced does not "
			    "take");
			return;
		}
		if (gi->gi_retired && gitinst_idle(gi)) {
			gitinst_free(gi, ERR_GIT_WORKER_FAILED, "");
			return;
		}
		gitinst_flush(gi);
	}
	imsg_event_add(&gi->gi_iev);
}

/* Instances nobody has used for a while go: killed, then reaped. */
static void
gitinst_sweep(int fd, short event, void *arg)
{
	struct git_inst	*gi, *next;
	struct timeval	 tv = { GITINST_SWEEP_SECONDS, 0 };
	time_t		 now = now_seconds();

	for (gi = TAILQ_FIRST(&gis.insts); gi != NULL; gi = next) {
		next = TAILQ_NEXT(gi, gi_entry);
		if (!gitinst_unused(gi)) {
			gi->gi_idle_since = 0;
			continue;
		}
		if (gi->gi_idle_since == 0)
			gi->gi_idle_since = now;
		else if (now - gi->gi_idle_since >= GITINST_IDLE_SECONDS) {
			log_debug("spaced-git %d idle, ended", (int)gi->gi_pid);
			gitinst_free(gi, ERR_GIT_WORKER_FAILED, "");
		}
	}
	evtimer_add(&gis.sweep_ev, &tv);
}

void
gitinst_init(struct event_base *base, gitinst_event_sink event)
{
	struct timeval	 tv = { GITINST_SWEEP_SECONDS, 0 };

	gis.base = base;
	gis.event = event;
	evtimer_set(&gis.sweep_ev, gitinst_sweep, NULL);
	event_base_set(base, &gis.sweep_ev);
	evtimer_add(&gis.sweep_ev, &tv);
}
