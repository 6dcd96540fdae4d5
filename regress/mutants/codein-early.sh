#!/bin/sh
# Mutation check of code in's ends (codein.c): a receiver that exits 0
# before the pack's end cuts the pack at once, on both places
# (codein/early.sh, codein/early-native.sh); a client that leaves
# leaves no host ref untold (codein/codein.sh).  Built from
# this tree's objects, only codein.c rebuilt; each run of a mutant
# waits for spaced-git's stall (120 s) the fix spares.
# Usage: sh regress/mutants/codein-early.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <suite> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$4" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 900 \
	    sh "$tmp/src/regress/codein/$3" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

X=supervisor/spaced/codein.c
mutant "$MUTANT_CONTROL" GNUmakefile early.sh ""
mutant "$MUTANT_CONTROL" GNUmakefile early-native.sh ""
# The defect of before: only a failed script cut the pack; an exit 0
# left it waiting for credit that never came.
CUT='sd.sd_exit != 0 || (pack != NULL && !pack->s_gauge.sg_ended))) { => sd.sd_exit != 0)) {'
mutant_expect "at the place's DONE: the answer names the receiver's early exit"
mutant "an exit 0 leaves the pack to wait for credit (Docker)" $X early.sh "$CUT"
mutant_expect "at the place's DONE: the answer names the receiver's early exit"
mutant "an exit 0 leaves the pack to wait for credit (native)" $X early-native.sh "$CUT"
# The pack cut, but its answer the cancel's words, not the receiver's.
mutant_expect "at the place's DONE: the answer names the receiver's early exit"
mutant "the cut pack answered as spaced-git's cancel (Docker)" $X early.sh \
    'if (sd.sd_code[0] != '"'"'\\0'"'"' && cs->cut) => if (0)'
# A client that leaves: the code in cancelled where it may have made
# the host ref, and the ref left for nothing to know of (codein.sh).
mutant_expect "a code in whose client is killed leaves no ref once its space is removed"
mutant "a code in whose client left is cancelled, not finished" $X codein.sh \
    '	cs->abandoned = 1;\n	return 1; => 	return 0;'
mutants_end
