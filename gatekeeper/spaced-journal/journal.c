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
 * The journal's requests: an ingest keeps what follows the store's
 * cursor in a gatekeeper's log (each line carries its run and number),
 * a read streams records back from the store, a verify walks its chain
 * (store.c, verify.c).  One store a space and an owner, the owner
 * spaced's and in its name, so one user's records are never another's.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "labels.h"
#include "log.h"
#include "proc.h"
#include "stream.h"
#include "journal_env.h"
#include "journal_parse.h"
#include "journal_worker.h"
#include "store.h"

struct ingest {
	TAILQ_ENTRY(ingest)	 in_entry;
	uint32_t		 in_peerid;
	struct stream_rx	 in_rx;
	int			 in_rx_open;
	char			 in_base[STORE_NAME_MAX];
	struct store		*in_store;	/* shared by its base's ingests */
	int			 in_store_open;
	struct journal_splitter	 in_split;
	struct journal_counts	 in_counts;
	int			 in_ingested;
	int			 in_only;	/* a collection: no read follows */
	int			 in_restarts;	/* the space's stderr: restarts */
	struct imsgev		*in_iev;
};

/*
 * One open store a base, whoever ingests into it: a collection and a
 * client's journal may run at once, and two writers of one chain would
 * each link to a record the other made.
 */
struct shared_store {
	TAILQ_ENTRY(shared_store) ss_entry;
	int			 ss_refs;
	struct store		 ss_store;
};
static TAILQ_HEAD(, shared_store) shared_stores =
    TAILQ_HEAD_INITIALIZER(shared_stores);

static struct store *
shared_open(const char *base, const uint8_t *key)
{
	struct shared_store	*ss;

	TAILQ_FOREACH(ss, &shared_stores, ss_entry)
		if (strcmp(ss->ss_store.st_base, base) == 0) {
			ss->ss_refs++;
			return &ss->ss_store;
		}
	if ((ss = calloc(1, sizeof(*ss))) == NULL)
		fatal("%s", __func__);
	(void)store_open(&ss->ss_store, base, key, &store_limits_default);
	ss->ss_refs = 1;
	TAILQ_INSERT_TAIL(&shared_stores, ss, ss_entry);
	return &ss->ss_store;
}

static void
shared_close(struct store *st)
{
	struct shared_store	*ss;

	TAILQ_FOREACH(ss, &shared_stores, ss_entry)
		if (&ss->ss_store == st)
			break;
	if (ss == NULL)
		fatalx("%s: a store nobody opened", __func__);
	if (--ss->ss_refs > 0)
		return;
	TAILQ_REMOVE(&shared_stores, ss, ss_entry);
	/* A cancelled ingest's records go to disk too: they are kept. */
	(void)store_commit(&ss->ss_store);
	store_close(&ss->ss_store);
	free(ss);
}

static struct ingest *
ingest_find(uint32_t peerid)
{
	struct ingest	*in;

	TAILQ_FOREACH(in, &env->je_ingests, in_entry)
		if (in->in_peerid == peerid)
			return in;
	return NULL;
}

static void
ingest_free(struct ingest *in)
{
	TAILQ_REMOVE(&env->je_ingests, in, in_entry);
	if (in->in_rx_open)
		worker_stream_unregister(in->in_rx.sr_id);
	if (in->in_store_open)
		shared_close(in->in_store);
	free(in);
}

/* Lines the log lost before this one (its head rotated away): a record. */
static void
ingest_gap(struct ingest *in, const struct journal_entry *next,
    const struct journal_cursor *cur)
{
	struct store		*st = in->in_store;
	struct journal_entry	 je;
	uint64_t		 lost;

	if (!st->st_cursor)
		lost = cur->jc_seq;
	else if (cur->jc_boot == st->st_boot)
		lost = cur->jc_seq - st->st_gkseq - 1;
	else
		lost = cur->jc_seq;	/* a new run: its first lines */
	if (lost == 0)
		return;
	memset(&je, 0, sizeof(je));
	strlcpy(je.je_at, next->je_at, sizeof(je.je_at));
	strlcpy(je.je_listener, "journal", sizeof(je.je_listener));
	strlcpy(je.je_decision, CHAIN_GAP, sizeof(je.je_decision));
	je.je_count = lost > UINT32_MAX ? UINT32_MAX : (uint32_t)lost;
	in->in_counts.jc_dropped += lost;
	if (store_add(st, &je, st->st_cursor ? st->st_boot : 0,
	    st->st_cursor ? st->st_gkseq : 0) == 0)
		in->in_counts.jc_new++;
}

