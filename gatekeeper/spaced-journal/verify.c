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
 * spacectl journal --verify: walks a space's chain across its files,
 * oldest first, and names the first line that does not match (its
 * number, its MAC, its place), then checks the head against the last
 * dropped record and the end against the tip, whose restart count and
 * cursor must be those of the relay's restart records walked.
 */

#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "store.h"

struct walk {
	const uint8_t		*w_key;
	uint8_t			 w_prev[CHAIN_MAC_LEN];
	uint64_t		 w_next;	/* the seq the next must have */
	uint64_t		 w_first;
	uint64_t		 w_kept;	/* the last dropped record's */
	int			 w_started, w_dropped;
	uint64_t		 w_restarts;	/* "server" records walked */
	char			 w_rat[JOURNAL_AT_LEN + 1];	/* the last's */
	struct journal_verdict	*w_jv;
};

static void
broken(struct journal_verdict *jv, uint64_t seq, const char *fmt, ...)
{
	va_list	 ap;

	if (jv->jv_status != 0)
		return;
	jv->jv_status = -1;
	jv->jv_seq = seq;
	va_start(ap, fmt);
	vsnprintf(jv->jv_reason, sizeof(jv->jv_reason), fmt, ap);
	va_end(ap);
}

/* The oldest line: the anchor, or the segment record's own MAC before. */
static int
walk_start(struct walk *w, const struct chain_rec *cr, const char *base)
{
	const struct journal_entry	*je = &cr->cr_entry;

	w->w_started = 1;
	w->w_first = je->je_seq;
	if (strcmp(je->je_listener, "journal") == 0 &&
	    strcmp(je->je_decision, CHAIN_SEGMENT) == 0 && je->je_seq > 0) {
		if (chain_unhex(je->je_host, strlen(je->je_host),
		    w->w_prev) == -1) {
			broken(w->w_jv, je->je_seq, "record %llu: not a "
			    "segment record", (unsigned long long)je->je_seq);
			return -1;
		}
		w->w_next = je->je_seq;
		return 0;
	}
	chain_anchor(w->w_key, base, w->w_prev);
	w->w_next = 0;
	return 0;
}

static int
walk_line(struct walk *w, const char *line, size_t len, const char *base)
{
	struct journal_verdict	*jv = w->w_jv;
	struct chain_rec	 cr;
	const char		*errstr;

	if (chain_scan(line, len, &cr, &errstr) == -1) {
		broken(jv, w->w_next, "the line after record %llu is no "
		    "record", (unsigned long long)w->w_next - 1);
		return -1;
	}
	if (!w->w_started && walk_start(w, &cr, base) == -1)
		return -1;
	if (cr.cr_entry.je_seq != w->w_next) {
		broken(jv, cr.cr_entry.je_seq, "record %llu stands where "
		    "record %llu should (one removed, moved or added)",
		    (unsigned long long)cr.cr_entry.je_seq,
		    (unsigned long long)w->w_next);
		return -1;
	}
	if (!chain_check(w->w_key, w->w_prev, line, len)) {
		broken(jv, cr.cr_entry.je_seq, "record %llu does not match "
		    "its MAC (edited, or not made here)",
		    (unsigned long long)cr.cr_entry.je_seq);
		return -1;
	}
	/* The first seq kept, as store_rotate writes it (tip_parse.c's). */
	if (strcmp(cr.cr_entry.je_listener, "journal") == 0 &&
	    strcmp(cr.cr_entry.je_decision, CHAIN_DROPPED) == 0) {
		if (store_number(cr.cr_entry.je_host,
		    strlen(cr.cr_entry.je_host), &w->w_kept) == -1) {
			broken(jv, cr.cr_entry.je_seq, "record %llu drops "
			    "files but its first kept is no number",
			    (unsigned long long)cr.cr_entry.je_seq);
			return -1;
		}
		w->w_dropped = 1;
	}
	if (strcmp(cr.cr_entry.je_listener, "server") == 0) {
		w->w_restarts++;
		strlcpy(w->w_rat, cr.cr_entry.je_at, sizeof(w->w_rat));
	}
	memcpy(w->w_prev, cr.cr_mac, sizeof(w->w_prev));
	w->w_next++;
	jv->jv_records++;
	return 0;
}

