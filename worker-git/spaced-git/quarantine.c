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
 * The quarantine: a pack from a space goes through packscan, then
 * libgit2's indexer, into a store that is never the user's repository;
 * then every new commit must descend from the start, every object of
 * the pack must be one they reach, and every entry they add or change
 * passes the tree policy.  Runs no program, reads no config of anyone's.
 */

#include <sys/types.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <git2/sys/odb_backend.h>

#include "quarantine.h"

/* The objects of one pack, sorted, each with a mark once reached. */
struct objset {
	git_oid		*os_ids;
	uint8_t		*os_seen;
	size_t		 os_n, os_cap;
};

struct walk {
	git_repository		*w_repo;
	git_odb			*w_odb;
	const struct qr_caps	*w_caps;
	qr_report_fn		*w_report;
	void			*w_arg;
	struct qr_result	*w_res;
	struct objset		 w_pack;
	const git_oid		*w_commit;
	const git_oid		*w_base;
	git_tree		*w_known;	/* the start's: the user's own */
	time_t			 w_deadline;
	size_t			 w_ticks;
	const char		*w_why;
	char			 w_path[POLICY_PATH_MAX * 2];
};

void
qr_caps_default(struct qr_caps *qc)
{
	packscan_caps_default(&qc->qc_pack);
	policy_caps_default(&qc->qc_policy);
	qc->qc_commits_max = QR_COMMITS_MAX;
	qc->qc_seconds = QR_SECONDS;
	qc->qc_data_max = QR_DATA_MAX;
}

static time_t
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/*
 * A pack into q's object store as it streams: each chunk is scanned
 * before the indexer sees it, under a wall-clock cap.
 */
int
qr_feed_begin(git_repository *q, const struct qr_caps *caps,
    struct qr_feed *f, const char **why)
{
	git_indexer_options	 opts;
	char			 dir[PATH_MAX];

	memset(f, 0, sizeof(*f));
	f->qf_deadline = now() + caps->qc_seconds;
	packscan_init(&f->qf_scan, &caps->qc_pack);
	/*
	 * No verify: libgit2 1.5 leaks with it, and qr_check reads every
	 * object the new commits name, refusing a pack that lacks one.
	 */
	git_indexer_options_init(&opts, GIT_INDEXER_OPTIONS_VERSION);
	snprintf(dir, sizeof(dir), "%sobjects/pack", git_repository_path(q));
	if (git_repository_odb(&f->qf_odb, q) != 0 ||
	    git_indexer_new(&f->qf_idx, dir, 0444, f->qf_odb, &opts) != 0) {
		*why = "the quarantine's store cannot take a pack";
		return -1;
	}
	return 0;
}

int
qr_feed_data(struct qr_feed *f, const void *buf, size_t n, const char **why)
{
	if (now() > f->qf_deadline) {
		*why = "the pack took longer than the time cap";
		return -1;
	}
	if (packscan_feed(&f->qf_scan, buf, n) == -1) {
		*why = f->qf_scan.ps_why;
		return -1;
	}
	if (git_indexer_append(f->qf_idx, buf, n, &f->qf_stats) != 0) {
		*why = "libgit2 refused the pack";
		return -1;
	}
	return 0;
}

int
qr_feed_finish(struct qr_feed *f, struct qr_result *res, const char **why)
{
	if (packscan_finish(&f->qf_scan) == -1) {
		*why = f->qf_scan.ps_why;
		return -1;
	}
	if (git_indexer_commit(f->qf_idx, &f->qf_stats) != 0) {
		*why = "libgit2 refused the pack (its checksum, or an object "
		    "it needs is missing)";
		return -1;
	}
	strlcpy(res->qr_pack, git_indexer_name(f->qf_idx),
	    sizeof(res->qr_pack));
	res->qr_idx = NULL;
	res->qr_objects = f->qf_stats.total_objects;
	return 0;
}

void
qr_feed_free(struct qr_feed *f)
{
	packscan_free(&f->qf_scan);
	git_indexer_free(f->qf_idx);
	git_odb_free(f->qf_odb);
	f->qf_idx = NULL;
	f->qf_odb = NULL;
}

