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
 * apply -w (worker-git/spaced-git/git_apply_wt.c) on real repositories:
 * the change lands in the index and work tree, uncommitted, exact;
 * HEAD moved, a dirty tree, an ignored file in the way are refused with
 * the repository unchanged; no hook, filter or fsmonitor of the user's
 * or the agent's runs, where plain git (the control) runs each.
 */

#include <criterion/criterion.h>

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply_fx.h"

TestSuite(apply_wt, .init = ax_setup, .fini = ax_teardown);

#define WORK	"cd space && echo b >>a.txt && echo new >new.txt && " \
	"$G rm -q lib/x.c && $G mv keep.bin moved.bin && chmod -x bin/run.sh " \
	"&& $G add -A && $G commit -qm 'one: edits' && " \
	"export GIT_AUTHOR_NAME=Bob GIT_AUTHOR_EMAIL=bob@b.invalid && " \
	"head -c 5000 /dev/urandom >new.bin && " \
	"echo n >'dir with space/na\xc3\xafve \xc3\xbcn\xc3\xaf" "code.txt' && " \
	"ln -sf new.txt link && $G add -A && $G commit -qm 'two: binary' && " \
	"echo c >>a.txt && $G commit -qam three && $G rev-parse HEAD"

/* The space's pack of its work on base into file; the tip in tip. */
static void
work(char *tip, size_t len, const char *script, const char *file)
{
	ax_out(tip, len, "%s", script);
	cr_assert_eq(ax_pack(file, tip, ax_base), 0);
}

static void
expect_refused(int rc, const char *err, const char *code)
{
	cr_expect_eq(rc, -1, "refused");
	cr_expect(strncmp(err, code, strlen(code)) == 0 &&
	    err[strlen(code)] == ':', "want %s, got \"%s\"", code, err);
}

/* What -w may change: the index, the work tree, the new pack. */
static int
worktree_allowed(const char *path)
{
	return strncmp(path, ".git", 4) != 0 ||
	    (path[4] != '\0' && path[4] != '/') ||
	    strcmp(path, ".git/index") == 0 ||
	    strncmp(path, ".git/objects/pack/pack-", 23) == 0;
}

/* repo's index is tip's tree, its work tree the index, HEAD base. */
static void
expect_uncommitted(const char *repo, const char *tip)
{
	char	 a[128], b[128];

	ax_out(a, sizeof(a), "$G -C %s write-tree", repo);
	ax_out(b, sizeof(b), "$G -C %s rev-parse %s^{tree}", repo, tip);
	cr_expect_str_eq(a, b, "the index holds the work");
	ax_out(a, sizeof(a), "$G -C %s rev-parse HEAD", repo);
	cr_expect_str_eq(a, ax_base, "HEAD stays at base");
	cr_expect_eq(ax_sh("cd %s && $G diff --quiet && test -z \"$($G "
	    "ls-files -o --exclude-standard)\"", repo), 0,
	    "the work tree is the index");
	cr_expect_eq(ax_sh("cd %s && $G diff --cached --raw -M %s | "
	    "md5sum >../c1 && cd ../space && $G diff --raw -M %s %s | md5sum "
	    ">../c2 && cmp ../c1 ../c2", repo, ax_base, ax_base, tip), 0,
	    "the same change as the space's");
}

