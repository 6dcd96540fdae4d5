#!/bin/sh
# Mutation check of integration/spaced-concurrency.sh's client that
# leaves mid-check: the mutant keeps spaced from cancelling what the
# client left, and the suite must go red at the cancel in spaced-docker
# (against an Engine that never answers, only a cancel ends the checks
# before their own timeout).  Built from this tree's objects, only the
# mutated file rebuilt; about a minute.
# Usage: sh regress/mutants/concurrency.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/integration/spaced-concurrency.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "the leaver's checks are cancelled in spaced-docker"
mutant "a client that leaves is not cancelled in the workers" \
    supervisor/spaced/request.c \
    "\t\trequest_cancel(r);\n\t\trequest_detach(r); => \t\trequest_detach(r);"

mutants_end
