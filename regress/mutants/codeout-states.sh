#!/bin/sh
# Mutation check of what code in and code out refuse by name of the
# states a new user's repository and an agent's leave (codeout/shapes.sh,
# its part 5): the script's unmerged paths and its gone start
# (codeout_script.c), a branch git cannot make beside another
# (git_apply.c), DIR in a git directory or a git directory whose
# core.worktree is elsewhere (git_repo.c), an empty -b (spacectl), a
# flag no --allow passes (git_quarantine.c), -w beside another git's
# index.lock (git_apply_wt.c), a branch another git holds locked
# (git_apply.c) and a sparse index (git_done.c).
# Each mutant is this tree's build with one file changed (quick), then
# the live suite; the unmutated tree's run first is the control.
# Usage: sh regress/mutants/codeout-states.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2" binaries build/regress/tools/repo-compare
	SPACED_BUILD="$tmp/src/build" timeout 900 \
	    sh "$tmp/src/regress/codeout/shapes.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

S=supervisor/spaced/codeout_script.c
mutant_expect "a conflict left in progress: refused, named"
mutant "a conflict in progress comes out as work" $S \
    '|| exit 68 => || true'
mutant_expect "the start gone from the space: refused, named"
mutant "a start gone reads as a HEAD that names no commit" $S \
    'exit 67; exit 69; } => exit 67; exit 67; }'
mutant_expect "a branch below a branch: invalid_branch"
mutant "a branch beside a branch goes to libgit2" \
    worker-git/spaced-git/git_apply.c \
    'if (other[0] == \x27\\0\x27)\n\t\treturn 0; => if (1)\n\t\treturn 0;'
R=worker-git/spaced-git/git_repo.c
mutant_expect "code in of a folder in .git: not_a_git_work_tree"
mutant "DIR in the git directory is taken" $R \
    'if (path_in(repo.rs_dir, gitdir) || path_in(repo.rs_dir, common)) { => if (0) {'
mutant_expect "a git directory whose core.worktree is elsewhere"
mutant "a git directory with its work tree elsewhere is taken" $R \
    'if (!path_in(repo.rs_dir, repo.rs_top)) { => if (0) {'
mutant_expect "an empty name: invalid_branch"
mutant "-b with an empty name goes to spaced" \
    supervisor/spacectl/spacectl_review.c \
    "} else if (branch != NULL && branch[0] == '\\\\0') => } else if (0)"
mutant_expect "apply refused: no --allow helps, and what to do"
mutant "a flag never allowed refused as one --allow could pass" \
    worker-git/spaced-git/git_quarantine.c \
    'else if (names[0] != \x27\\0\x27) { => else if (0) {'
mutant_expect "-w beside another git's index.lock: not_clean"
mutant "-w writes beside another git's index.lock" \
    worker-git/spaced-git/git_apply_wt.c \
    'if (lstat(path, &st) == -1 && errno == ENOENT) => if (lstat(path, &st) == -1 || 1)'
mutant_expect "a branch locked by another git: named"
mutant "a branch's lock answered in libgit2's words" \
    worker-git/spaced-git/git_apply.c \
    'if (rc == GIT_ELOCKED) { => if (0) {'
mutant_expect "a sparse index: unsupported_index_format"
mutant "a sparse index answered in libgit2's words" \
    worker-git/spaced-git/git_done.c \
    'if (libgit2_index_sparse()) { => if (0 && libgit2_index_sparse()) {'
mutant_expect "-w on a sparse index: not_a_git_work_tree"
mutant "-w on a sparse index answered not_clean" \
    worker-git/spaced-git/git_apply_wt.c \
    'if (libgit2_index_sparse()) { => if (0 && libgit2_index_sparse()) {'

mutants_end
