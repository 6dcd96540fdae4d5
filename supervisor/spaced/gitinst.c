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

#include <errno.h>
#include <event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "git_proto.h"
#include "gitinst_fair.h"
#include "log.h"
#include "spaced.h"

/*
 * Live instances: 16 in all, 8 a caller, 12 for callers other than root
 * and spaced's own user (the rest is kept for them).  An ended one
 * counts until spaced-launch has reaped it: 24 in all, 12 a caller,
 * under spaced-launch's 32.  A plain caller under its fair share of the
 * 12 waits for one (32 waits in all), never root (docs/privsep.md).
 */
#define GITINST_MAX		16
#define GITINST_PER_CALLER	8
#define GITINST_PLAIN_MAX	12
#define GITINST_SLOTS		24
#define GITINST_SLOTS_PER_CALLER 12
#define GITINST_IDLE_SECONDS	30
#define GITINST_SWEEP_SECONDS	5
#define GITINST_REQUESTS_MAX	256
#define GITINST_WAITING_MAX	32
#define GITINST_LIST_MAX	(GITINST_SLOTS + GITINST_WAITING_MAX)

enum gitinst_state {
	GI_WAITING,	/* no room yet: its turn comes (gitinst_grant) */
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
	int			 gi_gone;	/* so: refused once reaped */
	/* How it died; until then its last words (gitlaunch_said). */
	char			 gi_how[SPACE_DONE_MESSAGE_MAX];
	int			 gi_distrusted;
	int			 gi_retired;	/* ends once it has no request */
	time_t			 gi_idle_since;	/* 0: in use */
	int			 gi_fd;		/* spaced's end */
	struct imsgev		 gi_iev;
	int			 gi_quarantine;	/* a space's (r_qgit) */
	char			 gi_space[SPACE_ID_SIZE];	/* its space */
};

static struct {
	TAILQ_HEAD(, git_inst)	 insts;
	uint32_t		 next_id;
	struct event		 sweep_ev;
	struct event		 grant_ev;
	struct event_base	*base;
	gitinst_event_sink	 event;
} gis = {
	.insts = TAILQ_HEAD_INITIALIZER(gis.insts),
	.next_id = 1,
};

static void	gitinst_dispatch(int, short, void *);
static void	gitinst_grant_soon(void);

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
	free(gi);
	gitinst_grant_soon();
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
	if (gi->gi_state == GI_WAITING) {
		gitinst_remove(gi);
		return;
	}
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
	gitlaunch_kill(gi->gi_id, gi->gi_pid);
	gi->gi_state = GI_ENDING;
	gitinst_grant_soon();
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

/* A waiting one goes once no request wants it (timed out, client gone). */
static void
gitinst_prune(void)
{
	struct git_inst	*gi, *next;
	struct request	*r;
	uint32_t	 ids[GITINST_REQUESTS_MAX];
	size_t		 i, n;

	for (gi = TAILQ_FIRST(&gis.insts); gi != NULL; gi = next) {
		next = TAILQ_NEXT(gi, gi_entry);
		if (gi->gi_state != GI_WAITING)
			continue;
		n = request_ids_of_git(gi, ids, GITINST_REQUESTS_MAX);
		for (i = 0; i < n; i++)
			if ((r = request_find(ids[i])) != NULL &&
			    !r->r_answered)
				break;
		if (i == n)
			gitinst_free(gi, ERR_BUSY, "");
	}
}

/* Who holds what, for gitinst_fair.c: the list's order, oldest first. */
static size_t
gitinst_snapshot(struct fair_inst *fi)
{
	struct git_inst	*gi;
	size_t		 n = 0;

	TAILQ_FOREACH(gi, &gis.insts, gi_entry) {
		if (n == GITINST_LIST_MAX)
			fatalx("%s: more instances than the caps allow",
			    __func__);
		fi[n].fi_caller = gi->gi_caller;
		fi[n].fi_plain = !gitinst_privileged(gi->gi_caller);
		fi[n++].fi_state = gi->gi_state == GI_WAITING ? FAIR_WAITING :
		    gi->gi_state == GI_ENDING ? FAIR_ENDING : FAIR_LIVE;
	}
	return n;
}

/*
 * End an unused instance of this caller (caller_only), of plain callers
 * (plain_only) or of anyone: of the caller who holds the most, the
 * oldest of theirs (gitinst_fair.c).  1 if one.
 */
static int
gitinst_evict(uid_t caller, int caller_only, int plain_only)
{
	struct git_inst	*gi, *cand[GITINST_SLOTS];
	struct fair_inst fi[GITINST_LIST_MAX];
	size_t		 live[GITINST_SLOTS], n = 0, nfi = gitinst_snapshot(fi);

	/* The list is in the order they were made: the oldest first. */
	TAILQ_FOREACH(gi, &gis.insts, gi_entry)
		if ((!caller_only || gi->gi_caller == caller) &&
		    (!plain_only || !gitinst_privileged(gi->gi_caller)) &&
		    gitinst_unused(gi) && n < GITINST_SLOTS) {
			live[n] = fair_live_of(fi, nfi, gi->gi_caller);
			cand[n++] = gi;
		}
	if (n == 0)
		return 0;
	gitinst_free(cand[fair_victim(live, n)], ERR_GIT_WORKER_FAILED, "");
	return 1;
}

