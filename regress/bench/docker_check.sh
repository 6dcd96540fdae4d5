#!/bin/sh
# The check operation's round trip against the live daemon (median of 100, fresh
# connection each), with the raw GET /version of the same run as baseline.
# Usage: sh regress/bench/docker_check.sh <build dir>
set -eu
b=${1:-build}
mkdir -p "$b/regress/bench"
# shellcheck disable=SC2046
make -s "B=$b" "$b/libcommon.a" >/dev/null
# The whole place but its main, as the unit suite links it.
srcs=$(ls worker-docker/*.c | grep -v '/main.c$')
# shellcheck disable=SC2086
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto \
    $(pkg-config --cflags libbsd-overlay libevent jansson) \
    -o "$b/regress/bench/docker_check_bench" regress/bench/docker_check_bench.c \
    $srcs "$b/libcommon.a" \
    $(pkg-config --libs libbsd-overlay libevent libevent_openssl jansson libseccomp openssl)
exec "$b/regress/bench/docker_check_bench" ${DOCKER_SOCK:-/var/run/docker.sock}
