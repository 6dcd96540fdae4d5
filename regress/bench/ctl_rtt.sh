#!/bin/sh
# Request round trip through a private spaced (root only: it runs the
# workers under their own uids), and the whole spacectl command as a user
# would time it.  usage: ctl_rtt.sh [build-dir]
set -eu
b=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
SPACED_BUILD=$b
. "$here/../integration/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
	echo "ctl_rtt: skipped, needs root"
	exit 0
fi
sh "$top/tools/users.sh" >/dev/null
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE -I"$top" -I"$top/common/lib" -I"$top/common/proto" \
    $(pkg-config --cflags libbsd-overlay libevent) -o "$b/ctl_rtt" \
    "$here/ctl_rtt.c" "$b/libcommon.a" \
    $(pkg-config --libs libbsd-overlay libevent libseccomp)
make_tree
trap 'stop_spaced; kill $engine_pid 2>/dev/null; rm -rf "$tree"' EXIT
sd=$tree/bench
# The Engine is a stand-in that answers each check after 1 s, so the
# loaded half of ctl_rtt has ten slow operations in flight.
[ -x "$b/regress/tools/fake_engine" ] || { echo "ctl_rtt: build fake_engine first (make bench does)"; exit 1; }
mkdir -p "$tree/engine"
"$b/regress/tools/fake_engine" -d 1000 "$tree/engine" >"$tree/engine.out" &
engine_pid=$!
wait_for 5 grep -q ready "$tree/engine.out"
SPACED_EXTRA_CONF="docker socket \"$tree/engine/ok.sock\""
start_spaced "$sd"
"$b/ctl_rtt" "$sd/run/spaced.sock" 2000
# Ten 1 s checks in flight against one alone (spaced-concurrency.sh
# checks only their order): 1.0 when they run side by side, 10 in turn.
raw="$top/regress/integration/ctl_raw.py"
one=$(python3 "$raw" "$sd/run/spaced.sock" checks 1 | awk '$2 == "available" { print $4 }')
ten=$(python3 "$raw" "$sd/run/spaced.sock" checks 10 | awk '$1 == 10 && $2 == "available" { print $4 }')
[ -n "$one" ] && [ -n "$ten" ] || { echo "ctl_rtt: a check failed" >&2; exit 1; }
echo "ten checks in flight ${ten} s, one alone ${one} s: ratio $(echo "$ten $one" | awk '{ printf "%.2f", $1 / $2 }')"
python3 - "$tree/bin/spacectl" "$sd/run/spaced.sock" <<'PY'
import subprocess, sys, time
v = []
for _ in range(200):
    t = time.perf_counter()
    subprocess.run([sys.argv[1], "-s", sys.argv[2], "ping", "git"], check=True,
                   stdout=subprocess.DEVNULL)
    v.append((time.perf_counter() - t) * 1e6)
v.sort()
print("%-34s median %8.1f us   p99 %8.1f us   (n=200)" %
      ("spacectl ping git (whole command)", v[100], v[198]))
PY
