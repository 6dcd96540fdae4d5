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
 * Code out (docs/notes/spaced-git-codeout.md): review.  The owner's
 * spaced-git finds the start and sends its pack, a fixed script in the
 * space packs the agent's work, and both streams go unread into the
 * space's quarantine, which checks them and computes the review.
 */

#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_check.h"
#include "ctl_proto.h"
#include "errors.h"
#include "git_parse.h"
#include "git_proto.h"
#include "log.h"
#include "place_proto.h"
#include "space_parse.h"
#include "spaced.h"
#include "codeout.h"

const size_t review_state_size = sizeof(struct review_state);

/* The script inside has code in's time cap (spaced.conf(5)). */
#define REVIEW_INNER_MARGIN	5
/* The pack's cap (packscan's), and room for the script's stderr. */
#define REVIEW_OUTPUT_MAX	(1024ULL * 1024 * 1024 + 1024 * 1024)
#define CODEOUT_BAD_PATH	65	/* the script: git will not add a path */
#define CODEOUT_BEHIND		66	/* HEAD behind the start, nothing on it */
#define CODEOUT_NO_HEAD		67	/* HEAD names no commit */
#define CODEOUT_UNMERGED	68	/* a conflict left in progress */
#define CODEOUT_NO_START	69	/* the start is gone from the space */

