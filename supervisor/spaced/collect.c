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
 * collect: spaced-journal follows every gatekeeper spaced knows of, with
 * no client asking: each is collected every "journal interval" seconds
 * (spaced.conf(5), read at each turn, so a reload changes it), and once
 * more before a stop or a remove (docs/privsep.md, "Collection"); a
 * second row reads each space's own stderr, its relay's restarts.  The
 * journal keeps a line once (a gatekeeper's by its run and number, a
 * restart by the engine's time), so a collection may overlap the last
 * one and a broken one is only retried.
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

/*
 * What is collected of each followed space, a row each: where it comes
 * from, how the journal reads it, how many at once (the engine and the
 * clients come first).  The gatekeeper's log is the main row: a stop
 * waits for it, and a space gone from the place is no longer followed.
 */
enum collect_row { ROW_GATEKEEPER, ROW_RESTARTS, ROW_MAX };
static const struct collect_row_def {
	uint32_t	 cr_what;	/* SPACE_LOGS_* */
	uint32_t	 cr_flags;	/* JOURNAL_INGEST_* */
	size_t		 cr_parallel;
	uint32_t	 cr_places;	/* PROC_BIT()s of the places it reads */
	int		 cr_main;
} rows[ROW_MAX] = {
	{ SPACE_LOGS_GATEKEEPER, JOURNAL_INGEST_ONLY, 4, PLACE_BITS, 1 },
	{ SPACE_LOGS_RELAY, JOURNAL_INGEST_ONLY | JOURNAL_INGEST_RESTARTS, 2,
	    PLACE_BITS, 0 },
};
/* The log from this long before the last whole collection began. */
#define COLLECT_SLACK		5
/*
 * How long a stop or remove waits for its collection: a place that does
 * not answer must not make a space unstoppable.
 */
#define COLLECT_WAIT_MS		10000
/* Spaces followed at most: a caller has 16, this is all the host's. */
#define COLLECT_FOLLOW_MAX	4096

/* A space followed: in each row's queue, in the order of its turns. */
struct follow {
	TAILQ_ENTRY(follow)	 f_turn[ROW_MAX];
	uid_t			 f_uid;
	char			 f_id[SPACE_ID_SIZE];
	uint32_t		 f_since[ROW_MAX];	/* unix seconds; 0: all */
	uint32_t		 f_req[ROW_MAX];	/* its collection, or 0 */
};
TAILQ_HEAD(follow_queue, follow);
static struct follow_queue queues[ROW_MAX];
static size_t		 nfollows;
static struct event	 collect_ev;
static int		 collect_on;

/* A stop or remove waiting for its collection, or for COLLECT_WAIT_MS. */
#define COLLECT_WAITS_MAX	256
static struct collect_wait {
	uint32_t	 cw_waiter;	/* 0: a free slot */
	int		 cw_left;	/* its collections not yet ended */
	void		(*cw_then)(struct request *);
} waits[COLLECT_WAITS_MAX];

struct collect_state {
	char		 cs_id[SPACE_ID_SIZE];
	enum collect_row cs_row;
	uint32_t	 cs_began;	/* unix seconds */
	int		 cs_ingested;
	int		 cs_place_done;
	int		 cs_whole;	/* the journal kept all of it */
	char		 cs_code[CTL_CODE_MAX];	/* the place's, "" */
	uint32_t	 cs_waiter;	/* a stop or remove, or 0 */
};
static const size_t collect_state_size = sizeof(struct collect_state);
static const struct answer_row collect_answers[];
static const struct ctl_op row_ops[ROW_MAX] = {
	{ 0, "collect", 0, WHO_ADMIN, 300, NULL, collect_answers, NULL, NULL,
	    &collect_state_size },
	{ 0, "restarts", 0, WHO_ADMIN, 300, NULL, collect_answers, NULL,
	    NULL, &collect_state_size },
};

static struct follow *
follow_find(uid_t uid, const char *id)
{
	struct follow	*f;

	TAILQ_FOREACH(f, &queues[ROW_GATEKEEPER], f_turn[ROW_GATEKEEPER])
		if (f->f_uid == uid && strcmp(f->f_id, id) == 0)
			return f;
	return NULL;
}

void
collect_follow(uid_t uid, const char *id)
{
	struct follow	*f;
	int		 row;

	if (!space_id_valid(id) || follow_find(uid, id) != NULL)
		return;
	if (nfollows >= COLLECT_FOLLOW_MAX) {
		log_warnx("collect: %zu spaces followed: %s is collected only "
		    "when asked", nfollows, id);
		return;
	}
	if ((f = calloc(1, sizeof(*f))) == NULL) {
		log_warn("collect: %s", id);
		return;
	}
	f->f_uid = uid;
	strlcpy(f->f_id, id, sizeof(f->f_id));
	for (row = 0; row < ROW_MAX; row++)
		TAILQ_INSERT_TAIL(&queues[row], f, f_turn[row]);
	nfollows++;
	log_debug("collect: following %s of uid %u", id, (unsigned)uid);
}

void
collect_forget(uid_t uid, const char *id)
{
	struct follow	*f;
	int		 row;

	if ((f = follow_find(uid, id)) == NULL)
		return;
	for (row = 0; row < ROW_MAX; row++)
		TAILQ_REMOVE(&queues[row], f, f_turn[row]);
	nfollows--;
	free(f);
	restarts_seen_forget(uid, id);
}

/* A row of the space since since, from the place into spaced-journal. */
static int
collect_begin(struct request *r, enum collect_row row, const char *id,
    uint32_t since)
{
	struct collect_state		*cs = r->r_state;
	struct space_logs_req		 sl;
	struct journal_ingest_req	 ji;
	struct stream_route		*s;

	strlcpy(cs->cs_id, id, sizeof(cs->cs_id));
	cs->cs_row = row;
	cs->cs_began = (uint32_t)time(NULL);
	memset(&sl, 0, sizeof(sl));
	space_req_fill(r, &sl.sl_space, id);
	sl.sl_since = since;
	sl.sl_what = rows[row].cr_what;
	memset(&ji, 0, sizeof(ji));
	strlcpy(ji.ji_owner, sl.sl_space.sq_owner, sizeof(ji.ji_owner));
	strlcpy(ji.ji_id, id, sizeof(ji.ji_id));
	ji.ji_flags = rows[row].cr_flags;
	if ((s = stream_open(r, EP_WORKER(place_of(id)),
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

/* A collection of a row of uid's space id; NULL: none could start. */
static struct request *
collect_start(enum collect_row row, uid_t uid, const char *id,
    uint32_t since)
{
	struct request	*r;

	if ((r = request_new_internal(uid, &row_ops[row])) == NULL)
		return NULL;
	if (collect_begin(r, row, id, since) == 0)
		return r;
	/* The journal's ingest, if it began, ends with the cancel. */
	request_fail(r, ERR_BUSY);
	return NULL;
}

/*
 * The waiter goes on, once: its collection ended (stop its timer), or
 * the timer fired first (the collection, when it ends, finds no slot).
 */
static void
collect_go_on(uint32_t waiter, int ended)
{
	struct request	*w;
	void		(*then)(struct request *);
	size_t		 i;

	for (i = 0; i < COLLECT_WAITS_MAX; i++)
		if (waits[i].cw_waiter == waiter)
			break;
	if (i == COLLECT_WAITS_MAX || (ended && --waits[i].cw_left > 0))
		return;
	then = waits[i].cw_then;
	waits[i].cw_waiter = 0;
	if ((w = request_find(waiter)) == NULL || w->r_answered)
		return;
	if (ended)
		evtimer_del(&w->r_pause);
	else
		log_warnx("collect: request %u: no collection within %d ms: "
		    "%s goes on", waiter, COLLECT_WAIT_MS, w->r_op->op_name);
	then(w);
}

static void
collect_waited(struct request *w)
{
	collect_go_on(w->r_id, 0);
}

/* Both ends answered: the follow learns where to go on from. */
static void
collect_finish(struct request *r)
{
	struct collect_state	*cs = r->r_state;
	const struct collect_row_def *cr = &rows[cs->cs_row];
	struct follow		*f;
	uint32_t		 waiter = cs->cs_waiter;

	if (!cs->cs_ingested || !cs->cs_place_done)
		return;
	f = follow_find(r->r_uid, cs->cs_id);
	if (f != NULL && f->f_req[cs->cs_row] == r->r_id)
		f->f_req[cs->cs_row] = 0;
	if (cr->cr_main && (strcmp(cs->cs_code, ERR_GATEKEEPER_MISSING) == 0 ||
	    strcmp(cs->cs_code, ERR_SPACE_NOT_FOUND) == 0 ||
	    strcmp(cs->cs_code, ERR_SPACE_NOT_OURS) == 0)) {
		/* Nothing left to follow: a remove, or not a space of r's. */
		collect_forget(r->r_uid, cs->cs_id);
	} else if (f != NULL && cs->cs_whole && cs->cs_code[0] == '\0') {
		f->f_since[cs->cs_row] = cs->cs_began > COLLECT_SLACK ?
		    cs->cs_began - COLLECT_SLACK : 0;
	} else if (cr->cr_main && (cs->cs_code[0] != '\0' || !cs->cs_whole))
		log_warnx("collect: %s: the log did not come whole (%s): "
		    "next time", cs->cs_id,
		    cs->cs_code[0] != '\0' ? cs->cs_code : "the store");
	request_end(r);
	/* A stop or remove that waited for it goes on, whatever came. */
	if (waiter != 0)
		collect_go_on(waiter, 1);
}

/* spaced-journal's counts of one collection, checked: both collections'. */
void
journal_counts_take(enum procid from, struct imsg *imsg,
    struct journal_counts *jc)
{
	if (imsg_get_data(imsg, jc, sizeof(*jc)) == -1 ||
	    jc->jc_new > jc->jc_records || jc->jc_malformed > jc->jc_lines ||
	    (jc->jc_status != 0 && jc->jc_status != -1) ||
	    jc->jc_reserved != 0)
		fatalx("%s: bad counts from %s", __func__, proc_title(from));
}

static void
collect_ingested(struct request *r, enum procid from, struct imsg *imsg)
{
	struct collect_state	*cs = r->r_state;
	struct journal_counts	 jc;

	journal_counts_take(from, imsg, &jc);
	if (cs->cs_ingested)
		fatalx("%s: counts twice from %s", __func__, proc_title(from));
	cs->cs_ingested = 1;
	cs->cs_whole = jc.jc_status == 0;
	collect_finish(r);
}

static void
collect_place_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct collect_state	*cs = r->r_state;
	struct space_done	 sd;

	space_done_take(from, imsg, &sd);
	cs->cs_place_done = 1;
	strlcpy(cs->cs_code, sd.sd_code, sizeof(cs->cs_code));
	collect_finish(r);
}

/* A restart kept (an event), or the store's count at the end: row 2. */
static void
restarts_one(struct request *r, enum procid from, struct imsg *imsg)
{
	struct collect_state	*cs = r->r_state;
	struct journal_restart	 jt;

	if (imsg_get_data(imsg, &jt, sizeof(jt)) == -1 ||
	    memchr(jt.jt_at, '\0', sizeof(jt.jt_at)) == NULL ||
	    memchr(jt.jt_detail, '\0', sizeof(jt.jt_detail)) == NULL ||
	    jt.jt_pad[0] != 0 || jt.jt_pad[1] != 0 || jt.jt_new > 1 ||
	    cs->cs_ingested || cs->cs_row != ROW_RESTARTS)
		fatalx("%s: bad restart from %s", __func__, proc_title(from));
	if (jt.jt_new)
		events_emit("restart", r->r_uid, cs->cs_id, jt.jt_detail);
	/* A space forgotten meanwhile (a remove) gets no row to leak. */
	if (follow_find(r->r_uid, cs->cs_id) != NULL)
		restarts_seen_set(r->r_uid, cs->cs_id, jt.jt_total);
}

static const struct answer_row collect_answers[] = {
	{ IMSG_JOURNAL_RESTART, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_restart), 0, restarts_one },
	{ IMSG_JOURNAL_INGESTED, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_counts), AR_FINAL, collect_ingested },
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done),
	    AR_FINAL, collect_place_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, 0, space_conn },
	{ 0 }
};

