#!/bin/sh
# Mutation check of the /30 a live suite takes of 198.51.100.0/24
# (regress/lib/netblock.sh): a run that takes the block it wishes for,
# held by another run or not, must turn integration/filler-net.sh's
# check red.  Only a test script changes: it runs against this tree's
# build, nothing is built.  About a minute a run.
# Usage: sh regress/mutants/netblock.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]> <suite>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	SPACED_BUILD="$top/build" sh "$tmp/src/regress/$4" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile "" integration/filler-net.sh

mutant_expect "^this run's public host took a /30 of its own"
mutant "the run takes the /30 it wishes for, held by another run or not" \
    regress/lib/netblock.sh \
    'nb=$(netblock_free "${4##*.}") && => nb=$((${4##*.} / 4 * 4)) &&' \
    integration/filler-net.sh
mutants_end
