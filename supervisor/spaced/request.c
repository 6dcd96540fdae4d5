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
 * The request table: an answer is taken only for a request in it, from
 * a worker whose answer is due, of a type and length its operation's
 * table holds; anything else is a compromised or broken worker.  A
 * request stays until its workers gave their last word, so a late answer
 * is recognised (docs/notes/spaced-router.md).
 */

#include <sys/types.h>

#include <errno.h>
#include <event.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "spaced.h"

static struct {
	TAILQ_HEAD(, request)	 list;
	size_t			 count;
	uint32_t		 next_id;
} requests = {
	.list = TAILQ_HEAD_INITIALIZER(requests.list),
	.next_id = 1,
};

static void	request_tick(int, short, void *);
static void	request_maybe_free(struct request *);

uint32_t
spaced_new_id(void)
{
	uint32_t	 id;

	/* 2^32 ids go round in years; skip 0 and any still in use. */
	do {
		id = requests.next_id++;
		if (requests.next_id == 0)
			requests.next_id = 1;
	} while (request_find(id) != NULL || stream_find(id) != NULL);
	return id;
}

struct request *
request_find(uint32_t id)
{
	struct request	*r;

	TAILQ_FOREACH(r, &requests.list, r_entry)
		if (r->r_id == id)
			return r;
	return NULL;
}

size_t
request_count(void)
{
	return requests.count;
}

/*
 * The requests in flight on the engine: those of uid, and in *plain
 * those of every caller who is not an administrator.
 */
size_t
request_engine_count(uid_t uid, size_t *plain)
{
	struct request	*r;
	size_t		 n = 0;

	*plain = 0;
	TAILQ_FOREACH(r, &requests.list, r_entry) {
		if (!r->r_engine || (r->r_waiting & PROC_BIT(PROC_DOCKER)) == 0)
			continue;
		if (r->r_uid == uid)
			n++;
		if (r->r_uid != 0 && r->r_uid != geteuid())
			(*plain)++;
	}
	return n;
}

/* fn on each request in flight of operation type; fn frees none. */
void
request_each(uint32_t type, void (*fn)(struct request *, void *), void *arg)
{
	struct request	*r;

	TAILQ_FOREACH(r, &requests.list, r_entry)
		if (r->r_op != NULL && r->r_op->op_type == type)
			fn(r, arg);
}

/* The ids of the requests on this spaced-git, at most max of them. */
size_t
request_ids_of_git(const struct git_inst *gi, uint32_t *ids, size_t max)
{
	struct request	*r;
	size_t		 n = 0;

	TAILQ_FOREACH(r, &requests.list, r_entry)
		if ((r->r_git == gi || r->r_qgit == gi) && n < max)
			ids[n++] = r->r_id;
	return n;
}

static void
request_arm(struct request *r)
{
	struct timeval	 tv = { CTL_PROGRESS_SECONDS, 0 };

	evtimer_add(&r->r_timer, &tv);
}

static void
request_paused(int fd, short event, void *arg)
{
	struct request	*r = arg;

	r->r_pause_fn(r);
}

void
request_pause(struct request *r, int ms, void (*fn)(struct request *))
{
	struct timeval	 tv = { ms / 1000, (ms % 1000) * 1000 };

	r->r_pause_fn = fn;
	evtimer_add(&r->r_pause, &tv);
}

/*
 * A request of spaced's own (the disk sweep): no client, spaced's uid;
 * it answers nobody, and is freed once its workers are done.
 */
/*
 * A request spaced makes itself, on behalf of uid (a collection of a
 * space's journal): no client waits for it, its answers go nowhere.
 */
struct request *
request_new_internal(uid_t uid, const struct ctl_op *op)
{
	struct request		*r;
	struct event_base	*base = spaced_env()->env_base;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return NULL;
	if (op->op_state_size != NULL &&
	    (r->r_state = calloc(1, *op->op_state_size)) == NULL) {
		free(r);
		return NULL;
	}
	r->r_id = spaced_new_id();
	r->r_uid = uid;
	r->r_own = 1;
	r->r_op = op;
	clock_gettime(CLOCK_MONOTONIC, &r->r_start);
	evtimer_set(&r->r_timer, request_tick, r);
	event_base_set(base, &r->r_timer);
	evtimer_set(&r->r_pause, request_paused, r);
	event_base_set(base, &r->r_pause);
	request_arm(r);
	TAILQ_INSERT_TAIL(&requests.list, r, r_entry);
	return r;
}

struct request *
request_new(struct ctl_conn *cc, uint32_t peerid, const struct ctl_op *op)
{
	struct request	*r;

	if ((r = request_new_internal(cc->cc_uid, op)) == NULL)
		return NULL;
	requests.count++;
	r->r_own = 0;
	r->r_cc = cc;
	r->r_peerid = peerid;
	TAILQ_INSERT_TAIL(&cc->cc_requests, r, r_client_entry);
	cc->cc_pending++;
	control_busy_changed(cc);
	return r;
}