Test(apply_wt, the_change_lands_uncommitted_and_exact)
{
	struct rc_manifest	 before, after;
	struct ga_result	 gr;
	struct ga_req		 req;
	struct stat		 st;
	char			 tip[64], err[512], first[512], path[256];
	size_t			 n;

	work(tip, sizeof(tip), WORK, "p.pack");
	ax_take("user", &before);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	cr_assert_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	expect_uncommitted("user", tip);
	/* Modes and links as the space has them. */
	snprintf(path, sizeof(path), "%s/user/bin/run.sh", ax_dir);
	cr_assert_eq(lstat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0111, 0, "run.sh lost its x bit");
	snprintf(path, sizeof(path), "%s/user/link", ax_dir);
	cr_assert_eq(lstat(path, &st), 0);
	cr_expect(S_ISLNK(st.st_mode));
	cr_expect_eq(ax_sh("test \"$(readlink user/link)\" = new.txt && "
	    "cmp user/new.bin space/new.bin && test ! -e user/lib/x.c && "
	    "cmp user/moved.bin space/moved.bin && test ! -e user/keep.bin"),
	    0);
	/* What ga_result says: base to tip, no renames. */
	cr_expect_eq(gr.gr_added, 4);	/* new.txt new.bin moved.bin naive */
	cr_expect_eq(gr.gr_deleted, 2);	/* lib/x.c keep.bin */
	cr_expect_eq(gr.gr_modified, 3);	/* a.txt run.sh link */
	cr_expect_eq(gr.gr_commits, 3);
	cr_expect(memmem(gr.gr_paths, gr.gr_paths_len, "D lib/x.c\0", 10) !=
	    NULL);
	cr_expect(memmem(gr.gr_paths, gr.gr_paths_len, "A new.txt\0", 10) !=
	    NULL);
	ga_result_free(&gr);
	/* Only the index, the work tree and the pack changed. */
	ax_take("user", &after);
	n = ax_diff(&before, &after, worktree_allowed, first, sizeof(first));
	cr_expect_eq(n, 0, "%zu differences, first %s", n, first);
	rc_free(&before);
	rc_free(&after);
}

Test(apply_wt, a_branch_then_the_work_tree_of_a_second_repository)
{
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512], a[64];

	cr_assert_eq(ax_sh("$G clone -q user user2"), 0);
	work(tip, sizeof(tip), WORK, "p.pack");
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	cr_assert_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	cr_assert_eq(ax_apply("user2", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ga_result_free(&gr);
	expect_uncommitted("user2", tip);
	ax_out(a, sizeof(a), "$G -C user rev-parse spaced/t");
	cr_expect_str_eq(a, tip);
	cr_expect_eq(ax_sh("cd user && test -z \"$($G status --porcelain)\""),
	    0, "-b left the first work tree alone");
	/* And -w on the first, where the objects are already. */
	cr_assert_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ga_result_free(&gr);
	expect_uncommitted("user", tip);
}

/* -w of p.pack refused with code, user unchanged. */
static void
refused(const char *tip, const char *code)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 err[512];

	ax_take("user", &before);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, code);
	ax_untouched("user", &before);
}

Test(apply_wt, head_moved_is_refused)
{
	char	 tip[64];

	work(tip, sizeof(tip), WORK, "p.pack");
	cr_assert_eq(ax_sh("cd user && echo mine >mine.txt && $G add mine.txt "
	    "&& $G commit -qm mine"), 0);
	refused(tip, "head_moved");
	/* Detached elsewhere, and unborn. */
	cr_assert_eq(ax_sh("cd user && $G checkout -q --detach HEAD"), 0);
	refused(tip, "head_moved");
	cr_assert_eq(ax_sh("cd user && $G checkout -q --orphan fresh && "
	    "$G rm -rqf --cached ."), 0);
	refused(tip, "head_moved");
}

/*
 * A sparse checkout: libgit2 sees each file outside it as deleted
 * (not_clean, "commit, stash or remove it", which the user cannot);
 * it is named, and -b offered.  Control: the whole work tree again.
 */
Test(apply_wt, a_sparse_checkout_is_refused_by_name)
{
	struct rc_manifest	 before;
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	work(tip, sizeof(tip), WORK, "p.pack");
	cr_assert_eq(ax_sh("cd user && $G sparse-checkout set lib && "
	    "test ! -e bin/run.sh"), 0);
	ax_take("user", &before);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	expect_refused(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "not_a_git_work_tree");
	cr_expect(strstr(err, "marked skip-worktree (a sparse") != NULL &&
	    strstr(err, "apply to a branch") != NULL, "%s", err);
	ax_untouched("user", &before);
	cr_assert_eq(ax_sh("cd user && $G sparse-checkout disable"), 0);
	cr_assert_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	expect_uncommitted("user", tip);
	ga_result_free(&gr);
}