/*
 * Before a stop or remove: r's space is collected whole, both rows (a
 * remove deletes the relay's log), then then(r).  A collection that
 * cannot start does not hold the stop up: then(r) now.
 */
void
collect_then(struct request *r, const char *id,
    void (*then)(struct request *))
{
	struct collect_state	*cs;
	struct request		*c;
	struct follow		*f;
	size_t			 i;

	collect_follow(r->r_uid, id);
	for (i = 0; i < COLLECT_WAITS_MAX; i++)
		if (waits[i].cw_waiter == 0)
			break;
	/* From where the follow got to: a stop waits for little. */
	f = follow_find(r->r_uid, id);
	if (i == COLLECT_WAITS_MAX || (c = collect_start(ROW_GATEKEEPER,
	    r->r_uid, id, f != NULL ? f->f_since[ROW_GATEKEEPER] : 0)) ==
	    NULL) {
		log_warnx("collect: %s: no collection before %s", id,
		    r->r_op->op_name);
		then(r);
		return;
	}
	cs = c->r_state;
	cs->cs_waiter = r->r_id;
	waits[i].cw_waiter = r->r_id;
	waits[i].cw_then = then;
	waits[i].cw_left = 1;
	if ((c = collect_start(ROW_RESTARTS, r->r_uid, id,
	    f != NULL ? f->f_since[ROW_RESTARTS] : 0)) != NULL) {
		cs = c->r_state;
		cs->cs_waiter = r->r_id;
		waits[i].cw_left++;
	}
	request_pause(r, COLLECT_WAIT_MS, collect_waited);
}

