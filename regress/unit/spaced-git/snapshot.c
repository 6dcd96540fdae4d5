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
 * The snapshot of spaced-git on copies of the bait repository: the
 * commits equal what the spec's git commands make, every refusal
 * refuses, and the repository keeps only the allowed differences.
 */

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "fixture.h"

TestSuite(snapshot, .init = fx_setup, .fini = fx_teardown);

static void
chomp(char *s)
{
	size_t	 n = strlen(s);

	while (n > 0 && s[n - 1] == '\n')
		s[--n] = '\0';
}

static char *
rev(const char *what)
{
	char	*s = fx_out(GITQ " rev-parse '%s'", what);

	chomp(s);
	return s;
}

/* The trees the spec's commands make from a copy of the index. */
static void
git_trees(char **staged, char **work)
{
	*staged = fx_out("cp .git/index '%s/idx' && GIT_INDEX_FILE='%s/idx' "
	    GITQ " -c core.splitIndex=false write-tree", fx_root, fx_root);
	*work = fx_out("printf '.\\0:(exclude,literal)nested\\0' | "
	    "GIT_INDEX_FILE='%s/idx' " GITQ " -c core.splitIndex=false add "
	    "--all --pathspec-from-file=- --pathspec-file-nul && "
	    "GIT_INDEX_FILE='%s/idx' " GITQ " write-tree", fx_root, fx_root);
	chomp(*staged);
	chomp(*work);
}

/* The snapshot's two trees are those git's own commands make. */
static void
trees_are_gits(const struct git_snap *gs)
{
	char	*gst, *gwt, *t;

	git_trees(&gst, &gwt);
	t = fx_out(GITQ " rev-parse %s^{tree}", gs->gs_staged);
	chomp(t);
	cr_assert_str_eq(t, gst, "staged tree %s, git's %s", t, gst);
	free(t);
	t = fx_out(GITQ " rev-parse %s^{tree}", gs->gs_start);
	chomp(t);
	cr_assert_str_eq(t, gwt, "working tree %s, git's %s", t, gwt);
	free(t);
	free(gst);
	free(gwt);
}

static void
refused(const char *dir, const char *id, int clean, const char *code)
{
	struct git_snap		 gs;
	struct space_done	 sd;

	cr_assert_eq(fx_snapshot(dir, id, clean, &gs, &sd), -1);
	cr_assert_str_eq(sd.sd_code, code, "%s: %s", sd.sd_code,
	    sd.sd_message);
	cr_assert_neq(sd.sd_message[0], '\0');
}

static void
taken(const char *dir, const char *id, int clean, struct git_snap *gs)
{
	struct space_done	 sd;

	cr_assert_eq(fx_snapshot(dir, id, clean, gs, &sd), 0, "%s: %s",
	    sd.sd_code, sd.sd_message);
}

/* The tree of commit at path, "" when it has no such entry. */
static char *
tree_names(const char *commit, const char *path)
{
	return fx_out(GITQ " ls-tree --name-only %s -- '%s'", commit, path);
}

