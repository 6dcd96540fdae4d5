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

#ifndef QUARANTINE_H
#define QUARANTINE_H

#include <time.h>

#include <git2.h>
#include <git2/indexer.h>

#include "packscan.h"
#include "tree_policy.h"

/*
 * Code out's quarantine: a bare object store of its own, never the
 * user's repository, that a pack from a space is indexed into and
 * checked in (docs/notes/spaced-git-codeout.md).
 */

struct qr_caps {
	struct packscan_caps	 qc_pack;
	struct policy_caps	 qc_policy;
	uint32_t		 qc_commits_max;
	uint32_t		 qc_seconds;	/* index and check, each */
	size_t			 qc_data_max;	/* a link's or attributes' bytes read */
};
#define QR_COMMITS_MAX	10000
#define QR_SECONDS	600
#define QR_DATA_MAX	(1024 * 1024)
/* The refusal of work whose history was rewritten, with what to do. */
#define QR_NOT_DESCENDING	"a commit that does not descend from the " \
	"start: the agent's history was rewritten past where code in began " \
	"(an amend, a rebase or a reset); in the space, rebase the work onto " \
	"refs/spaced/base, then try again"

/* One flagged entry: its reason (a policy bit), commit and raw path. */
typedef void	qr_report_fn(void *, uint32_t, const git_oid *, const char *,
		    size_t);

struct qr_result {
	uint32_t	 qr_flags;	/* every reason seen */
	uint32_t	 qr_commits;	/* new commits */
	uint32_t	 qr_objects;	/* in the pack */
	char		 qr_pack[GIT_OID_HEXSZ + 1];
	/* qr_pack's .idx when it is not in the store's objects/pack */
	const char	*qr_idx;
};

/* A pack as it streams in (qr_index reads one from an fd). */
struct qr_feed {
	struct packscan		 qf_scan;
	git_indexer		*qf_idx;
	git_odb			*qf_odb;
	git_indexer_progress	 qf_stats;
	time_t			 qf_deadline;
};
/*
 * qr_pack_out's request: the work from base (and start, the code-in
 * snapshot) to tip, less what the owner has (have: ga_have(), zero for
 * none), with the reasons allowed by name.
 */
struct qr_out {
	git_oid		 qo_base, qo_start, qo_tip;
	git_oid		 qo_have;
	uint32_t	 qo_allow;
};
/* Pack bytes, in order; non-zero stops the pack. */
typedef int	qr_write_fn(void *, const void *, size_t);

void	 qr_caps_default(struct qr_caps *);
int	 qr_feed_begin(git_repository *, const struct qr_caps *,
	    struct qr_feed *, const char **);
int	 qr_feed_data(struct qr_feed *, const void *, size_t, const char **);
int	 qr_feed_finish(struct qr_feed *, struct qr_result *, const char **);
void	 qr_feed_free(struct qr_feed *);
int	 qr_index(git_repository *, int, const struct qr_caps *,
	    struct qr_result *, const char **);
int	 qr_tip(git_repository *, const git_oid *, struct qr_result *,
	    git_oid *, const char **);
int	 qr_check(git_repository *, const git_oid *, const git_oid *,
	    const git_oid *, const struct qr_caps *, qr_report_fn *, void *,
	    struct qr_result *, const char **);
int	 qr_pack_out(git_repository *, const struct qr_out *,
	    const struct qr_caps *, struct qr_result *, qr_write_fn *, void *,
	    const char **);

int	 qr_commits(git_repository *, const struct qr_result *,
	    const git_oid *, git_oid **, size_t *, const char **);
/* qr_review.c: the checks, and the review sent as records */
/* qr_kept.c: the record of the store a check left */
#define QR_KEPT_LEN	(4 * (GIT_OID_HEXSZ + 1))
struct qr_kept {
	git_oid		 qk_base, qk_start, qk_tip;
	char		 qk_pack[GIT_OID_HEXSZ + 1];
};
int	 qr_kept_parse(const char *, size_t, struct qr_kept *);
void	 qr_kept_write(const char *, const git_oid *, const git_oid *,
	    const git_oid *, const char *);
const char *qr_kept_take(const char *, const git_oid *, const git_oid *,
	    const git_oid *, struct qr_kept *);
struct git_review_rec;
typedef void	qr_send_fn(const struct git_review_rec *);
int	 qr_review(git_repository *, const git_oid *, const git_oid *,
	    const git_oid *, const struct qr_caps *, struct qr_result *,
	    uint32_t, qr_send_fn *, const char **);

#endif
