#!/bin/sh
# The place contract, fixed, run through spacectl against the real engine
# (DESIGN.md "Places": a place is done when this and the escape suite
# pass against it).  The spec's assertions, the gatekeeper's three among
# them, and the issue's: labels and ownership, damaged and repaired,
# changed behind spaced's back and refused.  Everything it makes it
# removes; finish fails the suite when anything with its owner remains.
. "$(dirname "$0")/lib.sh"

j() { jq -r "$@"; }

# check
sc -j check >"$T/check.json"
check "check: available" test "$(j .available "$T/check.json")" = true
check "check: hostIsolation by construction" \
    test "$(j .hostIsolation "$T/check.json")" = true
check "check: a version" test -n "$(j .version "$T/check.json")"

# create prints the id alone
sc create -n "contract, space" -m 512m >"$T/id" 2>"$T/create.err"
id=$(cat "$T/id")
check "create prints a 12-hex id alone ($id)" \
    sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
check "create says nothing else on stdout" test "$(wc -l <"$T/id")" -eq 1

sc -j show "$id" >"$T/show.json"
check "show: name kept" test "$(j .name "$T/show.json")" = "contract, space"
check "show: memory 512m" test "$(j .memory "$T/show.json")" = 536870912
check "show: running" test "$(j .state "$T/show.json")" = running
check "show: gatekeeper running" \
    test "$(j .gatekeeper "$T/show.json")" = running
check "show: not damaged" test "$(j .damaged "$T/show.json")" = false
check "show: created is an ISO time" \
    sh -c "j() { jq -r \"\$@\"; }; j .created '$T/show.json' | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T'"

sc -j list >"$T/list.json"
check "list: the space is in it" \
    test "$(j --arg i "$id" '[.[] | select(.id == $i)] | length' "$T/list.json")" = 1
check "list: fields of the contract" \
    test "$(j --arg i "$id" '.[] | select(.id == $i) |
    [has("id","name","project","created","state","orphans","damaged","missing")] | all' "$T/list.json")" = true

check "verify: empty means verified" sc verify "$id"
sc -j verify "$id" >"$T/verify.json"
check "verify -j: an empty list" test "$(j length "$T/verify.json")" = 0

# The owner and role on every resource, read behind spaced (the place's
# own record: Docker's labels, the native record).
for n in space gatekeeper; do
	check "labels: $n owner is this install and uid" \
	    test "$(owner_of "$id" "$n")" = "$OWNER_ROOT"
	check "labels: $n role" test "$(role_of "$id" "$n")" = "$n"
done

# exec: argv, stdin, exit code; the space user
check "exec: runs as the space's own uid on the host, from the reserved range" \
    test "$(host_uid "$id")" = "$(space_uid "$id")"
check "exec: stdin passes through" \
    test "$(printf 'in put\n' | sc exec "$id" -- cat)" = "in put"
sc exec "$id" -- sh -c 'exit 7'
check "exec: the command's exit code" test $? -eq 7
sc exec "$id" -- sh -c 'kill -TERM $$'
check "exec: a command ended by a signal exits 128+n (SIGTERM: 143)" \
    test $? -eq 143
out=$(sc exec "$id" -- sh -c 'echo out; echo err >&2' 2>"$T/err")
check "exec: stdout and stderr apart" \
    sh -c "test '$out' = out && grep -qx err '$T/err'"

sc exec "$id" -T 1 -- sleep 30 2>"$T/err"
check "exec -T: the time limit ends it (command_timeout, 125)" \
    sh -c "test $? -eq 125 && grep -q command_timeout '$T/err'"
