#!/bin/sh
# spaced-relay, the real static binary, in a network namespace of its own
# (loopback only, so 3128 and 8080 collide with nothing): half-close each
# way, resets each way, a dead and a missing gatekeeper socket, 4 MiB full
# duplex, many connections at once and the cap, the window port, ::1 and
# IPv6 off, listeners up before the child, the exit status, SIGTERM passed
# on, the confinement in /proc, the space's folder (-w), and an agent that
# kills the relay.
. "$(dirname "$0")/lib.sh"

# waitrc pid: its exit status, or 137 after 60 s (then it is killed), so
# a relay that does not pass a signal on fails the suite, never hangs it
# (60 s: a hang guard, not a measure; a loaded machine is slow).
waitrc() {
	# (its output nowhere: the sleep a kill of the guard leaves behind
	# would hold the runner's pipe for the rest of its 60 s)
	( sleep 60; kill -9 "$1" 2>/dev/null ) >/dev/null 2>&1 & w_k=$!
	wait "$1"; w_s=$?
	kill "$w_k" 2>/dev/null; wait "$w_k" 2>/dev/null
	return $w_s
}

if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null ||
    ! command -v ip >/dev/null; then
	skip "needs root, unshare and ip for a network namespace"
	finish
fi
if [ -z "${RELAY_IN_NETNS:-}" ]; then
	RELAY_IN_NETNS=1 exec unshare -n sh "$0" "$@"
fi
ip link set lo up

relay=$build/libexec/spaced/spaced-relay
rc_tool=$build/regress/tools/relay_check
for f in "$relay" "$rc_tool"; do
	if [ ! -x "$f" ]; then
		not_ok "$f is missing (make binaries relay tools)"
		finish
	fi
done
T=$(mktemp -d /tmp/relay-test.XXXXXX)
trap 'kill $rpid 2>/dev/null; rm -rf "$T"' EXIT

check "the relay is linked statically" \
    sh -c "file -L '$relay' | grep -q 'statically linked'"

# A relay whose child marks that it runs, then idles.
"$relay" -d "$T" -- sh -c "echo \$\$ > '$T/child'; exec sleep 600" \
    2>"$T/relay.err" &
rpid=$!
if ! wait_for 5 test -s "$T/child"; then
	not_ok "the relay starts its child"
	cat "$T/relay.err"
	finish
fi
cpid=$(cat "$T/child")
ok "the relay starts its child"

st=/proc/$rpid/status
check "relay: Seccomp 2 (filter)" grep -q '^Seccomp:[[:space:]]*2$' $st
check "relay: NoNewPrivs 1" grep -q '^NoNewPrivs:[[:space:]]*1$' $st
check "child: not filtered (the agent's own Seccomp 0)" \
    grep -q '^Seccomp:[[:space:]]*0$' /proc/"$(pgrep -P $rpid)"/status

relay_check() { s=$1; shift; "$rc_tool" "$s" "$T" "$@"; }
check "half-close client first: EOF passed on, the answer still flows" \
    relay_check halfclose-up
check "half-close gatekeeper first: EOF passed on, the upload still flows" \
    relay_check halfclose-down
check "gatekeeper resets: the client gets ECONNRESET" relay_check reset-gk
check "client resets: the gatekeeper side is closed (not kept for the linger)" \
    relay_check reset-client
check "nothing listens at corridor.sock: closed at once, then served" \
    relay_check dead-refused
check "corridor.sock missing: closed at once, then served" \
    relay_check dead-missing
check "4 MiB each way at once, byte-exact" relay_check duplex 4
check "4 MiB each way to a gatekeeper that reads late and little" \
    relay_check slow 4
check "4 MiB each way to a client with a 4 KiB window that reads late and little (TCP part-writes)" \
    relay_check slowclient 4
check "200 connections open at once, each to its own" relay_check many 200
check "cap: 256 carried, the 257th closed at once, a freed place reused" \
    relay_check cap 256
check "8080 reaches window.sock, 3128 does not" relay_check window
check "[::1]:3128 is carried too" relay_check v6
check "a dead gatekeeper is logged once per outage, tersely" \
    sh -c "test \$(grep -c 'corridor.sock' '$T/relay.err') -le 3"
check "the relay is still alive after all that" kill -0 $rpid
check "the relay holds no connection afterwards (fds back to idle)" \
    sh -c "n=\$(ls /proc/$rpid/fd | wc -l); test \$n -le 12"

kill $rpid; waitrc $rpid; s=$?
check "SIGTERM to the relay reaches the child (sleep dies: 143)" test $s = 143
check "... and the child is gone" sh -c "! kill -0 $cpid 2>/dev/null"
wait_for 5 relay_check refused


