#!/bin/sh
# Mutation check of code out's tree policy (worker-git/spaced-git/
# tree_policy.c): each mutant removes one rule, never-allowed or
# allowed by name, and the policy unit test that names it must go red.
# Built in a copy of the tree under a temp dir; the tree itself is
# never modified.
# Usage: sh regress/mutants/codeout.sh [label-substring]
. "$(dirname "$0")/lib.sh"

P=worker-git/spaced-git/tree_policy.c

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spaced-git
	(cd "$tmp/src" && timeout 600 build/regress/unit/spaced-git -j2 \
	    --filter 'policy/*') >"$tmp/run.log" 2>&1
	set -- "$1" $?
	grep -q 'Tested: [1-9]' "$tmp/run.log" ||
	    { echo "BROKEN: no test ran"; exit 1; }
	mutant_judge "$1" "$2" '^\[FAIL\]' 's/^\[FAIL\] //; s/: (.*//'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

# Never allowed: .git in each disguise.
mutant_expect 'policy::dotgit_in_every_disguise'
mutant "a .git component passes" $P \
    "else if (policy_name_is_dotgit(path + start, i - start))\n\t\t\tbits |= POLICY_DOTGIT; => else if (0)\n\t\t\tbits |= POLICY_DOTGIT;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".GIT: the case of a name counts" $P \
    "return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; => return c;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".git. and .git+space: NTFS's trailing dots and spaces" $P \
    "if (c != '.' && c != ' ')\n\t\t\treturn 0; => return 0;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".git::\$INDEX_ALLOCATION: an NTFS stream" $P \
    "if ((c = fold_next(f)) == -1 || c == ':') => if ((c = fold_next(f)) == -1)"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant "GIT~1: an NTFS short name" $P \
    "if (fold_word(&f, six) && fold_tilde_number(&f) && fold_rest_empty(&f))\n\t\treturn 1; => "
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".g<ZWNJ>it: HFS+ ignorable code points" $P \
    "if (left < 3)\n\t\treturn 0; => return 0;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant "a\\\\.git: a backslash separates on Windows" $P \
    "return policy_name_is(name, len, \"git\", NULL); => return piece_is(name, len, \"git\", NULL);"
# Never allowed: out of the tree.
mutant_expect 'policy::dotdot_and_absolute'
mutant ".. components pass" $P "bits |= POLICY_DOTDOT; => ;"
mutant_expect 'policy::dotdot_and_absolute'
mutant "absolute paths pass" $P \
    "if (path[0] == '/')\n\t\tbits |= POLICY_ABSOLUTE; => "
mutant_expect 'policy::symlinks'
mutant "a link climbs above the tree" $P "depth == 0) => 0)"
mutant_expect 'policy::symlinks'
mutant "a link's .. after a component (x -> ., y -> x/..)" $P \
    "descended ||\n => \n"
mutant_expect 'policy::symlinks'
mutant "a link to an absolute target" $P "target[0] == '/' || => "
mutant_expect 'policy::symlinks'
mutant "a link into .git" $P "bits |= POLICY_SYMLINK_GIT; => ;"
mutant_expect 'policy::modes'
mutant "a gitlink passes" $P "return bits | POLICY_GITLINK; => return bits;"
mutant_expect 'policy::modes'
mutant "an unknown mode passes" $P \
    "return bits | POLICY_BAD_MODE; => return bits;"
# Allowed by name only.
mutant_expect 'policy::allowable_reasons'
mutant ".gitmodules is not flagged" $P "bits |= POLICY_GITMODULES; => ;"
mutant_expect 'policy::allowable_reasons'
mutant "an attributes driver is not flagged" $P \
    "memcmp(buf + start, drivers[k], n) == 0)\n\t\t\t\treturn 1; => memcmp(buf + start, drivers[k], n) == 0)\n\t\t\t\treturn 0;"
mutant_expect 'policy::allowable_reasons'
mutant "a new executable is not flagged" $P \
    "if (pe->pe_old_mode != POLICY_MODE_EXEC) => if (0)"
mutant_expect 'policy::caps'
mutant "a large file is not flagged" $P \
    "if (pe->pe_size > pc->pc_file_max) => if (0)"
mutant_expect 'policy::names_of_reasons'
mutant "a never-allowed reason can be allowed by name" $P \
    " &&\n\t\t    (reason_names[i].rn_bit & POLICY_ALLOWABLE) != 0) => )"
mutant_expect 'policy::escape'
mutant "control bytes reach the terminal" $P \
    "if (n == 1 && (p[i] < 0x20 || p[i] >= 0x7f)) { => if (n == 1 && p[i] >= 0x7f) {"

mutants_end
