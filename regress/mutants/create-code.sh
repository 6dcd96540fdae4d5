#!/bin/sh
# Mutation check of create --code (issue 23): each mutant removes one
# piece of the code going in beside the server's start, or of the undo
# of a create that failed after its code went in, and
# regress/agent/create-code.sh must go red.  Built in a copy of the
# tree under a temp dir; the tree itself is never modified.  About 3
# to 4 minutes a mutant.
# Usage: sh regress/mutants/create-code.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new">
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/agent/create-code.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

# The control: the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'create --code answers: the server listened once the code was in'
mutant "spaced does not say the space runs before its server answers" \
    supervisor/spaced/server.c "request_data(r, &cn, sizeof(cn)); => (void)r;"
mutant_expect 'the repository is as it was'
mutant "a failed create --code does not take back what its code left" \
    supervisor/spacectl/spacectl_space.c "(void)space_remove_quiet(code_space); => ;"
mutants_end
