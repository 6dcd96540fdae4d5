#!/bin/sh
# spaced-journal's parse of an answer of many header lines, at n and 2n,
# against one memchr pass in the same run (the unit test keeps only the
# refusal).  usage: journal_headers.sh [build-dir]
set -eu
b=$(cd "${1:-build}" && pwd)
mkdir -p "$b/regress/bench"
make -s "B=$b" "$b/libcommon.a" "$b/gatekeeper/spaced-journal/server_parse.o" \
    >/dev/null
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto \
    $(pkg-config --cflags libbsd-overlay jansson) \
    -o "$b/regress/bench/journal_headers" regress/bench/journal_headers.c \
    "$b/gatekeeper/spaced-journal/server_parse.o" "$b/libcommon.a" \
    $(pkg-config --libs libbsd-overlay jansson)
exec "$b/regress/bench/journal_headers"