/*
 * One collection of the space's restarts beside the turns, unless one
 * runs: the turns take a few spaces a tick, and a create that waits
 * for its server must see it die before its wait's deadline.
 */
void
collect_restarts_now(uid_t uid, const char *id)
{
	struct follow	*f;
	struct request	*r;

	if ((f = follow_find(uid, id)) == NULL ||
	    (f->f_req[ROW_RESTARTS] != 0 &&
	    request_find(f->f_req[ROW_RESTARTS]) != NULL))
		return;
	if ((r = collect_start(ROW_RESTARTS, uid, id,
	    f->f_since[ROW_RESTARTS])) != NULL)
		f->f_req[ROW_RESTARTS] = r->r_id;
}

static size_t
collect_in_flight(enum collect_row row)
{
	struct follow	*f;
	size_t		 n = 0;

	TAILQ_FOREACH(f, &queues[row], f_turn[row])
		if (f->f_req[row] != 0)
			n++;
	return n;
}

/* Each followed space in turn, a few at a time, never one twice. */
static void
collect_row_tick(enum collect_row row)
{
	const struct collect_row_def *cr = &rows[row];
	struct follow	*f, *next;
	struct request	*r;
	size_t		 busy = collect_in_flight(row), n = nfollows;

	for (f = TAILQ_FIRST(&queues[row]); f != NULL && n > 0 &&
	    busy < cr->cr_parallel; f = next, n--) {
		next = TAILQ_NEXT(f, f_turn[row]);
		if (f->f_req[row] != 0 && request_find(f->f_req[row]) != NULL)
			continue;
		f->f_req[row] = 0;
		if ((cr->cr_places & PROC_BIT(place_of(f->f_id))) == 0)
			continue;
		/* The next tick begins with those not collected now. */
		TAILQ_REMOVE(&queues[row], f, f_turn[row]);
		TAILQ_INSERT_TAIL(&queues[row], f, f_turn[row]);
		if ((r = collect_start(row, f->f_uid, f->f_id,
		    f->f_since[row])) == NULL)
			continue;
		f->f_req[row] = r->r_id;
		busy++;
	}
}

