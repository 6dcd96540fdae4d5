#!/bin/sh
# Code out against a space that hangs: the agent makes its .git/HEAD a
# FIFO, on which any git command blocks for ever (the control: plain
# git inside does).  The fixed script meets code in's time cap (here
# 30 s, spaced.conf's "code in timeout": the second review and the apply
# must meet the first one's hang, after execs that take seconds each
# under load), the review is refused, the
# quarantine takes nothing, the user's repository is unchanged and no
# host-side hook ran; while it hangs, a second review or apply of the
# space is answered busy; an apply after a review cancelled on the way
# is refused, asking for a review.  Hang guards of 60 and 180 s, never
# a timed assertion.
SPACED_EXTRA_CONF="code in timeout 30"
. "$(dirname "$0")/lib.sh"

user_repo
host_hook
space_in codeout-hang
"$RC" snap "$repo" >"$T/rc.before"
QK=$sd/state/quarantine/$id/store.git/spaced-kept
# A review that passes first: spaced and the quarantine keep it.
sc exec "$id" -- /bin/sh -c "cd '$sp' && echo w >>a.txt" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/before.json" 2>&1
check "control: a review before the hang is kept" sh -c \
    "jq -e '.tip != null' '$T/before.json' >/dev/null && test -s '$QK'"
sc exec "$id" -- /bin/sh -c "cd '$sp' && rm .git/HEAD && mkfifo .git/HEAD" \
    >/dev/null 2>&1
sc exec "$id" -- /bin/sh -c "cd '$sp' && timeout 3 git rev-parse HEAD" \
    >/dev/null 2>&1
check "control: git inside blocks on the FIFO (killed at 3 s: 124)" \
    test $? = 124
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j review "$id" "$repo" \
    >"$T/cancelled.json" 2>&1 &
first=$!
# While it hangs, a second review or an apply of the space is answered
# busy: they would share its quarantine folder.  The script is seen
# inside first (a hang guard of 60 s, never a timed assertion).
i=0
until sc exec "$id" -- /bin/sh -c 'grep -l spaced-code-ou[t] \
    /proc/[0-9]*/cmdline' >/dev/null 2>&1 || [ $i -ge 600 ]; do
	i=$((i + 1)); sleep 0.1
done
check "control: the first review's script runs inside" test $i -lt 600
sc -j review "$id" "$repo" >"$T/second.json" 2>&1
check "a second review of the space meanwhile: busy" jqe \
    '.error == "busy" and (.message | test("under way"))' "$T/second.json"
sc -j apply "$id" "$repo" -b spaced/second >"$T/second-apply.json" 2>&1
check "and an apply: busy" jqe '.error == "busy"' "$T/second-apply.json"
# That review is cancelled (its client leaves) after the quarantine
# took it, and its record of the review before with it: spaced still
# keeps that review.  Once the cancelled request ends (at the script's
# time cap), apply finds the quarantine's store apart from it and asks
# for a review; nothing else is applied.
i=0
while [ -e "$QK" ] && [ $i -lt 600 ]; do i=$((i + 1)); sleep 0.1; done
check "control: the review under way took the quarantine's record" \
    test ! -e "$QK"
kill "$first"
wait "$first"
i=0
while :; do
	sc -j apply "$id" "$repo" -b spaced/cancelled >"$T/cancel-apply.json" 2>&1
	jq -e '.error == "busy"' "$T/cancel-apply.json" >/dev/null 2>&1 ||
	    break
	[ $i -ge 120 ] && break
	i=$((i + 1)); sleep 0.5
done
sed 's/^/# /' "$T/cancel-apply.json" | head -2
check "apply after a review cancelled on the way: refused, review again" \
    jqe '.error == "code_out_failed" and (.message | test("review again"))' \
    "$T/cancel-apply.json"
check "  and no branch was made" test -z "$(git -C "$repo" for-each-ref \
    refs/heads/spaced/cancelled)"
timeout 180 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j review \
    "$id" "$repo" >"$T/hang.json" 2>&1
rc=$?
sed 's/^/# /' "$T/hang.json" | head -4
check "the review ends (not the guard's kill)" test "$rc" != 124
check "refused: the script met the time cap" jqe \
    '.error == "code_out_failed" and (.message | test("timeout|time cap|killed"))' \
    "$T/hang.json"
"$RC" snap "$repo" >"$T/rc.after"
check "the user's repository is unchanged" \
    "$RC" diff "$T/rc.before" "$T/rc.after" "$id"
check "no host-side hook ran" test ! -e "$T/HOST-RAN"
sc remove "$id" >/dev/null
finish
