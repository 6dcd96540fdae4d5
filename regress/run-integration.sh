#!/bin/sh
# Runs each integration suite given against the build in $1.  A suite
# passes when it exits 0, its last "N passed, N failed, N skipped" line
# (regress/lib/harness.sh) counts no failure, and it ran or skipped
# something.  Live (CI=true, root, a Docker engine answering; or
# REGRESS_LIVE=1, for the runners' own test) a skip fails the suite.
#
# INTEGRATION_JOBS=N runs N suites at once (1 by default): the live
# suites mostly wait on an engine, a kernel or a timer, so two lanes on
# two cores take about half the time.  regress/lanes names the suites
# that must run with nothing beside them and those that must run one
# after another; a suite's output is printed whole when it ends.
set -u
build=$(cd "$1" && pwd); shift
export SPACED_BUILD="$build"
# The sanitized build (make SANITIZE=1) that san:SUITE names run against.
san_build=${INTEGRATION_SAN_BUILD:-$(dirname "$build")/build-san}
[ ! -d "$san_build" ] || san_build=$(cd "$san_build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/lanes.sh"
# jq that fails "-e" on no output (regress/tools/strict/jq says why).
PATH=$here/tools/strict:$PATH
export PATH
jobs=${INTEGRATION_JOBS:-1}
lanes=${INTEGRATION_LANES:-$here/lanes}

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

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
: >"$W/results"; : >"$W/skips"; : >"$W/failures"
LANES_DIR=$W

# judge SUITE OUT RC SECONDS: the suite's verdict, its skips and its
# line in results ("passed failed skipped seconds verdict suite"), and
# FAILED with the reasons.
judge() {
	j_t=$1 j_out=$2 j_rc=$3 j_secs=$4
	j_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$j_out" | tail -n 1)
	grep '^skip - ' "$j_out" | sed "s|^skip - |  $j_t: |" >>"$W/skips"
	j_why=""; j_p=0; j_f=0; j_s=0
	[ "$j_rc" = 0 ] || j_why="$j_why exit $j_rc;"
	if [ -z "$j_line" ]; then
		j_why="$j_why no summary line;"
	else
		j_p=${j_line%% passed*}
		j_f=${j_line#*passed, }; j_f=${j_f%% failed*}
		case $j_line in
		*skipped*) j_s=${j_line#*failed, }; j_s=${j_s%% skipped*} ;;
		*) j_s=$(grep -c '^skip - ' "$j_out") ;;
		esac
		[ "$j_f" -eq 0 ] || j_why="$j_why $j_f failed;"
		[ $((j_p + j_f + j_s)) -gt 0 ] || j_why="$j_why ran nothing;"
		[ "$live" != 1 ] || [ "$j_s" -eq 0 ] ||
		    j_why="$j_why $j_s skipped on CI;"
	fi
	j_v=ok
	[ -z "$j_why" ] || { echo "FAILED: $j_t:$j_why"; j_v=FAILED; }
	# A failing suite's own words, kept for the end of the run: a CI
	# that shows only the run's tail still names the check that failed.
	[ -z "$j_why" ] || awk -v t="$j_t" '
	    /^not ok/ { n++; k = 3; if (n <= 8) print "  " t ": " substr($0, 1, 200); next }
	    k > 0 && /^    / && n <= 8 { k--; print "  " t ": " substr($0, 1, 200); next }
	    { k = 0 }' "$j_out" >>"$W/failures"
	echo "$j_p $j_f $j_s $j_secs $j_v $j_t" >>"$W/results"
}

# run_suite SUITE: alone (one lane) its output goes out as it comes;
# in a lane it is kept until the suite ends, then printed whole.  A
# suite named san:SUITE runs against the sanitized build instead.
run_suite() {
	r_t=$1 r_out=$(mktemp "$W/out.XXXXXX")
	r_began=$(date +%s)
	r_build=$build r_relay=
	case $r_t in
	san:*) r_build=$san_build r_relay=$build/libexec/spaced/spaced-relay ;;
	esac
	if [ "$jobs" -le 1 ]; then
		echo "== integration: $r_t"
		# The suite's own status, which a pipe into tee would lose.
		{ SPACED_BUILD=$r_build SPACED_SPACE_RELAY=$r_relay \
		    sh "${r_t#san:}" </dev/null 2>&1
		    echo $? >"$r_out.rc"; } | tee "$r_out"
		judge "$r_t" "$r_out" "$(cat "$r_out.rc")" \
		    $(($(date +%s) - r_began))
	else
		SPACED_BUILD=$r_build SPACED_SPACE_RELAY=$r_relay \
		    sh "${r_t#san:}" </dev/null >"$r_out" 2>&1
		r_rc=$?
		lanes_locked print_suite "$r_t" "$r_out" "$r_rc" \
		    $(($(date +%s) - r_began))
	fi
	rm -f "$r_out" "$r_out.rc"
}
print_suite() {
	echo "== integration: $1 (ended after $4 s)"
	cat "$2"
	judge "$@"
}