# ... and the command is gone from the space, though it ignores SIGTERM,
# with every process it started (the Docker engine cannot end an exec:
# spaced-docker ends from inside what holds the exec's mark, its session
# and their descendants; spaced-ns's keeper its whole tree); a command
# beside it, of another exec, is not touched; its client leaving ends
# that one too.
# runs_in ARGS: "yes" when a process of the space has exactly "ARGS " as
# its argv, else "no" (nothing when the exec failed)
runs_in() {
	sc exec "$id" -n -- sh -c 'for f in /proc/[0-9]*/cmdline; do
	    [ "$(tr "\0" " " <$f 2>/dev/null)" = "$1 " ] && { echo yes; exit; }
	    done; echo no' _ "$1"
}
runs_is() { [ "$(runs_in "$1")" = "$2" ]; }
# orphan_of ARGS: what the process of the space whose argv is ARGS
# left behind, "ENV SID PARENT": ENV clean (no SPACED_EXEC in its
# environment) or marked; SID own (it leads its session) or shared;
# PARENT init (pid 1), exec (a process whose parent is 0: started from
# outside the space, an exec's first process) or other; none when no
# process has that argv
orphan_of() {
	sc exec "$id" -n -- sh -c 'for f in /proc/[0-9]*/cmdline; do
	    [ "$(tr "\0" " " <$f 2>/dev/null)" = "$1 " ] || continue
	    d=${f%/cmdline} e=clean sid=shared par=other
	    tr "\0" "\n" <$d/environ | grep -q "^SPACED_EXEC=" && e=marked
	    s=$(cat $d/stat); s=${s##*) }; set -- $s
	    [ "$4" = "${d#/proc/}" ] && sid=own
	    if [ "$2" = 1 ]; then par=init
	    else q=$(cat /proc/$2/stat); q=${q##*) }; set -- $q
	        [ "$2" = 0 ] && par=exec; fi
	    echo "$e $sid $par"; exit; done; echo none' _ "$1"
}
# kill_in ARGS: SIGKILL to the processes of the space whose argv is ARGS
# (what a place is known to leave behind)
kill_in() {
	sc exec "$id" -n -- sh -c 'for f in /proc/[0-9]*/cmdline; do
	    [ "$(tr "\0" " " <$f 2>/dev/null)" = "$1 " ] &&
	    kill -KILL "$(basename "${f%/cmdline}")"; done; true' _ "$1"
}
# (spacectl itself in the background: $! is its pid, not a subshell's)
# The command beside sets a process of its own apart too: the kill of
# another exec leaves it as it leaves the command.
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$id" -n -- sh -c \
    'setsid sleep 1211 >/dev/null 2>&1 & exec sleep 1201' >/dev/null 2>&1 &
beside=$!
wait_for 60 runs_is "sleep 1201" yes
wait_for 60 runs_is "sleep 1211" yes
# -T 10: its time must outlast the exec's create and start (over 3 s at
# load 20): ended before the engine had made it, it is "cannot end it"
# (nothing to find yet), not "ended in the space".
sc exec "$id" -n -T 10 -- sh -c 'trap "" TERM; exec sleep 1202' 2>"$T/err"
rc=$?
check "exec -T of a command that ignores SIGTERM: command_timeout (125)" \
    sh -c "test $rc -eq 125 && grep -q 'command_timeout: the command ran past its time' '$T/err'"
check "  and it no longer runs in the space" runs_is "sleep 1202" no
[ "$PLACE" != docker ] ||
	check "  Docker says it was ended" grep -q 'it was ended in the space' "$T/err"
# (the children's output goes elsewhere: were they left, the exec would
# wait for them on the native place, rather than go red)
sc exec "$id" -n -T 10 -- sh -c 'trap "" TERM; sleep 1203 >/dev/null 2>&1 &
    sleep 1204 >/dev/null 2>&1; wait' 2>/dev/null
check "  its children too (the command's session)" runs_is "sleep 1203" no
check "  ... both of them" runs_is "sleep 1204" no
# What left the command's session (setsid), what a double fork orphaned,
# and what also cleared its environment: the kill is the whole command's.
# Their output goes elsewhere, so that the command's end is its first
# process's, on every place.  The command runs in the background until
# its time is out, and what it set apart is seen running first (and
# read: 30 s leave room for six execs under two lanes' load, an exec
# took over 3 s at load 20; one that ran out first turns a control
# red, never a check green).
ESC='setsid sleep 1205 >/dev/null 2>&1 &
sh -c "(setsid sleep 1206 >/dev/null 2>&1 &) &"
env -i setsid sleep 1207 >/dev/null 2>&1 &
sh -c "(env -i setsid sleep 1208 >/dev/null 2>&1 &) &"
exec sleep 1209'
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$id" -n -T 30 -- \
    sh -c "$ESC" >/dev/null 2>"$T/err" &
timed=$!
check "  control: before its time, what left its session runs (setsid)" \
    wait_for 60 runs_is "sleep 1205" yes
check "  control: ... and what a double fork orphaned" \
    wait_for 60 runs_is "sleep 1206" yes
check "  control: ... and what cleared its environment, as a child" \
    wait_for 60 runs_is "sleep 1207" yes
check "  control: ... and as an orphan" wait_for 60 runs_is "sleep 1208" yes
# The orphan really left the command: no mark in its environment, a
# session of its own, and a parent that is none of the command's
# processes (a double fork): the exec's first process, started from
# outside the space (its parent 0: on Docker the relay's subreaper, on
# native the keeper), or the space's pid 1 had nothing adopted it.
orph=$(orphan_of "sleep 1208")
check "  control: the orphan's environment holds no mark ($orph)" \
    test "${orph%% *}" = clean
check "  control: ... it leads a session of its own" \
    sh -c "echo '$orph' | grep -q ' own '"
check "  control: ... its parent is none of the command's (the exec's first process or pid 1)" \
    sh -c "echo '$orph' | grep -Eq ' (exec|init)\$'"
check "  the exec's first process adopted it (a subreaper)" \
    sh -c "echo '$orph' | grep -q ' exec\$'"
wait "$timed"
rc=$?
check "exec -T of a command that set processes apart: command_timeout (125)" \
    sh -c "test $rc -eq 125 && grep -q 'command_timeout: the command ran past its time' '$T/err'"
check "  it no longer runs" runs_is "sleep 1209" no
check "  nor what left its session (setsid)" runs_is "sleep 1205" no
check "  nor what a double fork orphaned" \
    runs_is "sleep 1206" no
check "  nor its child that cleared its environment" runs_is "sleep 1207" no
# An orphan with no mark, out of the session: the exec's subreaper
# adopted it (Docker: the relay's, native: the keeper), so the kill
# found it by the parent chain.
check "  nor an orphan that cleared its environment" runs_is "sleep 1208" no
kill_in "sleep 1208"
check "  another exec's command beside it still runs (control)" \
    runs_is "sleep 1201" yes
check "  ... and what that one set apart (control)" runs_is "sleep 1211" yes
# A command whose first process ends while a child of it holds its
# output: Docker's exec ends with that process (the child left, as any
# command's background process); the native place waits for the output,
# and -T still ends the exec (it waited on the child before).  On
# Docker -T is only the bound of a wait for the child (a create and a
# start of an exec took over 3 s at load 20: 125, a flake); 30 s still
# tells it from an exec that ends with its first process.
tt=30
[ "$PLACE" = docker ] || tt=3
timeout 60 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$id" -n -T $tt \
    -- sh -c 'sleep 1214 &' >/dev/null 2>"$T/err"
rc=$?
if [ "$PLACE" = docker ]; then
	check "exec of a command whose child holds its output: Docker ends it with its first process" \
	    test $rc -eq 0
else
	check "exec -T of a command whose child holds its output ends in time (command_timeout, 125)" \
	    sh -c "test $rc -eq 125 && grep -q command_timeout '$T/err'"
fi
kill_in "sleep 1214"
# A process a command leaves on purpose outlives its normal end, and
# the exec does not wait for it (its output elsewhere): it returns, and
# -T never ends it.
sc exec "$id" -n -T 30 -- sh -c 'nohup sleep 1215 >/dev/null 2>&1 &'
rc=$?
check "exec of a command that leaves a nohup process returns (rc $rc)" \
    test $rc -eq 0
# (its child may still be between its execs of nohup and sleep as the
# exec ends: awaited, a hang guard; one the end killed is never seen)
check "  and what it left still runs after its end" \
    wait_for 60 runs_is "sleep 1215" yes
kill_in "sleep 1215"
kill -TERM "$beside"
wait "$beside" 2>/dev/null
check "exec: a command whose client left is ended in the space" \
    wait_for 30 runs_is "sleep 1201" no
check "  with what it set apart (setsid)" wait_for 30 runs_is "sleep 1211" no
check "exec: 64 MiB of output arrive whole" \
    test "$(sc exec "$id" -n -- head -c 67108864 /dev/zero | wc -c)" -eq 67108864
head -c 4194304 /dev/urandom >"$T/blob"
check "exec: 4 MiB both ways at once, byte-exact" \
    test "$(sc exec "$id" -- cat <"$T/blob" | sha256sum)" = \
    "$(sha256sum <"$T/blob")"
# A reader slower than the stream keeps the place's queue full when
# stdin ends: the end must wait until every byte went.
SLOW='import sys, time, hashlib
h, n = hashlib.sha256(), 0
while True:
    b = sys.stdin.buffer.read1(65536)
    if not b:
        break
    h.update(b); n += len(b); time.sleep(0.01)
print(n, h.hexdigest())'
check "exec: 4 MiB into a slow reader arrive whole, then its end" \
    test "$(sc exec "$id" -- python3 -c "$SLOW" <"$T/blob")" = \
    "4194304 $(sha256sum <"$T/blob" | cut -d' ' -f1)"

# A caller's closed stdin or stdout: spacectl's control socket took the
# lowest free number, so exec -i read its own socket as stdin and hung,
# and the space's output (the agent's bytes) went into spaced's control
# connection as requests of ours (spaced saw garbage and spacectl failed
# bad_answer).  timeout is a hang guard, not a measure.
timeout 120 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" \
    exec "$id" -i -- wc -c <&- >"$T/closed0" 2>&1
rc=$?
check "exec -i, our stdin closed: the command reads an empty stdin (rc $rc)" \
    sh -c "test $rc = 0 && test \"\$(tr -d ' ' <'$T/closed0')\" = 0"
check "  control: an open stdin arrives" \
    test "$(printf abc | sc exec "$id" -i -- wc -c | tr -d ' ')" = 3
AAA='head -c 300 /dev/zero | tr "\\0" A'
timeout 120 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" \
    exec "$id" -- sh -c "$AAA" >&- 2>"$T/closed1"
rc=$?
check "exec, our stdout closed: the output goes nowhere, not to spaced (rc $rc)" \
    sh -c "test $rc = 0 && ! grep -q bad_answer '$T/closed1'"
check "  control: the command prints its 300 bytes" \
    test "$(sc exec "$id" -- sh -c "$AAA" | wc -c)" = 300
# Output that cannot be written: exec's 125 and list's 1 said nothing,
# or list exited 0 with its table lost (a full disk, /dev/full).
check_refusal "exec to a full disk: 125, naming standard output and the error" \
    125 '^spacectl: standard output: No space left on device$' \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- echo hi >/dev/full"
check_refusal "list to a full disk: 1, the same words" \
    1 '^spacectl: standard output: No space left on device$' \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' list >/dev/full"
check "  control: both to /dev/null exit 0" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- echo hi >/dev/null &&
    '$tree/bin/spacectl' -s '$sd/run/spaced.sock' list >/dev/null"

# The gatekeeper's three: its own container, two targets and no third,
# gone after remove (checked against the container).
space_host=$(sc exec "$id" -- cat /etc/hostname)
check "exec -g: runs in the gatekeeper (its health answers there)" \
    sc exec "$id" -g -- /usr/libexec/spaced/spaced-gatekeeper -C GET /health
# (A GET of /spaces/ID on the control channel failed in any container.)
sc exec "$id" -g -- /bin/sh -c "test -d /spaces/$id" >"$T/gsh" 2>&1
rc=$?
check "exec -g: not in the space (no /bin/sh there: $EXEC_MISSING; rc $rc)" \
    sh -c "test $rc = ${EXEC_MISSING%% *} && grep -q '${EXEC_MISSING#* }' '$T/gsh'"
check "  control: the same command without -g runs in the space" \
    sc exec "$id" -- /bin/sh -c "test -d /spaces/$id"
# Why it could not start is the place's word, on stderr: a script that
# keeps stdout gets the command's output alone (the engine writes its
# error as the exec's stdout; spaced-docker holds that first frame
# until the exit's inspect says whether the command ran).
sc exec "$id" -g -- /bin/sh -c true >"$T/gsh.out" 2>"$T/gsh.err"
rc=$?
check "exec -g: a command that cannot start says why on stderr, stdout empty (rc $rc)" \
    sh -c "test $rc = ${EXEC_MISSING%% *} && test ! -s '$T/gsh.out' &&
    grep -q '${EXEC_MISSING#* }' '$T/gsh.err'"
sc exec "$id" -g -- /usr/libexec/spaced/spaced-gatekeeper -C GET /health \
    >"$T/gh.out" 2>"$T/gh.err"
check "  control: a command that runs there has its output on stdout, stderr empty" \
    sh -c "grep -q ok '$T/gh.out' && test ! -s '$T/gh.err'"
gk_host=$(gk_hostname "$id")
check "exec -g: a hostname of its own" \
    sh -c "test -n '$gk_host' && test '$gk_host' != '$space_host'"
check "exec: the space has its work directory" \
    sc exec "$id" -- test -d "/spaces/$id"
# A relative path with a '/' that is not there: 127 on both places, as
# a shell says (the engine's 126 was every start it could not make).
sc exec "$id" -- ./no-such-dir/cmd >"$T/rel" 2>&1
rc=$?
check "exec: a missing relative path is 127 (rc $rc)" test "$rc" -eq 127
sc exec "$id" -- sh -c "mkdir -p rel && printf '#!/bin/sh\\nexit 5\\n' >rel/x && chmod +x rel/x"
sc exec "$id" -- ./rel/x
rc=$?
check "control: a relative path that is there runs (rc $rc)" test "$rc" -eq 5
# The same in the gatekeeper, whose commands begin in / (the engine said
# 126 there, the space 127).
sc exec "$id" -g -- ./no-such-dir/cmd >"$T/grel" 2>&1
rc=$?
check "exec -g: a missing relative path is 127 (rc $rc)" test "$rc" -eq 127
# (its folder differs by place: enough ../ reach / from any of them; on
# the native place the control channel is reached by the absolute path
# alone, so only that it ran is asked: neither 126 nor 127)
sc exec "$id" -g -- ../../../../../../../../usr/libexec/spaced/spaced-gatekeeper \
    -C GET /health >/dev/null 2>&1
rc=$?
check "  control: a relative path that is there runs in the gatekeeper (rc $rc)" \
    sh -c "[ $rc -ne 126 ] && [ $rc -ne 127 ]"
python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" \
    exec-target "$id" 7 >"$T/target" 2>&1
check "exec: any other target is invalid_exec_target" \
    grep -q invalid_exec_target "$T/target"

# network and grant: the gatekeeper's control channel through spaced
check "network: allowlist" sc network "$id" allowlist example.invalid
# (-m: a hang guard; the refusal is at once, a loaded machine slow)
sc exec "$id" -- curl -s -o /dev/null -m 60 -x http://gatekeeper:3128 \
    https://not-listed.example.org/ 2>/dev/null
sc exec "$id" -g -- /usr/libexec/spaced/spaced-gatekeeper -C GET /journal \
    >"$T/journal.json"
check "network: a name off the list is refused and journalled" \
    test "$(j '[.records[] | select(.host == "not-listed.example.org" and
    .decision == "deny:not-on-allowlist")] | length' "$T/journal.json")" -ge 1
