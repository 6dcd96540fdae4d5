#!/bin/sh
# The kill of an exec against a command that races it.  On Docker an
# exec runs under the relay's subreaper (spaced-relay --exec), which
# exits the moment its command does; the kill (worker-docker/
# docker_execcall.c) stops that first process before anything else and
# kills the rest walk after walk, so that what a dying process leaves is
# adopted by a held subreaper and found by the next walk, never by the
# space's pid 1.  The race: an orphan of the command (a double fork, a
# session of its own, no environment) that forks without end, each
# child a few milliseconds old, so some are born after the kill's first
# walk read its parent.  Without the hold they land on pid 1, with no
# mark, in no exec's session, under no exec's process: nothing finds
# them (the control shows it, its command ended by hand); with it, the
# exec's -T leaves nothing.  A first process whose pid sorts after its
# command's (996 and 1002: /proc is read in the order of the names) is
# held all the same, before any kill.
. "$(dirname "$0")/lib.sh"

# The race (python3, the space image's): a child every 2 ms, sleep
# 1222 with an empty environment; a child older than 200 ms is ended
# and reaped, so some are always young and a few dozen are alive (the
# more, the longer a walk takes: a wider window for the race).
RACE='import os, time
k = []
while True:
    try:
        k.append((os.posix_spawn("/bin/sleep", ["sleep", "1222"], {}),
            time.monotonic()))
    except OSError:
        pass
    while len(k) > 1 and time.monotonic() - k[0][1] > 0.2:
        p = k.pop(0)[0]
        os.kill(p, 9)
        os.waitpid(p, 0)
    time.sleep(0.002)'
# The command: the race as a double fork's orphan that cleared its
# environment and left the session, 200 children (sleep 1223: a walk's
# kills take longer, a wider window for the subreaper to end in), then
# sleep 1221 (the command's first process, under the subreaper).
HOSTILE='(env -i setsid python3 -c "$1" killrace </dev/null >/dev/null 2>&1 &)
i=0
while [ $i -lt 200 ]; do sleep 1223 </dev/null >/dev/null 2>&1 & i=$((i + 1)); done
exec sleep 1221'

id=$(sc create -n killrace 2>"$T/create.err")
check "a space ($id)" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
[ -n "$id" ] || finish

# pids_of ARG...: the pids of the space's processes whose argv is ARG...
# exactly, one a line (a failed exec prints "failed": none is false,
# runs wants a pid); kill_all ARG...:
# SIGKILL to each.  One python3 over /proc, not a fork a process: the
# command's 200 children and the race's make a long list.
PROCS='import os, sys
for p in os.listdir("/proc"):
    try:
        a = open("/proc/%s/cmdline" % p, "rb").read()
    except OSError:
        continue
    if p.isdigit() and a.split(b"\0")[:-1] == [x.encode() for x in sys.argv[2:]]:
        if sys.argv[1] == "kill":
            try:
                os.kill(int(p), 9)
            except OSError:
                pass
        else:
            print(p)'
