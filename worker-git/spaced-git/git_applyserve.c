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
 * apply, as the repository's owner: ga_begin refuses before any byte
 * (a branch that moved, a work tree not clean), says what the owner
 * has, then the quarantine's pack streams in (ga_feed) and ga_finish
 * checks it again and moves the branch or writes the work tree.
 */

#include <sys/types.h>

#include <stdio.h>
#include <string.h>

#include <git2.h>

#include "errors.h"
#include "git_proto.h"
#include "imsg.h"
#include "log.h"
#include "place_proto.h"
#include "proc.h"
#include "stream.h"
#include "git_worker.h"
#include "git_apply.h"

static struct {
	int			 as_busy;
	uint32_t		 as_peerid;
	uint32_t		 as_stream;
	struct imsgev		*as_iev;
	git_repository		*as_repo;
	struct ga_apply		*as_ga;
	struct stream_rx	 as_rx;
} as;

/* "code: why" (git_apply.h) into a DONE; a code of another shape is ours. */
static void
apply_done(const char *err)
{
	struct space_done	 sd;
	const char		*colon;
	size_t			 n;

	memset(&sd, 0, sizeof(sd));
	sd.sd_exit = -1;
	if (err != NULL) {
		colon = strstr(err, ": ");
		n = colon != NULL ? (size_t)(colon - err) : 0;
		if (n == 0 || n >= sizeof(sd.sd_code) ||
		    strspn(err, "abcdefghijklmnopqrstuvwxyz_") != n) {
			strlcpy(sd.sd_code, ERR_CODE_OUT_FAILED,
			    sizeof(sd.sd_code));
			strlcpy(sd.sd_message, err, sizeof(sd.sd_message));
		} else {
			memcpy(sd.sd_code, err, n);
			strlcpy(sd.sd_message, colon + 2,
			    sizeof(sd.sd_message));
		}
	}
	imsg_compose_event(as.as_iev, IMSG_GIT_DONE, as.as_peerid, 0, -1, &sd,
	    sizeof(sd));
}

static void
apply_end(void)
{
	if (as.as_stream != 0)
		worker_stream_unregister(as.as_stream);
	ga_free(as.as_ga);
	git_repository_free(as.as_repo);
	memset(&as, 0, sizeof(as));
}

static void
apply_result(const struct ga_result *gr)
{
	struct git_apply_result	 ar;

	memset(&ar, 0, sizeof(ar));
	ar.ar_mode = gr->gr_mode == GA_WORKTREE ? APPLY_WORKTREE :
	    APPLY_BRANCH;
	ar.ar_created = gr->gr_created;
	ar.ar_unchanged = gr->gr_unchanged;
	ar.ar_replaced = gr->gr_replaced != 0;
	ar.ar_commits = gr->gr_commits;
	ar.ar_objects = gr->gr_objects;
	ar.ar_added = gr->gr_added;
	ar.ar_modified = gr->gr_modified;
	ar.ar_deleted = gr->gr_deleted;
	strlcpy(ar.ar_branch, gr->gr_branch, sizeof(ar.ar_branch));
	if (!git_oid_is_zero(&gr->gr_old))
		git_oid_tostr(ar.ar_old, sizeof(ar.ar_old), &gr->gr_old);
	git_oid_tostr(ar.ar_new, sizeof(ar.ar_new), &gr->gr_new);
	imsg_compose_event(as.as_iev, IMSG_GIT_APPLY_RESULT, as.as_peerid, 0,
	    -1, &ar, sizeof(ar));
}

