#!/bin/sh
# Runs each Criterion binary given; fails when any fails.
set -u
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fail=0
for t in "$@"; do
	echo "== unit: $t"
	"$t" --jobs 2 || { echo "FAILED: $t"; fail=1; }
done
exit $fail
