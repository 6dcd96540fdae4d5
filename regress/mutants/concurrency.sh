#!/bin/sh
# Mutation check of a client that leaves mid-request: the mutant keeps
# spaced from cancelling what the client left, and each suite must go
# red at the cancel: integration/spaced-concurrency.sh's in
# spaced-docker (against an Engine that never answers, only a cancel
# ends the checks before their own timeout), spaced-spaces.sh's in the
# hostile place (a create it holds).  Built from this tree's objects,
# only the mutated file rebuilt; a few minutes.
# Usage: sh regress/mutants/concurrency.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]> <suite>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/integration/$4" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

R=supervisor/spaced/request.c
NOCANCEL="\t\trequest_cancel(r);\n\t\trequest_detach(r); => \t\trequest_detach(r);"

mutant "$MUTANT_CONTROL" GNUmakefile "" spaced-concurrency.sh
mutant "$MUTANT_CONTROL" GNUmakefile "" spaced-spaces.sh

mutant_expect "the leaver's checks are cancelled in spaced-docker"
mutant "a client that leaves is not cancelled in spaced-docker" $R \
    "$NOCANCEL" spaced-concurrency.sh
mutant_expect "a client that leaves mid-create cancels it in the place"
mutant "a client that leaves is not cancelled in the place" $R \
    "$NOCANCEL" spaced-spaces.sh

mutants_end
