#!/bin/sh
# Mutation check of apply's owner side (git_apply.c, git_apply_wt.c),
# the quarantine's pack out (qr_packout.c) and the snapshot code out
# depends on (git_codein.c): each mutant removes one
# protection, and the unit test that names it must go red.
# Built in a copy of the tree under a temp dir, seeded with this tree's
# build/ so that only the mutated file is compiled again; the tree
# itself is never modified.
# Usage: sh regress/mutants/apply.sh [label-substring]
. "$(dirname "$0")/lib.sh"

A=worker-git/spaced-git/git_apply.c
W=worker-git/spaced-git/git_apply_wt.c
O=worker-git/spaced-git/qr_packout.c

# mutant <label> <file> <"old" => "new"[ @@ ...]> [criterion filter]
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	# Sources older than objects, the mutated file newest: a clock
	# tick is coarser than a few touches.
	if [ -d "$top/build" ]; then
		cp -a "$top/build" "$tmp/src/"
		find "$tmp/src" -path "$tmp/src/build" -prune -o -type f \
		    -exec touch -d '-2 min' {} +
		find "$tmp/src/build" -type f -exec touch -d '-1 min' {} +
		touch "$tmp/src/$2"
	fi
	mutant_build "$1" build/regress/unit/spaced-git
	(cd "$tmp/src" && timeout 900 build/regress/unit/spaced-git -j2 \
	    --filter "${4:-@(apply|apply_wt)/*}") >"$tmp/run.log" 2>&1
	set -- "$1" $?
	grep -q 'Tested: [1-9]' "$tmp/run.log" ||
	    { echo "BROKEN: no test ran"; exit 1; }
	mutant_judge "$1" "$2" '^\[FAIL\]' 's/^\[FAIL\] //; s/: (.*//'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant "$MUTANT_CONTROL" GNUmakefile "" 'packout/a_*'
mutant "$MUTANT_CONTROL" GNUmakefile "" 'snapshot/*'

# -b: a branch is created or fast-forwarded, never forced.
mutant_expect 'apply::a_branch_that_moved_elsewhere_is_refused'
mutant "a branch that moved elsewhere is forced" $A \
    "if (git_graph_descendant_of(ga->g_repo, tip, &ga->g_old) != 1 && => if (0 &&"
mutant_expect 'apply::a_branch_that_moved_elsewhere_is_refused'
mutant "a branch off the work passes ga_begin" $A \
    "git_graph_descendant_of(ga->g_repo, &ga->g_old, base) == 1)\n\t\treturn 0; => git_graph_descendant_of(ga->g_repo, &ga->g_old, base) == 1 || 1)\n\t\treturn 0;"
mutant_expect 'apply::a_branch_that_moves_while_the_pack_comes_is_refused'
mutant "the branch moves without compare-and-swap" $A \
    "rc = git_reference_create_matching(&ref, ga->g_repo, ga->g_ref,\n\t\t    tip, 1, &ga->g_old, => rc = git_reference_create(&ref, ga->g_repo, ga->g_ref,\n\t\t    tip, 1,"
mutant_expect 'apply::a_branch_that_moves_while_the_pack_comes_is_refused'
mutant "a refusal after linking leaves the pack" $A \
    "linked_undo(ga);\n\t\treturn say(err, len, GA_ERR_BRANCH_MOVED, => return say(err, len, GA_ERR_BRANCH_MOVED,"
# An earlier apply's uncommitted work, spaced's commit, is replaced;
# anyone else's commit there, or spaced's beside the work, is not.
mutant_expect 'apply::an_earlier_uncommitted_work_is_replaced'
mutant "anyone's commit in an earlier uncommitted work's place is replaced" $A \
    "code_out_sig(git_commit_author(c)) && => 1 &&"
mutant_expect 'apply::an_earlier_uncommitted_work_is_replaced'
mutant "spaced's commit of another start is replaced" $A \
    "strcmp(git_commit_message(c), want) == 0) { => strncmp(git_commit_message(c), want, strlen(CODEOUT_WORK_SUBJECT) + 8) == 0) {"
mutant_expect 'apply::an_earlier_uncommitted_work_is_replaced'
mutant "spaced's commit beside the work is replaced" $A \
    "ok = git_oid_equal(p, tip) || => ok = 1 || git_oid_equal(p, tip) ||"
mutant_expect 'apply::the_checked_out_branch_is_not_moved'
mutant "a checked-out branch is moved" $A \
    "if (git_branch_is_checked_out(ref) == 1) => if (0)"
mutant_expect 'apply::names_that_are_no_branch_are_refused'
mutant "a name outside refs/heads/ passes" $A \
    "if (strncmp(b, \"refs/heads/\", 11) != 0) => if (0)"