/* The pack from fd, until its end (the tests' and tools' way). */
int
qr_index(git_repository *q, int fd, const struct qr_caps *caps,
    struct qr_result *res, const char **why)
{
	static uint8_t		 buf[65536];
	struct qr_feed		 f;
	struct pollfd		 pfd = { fd, POLLIN, 0 };
	ssize_t			 n;
	int			 rc = -1, left;

	if (qr_feed_begin(q, caps, &f, why) == -1)
		goto out;
	for (;;) {
		if ((left = (int)(f.qf_deadline - now())) <= 0) {
			*why = "the pack took longer than the time cap";
			goto out;
		}
		if (poll(&pfd, 1, left * 1000) == 0)
			continue;
		if ((n = read(fd, buf, sizeof(buf))) == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			*why = "the pack could not be read";
			goto out;
		}
		if (n == 0)
			break;
		if (qr_feed_data(&f, buf, (size_t)n, why) == -1)
			goto out;
	}
	rc = qr_feed_finish(&f, res, why);
out:
	qr_feed_free(&f);
	return rc;
}

static int
oid_cmp(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

static int
objset_add(const git_oid *id, void *arg)
{
	struct objset	*os = arg;
	git_oid		*v;

	if (os->os_n == os->os_cap) {
		size_t	 ncap = os->os_cap ? os->os_cap * 2 : 1024;

		if ((v = reallocarray(os->os_ids, ncap, sizeof(*v))) == NULL)
			return -1;
		os->os_ids = v;
		os->os_cap = ncap;
	}
	git_oid_cpy(&os->os_ids[os->os_n++], id);
	return 0;
}

/* The pack's own objects, read from its index alone. */
static int
objset_of_pack(git_repository *q, const struct qr_result *res,
    struct objset *os)
{
	git_odb_backend	*be = NULL;
	git_odb		*odb = NULL;
	char		 path[PATH_MAX];
	int		 rc = -1;

	if (res->qr_idx != NULL)
		strlcpy(path, res->qr_idx, sizeof(path));
	else
		snprintf(path, sizeof(path), "%sobjects/pack/pack-%s.idx",
		    git_repository_path(q), res->qr_pack);
	if (git_odb_new(&odb) != 0 ||
	    git_odb_backend_one_pack(&be, path) != 0)
		goto out;
	if (git_odb_add_backend(odb, be, 1) != 0) {
		be->free(be);
		goto out;
	}
	if (git_odb_foreach(odb, objset_add, os) != 0)
		goto out;
	if (os->os_n > 0)	/* an empty pack: no array at all */
		qsort(os->os_ids, os->os_n, sizeof(*os->os_ids), oid_cmp);
	if ((os->os_seen = calloc(os->os_n ? os->os_n : 1, 1)) == NULL)
		goto out;
	rc = 0;
out:
	git_odb_free(odb);
	return rc;
}

/* An empty pack has no array: bsearch's base may not be NULL. */
static git_oid *
objset_find(const struct objset *os, const git_oid *id)
{
	if (os->os_n == 0)
		return NULL;
	return bsearch(id, os->os_ids, os->os_n, sizeof(*id), oid_cmp);
}

static int
objset_mark(struct objset *os, const git_oid *id)
{
	git_oid	*hit;

	hit = objset_find(os, id);
	if (hit == NULL)
		return 0;
	os->os_seen[hit - os->os_ids] = 1;
	return 1;
}

static int
objset_seen(const struct objset *os, const git_oid *id)
{
	git_oid	*hit;

	hit = objset_find(os, id);
	return hit != NULL && os->os_seen[hit - os->os_ids];
}

static void
report(struct walk *w, uint32_t bits, size_t len)
{
	uint32_t	 bit;

	for (bit = 1; bit != 0; bit <<= 1)
		if (bits & bit) {
			w->w_res->qr_flags |= bit;
			w->w_report(w->w_arg, bit, w->w_commit, w->w_path, len);
		}
}

/*
 * A blob's bytes for the policy, when it wants them and they are few:
 * 1 when the entry names no blob, -1 with w_why when it is missing.
 */
static int
entry_data(struct walk *w, const git_tree_entry *e, struct policy_entry *pe,
    git_blob **blob)
{
	size_t		 size;
	git_object_t	 type;

	*blob = NULL;
	if (git_odb_read_header(&size, &type, w->w_odb,
	    git_tree_entry_id(e)) != 0) {
		w->w_why = "an object the new commits name is missing";
		return -1;
	}
	if (type != GIT_OBJECT_BLOB)
		return 1;
	pe->pe_size = size;
	if (!policy_wants_data(pe->pe_path, pe->pe_path_len, pe->pe_mode) ||
	    size > w->w_caps->qc_data_max)
		return 0;
	if (git_blob_lookup(blob, w->w_repo, git_tree_entry_id(e)) != 0) {
		w->w_why = "a blob libgit2 cannot read";
		return -1;
	}
	pe->pe_data = git_blob_rawcontent(*blob);
	pe->pe_data_len = (size_t)git_blob_rawsize(*blob);
	return 0;
}

static int	compare_trees(struct walk *, const git_tree *, const git_tree *,
		    const git_tree *, size_t, size_t);

static int
same_entry(const git_tree_entry *a, const git_tree_entry *b)
{
	return b != NULL && git_oid_equal(git_tree_entry_id(a),
	    git_tree_entry_id(b)) && git_tree_entry_filemode_raw(a) ==
	    git_tree_entry_filemode_raw(b);
}

static int
subtree(struct walk *w, const git_tree_entry *e, git_tree **t)
{
	*t = NULL;
	if (e == NULL || git_tree_entry_type(e) != GIT_OBJECT_TREE)
		return 0;
	if (git_tree_lookup(t, w->w_repo, git_tree_entry_id(e)) != 0) {
		w->w_why = "a tree of the start is missing";
		return -1;
	}
	return 0;
}

/*
 * One entry the commit adds or changes, at w_path[0..len); known is
 * the start's entry there (the user's uncommitted work came in so).
 */
static int
compare_entry(struct walk *w, const git_tree_entry *e,
    const git_tree_entry *old, const git_tree_entry *known, size_t len,
    size_t depth)
{
	struct policy_entry	 pe;
	git_tree		*sub = NULL, *oldsub = NULL, *knownsub = NULL;
	git_blob		*blob = NULL;
	uint32_t		 bits;
	int			 rc = 0;

	memset(&pe, 0, sizeof(pe));
	pe.pe_path = w->w_path;
	pe.pe_path_len = len;
	pe.pe_mode = git_tree_entry_filemode_raw(e);
	pe.pe_old_mode = old != NULL ? git_tree_entry_filemode_raw(old) :
	    known != NULL ? git_tree_entry_filemode_raw(known) : 0;
	objset_mark(&w->w_pack, git_tree_entry_id(e));
	if (pe.pe_mode == POLICY_MODE_FILE || pe.pe_mode == POLICY_MODE_EXEC ||
	    pe.pe_mode == POLICY_MODE_LINK) {
		if ((rc = entry_data(w, e, &pe, &blob)) == -1)
			return -1;
		if (rc == 1) {		/* a blob's mode on another type */
			report(w, POLICY_BAD_MODE, len);
			return 0;
		}
	}
	bits = policy_check_entry(&w->w_caps->qc_policy, &pe);
	git_blob_free(blob);
	report(w, bits, len);
	if (pe.pe_mode != POLICY_MODE_TREE || depth >=
	    w->w_caps->qc_policy.pc_depth_max)
		return 0;
	if (git_tree_lookup(&sub, w->w_repo, git_tree_entry_id(e)) != 0) {
		w->w_why = "a tree libgit2 cannot read";
		return -1;
	}
	if (subtree(w, old, &oldsub) == 0 && subtree(w, known, &knownsub) == 0)
		rc = compare_trees(w, sub, oldsub, knownsub, len, depth + 1);
	else
		rc = -1;
	git_tree_free(sub);
	git_tree_free(oldsub);
	git_tree_free(knownsub);
	return rc;
}

/* What tree adds or changes against old and known (NULL: none). */
static int
compare_trees(struct walk *w, const git_tree *tree, const git_tree *old,
    const git_tree *known, size_t len, size_t depth)
{
	const git_tree_entry	*e, *o, *k;
	const char		*name;
	size_t			 i, n, nlen, plen;

	n = git_tree_entrycount(tree);
	report(w, policy_check_tree_size(&w->w_caps->qc_policy, n), len);
	for (i = 0; i < n; i++) {
		if ((++w->w_ticks & 1023) == 0 && now() > w->w_deadline) {
			w->w_why = "the check took longer than the time cap";
			return -1;
		}
		e = git_tree_entry_byindex(tree, i);
		name = git_tree_entry_name(e);
		o = old != NULL ? git_tree_entry_byname(old, name) : NULL;
		k = known != NULL ? git_tree_entry_byname(known, name) : NULL;
		/*
		 * The parent's (judged already) or the user's own: not judged,
		 * but reached (pack-objects may send an object again at a
		 * path the start has it at).
		 */
		objset_mark(&w->w_pack, git_tree_entry_id(e));
		if (same_entry(e, o) || same_entry(e, k))
			continue;
		nlen = strlen(name);
		plen = len + (len > 0) + nlen;
		if (plen >= sizeof(w->w_path)) {
			report(w, POLICY_PATH_TOO_LONG, len);
			continue;
		}
		if (len > 0)
			w->w_path[len] = '/';
		memcpy(w->w_path + len + (len > 0), name, nlen);
		w->w_path[plen] = '\0';
		if (compare_entry(w, e, o, k, plen, depth) == -1)
			return -1;
		w->w_path[len] = '\0';
	}
	return 0;
}

/*
 * A host commit (not in the pack) descends from the base: the walk
 * goes through its parents and stops at the base, never past it (the
 * base came without its parents: code in's pack is shallow).  The
 * snapshot commits code in made are the only ones expected: a few.
 */
#define QR_HOST_HOPS	16
static int
host_descends(struct walk *w, const git_oid *p)
{
	git_commit	*c;
	git_oid		 at;
	int		 hops, ok = 0;

	git_oid_cpy(&at, p);
	for (hops = 0; hops < QR_HOST_HOPS; hops++) {
		if (git_oid_equal(&at, w->w_base))
			return 1;
		if (objset_find(&w->w_pack, &at) != NULL ||
		    !git_odb_exists(w->w_odb, &at) ||
		    git_commit_lookup(&c, w->w_repo, &at) != 0)
			return 0;
		ok = git_commit_parentcount(c) == 1;
		if (ok)
			git_oid_cpy(&at, git_commit_parent_id(c, 0));
		git_commit_free(c);
		if (!ok)
			return 0;
	}
	return 0;
}

/*
 * Every parent is the base, a commit of this walk seen before, or one
 * of the host's (not in the pack) that descends from the base: the
 * snapshot commits code in made.
 */
static int
descends(struct walk *w, const git_commit *c)
{
	unsigned	 i, n = git_commit_parentcount(c);

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		const git_oid	*p = git_commit_parent_id(c, i);

		if (git_oid_equal(p, w->w_base) || objset_seen(&w->w_pack, p))
			continue;
		if (!host_descends(w, p))
			return 0;
	}
	return 1;
}

