#!/bin/sh
# The native place against the Docker place, in one run (issue 25):
# create to a running space whose verify is clean (gatekeeper included),
# the round trip of exec `true`, and remove.  Medians over N rounds (exec
# and show: over each single call) and the ratios native/docker.  show is
# the same route without a command (spacectl, spaced, the place): what
# of exec is the command's own.  Never asserts a time.  Both run with
# `default agent none`; then, apart, the agent on the native place:
# create to its server's health, and the agent's own start inside.
# usage: native.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-7}
cd "$(dirname "$0")/../.."
. regress/integration/lib.sh
T=$(mktemp -d)
build=$b
make_tree
# The images of make images when there, else spaced's defaults.
if [ -f "$b/images.env" ]; then
	. "$b/images.env"
	SPACED_EXTRA_CONF="space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\""
fi
start_spaced "$T/sd" || { echo "native: spaced did not start" >&2; exit 1; }
trap 'stop_spaced; rm -rf "$T" "$tree"' EXIT

now() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# A failed step fails the bench (set -e), never drops out of a median.
for i in $(seq "$n"); do
	for p in native docker; do
		t0=$(now)
		id=$(ctl create -p "$p")
		ctl verify "$id" >/dev/null
		t1=$(now)
		for j in 1 2 3 4 5; do
			e0=$(now); ctl exec "$id" -- true; e1=$(now)
			ctl show "$id" >/dev/null; e2=$(now)
			echo "$(( (e1 - e0) / 1000 )) $(( (e2 - e1) / 1000 ))" \
			    >>"$T/$p.exec"
		done
		t2=$(now)
		ctl remove "$id" >/dev/null
		t3=$(now)
		echo "$(( (t1 - t0) / 1000 )) $(( (t3 - t2) / 1000 ))" >>"$T/$p"
	done
done
col() { awk -v c="$1" '{ print $c }' "$T/$2" | median; }
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %12s %12s %12s\n' step native_us docker_us native/docker
for c in 1 2 3 4; do
	step=$(echo "create+verify exec_true show remove" | cut -d' ' -f$c)
	case $c in
	1) nv=$(col 1 native); dv=$(col 1 docker) ;;
	2|3) nv=$(col $((c - 1)) native.exec); dv=$(col $((c - 1)) docker.exec) ;;
	4) nv=$(col 2 native); dv=$(col 2 docker) ;;
	esac
	printf '%-8s %12s %12s %12s\n' "$step" "$nv" "$dv" \
	    "$(awk -v a="$nv" -v b="$dv" 'BEGIN { printf "%.3f", a / b }')"
done

# The agent on the native place, apart (issue 25): a second spaced with
# the default agent, its tools from the fill's cache (lib/toolscache.sh;
# filled by the first create when absent, which that round then holds).
# Per round: create -p native until its server answers healthy (what a
# person waits for); the agent's part is that less the create and
# verify of a space without one, measured above in the same run.
stop_spaced
ainst=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
SPACED_AGENT_CONF="" SPACED_EXTRA_CONF="${SPACED_EXTRA_CONF:-}
install id $ainst
default place native"
start_spaced "$T/sd2" || { echo "native: spaced with the agent did not start" >&2; exit 1; }
. regress/lib/toolscache.sh
tools_cache_seed "$T/sd2/state/native" "$ainst" "$(id -u)" >/dev/null || true
for i in $(seq "$n"); do
	t0=$(now)
	id=$(ctl create -p native)
	t1=$(now)
	ctl remove "$id" >/dev/null
	echo "$(( (t1 - t0) / 1000 ))" >>"$T/agent"
done
cr=$(col 1 agent); bare=$(col 1 native)
printf '%-26s %12s\n' "create, agent ready" "$cr" \
    "  the agent's own part" "$((cr - bare))" \
    "  create+verify, no agent" "$bare"
