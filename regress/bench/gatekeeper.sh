#!/bin/sh
# spaced-gatekeeper benchmarks.  Argument: the build directory.  Prints
# numbers and ratios against baselines measured in the same run between
# the same two endpoints; asserts nothing about time.
#   one tunnel vs one direct TCP stream (goal 0.8)
#   64 tunnels vs 64 direct streams, aggregate (goal 0.7)
#   CONNECT setup latency, names from /etc/hosts (median, p99)
#   CONNECT setup of 2,000 tunnels closed one after the other (p50,
#   p99) against tinyproxy when installed (apt-get install tinyproxy;
#   not by make deps: its package starts a daemon)
#   VmRSS idle, and with 64 tunnels + 128 corridor sockets held
#   (goals 4 MiB and 32 MiB)
# The streams run between C ends (gk_load.c: 1 MiB writes, a sink that
# counts and never hashes; the bytes are checked in a run of their own,
# outside the timing), so neither end is slower than the gatekeeper.
SPACED_BUILD=$(cd "${1:-build}" && pwd)
GK_DIR=$(cd "$(dirname "$0")/../integration/gk" && pwd)
LOAD=$SPACED_BUILD/regress/bench/gk_load
mkdir -p "$SPACED_BUILD/regress/bench"
cc -std=gnu11 -O2 -o "$LOAD" "$(dirname "$0")/gk_load.c" ||
    { echo "gk_load did not build"; exit 1; }
SINK=203.0.113.11
GK_HOSTS="$SINK sink.test.example"
. "$GK_DIR/lib.sh"
setup
C=9099
start_gk gk $C $GKADDR 3128 8080 $C || { echo "gatekeeper did not start"; exit 1; }
network $C allowlist upstream.test.example sink.test.example
bg sink ip netns exec "$NSU" "$LOAD" sink $SINK 443
waitfor 10 grep -q '^ready' "$T/sink.out" ||
    { echo "the sink did not start: $(cat "$T/sink.err")"; exit 1; }
B()
{
	nsx python3 "$GK_DIR/bench.py" "$@"
}
# L ...: the C load; a failed stream fails the bench.
L()
{
	nsx "$LOAD" "$@" || { echo "gatekeeper bench: gk_load $* failed" >&2; exit 1; }
}
for t in - sink.test.example:443; do
	a=$SINK p=443
	[ "$t" = - ] || { a=$GKADDR p=3128; }
	v=$(L verify $a $p $t 67108864) || exit 1
	echo "bytes intact, $t: $v"
done
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

d=$(L thru $SINK 443 - 268435456) || exit 1
c0=$(cpu)
t=$(L thru $GKADDR 3128 sink.test.example:443 268435456) || exit 1
echo "  gatekeeper CPU for it: $(echo "$c0 $(cpu)" | awk '{print $2 - $1}') s"
echo "one stream, 256 MiB: direct $d, tunnel $t, ratio $(ratio "$(rate "$t")" "$(rate "$d")") (goal 0.8)"

d=$(L par $SINK 443 - 64 4194304) || exit 1
c0=$(cpu)
t=$(L par $GKADDR 3128 sink.test.example:443 64 4194304) || exit 1
echo "  gatekeeper CPU for it: $(echo "$c0 $(cpu)" | awk '{print $2 - $1}') s"
echo "64 streams x 4 MiB: direct $d, tunnels $t, ratio $(ratio "$(rate "$t")" "$(rate "$d")") (goal 0.7)"

echo "CONNECT setup, direct TCP connect: $(B lat $UPADDR 443 - 300)"
echo "CONNECT setup via corridor (/etc/hosts): $(B lat $GKADDR 3128 upstream.test.example:443 300)"

# 2,000 tunnels one after the other, each closed at once (the corridor
# must not refuse one), against tinyproxy in the same namespaces, on
# the same names; without tinyproxy, against a direct TCP connect.
# setup_us ADDR PORT TARGET: "p50 p99" in us, empty when one failed.
setup_us()
{
	B setup "$@" 2000 | awk '{ print $1, $2 }'
}
g=$(setup_us $GKADDR 3128 upstream.test.example:443)
[ -n "$g" ] || { echo "corridor: a CONNECT failed"; exit 1; }
if command -v tinyproxy >/dev/null; then
	base=tinyproxy
	cat >"$T/tinyproxy.conf" <<EOF
User nobody
Group nogroup
Port 3130
Listen $GKADDR
MaxClients 256
Allow 203.0.113.0/24
ConnectPort 443
LogLevel Critical
EOF
	bg tiny nsx unshare -m sh -c 'mount --bind "$1/etc/hosts" /etc/hosts &&
	    exec tinyproxy -d -c "$1/tinyproxy.conf"' sh "$T"
	tiny_up()
	{
		[ "$(nsx curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
		    "http://$GKADDR:3130/")" != 000 ]
	}
	waitfor 10 tiny_up || { echo "tinyproxy did not start"; exit 1; }
	b=$(setup_us $GKADDR 3130 upstream.test.example:443)
else
	base="direct TCP connect (no tinyproxy)"
	b=$(setup_us $UPADDR 443 -)
fi
[ -n "$b" ] || { echo "$base: a CONNECT failed"; exit 1; }
echo "CONNECT setup, 2,000 closed one after the other: corridor p50/p99 ${g% *}/${g#* } us, $base ${b% *}/${b#* } us"
echo "  time ratios against $base (lower is better): p50 $(ratio "${g% *}" "${b% *}"), p99 $(ratio "${g#* }" "${b#* }")"

bg hold cli hold $GKADDR 3128 upstream.test.example:443 64 rss HOLD
waitfor 30 grep -q '^ready\|^rung' "$T/hold.out"
echo "gatekeeper RSS with 64 tunnels: $(rss) [$(cat "$T/hold.out")]"
bg bare nsx python3 "$GK_DIR/bench.py" bare $GKADDR 3128 64
waitfor 30 grep -q '^ready' "$T/bare.out"
sleep 0.5
echo "gatekeeper RSS with 64 tunnels + 64 idle corridor sockets (128): $(rss) (goal 32 MiB)"
echo "bench done"