static int
check_commit(struct walk *w, const git_oid *id)
{
	git_commit	*c = NULL, *parent = NULL;
	git_tree	*tree = NULL, *ptree = NULL;
	int		 rc = -1;

	w->w_commit = id;
	if (!objset_mark(&w->w_pack, id)) {
		w->w_why = "a new commit that is not in the pack";
		return -1;
	}
	if (git_commit_lookup(&c, w->w_repo, id) != 0 ||
	    git_commit_tree(&tree, c) != 0) {
		w->w_why = "a commit libgit2 cannot read";
		goto out;
	}
	if (!descends(w, c)) {
		w->w_why = QR_NOT_DESCENDING;
		goto out;
	}
	if (git_commit_parent(&parent, c, 0) != 0 ||
	    git_commit_tree(&ptree, parent) != 0) {
		w->w_why = "a parent libgit2 cannot read";
		goto out;
	}
	objset_mark(&w->w_pack, git_tree_id(tree));
	w->w_path[0] = '\0';
	rc = compare_trees(w, tree, ptree, w->w_known, 0, 0);
out:
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(parent);
	git_commit_free(c);
	return rc;
}

/*
 * The tip of the work, from the pack alone (never from what the space
 * says): the one commit of the pack no other commit of it names as a
 * parent; start when the pack holds no commit.
 */
