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
cc -std=gnu11 -O2 -D_GNU_SOURCE -I"$top" -I"$top/common" \
    $(pkg-config --cflags libbsd-overlay libevent) -o "$b/ctl_rtt" \
    "$here/ctl_rtt.c" "$b/libcommon.a" \
    $(pkg-config --libs libbsd-overlay libevent libseccomp)
make_tree
trap 'stop_spaced; rm -rf "$tree"' EXIT
sd=$tree/bench
start_spaced "$sd"
"$b/ctl_rtt" "$sd/run/spaced.sock" 2000
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