Test(snapshot, bait_matches_git)
{
	struct git_snap	 gs;
	char		*head, *t, *p;

	fx_before();
	taken(fx_repo, FX_ID, 0, &gs);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_eq(fx_marks_count(), 0);

	head = rev("HEAD");
	cr_assert_str_eq(gs.gs_base, head);
	cr_assert_str_eq(gs.gs_branch, "main");
	cr_assert_str_eq(gs.gs_format, "sha1");
	cr_assert_str_eq(gs.gs_project, "");
	cr_assert_str_eq(gs.gs_name, "repo");
	cr_assert_str_eq(gs.gs_user_name, "Bait User");
	cr_assert_str_eq(gs.gs_user_email, "bait@example.invalid");
	t = rev("refs/spaced/spaces/" FX_ID "/start");
	cr_assert_str_eq(t, gs.gs_start);
	free(t);

	/* The shape: start -> staged -> HEAD, our identity, our words. */
	p = fx_out(GITQ " log -2 --format='%%an <%%ae>|%%cn|%%s|%%P' %s",
	    gs.gs_start);
	cr_assert_not_null(strstr(p, "spaced <spaces@spaced.invalid>|spaced|"
	    "spaced: working tree snapshot|"), "%s", p);
	cr_assert_not_null(strstr(p, "|spaced: staged snapshot|"));
	cr_assert_not_null(strstr(p, head));
	free(p);

	trees_are_gits(&gs);
	free(head);

	/* What must stay out stays out, what must travel does. */
	p = fx_out(GITQ " ls-tree -r --name-only %s", gs.gs_start);
	cr_assert_null(strstr(p, ".env"));
	cr_assert_null(strstr(p, "node_modules"));
	cr_assert_null(strstr(p, "notes.private"));
	cr_assert_null(strstr(p, "nested"));
	cr_assert_null(strstr(p, "logs/"));
	cr_assert_null(strstr(p, "gone.txt"));
	cr_assert_not_null(strstr(p, "src/untracked.c"));
	free(p);
	p = fx_out(GITQ " ls-tree %s tool.sh new-link", gs.gs_start);
	cr_assert_not_null(strstr(p, "100755 blob"), "%s", p);
	cr_assert_not_null(strstr(p, "120000 blob"), "%s", p);
	free(p);
}

Test(snapshot, second_take_refused_ref_unmoved)
{
	struct git_snap	 gs;
	char		*t;

	taken(fx_repo, FX_ID, 0, &gs);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_SPACE_REF_EXISTS);
	refused(fx_repo, FX_ID, 1, ERR_SPACE_REF_EXISTS);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	t = rev("refs/spaced/spaces/" FX_ID "/start");
	cr_assert_str_eq(t, gs.gs_start);
	free(t);
	/* Another space is another ref. */
	taken(fx_repo, FX_OTHER_ID, 1, &gs);
}

/* --clean: the start is HEAD's tree, nothing uncommitted travels. */
Test(snapshot, clean_is_heads_tree)
{
	struct git_snap	 gs;
	char		*a, *b;

	fx_before();
	taken(fx_repo, FX_ID, 1, &gs);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	a = fx_out(GITQ " rev-parse HEAD^{tree}");
	b = fx_out(GITQ " rev-parse %s^{tree}", gs.gs_start);
	cr_assert_str_eq(a, b);
	free(b);
	b = fx_out(GITQ " rev-parse %s^{tree}", gs.gs_staged);
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
}

Test(snapshot, subfolder_project)
{
	struct git_snap	 gs;
	char		 dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/src", fx_repo);
	fx_before();
	taken(dir, FX_ID, 0, &gs);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_str_eq(gs.gs_project, "src");
	cr_assert_str_eq(gs.gs_name, "repo");
}

Test(snapshot, project_that_does_not_travel)
{
	char	 dir[PATH_MAX];

	fx_before();
	snprintf(dir, sizeof(dir), "%s/node_modules", fx_repo);
	refused(dir, FX_ID, 0, ERR_PROJECT_FOLDER_NO_TRAVEL);
	snprintf(dir, sizeof(dir), "%s/empty", fx_repo);
	refused(dir, FX_ID, 0, ERR_PROJECT_FOLDER_NO_TRAVEL);
	refused(dir, FX_ID, 1, ERR_PROJECT_FOLDER_NO_TRAVEL);
	/* Objects may stay; the ref was never made. */
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_neq(fx_sh(GITQ " rev-parse -q --verify "
	    "refs/spaced/spaces/" FX_ID "/start >/dev/null"), 0);
}

Test(snapshot, refusals_of_the_folder)
{
	char	 dir[PATH_MAX];

	fx_before();
	snprintf(dir, sizeof(dir), "%s/gone", fx_repo);
	refused(dir, FX_ID, 1, ERR_PROJECT_FOLDER_MISSING);
	snprintf(dir, sizeof(dir), "%s/home", fx_root);
	refused(dir, FX_ID, 0, ERR_NOT_A_GIT_WORK_TREE);
	cr_assert_eq(fx_sh(GITQ " init -q --bare ../bare.git"), 0);
	snprintf(dir, sizeof(dir), "%s/bare.git", fx_root);
	refused(dir, FX_ID, 0, ERR_NOT_A_GIT_WORK_TREE);
	cr_assert_eq(fx_untouched(FX_ID), 0);
}

