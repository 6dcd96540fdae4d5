#!/bin/sh
# Mutation check of code in's reader of a split index
# (worker-git/spaced-git/split_parse.c): each mutant drops one step of
# git's merge of the split part over its shared index, and the snapshot
# unit test that compares the trees with git's must go red.
# Built in a copy of the tree under a temp dir; the tree itself is
# never modified.
# Usage: sh regress/mutants/splitindex.sh [label-substring]
. "$(dirname "$0")/lib.sh"

P=worker-git/spaced-git/split_parse.c

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spaced-git
	(cd "$tmp/src" && timeout 600 build/regress/unit/spaced-git -j2 \
	    --filter 'snapshot/*split*') >"$tmp/run.log" 2>&1
	set -- "$1" $?
	grep -q 'Tested: [1-9]' "$tmp/run.log" ||
	    { echo "BROKEN: no test ran"; exit 1; }
	mutant_judge "$1" "$2" '^\[FAIL\]' 's/^\[FAIL\] //; s/: (.*//'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'snapshot::a_split_index_matches_git'
mutant "the deletions of the link are not applied" $P \
    "if (i < shared->sx_n && bit(split->sx_delete, => if (i < shared->sx_n && 0 && bit(split->sx_delete,"
mutant_expect 'snapshot::a_split_index_matches_git'
mutant "the replacements of the link are not applied" $P \
    "base[i] = split->sx_entries[r++];\n\t\t\tbase[i].se_path = shared->sx_entries[i].se_path; => r++;"

mutants_end
