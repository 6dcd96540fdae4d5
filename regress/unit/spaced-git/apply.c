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
 * apply -b (worker-git/spaced-git/git_apply.c) on real repositories:
 * the work comes back exact on a branch; a second apply fast-forwards;
 * every refusal (a branch moved, a bad name, a pack that lies, a flag
 * not allowed) leaves the repository as it was, entry for entry.
 */

#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply_fx.h"

TestSuite(apply, .init = ax_setup, .fini = ax_teardown);

/* Several commits of ordinary work in the space; the tip. */
#define WORK	"cd space && echo b >>a.txt && echo new >new.txt && " \
	"$G rm -q lib/x.c && $G mv keep.bin moved.bin && chmod -x bin/run.sh " \
	"&& $G add -A && $G commit -qm 'one: edits' && " \
	"export GIT_AUTHOR_NAME=Bob GIT_AUTHOR_EMAIL=bob@b.invalid && " \
	"head -c 5000 /dev/urandom >new.bin && " \
	"echo n >'dir with space/na\xc3\xafve \xc3\xbcn\xc3\xaf" "code.txt' && " \
	"ln -sf new.txt link && $G add -A && $G commit -qm 'two: binary' && " \
	"echo c >>a.txt && $G commit -qam three && $G rev-parse HEAD"

static void
expect_refused(int rc, const char *err, const char *code)
{
	cr_expect_eq(rc, -1, "refused");
	cr_expect(strncmp(err, code, strlen(code)) == 0 &&
	    err[strlen(code)] == ':', "want %s, got \"%s\"", code, err);
}

/* The same change, by git's own diff, in the space and on the branch. */
static void
expect_same_change(const char *branch)
{
	char	 a[4096], b[4096];

	ax_out(a, sizeof(a), "$G -C space diff --raw -M %s HEAD | md5sum",
	    ax_base);
	ax_out(b, sizeof(b), "$G -C user diff --raw -M %s %s | md5sum",
	    ax_base, branch);
	cr_expect_str_eq(a, b);
	ax_out(a, sizeof(a), "$G -C space log --format='%%an %%ae %%s %%H' "
	    "%s..HEAD | md5sum", ax_base);
	ax_out(b, sizeof(b), "$G -C user log --format='%%an %%ae %%s %%H' "
	    "%s..%s | md5sum", ax_base, branch);
	cr_expect_str_eq(a, b);
	cr_expect_eq(ax_sh("$G -C user fsck --no-dangling --no-progress"), 0);
}

Test(apply, branch_gets_the_work_exact)
{
	struct rc_manifest	 before, after;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512], first[512], head[64];
	git_oid			 t;
	size_t			 n;

	ax_out(tip, sizeof(tip), WORK);
	ax_pack("p.pack", tip, ax_base);
	ax_out(head, sizeof(head), "$G -C user rev-parse HEAD");
	ax_take("user", &before);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	/* Chunks of 7 bytes: every boundary of the scan and the indexer. */
	cr_assert_eq(ax_apply("user", &req, "p.pack", 7, &gr, err,
	    sizeof(err)), 0, "%s", err);
	git_oid_fromstr(&t, tip);
	cr_expect(git_oid_equal(&gr.gr_new, &t));
	cr_expect_eq(gr.gr_created, 1);
	cr_expect_eq(gr.gr_commits, 3);
	cr_expect_gt(gr.gr_objects, 0);
	cr_expect_str_eq(gr.gr_branch, "refs/heads/spaced/t");
	expect_same_change("spaced/t");
	/* HEAD, index, work tree, config, hooks: all as they were. */
	ax_take("user", &after);
	n = ax_diff(&before, &after, ax_branch_allowed, first, sizeof(first));
	cr_expect_eq(n, 0, "%zu differences, first %s", n, first);
	cr_expect(ax_diff(&before, &after, NULL, first, sizeof(first)) > 0,
	    "the comparator sees the new branch");
	rc_free(&before);
	rc_free(&after);
	{
		char	 now[64];

		ax_out(now, sizeof(now), "$G -C user rev-parse HEAD");
		cr_expect_str_eq(now, head);
	}
	cr_expect_eq(ax_sh("cd user && test -z \"$($G status --porcelain)\""),
	    0);
	cr_expect_eq(ax_sh("ls user/.git/objects | grep -q incoming"), 1,
	    "no staging folder left");
}

