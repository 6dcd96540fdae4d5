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
 * The review, computed in the quarantine with libgit2 (no driver, no
 * attribute, no config of anyone's): every flag, the new commits, the
 * changed paths against the start, and the patch text when asked.
 * Every text from the space is escaped here, before it leaves.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "git_proto.h"
#include "quarantine.h"

#define QR_PATCH_MAX	(16 * 1024 * 1024)	/* bytes of patch text */

/* Where the records go (git_quarantine.c's channel, or a test's). */
static qr_send_fn	*rv_send;

struct patch_out {
	struct git_review_rec	 po_rec;
	size_t			 po_len;
	size_t			 po_total;
	int			 po_cut;
};

static void
rec_init(struct git_review_rec *rr, uint32_t kind)
{
	memset(rr, 0, sizeof(*rr));
	rr->rr_kind = kind;
}

static void
flag(void *arg, uint32_t reason, const git_oid *commit, const char *path,
    size_t len)
{
	struct git_review_rec	 rr;

	rec_init(&rr, REVIEW_FLAG);
	rr.rr_status = reason;
	git_oid_tostr(rr.rr_commit, sizeof(rr.rr_commit), commit);
	policy_escape(rr.rr_a, sizeof(rr.rr_a), path, len);
	strlcpy(rr.rr_b, policy_reason_name(reason), sizeof(rr.rr_b));
	rv_send(&rr);
}

/* Each new commit: its author and the first line of its message. */
static int
send_commits(git_repository *q, const struct qr_result *res,
    const git_oid *tip, const char **why)
{
	struct git_review_rec	 rr;
	const git_signature	*a;
	git_commit		*c;
	git_oid			*order;
	const char		*msg, *nl;
	char			 who[1024];
	size_t			 i, n;

	if (qr_commits(q, res, tip, &order, &n, why) == -1)
		return -1;
	for (i = n; i > 0; i--) {
		if (git_commit_lookup(&c, q, &order[i - 1]) != 0) {
			free(order);
			*why = "a commit libgit2 cannot read";
			return -1;
		}
		rec_init(&rr, REVIEW_COMMIT);
		git_oid_tostr(rr.rr_commit, sizeof(rr.rr_commit),
		    &order[i - 1]);
		a = git_commit_author(c);
		snprintf(who, sizeof(who), "%s <%s>", a->name, a->email);
		policy_escape(rr.rr_a, sizeof(rr.rr_a), who, strlen(who));
		msg = git_commit_message(c);
		nl = strchr(msg, '\n');
		policy_escape(rr.rr_b, sizeof(rr.rr_b), msg,
		    nl != NULL ? (size_t)(nl - msg) : strlen(msg));
		rr.rr_size = git_commit_time(c);
		git_commit_free(c);
		rv_send(&rr);
	}
	free(order);
	return 0;
}

static char
status_letter(git_delta_t s)
{
	switch (s) {
	case GIT_DELTA_ADDED:		return 'A';
	case GIT_DELTA_DELETED:		return 'D';
	case GIT_DELTA_RENAMED:		return 'R';
	case GIT_DELTA_COPIED:		return 'C';
	case GIT_DELTA_TYPECHANGE:	return 'T';
	default:			return 'M';
	}
}

static uint64_t
blob_size(git_odb *odb, const git_diff_file *f)
{
	size_t		 size;
	git_object_t	 type;

	if ((f->flags & GIT_DIFF_FLAG_EXISTS) == 0 ||
	    git_odb_read_header(&size, &type, odb, &f->id) != 0 ||
	    type != GIT_OBJECT_BLOB)
		return 0;
	return size;
}

static void
send_paths(git_repository *q, git_diff *diff)
{
	struct git_review_rec	 rr;
	const git_diff_delta	*d;
	git_odb			*odb = NULL;
	size_t			 i, n = git_diff_num_deltas(diff);

	if (git_repository_odb(&odb, q) != 0)
		return;
	for (i = 0; i < n; i++) {
		d = git_diff_get_delta(diff, i);
		rec_init(&rr, REVIEW_PATH);
		rr.rr_status = (uint32_t)status_letter(d->status);
		if (d->status == GIT_DELTA_DELETED) {
			rr.rr_size = blob_size(odb, &d->old_file);
			policy_escape(rr.rr_a, sizeof(rr.rr_a),
			    d->old_file.path, strlen(d->old_file.path));
		} else {
			rr.rr_size = blob_size(odb, &d->new_file);
			policy_escape(rr.rr_a, sizeof(rr.rr_a),
			    d->new_file.path, strlen(d->new_file.path));
		}
		if (d->status == GIT_DELTA_RENAMED ||
		    d->status == GIT_DELTA_COPIED)
			policy_escape(rr.rr_b, sizeof(rr.rr_b),
			    d->old_file.path, strlen(d->old_file.path));
		rv_send(&rr);
	}
	git_odb_free(odb);
}

static void
patch_flush(struct patch_out *po)
{
	if (po->po_len == 0)
		return;
	po->po_rec.rr_a[po->po_len] = '\0';
	rv_send(&po->po_rec);
	rec_init(&po->po_rec, REVIEW_PATCH);
	po->po_len = 0;
}

/* One line of the patch, escaped, into the records. */
static int
patch_line(const git_diff_delta *d, const git_diff_hunk *h,
    const git_diff_line *l, void *arg)
{
	struct patch_out	*po = arg;
	char			 line[REVIEW_TEXT_MAX];
	const char		*p, *nl;
	size_t			 len = l->content_len, n, off = 0, piece;

	if (po->po_cut)
		return 0;
	if (len > 0 && l->content[len - 1] == '\n')
		len--;
	if (l->origin == GIT_DIFF_LINE_CONTEXT ||
	    l->origin == GIT_DIFF_LINE_ADDITION ||
	    l->origin == GIT_DIFF_LINE_DELETION)
		line[off++] = l->origin;
	/* A file's header is several lines: each escaped alone. */
	for (p = l->content; len > 0 && off < sizeof(line) - 1; ) {
		nl = memchr(p, '\n', len);
		piece = nl != NULL ? (size_t)(nl - p) : len;
		n = policy_escape(line + off, sizeof(line) - off - 1, p,
		    piece);
		off += n;
		if (off < sizeof(line) - 1 && nl != NULL)
			line[off++] = '\n';
		p += piece + (nl != NULL);
		len -= piece + (nl != NULL);
	}
	line[off++] = '\n';
	if (po->po_total + off > QR_PATCH_MAX) {
		patch_flush(po);
		strlcpy(po->po_rec.rr_a, "... (the patch is cut at 16 MiB)\n",
		    sizeof(po->po_rec.rr_a));
		po->po_len = strlen(po->po_rec.rr_a);
		po->po_cut = 1;
		return 0;
	}
	if (po->po_len + off >= sizeof(po->po_rec.rr_a))
		patch_flush(po);
	memcpy(po->po_rec.rr_a + po->po_len, line, off);
	po->po_len += off;
	po->po_total += off;
	return 0;
}

/*
 * The checks and the review of the work from start to tip: flags
 * first (as qr_check meets them), the tip, the commits, the paths, the
 * patch.  -1 with *why for a pack that lies.
 */
int
qr_review(git_repository *q, const git_oid *base, const git_oid *start,
    const git_oid *tip, const struct qr_caps *caps, struct qr_result *res,
    uint32_t flags, qr_send_fn *send, const char **why)
{
	struct git_review_rec	 rr;
	struct patch_out	 po;
	git_diff_options	 dopts;
	git_diff_find_options	 fopts;
	git_commit		*sc = NULL, *tc = NULL;
	git_tree		*st = NULL, *tt = NULL;
	git_diff		*diff = NULL;
	int			 rc = -1;

	rv_send = send;
	if (qr_check(q, base, start, tip, caps, flag, NULL, res, why) == -1)
		return -1;
	rec_init(&rr, REVIEW_TIP);
	git_oid_tostr(rr.rr_commit, sizeof(rr.rr_commit), tip);
	rr.rr_size = res->qr_commits;
	rr.rr_status = res->qr_flags;
	rv_send(&rr);
	if (send_commits(q, res, tip, why) == -1)
		return -1;
	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	git_diff_find_options_init(&fopts, GIT_DIFF_FIND_OPTIONS_VERSION);
	fopts.flags = GIT_DIFF_FIND_RENAMES;
	*why = "the review's diff failed";
	if (git_commit_lookup(&sc, q, start) != 0 ||
	    git_commit_tree(&st, sc) != 0 ||
	    git_commit_lookup(&tc, q, tip) != 0 ||
	    git_commit_tree(&tt, tc) != 0 ||
	    git_diff_tree_to_tree(&diff, q, st, tt, &dopts) != 0 ||
	    git_diff_find_similar(diff, &fopts) != 0)
		goto out;
	send_paths(q, diff);
	if (flags & GIT_QR_PATCH) {
		memset(&po, 0, sizeof(po));
		rec_init(&po.po_rec, REVIEW_PATCH);
		if (git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, patch_line,
		    &po) != 0)
			goto out;
		patch_flush(&po);
	}
	*why = NULL;
	rc = 0;
out:
	git_diff_free(diff);
	git_tree_free(st);
	git_tree_free(tt);
	git_commit_free(sc);
	git_commit_free(tc);
	return rc;
}
