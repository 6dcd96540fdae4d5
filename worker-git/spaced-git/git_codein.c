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
 * Code in, on the host: the snapshot (two commits and the host ref that
 * keeps them), the packs that carry them into a space, and the removal
 * of the space's refs.  The user's index is read, never written: the
 * working tree is added to the repository's index in memory only, and
 * what reaches the disk is new loose objects and the one ref, created
 * against nothing so that it never moves a ref that appeared meanwhile.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "errors.h"
#include "git_proto.h"
#include "imsg.h"
#include "place_proto.h"
#include "log.h"
#include "proc.h"
#include "git_worker.h"

#define SNAP_NAME	"spaced"
#define SNAP_EMAIL	"spaces@spaced.invalid"
#define REF_PREFIX	"refs/spaced/spaces/"
/* Untracked repositories a snapshot leaves out, at most. */
#define NESTED_MAX	1024

static void
ref_name(char *buf, size_t len, const char *space, const char *leaf)
{
	snprintf(buf, len, REF_PREFIX "%s/%s", space, leaf);
}

/*
 * The top level's base name, as the folder inside is called: the
 * spec's rule (a run of other characters one '-', no leading dot or
 * dash, 64 at most, "project" when nothing is left or for
 * node_modules).  Bytes outside ASCII are lost by it, so that two such
 * names met in one folder (space_path_in_use): a name that had any
 * ends with '-' and 8 hex of its whole base name's FNV-1a, the same
 * from one spaced to the next.
 */
static void
project_name(const char *top, char *name, size_t len)
{
	const char		*base = strrchr(top, '/');
	const unsigned char	*c;
	size_t			 n = 0, max = 64;
	uint32_t		 h = 2166136261U;
	int			 dash = 0, wide = 0;

	base = base != NULL ? base + 1 : top;
	for (c = (const unsigned char *)base; *c != '\0'; c++) {
		h = (h ^ *c) * 16777619U;
		wide |= *c >= 0x80;
	}
	if (wide)
		max -= 1 + 8;
	for (; *base != '\0' && n + 1 < len && n < max; base++) {
		if (isalnum((unsigned char)*base) || *base == '.' ||
		    *base == '_' || *base == '-') {
			if (n == 0 && (*base == '.' || *base == '-'))
				continue;
			name[n++] = *base;
			dash = 0;
		} else if (!dash && n > 0) {
			name[n++] = '-';
			dash = 1;
		}
	}
	if (wide && n > 0 && name[n - 1] == '-')
		n--;
	name[n] = '\0';
	if (n == 0 || strcmp(name, "node_modules") == 0)
		strlcpy(name, "project", len);
	if (wide) {
		n = strlen(name);
		snprintf(name + n, len - n, "-%08x", (unsigned int)h);
	}
}

/* One short line, or nothing: git's own guess would name this host. */
static void
identity(git_config *cfg, const char *key, char *out, size_t len)
{
	git_buf	 buf = { 0 };

	out[0] = '\0';
	if (git_config_get_string_buf(&buf, cfg, key) == 0 &&
	    buf.size > 0 && buf.size < len &&
	    strcspn(buf.ptr, "\r\n") == buf.size)
		strlcpy(out, buf.ptr, len);
	git_buf_dispose(&buf);
}

struct nested {
	char		*path[NESTED_MAX];	/* each ends with '/' */
	size_t		 n;
	git_repository	*r;
	git_index	*index;		/* the one add_all changes */
	git_config	*cfg;
	char		 filtered[512];	/* the path that needs a filter */
};

static void
nested_free(struct nested *ns)
{
	while (ns->n > 0)
		free(ns->path[--ns->n]);
}

/* Untracked repositories: libgit2 reports each as "dir/". */
static int
nested_find(git_repository *r, struct nested *ns)
{
	git_status_options	 so;
	git_status_list		*list;
	const git_status_entry	*e;
	const char		*p;
	size_t			 i, n;

	if (git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION) != 0)
		return -1;
	so.show = GIT_STATUS_SHOW_WORKDIR_ONLY;
	so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED |
	    GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
	    GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&list, r, &so) != 0)
		return -1;
	n = git_status_list_entrycount(list);
	for (i = 0; i < n && ns->n < NESTED_MAX; i++) {
		e = git_status_byindex(list, i);
		if ((e->status & GIT_STATUS_WT_NEW) == 0 ||
		    e->index_to_workdir == NULL)
			continue;
		p = e->index_to_workdir->new_file.path;
		if (p[0] != '\0' && p[strlen(p) - 1] == '/' &&
		    (ns->path[ns->n] = strdup(p)) != NULL)
			ns->n++;
	}
	git_status_list_free(list);
	return 0;
}