check "network -j open: {}" test "$(sc -j network "$id" open | jq -c .)" = '{}'
check "network: back to an empty allowlist" sc network "$id" allowlist
printf 'sk-contract-%s\n' "$INSTALL" |
    sc grant "$id" model http://upstream.example/v1 x-api-key
check "grant: taken (secret on stdin)" test $? -eq 0
echo x | sc grant "$id" 'not an id!' http://upstream.example/v1 x-api-key \
    2>"$T/err"
check "grant: spacectl names a bad id before it is sent (invalid_grant)" \
    grep -q '^spacectl: invalid_grant: GRANT_ID ' "$T/err"
# The gatekeeper's own rule, for a client that is not spacectl: its
# control channel, through its client, refuses the same id.
echo '{"id":"not an id!","upstream":"http://upstream.example/v1","header":"x-api-key","secret":"x"}' |
    sc exec "$id" -g -- /usr/libexec/spaced/spaced-gatekeeper -C POST /grants \
    >/dev/null 2>&1
check "grant: the gatekeeper's own rule refuses a bad id (client exit 1)" \
    test $? -eq 1
for n in space gatekeeper; do
	dump_of "$id" "$n" >"$T/inspect.$n" || : >"$T/inspect.$n"
	# Control: the inspect is read and holds this run's install id.
	check "grant: the $n's inspect is read (it holds the install id)" \
	    grep -q "$INSTALL" "$T/inspect.$n"
	lacks "grant: the secret is in no inspect of the $n" "$T/inspect.$n" \
	    -F "sk-contract-$INSTALL"