/*
 * Room for one more instance of this caller: at a cap an unused one
 * makes room (its own first), busy ones never do.  NULL, or why not.
 */
static const char *
gitinst_room(uid_t caller)
{
	struct fair_inst	 fi[GITINST_LIST_MAX];
	struct fair_counts	 c;
	int			 plain = !gitinst_privileged(caller);

	fair_count(fi, gitinst_snapshot(fi), caller, plain, &c);
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

/*
 * A new instance of this caller: NULL to start it now (room made), or
 * why not, and *wait when a plain caller under its fair share may wait
 * its turn instead.  Those waiting already go first (gitinst_grant):
 * a new request of a greedy caller never takes the room freed for them.
 */
static const char *
gitinst_admit(uid_t caller, int *wait)
{
	struct fair_inst	 fi[GITINST_LIST_MAX];
	struct fair_counts	 c;
	const char		*why = ERR_BUSY;

	*wait = 0;
	gitinst_prune();
	if (gitinst_privileged(caller))
		return gitinst_room(caller);
	fair_count(fi, gitinst_snapshot(fi), caller, 1, &c);
	if (c.waiting == 0 && (why = gitinst_room(caller)) == NULL)
		return NULL;
	*wait = c.waiting < GITINST_WAITING_MAX &&
	    fair_may_wait(GITINST_PLAIN_MAX, GITINST_PER_CALLER, c.callers,
	    c.mine, c.mine_waiting);
	return why;
}

/* spaced-launch is asked to start it: -1 when it cannot be asked. */
static int
gitinst_launch(struct git_inst *gi)
{
	if (gitlaunch_start(gi->gi_id, gi->gi_caller, gi->gi_dir,
	    gi->gi_quarantine ? gi->gi_space : NULL, &gi->gi_fd) == -1)
		return -1;
	gi->gi_state = GI_LAUNCHING;
	return 0;
}

/*
 * While others wait, the instances of a caller over its share take no
 * new request: each ends once what it runs is done, its room theirs.
 */
static void
gitinst_yield(void)
{
	struct git_inst		*gi;
	struct fair_inst	 fi[GITINST_LIST_MAX];
	size_t			 i = 0, n = gitinst_snapshot(fi);

	TAILQ_FOREACH(gi, &gis.insts, gi_entry)
		if (fair_yields(fi, n, i++, GITINST_PLAIN_MAX,
		    GITINST_PER_CALLER))
			gi->gi_retired = 1;
}

/*
 * Freed room goes to the waiting instance whose caller holds the fewest
 * (gitinst_fair.c).  From the loop: a gitinst_free may be in a walk.
 */
static void
gitinst_grant(int fd, short event, void *arg)
{
	struct git_inst	*gi, *cand[GITINST_WAITING_MAX];
	struct fair_inst fi[GITINST_LIST_MAX];
	size_t		 live[GITINST_WAITING_MAX], n, nfi;

	gitinst_prune();
	for (;;) {
		n = 0;
		nfi = gitinst_snapshot(fi);
		TAILQ_FOREACH(gi, &gis.insts, gi_entry)
			if (gi->gi_state == GI_WAITING &&
			    n < GITINST_WAITING_MAX) {
				live[n] = fair_live_of(fi, nfi, gi->gi_caller);
				cand[n++] = gi;
			}
		if (n == 0)
			return;
		gi = cand[fair_next(live, n)];
		if (gitinst_room(gi->gi_caller) != NULL) {
			gitinst_yield();	/* the next free room is its */
			return;
		}
		log_debug("spaced-git of uid %u for %s: its turn",
		    (unsigned)gi->gi_caller, gi->gi_dir);
		if (gitinst_launch(gi) == -1)
			gitinst_free(gi, ERR_WORKER_UNAVAILABLE,
			    "spaced-launch took no request");
	}
}

static void
gitinst_grant_soon(void)
{
	struct git_inst	*gi;
	struct timeval	 tv = { 0, 0 };

	if (gis.base == NULL || evtimer_pending(&gis.grant_ev, NULL))
		return;
	TAILQ_FOREACH(gi, &gis.insts, gi_entry)
		if (gi->gi_state == GI_WAITING) {
			evtimer_add(&gis.grant_ev, &tv);
			return;
		}
}

/* A new instance for r: started, waiting its turn, or why not. */
static const char *
gitinst_start(struct request *r, struct git_inst **slot, uid_t caller,
    const char *dir, const char *space)
{
	struct git_inst	*gi;
	const char	*why;
	int		 wait;

	if ((why = gitinst_admit(caller, &wait)) != NULL && !wait)
		return why;
	if ((gi = calloc(1, sizeof(*gi))) == NULL)
		return ERR_INTERNAL;
	gi->gi_id = gis.next_id++;
	gi->gi_caller = caller;
	strlcpy(gi->gi_dir, dir, sizeof(gi->gi_dir));
	gi->gi_state = GI_WAITING;
	gi->gi_fd = -1;
	TAILQ_INSERT_TAIL(&gis.insts, gi, gi_entry);
	if (space != NULL) {
		gi->gi_quarantine = 1;
		gi->gi_retired = 1;	/* never another request's */
		strlcpy(gi->gi_space, space, sizeof(gi->gi_space));
	}
	*slot = gi;
	if (why != NULL) {
		log_debug("request %u: spaced-git of uid %u for %s waits its "
		    "turn", r->r_id, (unsigned)caller, gi->gi_dir);
		gitinst_grant_soon();
		return NULL;
	}
	if (gitinst_launch(gi) == -1) {
		*slot = NULL;
		gitinst_free(gi, ERR_WORKER_UNAVAILABLE, "");
		return ERR_WORKER_UNAVAILABLE;
	}
	return NULL;
}

const char *
gitinst_attach(struct request *r, const char *dir, uint32_t type,
    const struct git_req *gq)
{
	struct git_inst		*gi;

	r->r_git = NULL;
	r->r_git_type = type;
	r->r_git_req = *gq;
	r->r_git_sent = 0;
	/* A waiting one too: it serves both once its turn comes. */
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
	return gitinst_start(r, &r->r_git, r->r_cc->cc_uid, dir, NULL);
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
	char	 what[GIT_DIR_MAX];

	r->r_qgit_ready = ready;
	snprintf(what, sizeof(what), "the quarantine of %s", space);
	return gitinst_start(r, &r->r_qgit, r->r_uid, what, space);
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

/* spaced-launch reaped an instance's process: its place is free. */
static void
gitinst_exited(struct imsg *imsg)
{
	struct launch_exit	 le;
	struct git_inst		*gi;
	char			 detail[CTL_EVENT_DETAIL_MAX];

	if (imsg_get_data(imsg, &le, sizeof(le)) == -1)
		fatalx("%s: bad exit report", __func__);
	if ((gi = gitinst_by_id(imsg_get_peerid(imsg))) == NULL ||
	    gi->gi_state == GI_LAUNCHING || gi->gi_state == GI_WAITING ||
	    gi->gi_pid != le.le_pid || gi->gi_reaped)
		fatalx("%s: exit report for no instance", __func__);
	/* Ended by spaced (idle, retired, distrusted), or on its own. */
	if (gi->gi_state != GI_ENDING || gi->gi_unasked) {
		gitlaunch_died(&le, gi->gi_state == GI_READY, gi->gi_owner,
		    gi->gi_dir, gi->gi_how, sizeof(gi->gi_how), detail,
		    sizeof(detail));
		if (gis.event != NULL)
			gis.event("worker-died", gi->gi_caller, NULL, detail);
	} else
		log_debug("spaced-git %d ended", (int)le.le_pid);
	if (gi->gi_state == GI_ENDING) {
		gitinst_remove(gi);
		return;
	}
	/* A live one: its channel's end follows, or came (gi_gone). */
	gi->gi_reaped = 1;
	if (gi->gi_gone)
		gitinst_free(gi, ERR_GIT_WORKER_FAILED, gi->gi_how);
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
	case IMSG_WORKER_FATAL:
		return gitlaunch_said(imsg, gi->gi_pid, gi->gi_reaped, gi->gi_how);
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
	return r->r_git != gi ? -1 : request_dispatch(PROC_GIT, imsg);
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
		/*
		 * Dead, as a rule (ECONNRESET: a request left unread): its
		 * requests wait for spaced-launch's word of how.
		 */
		if (!gi->gi_reaped && (errno == 0 || errno == ECONNRESET ||
		    errno == EPIPE)) {
			if (!gi->gi_gone++) {
				gi->gi_retired = 1;
				gitlaunch_kill(gi->gi_id, gi->gi_pid);
			}
			return;
		}
		gitinst_end(gi, gi->gi_reaped ? gi->gi_how : errno != 0 ?
		    "its channel broke" : "it went away");
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
	/* Its request done, it may make room for one who waits. */
	gitinst_grant_soon();
}

/* Instances nobody has used for a while go: killed, then reaped. */
static void
gitinst_sweep(int fd, short event, void *arg)
{
	struct git_inst	*gi, *next;
	struct timeval	 tv = { GITINST_SWEEP_SECONDS, 0 };
	struct timespec	 ts;
	time_t		 now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec;
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
	/* One whose requests were cancelled elsewhere makes room too. */
	gitinst_grant_soon();
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
	evtimer_set(&gis.grant_ev, gitinst_grant, NULL);
	event_base_set(base, &gis.grant_ev);
}

void
gitinst_status(char *buf, size_t len)
{
	struct fair_inst	 fi[GITINST_LIST_MAX];
	struct fair_counts	 c;

	gitinst_prune();
	fair_count(fi, gitinst_snapshot(fi), 0, 0, &c);
	(void)snprintf(buf, len, "git: %zu live, %zu plain, %zu waiting",
	    c.live, c.plain, c.waiting);
}