/*
 * libgit2 runs no clean filter program (Git LFS and the like): a file
 * whose attributes name a filter with filter.<name>.clean or .process
 * configured would be stored raw, where the user's own git add stores
 * what the filter makes.  Such a file refuses the snapshot instead.
 */
static int
needs_clean_filter(struct nested *ns, const char *path)
{
	git_config_entry	*ce;
	const char		*v;
	char			 key[256];
	const char		*kinds[] = { "clean", "process" };
	size_t			 k;

	if (git_attr_get(&v, ns->r, GIT_ATTR_CHECK_FILE_THEN_INDEX, path,
	    "filter") != 0 || git_attr_value(v) != GIT_ATTR_VALUE_STRING)
		return 0;
	for (k = 0; k < 2; k++) {
		snprintf(key, sizeof(key), "filter.%s.%s", v, kinds[k]);
		if (git_config_get_entry(&ce, ns->cfg, key) == 0) {
			git_config_entry_free(ce);
			snprintf(ns->filtered, sizeof(ns->filtered), "%s (%s)",
			    path, v);
			return 1;
		}
	}
	return 0;
}

/*
 * A sparse checkout's entry outside the checkout (skip-worktree): its
 * file is absent by design, and git add --all leaves the entry as the
 * index has it.  libgit2 would record it deleted, the start would lack
 * it, and the agent's commit -a would delete it, unseen in a review
 * against the start.
 */