/* Messages are cut to their field: text from a repository may be long. */
static void __attribute__((format(printf, 3, 4)))
cut(char *buf, size_t len, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static void	review_transfer(struct request *);
static const char *review_begin(struct request *, const char *);
static const char *review_lookup(struct request *, const char *);
static void	review_qr_ready(struct request *);
static void	apply_owner(struct request *);
static void	apply_done(struct request *, enum procid,
		    const struct space_done *);

static uint32_t
review_timeout(void)
{
	const char	*errstr;
	long long	 n;

	n = strtonum(spaced_config()->sc_codein_timeout, 1,
	    CODEIN_TIMEOUT_MAX, &errstr);
	return errstr == NULL ? (uint32_t)n : CODEIN_TIMEOUT_DEFAULT;
}

static void
review_record(struct request *r, const char *code, const char *message)
{
	struct review_state	*rs = r->r_state;

	if (rs->code[0] != '\0')
		return;
	strlcpy(rs->code, code, sizeof(rs->code));
	strlcpy(rs->message, message, sizeof(rs->message));
}

/*
 * The space's journal keeps each review and apply (spaced-journal,
 * listener "code-out"): what was brought out and where it went.
 */
static void
review_journal(struct request *r, const char *decision)
{
	struct review_state	*rs = r->r_state;
	struct journal_codeout	 jo;
	struct space_req	 sq;

	memset(&jo, 0, sizeof(jo));
	space_req_fill(r, &sq, rs->id);
	strlcpy(jo.jo_owner, sq.sq_owner, sizeof(jo.jo_owner));
	strlcpy(jo.jo_id, rs->id, sizeof(jo.jo_id));
	cut(jo.jo_host, sizeof(jo.jo_host), "%s base %.12s tip %.12s "
	    "commits %u paths %u flags %s", rs->apply ? "apply" : "review",
	    rs->snap.gs_base, rs->tip[0] != '\0' ? rs->tip : "-",
	    rs->ncommits, rs->npaths, rs->flagged[0] != '\0' ? rs->flagged :
	    "none");
	strlcpy(jo.jo_decision, decision, sizeof(jo.jo_decision));
	jo.jo_count = rs->ncommits;
	if (worker_compose(PROC_JOURNAL, IMSG_JOURNAL_CODEOUT, r->r_id, -1,
	    &jo, sizeof(jo)) == -1)
		log_warn("%s: the journal", __func__);
	events_emit(rs->apply ? "apply" : "review", r->r_uid, rs->id,
	    jo.jo_decision);
}

static void
review_fail(struct request *r, const char *code, const char *message)
{
	if (r->r_git != NULL)
		gitinst_retire(r->r_git);
	request_refuse(r, code, message);
}

const char *
review_start(struct request *r, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;
	struct ctl_review	 rv;

	if (imsg_get_data(imsg, &rv, sizeof(rv)) == -1 ||
	    !ctl_review_valid(&rv))
		return ERR_BAD_REQUEST;
	strlcpy(rs->id, rv.rv_id, sizeof(rs->id));
	rs->flags = rv.rv_flags;
	return review_lookup(r, rv.rv_dir);
}

/* apply: the review's way, keeping the store, then the pack out. */
const char *
apply_start(struct request *r, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;
	struct ctl_apply	 ca;

	if (imsg_get_data(imsg, &ca, sizeof(ca)) == -1 ||
	    !ctl_apply_valid(&ca))
		return ERR_BAD_REQUEST;
	strlcpy(rs->id, ca.ca_id, sizeof(rs->id));
	rs->apply = 1;
	rs->mode = ca.ca_mode;
	strlcpy(rs->branch, ca.ca_branch, sizeof(rs->branch));
	strlcpy(rs->allow, ca.ca_allow, sizeof(rs->allow));
	return review_lookup(r, ca.ca_dir);
}

/* The owner's spaced-git of dir, for the start. */
static const char *
review_attach(struct request *r, const char *dir)
{
	struct review_state	*rs = r->r_state;
	struct git_req		 gq;

	if (dir != rs->dir)
		strlcpy(rs->dir, dir, sizeof(rs->dir));
	memset(&gq, 0, sizeof(gq));
	strlcpy(gq.gq_space, rs->id, sizeof(gq.gq_space));
	rs->step = RV_START;
	return gitinst_attach(r, rs->dir, IMSG_GIT_START_REQ, &gq);
}

/*
 * The space is looked up as the caller before its quarantine is held or
 * started: nothing of another owner's code out is touched.
 */
static const char *
review_lookup(struct request *r, const char *dir)
{
	struct review_state	*rs = r->r_state;
	struct space_req	 sq;

	strlcpy(rs->dir, dir, sizeof(rs->dir));
	space_req_fill(r, &sq, rs->id);
	sq.sq_look = 1;
	rs->step = RV_LOOKUP;
	return place_lookup_caller(r, &sq);
}

static void
review_lookup_record(struct request *r, enum procid from, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;

	place_lookup_record(r, from, imsg, rs->step == RV_LOOKUP);
}

/* The caller's space: on to the review. */
static void
review_looked(struct request *r)
{
	struct review_state	*rs = r->r_state;
	const char		*code;

	if ((code = review_begin(r, rs->dir)) != NULL)
		review_fail(r, code, "the review's processes could not be "
		    "started");
}

static const char *
review_begin(struct request *r, const char *dir)
{
	struct review_state	*rs = r->r_state;
	const char		*code;

	if (codeout_hold(rs->id, r->r_id) == -1) {
		request_refuse(r, ERR_BUSY, "another review or apply of this "
		    "space is under way: try again when it ends");
		return NULL;
	}
	/* The quarantine starts while the owner's spaced-git finds the start. */
	if ((code = gitinst_quarantine(r, rs->id, review_qr_ready)) != NULL)
		return code;
	if (dir[0] == '\0') {
		rs->step = RV_ORIGIN;
		if (space_origin_send(r, IMSG_JOURNAL_ORIGIN_GET, rs->id,
		    r->r_uid, "") == -1)
			return ERR_INTERNAL;
		return NULL;
	}
	return review_attach(r, dir);
}

/* As history does: the one folder code came from, or ask for DIR. */
static void
review_origin(struct request *r, enum procid from, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;
	struct journal_origin	 jo;
	const char		*code;

	if (rs->step != RV_ORIGIN)
		return;
	if (imsg_get_data(imsg, &jo, sizeof(jo)) == -1 ||
	    memchr(jo.jo_dir, '\0', sizeof(jo.jo_dir)) == NULL)
		fatalx("%s: bad origin from %s", __func__, proc_title(from));
	if (jo.jo_found == 0 || !git_dir_valid(jo.jo_dir, sizeof(jo.jo_dir))) {
		review_fail(r, ERR_NOT_A_COMMIT, "code-in was never done into "
		    "this space (spacectl code-in ID DIR), so it has no start "
		    "to review from");
		return;
	}
	if (jo.jo_found > 1) {
		review_fail(r, ERR_BAD_REQUEST, "code came into this space "
		    "from several repositories: name the DIR of one");
		return;
	}
	if ((code = review_attach(r, jo.jo_dir)) != NULL)
		review_fail(r, code, "no spaced-git for the repository");
}

/* The script, under code in's time cap and an output cap. */
static int
review_exec_init(struct request *r, struct space_exec_req *se,
    uint64_t output_max)
{
	struct review_state	*rs = r->r_state;
	char			 path[GIT_DIR_MAX], limit[16], cap[24];
	const char		*argv[] = { "/bin/sh", "-c", codeout_script,
	    "spaced-code-out", path, rs->snap.gs_start, limit, cap, NULL };

	memset(se, 0, sizeof(*se));
	space_req_fill(r, &se->se_space, rs->id);
	se->se_target = EXEC_TARGET_SPACE;
	se->se_timeout_ms = review_timeout() * 1000;
	se->se_output_max = output_max;
	if ((size_t)snprintf(path, sizeof(path), "/spaces/%s/%s", rs->id,
	    rs->snap.gs_name) >= sizeof(path))
		return -1;
	snprintf(limit, sizeof(limit), "%u",
	    review_timeout() + REVIEW_INNER_MARGIN);
	snprintf(cap, sizeof(cap), "%llu", (unsigned long long)output_max + 1);
	return space_exec_argv(se, argv);
}

/* The quarantine's request: the review's way, or the kept review's. */
static int
qr_request(struct request *r, uint32_t flags, uint32_t base_stream,
    uint32_t out_stream)
{
	struct review_state	*rs = r->r_state;
	struct git_qr_req	 qq;

	memset(&qq, 0, sizeof(qq));
	strlcpy(qq.qq_space, rs->id, sizeof(qq.qq_space));
	qq.qq_flags = flags;
	qq.qq_base_stream = base_stream;
	qq.qq_space_stream = out_stream;
	strlcpy(qq.qq_base, rs->snap.gs_base, sizeof(qq.qq_base));
	strlcpy(qq.qq_start, rs->snap.gs_start, sizeof(qq.qq_start));
	if (flags & GIT_QR_REUSE)
		strlcpy(qq.qq_tip, rs->kept.ck_tip, sizeof(qq.qq_tip));
	if (request_send(r, PROC_QUARANTINE, IMSG_GIT_QR_REQ, -1, &qq,
	    sizeof(qq)) == -1) {
		review_fail(r, ERR_GIT_WORKER_FAILED, "the quarantine took "
		    "no request");
		return -1;
	}
	rs->qr_due = 1;
	return 0;
}

/* Both packs, side by side, into the quarantine; sinks first. */
static void
review_transfer(struct request *r)
{
	struct review_state		*rs = r->r_state;
	static struct space_exec_req	 se;
	struct git_pack_req		 gp;
	struct git_review_rec		 rr;
	struct stream_route		*base, *out;
	const char			*code;

	rs->step = RV_TRANSFER;
	/* This way replaces the quarantine's store: no review is kept. */
	if (rs->apply)
		codeout_kept_forget(r->r_uid, rs->id);
	if (review_exec_init(r, &se, REVIEW_OUTPUT_MAX) == -1) {
		review_fail(r, ERR_CODE_OUT_FAILED, "the script's arguments "
		    "are too long");
		return;
	}
	if ((base = stream_open(r, EP_GIT(r->r_git), EP_GIT(r->r_qgit))) ==
	    NULL || (out = stream_open(r, EP_WORKER(place_of(rs->id)),
	    EP_GIT(r->r_qgit))) == NULL) {
		review_fail(r, ERR_BUSY, "no stream free");
		return;
	}
	se.se_out_stream = out->s_id;
	if (qr_request(r, (rs->flags & REVIEW_F_PATCH ? GIT_QR_PATCH : 0) |
	    (rs->apply ? GIT_QR_KEEP : 0), base->s_id, out->s_id) == -1)
		return;
	/* What the review is against: the client hears it first. */
	memset(&rr, 0, sizeof(rr));
	rr.rr_kind = REVIEW_BASE;
	strlcpy(rr.rr_commit, rs->snap.gs_base, sizeof(rr.rr_commit));
	strlcpy(rr.rr_b, rs->snap.gs_start, sizeof(rr.rr_b));
	review_send(r, &rr);
	if ((code = place_send(r, IMSG_SPACE_EXEC_REQ, &se, sizeof(se))) !=
	    NULL) {
		review_fail(r, code, place_why(code));
		return;
	}
	rs->exec_due = 1;
	memset(&gp, 0, sizeof(gp));
	strlcpy(gp.gp_space, rs->id, sizeof(gp.gp_space));
	gp.gp_kind = GIT_PACK_START;
	gp.gp_stream = base->s_id;
	strlcpy(gp.gp_base, rs->snap.gs_base, sizeof(gp.gp_base));
	strlcpy(gp.gp_staged, rs->snap.gs_staged, sizeof(gp.gp_staged));
	strlcpy(gp.gp_start, rs->snap.gs_start, sizeof(gp.gp_start));
	if (request_send(r, PROC_GIT, IMSG_GIT_PACK_REQ, -1, &gp,
	    sizeof(gp)) == -1) {
		stream_abort(base);
		review_record(r, ERR_GIT_WORKER_FAILED, "spaced-git took no "
		    "pack request");
	} else
		rs->pack_due = 1;
}

/*
 * apply after a review of this user, space, repository, base and
 * start: exactly the reviewed tip, from the store the review left;
 * the space is not asked again, so work made after the review never
 * lands unreviewed.  The quarantine takes its store only when its
 * record holds the tip spaced kept (a cancelled review may leave them
 * apart): else the apply fails, and the person reviews again.
 */
static void
reuse_settle(struct request *r)
{
	struct review_state	*rs = r->r_state;
	char			 why[SPACE_DONE_MESSAGE_MAX];

	if (rs->qcode[0] != '\0') {
		cut(why, sizeof(why), "the review kept for this apply does "
		    "not match the quarantine's store (%s): run spacectl "
		    "review again", rs->qmessage);
		codeout_kept_forget(r->r_uid, rs->id);
		review_journal(r, "refused code_out_failed");
		review_fail(r, ERR_CODE_OUT_FAILED, why);
		return;
	}
	strlcpy(rs->tip, rs->kept.ck_tip, sizeof(rs->tip));
	rs->ncommits = rs->kept.ck_commits;
	rs->npaths = rs->kept.ck_paths;
	strlcpy(rs->flagged, rs->kept.ck_flagged, sizeof(rs->flagged));
	apply_owner(r);
}

/* A check passed: an apply of the same tip may take its store. */
static void
review_keep(struct request *r)
{
	struct review_state	*rs = r->r_state;
	struct codeout_kept	 k;

	memset(&k, 0, sizeof(k));
	k.ck_uid = r->r_uid;
	strlcpy(k.ck_id, rs->id, sizeof(k.ck_id));
	codeout_kept_top(rs->dir, rs->snap.gs_project, k.ck_dir,
	    sizeof(k.ck_dir));
	strlcpy(k.ck_base, rs->snap.gs_base, sizeof(k.ck_base));
	strlcpy(k.ck_start, rs->snap.gs_start, sizeof(k.ck_start));
	strlcpy(k.ck_tip, rs->tip, sizeof(k.ck_tip));
	k.ck_commits = rs->ncommits;
	k.ck_paths = rs->npaths;
	strlcpy(k.ck_flagged, rs->flagged, sizeof(k.ck_flagged));
	codeout_kept_set(&k);
}

/* Both the start and the quarantine are there: the next step. */
static void
review_next(struct request *r)
{
	struct review_state	*rs = r->r_state;

	if (rs->step != RV_QUARANTINE || !rs->qr_ready || r->r_answered)
		return;
	if (!rs->reuse) {
		review_transfer(r);
		return;
	}
	rs->step = RV_KEPT;
	(void)qr_request(r, GIT_QR_KEEP | GIT_QR_REUSE, 0, 0);
}

static void
review_qr_ready(struct request *r)
{
	struct review_state	*rs = r->r_state;

	rs->qr_ready = 1;
	review_next(r);
}

/* Everyone has said their last word: the review, or why not. */
static void
review_settle(struct request *r)
{
	struct review_state	*rs = r->r_state;
	char			 why[SPACE_DONE_MESSAGE_MAX];

	if (rs->pack_due || rs->exec_due || rs->qr_due)
		return;
	if (rs->step == RV_KEPT) {
		reuse_settle(r);
		return;
	}
	if (rs->code[0] == '\0' && rs->exit == CODEOUT_BAD_PATH)
		review_record(r, ERR_CODE_OUT_REFUSED, "the work tree holds a "
		    "path git reads as .git: nothing came out");
	else if (rs->code[0] == '\0' && rs->exit == CODEOUT_BEHIND)
		review_record(r, ERR_CODE_OUT_REFUSED, "the space's HEAD is "
		    "behind the start (a reset past where code in began): its "
		    "work would undo the user's commits; nothing came out");
	else if (rs->code[0] == '\0' && rs->exit == CODEOUT_NO_HEAD)
		review_record(r, ERR_CODE_OUT_REFUSED, "the space's HEAD names "
		    "no commit (an orphan branch?): check the work out on a "
		    "branch there, then try again; nothing came out");
	else if (rs->code[0] == '\0' && rs->exit == CODEOUT_UNMERGED)
		review_record(r, ERR_CODE_OUT_REFUSED, "the space's repository "
		    "has unmerged paths (a merge, rebase or cherry-pick "
		    "stopped on a conflict): resolve and commit it there, or "
		    "abort it, then try again; nothing came out");
	else if (rs->code[0] == '\0' && rs->exit == CODEOUT_NO_START)
		review_record(r, ERR_CODE_OUT_REFUSED, "the start is gone from "
		    "the space's repository (refs/spaced/start deleted and its "
		    "objects pruned): bring it back from the host's "
		    "refs/spaced/spaces/<id>/start (spacectl(8), review), then "
		    "try again; nothing came out");
	else if (rs->code[0] == '\0' && rs->exit != 0) {
		snprintf(why, sizeof(why), "the script inside the space exited "
		    "with %d%s", rs->exit, rs->exit == 137 ?
		    " (killed at the time cap)" : "");
		review_record(r, ERR_CODE_OUT_FAILED, why);
	}
	if (rs->code[0] == '\0' && rs->qcode[0] != '\0')
		review_record(r, rs->qcode, rs->qmessage);
	if (rs->code[0] != '\0') {
		cut(why, sizeof(why), "refused %s", rs->code);
		review_journal(r, why);
		codeout_kept_forget(r->r_uid, rs->id);
		review_fail(r, rs->code, rs->message);
		return;
	}
	if (rs->tip[0] != '\0' && !rs->apply)
		review_keep(r);
	if (rs->apply) {
		apply_owner(r);
		return;
	}
	review_journal(r, "reviewed");
	request_end(r);
}

static void
review_git_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;
	struct space_done	 sd;
	char			 why[SPACE_DONE_MESSAGE_MAX];
	char			 top[GIT_DIR_MAX];

	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    !git_done_valid(&sd)) {
		gitinst_distrust(from == PROC_GIT ? r->r_git : r->r_qgit);
		return;
	}
	if (rs->step == RV_APPLY) {
		apply_done(r, from, &sd);
		return;
	}
	if (from == PROC_QUARANTINE) {
		rs->qr_due = 0;
		strlcpy(rs->qcode, sd.sd_code, sizeof(rs->qcode));
		strlcpy(rs->qmessage, sd.sd_message, sizeof(rs->qmessage));
		review_settle(r);
		return;
	}
	if (rs->step == RV_START) {
		if (sd.sd_code[0] != '\0') {
			if (gitinst_relaunch(r, sd.sd_code, rs->dir,
			    &rs->relaunched))
				return;
			review_fail(r, sd.sd_code, sd.sd_message);
		} else if (!rs->have_snap)
			gitinst_distrust(r->r_git);
		else {
			codeout_kept_top(rs->dir, rs->snap.gs_project, top,
			    sizeof(top));
			rs->reuse = rs->apply && codeout_kept_find(r->r_uid,
			    rs->id, top, rs->snap.gs_base,
			    rs->snap.gs_start, &rs->kept) == 0;
			rs->step = RV_QUARANTINE;
			review_next(r);
		}
		return;
	}
	rs->pack_due = 0;
	if (sd.sd_code[0] != '\0') {
		cut(why, sizeof(why), "the start's pack: %s: %s",
		    sd.sd_code, sd.sd_message);
		review_record(r, ERR_CODE_OUT_FAILED, why);
	}
	review_settle(r);
}

