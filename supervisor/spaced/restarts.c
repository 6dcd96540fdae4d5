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
 * restarts: each followed Docker space's stderr, its relay's restart
 * lines, goes from spaced-docker to spaced-journal unread, every
 * "journal interval" seconds; spaced-journal keeps each restart once
 * (by the engine's time) in the space's chain and says so, and spaced
 * makes it an event and keeps the store's count for show.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <event.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "spaced.h"

/* Collections in flight at once: the gatekeepers' come first. */
#define RESTARTS_PARALLEL	2
/* The log from this long before the last whole collection began. */
#define RESTARTS_SLACK		5

struct watched {
	TAILQ_ENTRY(watched)	 w_entry;
	uid_t			 w_uid;
	char			 w_id[SPACE_ID_SIZE];
	uint32_t		 w_since;	/* unix seconds; 0: all */
	uint32_t		 w_req;		/* its collection, or 0 */
	int			 w_seen;	/* still followed */
};
static TAILQ_HEAD(, watched) watched = TAILQ_HEAD_INITIALIZER(watched);
static struct event	 restarts_ev;
static int		 restarts_on;

struct restarts_state {
	char		 rs_id[SPACE_ID_SIZE];
	uint32_t	 rs_began;
	int		 rs_ingested;
	int		 rs_place_done;
	int		 rs_whole;
	char		 rs_code[CTL_CODE_MAX];
};
static const size_t restarts_state_size = sizeof(struct restarts_state);
static const struct answer_row restarts_answers[];
static const struct ctl_op restarts_op = {
	0, "restarts", 0, WHO_ADMIN, 300, NULL, restarts_answers, NULL, NULL,
	&restarts_state_size
};

static struct watched *
watched_find(uid_t uid, const char *id)
{
	struct watched	*w;

	TAILQ_FOREACH(w, &watched, w_entry)
		if (w->w_uid == uid && strcmp(w->w_id, id) == 0)
			return w;
	return NULL;
}

/* The space's stderr since since, from spaced-docker into the journal. */
static int
restarts_begin(struct request *r, const char *id, uint32_t since)
{
	struct restarts_state		*rs = r->r_state;
	struct space_logs_req		 sl;
	struct journal_ingest_req	 ji;
	struct stream_route		*s;

	strlcpy(rs->rs_id, id, sizeof(rs->rs_id));
	rs->rs_began = (uint32_t)time(NULL);
	memset(&sl, 0, sizeof(sl));
	space_req_fill(r, &sl.sl_space, id);
	sl.sl_since = since;
	sl.sl_what = SPACE_LOGS_RELAY;
	memset(&ji, 0, sizeof(ji));
	strlcpy(ji.ji_owner, sl.sl_space.sq_owner, sizeof(ji.ji_owner));
	strlcpy(ji.ji_id, id, sizeof(ji.ji_id));
	ji.ji_flags = JOURNAL_INGEST_ONLY | JOURNAL_INGEST_RESTARTS;
	if ((s = stream_open(r, EP_WORKER(PROC_DOCKER),
	    EP_WORKER(PROC_JOURNAL))) == NULL)
		return -1;
	ji.ji_stream = sl.sl_stream = s->s_id;
	/* The sink first: it must know the stream before data comes. */
	if (request_send(r, PROC_JOURNAL, IMSG_JOURNAL_INGEST_REQ, -1, &ji,
	    sizeof(ji)) == -1)
		return -1;
	if (place_send(r, IMSG_SPACE_LOGS_REQ, &sl, sizeof(sl)) != NULL)
		return -1;
	return 0;
}

static void
restarts_start(struct watched *w)
{
	struct request	*r;

	if ((r = request_new_internal(w->w_uid, &restarts_op)) == NULL)
		return;
	r->r_place = PROC_DOCKER;
	if (restarts_begin(r, w->w_id, w->w_since) == -1) {
		request_fail(r, ERR_BUSY);
		return;
	}
	w->w_req = r->r_id;
}

static void
restarts_finish(struct request *r)
{
	struct restarts_state	*rs = r->r_state;
	struct watched		*w;

	if (!rs->rs_ingested || !rs->rs_place_done)
		return;
	w = watched_find(r->r_uid, rs->rs_id);
	if (w != NULL && w->w_req == r->r_id) {
		w->w_req = 0;
		if (rs->rs_whole && rs->rs_code[0] == '\0')
			w->w_since = rs->rs_began > RESTARTS_SLACK ?
			    rs->rs_began - RESTARTS_SLACK : 0;
	}
	request_end(r);
}

/* A restart kept (an event), or the store's count at the end. */
static void
restarts_one(struct request *r, enum procid from, struct imsg *imsg)
{
	struct restarts_state	*rs = r->r_state;
	struct journal_restart	 jt;

	if (imsg_get_data(imsg, &jt, sizeof(jt)) == -1 ||
	    memchr(jt.jt_at, '\0', sizeof(jt.jt_at)) == NULL ||
	    memchr(jt.jt_detail, '\0', sizeof(jt.jt_detail)) == NULL ||
	    jt.jt_pad[0] != 0 || jt.jt_pad[1] != 0 || jt.jt_new > 1 ||
	    rs->rs_ingested)
		fatalx("%s: bad restart from %s", __func__, proc_title(from));
	if (jt.jt_new)
		events_emit("restart", r->r_uid, rs->rs_id, jt.jt_detail);
	restarts_seen_set(r->r_uid, rs->rs_id, jt.jt_total);
}

static void
restarts_ingested(struct request *r, enum procid from, struct imsg *imsg)
{
	struct restarts_state	*rs = r->r_state;
	struct journal_counts	 jc;

	journal_counts_take(from, imsg, &jc);
	if (rs->rs_ingested)
		fatalx("%s: counts twice from %s", __func__, proc_title(from));
	rs->rs_ingested = 1;
	rs->rs_whole = jc.jc_status == 0;
	restarts_finish(r);
}

static void
restarts_place_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct restarts_state	*rs = r->r_state;
	struct space_done	 sd;

	space_done_take(from, imsg, &sd);
	rs->rs_place_done = 1;
	strlcpy(rs->rs_code, sd.sd_code, sizeof(rs->rs_code));
	restarts_finish(r);
}

