#!/bin/sh
# A mutation script of planted verdicts, for runners.sh: mutants/lib.sh's
# judge on runs whose output is written here (no copy, no build).  With
# PLANT=red-control its control fails, and nothing after it may run.
. "$(dirname "$0")/../mutants/lib.sh"

# judge LABEL STATUS LINE...: a run that printed the lines and exited so.
judge() {
	j_l=$1 j_s=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/run.log"
	mutant_judge "$j_l" "$j_s" '^not ok'
}

if [ "${PLANT:-}" = red-control ]; then
	judge "$MUTANT_CONTROL" 1 "not ok - the named check"
	echo "after a red control"
fi
judge "$MUTANT_CONTROL" 0 "ok - the named check"
mutant_expect 'the named check'
judge "killed by its test" 1 "ok - another check" "not ok - the named check"
mutant_expect 'the named check'
judge "killed by another test" 1 "ok - the named check" "not ok - another check"
mutant_expect 'the named check'
judge "survives" 0 "ok - the named check"
mutants_end