static void
review_snap(struct request *r, enum procid from, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;

	if (imsg_get_data(imsg, &rs->snap, sizeof(rs->snap)) == -1 ||
	    rs->step != RV_START || rs->have_snap ||
	    !git_snap_valid(&rs->snap)) {
		gitinst_distrust(r->r_git);
		return;
	}
	rs->have_snap = 1;
}

static void
review_exec_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;
	struct space_done	 sd;
	char			 why[SPACE_DONE_MESSAGE_MAX];

	if (rs->step == RV_LOOKUP) {
		if (place_lookup_done(r, from, imsg) == 0)
			review_looked(r);
		return;
	}
	space_done_take(from, imsg, &sd);
	if (rs->step != RV_TRANSFER)
		fatalx("%s: a done from %s out of turn", __func__,
		    proc_title(from));
	rs->exec_due = 0;
	rs->exit = sd.sd_exit;
	if (strcmp(sd.sd_code, ERR_SPACE_NOT_RUNNING) == 0) {
		cut(why, sizeof(why), "the space is stopped: spacectl start "
		    "%s, then %s again", rs->id, rs->apply ? "apply" :
		    "review");
		review_record(r, ERR_SPACE_NOT_RUNNING, why);
	} else if (sd.sd_code[0] != '\0') {
		cut(why, sizeof(why), "the script inside the space: %s: "
		    "%s", sd.sd_code, sd.sd_message);
		review_record(r, ERR_CODE_OUT_FAILED, why);
	}
	review_settle(r);
}