/* The quarantine's pack; after a refusal the rest is credited unread. */
static void
apply_stream(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct ga_result	 gr;
	const uint8_t		*data;
	char			 err[512];
	size_t			 len;

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (stream_rx_data(&as.as_rx, imsg, &data, &len) == -1)
			fatalx("%s: bad stream data", __func__);
		(void)ga_feed(as.as_ga, data, len);
		if (stream_rx_consumed(&as.as_rx, &iev->ibuf, len) == -1)
			fatal("%s: stream_rx_consumed", __func__);
		imsg_event_add(iev);
		return;
	case IMSG_STREAM_END:
		if (stream_rx_end(&as.as_rx, imsg) == -1)
			fatalx("%s: bad stream end", __func__);
		break;
	default:
		fatalx("%s: unexpected imsg %u", __func__,
		    imsg_get_type(imsg));
	}
	memset(&gr, 0, sizeof(gr));
	if (as.as_rx.sr_status != 0)
		apply_done(ERR_CODE_OUT_REFUSED ": the quarantine's pack did "
		    "not come whole: the repository is unchanged");
	else if (ga_error(as.as_ga) != NULL)
		apply_done(ga_error(as.as_ga));
	else if (ga_finish(as.as_ga, &gr, err, sizeof(err)) == -1)
		apply_done(err);
	else {
		apply_result(&gr);
		apply_done(NULL);
	}
	ga_result_free(&gr);
	apply_end();
}

static int
apply_req_take(struct imsg *imsg, struct git_apply_req *ap,
    struct ga_req *gq, char *err, size_t errlen)
{
	uint32_t	 allow;

	if (imsg_get_data(imsg, ap, sizeof(*ap)) == -1 ||
	    memchr(ap->ap_branch, '\0', sizeof(ap->ap_branch)) == NULL ||
	    memchr(ap->ap_allow, '\0', sizeof(ap->ap_allow)) == NULL ||
	    (ap->ap_mode != APPLY_BRANCH && ap->ap_mode != APPLY_WORKTREE) ||
	    ap->ap_stream == 0)
		fatalx("%s: bad apply request", __func__);
	memset(gq, 0, sizeof(*gq));
	gq->mode = ap->ap_mode == APPLY_WORKTREE ? GA_WORKTREE : GA_BRANCH;
	strlcpy(gq->branch, ap->ap_branch, sizeof(gq->branch));
	if (policy_allow_parse(ap->ap_allow, &allow) == -1) {
		snprintf(err, errlen, "%s: --allow names a reason that cannot "
		    "be allowed", ERR_BAD_REQUEST);
		return -1;
	}
	gq->allow = allow;
	if (git_oid_fromstr(&gq->base, ap->ap_base) != 0 ||
	    git_oid_fromstr(&gq->start, ap->ap_start) != 0 ||
	    git_oid_fromstr(&gq->tip, ap->ap_tip) != 0) {
		snprintf(err, errlen, "%s: not object ids", ERR_BAD_REQUEST);
		return -1;
	}
	return 0;
}

void
apply_serve(struct imsgev *iev, struct imsg *imsg)
{
	struct git_apply_req	 ap;
	struct git_apply_have	 ah;
	struct ga_req		 gq;
	git_oid			 have;
	char			 err[512];

	/* One whose pack never came (its request was cancelled): dropped. */
	if (as.as_busy) {
		log_warnx("apply: an unfinished apply is dropped");
		apply_end();
	}
	as.as_busy = 1;
	as.as_iev = iev;
	as.as_peerid = imsg_get_peerid(imsg);
	if (apply_req_take(imsg, &ap, &gq, err, sizeof(err)) == -1) {
		apply_done(err);
		apply_end();
		return;
	}
	if (!repo.rs_open || repo_open(&as.as_repo) != 0) {
		snprintf(err, sizeof(err), "%s: %s", repo.rs_open ?
		    ERR_GIT_COMMAND_FAILED : repo.rs_code, repo.rs_message);
		apply_done(err);
		apply_end();
		return;
	}
	if (ga_begin(as.as_repo, &gq, &as.as_ga, err, sizeof(err)) == -1) {
		apply_done(err);
		apply_end();
		return;
	}
	memset(&ah, 0, sizeof(ah));
	if (ga_have(as.as_ga, &have) == 1)
		git_oid_tostr(ah.ah_have, sizeof(ah.ah_have), &have);
	stream_rx_init(&as.as_rx, ap.ap_stream);
	if (worker_stream_register(ap.ap_stream, apply_stream, NULL) == -1)
		fatal("%s: stream %u", __func__, ap.ap_stream);
	as.as_stream = ap.ap_stream;
	imsg_compose_event(iev, IMSG_GIT_APPLY_HAVE, as.as_peerid, 0, -1, &ah,
	    sizeof(ah));
}
