#!/bin/sh
# Code out against a space that floods: the agent's work is one blob
# of 1.2 GB kept uncompressed in its own pack, so the fixed script's
# pack-objects pours out more than a gigabyte (the control: packed
# inside, it is over the cap).  The quarantine's scan refuses the
# object at its header (over 256 MiB), the exec's output cap
# (1 GiB + 1 MiB) ends the script, the review is refused by name, the
# user's repository is unchanged, and nothing is left behind: no pack
# in the quarantine's store, no quarantine process, no git in the
# space.  A later review of ordinary work still comes.  A hang guard
# of 600 s, never a timed assertion.
. "$(dirname "$0")/lib.sh"

user_repo
host_hook
space_in codeout-flood
start=$(jq -r .start "$T/ci.json")
QDIR=$T/sd/state/quarantine/$id
inside() { sc exec "$id" -- /bin/sh -c "cd '$sp' && $1"; }
"$RC" snap "$repo" >"$T/rc.before"

# The flood: a blob git stores as it is (level 0, straight into a pack),
# which pack-objects copies out byte for byte.
inside "{ echo flood; head -c 1200000000 /dev/zero; } >flood.bin &&
    git -c core.bigFileThreshold=1k -c core.compression=0 \
    -c pack.compression=0 add flood.bin && git $G commit -qm flood &&
    rm flood.bin && git $G rm -q --cached flood.bin &&
    git $G commit -qm 'flood gone from the tree, not from the history'" \
    >"$T/make.out" 2>&1
check "the agent made the flood ($(tail -c 200 "$T/make.out"))" test $? = 0
n=$(inside "printf '%s\n^%s\n' HEAD '$start' |
    git pack-objects -q --revs --stdout | wc -c" 2>/dev/null)
echo "# the work's pack inside the space: $n bytes"
check "control: the work's pack is over the output cap (1 GiB + 1 MiB)" \
    test "${n:-0}" -gt 1074790400

timeout 600 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j review \
    "$id" "$repo" >"$T/flood.json" 2>&1
rc=$?
sed 's/^/# /' "$T/flood.json" | head -4
check "the review ends (not the guard's kill)" test "$rc" != 124
check "refused by name: the output cap ended the script" jqe \
    '.error == "code_out_failed" and
    (.message | test("command_output_too_large"))' "$T/flood.json"
"$RC" snap "$repo" >"$T/rc.after"
check "the user's repository is unchanged" \
    "$RC" diff "$T/rc.before" "$T/rc.after" "$id"
check "no host-side hook ran" test ! -e "$T/HOST-RAN"
# Nothing left behind: the quarantine's process is gone (a bounded
# wait, 60 s: it ends when spaced retires it), its store holds no pack
# and no partial one.
i=0
while [ $i -lt 600 ]; do
	q=
	for p in $(pgrep -u _spaced-quarantine -x spaced-git); do
		[ "$(readlink "/proc/$p/root")" = "$QDIR" ] && q=$p
	done
	[ -z "$q" ] && break
	i=$((i + 1)); sleep 0.1
done
check "no quarantine process remains" test -z "$q"
ls -A "$QDIR/store.git/objects/pack" >"$T/packs" 2>&1
sed 's/^/# pack folder: /' "$T/packs"
check "the quarantine's store holds no pack, whole or partial" \
    test ! -s "$T/packs"
check "the store is there (the control of the check above)" \
    test -d "$QDIR/store.git/objects"
# (a process ended but not yet reaped, a zombie, has ended: the name of
# each one that is not)
inside "for p in /proc/[0-9]*; do grep -q '^State:[[:space:]]*Z' \$p/status ||
    cat \$p/comm; done" >"$T/comms" 2>&1
check "no git process remains in the space" \
    sh -c "! grep -qx 'git\|pack-objects\|git-pack-objects' '$T/comms'"

# The space is not spoiled: ordinary work comes out after it.
inside "git $G reset -q --hard HEAD~2 && echo after >b.txt" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/after.json" 2>&1
check "a review of ordinary work afterwards" \
    jqe '.paths | map(.path) == ["b.txt"]' "$T/after.json"
sc remove "$id" >"$T/remove.out" 2>&1
check "remove ($(head -c 200 "$T/remove.out"))" test $? = 0
ls -lAR "$QDIR" 2>/dev/null | head -20 | sed 's/^/# left: /'
# spaced-launch removes it after the answer (remove does not wait for
# it): a bounded wait, 60 s at most (a hang guard: a loaded machine).
i=0
while [ -e "$QDIR" ] && [ $i -lt 600 ]; do i=$((i + 1)); sleep 0.1; done
check "remove takes the quarantine folder" test ! -e "$QDIR"
finish
