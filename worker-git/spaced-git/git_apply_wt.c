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
 * apply -w: is the work tree where the work started and clean, what
 * base to tip changes, and the libgit2 checkout that writes it to the
 * index and work tree (git_apply.h says why each is so).
 */

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "git_apply_wt.h"
#include "git_worker.h"

struct conflict {
	size_t	 c_count;
	char	 c_path[512];
};

static const char *
git_why(void)
{
	const git_error	*e = git_error_last();

	return e != NULL && e->message != NULL ? e->message : "libgit2 failed";
}

static void
escaped(char *out, size_t outlen, const char *path)
{
	policy_escape(out, outlen, path, strlen(path));
}

/*
 * -1 when libgit2 could not read the index for it is split or sparse:
 * named, or -w said not_clean of a clean tree (its status reads the
 * index too).
 */
static int
split(char *err, size_t len)
{
	if (libgit2_index_sparse()) {
		snprintf(err, len, "%s: the index is sparse (index.sparse, "
		    "a sparse checkout), which libgit2 cannot read: -w needs "
		    "the whole work tree; apply to a branch (-b)",
		    GA_ERR_NO_WORK_TREE);
		return -1;
	}
	if (!libgit2_index_split())
		return 0;
	snprintf(err, len, "%s: %s, or apply to a branch (-b)",
	    GA_ERR_INDEX_SPLIT, INDEX_SPLIT_WHY);
	return -1;
}

/*
 * A sparse checkout, or any skip-worktree entry: libgit2 (1.5) knows
 * none, so its status calls each file outside the checkout deleted,
 * and its checkout would write the work's files there.  Refused by name.
 */
static int
sparse(git_repository *r, char *err, size_t len)
{
	git_index		*index;
	const git_index_entry	*e, *first = NULL;
	char			 path[512];
	size_t			 i, n = 0;

	if (git_repository_index(&index, r) != 0)
		return split(err, len);
	/* As it is on disk now. */
	if (git_index_read(index, 0) != 0 &&
	    (libgit2_index_split() || libgit2_index_sparse())) {
		git_index_free(index);
		return split(err, len);
	}
	for (i = 0; (e = git_index_get_byindex(index, i)) != NULL; i++)
		if (e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) {
			if (first == NULL)
				first = e;
			n++;
		}
	if (first != NULL) {
		escaped(path, sizeof(path), first->path);
		snprintf(err, len, "%s: %s%s marked skip-worktree (a sparse "
		    "checkout, or git update-index --skip-worktree): -w needs "
		    "the whole work tree; apply to a branch (-b)",
		    GA_ERR_NO_WORK_TREE, path, n > 1 ? " and more are" : " is");
	}
	git_index_free(index);
	return first != NULL ? -1 : 0;
}

/* Index and work tree as HEAD, untracked files that are not ignored too. */
static int
clean(git_repository *r, char *err, size_t len)
{
	git_status_options	 so;
	git_status_list		*sl = NULL;
	const git_status_entry	*e;
	const git_diff_delta	*d;
	char			 path[512];
	size_t			 n;

	if (git_repository_state(r) != GIT_REPOSITORY_STATE_NONE) {
		snprintf(err, len, "%s: a merge, rebase or other operation is "
		    "under way", GA_ERR_NOT_CLEAN);
		return -1;
	}
	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;
	if (git_status_list_new(&sl, r, &so) != 0) {
		snprintf(err, len, "%s: the status cannot be read: %s",
		    GA_ERR_NOT_CLEAN, git_why());
		return -1;
	}
	if ((n = git_status_list_entrycount(sl)) == 0) {
		git_status_list_free(sl);
		return 0;
	}
	e = git_status_byindex(sl, 0);
	d = e->head_to_index != NULL ? e->head_to_index : e->index_to_workdir;
	escaped(path, sizeof(path), d != NULL ? (d->new_file.path != NULL ?
	    d->new_file.path : d->old_file.path) : "?");
	snprintf(err, len, "%s: %zu path%s differ%s from HEAD (%s%s); commit, "
	    "stash or remove %s first", GA_ERR_NOT_CLEAN, n, n == 1 ? "" : "s",
	    n == 1 ? "s" : "", path, n == 1 ? "" : ", ...",
	    n == 1 ? "it" : "them");
	git_status_list_free(sl);
	return -1;
}

/*
 * Another git's index.lock (one running, or one that crashed): libgit2's
 * checkout wrote the files first and only then failed to lock the
 * index, a work tree changed by a failed apply.  A look, not a lock.
 */
static int
index_locked(git_repository *r, char *err, size_t len)
{
	struct stat	 st;
	char		 path[PATH_MAX], shown[512];

	if (snprintf(path, sizeof(path), "%sindex.lock",
	    git_repository_path(r)) >= (int)sizeof(path)) {
		snprintf(err, len, "%s: the path is too long", GA_ERR_GIT);
		return -1;
	}
	if (lstat(path, &st) == -1 && errno == ENOENT)
		return 0;
	escaped(shown, sizeof(shown), path);
	snprintf(err, len, "%s: %s exists: another git runs in this "
	    "repository, or one crashed (then remove it)", GA_ERR_NOT_CLEAN,
	    shown);
	return -1;
}

