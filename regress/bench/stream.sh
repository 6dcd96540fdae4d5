#!/bin/sh
# Stream through a relay process against a raw socketpair copy, same run.
# usage: stream.sh [build-dir]; STREAM_BENCH_MB sets the size (1024).
set -eu
b=${1:-build}
here=$(dirname "$0")
out="$b/regress/bench"
mkdir -p "$out"
pkgs="libbsd-overlay libevent"
# libcommon.a when the build has it, else the three sources it needs.
if [ -f "$b/libcommon.a" ]; then
	common="$b/libcommon.a"
else
	common="common/lib/imsg.c common/lib/stream.c common/lib/log.c"
fi
# shellcheck disable=SC2046,SC2086
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto $(pkg-config --cflags $pkgs) \
    -o "$out/stream_bench" "$here/stream_bench.c" $common \
    $(pkg-config --libs $pkgs)
"$out/stream_bench" "${STREAM_BENCH_MB:-1024}"