/* The client is done with it: it no longer counts against the client. */
static void
request_detach(struct request *r)
{
	struct ctl_conn	*cc = r->r_cc;
	size_t		 i;

	if (cc == NULL)
		return;
	/*
	 * Nothing more goes to the client once it is answered, and it may
	 * leave while the request waits for a worker's last word (code in
	 * keeps the origin): its streams must not hold it.  A stream
	 * between two workers is not the client's: it runs to its end.
	 */
	for (i = 0; i < REQUEST_STREAMS; i++)
		if (r->r_streams[i] != NULL &&
		    (r->r_streams[i]->s_src.ep_cc != NULL ||
		    r->r_streams[i]->s_dst.ep_cc != NULL))
			stream_abort(r->r_streams[i]);
	TAILQ_REMOVE(&cc->cc_requests, r, r_client_entry);
	cc->cc_pending--;
	r->r_cc = NULL;
	control_busy_changed(cc);
}

static void
request_maybe_free(struct request *r)
{
	size_t	 i;

	if (!r->r_answered || r->r_waiting != 0)
		return;
	request_detach(r);
	for (i = 0; i < REQUEST_STREAMS; i++)
		if (r->r_streams[i] != NULL)
			stream_close(r->r_streams[i]);
	evtimer_del(&r->r_timer);
	evtimer_del(&r->r_pause);
	free(r->r_heap);
	free(r->r_state);
	TAILQ_REMOVE(&requests.list, r, r_entry);
	/* spaced's own (a collection) are not counted: status counts clients'. */
	if (r->r_op->op_type != 0)
		requests.count--;
	free(r);
}

/* A spaced-git of a repository takes no fds; the one of spaced may. */
static int
request_compose(struct request *r, enum procid id, uint32_t type, int fd,
    const void *data, size_t len)
{
	if (id == PROC_QUARANTINE) {
		if (fd != -1)
			fatalx("%s: an fd for a quarantine", __func__);
		if (r->r_qgit == NULL) {
			errno = ESRCH;
			return -1;
		}
		return gitinst_compose(r->r_qgit, type, r->r_id, data, len);
	}
	if (id == PROC_GIT && r->r_git != NULL) {
		if (fd != -1)
			fatalx("%s: an fd for a repository's spaced-git",
			    __func__);
		return gitinst_compose(r->r_git, type, r->r_id, data, len);
	}
	return worker_compose(id, type, r->r_id, fd, data, len);
}

int
request_send(struct request *r, enum procid id, uint32_t type, int fd,
    const void *data, size_t len)
{
	if (request_compose(r, id, type, fd, data, len) == -1)
		return -1;
	/* The next step to a worker whose last answer is being handled. */
	if (r->r_finishing & PROC_BIT(id))
		r->r_resent |= PROC_BIT(id);
	r->r_waiting |= PROC_BIT(id);
	return 0;
}

void
request_data(struct request *r, const void *data, size_t len)
{
	if (r->r_cc != NULL && !r->r_answered)
		control_send(r->r_cc, IMSG_CTL_DATA, r->r_peerid, data, len);
}

void
request_end(struct request *r)
{
	if (r->r_answered)
		return;
	r->r_answered = 1;
	if (r->r_cc != NULL)
		control_send(r->r_cc, IMSG_CTL_END, r->r_peerid, NULL, 0);
	request_detach(r);
	request_maybe_free(r);
}

void
request_fail(struct request *r, const char *code)
{
	if (r->r_answered)
		return;
	r->r_answered = 1;
	if (r->r_cc != NULL)
		control_send_fail(r->r_cc, r->r_peerid, code);
	/* What the workers still do for it is of no use to anyone now. */
	request_cancel(r);
	request_detach(r);
	request_maybe_free(r);
}

void
request_refuse(struct request *r, const char *code, const char *message)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	strlcpy(sd.sd_message, message, sizeof(sd.sd_message));
	request_data(r, &sd, sizeof(sd));
	request_fail(r, code);
}

void
request_worker_done(struct request *r, enum procid id)
{
	r->r_waiting &= ~PROC_BIT(id);
	request_maybe_free(r);
}

void
request_cancel(struct request *r)
{
	enum procid	 id;
	size_t		 i;

	for (i = 0; i < REQUEST_STREAMS; i++)
		if (r->r_streams[i] != NULL)
			stream_abort(r->r_streams[i]);
	if (r->r_cancelled)
		return;
	r->r_cancelled = 1;
	for (id = 0; id < PROC_MAX; id++) {
		/* A worker whose final answer is being handled holds nothing. */
		if ((r->r_waiting & ~r->r_finishing & PROC_BIT(id)) == 0)
			continue;
		/* A worker that is gone answers nothing more. */
		if (request_compose(r, id, IMSG_WORKER_CANCEL, -1, NULL, 0)
		    == -1)
			r->r_waiting &= ~PROC_BIT(id);
	}
}

