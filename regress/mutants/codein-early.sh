#!/bin/sh
# Mutation check of code in's ends (codein.c): a receiver that exits 0
# before the pack's end cuts the pack at once, on both places
# (codein/early.sh, codein/early-native.sh); a client that leaves
# leaves no host ref untold, and a stopped space is refused before the
# snapshot writes anything, or a history asks spaced-git
# (codein/codein.sh).  Built from
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
mutant "$MUTANT_CONTROL" GNUmakefile codein.sh ""
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
# Names of no ASCII: all were "project", and a second was refused.
mutant_expect "two repositories named in no ASCII both land in one space, apart"
mutant "a name that lost bytes outside ASCII gets no hash (as before)" \
    worker-git/spaced-git/git_codein.c codein.sh \
    "if (wide) {\n\t\tn = strlen(name); => if (0) {\n\t\tn = strlen(name);"
# A stopped space: the defect of before went on to the snapshot, which
# wrote into the caller's repository, and failed at the transfer.
mutant_expect "into a stopped space: space_not_running|refused before the snapshot"
mutant "a code in into a stopped space takes its snapshot first" $X codein.sh \
    'if (cs->stopped) { => if (0) {'
# A history into a stopped space: spaced-git packed it all, then the
# transfer failed (history_transfer_failed).
mutant_expect "history into a stopped space: space_not_running"
mutant "a history into a stopped space asks spaced-git first (as before)" \
    $X codein.sh 'if (cs->stopped) { => if (!cs->history && cs->stopped) {'
mutants_end