/*
 * A split index: libgit2 reads none, and -w said not_clean ("the
 * status cannot be read") of a clean tree.  Named, -b offered, the
 * repository unchanged; control: unsplit, the same apply lands.
 */
Test(apply_wt, a_split_index_is_refused_by_name)
{
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	work(tip, sizeof(tip), WORK, "p.pack");
	cr_assert_eq(ax_sh("cd user && $G update-index --split-index && "
	    "ls .git/sharedindex.* >/dev/null"), 0);
	refused(tip, "unsupported_index_format");
	ax_req(&req, GA_WORKTREE, NULL, tip);
	cr_assert_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), -1);
	cr_expect(strstr(err, "core.splitIndex") != NULL &&
	    strstr(err, "apply to a branch") != NULL, "%s", err);
	cr_assert_eq(ax_sh("cd user && $G update-index --no-split-index"), 0);
	cr_assert_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	expect_uncommitted("user", tip);
	ga_result_free(&gr);
}

Test(apply_wt, a_tree_that_is_not_clean_is_refused)
{
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	work(tip, sizeof(tip), WORK, "p.pack");
	/* A change in the work tree. */
	cr_assert_eq(ax_sh("echo dirty >>user/a.txt"), 0);
	refused(tip, "not_clean");
	/* A change staged. */
	cr_assert_eq(ax_sh("cd user && $G add a.txt"), 0);
	refused(tip, "not_clean");
	/* A file git does not track and does not ignore. */
	cr_assert_eq(ax_sh("cd user && $G reset -q --hard && echo u >u.txt"),
	    0);
	refused(tip, "not_clean");
	/* A merge under way. */
	cr_assert_eq(ax_sh("rm user/u.txt && $G -C user rev-parse HEAD "
	    ">user/.git/MERGE_HEAD"), 0);
	refused(tip, "not_clean");
	/* Control: ignored files alone are no reason; they stay. */
	cr_assert_eq(ax_sh("rm user/.git/MERGE_HEAD && mkdir user/build && "
	    "echo o >user/build/out && echo o >user/x.o"), 0);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	cr_expect_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ga_result_free(&gr);
	cr_expect_eq(ax_sh("test -f user/build/out && test -f user/x.o"), 0);
}

Test(apply_wt, an_ignored_file_in_the_way_is_not_overwritten)
{
	char	 tip[64];

	work(tip, sizeof(tip), "cd space && echo agent >gen.o && "
	    "$G add -f gen.o && $G commit -qm gen && $G rev-parse HEAD",
	    "p.pack");
	cr_assert_eq(ax_sh("echo mine >user/gen.o"), 0);
	refused(tip, "not_clean");
	cr_expect_eq(ax_sh("grep -q mine user/gen.o"), 0);
}