# rule KIND SUITE: what regress/lanes gives SUITE under KIND: "alone",
# the name of its "together" group, or its place among the "first"
# lines; or nothing.  A san: suite has its suite's rules.
rule() {
	[ -f "$lanes" ] || return 0
	awk -v k="$1" -v t="${2#san:}" '
	    function glob(p, s) {
		gsub(/[.]/, "[.]", p); gsub(/[*]/, "[^/]*", p)
		return s ~ ("^" p "$")
	    }
	    $1 == k && k == "alone" && glob($2, t) { print "alone"; exit }
	    $1 == k && k == "first" && glob($2, t) { print ++n; exit }
	    $1 == "first" { n++ }
	    $1 == k && k == "together" {
		for (i = 3; i <= NF; i++) if (glob($i, t)) { print $2; exit }
	    }' "$lanes"
}

# The queue: one line a lane's unit of work, suites run in order.
# Together suites share a line, placed where the first of them is;
# alone suites run after the lanes are done, one by one.
if [ "$jobs" -le 1 ]; then
	for t in "$@"; do run_suite "$t"; done
else
	: >"$W/queue"; : >"$W/alone"
	for t in "$@"; do
		if [ -n "$(rule alone "$t")" ]; then
			echo "$t" >>"$W/alone"
			continue
		fi
		# Long suites first, so that no lane is left with one at the end.
		f=$(rule first "$t"); f=${f:-9999}
		g=$(rule together "$t")
		if [ -z "$g" ]; then
			echo "$f $t" >>"$W/queue"
		elif [ -f "$W/group.$g" ]; then
			echo "$t" >>"$W/group.$g"
			echo "$f @$g" >>"$W/queue"
		else
			echo "$t" >"$W/group.$g"
			echo "$f @$g" >>"$W/queue"
		fi
	done
	# A group takes its first member's place, or an earlier "first" one.
	sort -s -n -k1,1 "$W/queue" | awk '!seen[$2]++ { print $2 }' \
	    >"$W/queue.sorted"
	mv "$W/queue.sorted" "$W/queue"
	# lane_unit LINE: a suite, or a together group's suites in turn.
	lane_unit() {
		case $1 in
		@*) for t in $(cat "$W/group.${1#@}"); do run_suite "$t"; done ;;
		*) run_suite "$1" ;;
		esac
	}
	# The workers' system users, made once: two suites making them at
	# once would both find them missing.
	[ "$(id -u)" -ne 0 ] || sh "$here/../tools/users.sh" >/dev/null
	echo "== integration: $jobs lanes ($(wc -l <"$W/alone") suites alone after)"
	lanes_run "$jobs" lane_unit
	jobs=1
	while read -r t; do run_suite "$t"; done <"$W/alone"
fi

if [ -s "$W/skips" ]; then
	echo "skipped:"
	cat "$W/skips"
fi
# Seconds a suite, so the run's time can be kept under its limit.
echo "slowest suites (seconds):"
sort -k4,4rn "$W/results" | head -n 12 |
    awk '{ printf "  %5d %s\n", $4, $6 }'
awk '{ s += $4 } END { printf "  all suites: %d s\n", s }' "$W/results"
awk '{ p += $1; f += $2; s += $3 } END {
    printf "integration: %d passed, %d failed, %d skipped\n", p, f, s }' \
    "$W/results"
bad=$(awk '$5 != "ok" { printf " %s", $6 }' "$W/results")
if [ -n "$bad" ] && [ -s "$W/failures" ]; then
	echo "failed checks:"
	cat "$W/failures"
fi
[ -z "$bad" ] || { echo "integration FAILED:$bad"; exit 1; }
