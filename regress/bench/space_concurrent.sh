#!/bin/sh
# Ten creates in flight through one spaced against ten creates one after
# another, against the real engine, and the ratio; every space removed.
# Never asserts a time; it prints how many of each succeeded, and why
# the others failed, because a ratio of failures means nothing.
# usage: space_concurrent.sh [build-dir] [count]
set -u
b=$(cd "${1:-build}" && pwd)
n=${2:-10}
cd "$(dirname "$0")/../.."
. regress/integration/lib.sh
[ -f "$b/images.env" ] || { echo "space_concurrent: make images first" >&2; exit 1; }
. "$b/images.env"
T=$(mktemp -d)
build=$b
make_tree
SPACED_EXTRA_CONF="space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\""
start_spaced "$T/sd" || { echo "space_concurrent: spaced did not start" >&2; exit 1; }
trap 'sweep; stop_spaced; rm -rf "$T" "$tree"' EXIT

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
sweep() {
	for s in $(ctl -j list 2>/dev/null | jq -r 'if type == "array" then .[].id else empty end'); do
		ctl remove "$s" >/dev/null 2>&1
	done
}
# why: the failures of a batch, counted by their first line
why() { cat "$T"/$1*.err 2>/dev/null | sed 's/^spacectl: //' | sort | uniq -c | sed 's/^ */  /'; }

# Warm-up: the runtime volume filled (or found) once.
ctl create >/dev/null 2>&1; sweep
stop_spaced; start_spaced "$T/sd"

# n one after another, through one spaced.
okq=0; t0=$(now); i=0
while [ $i -lt "$n" ]; do
	ctl create -n "q$i" >/dev/null 2>"$T/q$i.err" && { okq=$((okq + 1)); rm -f "$T/q$i.err"; }
	i=$((i + 1))
done
t1=$(now); seq_ms=$(ms "$t0" "$t1")
sweep
stop_spaced; start_spaced "$T/sd"

# n in flight at once, through one spaced.
t0=$(now); i=0; pids=
while [ $i -lt "$n" ]; do
	( ctl create -n "p$i" >/dev/null 2>"$T/p$i.err" && rm -f "$T/p$i.err" ) &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do wait "$p"; done	# not spaced, a child too
t1=$(now); par_ms=$(ms "$t0" "$t1")
okp=$((n - $(ls "$T"/p*.err 2>/dev/null | wc -l)))
sweep

printf '%d creates one after another: %6d ms (%d succeeded)\n' "$n" "$seq_ms" "$okq"
why q
printf '%d creates in flight:         %6d ms (%d succeeded)\n' "$n" "$par_ms" "$okp"
why p
awk -v s="$seq_ms" -v p="$par_ms" 'BEGIN { printf "in flight / one after another: %.2f (%.1fx faster)\n", p / s, s / p }'
[ "$okq" -eq "$n" ] && [ "$okp" -eq "$n" ] ||
    echo "# not every create succeeded: the times are of what the runs did, not of $n spaces"