done
check_refusal "grant: a secret argument is not how it is given (usage, 64)" 64 \
    '^usage: spacectl' \
    sc grant "$id" model http://upstream.example/v1 x-api-key extra

# stop, start
check "stop" sc stop "$id"
sc -j show "$id" >"$T/show.json"
check "stop: the space exited" test "$(j .state "$T/show.json")" = exited
check "stop: its gatekeeper too" test "$(j .gatekeeper "$T/show.json")" = exited
sc exec "$id" -- true 2>"$T/err"
check "exec on a stopped space: space_not_running" \
    grep -q space_not_running "$T/err"
check "  and what to do (it said the code alone)" \
    grep -q 'space_not_running: the space is stopped (spacectl start starts it)' "$T/err"
sc network "$id" allowlist example.invalid 2>"$T/err"
check "network on a stopped space: what to do (it said the code alone)" \
    grep -qx 'spacectl: space_not_running: the space is stopped (spacectl start starts it)' "$T/err"
echo x | sc grant "$id" model http://upstream.example/v1 x-api-key 2>"$T/err"
check "grant on a stopped space: the same words" \
    grep -qx 'spacectl: space_not_running: the space is stopped (spacectl start starts it)' "$T/err"
check "start" sc start "$id"
sc -j show "$id" >"$T/show.json"
check "start: running again" test "$(j .state "$T/show.json")" = running
check "start: files kept across stop and start" \
    sh -c "sc() { \"$tree/bin/spacectl\" -s \"$sd/run/spaced.sock\" \"\$@\"; }; \
    sc exec $id -- sh -c 'echo kept > /spaces/$id/f' && sc stop $id && \
    sc start $id && test \"\$(sc exec $id -- cat /spaces/$id/f)\" = kept"

