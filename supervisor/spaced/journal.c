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
 * journal: the gatekeeper's log goes from the place to spaced-journal,
 * unread by spaced; once both are done, the journal's records go to the
 * client (docs/notes/spaced-operations.md).
 */

#include <sys/types.h>

#include <string.h>

#include "ctl_check.h"
#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_parse.h"
#include "spaced.h"

struct journal_state {
	int	 jr_ingested;	/* the journal has the log */
	int	 jr_place_done;	/* the place sent it whole */
	int	 jr_read;	/* READ_REQ sent */
	int	 jr_failed;	/* the store did not take it */
	int	 jr_verified;	/* a VERIFIED came */
	uint32_t jr_flags;
	uint32_t jr_max;
	uint32_t jr_sent;
	uint64_t jr_from;
	uint64_t jr_records;	/* in the store, from INGESTED */
	/* The gatekeeper is gone: its records are read from the store. */
	int	 jr_gone;
	struct space_done jr_gone_done;
};
const size_t journal_state_size = sizeof(struct journal_state);

static int
valid_string(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

const char *
journal_start(struct request *r, struct imsg *imsg)
{
	struct journal_state	*js = r->r_state;
	struct ctl_journal		 cj;
	struct space_logs_req		 sl;
	struct journal_ingest_req	 ji;
	struct stream_route		*s;

	if (imsg_get_data(imsg, &cj, sizeof(cj)) == -1 ||
	    !ctl_journal_valid(&cj))
		return ERR_BAD_REQUEST;
	js->jr_from = cj.cj_from;
	js->jr_max = cj.cj_max == 0 ? JOURNAL_READ_MAX : cj.cj_max;
	js->jr_flags = cj.cj_flags;
	collect_follow(r->r_uid, cj.cj_id);

	memset(&sl, 0, sizeof(sl));
	space_req_fill(r, &sl.sl_space, cj.cj_id);
	memset(&ji, 0, sizeof(ji));
	strlcpy(ji.ji_owner, sl.sl_space.sq_owner, sizeof(ji.ji_owner));
	strlcpy(ji.ji_id, cj.cj_id, sizeof(ji.ji_id));
	if ((s = stream_open(r, EP_WORKER(place_of(cj.cj_id)),
	    EP_WORKER(PROC_JOURNAL))) == NULL)
		return ERR_BUSY;
	ji.ji_stream = sl.sl_stream = s->s_id;
	/* The sink first: it must know the stream before data comes. */
	if (request_send(r, PROC_JOURNAL, IMSG_JOURNAL_INGEST_REQ, -1, &ji,
	    sizeof(ji)) == -1)
		return ERR_WORKER_UNAVAILABLE;
	(void)place_send_or_refuse(r, IMSG_SPACE_LOGS_REQ, &sl, sizeof(sl));
	return NULL;
}

/* Both ends are done with the log: the records, from the journal. */
static void
journal_read_maybe(struct request *r)
{
	struct journal_state	*js = r->r_state;
	struct journal_read_req	 jq;

	if (!js->jr_ingested || !js->jr_place_done ||
	    js->jr_read)
		return;
	/*
	 * A space removed (or its gatekeeper): what was collected before
	 * stays readable; an id the store never heard of fails as before.
	 */
	if (js->jr_gone && js->jr_records == 0) {
		request_data(r, &js->jr_gone_done, sizeof(js->jr_gone_done));
		request_fail(r, js->jr_gone_done.sd_code);
		return;
	}
	/* A verify walks what the store holds, whatever the log did. */
	if (js->jr_failed && !js->jr_gone &&
	    !(js->jr_flags & JOURNAL_VERIFY)) {
		request_refuse(r, ERR_INTERNAL, "spaced-journal could not keep "
		    "the records: see its log");
		return;
	}
	js->jr_read = 1;
	memset(&jq, 0, sizeof(jq));
	jq.jq_from = js->jr_from;
	jq.jq_max = js->jr_max;
	jq.jq_flags = js->jr_flags;
	if (request_send(r, PROC_JOURNAL, IMSG_JOURNAL_READ_REQ, -1, &jq,
	    sizeof(jq)) == -1)
		request_refuse(r, ERR_WORKER_UNAVAILABLE, "spaced-journal is "
		    "not there");
}

static void
journal_counts_check(const struct journal_counts *jc, enum procid from)
{
	if (jc->jc_new > jc->jc_records || jc->jc_malformed > jc->jc_lines ||
	    (jc->jc_status != 0 && jc->jc_status != -1) ||
	    jc->jc_reserved != 0)
		fatalx("journal: bad counts from %s", proc_title(from));
}

static void
journal_ingested(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_state	*js = r->r_state;
	struct journal_counts	 jc;

	if (imsg_get_data(imsg, &jc, sizeof(jc)) == -1)
		fatalx("%s: bad counts from %s", __func__, proc_title(from));
	journal_counts_check(&jc, from);
	if (js->jr_ingested)
		fatalx("journal: %s ingested twice", proc_title(from));
	js->jr_ingested = 1;
	/*
	 * A log that did not come whole: the place's DONE says why, with a
	 * code.  A store that failed is said once the place is done.
	 */
	js->jr_failed = jc.jc_status != 0;
	js->jr_records = jc.jc_records;
	journal_read_maybe(r);
}

static void
journal_place_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_state	*js = r->r_state;
	struct space_done	 sd;

	space_done_take(from, imsg, &sd);
	if (strcmp(sd.sd_code, ERR_GATEKEEPER_MISSING) == 0 ||
	    strcmp(sd.sd_code, ERR_SPACE_NOT_FOUND) == 0) {
		js->jr_gone = 1;
		js->jr_gone_done = sd;
	} else if (sd.sd_code[0] != '\0') {
		request_data(r, &sd, sizeof(sd));
		request_fail(r, sd.sd_code);
		return;
	}
	js->jr_place_done = 1;
	journal_read_maybe(r);
}