static int
skip_worktree(git_index *index, const char *path)
{
	const git_index_entry	*e = git_index_get_bypath(index, path, 0);

	return e != NULL &&
	    (e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0;
}

/* Each path add_all and update_all would take: >0 skips, <0 stops. */
static int
add_path(const char *path, const char *matched, void *arg)
{
	struct nested	*ns = arg;
	size_t		 i;

	if (skip_worktree(ns->index, path))
		return 1;
	for (i = 0; i < ns->n; i++)
		if (strncmp(path, ns->path[i], strlen(ns->path[i])) == 0 ||
		    strncmp(path, ns->path[i], strlen(ns->path[i]) - 1) == 0)
			return 1;
	return needs_clean_filter(ns, path) ? -1 : 0;
}

/*
 * The working tree as `git add --all` would record it, in memory.  -1
 * for libgit2, -2 for a file that needs a clean filter (in filtered).
 */
static int
working_tree(git_repository *r, git_index *index, git_oid *tree,
    char *filtered, size_t len)
{
	struct nested	 ns;
	int		 rc = -1;

	memset(&ns, 0, sizeof(ns));
	ns.r = r;
	ns.index = index;
	if (git_repository_config_snapshot(&ns.cfg, r) != 0)
		return -1;
	if (nested_find(r, &ns) == 0 &&
	    git_index_add_all(index, NULL, GIT_INDEX_ADD_DEFAULT, add_path,
	    &ns) == 0 &&
	    git_index_update_all(index, NULL, add_path, &ns) == 0 &&
	    git_index_write_tree(tree, index) == 0)
		rc = 0;
	if (ns.filtered[0] != '\0') {
		strlcpy(filtered, ns.filtered, len);
		rc = -2;
	}
	git_config_free(ns.cfg);
	nested_free(&ns);
	return rc;
}

/*
 * git add -N entries: git's write-tree leaves them out of the staged
 * tree, and its add --all records their content.  Dropped from the
 * index in memory (never written), they are untracked files to
 * add_all, which gives both; the mark itself does not travel (spec
 * "Known limits").
 */
static int
intent_to_add_drop(git_index *index)
{
	const git_index_entry	*e;
	size_t			 i;

	for (i = git_index_entrycount(index); i > 0; i--) {
		e = git_index_get_byindex(index, i - 1);
		if (e != NULL &&
		    (e->flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) &&
		    git_index_remove(index, e->path,
		    GIT_INDEX_ENTRY_STAGE(e)) != 0)
			return -1;
	}
	return 0;
}

static int
reflog_exists(git_repository *r, const char *name)
{
	char		 path[PATH_MAX];
	struct stat	 sb;

	snprintf(path, sizeof(path), "%slogs/%s",
	    git_repository_commondir(r), name);
	return lstat(path, &sb) == 0;
}

/*
 * rmdir each folder of path from its last '/' back to stop (a prefix
 * of path); rmdir takes only an empty one, as git prunes after a ref.
 */
static void
folders_prune(char *path, size_t stop)
{
	char	*slash;

	while ((slash = strrchr(path, '/')) != NULL &&
	    (size_t)(slash - path) > stop) {
		*slash = '\0';
		if (rmdir(path) == -1)
			break;
	}
}

/*
 * libgit2, like git, logs a ref outside refs/heads, remotes and notes
 * only with core.logAllRefUpdates=always.  The spec allows no reflog,
 * so one that came with our ref goes again, with the folders it made.
 */
static void
reflog_undo(git_repository *r, const char *name)
{
	char	 path[PATH_MAX];
	size_t	 stop;

	if (git_reflog_delete(r, name) != 0)
		log_warnx("reflog of %s stays", name);
	snprintf(path, sizeof(path), "%slogs/", git_repository_commondir(r));
	stop = strlen(path) + strlen("refs");
	strlcat(path, name, sizeof(path));
	folders_prune(path, stop);
}

static int
commit_tree(git_repository *r, git_oid *out, const git_oid *tree_id,
    const git_commit *parent, const char *message)
{
	git_signature	*sig;
	git_tree	*tree;
	int		 rc;

	if (git_signature_now(&sig, SNAP_NAME, SNAP_EMAIL) != 0)
		return -1;
	if (git_tree_lookup(&tree, r, tree_id) != 0) {
		git_signature_free(sig);
		return -1;
	}
	rc = git_commit_create(out, r, NULL, sig, sig, NULL, message, tree,
	    1, &parent);
	git_tree_free(tree);
	git_signature_free(sig);
	return rc;
}

/* Does the start have the project folder? */
static int
project_travels(git_repository *r, const git_oid *start, const char *rel)
{
	git_commit	*c;
	git_tree	*t;
	git_tree_entry	*e;
	int		 ok = 0;

	if (rel[0] == '\0')
		return 1;
	if (git_commit_lookup(&c, r, start) != 0)
		return 0;
	if (git_commit_tree(&t, c) == 0) {
		if (git_tree_entry_bypath(&e, t, rel) == 0) {
			ok = git_tree_entry_type(e) == GIT_OBJECT_TREE;
			git_tree_entry_free(e);
		}
		git_tree_free(t);
	}
	git_commit_free(c);
	return ok;
}

/*
 * libgit2 reads no split index (core.splitIndex): read it ourselves,
 * merged in memory.  -2 with the refusal in sd when it is split and
 * cannot be read; -1 for any other failure of libgit2's.
 */
static int
split_index(git_repository *r, struct space_done *sd)
{
	const char	*why;

	if (!libgit2_index_split())
		return -1;
	if (split_index_load(r, &why) == 0)
		return 0;
	snap_refuse(sd, ERR_UNSUPPORTED_INDEX_FORMAT, "the split index "
	    "(core.splitIndex) cannot be read (%s): run git config "
	    "core.splitIndex false && git update-index --no-split-index "
	    "first", why);
	return -2;
}

/* 0, or -1 with the code and message in *sd. */
int
snapshot_take(git_repository *r, const char *space, int clean,
    struct git_snap *gs, struct space_done *sd)
{
	git_reference	*head = NULL, *ref = NULL;
	git_commit	*head_commit = NULL, *staged_commit = NULL;
	git_index	*index = NULL;
	git_config	*cfg = NULL;
	git_oid		 staged_tree, work_tree, staged, start;
	char		 name[256], filtered[512];
	const char	*rel;
	int		 rc = -1, logged, w;

	memset(gs, 0, sizeof(*gs));
	ref_name(name, sizeof(name), space, "start");
	if (git_repository_head_unborn(r) == 1) {
		snap_refuse(sd, ERR_REPOSITORY_HAS_NO_COMMIT, "the repository "
		    "has no commit yet: commit once, then bring code in");
		goto out;
	}
	if (git_repository_head(&head, r) != 0 ||
	    git_reference_peel((git_object **)&head_commit, head,
	    GIT_OBJECT_COMMIT) != 0)
		goto libgit2;
	if (git_repository_index(&index, r) != 0) {
		if ((w = split_index(r, sd)) == -2)
			goto out;
		if (w == -1 || git_repository_index(&index, r) != 0)
			goto libgit2;
	}
	if (git_index_has_conflicts(index)) {
		snap_refuse(sd, ERR_REPOSITORY_HAS_UNMERGED, "the repository "
		    "has unresolved conflicts: resolve or abort the merge "
		    "first");
		goto out;
	}
	if (git_reference_lookup(&ref, r, name) == 0) {
		snap_refuse(sd, ERR_SPACE_REF_EXISTS, "%s exists already",
		    name);
		goto out;
	}
	/* Cut, it would be another branch inside than the host's. */
	if (!git_repository_head_detached(r) &&
	    strncmp(git_reference_name(head), "refs/heads/", 11) == 0 &&
	    strlcpy(gs->gs_branch, git_reference_name(head) + 11,
	    sizeof(gs->gs_branch)) >= sizeof(gs->gs_branch)) {
		snap_refuse(sd, ERR_INVALID_BRANCH_NAME, "the branch name is "
		    "longer than a space takes (%zu bytes): switch to a "
		    "shorter one", sizeof(gs->gs_branch) - 1);
		goto out;
	}
	if (clean) {
		git_oid_cpy(&staged_tree, git_commit_tree_id(head_commit));
		git_oid_cpy(&work_tree, &staged_tree);
	} else if (intent_to_add_drop(index) != 0 ||
	    git_index_write_tree(&staged_tree, index) != 0)
		goto libgit2;
	else if ((w = working_tree(r, index, &work_tree, filtered,
	    sizeof(filtered))) == -2) {
		snap_refuse(sd, ERR_CLEAN_FILTER_UNSUPPORTED, "%s needs a "
		    "clean filter, which spaced cannot run: commit it with "
		    "git first, or bring code in with --clean", filtered);
		goto out;
	} else if (w != 0)
		goto libgit2;
	if (commit_tree(r, &staged, &staged_tree, head_commit,
	    "spaced: staged snapshot") != 0 ||
	    git_commit_lookup(&staged_commit, r, &staged) != 0 ||
	    commit_tree(r, &start, &work_tree, staged_commit,
	    "spaced: working tree snapshot") != 0)
		goto libgit2;
	rel = strcmp(repo.rs_dir, repo.rs_top) == 0 ? "" :
	    repo.rs_dir + strlen(repo.rs_top) + 1;
	if (!project_travels(r, &start, rel)) {
		snap_refuse(sd, ERR_PROJECT_FOLDER_NO_TRAVEL, "%s is ignored "
		    "or empty, so it would not exist in the space", rel);
		goto out;
	}
	/* Against nothing: never moves a ref that appeared meanwhile. */
	logged = reflog_exists(r, name);
	if (git_reference_create(&ref, r, name, &start, 0,
	    "spaced: code in") != 0) {
		if (git_error_last() != NULL && git_reference_lookup(&ref, r,
		    name) == 0)
			snap_refuse(sd, ERR_SPACE_REF_EXISTS, "%s exists "
			    "already", name);
		else
			goto libgit2;
		goto out;
	}
	if (!logged && reflog_exists(r, name))
		reflog_undo(r, name);
	git_oid_tostr(gs->gs_base, sizeof(gs->gs_base),
	    git_commit_id(head_commit));
	git_oid_tostr(gs->gs_staged, sizeof(gs->gs_staged), &staged);
	git_oid_tostr(gs->gs_start, sizeof(gs->gs_start), &start);
	strlcpy(gs->gs_format, "sha1", sizeof(gs->gs_format));
	project_name(repo.rs_top, gs->gs_name, sizeof(gs->gs_name));
	strlcpy(gs->gs_project, rel, sizeof(gs->gs_project));
	if (git_repository_config_snapshot(&cfg, r) == 0) {
		identity(cfg, "user.name", gs->gs_user_name,
		    sizeof(gs->gs_user_name));
		identity(cfg, "user.email", gs->gs_user_email,
		    sizeof(gs->gs_user_email));
	}
	rc = 0;
	goto out;
libgit2:
	snap_libgit2(sd, "snapshot");
out:
	git_config_free(cfg);
	git_reference_free(ref);
	git_reference_free(head);
	git_commit_free(head_commit);
	git_commit_free(staged_commit);
	git_index_free(index);
	return rc;
}

/*
 * Where the space's history starts, from the host ref code in wrote:
 * start, its parent the staged snapshot, and that one's parent the
 * base.  Only commits of ours (the fixed identity) are taken for them.
 */
int
history_find(git_repository *r, const char *space, struct git_snap *gs,
    struct space_done *sd)
{
	memset(gs, 0, sizeof(*gs));
	if (git_repository_is_shallow(r) == 1) {
		snap_refuse(sd, ERR_HOST_SHALLOW, "this repository is shallow "
		    "itself: it has no more history to send");
		return -1;
	}
	return start_find(r, space, gs, sd);
}

/* The space's start and what it stands on (code out's base). */
int
start_find(git_repository *r, const char *space, struct git_snap *gs,
    struct space_done *sd)
{
	git_commit	*start = NULL, *staged = NULL;
	git_oid		 id;
	char		 name[256];
	int		 rc = -1;

	memset(gs, 0, sizeof(*gs));
	ref_name(name, sizeof(name), space, "start");
	if (git_reference_name_to_id(&id, r, name) != 0 ||
	    git_commit_lookup(&start, r, &id) != 0 ||
	    git_commit_parentcount(start) != 1 ||
	    git_commit_parent(&staged, start, 0) != 0 ||
	    git_commit_parentcount(staged) != 1 ||
	    strcmp(git_commit_author(start)->email, SNAP_EMAIL) != 0 ||
	    strcmp(git_commit_author(staged)->email, SNAP_EMAIL) != 0) {
		snap_refuse(sd, ERR_NOT_A_COMMIT, "%s is missing or not a "
		    "snapshot of code in: bring code in first", name);
		goto out;
	}
	git_oid_tostr(gs->gs_start, sizeof(gs->gs_start), &id);
	git_oid_tostr(gs->gs_staged, sizeof(gs->gs_staged),
	    git_commit_id(staged));
	git_oid_tostr(gs->gs_base, sizeof(gs->gs_base),
	    git_commit_parent_id(staged, 0));
	strlcpy(gs->gs_format, "sha1", sizeof(gs->gs_format));
	project_name(repo.rs_top, gs->gs_name, sizeof(gs->gs_name));
	/* Where DIR is below the top: code out keeps a review by the top. */
	if (strcmp(repo.rs_dir, repo.rs_top) != 0)
		strlcpy(gs->gs_project, repo.rs_dir + strlen(repo.rs_top) + 1,
		    sizeof(gs->gs_project));
	rc = 0;
out:
	git_commit_free(start);
	git_commit_free(staged);
	return rc;
}

/*
 * After the ref went: its reflog, should core.logAllRefUpdates=always
 * have made one, and the folders git would prune (refs/spaced/spaces/
 * <id>), each only when empty.
 */
static void
ref_gone(git_repository *r, const char *name)
{
	char	 path[PATH_MAX];

	if (reflog_exists(r, name))
		reflog_undo(r, name);
	snprintf(path, sizeof(path), "%s%s", git_repository_commondir(r),
	    name);
	folders_prune(path, strlen(git_repository_commondir(r)) +
	    strlen("refs"));
}

/* Every ref of the space, in one transaction. */
int
refs_remove(git_repository *r, const char *space, struct space_done *sd)
{
	git_reference_iterator	*it;
	git_transaction		*tx;
	git_reference		*ref;
	char			 glob[256], **names = NULL, **v;
	size_t			 i, n = 0;
	int			 rc = -1, err;

	ref_name(glob, sizeof(glob), space, "*");
	if (git_transaction_new(&tx, r) != 0) {
		snap_libgit2(sd, "transaction");
		return -1;
	}
	if (git_reference_iterator_glob_new(&it, r, glob) != 0)
		goto libgit2;
	while ((err = git_reference_next(&ref, it)) == 0) {
		if ((v = reallocarray(names, n + 1, sizeof(*names))) == NULL ||
		    (v[n] = strdup(git_reference_name(ref))) == NULL) {
			if (v != NULL)
				names = v;
			git_reference_free(ref);
			git_reference_iterator_free(it);
			snap_refuse(sd, ERR_CODE_IN_FAILED, "out of memory");
			goto out;
		}
		names = v;
		n++;
		if (git_transaction_lock_ref(tx, git_reference_name(ref)) != 0 ||
		    git_transaction_remove(tx, git_reference_name(ref)) != 0) {
			git_reference_free(ref);
			git_reference_iterator_free(it);
			goto libgit2;
		}
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	if (err != GIT_ITEROVER || git_transaction_commit(tx) != 0)
		goto libgit2;
	for (i = 0; i < n; i++)
		ref_gone(r, names[i]);
	rc = 0;
	goto out;
libgit2:
	snap_libgit2(sd, "remove refs");
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	git_transaction_free(tx);
	return rc;
}