int
qr_tip(git_repository *q, const git_oid *start, struct qr_result *res,
    git_oid *tip, const char **why)
{
	struct objset	 os;
	git_commit	*c;
	git_object_t	 type;
	size_t		 i, size, ntips = 0;
	unsigned	 k;
	git_odb		*odb = NULL;
	int		 rc = -1;

	memset(&os, 0, sizeof(os));
	git_oid_cpy(tip, start);
	*why = "the quarantine's pack cannot be read";
	if (git_repository_odb(&odb, q) != 0 ||
	    objset_of_pack(q, res, &os) != 0)
		goto out;
	/* Mark every parent a commit of the pack names. */
	for (i = 0; i < os.os_n; i++) {
		if (git_odb_read_header(&size, &type, odb, &os.os_ids[i]) !=
		    0 || type != GIT_OBJECT_COMMIT)
			continue;
		if (git_commit_lookup(&c, q, &os.os_ids[i]) != 0) {
			*why = "a commit libgit2 cannot read";
			goto out;
		}
		for (k = 0; k < git_commit_parentcount(c); k++)
			objset_mark(&os, git_commit_parent_id(c, k));
		git_commit_free(c);
	}
	for (i = 0; i < os.os_n; i++) {
		if (os.os_seen[i] || git_odb_read_header(&size, &type, odb,
		    &os.os_ids[i]) != 0 || type != GIT_OBJECT_COMMIT)
			continue;
		git_oid_cpy(tip, &os.os_ids[i]);
		ntips++;
	}
	if (ntips > 1) {
		*why = "more than one line of work (two tips)";
		goto out;
	}
	*why = NULL;
	rc = 0;
out:
	git_odb_free(odb);
	free(os.os_ids);
	free(os.os_seen);
	return rc;
}