Test(apply, a_second_apply_brings_only_what_is_new)
{
	struct ga_result	 gr;
	struct ga_req		 req;
	struct ga_apply		*ga;
	git_repository		*r;
	char			 tip1[64], tip2[64], tip3[64], err[512], path[128];
	git_oid			 have, t1;

	ax_out(tip1, sizeof(tip1), WORK);
	ax_pack("p1.pack", tip1, ax_base);
	ax_req(&req, GA_BRANCH, "spaced/t", tip1);
	cr_assert_eq(ax_apply("user", &req, "p1.pack", 65536, &gr, err,
	    sizeof(err)), 0, "%s", err);
	/* The owner says what it has: the quarantine leaves that out. */
	ax_out(tip2, sizeof(tip2), "cd space && echo d >>a.txt && "
	    "$G commit -qam four && $G rev-parse HEAD");
	snprintf(path, sizeof(path), "%s/user", ax_dir);
	cr_assert_eq(git_repository_open(&r, path), 0);
	ax_req(&req, GA_BRANCH, "spaced/t", tip2);
	cr_assert_eq(ga_begin(r, &req, &ga, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(ga_have(ga, &have), 1);
	git_oid_fromstr(&t1, tip1);
	cr_expect(git_oid_equal(&have, &t1));
	ga_free(ga);
	git_repository_free(r);
	ax_sh("printf '%s\\n^%s\\n^%s\\n' | $G -C space pack-objects -q "
	    "--revs --stdout --delta-base-offset >p2.pack", tip2, ax_base, tip1);
	cr_assert_eq(ax_apply("user", &req, "p2.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_created, 0);
	cr_expect(git_oid_equal(&gr.gr_old, &t1), "a fast-forward from tip1");
	cr_expect_eq(gr.gr_commits, 1, "only the new commit");
	expect_same_change("spaced/t");
	/* A quarantine that sends everything again is fine too. */
	ax_out(tip3, sizeof(tip3), "cd space && echo e >>new.txt && "
	    "$G commit -qam five && $G rev-parse HEAD");
	ax_pack("p3.pack", tip3, ax_base);
	ax_req(&req, GA_BRANCH, "spaced/t", tip3);
	cr_assert_eq(ax_apply("user", &req, "p3.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_commits, 5);
	expect_same_change("spaced/t");
	/* Nothing new: an empty pack, the branch as it is. */
	ax_pack("p4.pack", tip3, tip3);
	cr_assert_eq(ax_apply("user", &req, "p4.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_unchanged, 1);
}

Test(apply, a_branch_that_moved_elsewhere_is_refused)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	ax_out(tip, sizeof(tip), WORK);
	ax_pack("p.pack", tip, ax_base);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	/* The user committed on the branch: on base, not on the work. */
	cr_assert_eq(ax_sh("cd user && $G branch spaced/t && "
	    "C=$($G commit-tree -p HEAD -m mine HEAD^{tree}) && "
	    "$G update-ref refs/heads/spaced/t $C"), 0);
	ax_take("user", &before);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "branch_moved");
	ax_untouched("user", &before);
	/* On another history altogether: refused before any byte. */
	cr_assert_eq(ax_sh("cd user && C=$($G commit-tree -m root "
	    "HEAD^{tree}) && $G update-ref refs/heads/spaced/t $C"), 0);
	ax_take("user", &before);
	{
		struct ga_apply	*ga = NULL;
		git_repository	*r;
		char		 path[128];

		snprintf(path, sizeof(path), "%s/user", ax_dir);
		cr_assert_eq(git_repository_open(&r, path), 0);
		expect_refused(ga_begin(r, &req, &ga, err, sizeof(err)), err,
		    "branch_moved");
		cr_expect_null(ga);
		git_repository_free(r);
	}
	ax_untouched("user", &before);
	/* A branch that names a blob (git refuses to write one). */
	cr_assert_eq(ax_sh("cd user && $G rev-parse HEAD:a.txt "
	    ">.git/refs/heads/spaced/t"), 0);
	ax_take("user", &before);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "branch_moved");
	ax_untouched("user", &before);
	/* Control: where the work started, the same pack fast-forwards it. */
	cr_assert_eq(ax_sh("$G -C user update-ref refs/heads/spaced/t %s",
	    ax_base), 0);
	cr_expect_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_created, 0);
}

/*
 * The commit code out's script makes of uncommitted work, on HEAD (the
 * start is base: ax_req leaves it zero).
 */
#define UNCOMMITTED(start) "cd space && echo u >u.txt && $G add u.txt && " \
	"C=$(GIT_AUTHOR_NAME=spaced GIT_COMMITTER_NAME=spaced " \
	"GIT_AUTHOR_EMAIL=code-out@spaced.invalid " \
	"GIT_COMMITTER_EMAIL=code-out@spaced.invalid " \
	"$G commit-tree -p HEAD -m 'spaced: uncommitted work' " \
	"-m \"start " start "\" $($G write-tree)) && $G reset -q && " \
	"$G rev-parse $C"

/*
 * A first apply took the agent's uncommitted work as spaced's commit;
 * the agent then committed that work its own way: the second apply
 * moves the branch off spaced's commit (it was refused, branch_moved,
 * on every second apply after uncommitted work).  A commit of anyone
 * else's in that place is never replaced.
 */
Test(apply, an_earlier_uncommitted_work_is_replaced)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 a1[64], u1[64], a2[64], err[512];
	git_oid			 t;

	ax_out(a1, sizeof(a1), "cd space && echo b >>a.txt && "
	    "$G commit -qam one && $G rev-parse HEAD");
	ax_out(u1, sizeof(u1), UNCOMMITTED("%s"), ax_base);
	ax_pack("p1.pack", u1, ax_base);
	ax_req(&req, GA_BRANCH, "spaced/t", u1);
	cr_assert_eq(ax_apply("user", &req, "p1.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ax_out(a2, sizeof(a2), "cd space && echo u >u.txt && $G add u.txt && "
	    "$G commit -qm two && $G rev-parse HEAD");
	ax_pack("p2.pack", a2, ax_base);
	ax_req(&req, GA_BRANCH, "spaced/t", a2);
	/* Control: anyone else's commit in its place is not replaced. */
	cr_assert_eq(ax_sh("$G -C space cat-file commit %s | sed "
	    "'s/^author spaced /author someone /' | $G -C user hash-object "
	    "-t commit -w --stdin >other && $G -C user update-ref "
	    "refs/heads/spaced/t $(cat other)", u1), 0);
	ax_take("user", &before);
	expect_refused(ax_apply("user", &req, "p2.pack", 4096, &gr, err,
	    sizeof(err)), err, "branch_moved");
	ax_untouched("user", &before);
	/* Nor spaced's of another start (another space's work). */
	cr_assert_eq(ax_sh("$G -C space cat-file commit %s | sed "
	    "'s/^start /start 0/' | $G -C user hash-object -t commit -w "
	    "--stdin >other && $G -C user update-ref refs/heads/spaced/t "
	    "$(cat other)", u1), 0);
	ax_take("user", &before);
	expect_refused(ax_apply("user", &req, "p2.pack", 4096, &gr, err,
	    sizeof(err)), err, "branch_moved");
	ax_untouched("user", &before);
	/* Nor a commit on top of spaced's. */
	cr_assert_eq(ax_sh("cd user && C=$($G commit-tree -p %s -m mine "
	    "%s^{tree}) && $G update-ref refs/heads/spaced/t $C", u1, u1), 0);
	ax_take("user", &before);
	expect_refused(ax_apply("user", &req, "p2.pack", 4096, &gr, err,
	    sizeof(err)), err, "branch_moved");
	ax_untouched("user", &before);
	/* Spaced's own, where the first apply left it: replaced. */
	cr_assert_eq(ax_sh("$G -C user update-ref refs/heads/spaced/t %s", u1),
	    0);
	cr_assert_eq(ax_apply("user", &req, "p2.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	git_oid_fromstr(&t, a2);
	cr_expect(git_oid_equal(&gr.gr_new, &t));
	cr_expect_eq(gr.gr_replaced, 1);
	cr_expect_eq(gr.gr_created, 0);
	expect_same_change("spaced/t");
	/* Spaced's commit on work the new tip left behind: refused. */
	ax_out(u1, sizeof(u1), "$G -C space checkout -q %s && $G -C space "
	    "commit -q --allow-empty -m side && " UNCOMMITTED("%s"), ax_base,
	    ax_base);
	cr_assert_eq(ax_sh("$G -C space pack-objects -q --revs --stdout "
	    "--delta-base-offset <<E | $G -C user unpack-objects -q\n%s\n^%s\nE\n$G -C user update-ref "
	    "refs/heads/spaced/t %s", u1, ax_base, u1), 0);
	cr_assert_eq(ax_sh("$G -C user merge-base --is-ancestor %s~2 %s",
	    u1, a2), 0, "control: on base, beside the work");
	ax_take("user", &before);
	expect_refused(ax_apply("user", &req, "p2.pack", 4096, &gr, err,
	    sizeof(err)), err, "branch_moved");
	ax_untouched("user", &before);
}

/* The branch moves (by cmd) while the pack streams in. */
static void
moved_midway(const char *tip, const char *cmd)
{
	struct rc_manifest	 before, after;
	struct ga_result	 gr;
	struct ga_req		 req;
	struct ga_apply		*ga;
	git_repository		*r;
	char			 err[512], path[128], buf[1024], first[512];
	size_t			 nd;
	ssize_t			 n;
	int			 fd;

	cr_assert_eq(ax_sh("$G -C user update-ref refs/heads/spaced/m %s",
	    ax_base), 0);
	snprintf(path, sizeof(path), "%s/user", ax_dir);
	cr_assert_eq(git_repository_open(&r, path), 0);
	ax_req(&req, GA_BRANCH, "spaced/m", tip);
	cr_assert_eq(ga_begin(r, &req, &ga, err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/p.pack", ax_dir);
	cr_assert_neq(fd = open(path, O_RDONLY), -1);
	n = read(fd, buf, sizeof(buf));
	cr_assert_gt(n, 0);
	cr_assert_eq(ga_feed(ga, buf, (size_t)n), 0, "%s", ga_error(ga));
	cr_assert_eq(ax_sh("cd user && %s", cmd), 0);
	ax_take("user", &before);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		cr_assert_eq(ga_feed(ga, buf, (size_t)n), 0);
	close(fd);
	expect_refused(ga_finish(ga, &gr, err, sizeof(err)), err,
	    "branch_moved");
	ga_free(ga);
	git_repository_free(r);
	/* Taken mid-way, before holds the staging folder; now it is gone. */
	ax_take("user", &after);
	nd = ax_diff(&before, &after, ax_staging, first, sizeof(first));
	cr_expect_eq(nd, 0, "%zu differences, first %s", nd, first);
	cr_expect_eq(ax_sh("ls user/.git/objects | grep -q incoming"), 1);
	rc_free(&before);
	rc_free(&after);
}

Test(apply, a_branch_that_moves_while_the_pack_comes_is_refused)
{
	char	 tip[64];

	ax_out(tip, sizeof(tip), WORK);
	ax_pack("p.pack", tip, ax_base);
	/* Off the work: no longer an ancestor of tip. */
	moved_midway(tip, "C=$($G commit-tree -p HEAD -m mine HEAD^{tree}) "
	    "&& $G update-ref refs/heads/spaced/m $C");
	/*
	 * Along the work (its objects are the user's now, from the space's
	 * first pack): a fast-forward still, but not from where it was.
	 */
	ax_sh("printf '%s~1\\n^%s\\n' | $G -C space pack-objects -q --revs "
	    "--stdout --delta-base-offset | $G -C user index-pack --stdin "
	    ">/dev/null",
	    tip, ax_base);
	moved_midway(tip, "$G update-ref refs/heads/spaced/m $($G -C "
	    "../space rev-parse HEAD~1)");
}

Test(apply, names_that_are_no_branch_are_refused)
{
	static const char *const bad[] = {
		"refs/tags/v1", "refs/spaced/x", "../x", "a..b", "-x", "HEAD",
		"x.lock", "", "a b", "x/", "/x", "a\\b", "a:b", "@{u}", "x~1",
		"refs/heads/", "refs/heads/../../config", "a//b", ".x",
	};
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];
	size_t			 i;

	ax_out(tip, sizeof(tip), WORK);
	ax_pack("p.pack", tip, ax_base);
	ax_take("user", &before);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ax_req(&req, GA_BRANCH, bad[i], tip);
		expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
		    sizeof(err)), err, "invalid_branch");
	}
	memset(req.branch, 'a', sizeof(req.branch));
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "invalid_branch");
	ax_untouched("user", &before);
	/* Control: both spellings of a branch are taken. */
	ax_req(&req, GA_BRANCH, "refs/heads/spaced/full", tip);
	cr_expect_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(gr.gr_branch, "refs/heads/spaced/full");
}

Test(apply, the_checked_out_branch_is_not_moved)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	ax_out(tip, sizeof(tip), WORK);
	ax_pack("p.pack", tip, ax_base);
	cr_assert_eq(ax_sh("$G -C user checkout -q -b spaced/t"), 0);
	ax_take("user", &before);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "branch_checked_out");
	ax_untouched("user", &before);
}

Test(apply, packs_that_lie_are_refused)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], root[64], blob[64], err[512];

	ax_out(tip, sizeof(tip), WORK);
	ax_out(blob, sizeof(blob), "echo stray | $G -C space hash-object -w "
	    "--stdin");
	ax_sh("printf '%s\\n^%s\\n%s\\n' | $G -C space pack-objects -q "
	    "--revs --stdout --delta-base-offset >stray.pack", tip, ax_base,
	    blob);
	ax_pack("p.pack", tip, ax_base);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	ax_take("user", &before);
	/* An object no new commit reaches. */
	expect_refused(ax_apply("user", &req, "stray.pack", 4096, &gr, err,
	    sizeof(err)), err, "pack_refused");
	cr_expect(strstr(err, "do not reach") != NULL, "%s", err);
	/* Cut short, and cut in the middle. */
	cr_assert_eq(ax_sh("head -c -10 p.pack >short.pack && "
	    "head -c $(($(wc -c <p.pack) / 2)) p.pack >half.pack"), 0);
	expect_refused(ax_apply("user", &req, "short.pack", 4096, &gr, err,
	    sizeof(err)), err, "pack_refused");
	expect_refused(ax_apply("user", &req, "half.pack", 4096, &gr, err,
	    sizeof(err)), err, "pack_refused");
	/* Bytes after the end. */
	cr_assert_eq(ax_sh("cp p.pack long.pack && echo x >>long.pack"), 0);
	expect_refused(ax_apply("user", &req, "long.pack", 4096, &gr, err,
	    sizeof(err)), err, "pack_refused");
	/* A tip the pack does not hold. */
	ax_req(&req, GA_BRANCH, "spaced/t", blob);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "pack_refused");
	/* A commit that does not descend from base. */
	ax_out(root, sizeof(root), "cd space && $G commit-tree -m root "
	    "HEAD^{tree}");
	ax_sh("printf '%s\\n' | $G -C space pack-objects -q --revs "
	    "--stdout --delta-base-offset >root.pack", root);
	ax_req(&req, GA_BRANCH, "spaced/t", root);
	expect_refused(ax_apply("user", &req, "root.pack", 4096, &gr, err,
	    sizeof(err)), err, "pack_refused");
	cr_expect_str_eq(err, "pack_refused: the tip does not descend from "
	    "base");
	/* A base this repository lacks, a snapshot it lacks. */
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	git_oid_fromstr(&req.base, blob);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "base_missing");
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	git_oid_fromstr(&req.start, blob);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "base_missing");
	ax_untouched("user", &before);
	/* Control: the honest pack is taken. */
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	cr_expect_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
}

