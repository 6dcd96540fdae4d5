#!/bin/sh
# Code out of 50 commits touching 1,000 files in a real space, as far
# as it is built (docs/notes/spaced-git-codeout.md): the script inside
# through spacectl exec, then the quarantine's index, tip and checks
# (regress/tools/qr-check; review text and apply are not wired yet),
# against the unsafe way a user would do it by hand: git fetch from
# the space over ext:: through docker exec into a bare copy, then git
# diff --stat on the host.  Medians over N rounds and the ratio; never
# asserts a time.
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
QR=$b/regress/tools/qr-check

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
"$QR" script >"$T/script"
git -C "$repo" pack-objects -q --revs --stdout --delta-base-offset \
    >"$T/base.pack" <<EOP
$start
EOP
CTR=spaced-space-$id-space
SUID=$(ctl exec "$id" -- id -u)

ours= hand= inside= checks=
for r in $(seq 1 "$n"); do
	rm -rf "$T/q" "$T/copy"
	t0=$(now)
	ctl exec "$id" -- /bin/sh -c "$(cat "$T/script")" spaced-code-out \
	    "$sp" "$start" 600 >"$T/out.pack"
	tx=$(now)
	"$QR" "$T/q" "$base" "$start" "$T/base.pack" <"$T/out.pack" \
	    >"$T/qr.out" || { cat "$T/qr.out" >&2; exit 1; }
	tq=$(now)
	git clone -q --bare "$repo" "$T/copy"	# the copy is not timed
	t1=$(now)
	git -C "$T/copy" -c protocol.ext.allow=always fetch -q \
	    --update-shallow "ext::docker exec -i -u $SUID $CTR %S $sp" \
	    +HEAD:refs/heads/got
	git -C "$T/copy" diff --stat "$base" refs/heads/got >"$T/stat"
	t2=$(now)
	ours="$ours $(ms "$t0" "$tq")"; hand="$hand $(ms "$t1" "$t2")"
	inside="$inside $(ms "$t0" "$tx")"; checks="$checks $(ms "$tx" "$tq")"
done
o=$(echo $ours | tr ' ' '\n' | median)
h=$(echo $hand | tr ' ' '\n' | median)
echo "code out to the checks (script + quarantine):  $o ms  (rounds:$ours)"
echo "git fetch over ext:: + diff --stat (by hand):  $h ms  (rounds:$hand)"
echo "  of which the script inside: $(echo $inside | tr ' ' '\n' | median) ms, the checks: $(echo $checks | tr ' ' '\n' | median) ms"
echo "ratio ours/by hand: $(awk -v o="$o" -v h="$h" 'BEGIN { printf "%.2f", o / h }')"
