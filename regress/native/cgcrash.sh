#!/bin/sh
# A spaced-ns killed (SIGKILL) with a space running: spaced ends with
# its worker (it cannot keep its word without it), the space dies with
# spaced-ns, and its groups stay, empty, under /sys/fs/cgroup/*/spaced-ns/.
# Its state goes (as a suite's temp folder does), so no spaced-ns of that
# state ever ends them; the next spaced-ns to start, of another state,
# removes them.  Every spaced-ns of the host shares spaced-ns/, so it
# never touches a group another may own: a pair of which one group
# still has a process (a live space, its gatekeeper's group empty), a
# pair no process ever joined (one being made), and a spent pair made
# in the last seconds (a start's groups made again, not yet joined)
# stay, planted here under ids no spaced knows.  The others are aged
# (their mtime an hour back), as a crash's leftovers are by the next
# start.
. "$(dirname "$0")/lib.sh"

native_begin cgcrash
native_space cgcrash
cg() { echo "/sys/fs/cgroup/$1/spaced-ns/$2"; }
groups_of() {	# groups_of ID: the groups of a space's pair that exist
	for g_c in memory pids cpu; do
		for g_g in "$1" "$1-gk"; do
			[ -d "$(cg $g_c "$g_g")" ] && echo "$g_c/$g_g"
		done
	done
}
empty_pair() {
	for e_g in "$1" "$1-gk"; do
		[ -z "$(cat "$(cg pids "$e_g")/cgroup.procs" 2>/dev/null)" ] ||
		    return 1
	done
}
check "control: the space runs in its groups" \
    test -n "$(cat "$(cg pids "$A")/cgroup.procs")"

# A holder of the suite's in the gatekeeper's group keeps the pair from
# any spaced-ns's sweep (suites run beside others) until the control
# below has seen the groups stay.
sleep 86396 &
holder=$!
for c in memory pids cpu; do echo "$holder" >"$(cg $c "$A-gk")/cgroup.procs"; done
nsp=$(sc status | awk '$1 == "spaced-ns" { print $2 }')
check "spaced-ns runs ($nsp)" test -n "$nsp"
kill -9 "$nsp"
spaced_gone() { ! kill -0 "$spaced_pid" 2>/dev/null; }
check "spaced ends with its worker" wait_for 30 spaced_gone
stop_spaced
held_only() {
	[ -z "$(cat "$(cg pids "$A")/cgroup.procs" 2>/dev/null)" ] &&
	    [ "$(cat "$(cg pids "$A-gk")/cgroup.procs" 2>/dev/null)" = "$holder" ]
}
check "the space died with spaced-ns: its pair holds the holder alone" \
    wait_for 30 held_only
groups_of "$A" >"$T/left"
check "control: its six groups stay after the kill (memory, pids, cpu)" \
    test "$(wc -l <"$T/left")" -eq 6
kill "$holder"
wait "$holder" 2>/dev/null
check "then its pair is empty" wait_for 30 empty_pair "$A"

# Planted under ids no spaced knows: a live pair (a process in the
# space's groups; the gatekeeper's held one that ended) and a pair
# being made (no process ever joined).
live=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
made=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
# And a gatekeeper's group left alone, spent (its space's group gone):
# a leftover too.
lone=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
# And a spent pair made just now: a start's, made again for its join.
young=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
for c in memory pids cpu; do
	for g in "$live" "$live-gk" "$made" "$made-gk" "$lone-gk" \
	    "$young" "$young-gk"; do
		mkdir "$(cg $c "$g")"
	done
done
for g in "$lone-gk" "$young" "$young-gk"; do
	sh -c 'for c in memory pids cpu; do echo $$ >"$1/$c/spaced-ns/$2/cgroup.procs"; done' \
	    sh /sys/fs/cgroup "$g"
done
sleep 86397 &
sleeper=$!
for c in memory pids cpu; do echo "$sleeper" >"$(cg $c "$live")/cgroup.procs"; done
sh -c 'for c in memory pids cpu; do echo $$ >"$1/$c/spaced-ns/$2/cgroup.procs"; done' \
    sh /sys/fs/cgroup "$live-gk"
plant_end() {
	kill "$holder" "$sleeper" 2>/dev/null
	wait "$sleeper" 2>/dev/null
	for c in memory pids cpu; do
		for g in "$live" "$live-gk" "$made" "$made-gk" "$lone-gk" \
		    "$young" "$young-gk"; do
			rmdir "$(cg $c "$g")" 2>/dev/null
		done
	done
}
at_finish plant_end
check "control: the live pair's gatekeeper group held a process, now none" \
    sh -c "[ \"\$(cat '$(cg pids "$live-gk")/pids.peak')\" -gt 0 ] &&
    [ -z \"\$(cat '$(cg pids "$live-gk")/cgroup.procs')\" ]"

check "control: the young pair held a process, now none" \
    sh -c "[ \"\$(cat '$(cg pids "$young")/pids.peak')\" -gt 0 ] &&
    [ -z \"\$(cat '$(cg pids "$young")/cgroup.procs')\" ]"
# Aged: every group but the young pair's, as a crash's are by the next
# start (the sweep spares a group made in the last seconds).  The young
# pair's mtime an hour ahead: young however slow the start below is.
now=$(date +%s)
for c in memory pids cpu; do
	for g in "$A" "$A-gk" "$live" "$live-gk" "$made" "$made-gk" \
	    "$lone-gk"; do
		touch -d "@$((now - 3600))" "$(cg $c "$g")"
	done
	for g in "$young" "$young-gk"; do
		touch -d "@$((now + 3600))" "$(cg $c "$g")"
	done
done

# The crashed spaced's state is gone; a spaced of another state starts.
rm -rf "$T/sd/state"
SPACED_EXTRA_CONF="install id $IID
default place native"
start_spaced "$T/sd2" || { not_ok "a spaced of another state starts"; finish; }
# spaced-ns sweeps before it says it is ready, spaced before it says
# its workers are confined: start_spaced waited for that.
groups_of "$A" >"$T/left"
sed 's/^/# left: /' "$T/left"
check "the crashed space's groups are gone" test ! -s "$T/left"
check "a live pair stays (its process in it)" \
    test "$(groups_of "$live" | wc -l)" -eq 6
check "  and its process runs on" kill -0 "$sleeper"
check "a pair no process joined yet stays" \
    test "$(groups_of "$made" | wc -l)" -eq 6
check "a gatekeeper's spent group left alone is gone too" \
    test -z "$(groups_of "$lone")"
check "a spent pair made in the last seconds stays (a start's, not joined yet)" \
    test "$(groups_of "$young" | wc -l)" -eq 6
A=
finish
