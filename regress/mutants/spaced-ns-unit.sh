#!/bin/sh
# Mutation check of spaced-ns's unit tests (regress/unit/spaced-ns): a
# filled tools tree made root's without following a link.  Each mutant
# must turn the named test red.  Seconds.
# Usage: sh regress/mutants/spaced-ns-unit.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spaced-ns
	"$tmp/src/build/regress/unit/spaced-ns" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^\[FAIL\]' 's/^\[FAIL\] //'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "own::swapped_link_not_followed"
mutant "the entry opened following a link" worker-ns/ns_own.c \
    "open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC) => open(path, O_PATH | O_CLOEXEC)"
mutant_expect "own::swapped_link_not_followed"
mutant "a link changed as a file" \
    worker-ns/ns_own.c \
    "else if (!S_ISLNK(st.st_mode)) { => else if (1) {"
mutants_end
