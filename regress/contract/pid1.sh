#!/bin/sh
# A space's pid 1 killed under its streamed execs takes no worker down.
# spaced-ns kept, for each exec whose command ended before its stdin
# did, and for each refused exec with stdin, a registration that waited
# for the stdin's END; spaced closes both streams at the place's last
# word and forwards nothing more, so the END never came and each one
# stayed.  A space that kills its own pid 1 under execs (-i and -t),
# then opens more, filled the table of 64: spaced-ns died (fatalx
# "refuse: out stream") and spaced with it, for every user of the host.
# Here: execs with a stdin that never ends run in space A, its pid 1 is
# killed from the host, each exec ends, then 100 more execs with such a
# stdin are refused, one at a time; spaced and the place's worker are
# the same processes all along, status answers, space B runs a command,
# and A starts again and runs one.  Then from inside: on native the
# agent's own kill of its pid 1 is ignored by the kernel (the host's
# kill above is the control that it can die; on Docker docker-init
# passes SIGTERM on and the space stops, so it is started again); the
# execs' clients leave, and 100 execs of true whose stdin never ends,
# each command done before its stdin (the same leak with no death at
# all), exit 0.  Both places: this on Docker, native/pid1.sh on the
# native place.  About 20 s on native, two minutes on Docker.
. "$(dirname "$0")/lib.sh"

# pid1 ID: the host pid of the space's pid 1 (native: its init pid
# file; Docker: the container's State.Pid)
pid1() {
	case $PLACE in
	native) awk '{ print $1 }' "$NS_STATE/$1/init" 2>/dev/null ;;
	*) api_get "/containers/spaced-space-$1-space/json" |
	    jq -r '.State.Pid // 0' ;;
	esac
}
# worker: the pid of the place's worker, a child of spaced
worker() {
	case $PLACE in
	native) pgrep -P "$spaced_pid" -x spaced-ns | head -n 1 ;;
	*) pgrep -P "$spaced_pid" -x spaced-docker | head -n 1 ;;
	esac
}
# cats ID: how many commands named cat run in the space
cats() {
	case $PLACE in
	native) for c_p in $(ns_pids "$1" space); do
		cat "/proc/$c_p/comm" 2>/dev/null
	    done | grep -cx cat ;;
	*) api_get "/containers/spaced-space-$1-space/top" |
	    jq -r '.Processes[][-1]' 2>/dev/null | grep -cx cat ;;
	esac
}

A=$(sc create -n victim) || A=
B=$(sc create -n other) || B=
check "two spaces ($A, $B)" test -n "$A" -a -n "$B"
[ -n "$A" ] && [ -n "$B" ] || finish
wpid=$(worker)
check "the place's worker runs (pid $wpid)" test -n "$wpid"

# A stdin that never ends: a fifo this shell holds open both ways.
mkfifo "$T/hold"
exec 7<>"$T/hold"
# streamed ID TAG: four exec -i and two exec -t of cat in the space
streamed() {
	for s_n in 1 2 3 4; do
		sc exec -i "$1" -- cat <&7 >"$T/$2-i$s_n.out" 2>&1 &
		echo $! >>"$T/$2.pids"
	done
	for s_n in 1 2; do
		script -qfec "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec -t $1 -- cat" \
		    /dev/null <&7 >"$T/$2-t$s_n.out" 2>&1 &
		echo $! >>"$T/$2.pids"
	done
}
six_cats() { [ "$(cats "$A")" -ge 6 ]; }
all_ended() {
	for a_p in $(cat "$T/$1.pids"); do
		! kill -0 "$a_p" 2>/dev/null || return 1
	done
}
up() {
	kill -0 "$spaced_pid" 2>/dev/null &&
	    [ "$(worker)" = "$wpid" ]
}
# stopped ID: the place says the space no longer runs (show's state):
# the engine marks a container exited once containerd has reported its
# pid 1's end, a moment after the execs' streams ended under load.
stopped() {
	s_st=$(sc -j show "$1" 2>/dev/null | jq -r .state)
	[ -n "$s_st" ] && [ "$s_st" != running ]
}