/*
 * Every parent a commit of the pack names is here, before any walk:
 * libgit2 1.5 leaks a walk that meets a missing one.
 */
static int
parents_present(struct walk *w)
{
	git_commit	*c;
	git_object_t	 type;
	size_t		 i, size;
	unsigned	 k;

	for (i = 0; i < w->w_pack.os_n; i++) {
		if (git_odb_read_header(&size, &type, w->w_odb,
		    &w->w_pack.os_ids[i]) != 0 || type != GIT_OBJECT_COMMIT)
			continue;
		if (git_commit_lookup(&c, w->w_repo, &w->w_pack.os_ids[i]) !=
		    0) {
			w->w_why = "a commit libgit2 cannot read";
			return -1;
		}
		for (k = 0; k < git_commit_parentcount(c); k++)
			if (!git_odb_exists(w->w_odb,
			    git_commit_parent_id(c, k))) {
				git_commit_free(c);
				w->w_why = QR_NOT_DESCENDING;
				return -1;
			}
		git_commit_free(c);
	}
	return 0;
}

/*
 * The new commits from tip, parents first (a depth-first post-order):
 * a walk of the pack's own commits only, so it never reaches past the
 * base, whose parents the quarantine lacks.
 */
static int
walk_order(struct walk *w, const git_oid *tip, git_oid **orderp,
    size_t *np)
{
	size_t		*stack = NULL;
	uint8_t		*state = NULL;	/* 1 expanded, 2 emitted */
	git_oid		*order = NULL, *hit;
	git_commit	*c;
	size_t		 nstack = 0, n = 0, max = w->w_pack.os_n, k;
	unsigned	 i;
	int		 rc = -1;

	hit = objset_find(&w->w_pack, tip);
	if (hit == NULL) {
		w->w_why = "a new commit that is not in the pack";
		return -1;
	}
	/* Each commit is pushed at most once a parent edge: 2 a commit. */
	if ((stack = calloc(2 * max + 1, sizeof(*stack))) == NULL ||
	    (order = calloc(max, sizeof(*order))) == NULL ||
	    (state = calloc(max, 1)) == NULL) {
		w->w_why = "out of memory";
		goto out;
	}
	stack[nstack++] = hit - w->w_pack.os_ids;
	while (nstack > 0) {
		k = stack[nstack - 1];
		if (state[k] == 2) {
			nstack--;
			continue;
		}
		if (state[k] == 1) {
			nstack--;
			state[k] = 2;
			git_oid_cpy(&order[n++], &w->w_pack.os_ids[k]);
			continue;
		}
		state[k] = 1;
		if (git_commit_lookup(&c, w->w_repo, &w->w_pack.os_ids[k]) !=
		    0) {
			w->w_why = "a new commit libgit2 cannot read";
			goto out;
		}
		for (i = 0; i < git_commit_parentcount(c); i++) {
			hit = objset_find(&w->w_pack,
			    git_commit_parent_id(c, i));
			/* The base or the host's: not walked. */
			if (hit == NULL || state[hit - w->w_pack.os_ids] != 0)
				continue;
			if (nstack >= 2 * max + 1) {
				git_commit_free(c);
				w->w_why = "the new commits cannot be walked";
				goto out;
			}
			stack[nstack++] = hit - w->w_pack.os_ids;
		}
		git_commit_free(c);
	}
	*orderp = order;
	*np = n;
	order = NULL;
	rc = 0;
out:
	free(stack);
	free(order);
	free(state);
	return rc;
}

