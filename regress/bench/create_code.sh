#!/bin/sh
# create --code of this repository until attach could start (issue 23):
# spacectl create --code against the same steps by hand with the docker
# CLI, in one run, rounds alternating: agent_ready.sh's CLI sequence
# (networks, volumes, the setup one-shot, gatekeeper, the space with
# OpenCode's server from the same tools volume, the token over docker
# exec stdin, spaced's readiness cadence), and the code by hand beside
# the server's start as spaced brings it (a git bundle of HEAD over
# docker exec stdin, cloned inside; spaced's snapshot also carries the
# uncommitted work); done when both are.  Medians over N rounds; never
# asserts a time.  usage: create_code.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-3}
bench=create_code
. "$(dirname "$0")/../lib/bench.sh"
bench_spaced agent
ids=
trap 'for i in $ids; do ctl remove "$i" >/dev/null 2>&1; done; stop_spaced
    cli_sweep; bench_tools_sweep; rm -rf "$T" "$tree"' EXIT

TOOLS=$(ctl -j tools fill | jq -r .volume) || { echo "create_code: tools fill failed" >&2; exit 1; }
# spaced's own readiness cadence (lib/bench.sh)
WAIT=spaced
# The code by hand: HEAD as a bundle over docker exec stdin, cloned.
cli_code() {	# container
	git -C "$top" bundle create - HEAD 2>/dev/null | docker exec -i "$1" sh -c \
	    'cat >/tmp/code.bundle && git clone -q /tmp/code.bundle /spaces/w/spaced && rm /tmp/code.bundle'
}
cli_create_code() { cli_agent_create "$1" cli_code; }

# Warm-up: the runtime and tools volumes are there, images cached.
id=$(ctl create) && ctl remove "$id" >/dev/null
for i in $(seq "$n"); do
	t0=$(now); cli_create_code "$i"; t1=$(now); cli_sweep
	t2=$(now); id=$(ctl create -n bench-code --code "$top"); t3=$(now)
	ids=$id
	ctl exec "$id" -n -- test -d "/spaces/$id/$(basename "$top")/.git" ||
	    { echo "create_code: no code in the space" >&2; exit 1; }
	ctl remove "$id" >/dev/null; ids=
	echo "$(ms "$t2" "$t3") $(ms "$t0" "$t1")" >>"$T/rounds"
done
a=$(cut -d' ' -f1 "$T/rounds" | median); c=$(cut -d' ' -f2 "$T/rounds" | median)
echo "# rounds, ms (spacectl, by hand): $(tr '\n' ',' <"$T/rounds")"
echo "create --code of this repository until attach could start, median of $n, ms"
echo "  spacectl create --code                    $a"
echo "  docker CLI by hand (code beside the start) $c"
echo "  ratio $(echo "scale=2; $a / $c" | bc)"
