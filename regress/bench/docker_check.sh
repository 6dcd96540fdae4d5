#!/bin/sh
# The check operation's round trip against the live daemon (median of 100, fresh
# connection each), with the raw GET /version of the same run as baseline.
# Usage: sh regress/bench/docker_check.sh <build dir>
set -eu
b=${1:-build}
mkdir -p "$b/regress/bench"
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto \
    $(pkg-config --cflags libbsd-overlay libevent jansson) \
    -o "$b/regress/bench/docker_check_bench" regress/bench/docker_check_bench.c \
    worker-docker/docker_check.c worker-docker/docker_http.c \
    worker-docker/docker_ops.c worker-docker/docker_req.c \
    worker-docker/docker_parse.c common/lib/log.c \
    $(pkg-config --libs libbsd-overlay libevent jansson)
exec "$b/regress/bench/docker_check_bench" ${DOCKER_SOCK:-/var/run/docker.sock}
