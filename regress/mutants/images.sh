#!/bin/sh
# Mutation check of tools/images.sh's cache: each mutant removes one
# check, and integration/images-cache.sh must go red by the named test.
# The copy's suite runs the copy's images.sh against this tree's build
# (its images.env and binaries): about 20 s a mutant.
# Usage: sh regress/mutants/images.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new">
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	SPACED_BUILD="$top/build" sh "$tmp/src/regress/integration/images-cache.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'the changed tarball is not imported'
mutant "a cached tarball imported unhashed" tools/images.sh \
    "	[ -n \"\$c_want\" ] && [ \"\$c_got\" = \"\$c_want\" ] && return 0 => 	return 0"
mutant_expect 'record another uid owns'
mutant "a cached tarball's files of any owner" tools/images.sh \
    "	if ! mine \"\$2\" || ! mine \"\$c_inputs\"; then => 	if false; then"
mutant_expect 'a cache others may write is refused'
mutant "a cache others may write used" tools/images.sh \
    "mine \"\$cache\" || die => true || die"

mutants_end
