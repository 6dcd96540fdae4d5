#!/bin/sh
# The journal store: records kept a second (parsed, chained, fsynced
# in batches) and --verify over a million records, each against a plain
# write and read of the same bytes in the same run, with the largest
# resident size (issue 26).  usage: journal_store.sh [build-dir] [records]
set -eu
b=$(cd "${1:-build}" && pwd)
mkdir -p "$b/regress/bench"
o=$b/gatekeeper/spaced-journal
make -s "B=$b" "$b/libcommon.a" "$o/journal_parse.o" "$o/chain.o" \
    "$o/store.o" "$o/verify.o" >/dev/null
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto \
    $(pkg-config --cflags libbsd-overlay jansson openssl) \
    -o "$b/regress/bench/journal_store" regress/bench/journal_store.c \
    "$o/journal_parse.o" "$o/chain.o" "$o/store.o" "$o/verify.o" \
    "$b/libcommon.a" $(pkg-config --libs libbsd-overlay jansson openssl \
    libevent libseccomp)
exec "$b/regress/bench/journal_store" "${2:-1000000}"