static void
ingest_line(const char *line, size_t len, void *arg)
{
	struct ingest		*in = arg;
	struct store		*st = in->in_store;
	struct journal_entry	 je;
	struct journal_cursor	 cur;
	const char		*errstr;

	in->in_counts.jc_lines++;
	if (journal_line_parse(line, len, &je, &cur, &errstr) == -1) {
		in->in_counts.jc_malformed++;
		return;
	}
	/* Kept already: the log comes whole each time, in order. */
	if (st->st_cursor && (cur.jc_boot < st->st_boot ||
	    (cur.jc_boot == st->st_boot && cur.jc_seq <= st->st_gkseq)))
		return;
	ingest_gap(in, &je, &cur);
	if (store_add(st, &je, cur.jc_boot, cur.jc_seq) == -1) {
		in->in_counts.jc_dropped++;
		return;
	}
	in->in_counts.jc_new++;
}

/* A line of the space's stderr: a restart of its relay's, or nothing. */
static void
ingest_restart_line(const char *line, size_t len, void *arg)
{
	struct ingest		*in = arg;
	struct journal_restart	 jt;

	in->in_counts.jc_lines++;
	switch (restart_keep(in->in_store, line, len, &jt)) {
	case RESTART_NEW:
		in->in_counts.jc_new++;
		imsg_compose_event(in->in_iev, IMSG_JOURNAL_RESTART,
		    in->in_peerid, 0, -1, &jt, sizeof(jt));
		break;
	case RESTART_NOT_ONE:
		in->in_counts.jc_malformed++;
		break;
	case RESTART_KEPT_BEFORE:
		break;
	case RESTART_TOO_SOON:
	case RESTART_NOT_KEPT:
		in->in_counts.jc_dropped++;
		break;
	}
}

static journal_line_fn
ingest_line_fn(const struct ingest *in)
{
	return in->in_restarts ? ingest_restart_line : ingest_line;
}

/* The store's count of restarts, for show, once an ingest of them ends. */
static void
ingest_restart_total(struct imsgev *iev, struct ingest *in)
{
	struct journal_restart	 jt;

	memset(&jt, 0, sizeof(jt));
	jt.jt_total = in->in_store->st_restarts;
	imsg_compose_event(iev, IMSG_JOURNAL_RESTART, in->in_peerid, 0, -1,
	    &jt, sizeof(jt));
}

static void
ingest_end(struct imsgev *iev, struct ingest *in)
{
	struct journal_counts	*jc = &in->in_counts;

	worker_stream_unregister(in->in_rx.sr_id);
	in->in_rx_open = 0;
	journal_split_end(&in->in_split, ingest_line_fn(in), in);
	jc->jc_dropped += in->in_split.js_dropped;
	/* Records kept so far stay: the cursor says where the next begin. */
	if (in->in_rx.sr_status != 0 || store_commit(in->in_store) == -1)
		jc->jc_status = -1;
	if (in->in_store->st_broken != NULL)
		log_warnx("journal: %s: nothing more kept: %s", in->in_base,
		    in->in_store->st_broken);
	jc->jc_records = in->in_store->st_next;
	if (jc->jc_new > jc->jc_records)
		jc->jc_new = jc->jc_records;
	in->in_ingested = 1;
	if (jc->jc_new > 0 || jc->jc_malformed > 0 || jc->jc_dropped > 0)
		log_info("journal: %s: %llu lines, %llu new, %llu malformed, "
		    "%llu dropped", in->in_base,
		    (unsigned long long)jc->jc_lines,
		    (unsigned long long)jc->jc_new,
		    (unsigned long long)jc->jc_malformed,
		    (unsigned long long)jc->jc_dropped);
	if (in->in_restarts)
		ingest_restart_total(iev, in);
	imsg_compose_event(iev, IMSG_JOURNAL_INGESTED, in->in_peerid, 0, -1,
	    jc, sizeof(*jc));
	if (in->in_only)
		ingest_free(in);
}

static void
ingest_stream(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct ingest	*in = arg;
	const uint8_t	*data;
	size_t		 len;

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (stream_rx_data(&in->in_rx, imsg, &data, &len) == -1)
			fatal("%s: data", __func__);
		journal_split(&in->in_split, data, len, ingest_line_fn(in), in);
		if (stream_rx_consumed(&in->in_rx, &iev->ibuf, len) == -1)
			fatal("%s: credit", __func__);
		imsg_event_add(iev);
		break;
	case IMSG_STREAM_END:
		if (stream_rx_end(&in->in_rx, imsg) == -1)
			fatal("%s: end", __func__);
		ingest_end(iev, in);
		break;
	default:
		fatalx("%s: message %u on a log stream", __func__,
		    imsg_get_type(imsg));
	}
}

