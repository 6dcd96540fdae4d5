#!/bin/sh
# WORKER_PING round trip to spaced-docker (p50/p99), alone and under ten
# concurrent slow (1 s) checks against the stand-in Engine, with the
# ratio, in one run.  usage: docker_async.sh [build-dir] [pings]
set -eu
b=$(cd "${1:-build}" && pwd)
make -s "B=$b" "$b/libexec/spaced/spaced-docker" \
    "$b/regress/tools/fake_engine" >/dev/null
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto \
    $(pkg-config --cflags libbsd-overlay libevent) \
    -o "$b/regress/bench/docker_async_bench" \
    regress/bench/docker_async_bench.c regress/lib/worker_harness.c \
    "$b/libcommon.a" $(pkg-config --libs libbsd-overlay libevent libseccomp)
SPACED_DOCKER_BIN=$b/libexec/spaced/spaced-docker \
FAKE_ENGINE_BIN=$b/regress/tools/fake_engine \
    exec "$b/regress/bench/docker_async_bench" "${2:-2000}"