Test(snapshot, no_commit_refused)
{
	cr_assert_eq(fx_sh(GITQ " init -q ../unborn && echo x > ../unborn/x"),
	    0);
	snprintf(fx_repo, sizeof(fx_repo), "%s/unborn", fx_root);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_REPOSITORY_HAS_NO_COMMIT);
	refused(fx_repo, FX_ID, 1, ERR_REPOSITORY_HAS_NO_COMMIT);
	cr_assert_eq(fx_untouched(FX_ID), 0);
}

Test(snapshot, unmerged_refused)
{
	cr_assert_eq(fx_sh("cd .. && " GITQ " init -q conflict && cd conflict "
	    "&& echo a > f && " GITQ " add f && " GITQ " commit -qm a && "
	    GITQ " checkout -qb side && echo b > f && " GITQ " commit -qam b "
	    "&& " GITQ " checkout -q main && echo c > f && " GITQ " commit "
	    "-qam c && ! " GITQ " merge -q side >/dev/null 2>&1"), 0);
	snprintf(fx_repo, sizeof(fx_repo), "%s/conflict", fx_root);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_REPOSITORY_HAS_UNMERGED);
	refused(fx_repo, FX_ID, 1, ERR_REPOSITORY_HAS_UNMERGED);
	cr_assert_eq(fx_untouched(FX_ID), 0);
}

Test(snapshot, sha256_refused)
{
	cr_assert_eq(fx_sh("cd .. && " GITQ " init -q --object-format=sha256 "
	    "sha256 && cd sha256 && echo a > f && " GITQ " add f && " GITQ
	    " commit -qm a"), 0);
	snprintf(fx_repo, sizeof(fx_repo), "%s/sha256", fx_root);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_UNSUPPORTED_OBJECT_FORMAT);
	cr_assert_eq(fx_untouched(FX_ID), 0);
}

/*
 * A split index (core.splitIndex): libgit2 1.5 reads none, and code in
 * failed (git_command_failed).  spaced-git merges it with its shared
 * index itself: entries the split part replaces (edited.txt, staged
 * again), deletes (run.sh) and adds (split-new.txt, an intent to add);
 * the snapshot's trees are git's, the index files untouched.
 */
Test(snapshot, a_split_index_matches_git)
{
	struct git_snap	 gs;
	char		*p;

	/* maxPercentChange: the changes stay in the split part. */
	cr_assert_eq(fx_sh(GITQ " config core.splitIndex true && "
	    GITQ " config splitIndex.maxPercentChange 100 && "
	    GITQ " update-index --split-index && printf 'four\\n' "
	    ">edited.txt && " GITQ " add edited.txt && " GITQ " rm -q --cached "
	    "run.sh && echo n >split-new.txt && " GITQ " add split-new.txt && "
	    "echo i >intent.txt && " GITQ " add -N intent.txt && "
	    "ls .git/sharedindex.* >/dev/null && grep -q link .git/index"), 0);
	fx_before();
	taken(fx_repo, FX_ID, 0, &gs);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	trees_are_gits(&gs);
	p = fx_out(GITQ " ls-tree -r --name-only %s", gs.gs_staged);
	cr_expect(strstr(p, "split-new.txt") != NULL &&
	    strstr(p, "run.sh") == NULL && strstr(p, "intent.txt") == NULL,
	    "%s", p);
	free(p);
}

/*
 * A split index whose shared index is gone cannot be read: named, with
 * what to do, the repository unchanged.
 */