Test(apply, packscan_reads_each_byte_before_the_indexer)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	git_indexer		*idx;
	git_indexer_progress	 st;
	char			 tip[64], err[512], path[128], buf[65536];
	ssize_t			 n;
	int			 fd;

	/* Two versions of a large file: the second is a delta. */
	ax_out(tip, sizeof(tip), "cd space && seq 1 3000 >nums.txt && "
	    "$G add nums.txt && $G commit -qm nums && "
	    "sed -i s/^1500$/x/ nums.txt && $G commit -qam x && "
	    "$G rev-parse HEAD");
	/* Without --delta-base-offset git names each delta's base by id. */
	ax_sh("printf '%s\\n^%s\\n' | $G -C space pack-objects -q --revs "
	    "--stdout >ref.pack", tip, ax_base);
	/* Control: libgit2's indexer alone takes that pack. */
	snprintf(path, sizeof(path), "%s/idx", ax_dir);
	cr_assert_eq(ax_sh("mkdir idx"), 0);
	cr_assert_eq(git_indexer_new(&idx, path, 0444, NULL, NULL), 0);
	snprintf(path, sizeof(path), "%s/ref.pack", ax_dir);
	cr_assert_neq(fd = open(path, O_RDONLY), -1);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		cr_assert_eq(git_indexer_append(idx, buf, (size_t)n, &st), 0);
	close(fd);
	cr_expect_eq(git_indexer_commit(idx, &st), 0, "the indexer takes it");
	cr_expect_gt(st.indexed_deltas, 0, "it holds deltas");
	git_indexer_free(idx);
	ax_take("user", &before);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	expect_refused(ax_apply("user", &req, "ref.pack", 4096, &gr, err,
	    sizeof(err)), err, "pack_refused");
	cr_expect(strstr(err, "a delta on a base named by id") != NULL, "%s",
	    err);
	ax_untouched("user", &before);
}