pids_of() {
	sc exec "$id" -n -- python3 -c "$PROCS" list "$@" || echo failed
}
runs() { pids_of "$@" | grep -qx '[0-9][0-9]*'; }
none() { [ -z "$(pids_of "$@")" ]; }
kill_all() { sc exec "$id" -n -- python3 -c "$PROCS" kill "$@"; }
# stat_of PID: "STATE PARENT SESSION" of a process of the space
stat_of() {
	sc exec "$id" -n -- sh -c 's=$(cat /proc/$1/stat) &&
	    s=${s##*) } && set -- $s && echo "$1 $2 $4"' _ "$1"
}
# mark_of PID: "marked" when the process has an exec's mark in its
# environment, else "clean"
mark_of() {
	sc exec "$id" -n -- sh -c 'tr "\0" "\n" </proc/$1/environ >/dev/null &&
	    if tr "\0" "\n" </proc/$1/environ | grep -q "^SPACED_EXEC="
	    then echo marked; else echo clean; fi' _ "$1"
}
# gone PID: no process of the space has the pid
gone() { sc exec "$id" -n -- test ! -e "/proc/$1"; }
# race T: the command in the background with -T T (its spacectl's pid
# in race_pid, its stderr in $T/race.err); it returns once the race runs.
# T is 30 s: the race must be seen running, and read (execs of a python
# over a long /proc, seconds each under load), before -T ends it.
race() {
	"$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$id" -n -T "$1" \
	    -- sh -c "$HOSTILE" _ "$RACE" >/dev/null 2>"$T/race.err" &
	race_pid=$!
	wait_for 60 runs sleep 1222
}

# A first process whose pid sorts after its command's: the subreaper at
# 996, its command 6 pids on (the threads of runc's init take the ones
# between), past 1000.  Threads of python3 take each pid up to 995, less
# the pids a try saw taken by nothing of ours (its first argument): under
# load runc's init starts more threads, 8 more in every try of a CI run.
# So a miss measures them and the next try, at the next power of ten or,
# past pid_max, around at 1000 again, aims that much lower.  The space's
# health check, an exec every 10 s, is waited for first.  Then the
# subreaper is killed last but must be held first: in the walk's order
# the command, its children and the race's are killed before it.
BURN='import sys, threading, time
def last():
    with open("/proc/sys/kernel/ns_last_pid") as f:
        return int(f.read())
def take(n):
    while last() < n:
        for i in range(1 if n - 60 < last() else 50):
            spend()
def spend():
    th = threading.Thread(target=int)
    th.start()
    th.join()
t = 1000
while t <= last() + 100:
    t *= 10
with open("/proc/sys/kernel/pid_max") as f:
    if t >= int(f.read()):
        t = 1000
        while last() >= t - 100:
            spend()
t -= 5 + int(sys.argv[1])
print(t)
take(t - 40)
b, w = last(), time.monotonic()
while last() == b and time.monotonic() - w < 15:
    time.sleep(0.02)
b, q = last(), time.monotonic()
while time.monotonic() - q < 0.5:
    time.sleep(0.02)
    if last() != b:
        b, q = last(), time.monotonic()
take(t)'
if [ "$PLACE" = docker ]; then
	extra=0 first= cmd= sub=
	for try in 1 2 3 4 5 6; do
		aim=$(sc exec "$id" -n -- python3 -c "$BURN" "$extra")
		race 30
		cmd=$(pids_of sleep 1221)
		sub=$(stat_of "${cmd:-0}" | cut -d' ' -f2)
		first=$(printf '%s\n%s\n' "$sub" "$cmd" | LC_ALL=C sort |
		    head -n 1)
		[ -n "$cmd" ] && [ "$first" = "$cmd" ] && break
		echo "# not arranged: aimed $aim, the command $cmd, its first process $sub"
		# (its client leaves: the same kill as -T's, without its wait)
		kill "$race_pid" 2>/dev/null
		wait "$race_pid"
		race_pid=
		case $aim$sub in
		*[!0-9]*|'') ;;
		*)	extra=$((sub - aim - 1))
			[ "$extra" -ge 0 ] || extra=0
			[ "$extra" -le 30 ] || extra=30;;
		esac
		kill_all sleep 1222
		kill_all sleep 1223
	done
	check "control: the command ($cmd) sorts before its first process ($sub)" \
	    test -n "$cmd" -a -n "$sub" -a "$first" = "$cmd"
	rc=
	[ -z "$race_pid" ] || { wait "$race_pid"; rc=$?; }
	check "-T of the race, its first process after its command: command_timeout (125)" \
	    sh -c "test '$rc' = 125 && grep -q 'it was ended in the space' '$T/race.err'"
	check "  nothing it forked runs on (its first process held before any kill)" \
	    none sleep 1222
	check "  nor the race" none python3 -c "$RACE" killrace
	check "  nor the command's children" none sleep 1223
	kill_all sleep 1222
fi

# The control: the first process not held.  Its command ended by hand,
# the subreaper ends with it (the exec's status is the command's); the
# race then ended, the children it had are pid 1's, with nothing a kill
# reads: no mark, a session no exec's first process leads, no parent of
# the exec.
race 300
check "control: before its time the race runs" runs python3 -c "$RACE" killrace
cmd=$(pids_of sleep 1221)
sub=$(stat_of "$cmd" | cut -d' ' -f2)
o=$(pids_of python3 -c "$RACE" killrace)
check "control: the race is an orphan the first process adopted" \
    test "$(stat_of "$o" | cut -d' ' -f2)" = "$sub"
kill_all sleep 1221
wait "$race_pid"
rc=$?
check "control: its command killed, the exec ends with it (137)" \
    test "$rc" -eq 137
check "control: ... its first process is gone ($sub)" gone "${sub:-1}"
kill_all python3 -c "$RACE" killrace
kid=$(pids_of sleep 1222 | head -n 1)
check "control: what the race had made runs on ($kid)" test -n "$kid"
st=$(stat_of "${kid:-0}")
check "control: ... its parent is pid 1 ($st)" \
    test "$(echo "$st" | cut -d' ' -f2)" = 1
check "control: ... in the race's session, which no exec's first process leads" \
    test "$(echo "$st" | cut -d' ' -f3)" = "$o"
check "control: ... with no mark in its environment" \
    test "$(mark_of "${kid:-0}")" = clean
kill_all sleep 1222
kill_all sleep 1223
check "control: nothing of it is left" none sleep 1222

# The kill: -T ends the race with all it forked while being killed.
race 30
check "before its time the race runs" runs python3 -c "$RACE" killrace
wait "$race_pid"
rc=$?
check "-T of the race: command_timeout (125), ended in the space" \
    sh -c "test $rc -eq 125 && grep -q 'it was ended in the space' '$T/race.err'"
check "  nothing it forked while it was killed runs on" none sleep 1222
check "  nor the race" none python3 -c "$RACE" killrace
check "  nor its command" none sleep 1221
check "  nor the command's children" none sleep 1223
kill_all sleep 1222

sc remove "$id" >/dev/null
finish