int
gaw_ready(git_repository *r, const git_oid *base, char *err, size_t len)
{
	git_oid	 head;
	char	 hh[GIT_OID_HEXSZ + 1], bh[GIT_OID_HEXSZ + 1];

	if (git_repository_is_bare(r)) {
		snprintf(err, len, "%s: the repository has no work tree; "
		    "apply to a branch", GA_ERR_NO_WORK_TREE);
		return -1;
	}
	if (git_reference_name_to_id(&head, r, "HEAD") != 0) {
		snprintf(err, len, "%s: HEAD names no commit", GA_ERR_HEAD_MOVED);
		return -1;
	}
	if (!git_oid_equal(&head, base)) {
		snprintf(err, len, "%s: HEAD is at %s, the work started from "
		    "%s; apply to a branch", GA_ERR_HEAD_MOVED,
		    git_oid_tostr(hh, sizeof(hh), &head),
		    git_oid_tostr(bh, sizeof(bh), base));
		return -1;
	}
	if (index_locked(r, err, len) == -1 || sparse(r, err, len) == -1)
		return -1;
	return clean(r, err, len);
}

static int
trees(git_repository *r, const git_oid *base, const git_oid *tip,
    git_tree **bt, git_tree **tt, char *err, size_t len)
{
	git_commit	*bc = NULL, *tc = NULL;
	int		 rc = -1;

	*bt = *tt = NULL;
	if (git_commit_lookup(&bc, r, base) == 0 &&
	    git_commit_lookup(&tc, r, tip) == 0 &&
	    git_commit_tree(bt, bc) == 0 && git_commit_tree(tt, tc) == 0)
		rc = 0;
	else
		snprintf(err, len, "%s: %s", GA_ERR_GIT, git_why());
	git_commit_free(bc);
	git_commit_free(tc);
	return rc;
}

static int
path_add(struct ga_result *gr, char status, const char *path)
{
	size_t	 n = strlen(path) + 3;
	char	*v;

	if ((v = realloc(gr->gr_paths, gr->gr_paths_len + n)) == NULL)
		return -1;
	gr->gr_paths = v;
	v += gr->gr_paths_len;
	v[0] = status;
	v[1] = ' ';
	memcpy(v + 2, path, n - 2);
	gr->gr_paths_len += n;
	return 0;
}

/*
 * Each path base to tip changes, by tree ids alone: no rename detection
 * and no binary check, so no blob is read and no attribute consulted.
 */
int
gaw_changes(git_repository *r, const git_oid *base, const git_oid *tip,
    struct ga_result *gr, char *err, size_t len)
{
	git_diff_options	 opts;
	git_diff		*diff = NULL;
	git_tree		*bt, *tt;
	const git_diff_delta	*d;
	size_t			 i, n;
	char			 st;
	int			 rc = -1;

	if (trees(r, base, tip, &bt, &tt, err, len) == -1)
		goto out;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_SKIP_BINARY_CHECK;
	if (git_diff_tree_to_tree(&diff, r, bt, tt, &opts) != 0) {
		snprintf(err, len, "%s: %s", GA_ERR_GIT, git_why());
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		d = git_diff_get_delta(diff, i);
		switch (d->status) {
		case GIT_DELTA_ADDED:
			st = 'A';
			gr->gr_added++;
			break;
		case GIT_DELTA_DELETED:
			st = 'D';
			gr->gr_deleted++;
			break;
		case GIT_DELTA_TYPECHANGE:
			st = 'T';
			gr->gr_modified++;
			break;
		default:
			st = 'M';
			gr->gr_modified++;
			break;
		}
		if (path_add(gr, st, d->status == GIT_DELTA_DELETED ?
		    d->old_file.path : d->new_file.path) == -1) {
			snprintf(err, len, "%s: out of memory", GA_ERR_GIT);
			goto out;
		}
	}
	rc = 0;
out:
	git_diff_free(diff);
	git_tree_free(bt);
	git_tree_free(tt);
	return rc;
}

static int
conflict_seen(git_checkout_notify_t why, const char *path,
    const git_diff_file *baseline, const git_diff_file *target,
    const git_diff_file *workdir, void *arg)
{
	struct conflict	*c = arg;

	(void)why;
	(void)baseline;
	(void)target;
	(void)workdir;
	if (c->c_count++ == 0)
		escaped(c->c_path, sizeof(c->c_path), path);
	return 0;
}

/*
 * Tip's tree over base's into the index and work tree; HEAD stays.  An
 * ignored file in the way is a conflict, not an overwrite, and libgit2
 * decides every conflict before it writes anything.
 */
int
gaw_checkout(git_repository *r, const git_oid *base, const git_oid *tip,
    char *err, size_t len)
{
	git_checkout_options	 co;
	struct conflict		 c;
	git_tree		*bt, *tt;
	int			 rc = -1, grc;

	memset(&c, 0, sizeof(c));
	if (trees(r, base, tip, &bt, &tt, err, len) == -1)
		goto out;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_SAFE |
	    GIT_CHECKOUT_DONT_OVERWRITE_IGNORED;
	co.baseline = bt;
	co.notify_flags = GIT_CHECKOUT_NOTIFY_CONFLICT;
	co.notify_cb = conflict_seen;
	co.notify_payload = &c;
	grc = git_checkout_tree(r, (const git_object *)tt, &co);
	if (grc == 0 && c.c_count == 0)
		rc = 0;
	else if (c.c_count > 0 || grc == GIT_ECONFLICT)
		snprintf(err, len, "%s: %zu path%s in the way (%s)",
		    GA_ERR_NOT_CLEAN, c.c_count, c.c_count == 1 ? " is" :
		    "s are", c.c_count > 0 ? c.c_path : git_why());
	else
		snprintf(err, len, "%s: the checkout failed: %s", GA_ERR_GIT,
		    git_why());
out:
	git_tree_free(bt);
	git_tree_free(tt);
	return rc;
}
