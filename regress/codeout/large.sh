#!/bin/sh
# Code out of large work through spacectl review, in a real space:
# 10,000 new files and a 100 MB file come out through the quarantine;
# the tree is the space's entry for entry, the 100 MB file is named
# large_file (over the 10 MiB a person must allow by name) and nothing
# else is; spaced's own memory stays bounded while the pack streams
# through it; the user's repository is unchanged.
. "$(dirname "$0")/lib.sh"

user_repo
"$RC" snap "$repo" >"$T/rc.before"
space_in codeout-large
QS=$T/sd/state/quarantine/$id/store.git

sc exec "$id" -- /bin/sh -c "cd '$sp' &&
    for d in \$(seq 1 100); do mkdir d\$d; for f in \$(seq 1 100); do
    echo \$d.\$f >d\$d/f\$f; done; done && git add -A &&
    git $G commit -qm 'ten thousand' &&
    head -c 100000000 /dev/urandom >big.bin" >/dev/null 2>&1
spid=$spaced_pid
rss() { awk '/^VmHWM:/ { print $2 }' "/proc/$spid/status"; }
before=$(rss)
sc -j review "$id" "$repo" >"$T/large.json" 2>"$T/large.err"
check "the review of 100 MB and 10,000 files" test $? = 0
after=$(rss)
echo "# spaced's peak RSS: ${before} kB before, ${after} kB after the review"
check "spaced's peak memory grew by less than 32 MiB for a 100 MB pack" \
    test $((after - before)) -lt 32768
check "the 100 MB file is named large_file" jqe '[.flags[] |
    select(.reason == "large_file" and .path == "big.bin")] | length == 1' \
    "$T/large.json"
check "and it is the only flag" jqe '.flags | length == 1' "$T/large.json"
check "10,001 paths changed" jqe '.paths | length == 10001' "$T/large.json"
tip=$(jq -r .tip "$T/large.json")
sc exec "$id" -- /bin/sh -c "cd '$sp' && git add -A &&
    git $G commit -qm all && git ls-tree -r HEAD" >"$T/inside.tree" \
    2>/dev/null
git -c safe.directory='*' -C "$QS" ls-tree -r "$tip" >"$T/out.tree"
check "10,001 entries and more came out" \
    test "$(wc -l <"$T/out.tree")" -gt 10001
check "the tree is the space's, entry for entry" \
    cmp -s "$T/inside.tree" "$T/out.tree"
"$RC" snap "$repo" >"$T/rc.after"
check "the user's repository is unchanged" \
    "$RC" diff "$T/rc.before" "$T/rc.after" "$id"
sc remove "$id" >/dev/null
finish