void
journal_ingest(struct imsgev *iev, struct imsg *imsg)
{
	struct journal_ingest_req	 ji;
	struct ingest			*in;
	const uint8_t			*key;
	const char			*colon;
	int				 n;

	if (imsg_get_data(imsg, &ji, sizeof(ji)) == -1 ||
	    memchr(ji.ji_owner, '\0', sizeof(ji.ji_owner)) == NULL ||
	    memchr(ji.ji_id, '\0', sizeof(ji.ji_id)) == NULL ||
	    !space_owner_valid(ji.ji_owner) || !space_id_valid(ji.ji_id) ||
	    ji.ji_stream == 0 || (ji.ji_flags & ~(JOURNAL_INGEST_ONLY |
	    JOURNAL_INGEST_RESTARTS)) != 0 ||
	    ((ji.ji_flags & JOURNAL_INGEST_RESTARTS) != 0 &&
	    (ji.ji_flags & JOURNAL_INGEST_ONLY) == 0) ||
	    ji.ji_pad[0] != 0 || ji.ji_pad[1] != 0)
		fatalx("%s: bad ingest request", __func__);
	if (ingest_find(imsg_get_peerid(imsg)) != NULL)
		fatalx("%s: request %u ingests twice", __func__,
		    imsg_get_peerid(imsg));
	if ((in = calloc(1, sizeof(*in))) == NULL)
		fatal("%s", __func__);
	in->in_peerid = imsg_get_peerid(imsg);
	in->in_only = (ji.ji_flags & JOURNAL_INGEST_ONLY) != 0;
	in->in_restarts = (ji.ji_flags & JOURNAL_INGEST_RESTARTS) != 0;
	in->in_iev = iev;
	/* Hex, ':' and digits: "<install>-<uid>-<id>" names one owner. */
	colon = strchr(ji.ji_owner, ':');
	n = snprintf(in->in_base, sizeof(in->in_base), "%.*s-%s-%s",
	    (int)(colon - ji.ji_owner), ji.ji_owner, colon + 1, ji.ji_id);
	if (n < 0 || (size_t)n >= sizeof(in->in_base))
		fatalx("%s: store name", __func__);
	journal_split_init(&in->in_split);
	TAILQ_INSERT_TAIL(&env->je_ingests, in, in_entry);
	if ((key = store_key()) == NULL)
		fatalx("%s: the store's key cannot be made", __func__);
	in->in_store = shared_open(in->in_base, key);
	in->in_store_open = 1;
	stream_rx_init(&in->in_rx, ji.ji_stream);
	/*
	 * Only spaced's bug: each stream here is one of its table's, let go
	 * with its request (ingest_free), and its ids are never reused soon.
	 */
	if (worker_stream_register(ji.ji_stream, ingest_stream, in) == -1)
		fatalx("%s: stream %u", __func__, ji.ji_stream);
	in->in_rx_open = 1;
}

/* Up to max records from seq from on, straight from the files. */
static void
read_records(struct imsgev *iev, struct ingest *in, uint64_t from,
    uint32_t max, struct journal_counts *jc)
{
	struct store_iter	 si;
	struct chain_rec	 cr;
	const char		*errstr;
	int			 rv;

	if (store_iter_open(&si, in->in_base, from) == -1)
		return;
	while (jc->jc_sent < max && (rv = store_iter_next(&si)) != 0) {
		if (rv == -1 || si.si_cut ||
		    chain_scan(si.si_line, si.si_len, &cr, &errstr) == -1) {
			jc->jc_malformed++;
			continue;
		}
		if (cr.cr_entry.je_seq < from)
			continue;
		imsg_compose_event(iev, IMSG_JOURNAL_RECORD, in->in_peerid, 0,
		    -1, &cr.cr_entry, sizeof(cr.cr_entry));
		jc->jc_sent++;
	}
	store_iter_close(&si);
}

void
journal_read(struct imsgev *iev, struct imsg *imsg)
{
	struct journal_read_req	 jq;
	struct journal_counts	 jc;
	struct journal_verdict	 jv;
	struct ingest		*in;

	if (imsg_get_data(imsg, &jq, sizeof(jq)) == -1 || jq.jq_max == 0 ||
	    jq.jq_max > JOURNAL_READ_MAX || (jq.jq_flags & ~JOURNAL_VERIFY))
		fatalx("%s: bad read request", __func__);
	if ((in = ingest_find(imsg_get_peerid(imsg))) == NULL ||
	    !in->in_ingested)
		fatalx("%s: read for request %u, which ingested nothing",
		    __func__, imsg_get_peerid(imsg));
	jc = in->in_counts;
	jc.jc_from = jq.jq_from;
	jc.jc_malformed = 0;
	if (jq.jq_flags & JOURNAL_VERIFY) {
		store_verify(in->in_base, in->in_store->st_key, &jv);
		imsg_compose_event(iev, IMSG_JOURNAL_VERIFIED, in->in_peerid,
		    0, -1, &jv, sizeof(jv));
	} else
		read_records(iev, in, jq.jq_from, jq.jq_max, &jc);
	jc.jc_malformed += in->in_counts.jc_malformed;
	imsg_compose_event(iev, IMSG_JOURNAL_DONE, in->in_peerid, 0, -1, &jc,
	    sizeof(jc));
	ingest_free(in);
}

