#!/bin/sh
# One connection through spaced-relay (127.0.0.1:3128 to corridor.sock)
# against a direct UNIX socket, same run, large writes; the relay's RSS
# before and after.  Runs in a network namespace of its own (root).
# usage: relay.sh [build-dir]; RELAY_BENCH_MB sets the size (1024).
set -eu
b=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "skip: needs root and unshare for a network namespace"
	exit 0
fi
if [ -z "${RELAY_IN_NETNS:-}" ]; then
	RELAY_IN_NETNS=1 exec unshare -n sh "$0" "$b"
fi
ip link set lo up
mkdir -p "$b/regress/bench"
cc -std=gnu11 -O2 -D_GNU_SOURCE -Wall -Wextra -Werror \
    -o "$b/regress/bench/relay_bench" "$here/relay_bench.c"
T=$(mktemp -d /tmp/relay-bench.XXXXXX)
"$b/libexec/spaced/spaced-relay" -d "$T" -- sleep 600 &
rpid=$!
trap 'kill $rpid 2>/dev/null; rm -rf "$T"' EXIT
sleep 0.2
"$b/regress/bench/relay_bench" "$T" "${RELAY_BENCH_MB:-1024}" "$rpid"
