#!/bin/sh
# attach to a ready space until the agent's screen is drawn (issue 23),
# through spacectl against the same step by hand with the docker CLI
# (docker exec -it of the same attach command, the password set from
# the token file inside the same way), each in a tmux pane of the same
# size, alternating (create --code: create_code.sh).
# Medians over N rounds; never asserts a time.
# usage: attach.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-3}
bench=attach
. "$(dirname "$0")/../lib/bench.sh"
bench_spaced agent
TS=spaced-bench-attach-$$
TM() { tmux -L "$TS" "$@"; }
ids=
trap 'TM kill-server 2>/dev/null; for i in $ids; do ctl remove "$i" >/dev/null; done;
    stop_spaced; bench_tools_sweep; rm -rf "$T" "$tree"' EXIT
# Until the pane shows the TUI's prompt box; a screen never drawn (6,000
# looks, five minutes or more) fails the bench instead of hanging it.
drawn() {
	d_i=0
	until TM capture-pane -p -t b | grep -q "Build"; do
		d_i=$((d_i + 1))
		[ $d_i -lt 6000 ] || { echo "attach: the screen was never drawn" >&2
		    TM capture-pane -p -t b >&2; exit 1; }
		sleep 0.05
	done
}

ctl tools fill >/dev/null
id=$(ctl create -n bench); ids=$id
c=spaced-space-$id-space
# The space's own user (a uid of its own), as spacectl's exec runs.
uid=$(docker inspect -f '{{.Config.User}}' "$c")
CLI="docker exec -it -u $uid $c /bin/sh -c '\
OPENCODE_SERVER_PASSWORD=\"\$(cat /home/space/.spaced-space/token)\"; \
export OPENCODE_SERVER_PASSWORD; exec opencode attach http://127.0.0.1:27600'"
API="$tree/bin/spacectl -s $sd/run/spaced.sock attach $id"
for i in $(seq "$n"); do
	for w in api cli; do
		eval "cmd=\$$(echo "$w" | tr a-z A-Z)"
		TM -f /dev/null new-session -d -s b -x 120 -y 40 "$cmd"
		t0=$(now); drawn; t1=$(now)
		TM kill-server 2>/dev/null || true
		echo $(( (t1 - t0) / 1000000 )) >>"$T/attach.$w"
		sleep 1
	done
done
a=$(median <"$T/attach.api"); c2=$(median <"$T/attach.cli")
echo "attach: until the agent's screen is drawn, median of $n, ms"
echo "  spacectl attach                  $a"
echo "  docker exec -it (CLI, by hand)   $c2"
echo "  ratio $(echo "scale=2; $a / $c2" | bc)"