# damaged, and the one repair start makes
stop_behind "$id" gatekeeper
sc -j show "$id" >"$T/show.json"
check "a stopped gatekeeper under a running space is damaged" \
    test "$(j .damaged "$T/show.json")" = true
check "  and missing names it" \
    test "$(j '.missing | index("gatekeeper_stopped") != null' "$T/show.json")" = true
check "start repairs it" sc start "$id"
sc -j show "$id" >"$T/show.json"
check "  repaired" test "$(j .damaged "$T/show.json")" = false

# changed behind spaced's back: named by verify, refused by start
# (lib.sh's tamper_network: what each place lets be changed).
tamper_network "$id"
sc -j verify "$id" >"$T/verify.json"
for c in $TAMPERED; do
	check "verify names it: $c" \
	    test "$(j --arg c "$c" '[.[] | select(.check == $c)] | length' "$T/verify.json")" -ge 1
done
check_refusal "verify exits 1 then, naming the networks" 1 \
    "^${TAMPERED%% *}: " sc verify "$id"
if [ -n "$STOP_KEEPS" ]; then
	sc stop "$id" >/dev/null
	sc start "$id" 2>"$T/err"
	check "start refuses it" grep -q space_verify_failed "$T/err"
	check "  and starts nothing" \
	    test "$(sc -j show "$id" | jq -r '.state + .gatekeeper')" = exitedexited