/*
 * The tip's restart count is every restart record kept, its cursor the
 * last one's time: the walk's, or more once old files went (a dropped
 * record says so), with the cursor then free when none is left.
 */
static void
walk_restarts(struct walk *w, const struct store_tip *tp)
{
	if (w->w_dropped ? tp->stp_restarts < w->w_restarts :
	    tp->stp_restarts != w->w_restarts)
		broken(w->w_jv, tp->stp_seq, "the tip counts %llu restarts, "
		    "the records %llu", (unsigned long long)tp->stp_restarts,
		    (unsigned long long)w->w_restarts);
	else if ((w->w_restarts > 0 || !w->w_dropped) &&
	    strcmp(tp->stp_rat, w->w_rat) != 0)
		broken(w->w_jv, tp->stp_seq, "the tip's last restart (%s) is "
		    "not the last record's (%s)", tp->stp_rat[0] != '\0' ?
		    tp->stp_rat : "none", w->w_rat[0] != '\0' ? w->w_rat :
		    "none");
}

static void
walk_end(struct walk *w, const char *base)
{
	struct journal_verdict	*jv = w->w_jv;
	struct store_tip	 tp;
	int			 rv;

	jv->jv_first = w->w_first;
	/* The oldest files go only with a dropped record that says so. */
	if (w->w_started && w->w_first != (w->w_dropped ? w->w_kept : 0))
		broken(jv, w->w_first, "records before %llu are missing (a "
		    "file removed)", (unsigned long long)w->w_first);
	if ((rv = store_tip_read(base, &tp)) == -1)
		broken(jv, w->w_next, "the tip is unreadable");
	else if (rv == 0 && w->w_started)
		broken(jv, w->w_next, "the tip is missing");
	else if (rv == 1 && !w->w_started)
		broken(jv, tp.stp_seq, "records 0 to %llu are missing",
		    (unsigned long long)tp.stp_seq);
	else if (rv == 1 && tp.stp_seq + 1 > w->w_next)
		broken(jv, w->w_next, "records %llu to %llu are missing (the "
		    "store ends at %llu)", (unsigned long long)w->w_next,
		    (unsigned long long)tp.stp_seq,
		    (unsigned long long)w->w_next - 1);
	else if (rv == 1 && tp.stp_seq + 1 < w->w_next)
		broken(jv, tp.stp_seq + 1, "record %llu is past the last one "
		    "kept", (unsigned long long)tp.stp_seq + 1);
	else if (rv == 1 && memcmp(tp.stp_mac, w->w_prev,
	    sizeof(tp.stp_mac)) != 0)
		broken(jv, tp.stp_seq, "record %llu is not the one kept last",
		    (unsigned long long)tp.stp_seq);
	else if (rv == 1)
		walk_restarts(w, &tp);
}

void
store_verify(const char *base, const uint8_t *key,
    struct journal_verdict *jv)
{
	struct store_iter	 si;
	struct walk		 w;
	int			 rv;

	memset(jv, 0, sizeof(*jv));
	memset(&w, 0, sizeof(w));
	w.w_key = key;
	w.w_jv = jv;
	if (store_iter_open(&si, base, 0) == -1) {
		broken(jv, 0, "the store cannot be listed");
		return;
	}
	jv->jv_segments = si.si_files.sf_n;
	while ((rv = store_iter_next(&si)) != 0) {
		if (rv == -1) {
			broken(jv, w.w_next, "the line after record %llu is "
			    "too long", (unsigned long long)w.w_next - 1);
			break;
		}
		if (si.si_cut) {
			broken(jv, w.w_next, "record %llu is cut short",
			    (unsigned long long)w.w_next);
			break;
		}
		if (walk_line(&w, si.si_line, si.si_len, base) == -1)
			break;
	}
	store_iter_close(&si);
	if (jv->jv_status == 0)
		walk_end(&w, base);
}