Test(snapshot, a_split_index_without_its_shared_index_refused)
{
	struct git_snap		 gs;
	struct space_done	 sd;

	cr_assert_eq(fx_sh(GITQ " update-index --split-index && "
	    "rm .git/sharedindex.*"), 0);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_UNSUPPORTED_INDEX_FORMAT);
	cr_assert_eq(fx_snapshot(fx_repo, FX_ID, 0, &gs, &sd), -1);
	cr_expect(strstr(sd.sd_message, "core.splitIndex") != NULL &&
	    strstr(sd.sd_message, "update-index --no-split-index") != NULL,
	    "%s", sd.sd_message);
	cr_assert_eq(fx_untouched(FX_ID), 0);
}

Test(snapshot, detached_head)
{
	struct git_snap	 gs;

	cr_assert_eq(fx_sh(GITQ " checkout -q --detach"), 0);
	fx_before();
	taken(fx_repo, FX_ID, 0, &gs);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_str_eq(gs.gs_branch, "");
}

/*
 * A branch name the space cannot take in full is refused, never cut
 * (the space would get another branch than the host's).
 */
Test(snapshot, branch_too_long_refused)
{
	cr_assert_eq(fx_sh("b=$(printf 'b%%.0s' $(seq 50)) && " GITQ
	    " checkout -q -b \"$b/$b/$b/$b/$b/$b\""), 0);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_INVALID_BRANCH_NAME);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	/* Control: one that fits travels. */
	cr_assert_eq(fx_sh("c=$(printf 'c%%.0s' $(seq 50)) && " GITQ
	    " checkout -q -b \"$c/$c/$c/$c/$c\""), 0);
	cr_assert_eq(fx_snapshot(fx_repo, FX_ID, 0, NULL, &(struct space_done)
	    { 0 }), 0);
}

/* logAllRefUpdates=always would log our ref; the spec allows no reflog. */
Test(snapshot, no_reflog_with_log_all_ref_updates_always)
{
	struct git_snap		 gs;
	struct space_done	 sd;

	cr_assert_eq(fx_sh(GITQ " config core.logAllRefUpdates always"), 0);
	fx_before();
	taken(fx_repo, FX_ID, 0, &gs);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	/* And when the ref goes, nothing of it is left. */
	cr_assert_eq(fx_refs_remove(fx_repo, FX_ID, &sd), 0, "%s",
	    sd.sd_message);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_neq(fx_sh("test -e .git/logs/refs/spaced"), 0);
	/* Control: git itself logs a ref of its own there. */
	cr_assert_eq(fx_sh(GITQ " update-ref refs/spaced/x HEAD && test -f "
	    ".git/logs/refs/spaced/x"), 0);
}

Test(snapshot, identity_only_one_short_line)
{
	struct git_snap	 gs;

	cr_assert_eq(fx_sh(GITQ " config user.name \"$(printf 'a\\nb')\" && "
	    GITQ " config user.email \"$(printf '%%0256d' 0)\""), 0);
	taken(fx_repo, FX_ID, 1, &gs);
	cr_assert_str_eq(gs.gs_user_name, "");
	cr_assert_str_eq(gs.gs_user_email, "");
	cr_assert_eq(fx_sh(GITQ " config user.name 'Ann Other' && "
	    GITQ " config user.email \"$(printf '%%0255d' 0)\""), 0);
	taken(fx_repo, FX_OTHER_ID, 1, &gs);
	cr_assert_str_eq(gs.gs_user_name, "Ann Other");
	cr_assert_eq(strlen(gs.gs_user_email), 255);
}

Test(snapshot, no_identity_still_snapshots)
{
	struct git_snap	 gs;

	cr_assert_eq(fx_sh("printf '[init]\\n\\tdefaultBranch = main\\n' > "
	    "\"$HOME/.gitconfig\""), 0);
	taken(fx_repo, FX_ID, 0, &gs);
	cr_assert_str_eq(gs.gs_user_name, "");
	cr_assert_str_eq(gs.gs_user_email, "");
}

/*
 * git add -N: the spec's write-tree leaves the entry out of the staged
 * tree, and its add --all puts the content in the start.
 */
