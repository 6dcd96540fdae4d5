#!/bin/sh
# Builds each libFuzzer target with clang (ASan+UBSan) and runs it for
# FUZZ_SECONDS (default 10) over its seed corpus in regress/fuzz/corpus/<name>/.
# Each target names the sources it links in a line "fuzz-link: a.c b.c".
# FUZZ_JOBS targets at once (1 by default); each target's lines are
# printed together when it ends.
set -eu
out=build-fuzz
mkdir -p "$out"
secs=${FUZZ_SECONDS:-10}
jobs=${FUZZ_JOBS:-1}
flags="-g -O1 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto -fsanitize=fuzzer,address,undefined $(pkg-config --cflags libbsd-overlay libevent jansson openssl)"
libs="$(pkg-config --libs libbsd-overlay libevent jansson libseccomp openssl zlib libgit2)"

# fuzz_one SOURCE: build and run one target; non-zero when it failed.
fuzz_one() {
	name=$(basename "$1" .c)
	srcs=$(sed -n 's/.*fuzz-link: *//p' "$1" | head -n 1 | sed 's/\*\/.*//')
	echo "== fuzz: $name ($secs s)"
	# shellcheck disable=SC2086
	clang $flags -o "$out/$name" "$1" $srcs $libs || {
		echo "FAILED: $name (build)"; return 1; }
	corpus="regress/fuzz/corpus/$name"
	work="$out/corpus-$name"
	mkdir -p "$work"
	[ -d "$corpus" ] && cp -n "$corpus"/* "$work"/ 2>/dev/null || true
	"$out/$name" -max_total_time="$secs" -max_len=70000 -timeout=5 \
	    -artifact_prefix="$out/$name-" \
	    -rss_limit_mb=1024 "$work" >"$out/$name.log" 2>&1 || {
		echo "FAILED: $name"; tail -n 40 "$out/$name.log"; return 1; }
	grep -E '^(#[0-9]+.*DONE|Done)' "$out/$name.log" | tail -n 1 || true
}

if [ "$jobs" -le 1 ]; then
	rc=0
	for t in "$@"; do fuzz_one "$t" || rc=1; done
	exit $rc
fi

# Lanes: each takes every JOBS-th target; a target's report is a file,
# printed whole.
set +e
i=0
pids=""
while [ $i -lt "$jobs" ]; do
	(
		rc=0 n=0
		for t in "$@"; do
			n=$((n + 1))
			[ $(((n - 1) % jobs)) -eq $i ] || continue
			fuzz_one "$t" >"$out/report.$i" 2>&1 || rc=1
			cat "$out/report.$i"
		done
		rm -f "$out/report.$i"
		exit $rc
	) &
	pids="$pids $!"
	i=$((i + 1))
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
exit $rc
