#!/bin/sh
# Runs each Criterion binary given and fails when any test fails, when a
# binary exits non-zero, runs no test, or when any process it started
# wrote a sanitizer report (a leak found at a test's exit included:
# Criterion has already counted that test as passed).  Skips are counted
# and printed with their reasons.
# UNIT_JOBS=N runs N binaries at once (1 by default), each binary's
# lines printed together when it ends: one binary's long test (a 100 MB
# pack out) then no longer holds the others back.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/lanes.sh"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/lsan.supp:print_suppressions=0}"
jobs=${UNIT_JOBS:-1}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
: >"$W/skips"; : >"$W/results"

# unit_one BINARY: runs it; its line in results ("passed failed
# skipped verdict binary").
unit_one() {
	t=$1
	echo "== unit: $t"
	d=$(mktemp -d)
	# Reports go to files, one per process: a report is never lost in
	# (or mistaken for) a test's own output.
	ASAN_OPTIONS="detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}:log_path=$d/asan" \
	UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}:log_path=$d/ubsan" \
	    "$t" --jobs 2 -Otap:"$d/tap"
	rc=$?
	p=$(grep '^ok ' "$d/tap" 2>/dev/null | grep -vc '# SKIP')
	f=$(grep -c '^not ok ' "$d/tap" 2>/dev/null)
	s=$(grep '^ok .*# SKIP' "$d/tap" 2>/dev/null | tee -a "$W/skips" | wc -l)
	why=""
	[ "$rc" -eq 0 ] || why="$why exit $rc;"
	[ "$f" -eq 0 ] || why="$why $f failed;"
	[ $((p + f + s)) -gt 0 ] || why="$why no test ran;"
	for r in "$d"/asan.* "$d"/ubsan.*; do
		[ -e "$r" ] || continue
		echo "-- sanitizer report ($r):"
		cat "$r"
		why="$why sanitizer report;"
	done
	v=ok
	[ -z "$why" ] || { echo "FAILED: $t:$why"; v=FAILED; }
	echo "$p $f $s $v $t" >>"$W/results"
	rm -rf "$d"
}

# unit_lane BINARY: a lane's run of one binary, its lines printed
# together when it ends.
unit_lane() {
	u_out=$(mktemp "$W/out.XXXXXX")
	unit_one "$1" >"$u_out" 2>&1
	lanes_locked cat "$u_out"
	rm -f "$u_out"
}

if [ "$jobs" -le 1 ]; then
	for t in "$@"; do unit_one "$t"; done
else
	printf '%s\n' "$@" >"$W/queue"
	LANES_DIR=$W
	lanes_run "$jobs" unit_lane
fi
if [ -s "$W/skips" ]; then
	echo "skipped:"
	sed 's/^ok - /  /' "$W/skips"
fi
awk '{ p += $1; f += $2; s += $3 } END {
    printf "unit: %d passed, %d failed, %d skipped\n", p, f, s }' "$W/results"
bad=$(awk '$4 != "ok" { printf " %s", $5 }' "$W/results")
[ -z "$bad" ] || { echo "unit FAILED:$bad"; exit 1; }