Test(apply, a_bomb_stops_at_packscan_before_the_indexer)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	ax_out(tip, sizeof(tip), WORK);
	/* One blob that says 10 bytes and inflates to a million. */
	cr_assert_eq(ax_sh("python3 -c 'import hashlib, sys, zlib\n"
	    "b = b\"PACK\\0\\0\\0\\2\\0\\0\\0\\1\\x3a\" + "
	    "zlib.compress(bytes(1000000))\n"
	    "sys.stdout.buffer.write(b + hashlib.sha1(b).digest())' "
	    ">bomb.pack"), 0);
	ax_take("user", &before);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	expect_refused(ax_apply("user", &req, "bomb.pack", 65536, &gr, err,
	    sizeof(err)), err, "pack_refused");
	cr_expect_str_eq(err, "pack_refused: an object longer than it says");
	ax_untouched("user", &before);
	/* The header, then the bomb: the indexer never sees the bomb. */
	{
		struct ga_apply	*ga;
		git_repository	*r;
		char		 path[128], buf[65536], size[64];
		ssize_t		 n;
		int		 fd;

		snprintf(path, sizeof(path), "%s/user", ax_dir);
		cr_assert_eq(git_repository_open(&r, path), 0);
		cr_assert_eq(ga_begin(r, &req, &ga, err, sizeof(err)), 0);
		snprintf(path, sizeof(path), "%s/bomb.pack", ax_dir);
		cr_assert_neq(fd = open(path, O_RDONLY), -1);
		cr_assert_eq(read(fd, buf, 12), 12);
		cr_assert_eq(ga_feed(ga, buf, 12), 0);
		n = read(fd, buf, sizeof(buf));
		close(fd);
		cr_assert_gt(n, 1000);
		cr_expect_eq(ga_feed(ga, buf, (size_t)n), -1);
		ax_out(size, sizeof(size), "cat user/.git/objects/"
		    "spaced-incoming-*/* | wc -c");
		cr_expect_leq(atoi(size), 12, "the indexer got %s bytes", size);
		ga_free(ga);
		git_repository_free(r);
	}
}

