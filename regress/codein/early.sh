#!/bin/sh
# A receiver that exits 0 before it took the whole pack (spec "A space
# that does not cooperate"): the code-in ends at the place's DONE, its
# pack cut at once, never left to wait for credit until spaced-git's
# stall or code in's time limit.  The user's repository keeps only what
# the spec allows and no ref of the space; its spaced-git answers again.
# Both places: early-native.sh runs this suite with
# SPACED_TEST_PLACE=native in a mount namespace whose /usr/bin/git is
# the receiver below; on Docker an image of this run has it as
# /usr/local/bin/git (first on the fixed script's PATH).
#
# The order, not a clock: code in's limit is an hour and spaced-git's
# stall 120 s; an answer that names the receiver's early exit came from
# the DONE, one that came from either limit names it (command_timeout,
# "took nothing").
SPACED_EXTRA_CONF="code in timeout 3600
${SPACED_EXTRA_CONF:-}"
. "$(dirname "$0")/../contract/lib.sh"

RC=$build/regress/tools/repo-compare

# The receiver (early-receiver): git, but told "early" by ~/receiver it
# takes 4 KiB of the pack and exits 0, as do the script's later steps.
mkdir -p "$T/img"
cp "$(dirname "$0")/early-receiver" "$T/img/git"
chmod 0755 "$T/img/git"
case $PLACE in
native)
	check "the receiver is the namespace's git (early-native.sh)" \
	    cmp -s "$T/img/git" /usr/bin/git ||
	    { echo "# run through regress/codein/early-native.sh"; finish; }
	;;
*)
	hostile=spaced-space-early:$(printf %s "$INSTALL" | cut -c1-12)
	printf 'FROM spaced-space:latest\nUSER root\nCOPY git /usr/local/bin/git\nRUN chmod 0755 /usr/local/bin/git\nUSER 10000:10000\n' \
	    >"$T/img/Dockerfile"
	docker build -q -t "$hostile" "$T/img" >"$T/img.out" 2>&1
	check "an image whose git the test controls" \
	    sh -c "docker image inspect '$hostile' >/dev/null 2>&1"
	at_finish "docker image rm -f '$hostile' >/dev/null 2>&1"
	stop_spaced
	SPACED_EXTRA_CONF="$SPACED_EXTRA_CONF
space image $hostile"
	start_spaced "$T/sd" ||
	    { sed 's/^/# /' "$T/sd/log"; not_ok "spaced restarts"; finish; }
	;;
esac

# A repository whose pack is far past the stream's window (1 MiB) and
# the buffers behind it: 16 MiB that deflate cannot shrink.
repo=$T/repo
git init -q -b main "$repo"
head -c 16777216 /dev/urandom >"$repo/noise.bin"
echo text >"$repo/text.txt"
git -C "$repo" add . &&
    git -C "$repo" -c user.name=e -c user.email=e@e.invalid commit -qm base
check "a repository of 16 MiB of noise" test -n "$(git -C "$repo" rev-parse HEAD)"

# The control: the same receiver, told nothing, is git: the code-in
# works through it.
sc create -n early-control >"$T/id0" 2>"$T/create.err"
id0=$(cat "$T/id0")
sc -j code-in "$id0" "$repo" >"$T/ci0.json" 2>"$T/ci0.err"
check "control: through the same receiver the code-in works" \
    sh -c "jq -e .spacePath '$T/ci0.json' >/dev/null"
check "control: the noise arrived" test "$(sc exec "$id0" -- \
    sha256sum "/spaces/$id0/repo/noise.bin" | cut -d' ' -f1)" = \
    "$(sha256sum "$repo/noise.bin" | cut -d' ' -f1)"
sc remove "$id0" >/dev/null
git -C "$repo" for-each-ref --format='%(refname)' refs/spaced |
    xargs -r -n1 git -C "$repo" update-ref -d

sc create -n early >"$T/id" 2>>"$T/create.err"
id=$(cat "$T/id")
check "a space for the early receiver" test -n "$id"
sc exec "$id" -- /bin/sh -c 'echo early >/home/space/receiver'
sc files "$repo" >/dev/null 2>&1	# its spaced-git, started before
"$RC" snap "$repo" >"$T/rc.before"
# A hang guard, not a measure: unfixed, the answer comes at spaced-git's
# stall (120 s), which the checks below tell apart by its words.
timeout 300 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" code-in "$id" \
    "$repo" >"$T/early.out" 2>&1
sed 's/^/# /' "$T/early.out"
check "control: the receiver took part of the pack and said it was done" \
    sc exec "$id" -- test -e /home/space/early-took
check "an early receiver: code_transfer_failed" \
    grep -q '^spacectl: code_transfer_failed' "$T/early.out"
check "at the place's DONE: the answer names the receiver's early exit" \
    grep -q 'exited 0 before the pack ended' "$T/early.out"
lacks "not at spaced-git's stall nor at code in's limit" "$T/early.out" \
    -e 'took nothing' -e command_timeout
"$RC" snap "$repo" >"$T/rc.after"
"$RC" diff "$T/rc.before" "$T/rc.after" "$id" >"$T/rc.diff"
rc_rc=$?
sed 's/^/# /' "$T/rc.diff"
check "the repository keeps only loose objects and the ref" \
    test "$rc_rc" -eq 0
check "and no ref of the space is left" \
    test -z "$(git -C "$repo" for-each-ref refs/spaced)"
# A spaced-git still writing the pack would never answer (timeout is a
# hang guard).
check "the repository's spaced-git answers after it" \
    timeout 120 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" files "$repo"
sc remove "$id" >/dev/null
finish
