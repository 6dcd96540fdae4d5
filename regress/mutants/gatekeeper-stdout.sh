#!/bin/sh
# Mutation check of regress/integration/gatekeeper-stdout.sh: the
# refusals of a stalled journal are counted, one line a second, not a
# line each; the check bounds the lines by the flood's own seconds.
# Built in a copy of the tree; needs root (the suite's namespaces).
# Usage: sh regress/mutants/gatekeeper-stdout.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/libexec/spaced/spaced-gatekeeper
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/gatekeeper-stdout.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'each refusal journalled, counted'
mutant "a stalled journal's refusals a line each, not folded" \
    gatekeeper/spaced-gatekeeper/journal.c \
    "if (deny && journal_fold(&r)) => if (deny && strcmp(decision, \"deny:journal-unavailable\") != 0 && journal_fold(&r))"

mutants_end