static const struct answer_row restarts_answers[] = {
	{ IMSG_JOURNAL_RESTART, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_restart), 0, restarts_one },
	{ IMSG_JOURNAL_INGESTED, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_counts), AR_FINAL, restarts_ingested },
	{ IMSG_SPACE_DONE, PROC_BIT(PROC_DOCKER), sizeof(struct space_done),
	    AR_FINAL, restarts_place_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, 0, space_conn },
	{ 0 }
};

/* Followed by collect.c: watched too, a Docker space's only. */
static void
restarts_mark(uid_t uid, const char *id, void *arg)
{
	struct watched	*w;

	if ((w = watched_find(uid, id)) == NULL) {
		if (place_of(id) != PROC_DOCKER ||
		    (w = calloc(1, sizeof(*w))) == NULL)
			return;
		w->w_uid = uid;
		strlcpy(w->w_id, id, sizeof(w->w_id));
		TAILQ_INSERT_TAIL(&watched, w, w_entry);
	}
	w->w_seen = 1;
}

/* Each watched space in turn, a few at a time, never one twice. */
static void
restarts_tick(int fd, short ev, void *arg)
{
	struct timeval	 tv = { config_journal_interval(spaced_config()), 0 };
	struct watched	*w, *next;
	size_t		 busy = 0, n = 0;

	TAILQ_FOREACH(w, &watched, w_entry)
		w->w_seen = 0;
	collect_foreach(restarts_mark, NULL);
	TAILQ_FOREACH_SAFE(w, &watched, w_entry, next) {
		if (w->w_req != 0 && request_find(w->w_req) == NULL)
			w->w_req = 0;
		if (!w->w_seen && w->w_req == 0) {
			restarts_seen_forget(w->w_uid, w->w_id);
			TAILQ_REMOVE(&watched, w, w_entry);
			free(w);
		} else if (w->w_req != 0)
			busy++;
		else
			n++;
	}
	for (w = TAILQ_FIRST(&watched); w != NULL && n > 0 &&
	    busy < RESTARTS_PARALLEL; w = next, n--) {
		next = TAILQ_NEXT(w, w_entry);
		if (w->w_req != 0)
			continue;
		/* The next tick begins with those not collected now. */
		TAILQ_REMOVE(&watched, w, w_entry);
		TAILQ_INSERT_TAIL(&watched, w, w_entry);
		restarts_start(w);
		if (w->w_req != 0)
			busy++;
	}
	if (restarts_on)
		evtimer_add(&restarts_ev, &tv);
}

void
restarts_init(struct event_base *base)
{
	struct timeval	 tv = { config_journal_interval(spaced_config()), 0 };

	evtimer_set(&restarts_ev, restarts_tick, NULL);
	event_base_set(base, &restarts_ev);
	restarts_on = 1;
	evtimer_add(&restarts_ev, &tv);
}

void
restarts_stop(void)
{
	if (restarts_on)
		evtimer_del(&restarts_ev);
	restarts_on = 0;
}