static void
collect_tick(int fd, short ev, void *arg)
{
	struct timeval	 tv = { config_journal_interval(spaced_config()), 0 };
	int		 row;

	for (row = 0; row < ROW_MAX; row++)
		collect_row_tick(row);
	if (collect_on)
		evtimer_add(&collect_ev, &tv);
}

/* The spaces the store has records of, followed again after a start. */
static void
stores_one(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_store	 js;

	if (imsg_get_data(imsg, &js, sizeof(js)) == -1 ||
	    memchr(js.jst_id, '\0', sizeof(js.jst_id)) == NULL ||
	    !space_id_valid(js.jst_id) || js.jst_pad[0] != 0 ||
	    js.jst_pad[1] != 0 || js.jst_pad[2] != 0)
		fatalx("%s: bad store from %s", __func__, proc_title(from));
	collect_follow(js.jst_uid, js.jst_id);
}

static void
stores_end(struct request *r, enum procid from, struct imsg *imsg)
{
	log_info("collect: following %zu spaces the journal knows", nfollows);
	request_end(r);
}

static const struct answer_row stores_answers[] = {
	{ IMSG_JOURNAL_STORE, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_store), 0, stores_one },
	{ IMSG_JOURNAL_STORES_END, PROC_BIT(PROC_JOURNAL), 0, AR_FINAL,
	    stores_end },
	{ 0 }
};
static const struct ctl_op stores_op = {
	0, "stores", 0, WHO_ADMIN, 60, NULL, stores_answers, NULL, NULL, NULL
};

void
collect_init(struct event_base *base)
{
	struct timeval		 tv = { config_journal_interval(spaced_config()), 0 };
	struct journal_stores_req jr;
	struct request		*r;
	int			 row;

	for (row = 0; row < ROW_MAX; row++)
		TAILQ_INIT(&queues[row]);
	memset(&jr, 0, sizeof(jr));
	strlcpy(jr.jsr_install, spaced_config()->sc_install_id,
	    sizeof(jr.jsr_install));
	if ((r = request_new_internal(0, &stores_op)) == NULL ||
	    request_send(r, PROC_JOURNAL, IMSG_JOURNAL_STORES_REQ, -1, &jr,
	    sizeof(jr)) == -1)
		fatalx("%s: the journal's stores", __func__);

	evtimer_set(&collect_ev, collect_tick, NULL);
	event_base_set(base, &collect_ev);
	collect_on = 1;
	evtimer_add(&collect_ev, &tv);
}

void
collect_stop(void)
{
	if (collect_on)
		evtimer_del(&collect_ev);
	collect_on = 0;
}