Test(apply, an_abort_leaves_nothing)
{
	struct rc_manifest	 before;
	struct ga_req		 req;
	struct ga_apply		*ga;
	git_repository		*r;
	char			 tip[64], err[512], path[128], buf[2048];
	ssize_t			 n;
	int			 fd;

	ax_out(tip, sizeof(tip), WORK);
	ax_pack("p.pack", tip, ax_base);
	ax_take("user", &before);
	snprintf(path, sizeof(path), "%s/user", ax_dir);
	cr_assert_eq(git_repository_open(&r, path), 0);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	cr_assert_eq(ga_begin(r, &req, &ga, err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/p.pack", ax_dir);
	cr_assert_neq(fd = open(path, O_RDONLY), -1);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	cr_assert_eq(ga_feed(ga, buf, (size_t)n), 0);
	cr_expect_eq(ax_sh("ls user/.git/objects | grep -q incoming"), 0,
	    "control: the staging folder is there mid-way");
	ga_free(ga);
	git_repository_free(r);
	ax_untouched("user", &before);
}

Test(apply, flags_not_allowed_are_refused_by_the_owner_too)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], trick[64], err[512];

	ax_out(tip, sizeof(tip), "cd space && chmod +x a.txt && "
	    "$G commit -qam exec && $G rev-parse HEAD");
	ax_pack("p.pack", tip, ax_base);
	ax_out(trick, sizeof(trick), "cd space && B=$(echo h | $G hash-object "
	    "-w --stdin) && T=$( ($G ls-tree HEAD; printf '100644 blob "
	    "%%s\\t.GIT\\n' $B) | $G mktree) && $G commit-tree -p HEAD -m t "
	    "$T");
	ax_pack("trick.pack", trick, ax_base);
	ax_take("user", &before);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "flagged");
	cr_expect(strstr(err, "new_executable a.txt") != NULL, "%s", err);
	/* A never-allowed reason stays refused whatever is allowed. */
	ax_req(&req, GA_BRANCH, "spaced/t", trick);
	req.allow = ~0u;
	expect_refused(ax_apply("user", &req, "trick.pack", 4096, &gr, err,
	    sizeof(err)), err, "flagged");
	cr_expect(strstr(err, "dotgit .GIT") != NULL, "%s", err);
	ax_untouched("user", &before);
	/* Allowed by name, it is applied and said. */
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	req.allow = POLICY_NEW_EXECUTABLE;
	cr_expect_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_flags, POLICY_NEW_EXECUTABLE);
}

Test(apply, no_work_is_an_empty_pack)
{
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 err[512], a[64];

	/* What a quarantine sends for a space that made nothing. */
	cr_assert_eq(ax_pack("empty.pack", ax_base, ax_base), 0);
	ax_req(&req, GA_BRANCH, "spaced/t", ax_base);
	cr_assert_eq(ax_apply("user", &req, "empty.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_created, 1);
	cr_expect_eq(gr.gr_commits, 0);
	ax_out(a, sizeof(a), "$G -C user rev-parse spaced/t");
	cr_expect_str_eq(a, ax_base);
	ax_req(&req, GA_WORKTREE, NULL, ax_base);
	cr_assert_eq(ax_apply("user", &req, "empty.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_added + gr.gr_modified + gr.gr_deleted, 0);
	ga_result_free(&gr);
	cr_expect_eq(ax_sh("cd user && test -z \"$($G status --porcelain)\""),
	    0);
	cr_expect_eq(ax_sh("ls user/.git/objects/pack | grep -q ."), 1,
	    "an empty pack is not kept");
}