/* --- apply: after the checks, the owner's side ------------------- */

/* The owner's spaced-git first: ga_begin refuses before any byte. */
static void
apply_owner(struct request *r)
{
	struct review_state	*rs = r->r_state;
	struct git_apply_req	 ap;
	struct stream_route	*s;

	rs->step = RV_APPLY;
	if (r->r_git == NULL || r->r_qgit == NULL || rs->tip[0] == '\0') {
		review_fail(r, ERR_CODE_OUT_FAILED, "the repository's or the "
		    "quarantine's spaced-git is gone");
		return;
	}
	if ((s = stream_open(r, EP_GIT(r->r_qgit), EP_GIT(r->r_git))) ==
	    NULL) {
		review_fail(r, ERR_BUSY, "no stream free");
		return;
	}
	rs->out_stream = s->s_id;
	memset(&ap, 0, sizeof(ap));
	strlcpy(ap.ap_space, rs->id, sizeof(ap.ap_space));
	ap.ap_mode = rs->mode;
	ap.ap_stream = s->s_id;
	strlcpy(ap.ap_branch, rs->branch, sizeof(ap.ap_branch));
	strlcpy(ap.ap_allow, rs->allow, sizeof(ap.ap_allow));
	strlcpy(ap.ap_base, rs->snap.gs_base, sizeof(ap.ap_base));
	strlcpy(ap.ap_start, rs->snap.gs_start, sizeof(ap.ap_start));
	strlcpy(ap.ap_tip, rs->tip, sizeof(ap.ap_tip));
	if (request_send(r, PROC_GIT, IMSG_GIT_APPLY_REQ, -1, &ap,
	    sizeof(ap)) == -1) {
		review_fail(r, ERR_GIT_WORKER_FAILED, "spaced-git took no "
		    "apply request");
		return;
	}
	rs->pack_due = 1;
}

