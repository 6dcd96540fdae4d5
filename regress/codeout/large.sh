#!/bin/sh
# Code out of large work, in a real space, up to the quarantine's
# checks (regress/codeout/codeout.sh says why through qr-check): 10,000
# new files and a 100 MB file come out; the tree is the space's entry
# for entry, and the 100 MB file is named large_file (over the 10 MiB a
# person must allow by name), nothing else.
. "$(dirname "$0")/../contract/lib.sh"

QR=$build/regress/tools/qr-check
G="-c user.name=Agent -c user.email=agent@example.invalid"

repo=$T/user
git init -q -b main "$repo"
echo a >"$repo/a.txt"
git -C "$repo" add a.txt
git -C "$repo" -c user.name=u -c user.email=u@u.invalid commit -qm base
id=$(sc create -n codeout-large 2>"$T/create.err")
check "a space" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
sc -j code-in "$id" "$repo" >"$T/ci.json" 2>"$T/ci.err"
sp=$(jq -r .spacePath "$T/ci.json")
base=$(jq -r .base "$T/ci.json")
start=$(jq -r .start "$T/ci.json")
"$QR" script >"$T/script"
git -C "$repo" pack-objects -q --revs --stdout --delta-base-offset \
    >"$T/base.pack" <<EOP
$start
EOP

sc exec "$id" -- /bin/sh -c "cd '$sp' &&
    for d in \$(seq 1 100); do mkdir d\$d; for f in \$(seq 1 100); do
    echo \$d.\$f >d\$d/f\$f; done; done && git add -A &&
    git $G commit -qm 'ten thousand' &&
    head -c 100000000 /dev/urandom >big.bin" >/dev/null 2>&1
sc exec "$id" -- /bin/sh -c "$(cat "$T/script")" spaced-code-out \
    "$sp" "$start" 600 >"$T/large.pack" 2>"$T/large.err"
check "the script inside packs it" test $? = 0
check "control: the pack holds the 100 MB" \
    test "$(stat -c %s "$T/large.pack")" -gt 100000000
"$QR" "$T/q" "$base" "$start" "$T/base.pack" <"$T/large.pack" \
    >"$T/large.out" 2>&1
rc=$?
sed 's/^/# /' "$T/large.out" | head -5
check "flagged, not refused (exit 1)" test "$rc" = 1
check "the 100 MB file is named large_file" \
    grep -qE '^flag large_file [0-9a-f]{40} big.bin$' "$T/large.out"
check "and it is the only flag" \
    test "$(grep -c '^flag ' "$T/large.out")" = 1
tip=$(sed -n 's/^tip //p' "$T/large.out")
sc exec "$id" -- /bin/sh -c "cd '$sp' && git add -A &&
    git $G commit -qm all && git ls-tree -r HEAD" >"$T/inside.tree" \
    2>/dev/null
git -C "$T/q" ls-tree -r "$tip" >"$T/out.tree"
check "10,001 entries and more came out" \
    test "$(wc -l <"$T/out.tree")" -gt 10001
check "the tree is the space's, entry for entry" \
    cmp -s "$T/inside.tree" "$T/out.tree"
sc remove "$id" >/dev/null
finish