static void
journal_record(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_state	*js = r->r_state;
	struct journal_entry	 je;

	if (imsg_get_data(imsg, &je, sizeof(je)) == -1 || !js->jr_read ||
	    !valid_string(je.je_at, sizeof(je.je_at)) ||
	    !valid_string(je.je_listener, sizeof(je.je_listener)) ||
	    !valid_string(je.je_host, sizeof(je.je_host)) ||
	    !valid_string(je.je_decision, sizeof(je.je_decision)) ||
	    je.je_port > 65535 || je.je_pad[0] != 0 || je.je_pad[1] != 0 ||
	    je.je_count == 0)
		fatalx("%s: bad record from %s", __func__, proc_title(from));
	if (++js->jr_sent > js->jr_max)
		fatalx("%s: %s sent more than was asked", __func__,
		    proc_title(from));
	request_data(r, &je, sizeof(je));
}

static void
journal_verified(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_state	*js = r->r_state;
	struct journal_verdict	 jv;

	if (imsg_get_data(imsg, &jv, sizeof(jv)) == -1 || !js->jr_read ||
	    !(js->jr_flags & JOURNAL_VERIFY) || js->jr_verified ||
	    memchr(jv.jv_reason, '\0', sizeof(jv.jv_reason)) == NULL ||
	    (jv.jv_status != 0 && jv.jv_status != -1))
		fatalx("%s: bad verdict from %s", __func__, proc_title(from));
	js->jr_verified = 1;
	request_data(r, &jv, sizeof(jv));
}

static void
journal_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct journal_state	*js = r->r_state;
	struct journal_counts	 jc;

	if (imsg_get_data(imsg, &jc, sizeof(jc)) == -1)
		fatalx("%s: bad counts from %s", __func__, proc_title(from));
	journal_counts_check(&jc, from);
	if (!js->jr_read || jc.jc_sent != js->jr_sent ||
	    ((js->jr_flags & JOURNAL_VERIFY) != 0) != js->jr_verified ||
	    jc.jc_from != js->jr_from)
		fatalx("%s: %s: done does not match what it sent", __func__,
		    proc_title(from));
	request_data(r, &jc, sizeof(jc));
	request_end(r);
}

const struct answer_row journal_answers[] = {
	{ IMSG_JOURNAL_INGESTED, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_counts), 0, journal_ingested },
	{ IMSG_JOURNAL_RECORD, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_entry), 0, journal_record },
	{ IMSG_JOURNAL_DONE, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_counts), AR_FINAL, journal_done },
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done),
	    AR_FINAL, journal_place_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, 0, space_conn },
	{ IMSG_JOURNAL_VERIFIED, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_verdict), 0, journal_verified },
	{ 0 }
};