/* What the owner has: the quarantine leaves it out of the pack. */
static void
apply_have(struct request *r, enum procid from, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;
	struct git_apply_have	 ah;
	struct git_apply_req	 ap;

	if (imsg_get_data(imsg, &ah, sizeof(ah)) == -1 ||
	    rs->step != RV_APPLY || rs->qr_due ||
	    (ah.ah_have[0] != '\0' && !git_hex_valid(ah.ah_have,
	    sizeof(ah.ah_have)))) {
		gitinst_distrust(r->r_git);
		return;
	}
	memset(&ap, 0, sizeof(ap));
	strlcpy(ap.ap_space, rs->id, sizeof(ap.ap_space));
	ap.ap_mode = rs->mode;
	ap.ap_stream = rs->out_stream;
	strlcpy(ap.ap_allow, rs->allow, sizeof(ap.ap_allow));
	strlcpy(ap.ap_have, ah.ah_have, sizeof(ap.ap_have));
	if (request_send(r, PROC_QUARANTINE, IMSG_GIT_QR_OUT_REQ, -1, &ap,
	    sizeof(ap)) == -1) {
		review_record(r, ERR_GIT_WORKER_FAILED, "the quarantine took "
		    "no pack request");
		return;
	}
	rs->qr_due = 1;
}

