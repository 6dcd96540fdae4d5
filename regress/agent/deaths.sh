#!/bin/sh
# A create or start whose agent's server cannot start ends early, naming
# why (space_server_failed): the test agent (hostile-server/) carries
# 200 MB of ballast, so in a 64 MiB space the kernel kills it for memory
# each time it starts; the relay starts it again with its backoff, and
# each death is a restart record the journal keeps and an event.  Three
# deaths end the wait, long before its end: the order of events is
# checked (the error names N deaths, events -f saw N restarts of the
# space before the answer), not a duration.  The memory is named, with
# the -m advice; a create is undone as any failed one (no space,
# container, cgroup or folder left), a start stops the space.  The same
# create with 512 MiB is the control (ready, no restart), and beside the
# small create its space's starts: three deaths of its past do not end a
# start (the start counts its own run's), then a ballast larger than it
# ($HOME/.hostile-ballast-mb) ends its start.  On the native place
# (native/deaths.sh) also: three restarts spaced-ns reads in one go
# count three.  Then a server killed once, then ready: the create stands
# (one death ends nothing); and one killed once and never ready: the
# wait's end names the memory as well, the 512 MiB control beside it.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/hostile.sh"
# The spec's wait (120 s): before the fix the small create took it all.
SPACED_AGENT_CONF=$(profile "agent hostile env HOSTILE_BALLAST_MB=200
agent hostile ready wait 120")
# The collector's turns never come during the suite: the deaths must be
# seen by the create's and start's own collections.
SPACED_EXTRA_CONF="journal interval 3600"
. "$dir/../contract/lib.sh"

sj() { sc -j "$@"; }
# field ID JQ: a field of show -j
field() { sj show "$1" 2>/dev/null | jq -r "$2"; }

check "npm packed the test agent" test -s "$TGZ"

# --- 64 MiB: the server dies each time it starts; 512 MiB beside it ---------
sc events -f -j >"$T/events" 2>&1 &
evpid=$!
at_finish 'kill $evpid 2>/dev/null'
(sc create -n small -m 64m >"$T/small.out" 2>"$T/small.err"; echo $? >"$T/small.rc") &
smallpid=$!

# The control, meanwhile: enough memory, a server that starts once.
t0=$(date +%s)
B=$(sc create -n roomy -m 512m) || B=
echo "# a healthy create took $(($(date +%s) - t0)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
check "control: the same create with 512 MiB succeeds ($B)" test -n "$B"
check "  its server answers" sc server "$B" GET /health
# A stop collects the space's restarts first: show counts them then.
check "  stopped" sc stop "$B"
check "  and it never died (show: 0 restarts)" sh -c \
    "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show '$B' | jq -r .restarts)\" = 0 ]"

# --- a start counts its own run's deaths -------------------------------------
# The control space, beside the small create: three deaths (the server
# killed from inside, seen restarted each time), then the space stopped
# behind spaced's back, so no stop of spaced's collected them, and a
# start whose server answers "not ready" at first: the space's journal
# holds three deaths, none of this start's; the start goes on, and
# stands once the server answers ready.
check "start: a healthy start" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' start '$B' >/dev/null"
serverpid() { sc server "$B" GET /pid 2>/dev/null | jq -r .pid; }
for k in 1 2 3; do
	p=$(serverpid)
	check "  its server (pid $p) killed from inside ($k)" sc exec "$B" -- sh -c "kill -9 $p"
	wait_for 60 sh -c "q=\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' server '$B' GET /pid 2>/dev/null | jq -r .pid); [ -n \"\$q\" ] && [ \"\$q\" != '$p' ]"
done
check "  not ready at its next start" sc exec "$B" -- sh -c 'echo notready >"$HOME/.hostile-mode"'
asked=$(sc exec "$B" -- sh -c 'grep -c "GET /health" "$HOME/.hostile-asked"')
stop_behind "$B" space
(sc start "$B" >"$T/start.out" 2>"$T/start.err"; echo $? >"$T/start.rc") &
startpid=$!
wait_for 60 sh -c "n=\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$B' -- sh -c 'grep -c \"GET /health\" \"\$HOME/.hostile-asked\"'); [ \"\${n:-0}\" -gt '${asked:-0}' ]"
check "  asked and not ready: now ready" sc exec "$B" -- sh -c 'rm "$HOME/.hostile-mode"'
wait $startpid
sed 's/^/# /' "$T/start.err"
check "control: a start after three deaths of the space's past stands (exit $(cat "$T/start.rc"))" \
    sh -c "[ \"\$(cat '$T/start.rc')\" = 0 ]"
check "  not ended by the space's past deaths" sh -c "! grep -q space_server_failed '$T/start.err'"
check "  the start collected them first (show: 3 restarts)" sh -c \
    "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show '$B' | jq -r .restarts)\" = 3 ]"

# --- native: restarts spaced-ns reads in one go each count --------------------
# spaced-ns stopped (SIGSTOP) while the server is killed three times from
# the host, each restart seen (a new server process): the relay's three
# lines wait in its pipe and are read in one go at SIGCONT.  Before, all
# three had the time of that read and the journal kept one.
if [ "$PLACE" = native ]; then
	# Not while the small create runs: its execs go through spaced-ns.
	wait $smallpid
	nspid=$(pgrep -P "$spaced_pid" -x spaced-ns | head -n 1)
	node_of() { for p in $(ns_pids "$B" space); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = node ] && echo $p; done | head -n 1; }
	p=$(node_of)
	check "burst: the server's host pid ($p), spaced-ns stopped ($nspid)" \
	    sh -c "[ -n '$p' ] && [ -n '$nspid' ] && kill -STOP '$nspid'"
	for k in 1 2 3; do
		kill -9 "$p"
		wait_for 60 sh -c "for q in \$(cat '$(ns_cg pids "$B")/cgroup.procs'); do
		    [ \"\$(cat /proc/\$q/comm 2>/dev/null)\" = node ] && [ \$q != $p ] && exit 0; done; exit 1"
		p=$(node_of)
		check "  killed, started again ($k: pid $p)" test -n "$p"
	done
	kill -CONT "$nspid"
	check "  stopped: its journal counts the three (show: 6 restarts)" sh -c \
	    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' stop '$B' &&
	    [ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show '$B' | jq -r .restarts)\" = 6 ]"
	sc -j show "$B" | jq -c '{restarts}' | sed 's/^/# /'
	check "  started again" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' start '$B' >/dev/null"
fi

# --- a start whose server dies at each start -----------------------------------
# A number in $HOME/.hostile-ballast-mb: the ballast of every start,
# 600 MB in its 512 MiB.
check "start: the server's ballast at every start from now" \
    sc exec "$B" -- sh -c 'echo 600 >"$HOME/.hostile-ballast-mb"'
check "  stopped" sc stop "$B"
before=$(wc -l <"$T/events")
t0=$(date +%s)
sc start "$B" >"$T/dying.out" 2>"$T/dying.err"
rc=$?
echo "# the start ended after $(($(date +%s) - t0)) s (its wait: 120 s)"
sed 's/^/# /' "$T/dying.err"
check "start: the start fails (exit 1, was $rc)" test "$rc" = 1
check "start: named: space_server_failed, the deaths counted" grep -Eq \
    "^spacectl: space_server_failed: the agent's server died [0-9]+ times as it started and was never ready" \
    "$T/dying.err"
check "start: the memory named, with its limit and the -m advice" grep -Eq \
    "; the space ran out of memory \(its limit is 512 MiB\): the kernel killed in it; a space made with a larger spacectl create -m has more" \
    "$T/dying.err"
lacks "  not the deadline's words" "$T/dying.err" -e space_server_not_ready -e 'after [0-9]* s'
n=$(sed -n "s/.*server died \([0-9]*\) times.*/\1/p" "$T/dying.err")
seen=$(tail -n +$((before + 1)) "$T/events" | jq -r --arg s "$B" 'select(.kind == "restart" and .space == $s) | .space' | wc -l)
check "  before the answer: as many restarts of this start as the error names, at least 3 ($seen seen, ${n:-none} named)" \
    sh -c "[ -n '$n' ] && [ '$n' -ge 3 ] && [ '$seen' -ge '$n' ]"
check "  no start event" sh -c "! tail -n +$((before + 1)) '$T/events' |
    jq -e --arg s '$B' 'select(.kind == \"start\" and .space == \$s)' >/dev/null"
check "  spaced stopped it (its log: space_server_failed, stopping it; show: exited)" sh -c \
    "grep -q 'space $B: space_server_failed (.*): stopping it' '$T/sd/log' &&
    [ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show '$B' | jq -r .state)\" = exited ]"
check "  removed" sc remove "$B"

wait $smallpid 2>/dev/null
rc=$(cat "$T/small.rc")
sed 's/^/# /' "$T/small.err"
check "the create fails (exit 1, was $rc), printing no ID" \
    sh -c "[ $rc = 1 ] && ! test -s '$T/small.out'"
check "named: space_server_failed, the deaths counted" grep -Eq \
    "^spacectl: space_server_failed: the agent's server died [0-9]+ times as it started and was never ready" \
    "$T/small.err"
check "the memory named, with its limit and the -m advice" grep -Eq \
    "; the space ran out of memory \(its limit is 64 MiB\): the kernel killed in it; a space made with a larger spacectl create -m has more" \
    "$T/small.err"
lacks "not the deadline's words (space_server_not_ready, \"after 120 s\")" \
    "$T/small.err" -e space_server_not_ready -e 'after [0-9]* s'
n=$(sed -n "s/.*server died \([0-9]*\) times.*/\1/p" "$T/small.err")
S=$(jq -r --arg b "$B" 'select(.kind == "restart" and .space != $b) | .space' "$T/events" | head -n 1)
check "events -f saw the server's restarts of the space ($S)" test -n "$S"
seen=$(jq -r --arg s "$S" 'select(.kind == "restart" and .space == $s) | .detail' "$T/events" | wc -l)
check "before the answer: as many restarts as the error names, at least 3 ($seen seen, ${n:-none} named)" \
    sh -c "[ -n '$n' ] && [ '$n' -ge 3 ] && [ '$seen' -ge '$n' ]"
check "each a death of the server: killed (signal 9)" sh -c \
    "jq -r --arg s '$S' 'select(.kind == \"restart\" and .space == \$s) | .detail' '$T/events' |
    grep -Evqx 'hostile-server restart [0-9]+ signal 9 backoff [0-9]+' && exit 1 || exit 0"
check "no create event: the create did not stand" sh -c \
    "! jq -e --arg s '$S' 'select(.kind == \"create\" and .space == \$s)' '$T/events' >/dev/null"
check "spaced undid it (its log: space_server_failed, removing it)" \
    grep -q "space $S: space_server_failed (.*): removing it" "$T/sd/log"

# --- undone: nothing left ----------------------------------------------------
check "list shows no space" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j list | jq -e 'length == 0' >/dev/null"
check "the space is gone from the place (space and gatekeeper)" \
    sh -c "[ -n '$S' ]" && check "  space" gone "$S" space &&
    check "  gatekeeper" gone "$S" gatekeeper
kill $evpid 2>/dev/null
wait $evpid 2>/dev/null

# --- killed once, then ready: one death does not end a create ---------------
# The test agent's ballast at its first start alone (HOSTILE_BALLAST_ONCE).
stop_spaced
SPACED_AGENT_CONF=$(profile "agent hostile env HOSTILE_BALLAST_MB=200
agent hostile env HOSTILE_BALLAST_ONCE=1
agent hostile ready wait 120")
start_spaced "$T/sd" || { not_ok "spaced starts again"; finish; }
C=$(sc create -n once -m 64m 2>"$T/once.err") || C=
sed 's/^/# /' "$T/once.err"
check "killed once, then ready: the create stands ($C)" test -n "$C"
check "  stopped (its restarts collected)" sc stop "$C"
check "  its server died once (show: 1 restart)" sh -c \
    "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show '$C' | jq -r .restarts)\" = 1 ]"

check "  removed" sc remove "$C"

# --- killed once, then never ready --------------------------------------------
# OpenCode in 192 MiB is killed once, then crawls: no second death, the
# wait's whole time.  The test agent's ballast at its first start alone,
# then it answers "not ready": the wait's end names the memory too; in
# 512 MiB (the control) nothing of memory.  The two side by side.  The
# wait (60 s) must hold the death: node's start with its ballast took
# over 8 s on a loaded machine, two creates at once beside it.
stop_spaced
SPACED_AGENT_CONF=$(profile "agent hostile env HOSTILE_BALLAST_MB=200
agent hostile env HOSTILE_BALLAST_ONCE=1
agent hostile env HOSTILE_DEFAULT_MODE=notready
agent hostile ready wait 60")
start_spaced "$T/sd" || { not_ok "spaced starts again"; finish; }
(sc create -n starved -m 64m >"$T/st.out" 2>"$T/st.err"; echo $? >"$T/st.rc") &
stpid=$!
sc create -n fed -m 512m >"$T/fed.out" 2>"$T/fed.err"
rc=$?
wait $stpid
sed 's/^/# /' "$T/st.err"
check "killed once, then never ready: space_server_not_ready (exit $(cat "$T/st.rc"))" \
    grep -q "^spacectl: space_server_not_ready: the server inside was not ready after" "$T/st.err"
check "never ready: the memory named too, with the -m advice" grep -Eq \
    "; the space ran out of memory \(its limit is 64 MiB\): the kernel killed in it; a space made with a larger spacectl create -m has more" \
    "$T/st.err"
sed 's/^/# /' "$T/fed.err"
check "control: in 512 MiB it is never ready as well (exit $rc)" \
    grep -q "^spacectl: space_server_not_ready: the server inside was not ready after" "$T/fed.err"
lacks "  and nothing is said of memory" "$T/fed.err" -e memory
check "list shows no space after either" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j list | jq -e 'length == 0' >/dev/null"

[ "$PLACE" = native ] ||
for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
rm -rf "$tgzdir"
finish