/*
 * The commits from base to tip in the pack res->qr_pack names (start:
 * the snapshot code in made on base, whose entries are the user's own;
 * base itself when there is none); every entry they add or change goes
 * to report.  -1 with *why for a pack that lies; 0 with res->qr_flags
 * for what the policy found.
 */
int
qr_check(git_repository *q, const git_oid *base, const git_oid *start,
    const git_oid *tip, const struct qr_caps *caps, qr_report_fn *fn,
    void *arg, struct qr_result *res, const char **why)
{
	struct walk	 w;
	git_commit	*sc = NULL;
	git_oid		*order = NULL;
	size_t		 i, norder = 0;
	int		 rc = -1;

	memset(&w, 0, sizeof(w));
	w.w_repo = q;
	w.w_caps = caps;
	w.w_report = fn;
	w.w_arg = arg;
	w.w_res = res;
	w.w_deadline = now() + caps->qc_seconds;
	w.w_base = base;
	res->qr_flags = 0;
	res->qr_commits = 0;
	if (git_repository_odb(&w.w_odb, q) != 0 ||
	    objset_of_pack(q, res, &w.w_pack) != 0) {
		w.w_why = "the quarantine's pack cannot be read";
		goto out;
	}
	if (git_commit_lookup(&sc, q, start) != 0 ||
	    git_commit_tree(&w.w_known, sc) != 0) {
		w.w_why = "the start is not in the quarantine";
		goto out;
	}
	if (parents_present(&w) == -1)
		goto out;
	if (!git_oid_equal(tip, base) && !git_oid_equal(tip, start) &&
	    walk_order(&w, tip, &order, &norder) == -1)
		goto out;
	for (i = 0; i < norder; i++) {
		if (++res->qr_commits > caps->qc_commits_max) {
			w.w_why = "more commits than the cap";
			goto out;
		}
		if (check_commit(&w, &order[i]) == -1)
			goto out;
	}
	for (i = 0; i < w.w_pack.os_n; i++)
		if (!w.w_pack.os_seen[i]) {
			w.w_why = "an object the new commits do not reach";
			goto out;
		}
	rc = 0;
out:
	*why = w.w_why;
	free(order);
	git_tree_free(w.w_known);
	git_commit_free(sc);
	git_odb_free(w.w_odb);
	free(w.w_pack.os_ids);
	free(w.w_pack.os_seen);
	return rc;
}

/* The new commits from tip, parents first, for the review. */
int
qr_commits(git_repository *q, const struct qr_result *res,
    const git_oid *tip, git_oid **order, size_t *n, const char **why)
{
	struct walk	 w;
	int		 rc = -1;

	memset(&w, 0, sizeof(w));
	w.w_repo = q;
	*order = NULL;
	*n = 0;
	if (objset_of_pack(q, res, &w.w_pack) != 0)
		w.w_why = "the quarantine's pack cannot be read";
	else if (objset_find(&w.w_pack, tip) == NULL)
		rc = 0;		/* no new commit */
	else
		rc = walk_order(&w, tip, order, n);
	*why = w.w_why;
	free(w.w_pack.os_ids);
	free(w.w_pack.os_seen);
	return rc;
}