static void
apply_result(struct request *r, enum procid from, struct imsg *imsg)
{
	struct review_state	*rs = r->r_state;
	struct git_apply_result	 ar;

	if (imsg_get_data(imsg, &ar, sizeof(ar)) == -1 ||
	    rs->step != RV_APPLY || rs->have_result ||
	    memchr(ar.ar_branch, '\0', sizeof(ar.ar_branch)) == NULL ||
	    (ar.ar_old[0] != '\0' && !git_hex_valid(ar.ar_old,
	    sizeof(ar.ar_old))) || !git_hex_valid(ar.ar_new,
	    sizeof(ar.ar_new))) {
		gitinst_distrust(r->r_git);
		return;
	}
	rs->have_result = 1;
	ar.ar_from = rs->reuse ? APPLY_FROM_REVIEW : APPLY_FROM_SPACE;
	rs->result = ar;
	request_data(r, &ar, sizeof(ar));
}

/* The owner's last word and the quarantine's: the result, or why not. */
static void
apply_done(struct request *r, enum procid from, const struct space_done *sd)
{
	struct review_state	*rs = r->r_state;
	struct stream_route	*s;
	char			 why[JOURNAL_DECISION_MAX + 1];

	if (from == PROC_QUARANTINE) {
		rs->qr_due = 0;
		/* Its refusal says why the owner's pack was cut short. */
		if (sd->sd_code[0] != '\0') {
			rs->code[0] = '\0';
			review_record(r, sd->sd_code, sd->sd_message);
		}
	} else {
		rs->pack_due = 0;
		if (sd->sd_code[0] != '\0')
			review_record(r, sd->sd_code, sd->sd_message);
		/* Refused before any byte: the quarantine was never asked. */
		if (!rs->qr_due && (s = stream_find(rs->out_stream)) != NULL)
			stream_abort(s);
	}
	if (rs->pack_due || rs->qr_due)
		return;
	if (rs->code[0] != '\0' || !rs->have_result) {
		if (rs->code[0] == '\0')
			review_record(r, ERR_CODE_OUT_FAILED, "no result");
		cut(why, sizeof(why), "refused %s", rs->code);
		review_journal(r, why);
		review_fail(r, rs->code, rs->message);
		return;
	}
	/* The kept review is used: the next apply goes the whole way. */
	codeout_kept_forget(r->r_uid, rs->id);
	if (rs->result.ar_mode == APPLY_WORKTREE)
		review_journal(r, "applied to the work tree");
	else {
		cut(why, sizeof(why), "applied %s", rs->result.ar_branch);
		review_journal(r, why);
	}
	request_end(r);
}

