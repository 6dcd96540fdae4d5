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
 * Code out: the review's records, from the quarantine packed several a
 * message, each checked, counted and sent on to the client.
 */

#include <sys/types.h>

#include <stdio.h>
#include <string.h>

#include "ctl_proto.h"
#include "git_parse.h"
#include "git_proto.h"
#include "log.h"
#include "place_proto.h"
#include "review_pack.h"
#include "spaced.h"
#include "codeout.h"

/* A record packed for the client (git_proto.h says how). */
void
review_send(struct request *r, const struct git_review_rec *rr)
{
	static uint8_t	 buf[sizeof(*rr) + 1];
	size_t		 len = review_rec_pack(rr, buf, sizeof(buf) - 1);

	if (len == sizeof(struct space_done) ||
	    len == sizeof(struct git_apply_result))
		buf[len++] = '\0';
	request_data(r, buf, len);
}

/* A record of the review: counted, and passed on to the client. */
static void
review_take(struct request *r, const struct git_review_rec *rr)
{
	struct review_state	*rs = r->r_state;

	if (rr->rr_kind == REVIEW_TIP)
		strlcpy(rs->tip, rr->rr_commit, sizeof(rs->tip));
	if (rr->rr_kind == REVIEW_COMMIT)
		rs->ncommits++;
	if (rr->rr_kind == REVIEW_PATH)
		rs->npaths++;
	if (rr->rr_kind == REVIEW_FLAG && strstr(rs->flagged, rr->rr_b) ==
	    NULL) {
		if (rs->flagged[0] != '\0')
			strlcat(rs->flagged, ",", sizeof(rs->flagged));
		strlcat(rs->flagged, rr->rr_b, sizeof(rs->flagged));
	}
	review_send(r, rr);
}

/* The quarantine's records, packed: each checked, then taken. */
void
review_rec(struct request *r, enum procid from, struct imsg *imsg)
{
	static struct git_review_batch	 rb;
	static struct git_review_rec	 rr;
	size_t				 at, n;

	if (imsg_get_data(imsg, &rb, sizeof(rb)) == -1 ||
	    rb.rb_used > sizeof(rb.rb_data)) {
		gitinst_distrust(r->r_qgit);
		return;
	}
	for (at = 0; at < rb.rb_used; at += n)
		if ((n = review_rec_unpack(rb.rb_data + at, rb.rb_used - at,
		    &rr)) == 0 || !review_rec_valid(&rr)) {
			log_warnx("review: a record spaced does not take");
			gitinst_distrust(r->r_qgit);
			return;
		} else
			review_take(r, &rr);
}
