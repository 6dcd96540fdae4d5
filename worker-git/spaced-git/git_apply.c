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
 * Apply, the owner's side (git_apply.h): the quarantine's pack through
 * packscan into libgit2's indexer in a folder of our own, the checks
 * again, then the pack linked into objects/pack and one change made: a
 * branch created or fast-forwarded, or (git_apply_wt.c) the index and
 * work tree.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <git2/sys/odb_backend.h>

#include "git_proto.h"
#include "git_apply.h"
#include "git_apply_wt.h"

struct ga_apply {
	struct ga_req		 g_req;
	git_repository		*g_repo;	/* our own handle */
	struct qr_caps		 g_caps;
	struct packscan		 g_scan;
	git_indexer		*g_idx;
	git_indexer_progress	 g_stats;
	git_odb_backend		*g_pack;	/* the staged pack, in g_repo's odb */
	git_oid			 g_start;
	git_oid			 g_old;		/* -b: the branch's target */
	int			 g_has_old;
	int			 g_failed;
	int			 g_finished;
	time_t			 g_deadline;
	char			 g_ref[300];
	char			 g_objects[PATH_MAX / 2];	/* ends with '/' */
	char			 g_dir[PATH_MAX / 2 + 32];	/* staging */
	char			 g_linked[3][PATH_MAX];	/* ours to undo */
	int			 g_nlinked;
	char			 g_err[1024];
};

/* What the owner's qr_check found, for the message of a refusal. */
struct flagged {
	uint32_t	 f_allowed;
	uint32_t	 f_first;
	size_t		 f_count;
	char		 f_path[512];
};

static time_t
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int
say(char *err, size_t len, const char *code, const char *fmt, ...)
    __attribute__((__format__(printf, 4, 5)));

