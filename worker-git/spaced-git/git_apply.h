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

#ifndef GIT_APPLY_H
#define GIT_APPLY_H

#include <git2.h>

#include "quarantine.h"

/*
 * The owner's side of `spacectl apply` (issue 24): the pack the
 * quarantine wrote (qr_pack_out) into the user's repository, checked
 * again there, then a branch (-b) or the index and work tree (-w).
 * Nothing in the repository changes on a refusal or an abort.  Pure
 * library code, no messages: spaced-git calls it as the owner.
 */

/*
 * The pack is indexed into a folder of its own under objects/
 * (spaced-incoming-*), read from there through a repository handle of
 * our own, and linked into objects/pack only once every check passed:
 * a refusal after the indexer's commit then never removes a pack of the
 * same name the user had already.  A process killed mid-way leaves
 * that folder behind, as git's incoming-* ones; nothing points into it.
 * The owner checks again what the quarantine checked (qr_check on the
 * repository, the same caps and tree policy): every object of the pack
 * reached by a new commit, every new commit descending from base, no
 * flag outside `allow` (never a never-allowed one).
 *
 * GA_BRANCH (-b): the branch ("spaced/x" or "refs/heads/spaced/x",
 * nothing outside refs/heads/; git_reference_name_is_valid and
 * git_branch_name_is_valid) is created at tip, or fast-forwarded when
 * its target is an ancestor of tip; one that moved elsewhere is refused
 * (branch_moved), never forced, and the update is a compare-and-swap
 * under the ref's lock.  A branch checked out in any work tree is
 * refused (branch_checked_out): moving it would change what HEAD shows.
 * HEAD, the index, the work tree and the config are not written.
 *
 * GA_WORKTREE (-w): only when HEAD is base (head_moved), no merge or
 * rebase is under way and the index and work tree equal HEAD
 * (not_clean).  Untracked files count as not clean unless ignored: the
 * change would mix the agent's new files with the user's own in one
 * uncommitted state that `git checkout .` and `git clean` cannot take
 * apart again, and the quarantine never saw them.  Ignored files (build
 * output) may stay; one in the way of a path the change writes is a
 * refusal, never an overwrite.  The change is a libgit2 checkout of
 * tip's tree with base's as the baseline (GIT_CHECKOUT_SAFE): index and
 * work tree get it, HEAD stays base, so it is staged and uncommitted as
 * `git apply --index` leaves it, exact for binaries, modes, links and
 * deletions, and a 100 MB file is never held as a patch in memory.  The
 * checkout decides every conflict before it writes a file.  libgit2
 * runs no program: no hook, no fsmonitor, no filter or diff driver of
 * the user's config or the agent's .gitattributes (it has no process
 * filters; only its built-in text and ident conversions apply, as git's
 * own checkout would).
 *
 * Error text starts with a code (GA_ERR_*), then ": " and why.
 */
#define GA_BRANCH	1
#define GA_WORKTREE	2

#define GA_ERR_BAD_REQUEST	"bad_request"
#define GA_ERR_BAD_BRANCH	"invalid_branch"
#define GA_ERR_BRANCH_MOVED	"branch_moved"
#define GA_ERR_CHECKED_OUT	"branch_checked_out"
#define GA_ERR_HEAD_MOVED	"head_moved"
#define GA_ERR_NOT_CLEAN	"not_clean"
#define GA_ERR_NO_WORK_TREE	"not_a_git_work_tree"
#define GA_ERR_INDEX_SPLIT	"unsupported_index_format"
#define GA_ERR_BASE_MISSING	"base_missing"
#define GA_ERR_PACK_REFUSED	"pack_refused"
#define GA_ERR_FLAGGED		"flagged"
#define GA_ERR_TIMEOUT		"command_timeout"
#define GA_ERR_GIT		"git_command_failed"

struct ga_req {
	int		 mode;		/* GA_BRANCH or GA_WORKTREE */
	char		 branch[256];	/* GA_BRANCH */
	git_oid		 base, tip;
	unsigned	 allow;		/* policy reasons allowed by name */
	git_oid		 start;		/* zero: base */
};

struct ga_result {
	int		 gr_mode;
	char		 gr_branch[300];	/* the full ref name */
	int		 gr_created;		/* -b: the branch is new */
	int		 gr_unchanged;		/* -b: it was at tip already */
	int		 gr_replaced;		/* -b: see earlier_work() */
	git_oid		 gr_old;		/* -b: before (zero: none) */
	git_oid		 gr_new;		/* tip */
	uint32_t	 gr_commits;		/* new commits checked */
	uint32_t	 gr_objects;		/* in the pack */
	uint32_t	 gr_flags;		/* allowed reasons seen */
	/* -w: what the index and work tree got, base to tip */
	uint32_t	 gr_added, gr_modified, gr_deleted;
	char		*gr_paths;	/* records "A path\0", M, D, T */
	size_t		 gr_paths_len;
};

struct ga_apply;

/*
 * Additions to the boundary's API (codeout-boundary.md): ga_req.start
 * (zero: base), the code-in snapshot the work started on; ga_have(), a
 * commit the quarantine may leave out of the pack (qr_pack_out's have:
 * a second apply brings only what is new); ga_error(), the refusal
 * ga_feed met; ga_set_caps(), before the first byte; ga_result_free().
 * ga_feed and ga_finish enforce the time cap (qc_seconds from
 * ga_begin); a stream that stalls is the caller's to time out.
 */

int		 ga_begin(git_repository *, const struct ga_req *,
		    struct ga_apply **, char *, size_t);
void		 ga_set_caps(struct ga_apply *, const struct qr_caps *);
int		 ga_have(const struct ga_apply *, git_oid *);
int		 ga_feed(struct ga_apply *, const void *, size_t);
const char	*ga_error(const struct ga_apply *);
int		 ga_finish(struct ga_apply *, struct ga_result *, char *,
		    size_t);
void		 ga_free(struct ga_apply *);
void		 ga_result_free(struct ga_result *);

#endif /* GIT_APPLY_H */