# --- pid 1 killed from the host ------------------------------------------
streamed "$A" host
check "six streamed execs run cat in the space (4 -i, 2 -t)" wait_for 60 six_cats
p1=$(pid1 "$A")
check "the space's pid 1 is found on the host ($p1)" test -n "$p1" -a "$p1" != 0
kill -9 "$p1"
check "pid 1 killed from the host: each exec ends" wait_for 60 all_ended host
check "  spaced and its $PLACE worker are the same processes" up
# The execs below are asked of a space its place knows is down, each
# answered "not running" (before, the first could meet a container the
# engine still called running, and fail with another word).
check "  the place sees the space stopped" wait_for 60 stopped "$A"

# More execs with a stdin that never ends than the worker's table of 64
# streams holds, one at a time: each is answered.
n=0; answered=0
while [ $n -lt 100 ]; do
	n=$((n + 1))
	sc exec -i "$A" -- true <&7 >/dev/null 2>"$T/more.err"
	rc=$?
	grep -q 'not running\|not_running\|space_not' "$T/more.err" &&
	    answered=$((answered + 1))
	up || break
done
check "100 execs -i into the dead space each answered ($answered answered, rc of the last $rc)" \
    test "$answered" -eq 100
if ! up; then
	not_ok "  after them spaced and its worker are the same processes" \
	    "$(grep -i 'fatal\|refuse\|exited' "$sd/log" | tail -n 3)"
	finish
fi
ok "  after them spaced and its worker are the same processes"
check "  spacectl status answers" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' status >/dev/null"
out=$(sc exec "$B" -- echo other 2>&1)
check "  the other space runs a command ($out)" test "$out" = other
out=$(sc exec -i "$B" -- cat <<EOF 2>&1
streamed
EOF
)
check "  and a streamed one ($out)" test "$out" = streamed
check "  the killed space starts again" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' start $A >/dev/null"
out=$(sc exec "$A" -- echo again 2>&1)
check "  and runs a command ($out)" test "$out" = again

# --- the same from inside: the agent kills its own pid 1 ----------------
: >"$T/inside.pids"
streamed "$A" inside
check "six streamed execs run again" wait_for 60 six_cats
p1=$(pid1 "$A")
sc exec "$A" -- sh -c 'kill -TERM 1; kill -KILL 1; kill -INT 1' >/dev/null 2>&1
# Native: the kernel ignores a signal its pid 1 has no handler for.
# Docker: docker-init takes SIGTERM to its child, and the space stops:
# the agent ends its own space, nobody else's.
if [ "$PLACE" = native ]; then
	check "the agent's kill of its pid 1 from inside: the kernel ignores it" \
	    test "$(pid1 "$A")" = "$p1" -a "$(cats "$A")" -ge 6
fi
for s_p in $(cat "$T/inside.pids"); do kill "$s_p" 2>/dev/null; done
check "the agent's kill of its pid 1, the clients leave: each exec ends" \
    wait_for 60 all_ended inside
check "  spaced and its worker are the same processes" up
# Docker: the space stops once docker-init's child ended, which the
# engine notes a moment later (a look at pid 1 at once still found it,
# and the execs below met a space stopping under them).
if [ "$PLACE" = native ]; then
	[ "$(pid1 "$A")" = "$p1" ] || sc start "$A" >/dev/null
else
	check "  Docker: docker-init passed SIGTERM on, the space stopped" \
	    wait_for 60 stopped "$A"
	sc start "$A" >/dev/null
fi
# Each command ends before its stdin: the same leak without any death.
n=0; ended=0
while [ $n -lt 100 ]; do
	n=$((n + 1))
	sc exec -i "$A" -- true <&7 >/dev/null 2>&1 && ended=$((ended + 1))
	up || break
done
check "100 execs -i of true with a stdin that never ends: each exits 0 ($ended of $n)" \
    test "$ended" -eq 100
check "  spaced and its worker are the same processes" up
out=$(sc exec "$B" -- echo other 2>&1)
check "  the other space runs a command ($out)" test "$out" = other
exec 7>&-
sc remove "$A" >/dev/null
sc remove "$B" >/dev/null
finish