const struct answer_row review_answers[] = {
	{ IMSG_JOURNAL_ORIGIN, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_origin), AR_FINAL, review_origin },
	{ IMSG_GIT_SNAP, PROC_BIT(PROC_GIT), sizeof(struct git_snap), 0,
	    review_snap },
	{ IMSG_GIT_QR_REC, PROC_BIT(PROC_QUARANTINE),
	    sizeof(struct git_review_batch), 0, review_rec },
	{ IMSG_GIT_APPLY_HAVE, PROC_BIT(PROC_GIT),
	    sizeof(struct git_apply_have), 0, apply_have },
	{ IMSG_GIT_APPLY_RESULT, PROC_BIT(PROC_GIT),
	    sizeof(struct git_apply_result), 0, apply_result },
	{ IMSG_GIT_DONE, PROC_BIT(PROC_GIT) | PROC_BIT(PROC_QUARANTINE),
	    sizeof(struct space_done), AR_FINAL, review_git_done },
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done),
	    AR_FINAL, review_exec_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ IMSG_SPACE_INFO, PLACE_BITS, sizeof(struct space_info), 0,
	    review_lookup_record },
	{ IMSG_SPACE_VIOLATION, PLACE_BITS, sizeof(struct space_violation), 0,
	    review_lookup_record },
	{ IMSG_SPACE_RESOURCE, PLACE_BITS, sizeof(struct space_resource), 0,
	    review_lookup_record },
	{ 0 }
};
