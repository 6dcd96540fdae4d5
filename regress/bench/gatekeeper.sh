#!/bin/sh
# spaced-gatekeeper benchmarks.  Argument: the build directory.  Prints
# numbers and ratios against baselines measured in the same run between
# the same two endpoints; asserts nothing about time.
#   one tunnel vs one direct TCP stream (goal 0.8)
#   64 tunnels vs 64 direct streams, aggregate (goal 0.7)
#   CONNECT setup latency, names from /etc/hosts (median, p99)
#   VmRSS idle, and with 64 tunnels + 128 corridor sockets held
#   (goals 4 MiB and 32 MiB)
SPACED_BUILD=$(cd "${1:-build}" && pwd)
GK_DIR=$(cd "$(dirname "$0")/../integration/gk" && pwd)
. "$GK_DIR/lib.sh"
setup
C=9099
start_gk gk $C $GKADDR 3128 8080 $C || { echo "gatekeeper did not start"; exit 1; }
network $C allowlist upstream.test.example
B()
{
	nsx python3 "$GK_DIR/bench.py" "$@"
}
ratio()
{
	echo "$1 $2" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }'
}
rate()
{
	echo "$1" | awk '{print $1}'
}
pid=$(cat "$T/gk.pid")
rss()
{
	awk '/^VmRSS/ { printf "%.1f MiB", $2 / 1024 }' /proc/$pid/status
}
# cpu: the gatekeeper's user+system CPU seconds so far.
cpu()
{
	awk -v t="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / t }' \
	    /proc/$pid/stat
}
echo "gatekeeper RSS idle: $(rss) (goal 4 MiB)"

d=$(B thru $UPADDR 443 - 268435456)
c0=$(cpu)
t=$(B thru $GKADDR 3128 upstream.test.example:443 268435456)
echo "  gatekeeper CPU for it: $(echo "$c0 $(cpu)" | awk '{print $2 - $1}') s"
echo "one stream, 256 MiB: direct $d, tunnel $t, ratio $(ratio "$(rate "$t")" "$(rate "$d")") (goal 0.8)"

d=$(B par $UPADDR 443 - 64 4194304)
c0=$(cpu)
t=$(B par $GKADDR 3128 upstream.test.example:443 64 4194304)
echo "  gatekeeper CPU for it: $(echo "$c0 $(cpu)" | awk '{print $2 - $1}') s"
echo "64 streams x 4 MiB: direct $d, tunnels $t, ratio $(ratio "$(rate "$t")" "$(rate "$d")") (goal 0.7)"

echo "CONNECT setup, direct TCP connect: $(B lat $UPADDR 443 - 300)"
echo "CONNECT setup via corridor (/etc/hosts): $(B lat $GKADDR 3128 upstream.test.example:443 300)"

bg hold cli hold $GKADDR 3128 upstream.test.example:443 64 rss HOLD
waitfor 30 grep -q '^ready\|^rung' "$T/hold.out"
echo "gatekeeper RSS with 64 tunnels: $(rss) [$(cat "$T/hold.out")]"
bg bare nsx python3 "$GK_DIR/bench.py" bare $GKADDR 3128 64
waitfor 30 grep -q '^ready' "$T/bare.out"
sleep 0.5
echo "gatekeeper RSS with 64 tunnels + 64 idle corridor sockets (128): $(rss) (goal 32 MiB)"
echo "bench done"
