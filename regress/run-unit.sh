#!/bin/sh
# Runs each Criterion binary given and fails when any test fails, when a
# binary exits non-zero, runs no test, or when any process it started
# wrote a sanitizer report (a leak found at a test's exit included:
# Criterion has already counted that test as passed).  Skips are counted
# and printed with their reasons.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/lsan.supp:print_suppressions=0}"
passed=0; failed=0; skipped=0; bad=""
skips=$(mktemp)
trap 'rm -f "$skips"' EXIT
for t in "$@"; do
	echo "== unit: $t"
	d=$(mktemp -d)
	# Reports go to files, one per process: a report is never lost in
	# (or mistaken for) a test's own output.
	ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}:log_path=$d/asan" \
	UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}:log_path=$d/ubsan" \
	    "$t" --jobs 2 -Otap:"$d/tap"
	rc=$?
	p=$(grep '^ok ' "$d/tap" 2>/dev/null | grep -vc '# SKIP')
	f=$(grep -c '^not ok ' "$d/tap" 2>/dev/null)
	s=$(grep '^ok .*# SKIP' "$d/tap" 2>/dev/null | tee -a "$skips" | wc -l)
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
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
	[ -z "$why" ] || { echo "FAILED: $t:$why"; bad="$bad $t"; }
	rm -rf "$d"
done
if [ -s "$skips" ]; then
	echo "skipped:"
	sed 's/^ok - /  /' "$skips"
fi
echo "unit: $passed passed, $failed failed, $skipped skipped"
[ -z "$bad" ] || { echo "unit FAILED:$bad"; exit 1; }
