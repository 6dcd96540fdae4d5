#!/bin/sh
# Builds each libFuzzer target with clang (ASan+UBSan) and runs it for
# FUZZ_SECONDS (default 10) over its seed corpus in regress/fuzz/corpus/<name>/.
# Each target names the sources it links in a line "fuzz-link: a.c b.c".
set -eu
out=build-fuzz
mkdir -p "$out"
secs=${FUZZ_SECONDS:-10}
flags="-g -O1 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto -fsanitize=fuzzer,address,undefined $(pkg-config --cflags libbsd-overlay libevent jansson openssl)"
libs="$(pkg-config --libs libbsd-overlay libevent jansson libseccomp openssl zlib libgit2)"
rc=0
for t in "$@"; do
	name=$(basename "$t" .c)
	srcs=$(sed -n 's/.*fuzz-link: *//p' "$t" | head -n 1 | sed 's/\*\/.*//')
	echo "== fuzz: $name ($secs s)"
	# shellcheck disable=SC2086
	clang $flags -o "$out/$name" "$t" $srcs $libs
	corpus="regress/fuzz/corpus/$name"
	work="$out/corpus-$name"
	mkdir -p "$work"
	[ -d "$corpus" ] && cp -n "$corpus"/* "$work"/ 2>/dev/null || true
	"$out/$name" -max_total_time="$secs" -max_len=70000 -timeout=5 \
	    -artifact_prefix="$out/$name-" \
	    -rss_limit_mb=1024 "$work" >"$out/$name.log" 2>&1 || {
		echo "FAILED: $name"; tail -n 40 "$out/$name.log"; rc=1; }
	grep -E '^(#[0-9]+.*DONE|Done)' "$out/$name.log" | tail -n 1 || true
done
exit $rc
