#!/bin/sh
# Code out of 50 commits touching 1,000 files in a real space, end to
# end (docs/notes/spaced-git-codeout.md): spacectl review, then
# spacectl apply -b into the repository, against the unsafe way a user
# would do it by hand: git fetch from the space over ext:: through
# docker exec into a bare copy, then git diff --stat on the host.  Then
# spaced's peak memory while a 100 MiB pack comes out.  Medians over N
# rounds and the ratio; never asserts a time.
# usage: codeout.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-3}
cd "$(dirname "$0")/../.."
. regress/integration/lib.sh
build=$b
T=$(mktemp -d /tmp/spaced-bench-codeout.XXXXXX)
chmod 0755 "$T"
make_tree
SPACED_EXTRA_CONF="install id $(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
start_spaced "$T/sd" || { echo "codeout: spaced did not start" >&2; exit 1; }
id=
trap '[ -n "$id" ] && ctl remove "$id" >/dev/null 2>&1; stop_spaced; rm -rf "$T" "$tree"' EXIT
now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

repo=$T/repo
git init -q -b main "$repo"
for d in $(seq 1 20); do
	mkdir "$repo/d$d"
	for f in $(seq 1 50); do seq 1 40 >"$repo/d$d/f$f"; done
done
git -C "$repo" add -A
git -C "$repo" -c user.name=b -c user.email=b@b.invalid commit -qm base
id=$(ctl create -n bench-codeout)
ctl -j code-in "$id" "$repo" >"$T/ci.json"
sp=$(jq -r .spacePath "$T/ci.json")
base=$(jq -r .base "$T/ci.json")
start=$(jq -r .start "$T/ci.json")
# 50 commits, each touching 20 files: 1,000 files in all.
ctl exec "$id" -- /bin/sh -c "cd '$sp' && for c in \$(seq 1 50); do
    for k in \$(seq 0 19); do m=\$(( (c - 1) * 20 + k ));
    echo c\$c >>d\$(( m / 50 + 1 ))/f\$(( m % 50 + 1 )); done;
    git -c user.name=a -c user.email=a@a.invalid commit -qam c\$c; done" \
    >/dev/null
echo "# work: $(ctl exec "$id" -- git -C "$sp" rev-list --count "$base"..HEAD) commits, $(ctl exec "$id" -- git -C "$sp" diff --name-only "$base" HEAD | wc -l) files"
CTR=spaced-space-$id-space
SUID=$(ctl exec "$id" -- id -u)

ours= hand= rev= app=
for r in $(seq 1 "$n"); do
	rm -rf "$T/copy"
	t0=$(now)
	ctl -j review "$id" "$repo" >"$T/review.json" ||
	    { cat "$T/review.json" >&2; exit 1; }
	tr=$(now)
	ctl -j apply "$id" "$repo" -b "bench/r$r" >"$T/apply.json" ||
	    { cat "$T/apply.json" >&2; exit 1; }
	ta=$(now)
	git clone -q --bare "$repo" "$T/copy"	# the copy is not timed
	t1=$(now)
	# No maintenance run after the fetch (its own git process): it
	# changes nothing of what is fetched or shown, and the baseline is
	# the fastest honest one.
	git -C "$T/copy" -c protocol.ext.allow=always fetch -q \
	    --no-auto-maintenance --update-shallow \
	    "ext::docker exec -i -u $SUID $CTR %S $sp" \
	    +HEAD:refs/heads/got
	git -C "$T/copy" diff --stat "$base" refs/heads/got >"$T/stat"
	t2=$(now)
	ours="$ours $(ms "$t0" "$ta")"; hand="$hand $(ms "$t1" "$t2")"
	rev="$rev $(ms "$t0" "$tr")"; app="$app $(ms "$tr" "$ta")"
done
o=$(echo $ours | tr ' ' '\n' | median)
h=$(echo $hand | tr ' ' '\n' | median)
echo "code out, review + apply -b (spacectl):          $o ms  (rounds:$ours)"
echo "git fetch over ext:: + diff --stat (by hand):   $h ms  (rounds:$hand)"
echo "  of which review: $(echo $rev | tr ' ' '\n' | median) ms, apply: $(echo $app | tr ' ' '\n' | median) ms"
echo "ratio ours/by hand: $(awk -v o="$o" -v h="$h" 'BEGIN { printf "%.2f", o / h }')"

# spaced's peak memory while a 100 MiB pack streams through it.
ctl exec "$id" -- /bin/sh -c "cd '$sp' && head -c 104857600 /dev/urandom >big.bin" \
    >/dev/null
before=$(awk '/^VmHWM:/ { print $2 }' "/proc/$spaced_pid/status")
t0=$(now)
ctl -j review "$id" "$repo" >"$T/big.json"
t1=$(now)
after=$(awk '/^VmHWM:/ { print $2 }' "/proc/$spaced_pid/status")
echo "100 MiB out through review: $(ms "$t0" "$t1") ms; spaced's peak RSS $before kB before, $after kB after"
