#!/bin/sh
# A space of an older relay: made under one relay, then its spaced
# restarted with another (a byte appended: a key of its own), the space
# still mounts the old runtime volume, so its commands run bare
# (docker_exec_wraps): the engine starts them itself, as every command
# in the gatekeeper (which has no shell to test with).  There the engine
# writes why it cannot start a command as the exec's first stdout frame,
# one ending CR LF, and spaced-docker holds a bare command's first frame
# of that shape: the engine's words go to stderr with 127, and a
# command's own first line of that shape reaches stdout while the
# command runs (before: at its next output or its end).  Docker only.
contract_tree() {
	printf 'older-relay-suite %s\n' "$$" >>"$tree/libexec/spaced/spaced-relay"
}
. "$(dirname "$0")/lib.sh"
if [ "$PLACE" != docker ]; then
	skip "a relay's runtime volume is the Docker place's"
	finish
fi

key_of_log() {
	sed -n 's/.*runtime: .*, key \([0-9a-f]*\),.*/\1/p' "$T/sd/log" | head -n 1
}
OLD=$(key_of_log)
NEW=
# The suite's keys are its own: their volumes go with it (after
# contract_end removed the space that mounts the old one).
older_cleanup() {
	for k in $OLD $NEW; do
		api DELETE "/volumes/spaced-runtime-$k" >/dev/null
	done
	true
}
at_finish older_cleanup
check "a runtime key of this run ($OLD)" test "${#OLD}" = 16

sc create -n "older relay" -m 256m >"$T/id" 2>"$T/create.err"
id=$(cat "$T/id")
sed 's/^/# /' "$T/create.err"
check "create under the first relay" test -n "$id"
# A bare command's first process was started by the engine from outside
# its pid namespace (parent 0); under the relay's wrapper its parent is
# the wrapper.
PPID_OF='sed -n "s/^PPid:[[:space:]]*//p" /proc/$$/status'
check "control: under the spaced that made it, a command runs under the relay's wrapper (PPid not 0)" \
    sh -c "p=\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- sh -c '$PPID_OF') &&
    test -n \"\$p\" && test \"\$p\" != 0"

stop_spaced
printf 'older-relay-suite newer %s\n' "$$" >>"$tree/libexec/spaced/spaced-relay"
if ! start_spaced "$T/sd"; then
	echo "# spaced did not start again:"; sed 's/^/# /' "$T/sd/log"
	not_ok "spaced starts again with another relay"; finish
fi
NEW=$(key_of_log)
check "spaced starts again with another relay ($NEW)" \
    sh -c "test ${#NEW} = 16 && test '$NEW' != '$OLD'"
check "the space of the older relay runs its commands bare (PPid 0)" \
    test "$(sc exec "$id" -- sh -c "$PPID_OF")" = 0

# The command prints its line, then waits for the reader's go (30 s at
# most) and marks that its wait ended.  The reader, once the line came,
# asks whether that mark is there yet: an order, not a time.  Before,
# the line came only at the command's end, after the mark.
BANNER='printf "ready\r\n"; i=0
while [ ! -e banner.go ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
: >banner.after'
{
	timeout 120 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" \
	    exec "$id" -- sh -c "$BANNER" 2>"$T/banner.err"
	echo $? >"$T/banner.rc"
} | {
	IFS= read -r line
	printf '%s\n' "$line" >"$T/banner.line"
	if sc exec "$id" -- test -e banner.after; then
		echo after
	else
		echo before
	fi >"$T/banner.when"
	sc exec "$id" -- touch banner.go
	cat >"$T/banner.rest"
}
CR=$(printf '\r')
check "exec of a bare command: its first line, ending CR LF, is on stdout while the command runs ($(cat "$T/banner.when"))" \
    sh -c "test \"\$(cat '$T/banner.when')\" = before &&
    test \"\$(cat '$T/banner.line')\" = 'ready$CR'"
check "  ... then it ends 0, nothing more on stdout, stderr empty (rc $(cat "$T/banner.rc"))" \
    sh -c "test \"\$(cat '$T/banner.rc')\" = 0 && test ! -s '$T/banner.rest' &&
    test ! -s '$T/banner.err'"

# The engine's words for a command it cannot start, the same shape: on
# stderr, with the shell's 127, stdout empty.
sc exec "$id" -- /no/such/cmd >"$T/miss.out" 2>"$T/miss.err"
rc=$?
sed 's/^/# /' "$T/miss.err"
check "exec of a bare command that cannot start: the engine's words on stderr, 127, stdout empty (rc $rc)" \
    sh -c "test $rc = 127 && test ! -s '$T/miss.out' &&
    grep -q 'no such file or directory' '$T/miss.err'"

check "remove the space" sc remove "$id"
finish