else
	sc start "$id" 2>"$T/err"
	check "start refuses it (the space running: a stop ends the change)" \
	    grep -q space_verify_failed "$T/err"
	check "  and leaves it as it was" \
	    test "$(sc -j show "$id" | jq -r '.state + .gatekeeper')" = runningrunning
fi
untamper_network "$id"
raise_memory "$id"
sc -j verify "$id" >"$T/verify.json"
check "verify names a memory limit raised behind its back" \
    test "$(j '[.[] | select(.check == "memory")] | length' "$T/verify.json")" -ge 1

# Ownership: a plain user in the docker group sees and acts on their
# own spaces only (owner <install>:<uid>); a name proves nothing.
gk_before=$(sc -j show "$id" | jq -r .gatekeeper)
dgid=$(getent group docker | cut -d: -f3)
plain() {
	setpriv --reuid=65534 --regid=65534 --groups="${dgid:-0}" \
	    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"
}
check "a plain user's list does not show root's space" \
    test "$(plain -j list | jq --arg i "$id" '[.[] | select(.id == $i)] | length')" = 0
plain show "$id" 2>"$T/err"
check "  nor does show" grep -q space_not_found "$T/err"
plain stop "$id" 2>"$T/err"
check "  stop of root's space is refused as an unknown one (space_not_found)" \
    grep -q space_not_found "$T/err"