int
journal_cancel(uint32_t peerid)
{
	struct ingest	*in;

	if ((in = ingest_find(peerid)) == NULL)
		return journal_server_cancel(peerid);
	ingest_free(in);
	return 1;
}

void
journal_stores(struct imsgev *iev, struct imsg *imsg)
{
	struct journal_stores_req	 jr;
	struct journal_store		 js;
	struct dirent			*de;
	DIR				*dir;
	uint32_t			 n = 0;

	if (imsg_get_data(imsg, &jr, sizeof(jr)) == -1 ||
	    memchr(jr.jsr_install, '\0', sizeof(jr.jsr_install)) == NULL ||
	    !install_id_valid(jr.jsr_install))
		fatalx("%s: bad request", __func__);
	if ((dir = opendir(".")) == NULL)
		log_warn("%s: the store", __func__);
	while (dir != NULL && n < JOURNAL_STORES_MAX &&
	    (de = readdir(dir)) != NULL) {
		memset(&js, 0, sizeof(js));
		if (journal_tip_name(de->d_name, jr.jsr_install, &js.jst_uid,
		    js.jst_id) == -1)
			continue;
		imsg_compose_event(iev, IMSG_JOURNAL_STORE,
		    imsg_get_peerid(imsg), 0, -1, &js, sizeof(js));
		n++;
	}
	if (dir != NULL)
		closedir(dir);
	imsg_compose_event(iev, IMSG_JOURNAL_STORES_END, imsg_get_peerid(imsg),
	    0, -1, NULL, 0);
}

/*
 * A review or an apply, from spaced (never from a log: journal_parse
 * refuses the listener there), into the space's chain now.  An ingest
 * of the same store under way shares it (shared_open): the chain has
 * one writer, and that ingest's commit writes this record too.
 */
void
journal_codeout(struct imsg *imsg)
{
	struct journal_codeout	 jo;
	struct journal_entry	 je;
	struct store		*sp;
	struct timespec		 ts;
	struct tm		 tm;
	const uint8_t		*key;
	const char		*colon, *errstr;
	char			 base[STORE_NAME_MAX], day[32];
	int			 n;

	if (imsg_get_data(imsg, &jo, sizeof(jo)) == -1 ||
	    memchr(jo.jo_owner, '\0', sizeof(jo.jo_owner)) == NULL ||
	    memchr(jo.jo_id, '\0', sizeof(jo.jo_id)) == NULL ||
	    !space_owner_valid(jo.jo_owner) || !space_id_valid(jo.jo_id))
		fatalx("%s: bad code-out record", __func__);
	memset(&je, 0, sizeof(je));
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(je.je_at, sizeof(je.je_at), "%.19s.%03dZ", day,
	    (int)(ts.tv_nsec / 1000000));
	strlcpy(je.je_listener, "code-out", sizeof(je.je_listener));
	memcpy(je.je_host, jo.jo_host, sizeof(je.je_host));
	memcpy(je.je_decision, jo.jo_decision, sizeof(je.je_decision));
	je.je_count = jo.jo_count > 0 ? jo.jo_count : 1;
	/* A branch's name may hold what the chain does not: not kept. */
	if (journal_entry_valid(&je, &errstr) == -1) {
		log_warnx("journal: a code-out record not kept: %s", errstr);
		return;
	}
	colon = strchr(jo.jo_owner, ':');
	n = snprintf(base, sizeof(base), "%.*s-%s-%s",
	    (int)(colon - jo.jo_owner), jo.jo_owner, colon + 1, jo.jo_id);
	if (n < 0 || (size_t)n >= sizeof(base))
		fatalx("%s: store name", __func__);
	if ((key = store_key()) == NULL)
		fatalx("%s: the store's key cannot be made", __func__);
	sp = shared_open(base, key);
	if (store_add(sp, &je, sp->st_cursor ? sp->st_boot : 0,
	    sp->st_cursor ? sp->st_gkseq : 0) == -1)
		log_warnx("journal: %s: the code-out record was not kept", base);
	shared_close(sp);
}
