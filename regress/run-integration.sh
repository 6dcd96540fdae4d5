#!/bin/sh
# Runs each integration suite given against the build in $1.  A suite
# passes when it exits 0, its last "N passed, N failed, N skipped" line
# (regress/lib/harness.sh) counts no failure, and it ran or skipped
# something.  Live (CI=true, root, a Docker engine answering; or
# REGRESS_LIVE=1, for the runners' own test) a skip fails the suite.
set -u
build=$(cd "$1" && pwd); shift
export SPACED_BUILD="$build"
# jq that fails "-e" on no output (regress/tools/strict/jq says why).
PATH=$(cd "$(dirname "$0")/tools/strict" && pwd):$PATH
export PATH

if [ -n "${REGRESS_LIVE:-}" ]; then
	live=$REGRESS_LIVE
elif [ "${CI:-}" = true ] && [ "$(id -u)" -eq 0 ] &&
    curl -sf --max-time 3 --unix-socket /var/run/docker.sock \
    http://docker/_ping >/dev/null 2>&1; then
	live=1
else
	live=0
fi
[ "$live" = 1 ] && echo "== live (CI): a skip fails its suite"

passed=0; failed=0; skipped=0; bad=""
skips=$(mktemp); times=$(mktemp)
trap 'rm -f "$skips" "$times"' EXIT
for t in "$@"; do
	echo "== integration: $t"
	began=$(date +%s)
	out=$(mktemp); rcf=$(mktemp)
	# The suite's own status, which a pipe into tee would lose.
	{ sh "$t" 2>&1; echo $? >"$rcf"; } | tee "$out"
	rc=$(cat "$rcf")
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	grep '^skip - ' "$out" | sed "s|^skip - |  $t: |" >>"$skips"
	why=""
	[ "$rc" = 0 ] || why="$why exit $rc;"
	if [ -z "$line" ]; then
		why="$why no summary line;"
	else
		p=${line%% passed*}
		f=${line#*passed, }; f=${f%% failed*}
		case $line in
		*skipped*) s=${line#*failed, }; s=${s%% skipped*} ;;
		*) s=$(grep -c '^skip - ' "$out") ;;
		esac
		passed=$((passed + p)); failed=$((failed + f))
		skipped=$((skipped + s))
		[ "$f" -eq 0 ] || why="$why $f failed;"
		[ $((p + f + s)) -gt 0 ] || why="$why ran nothing;"
		[ "$live" != 1 ] || [ "$s" -eq 0 ] ||
		    why="$why $s skipped on CI;"
	fi
	[ -z "$why" ] || { echo "FAILED: $t:$why"; bad="$bad $t"; }
	rm -f "$out" "$rcf"
	# Seconds a suite, so the run's time can be kept under its limit.
	echo "$(($(date +%s) - began)) $t" >>"$times"
done
echo "slowest suites (seconds):"
sort -rn "$times" | head -n 12 | sed 's/^/  /'
echo "  all: $(awk '{ s += $1 } END { print s + 0 }' "$times")"
if [ -s "$skips" ]; then
	echo "skipped:"
	cat "$skips"
fi
echo "integration: $passed passed, $failed failed, $skipped skipped"
[ -z "$bad" ] || { echo "integration FAILED:$bad"; exit 1; }