# Exit status and signals.
"$relay" -d "$T" -- sh -c 'exit 7' 2>/dev/null & p=$!
waitrc $p; check "the child's exit 7 is the relay's" test $? = 7
wait_for 5 relay_check refused
"$relay" -d "$T" -- sh -c 'kill -TERM $$' 2>/dev/null & p=$!
waitrc $p; check "a child killed by SIGTERM: the relay exits 143" test $? = 143
wait_for 5 relay_check refused
"$relay" -d "$T" -- /nonexistent/agent 2>"$T/exec.err" & p=$!
waitrc $p; check "a command that does not exist: exit 127" test $? = 127
check "... and it says so on stderr" grep -q nonexistent "$T/exec.err"
wait_for 5 relay_check refused

rm -f "$T/up"
"$relay" -d "$T" -- sh -c "trap 'exit 3' TERM; touch '$T/up';
    while :; do sleep 0.05; done" 2>/dev/null & p=$!
wait_for 5 test -e "$T/up"
kill -TERM $p; waitrc $p; s=$?
check "a child that handles SIGTERM decides the exit (3)" test $s = 3
wait_for 5 relay_check refused

# The command gets what the relay was given: signal mask and dispositions
# (the relay ignores SIGPIPE and blocks signals for itself), environment.
probe="grep -E '^Sig(Blk|Ign)' /proc/self/status; echo \$RELAY_ENV_PROBE"
want=$(RELAY_ENV_PROBE=x sh -c "$probe")
got=$(RELAY_ENV_PROBE=x "$relay" -d "$T" -- sh -c "$probe")
check "the child's signal mask, ignored signals and environment are its own" \
    test "$got" = "$want"
wait_for 5 relay_check refused

# Listeners before the child: its first act is a connect.
n=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$relay" -d "$T" -- "$rc_tool" first "$T" 2>>"$T/first.err" &&
	    n=$((n + 1))
done
check "the child's first connect to 127.0.0.1:3128 works (10 of 10)" \
    test $n = 10

# 127.0.0.1 taken: fatal, and the child never runs.
"$relay" -d "$T" -- sleep 600 2>/dev/null & holder=$!
wait_for 5 sh -c "grep -q ':0C38 ' /proc/net/tcp"
rm -f "$T/ran"
"$relay" -d "$T" -- touch "$T/ran" 2>"$T/taken.err"; s=$?
check "127.0.0.1:3128 taken: the relay fails" test $s != 0
check "... without running its child" test ! -e "$T/ran"
check "... and says which address" grep -q '127.0.0.1:3128' "$T/taken.err"
kill $holder; waitrc $holder 2>/dev/null

# IPv6 off in the container: IPv4 goes on, and stderr says so.
unshare -n sh -c "ip link set lo up
    echo 1 > /proc/sys/net/ipv6/conf/lo/disable_ipv6
    '$relay' -d '$T' -- '$rc_tool' first '$T'" 2>"$T/v4only.err"; s=$?
check "IPv6 off: the relay serves 127.0.0.1 and its child runs" test $s = 0
check "... and says IPv4 only on stderr" grep -q 'IPv4 only' "$T/v4only.err"

# -w: the space's folder, made before the child runs; one already there
# is fine; one that cannot be made is fatal, the child never runs.
(umask 022; "$relay" -d "$T" -w "$T/work" -- sh -c "test -d '$T/work' && touch '$T/ran-w'")
check "-w makes the folder before the child runs" test -e "$T/ran-w" -a -d "$T/work"
check "... mode 0755 under umask 022" test "$(stat -c %a "$T/work")" = 755
"$relay" -d "$T" -w "$T/work" -- true
check "-w with the folder already there: the child runs (exit 0)" test $? = 0
rm -f "$T/ran"
"$relay" -d "$T" -w "$T/none/work" -- touch "$T/ran" 2>"$T/w.err"; s=$?
check "-w that cannot be made: the relay fails" test $s != 0
check "... without running its child" test ! -e "$T/ran"
check "... and says which folder" grep -q "$T/none/work" "$T/w.err"

# The agent kills the relay: it only cuts itself off.  It asks until
# 3128 is refused (the relay's sockets close as it dies, a moment after
# the kill: a sleep of 0.3 s could be too short under load), 60 s at most.
rm -f "$T/alive"
"$relay" -d "$T" -- sh -c "kill -KILL \$PPID; i=0
    until '$rc_tool' refused '$T'; do
        i=\$((i + 1)); [ \$i -lt 600 ] || exit 1; sleep 0.1; done
    touch '$T/alive'" 2>/dev/null & p=$!
waitrc $p; s=$?
check "an agent may kill the relay (SIGKILL, 137)" test $s = 137
wait_for 70 test -e "$T/alive"
check "... and lives on, with 3128 refused" test -e "$T/alive"

finish