plain exec "$id" -- true 2>"$T/err"
check "  and so is exec" grep -q space_not_found "$T/err"
check "  remove removes none of it" \
    test "$(plain -j remove "$id" | jq -c .)" = '{"removed":[],"failed":[]}'
check "  root's space is untouched" \
    test "$(sc -j show "$id" | jq -r .gatekeeper)" = "$gk_before"
pid=$(plain create -n plain) || pid=
check "a plain user creates a space of their own ($pid)" test -n "$pid"
check "  labelled with their uid" \
    test "$(owner_of "$pid" space)" = "$INSTALL:65534"
check "  which root's list does not show" \
    test "$(sc -j list | jq --arg i "$pid" '[.[] | select(.id == $i)] | length')" = 0
check "  and the plain user removes" \
    test "$(plain -j remove "$pid" | jq '.removed | length')" = 6

# unknown and foreign
other=000000000000
sc show "$other" 2>"$T/err"
check "show of an unknown id: space_not_found" grep -q space_not_found "$T/err"
check "remove of an unknown space: nothing removed, nothing failed" \
    test "$(sc -j remove "$other" | jq -c .)" = '{"removed":[],"failed":[]}'
sc show xyz 2>"$T/err"
check "a bad id is refused before it is sent (invalid_space_id)" \
    grep -q '^spacectl: invalid_space_id' "$T/err"

# remove: by label, containers first, then volumes, then networks
check "gone control: the place shows the gatekeeper before remove" \
    there "$id" gatekeeper
check_fails "gone control: and gone says it is there" gone "$id" gatekeeper
check "gone control: an unknown space is gone (Docker: No such container)" \
    gone "none$(echo "$INSTALL" | cut -c1-8)" gatekeeper
sc -j remove "$id" >"$T/remove.json"
check "remove: six resources removed" \
    test "$(j '.removed | length' "$T/remove.json")" = 6
check "remove: none failed" test "$(j '.failed | length' "$T/remove.json")" = 0
check "remove: the gatekeeper is gone (Docker: 404 No such container)" \
    gone "$id" gatekeeper
sc -j list >"$T/list.json"
check "remove: not listed" \
    test "$(j --arg i "$id" '[.[] | select(.id == $i)] | length' "$T/list.json")" = 0
tamper_gone "$id"

finish