Test(apply_wt, the_head_moving_while_the_pack_comes_is_refused)
{
	struct rc_manifest	 before, after;
	struct ga_result	 gr;
	struct ga_req		 req;
	struct ga_apply		*ga;
	git_repository		*r;
	char			 tip[64], err[512], path[128], first[512];
	char			 buf[4096];
	FILE			*fp;
	size_t			 n;

	work(tip, sizeof(tip), WORK, "p.pack");
	snprintf(path, sizeof(path), "%s/user", ax_dir);
	cr_assert_eq(git_repository_open(&r, path), 0);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	cr_assert_eq(ga_begin(r, &req, &ga, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(ax_sh("cd user && $G commit -q --allow-empty -m mine"),
	    0);
	snprintf(path, sizeof(path), "%s/p.pack", ax_dir);
	cr_assert_not_null(fp = fopen(path, "r"));
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		cr_assert_eq(ga_feed(ga, buf, n), 0);
	fclose(fp);
	ax_take("user", &before);
	expect_refused(ga_finish(ga, &gr, err, sizeof(err)), err,
	    "head_moved");
	ga_free(ga);
	git_repository_free(r);
	/* As after the user's commit; the staging folder gone. */
	ax_take("user", &after);
	n = ax_diff(&before, &after, ax_staging, first, sizeof(first));
	cr_expect_eq(n, 0, "%zu differences, first %s", n, first);
	cr_expect_eq(ax_sh("ls user/.git/objects | grep -q incoming"), 1);
	rc_free(&before);
	rc_free(&after);
}

Test(apply_wt, a_bare_repository_has_no_work_tree)
{
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	work(tip, sizeof(tip), WORK, "p.pack");
	cr_assert_eq(ax_sh("$G clone -q --bare user bare.git"), 0);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	expect_refused(ax_apply("bare.git", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), err, "not_a_git_work_tree");
	/* Control: a branch is fine there. */
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	cr_expect_eq(ax_apply("bare.git", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
}

/* Each program writes its own mark under ax_dir/marks. */
#define PLANT	"M=%s/marks && cd user && " \
	"for h in post-checkout post-index-change reference-transaction " \
	"pre-commit post-commit; do printf '#!/bin/sh\\ntouch '$M'/hook-'$h'\\n' " \
	">.git/hooks/$h && chmod +x .git/hooks/$h; done && " \
	"printf '#!/bin/sh\\ntouch '$M'/fsmonitor\\n' >../fsmon && chmod +x " \
	"../fsmon && git config core.fsmonitor \"$PWD/../fsmon\" && " \
	"git config filter.mark.smudge \"touch $M/smudge; cat\" && " \
	"git config filter.mark.clean \"touch $M/clean; cat\" && " \
	"git config diff.mark.command \"touch $M/diff\" && " \
	"git config merge.mark.driver \"touch $M/merge\" && " \
	"echo '* filter=mark diff=mark merge=mark' >.git/info/attributes"

Test(apply_wt, no_hook_filter_or_fsmonitor_runs)
{
	struct ga_result	 gr;
	struct ga_req		 req;
	char			 tip[64], err[512];

	/* The agent's own .gitattributes names the driver too. */
	work(tip, sizeof(tip), "cd space && echo 'a.txt filter=mark diff=mark' "
	    ">.gitattributes && echo b >>a.txt && echo n >n.txt && "
	    "$G add -A && $G commit -qm attrs && $G rev-parse HEAD", "p.pack");
	cr_assert_eq(ax_sh(PLANT, ax_dir), 0);
	/* Controls: plain git in a copy runs each of them. */
	cr_assert_eq(ax_sh("cp -a user ctl && cd ctl && "
	    "git fetch -q ../space HEAD && git update-ref refs/heads/c "
	    "FETCH_HEAD && git status >/dev/null 2>&1 && git checkout -q c 2>/dev/null && "
	    "git diff HEAD~1 >/dev/null"), 0);
	cr_expect_eq(ax_sh("cd marks && ls hook-reference-transaction "
	    "hook-post-checkout hook-post-index-change fsmonitor smudge "
	    "diff >/dev/null"), 0, "the controls left their marks");
	cr_assert_eq(ax_sh("rm -rf ctl marks/*"), 0);
	cr_assert_eq(ax_marks(), 0);
	/* libgit2, with the driver allowed by name. */
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	req.allow = POLICY_ATTR_DRIVER;
	cr_expect_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	req.allow = POLICY_ATTR_DRIVER;
	cr_expect_eq(ax_apply("user", &req, "p.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ga_result_free(&gr);
	cr_expect_eq(ax_marks(), 0, "no program ran");
	cr_expect_eq(ax_sh("printf 'a\\nb\\n' | cmp - user/a.txt && "
	    "test -f user/n.txt"), 0, "the change is there, unfiltered");
	/* Without the allowance the agent's attributes are refused. */
	cr_assert_eq(ax_sh("cd user && $G reset -q --hard && $G clean -qfd"),
	    0);
	refused(tip, "flagged");
	cr_expect_eq(ax_marks(), 0);
}