# The pack: packscan before the indexer, the checks again.
mutant_expect 'apply::packscan_reads_each_byte_before_the_indexer'
mutant "packscan is not asked" $A \
    "if (packscan_feed(&ga->g_scan, buf, len) == -1) => if (0)"
mutant_expect 'apply::a_bomb_stops_at_packscan_before_the_indexer'
mutant "the indexer reads a chunk before packscan" $A \
    "if (packscan_feed(&ga->g_scan, buf, len) == -1)\n\t\treturn feed_fail(ga, GA_ERR_PACK_REFUSED, ga->g_scan.ps_why);\n\tif (git_indexer_append(ga->g_idx, buf, len, &ga->g_stats) != 0)\n\t\treturn feed_fail(ga, GA_ERR_PACK_REFUSED, \"libgit2 refused \"\n\t\t    \"the pack\"); => if (git_indexer_append(ga->g_idx, buf, len, &ga->g_stats) != 0)\n\t\treturn feed_fail(ga, GA_ERR_PACK_REFUSED, \"libgit2 refused \"\n\t\t    \"the pack\");\n\tif (packscan_feed(&ga->g_scan, buf, len) == -1)\n\t\treturn feed_fail(ga, GA_ERR_PACK_REFUSED, ga->g_scan.ps_why);"
mutant_expect 'apply::packs_that_lie_are_refused'
mutant "a tip off base passes the ancestry check" $A \
    "git_graph_descendant_of(ga->g_repo, tip, base) != 1)\n\t\treturn say( => git_graph_descendant_of(ga->g_repo, tip, base) != 1 && 0)\n\t\treturn say("
mutant_expect 'apply::flags_not_allowed_are_refused_by_the_owner_too'
mutant "the owner takes a flag not allowed" $A \
    "if (f.f_count > 0) => if (0)"
mutant_expect 'apply::an_abort_leaves_nothing'
mutant "an abort leaves the staging folder" $A \
    "\tstaging_remove(ga);\n\tgit_repository_free(ga->g_repo); => \tif (0)\n\t\tstaging_remove(ga);\n\tgit_repository_free(ga->g_repo);"
# -w: HEAD at base, a clean tree, nothing of the user's overwritten.
mutant_expect 'apply_wt::head_moved_is_refused'
mutant "HEAD need not be base" $W \
    "if (!git_oid_equal(&head, base)) { => if (0) {"
mutant_expect 'apply_wt::a_tree_that_is_not_clean_is_refused'
mutant "a tree that is not clean passes" $W \
    "if ((n = git_status_list_entrycount(sl)) == 0) { => if ((n = git_status_list_entrycount(sl)) == 0 || 1) {"
mutant_expect 'apply_wt::a_tree_that_is_not_clean_is_refused'
mutant "untracked files pass" $W \
    "so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED; => so.flags = 0;"
mutant_expect 'apply_wt::a_tree_that_is_not_clean_is_refused'
mutant "a merge under way passes" $W \
    "if (git_repository_state(r) != GIT_REPOSITORY_STATE_NONE) { => if (0) {"
mutant_expect 'apply_wt::a_sparse_checkout_is_refused_by_name'
mutant "a sparse checkout goes to the status check" $W \
    "|| sparse(r, err, len) == -1) => || (0 && sparse(r, err, len) == -1))"
mutant_expect 'apply_wt::an_ignored_file_in_the_way_is_not_overwritten'
mutant "an ignored file in the way is overwritten" $W \
    "GIT_CHECKOUT_SAFE |\n\t    GIT_CHECKOUT_DONT_OVERWRITE_IGNORED; => GIT_CHECKOUT_SAFE;"
# The quarantine's pack out.
mutant_expect 'packout::a_check_that_fails_sends_no_byte'
mutant "the pack out takes a flag not allowed" $O \
    "if (res->qr_flags & ~(req->qo_allow & POLICY_ALLOWABLE)) { => if (0) {" \
    'packout/a_*'
mutant_expect 'packout::a_second_apply_sends_only_what_is_new'
mutant "the owner's have is sent again" $O \
    "if (hide(p, &had[i]) == -1) => if (0 && hide(p, &had[i]) == -1)" \
    'packout/a_*'

# Code in, where code out depends on it: a sparse checkout's entries
# outside it stay in the start.
mutant_expect 'snapshot::sparse_checkout_keeps_what_is_outside'
mutant "a sparse checkout's entries outside it are recorded deleted" \
    worker-git/spaced-git/git_codein.c \
    "if (skip_worktree(ns->index, path)) => if (0 && skip_worktree(ns->index, path))" 'snapshot/*'

mutants_end