/* err is "code: why"; always -1. */
static int
say(char *err, size_t len, const char *code, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (len == 0)
		return -1;
	n = snprintf(err, len, "%s: ", code);
	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const char *
git_why(void)
{
	const git_error	*e = git_error_last();

	return e != NULL && e->message != NULL ? e->message : "libgit2 failed";
}

/* Every file of the staging folder, then the folder. */
static void
staging_remove(struct ga_apply *ga)
{
	struct dirent	*de;
	DIR		*d;

	if (ga->g_dir[0] == '\0')
		return;
	if ((d = opendir(ga->g_dir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") != 0 &&
			    strcmp(de->d_name, "..") != 0)
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	rmdir(ga->g_dir);
	ga->g_dir[0] = '\0';
}

/* What the pack was linked as, taken back: the change did not happen. */
static void
linked_undo(struct ga_apply *ga)
{
	while (ga->g_nlinked > 0) {
		const char	*p = ga->g_linked[--ga->g_nlinked];
		size_t		 n = strlen(p);

		if (n > 0 && p[n - 1] == '/')
			rmdir(p);
		else
			unlink(p);
	}
}

/*
 * The staged pack into objects/pack: the .pack before the .idx, as git
 * does (a reader ignores a pack without its index).  A name there
 * already is the same pack, the user's: never ours to remove.
 */
static int
link_pack(struct ga_apply *ga, char *err, size_t len)
{
	static const char *const	 ext[] = { "pack", "idx" };
	const char			*name = git_indexer_name(ga->g_idx);
	char				 src[PATH_MAX], dst[PATH_MAX];
	size_t				 i;

	if (ga->g_stats.total_objects == 0)	/* no work: nothing to keep */
		return 0;
	snprintf(dst, sizeof(dst), "%spack/", ga->g_objects);
	if (mkdir(dst, 0755) == 0)
		strlcpy(ga->g_linked[ga->g_nlinked++], dst, PATH_MAX);
	else if (errno != EEXIST)
		return say(err, len, GA_ERR_GIT, "%s: %s", dst, strerror(errno));
	for (i = 0; i < 2; i++) {
		snprintf(src, sizeof(src), "%s/pack-%s.%s", ga->g_dir, name,
		    ext[i]);
		snprintf(dst, sizeof(dst), "%spack/pack-%s.%s", ga->g_objects,
		    name, ext[i]);
		if (link(src, dst) == 0)
			strlcpy(ga->g_linked[ga->g_nlinked++], dst, PATH_MAX);
		else if (errno != EEXIST) {
			linked_undo(ga);
			return say(err, len, GA_ERR_GIT, "%s: %s", dst,
			    strerror(errno));
		}
	}
	return 0;
}

/* "spaced/x" or "refs/heads/spaced/x", a branch git would make. */
static int
branch_name(struct ga_apply *ga, char *err, size_t len)
{
	const char	*b = ga->g_req.branch, *shortname = b;
	int		 valid_ref = 0, valid_branch = 0;

	if (memchr(b, '\0', sizeof(ga->g_req.branch)) == NULL)
		return say(err, len, GA_ERR_BAD_BRANCH, "the name is too long");
	if (strncmp(b, "refs/", 5) == 0) {
		if (strncmp(b, "refs/heads/", 11) != 0)
			return say(err, len, GA_ERR_BAD_BRANCH,
			    "only a branch (refs/heads/) can be applied to");
		shortname = b + 11;
	}
	snprintf(ga->g_ref, sizeof(ga->g_ref), "refs/heads/%s", shortname);
	if (git_reference_name_is_valid(&valid_ref, ga->g_ref) != 0 ||
	    git_branch_name_is_valid(&valid_branch, shortname) != 0 ||
	    !valid_ref || !valid_branch || shortname[0] == '-')
		return say(err, len, GA_ERR_BAD_BRANCH,
		    "not a name git takes for a branch");
	return 0;
}

static int
checked_out(struct ga_apply *ga, git_reference *ref, char *err, size_t len)
{
	if (git_branch_is_checked_out(ref) == 1)
		return say(err, len, GA_ERR_CHECKED_OUT, "%s is checked out "
		    "(moving it would change what HEAD shows); apply to "
		    "another branch", ga->g_ref);
	return 0;
}

/*
 * A new branch git could not make beside a branch there: refs/heads/a
 * and refs/heads/a/b cannot both be (a file and a folder of one name).
 */
static int
branch_clash(struct ga_apply *ga, char *err, size_t len)
{
	git_reference_iterator	*it;
	git_reference		*ref;
	char			 name[sizeof(ga->g_ref) + 2];
	char			 other[sizeof(ga->g_ref)];
	char			*p;

	other[0] = '\0';
	strlcpy(name, ga->g_ref, sizeof(name));
	for (p = name + 11; other[0] == '\0' && (p = strchr(p, '/')) != NULL;
	    *p++ = '/') {
		*p = '\0';
		if (git_reference_lookup(&ref, ga->g_repo, name) == 0) {
			strlcpy(other, name, sizeof(other));
			git_reference_free(ref);
		}
	}
	snprintf(name, sizeof(name), "%s/*", ga->g_ref);
	if (other[0] == '\0' &&
	    git_reference_iterator_glob_new(&it, ga->g_repo, name) == 0) {
		if (git_reference_next(&ref, it) == 0) {
			strlcpy(other, git_reference_name(ref), sizeof(other));
			git_reference_free(ref);
		}
		git_reference_iterator_free(it);
	}
	if (other[0] == '\0')
		return 0;
	return say(err, len, GA_ERR_BAD_BRANCH, "%s cannot be made beside "
	    "%s (git keeps no branch both a name and a folder of names); "
	    "apply to another branch (-b NAME)", ga->g_ref, other);
}

/*
 * The branch as it is: none, or a target an apply of this work can
 * fast-forward (an ancestor of base, or a descendant: a first apply).
 */
static int
branch_begin(struct ga_apply *ga, char *err, size_t len)
{
	git_reference	*ref = NULL;
	git_commit	*old;
	const git_oid	*base = &ga->g_req.base;
	char		 hex[GIT_OID_HEXSZ + 1];
	int		 rc;

	if (branch_name(ga, err, len) == -1)
		return -1;
	rc = git_reference_lookup(&ref, ga->g_repo, ga->g_ref);
	if (rc == GIT_ENOTFOUND)
		return branch_clash(ga, err, len);
	if (rc != 0)
		return say(err, len, GA_ERR_GIT, "%s: %s", ga->g_ref,
		    git_why());
	if (git_reference_type(ref) != GIT_REFERENCE_DIRECT) {
		git_reference_free(ref);
		return say(err, len, GA_ERR_BAD_BRANCH, "%s is a symbolic "
		    "ref", ga->g_ref);
	}
	git_oid_cpy(&ga->g_old, git_reference_target(ref));
	ga->g_has_old = 1;
	rc = checked_out(ga, ref, err, len);
	git_reference_free(ref);
	if (rc == -1)
		return -1;
	if (git_commit_lookup(&old, ga->g_repo, &ga->g_old) != 0)
		return say(err, len, GA_ERR_BRANCH_MOVED, "%s names no commit; "
		    "it is not forced", ga->g_ref);
	git_commit_free(old);
	if (git_oid_equal(&ga->g_old, base) ||
	    git_graph_descendant_of(ga->g_repo, base, &ga->g_old) == 1 ||
	    git_graph_descendant_of(ga->g_repo, &ga->g_old, base) == 1)
		return 0;
	return say(err, len, GA_ERR_BRANCH_MOVED, "%s is at %s, which is not "
	    "on the line of this work; it is not forced: apply to another "
	    "branch (-b NAME)", ga->g_ref,
	    git_oid_tostr(hex, sizeof(hex), &ga->g_old));
}

/* Our own handle on the caller's repository: its odb gets the pack. */
static int
open_own(struct ga_apply *ga, git_repository *repo, char *err, size_t len)
{
	const char	*where = git_repository_workdir(repo);

	if (where == NULL)
		where = git_repository_path(repo);
	if (git_repository_open_ext(&ga->g_repo, where,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0)
		return say(err, len, GA_ERR_GIT, "%s", git_why());
	if (snprintf(ga->g_objects, sizeof(ga->g_objects), "%sobjects/",
	    git_repository_commondir(ga->g_repo)) >=
	    (int)sizeof(ga->g_objects))
		return say(err, len, GA_ERR_GIT, "the path is too long");
	return 0;
}

static int
staging_begin(struct ga_apply *ga, char *err, size_t len)
{
	git_indexer_options	 opts;
	git_odb			*odb = NULL;
	int			 rc;

	snprintf(ga->g_dir, sizeof(ga->g_dir), "%sspaced-incoming-XXXXXX",
	    ga->g_objects);
	if (mkdtemp(ga->g_dir) == NULL) {
		ga->g_dir[0] = '\0';
		return say(err, len, GA_ERR_GIT, "%s: %s", ga->g_objects,
		    strerror(errno));
	}
	/* No verify: libgit2 1.5 leaks with it; qr_check reads them all. */
	git_indexer_options_init(&opts, GIT_INDEXER_OPTIONS_VERSION);
	if (git_repository_odb(&odb, ga->g_repo) != 0)
		return say(err, len, GA_ERR_GIT, "%s", git_why());
	rc = git_indexer_new(&ga->g_idx, ga->g_dir, 0444, odb, &opts);
	git_odb_free(odb);
	if (rc != 0)
		return say(err, len, GA_ERR_GIT, "%s", git_why());
	return 0;
}

int
ga_begin(git_repository *repo, const struct ga_req *req,
    struct ga_apply **out, char *err, size_t len)
{
	struct ga_apply	*ga;
	git_commit	*base = NULL, *start = NULL;
	git_oid		 zero;
	int		 rc = -1;

	*out = NULL;
	memset(&zero, 0, sizeof(zero));
	if ((req->mode != GA_BRANCH && req->mode != GA_WORKTREE) ||
	    git_oid_equal(&req->base, &zero) || git_oid_equal(&req->tip, &zero))
		return say(err, len, GA_ERR_BAD_REQUEST, "a mode, a base and a "
		    "tip are needed");
	if ((ga = calloc(1, sizeof(*ga))) == NULL)
		return say(err, len, GA_ERR_GIT, "out of memory");
	ga->g_req = *req;
	git_oid_cpy(&ga->g_start, git_oid_equal(&req->start, &zero) ?
	    &req->base : &req->start);
	qr_caps_default(&ga->g_caps);
	packscan_init(&ga->g_scan, &ga->g_caps.qc_pack);
	ga->g_deadline = now() + ga->g_caps.qc_seconds;
	if (open_own(ga, repo, err, len) == -1)
		goto out;
	if (git_commit_lookup(&base, ga->g_repo, &req->base) != 0) {
		say(err, len, GA_ERR_BASE_MISSING, "the base the work started "
		    "from is not a commit of this repository");
		goto out;
	}
	/* A commit first: libgit2 1.5 leaks a graph walk from a blob. */
	if (!git_oid_equal(&ga->g_start, &req->base) &&
	    (git_commit_lookup(&start, ga->g_repo, &ga->g_start) != 0 ||
	    git_graph_descendant_of(ga->g_repo, &ga->g_start, &req->base) !=
	    1)) {
		say(err, len, GA_ERR_BASE_MISSING, "the snapshot the work "
		    "started on is not a commit of this repository on base");
		goto out;
	}
	if (req->mode == GA_BRANCH ? branch_begin(ga, err, len) :
	    gaw_ready(ga->g_repo, &req->base, err, len))
		goto out;
	if (staging_begin(ga, err, len) == -1)
		goto out;
	rc = 0;
out:
	git_commit_free(base);
	git_commit_free(start);
	if (rc == -1)
		ga_free(ga);
	else
		*out = ga;
	return rc;
}

void
ga_set_caps(struct ga_apply *ga, const struct qr_caps *caps)
{
	ga->g_caps = *caps;
	packscan_free(&ga->g_scan);
	packscan_init(&ga->g_scan, &ga->g_caps.qc_pack);
	ga->g_deadline = now() + ga->g_caps.qc_seconds;
}

/*
 * A commit the repository has that the quarantine may leave out of the
 * pack (and its history): the branch's target, for a fast-forward.
 */
int
ga_have(const struct ga_apply *ga, git_oid *id)
{
	if (!ga->g_has_old)
		return 0;
	git_oid_cpy(id, &ga->g_old);
	return 1;
}

const char *
ga_error(const struct ga_apply *ga)
{
	return ga->g_failed ? ga->g_err : NULL;
}

static int
feed_fail(struct ga_apply *ga, const char *code, const char *why)
{
	ga->g_failed = 1;
	return say(ga->g_err, sizeof(ga->g_err), code, "%s", why);
}

int
ga_feed(struct ga_apply *ga, const void *buf, size_t len)
{
	if (ga->g_failed)
		return -1;
	if (now() > ga->g_deadline)
		return feed_fail(ga, GA_ERR_TIMEOUT, "the pack took longer "
		    "than the time cap");
	if (packscan_feed(&ga->g_scan, buf, len) == -1)
		return feed_fail(ga, GA_ERR_PACK_REFUSED, ga->g_scan.ps_why);
	if (git_indexer_append(ga->g_idx, buf, len, &ga->g_stats) != 0)
		return feed_fail(ga, GA_ERR_PACK_REFUSED, "libgit2 refused "
		    "the pack");
	return 0;
}

/* The indexed pack, readable through g_repo; the rest not yet moved. */
static int
stage(struct ga_apply *ga, char *err, size_t len)
{
	git_odb		*odb = NULL;
	char		 path[PATH_MAX];
	int		 rc = -1;

	if (packscan_finish(&ga->g_scan) == -1)
		return say(err, len, GA_ERR_PACK_REFUSED, "%s",
		    ga->g_scan.ps_why);
	if (git_indexer_commit(ga->g_idx, &ga->g_stats) != 0)
		return say(err, len, GA_ERR_PACK_REFUSED, "libgit2 refused "
		    "the pack (its checksum, or an object it needs is "
		    "missing)");
	snprintf(path, sizeof(path), "%s/pack-%s.idx", ga->g_dir,
	    git_indexer_name(ga->g_idx));
	if (git_repository_odb(&odb, ga->g_repo) != 0 ||
	    git_odb_backend_one_pack(&ga->g_pack, path) != 0) {
		say(err, len, GA_ERR_GIT, "%s", git_why());
		goto out;
	}
	if (git_odb_add_backend(odb, ga->g_pack, 3) != 0) {
		ga->g_pack->free(ga->g_pack);
		ga->g_pack = NULL;
		say(err, len, GA_ERR_GIT, "%s", git_why());
		goto out;
	}
	rc = 0;
out:
	git_odb_free(odb);
	return rc;
}

/* Tip is a commit of the pack (or base) and base is its ancestor. */
static int
descends(struct ga_apply *ga, char *err, size_t len)
{
	git_commit	*c = NULL;
	const git_oid	*tip = &ga->g_req.tip, *base = &ga->g_req.base;

	if (git_commit_lookup(&c, ga->g_repo, tip) != 0)
		return say(err, len, GA_ERR_PACK_REFUSED, "the tip is not a "
		    "commit the pack or the repository holds");
	git_commit_free(c);
	if (!git_oid_equal(tip, base) &&
	    git_graph_descendant_of(ga->g_repo, tip, base) != 1)
		return say(err, len, GA_ERR_PACK_REFUSED, "the tip does not "
		    "descend from base");
	return 0;
}

static void
flag_seen(void *arg, uint32_t reason, const git_oid *commit,
    const char *path, size_t len)
{
	struct flagged	*f = arg;

	(void)commit;
	if (reason & f->f_allowed)
		return;
	if (f->f_count++ == 0) {
		f->f_first = reason;
		policy_escape(f->f_path, sizeof(f->f_path), path, len);
	}
}

/*
 * Where the owner's walk starts: after the branch's target when the
 * pack left it out (a second apply brings only what is new), else
 * after the snapshot the work started on.
 */
static const git_oid *
walk_from(struct ga_apply *ga)
{
	const git_oid	*tip = &ga->g_req.tip;

	if (ga->g_has_old && !git_oid_equal(&ga->g_old, tip) &&
	    ga->g_pack->exists(ga->g_pack, &ga->g_old) == 0 &&
	    (git_oid_equal(&ga->g_old, &ga->g_start) ||
	    git_graph_descendant_of(ga->g_repo, &ga->g_old, &ga->g_start) == 1))
		return &ga->g_old;
	return &ga->g_start;
}

/* The quarantine's checks again, on the owner's objects. */
static int
recheck(struct ga_apply *ga, struct ga_result *gr, char *err, size_t len)
{
	struct qr_result	 res;
	struct flagged		 f;
	char			 idx[PATH_MAX];
	const char		*why = NULL;

	memset(&res, 0, sizeof(res));
	memset(&f, 0, sizeof(f));
	f.f_allowed = ga->g_req.allow & POLICY_ALLOWABLE;
	snprintf(idx, sizeof(idx), "%s/pack-%s.idx", ga->g_dir,
	    git_indexer_name(ga->g_idx));
	strlcpy(res.qr_pack, git_indexer_name(ga->g_idx), sizeof(res.qr_pack));
	res.qr_idx = idx;
	if (qr_check(ga->g_repo, &ga->g_req.base, walk_from(ga),
	    &ga->g_req.tip, &ga->g_caps, flag_seen, &f, &res, &why) == -1)
		return say(err, len, GA_ERR_PACK_REFUSED, "%s",
		    why != NULL ? why : "the checks failed");
	if (f.f_count > 0)
		return say(err, len, GA_ERR_FLAGGED, "%s %s (%zu not allowed)",
		    policy_reason_name(f.f_first), f.f_path, f.f_count);
	gr->gr_commits = res.qr_commits;
	gr->gr_objects = ga->g_stats.total_objects;
	gr->gr_flags = res.qr_flags;
	return 0;
}

static int
code_out_sig(const git_signature *sig)
{
	return strcmp(sig->name, CODEOUT_WORK_NAME) == 0 &&
	    strcmp(sig->email, CODEOUT_WORK_EMAIL) == 0;
}

/*
 * The branch is at the commit an earlier apply made of the agent's
 * uncommitted work on this same start (the script's identity, and its
 * message naming the start), on a commit the work descends from: the
 * agent's later commits can never descend from it, and it holds
 * nothing of the user's.  It is replaced, under the same compare-and-
 * swap; anything committed on it, or another space's, refuses.
 */
static int
earlier_work(struct ga_apply *ga, const git_oid *tip)
{
	git_commit	*c;
	const git_oid	*p;
	char		 want[128], hex[GIT_OID_HEXSZ + 1];
	int		 ok = 0;

	if (git_commit_lookup(&c, ga->g_repo, &ga->g_old) != 0)
		return 0;
	snprintf(want, sizeof(want), CODEOUT_WORK_SUBJECT "\n\nstart %s\n",
	    git_oid_tostr(hex, sizeof(hex), &ga->g_start));
	if (git_commit_parentcount(c) == 1 &&
	    code_out_sig(git_commit_author(c)) &&
	    code_out_sig(git_commit_committer(c)) &&
	    strcmp(git_commit_message(c), want) == 0) {
		p = git_commit_parent_id(c, 0);
		ok = git_oid_equal(p, tip) ||
		    git_graph_descendant_of(ga->g_repo, tip, p) == 1;
	}
	git_commit_free(c);
	return ok;
}

/* Create the branch, or move it from g_old to tip under its lock. */
static int
branch_finish(struct ga_apply *ga, struct ga_result *gr, char *err,
    size_t len)
{
	git_reference	*ref = NULL;
	const git_oid	*tip = &ga->g_req.tip;
	char		 hex[GIT_OID_HEXSZ + 1];
	int		 rc;

	strlcpy(gr->gr_branch, ga->g_ref, sizeof(gr->gr_branch));
	if (ga->g_has_old) {
		git_oid_cpy(&gr->gr_old, &ga->g_old);
		if (git_graph_descendant_of(ga->g_repo, tip, &ga->g_old) != 1 &&
		    !(gr->gr_replaced = earlier_work(ga, tip)))
			return say(err, len, GA_ERR_BRANCH_MOVED, "%s is at "
			    "%s, not an ancestor of the work; it is not forced: "
			    "apply to another branch (-b NAME)", ga->g_ref,
			    git_oid_tostr(hex, sizeof(hex), &ga->g_old));
		if (git_reference_lookup(&ref, ga->g_repo, ga->g_ref) == 0) {
			rc = checked_out(ga, ref, err, len);
			git_reference_free(ref);
			ref = NULL;
			if (rc == -1)
				return -1;
		}
	}
	if (link_pack(ga, err, len) == -1)
		return -1;
	if (ga->g_has_old)
		rc = git_reference_create_matching(&ref, ga->g_repo, ga->g_ref,
		    tip, 1, &ga->g_old, gr->gr_replaced ? "spaced apply: "
		    "the earlier uncommitted work replaced" :
		    "spaced apply: fast-forward");
	else
		rc = git_reference_create(&ref, ga->g_repo, ga->g_ref, tip, 0,
		    "spaced apply: created");
	git_reference_free(ref);
	if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS) {
		linked_undo(ga);
		return say(err, len, GA_ERR_BRANCH_MOVED, "%s moved while the "
		    "pack came; it is not forced", ga->g_ref);
	}
	/* libgit2's own text ends in an empty errno: say what to do. */
	if (rc == GIT_ELOCKED) {
		linked_undo(ga);
		return say(err, len, GA_ERR_GIT, "%s is locked: %s.lock exists "
		    "(another git runs in this repository, or one crashed: then "
		    "remove it)", ga->g_ref, ga->g_ref);
	}
	if (rc != 0) {
		linked_undo(ga);
		return say(err, len, GA_ERR_GIT, "%s: %s", ga->g_ref,
		    git_why());
	}
	gr->gr_created = !ga->g_has_old;
	return 0;
}

static int
worktree_finish(struct ga_apply *ga, struct ga_result *gr, char *err,
    size_t len)
{
	if (gaw_ready(ga->g_repo, &ga->g_req.base, err, len) == -1 ||
	    gaw_changes(ga->g_repo, &ga->g_req.base, &ga->g_req.tip, gr, err,
	    len) == -1 || link_pack(ga, err, len) == -1)
		return -1;
	if (gaw_checkout(ga->g_repo, &ga->g_req.base, &ga->g_req.tip, err,
	    len) == -1) {
		linked_undo(ga);
		return -1;
	}
	return 0;
}

int
ga_finish(struct ga_apply *ga, struct ga_result *gr, char *err, size_t len)
{
	int	 rc = -1;

	memset(gr, 0, sizeof(*gr));
	gr->gr_mode = ga->g_req.mode;
	git_oid_cpy(&gr->gr_new, &ga->g_req.tip);
	if (ga->g_finished++) {
		say(err, len, GA_ERR_BAD_REQUEST, "finished already");
		return -1;
	}
	if (ga->g_failed) {
		strlcpy(err, ga->g_err, len);
		goto out;
	}
	if (now() > ga->g_deadline) {
		say(err, len, GA_ERR_TIMEOUT, "the pack took longer than the "
		    "time cap");
		goto out;
	}
	/* At tip already: nothing of the pack is needed, nothing changes. */
	if (ga->g_has_old && git_oid_equal(&ga->g_old, &ga->g_req.tip)) {
		strlcpy(gr->gr_branch, ga->g_ref, sizeof(gr->gr_branch));
		git_oid_cpy(&gr->gr_old, &ga->g_old);
		gr->gr_unchanged = 1;
		rc = 0;
		goto out;
	}
	if (stage(ga, err, len) == -1 || descends(ga, err, len) == -1 ||
	    recheck(ga, gr, err, len) == -1)
		goto out;
	rc = ga->g_req.mode == GA_BRANCH ? branch_finish(ga, gr, err, len) :
	    worktree_finish(ga, gr, err, len);
out:
	if (rc == -1) {
		ga_result_free(gr);
		ga->g_failed = 1;
		if (ga->g_err[0] == '\0')
			strlcpy(ga->g_err, err, sizeof(ga->g_err));
	}
	/* Linked or refused: the staging folder goes either way. */
	ga->g_nlinked = 0;
	return rc;
}

void
ga_free(struct ga_apply *ga)
{
	if (ga == NULL)
		return;
	git_indexer_free(ga->g_idx);
	packscan_free(&ga->g_scan);
	staging_remove(ga);
	git_repository_free(ga->g_repo);
	free(ga);
}

void
ga_result_free(struct ga_result *gr)
{
	free(gr->gr_paths);
	gr->gr_paths = NULL;
	gr->gr_paths_len = 0;
}