Test(snapshot, intent_to_add_arrives_untracked)
{
	struct git_snap	 gs;
	char		*p;

	cr_assert_eq(fx_sh("echo ita > ita.txt && " GITQ " add -N ita.txt"), 0);
	fx_before();
	taken(fx_repo, FX_ID, 0, &gs);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	p = tree_names(gs.gs_staged, "ita.txt");
	cr_assert_str_eq(p, "");
	free(p);
	p = fx_out(GITQ " show %s:ita.txt", gs.gs_start);
	cr_assert_str_eq(p, "ita\n");
	free(p);
	/* The same trees as git's own commands. */
	trees_are_gits(&gs);
}

/*
 * A sparse checkout: the entries outside it (skip-worktree, no file)
 * are in the start as in the index, as git add --all leaves them;
 * libgit2's update_all recorded them deleted, so the agent's commit -a
 * deleted them inside, and a review against the start never showed it.
 */
Test(snapshot, sparse_checkout_keeps_what_is_outside)
{
	struct git_snap	 gs;
	char		 dir[512], *p, *t;

	snprintf(dir, sizeof(dir), "%s/sparse", fx_root);
	cr_assert_eq(fx_sh("cd .. && " GITQ " init -q -b main sparse && "
	    "cd sparse && mkdir in out && echo a >in/a && echo b >out/b && "
	    GITQ " add . && " GITQ " commit -qm a && " GITQ " sparse-checkout "
	    "set in && echo c >>in/a && echo n >in/new && test ! -e out/b"),
	    0);
	taken(dir, FX_ID, 0, &gs);
	p = fx_out("cd ../sparse && " GITQ " ls-tree -r --name-only %s",
	    gs.gs_start);
	cr_expect_str_eq(p, "in/a\nin/new\nout/b\n");
	free(p);
	/* The same tree as git's own add --all. */
	p = fx_out("cd ../sparse && cp .git/index ../sparse.idx && "
	    "GIT_INDEX_FILE=../sparse.idx " GITQ " add --all 2>/dev/null; "
	    "GIT_INDEX_FILE=../sparse.idx " GITQ " write-tree");
	t = fx_out("cd ../sparse && " GITQ " rev-parse %s^{tree}", gs.gs_start);
	cr_expect_str_eq(t, p);
	free(p);
	free(t);
}

/*
 * libgit2 runs no clean filter program: a changed or untracked file
 * that needs one refuses the snapshot before the ref, rather than
 * travelling raw where the user's git add stores what the filter makes.
 */
Test(snapshot, clean_filter_refused)
{
	cr_assert_eq(fx_sh(GITQ " config filter.lfs.clean 'git-lfs clean -- "
	    "%%f' && echo '*.bin filter=lfs' > .gitattributes && "
	    "echo BIG > big.bin"), 0);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_CLEAN_FILTER_UNSUPPORTED);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_neq(fx_sh(GITQ " rev-parse -q --verify "
	    "refs/spaced/spaces/" FX_ID "/start >/dev/null"), 0);
}

/* The same with a process filter, and with a tracked file changed. */
Test(snapshot, process_filter_refused)
{
	cr_assert_eq(fx_sh("echo '*.txt filter=crypt' > .git/info/attributes"
	    " && " GITQ " config filter.crypt.process 'crypt-filter'"), 0);
	fx_before();
	refused(fx_repo, FX_ID, 0, ERR_CLEAN_FILTER_UNSUPPORTED);
	cr_assert_eq(fx_untouched(FX_ID), 0);
}

/*
 * Controls: a filter with no clean command configured (smudge only) is
 * not run by git's add either, and --clean takes nothing of the working
 * tree, so both travel; files already committed travel as they are.
 */
Test(snapshot, filter_controls)
{
	struct git_snap	 gs;

	cr_assert_eq(fx_sh(GITQ " config filter.lfs.clean 'git-lfs clean -- "
	    "%%f' && echo '*.bin filter=lfs' > .gitattributes && "
	    "echo BIG > big.bin"), 0);
	taken(fx_repo, FX_ID, 1, &gs);
	cr_assert_eq(fx_sh(GITQ " config --unset filter.lfs.clean && " GITQ
	    " config filter.lfs.smudge 'git-lfs smudge -- %%f'"), 0);
	taken(fx_repo, FX_OTHER_ID, 0, &gs);
}
