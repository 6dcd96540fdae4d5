#!/bin/sh
# Runs each integration suite given against the build in $1.  Each suite
# prints its own "N passed, N failed" line; this sums them.
set -u
build=$(cd "$1" && pwd); shift
export SPACED_BUILD="$build"
passed=0; failed=0; bad=0
for t in "$@"; do
	echo "== integration: $t"
	out=$(mktemp)
	sh "$t" 2>&1 | tee "$out"
	rc=$(tail -n 1 "$out" | sed -n 's/^rc=//p')
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "FAILED: $t printed no summary"; bad=1
	else
		p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
		passed=$((passed + p)); failed=$((failed + f))
	fi
	rm -f "$out"
done
echo "integration: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$bad" -eq 0 ]
