#!/bin/sh
# Mutation check of the corridor's drain: the mutant removes it and
# regress/integration/gatekeeper-corridor.sh must go red at the drain's
# own check (the 403 checks survive it: gk/FINDINGS.md).  Built in a
# copy of the tree; needs root (the suite's namespaces).
# Usage: sh regress/mutants/gatekeeper-corridor.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/libexec/spaced/spaced-gatekeeper
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/gatekeeper-corridor.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

U=gatekeeper/spaced-gatekeeper/gk_util.c

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'then a FIN, not a reset'
mutant "nodrain: a refused client is closed once its answer is written" $U \
    "if (dr->dr_eof) {\n\t\tgk_drain_close(dr);\n\t\treturn;\n\t} => gk_drain_close(dr);\n\treturn;"

mutants_end
