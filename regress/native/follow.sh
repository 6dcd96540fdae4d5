#!/bin/sh
# Collection of a native space's journal costs what is new (issues 25
# and 26): spaced-ns honours the collection's since, so a follow every
# second reads none of an old gk.log again, and still loses no record
# and repeats none across a turnover of gk.log.  What spaced-ns reads is
# its own count of bytes read (/proc/PID/io rchar), taken by root from
# outside; the control is spacectl journal, which asks for everything
# (since 0) and so reads the whole log again.  About a minute.
. "$(dirname "$0")/lib.sh"

native_begin follow
native_space follow "journal interval 1"
# mark TAG: a refused CONNECT from inside, a record of its own.
mark() {
	sc exec "$A" -- curl -s -o /dev/null --max-time 8 \
	    -x http://127.0.0.1:3128 -p "https://$1.follow.example/" \
	    >/dev/null 2>&1
}
# stored TAG: the record is in the store's files (read as root).
stored() { cat "$sd/store/"*"-$A".journal* 2>/dev/null |
    grep -q "	$1\.follow\.example	"; }
# rec_count TAG: how many records of TAG the journal gives.
rec_count() {
	sc -j journal "$A" 2>/dev/null | jq --arg h "$1.follow.example" \
	    '[.records[] | select(.host == $h)] | length'
}
nsp=$(sc status | awk '$1 == "spaced-ns" { print $2 }')
rchar() { awk '$1 == "rchar:" { print $2 }' "/proc/${nsp:-0}/io"; }
check "  control: spaced-ns's read count is there ($nsp)" test -n "$(rchar)"

mark m1
check "a record is collected with nobody asking" wait_for 30 stored m1

# 12 MiB of lines that are no record (the journal counts them malformed)
# into the gatekeeper's stdout, a record before, amid and after them:
# gk.log turns over to gk.log.1 on the way.
gk=$(cut -d" " -f1 "$dir/gk")
flood() {
	python3 - "/proc/$gk/fd/1" <<'PY'
import sys
line = b"not a record: " + b"x" * 100 + b"\n"
with open(sys.argv[1], "ab", buffering=0) as f:
    for _ in range(6 * 1024 * 1024 // (len(line) * 256) + 1):
        f.write(line * 256)
PY
}
mark m2
flood
mark m3
flood
mark m4
settled gk.log
check "gk.log turned over on the way (gk.log.1 is there)" test -e "$dir/gk.log.1"
check "  the log holds over 10 MiB ($(total) bytes)" \
    test "$(total)" -gt $((10 * 1024 * 1024))
for t in m2 m3 m4; do
	wait_for 30 stored "$t"
	check "the record $t is collected, nobody asking" stored "$t"
done

# Quiet: once since has passed the flood (five seconds of slack after
# the last whole collection), a window of a few collections reads little.
# Each window's own record is collected in it (the follow runs); a
# collection still busy with the flood when the window opens gets
# another window, eight at most (without since, none is ever quiet).
n=0
quiet() {
	n=$((n + 1))
	mark "q$n"
	r0=$(rchar)
	wait_for 20 stored "q$n" || return 1
	sleep 3
	r1=$(rchar)
	echo "$((r1 - r0))" >"$T/quiet"
	[ $((r1 - r0)) -lt $((1024 * 1024)) ]
}
echo 99999999 >"$T/quiet"
sleep 6
while ! quiet && [ $n -lt 8 ]; do :; done
check "collections in a quiet while read under 1 MiB ($(cat "$T/quiet") bytes in window $n, the log $(total))" \
    test "$(cat "$T/quiet")" -lt $((1024 * 1024))
check "  control: the window's record was collected in it" stored "q$n"
r1=$(rchar)
sc journal "$A" >/dev/null 2>&1
r2=$(rchar)
check "  control: spacectl journal (since 0) reads it whole ($((r2 - r1)) bytes)" \
    test $((r2 - r1)) -ge "$(total)"

for t in m1 m2 m3 m4 "q$n"; do
	c=$(rec_count "$t")
	check "the record $t is kept once ($c)" test "$c" = 1
done
sc -j journal "$A" >"$T/j.json" 2>/dev/null
check "no gap record" jq -e '[.records[] |
    select(.decision == "journal:gap")] | length == 0' "$T/j.json"
sc journal "$A" --verify >"$T/v.out" 2>&1
check "--verify: the chain holds" grep -q '^the chain holds' "$T/v.out"
finish