void
request_client_gone(struct ctl_conn *cc)
{
	struct request	*r;

	while ((r = TAILQ_FIRST(&cc->cc_requests)) != NULL) {
		/* An operation that must undo what it made goes on alone. */
		if (!r->r_answered && r->r_op->op_abandon != NULL &&
		    r->r_op->op_abandon(r)) {
			log_debug("request %u: client left, undoing", r->r_id);
			request_detach(r);
			continue;
		}
		log_debug("request %u: client left, cancelled", r->r_id);
		r->r_answered = 1;	/* nobody to answer */
		request_cancel(r);
		request_detach(r);
		request_maybe_free(r);
	}
}

/*
 * Every CTL_PROGRESS_SECONDS: tell the client the request still runs,
 * so its wait follows the operation; past the deadline, give up.
 */
static void
request_tick(int fd, short event, void *arg)
{
	struct request		*r = arg;
	struct ctl_progress	 pg;
	uint32_t		 id;

	r->r_ticks++;
	if (r->r_answered) {
		/* Waiting only for workers to acknowledge a cancel. */
		if (r->r_ticks * CTL_PROGRESS_SECONDS > 60)
			log_warnx("request %u (%s): workers %#x still owe a "
			    "final answer", r->r_id, r->r_op->op_name,
			    r->r_waiting);
		request_arm(r);
		return;
	}
	if (r->r_op->op_deadline > 0 &&
	    r->r_ticks * CTL_PROGRESS_SECONDS >= r->r_op->op_deadline) {
		log_warnx("request %u (%s): no answer within %d s", r->r_id,
		    r->r_op->op_name, r->r_op->op_deadline);
		id = r->r_id;
		request_fail(r, ERR_TIMEOUT);
		/* Still here when a worker owes a cancel acknowledgement. */
		if ((r = request_find(id)) != NULL)
			request_arm(r);
		return;
	}
	memset(&pg, 0, sizeof(pg));
	if (r->r_streams[0] != NULL)
		pg.pg_done = r->r_streams[0]->s_gauge.sg_forwarded;
	if (r->r_cc != NULL)
		control_send(r->r_cc, IMSG_CTL_PROGRESS, r->r_peerid, &pg,
		    sizeof(pg));
	request_arm(r);
}

/* A worker's message past READY: a stream's, spaced-launch's, or an answer. */
void
request_route(enum procid from, struct imsg *imsg)
{
	struct request	*r;

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
	case IMSG_STREAM_CREDIT:
	case IMSG_STREAM_END:
		streams_dispatch(EP_WORKER(from), imsg);
		return;
	}
	if (from == PROC_LAUNCH) {
		gitinst_launch_dispatch(imsg);
		return;
	}
	/* Every other message answers a request; a repository's are its own. */
	if ((from == PROC_GIT && (r = request_find(imsg_get_peerid(imsg))) !=
	    NULL && r->r_git != NULL) || request_dispatch(from, imsg) == -1)
		fatalx("%s: a bad answer", proc_title(from));
}

/* An answer from a worker: it must be one the table expects. */
int
request_dispatch(enum procid from, struct imsg *imsg)
{
	const struct answer_row	*ar;
	struct request		*r;
	uint32_t		 type = imsg_get_type(imsg), resent;

	if ((r = request_find(imsg_get_peerid(imsg))) == NULL) {
		log_warnx("%s: %s answered %u for no pending request",
		    __func__, proc_title(from), type);
		return -1;
	}
	if ((r->r_waiting & PROC_BIT(from)) == 0) {
		log_warnx("%s: %s answered %u for request %u, which waits "
		    "for no answer of it", __func__, proc_title(from), type,
		    r->r_id);
		return -1;
	}
	if (imsg->fd != -1) {
		log_warnx("%s: %s passed an fd", __func__, proc_title(from));
		return -1;
	}
	if (type == IMSG_WORKER_CANCEL) {
		if (!r->r_cancelled || imsg_get_len(imsg) != 0) {
			log_warnx("%s: %s: cancel answer for a live request",
			    __func__, proc_title(from));
			return -1;
		}
		request_worker_done(r, from);
		return 0;
	}
	for (ar = r->r_op->op_answers; ar != NULL && ar->ar_type != 0; ar++)
		if (ar->ar_type == type)
			break;
	if (ar == NULL || ar->ar_type == 0 ||
	    (ar->ar_senders & PROC_BIT(from)) == 0 ||
	    imsg_get_len(imsg) != ar->ar_len) {
		log_warnx("%s: %s: answer %u (%zu bytes) is not one %s takes",
		    __func__, proc_title(from), type, imsg_get_len(imsg),
		    r->r_op->op_name);
		return -1;
	}
	/* A cancelled request still counts answers, but shows none. */
	if (ar->ar_final == AR_FINAL)
		r->r_finishing = PROC_BIT(from);
	if (!r->r_answered || ar->ar_final == AR_ALWAYS)
		ar->ar_handler(r, from, imsg);
	r->r_finishing = 0;
	/*
	 * The sender's bit is still set, so the handler cannot free r; it
	 * stays set when the handler sent the sender its next step.  The
	 * mark goes first: request_worker_done may free r.
	 */
	resent = r->r_resent & PROC_BIT(from);
	r->r_resent = 0;
	if (ar->ar_final == AR_FINAL && !resent)
		request_worker_done(r, from);
	return 0;
}
