#!/bin/sh
# The space survives its agent's mistakes, against the real engine: the
# test agent's server (hostile-server/, with ballast so it is larger
# than each command) starts commands as OpenCode does ($SHELL -c); many
# small memory hogs, one large one and a fork bomb in a 512 MB space
# leave the server alive (the same pid) and the space running; a server that dies anyway
# is started again by spaced-relay, which says so on the space's stderr:
# the journal keeps each restart, show counts them, events -f sees them,
# and a restart line the agent forges counts for nothing.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/hostile.sh"
SPACED_AGENT_CONF=$(profile "agent hostile env HOSTILE_BALLAST_MB=200")
. "$dir/../contract/lib.sh"

inside() { sc exec "$1" -- /bin/sh -c "$2"; }
# run ID CMD: a command of the agent's, started by its server
run() { sc server "$1" GET "/spawn/$(printf %s "$2" | base64 -w0 | tr '+/' '-_' | tr -d =)" >/dev/null; }
server_pid() { sc server "$1" GET /pid | jq -r .pid; }
running() { api GET "/containers/spaced-space-$1-space/json" | jq -e '.State.Running == true' >/dev/null; }
# The kills of the space's memory cgroup (v2, or v1's oom_control).
oom_kills() {
	inside "$1" 'cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null' |
	    awk '$1 == "oom_kill" { print $2; exit }'
}
# No command of the agent's left (each hog carries "spaced-hog").
hogs_gone() {
	! inside "$1" 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\0" " "' | grep -q 'spaced-hog[ ]'
}
HOG='node -e "const b = Buffer.alloc(Number(process.argv[2]) * 1048576, 1); setTimeout(() => {}, 3000)" spaced-hog'
# An engine error fails log_of, never reads as an empty log.
log_of() { api_get "/containers/spaced-space-$1-space/logs?stdout=1&stderr=1" >"$T/log.raw" && tr -d '\000-\010' <"$T/log.raw"; }

check "npm packed the test agent" test -s "$TGZ"
check "tools fill fills the packed profile offline" sc tools fill
id=$(sc create -n survive -m 512m) || { not_ok "create a 512 MB space"; finish; }
ok "create a 512 MB space ($id)"
pid0=$(server_pid $id)
check "the server answers with its pid ($pid0)" test -n "$pid0"

# --- what the kernel sees -------------------------------------------------
run $id 'cat /proc/self/oom_score_adj > /tmp/adj.cmd'
check "a command of the agent's is the kernel's first victim (oom_score_adj 1000)" \
    wait_for 30 sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- cat /tmp/adj.cmd)\" = 1000 ]"
check "the server is not (its own, lower)" \
    sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- cat /proc/$pid0/oom_score_adj)\" -lt 1000 ]"

# --- many small hogs, each smaller than the server -------------------------
k0=$(oom_kills $id)
i=0
while [ $i -lt 12 ]; do run $id "$HOG 100"; i=$((i + 1)); done
# timeouts: guards against a hang, not measures
check "the twelve hogs have ended" wait_for 120 hogs_gone $id
k1=$(oom_kills $id)
check "the kernel killed for memory (control: the pressure was real; $k0 -> $k1)" \
    test "${k1:-0}" -gt "${k0:-0}"
check "the space still runs" running $id
check "the server answers again" wait_for 30 sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /pid >/dev/null"
check "the same server: the hogs died, not it (pid $pid0)" \
    sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /pid | jq -r .pid)\" = '$pid0' ]"

# --- one large hog, past the space's memory --------------------------------
k0=$(oom_kills $id)
run $id "$HOG 700"
check "the large hog has ended" wait_for 120 sh -c "sleep 1; ! '$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- /bin/sh -c 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr \"\\0\" \" \"' | grep -q 'spaced-hog[ ]'"
k1=$(oom_kills $id)
check "the kernel killed for memory (control; $k0 -> $k1)" test "${k1:-0}" -gt "${k0:-0}"
check "the space still runs after the large hog" running $id
check "the same server after the large hog" \
    sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /pid | jq -r .pid)\" = '$pid0' ]"
if log_of $id >"$T/log0"; then
	check_fails "no restart so far on the space's log" grep -q 'spaced-relay: restart' "$T/log0"
else
	not_ok "no restart so far on the space's log" "the engine did not answer"
fi
# show's count comes from the journal's collection of the space's log.
restarts_shown() { [ "$(sc -j show $id | jq -r '.restarts // empty')" = "$1" ]; }

# --- a fork bomb, within the space's pids limit ------------------------------
# Each bash forks itself until it sees /tmp/bomb.stop (or 300 s passed,
# should the release never come); bash retries a failed fork for 15 s,
# so it ends soon after the release.  "During the bomb" is an event:
# the bomb holds until the checks below are done and release it.
BOMB='exec 2>/tmp/bomb.err; b() { [ ! -e /tmp/bomb.stop ] && [ $SECONDS -lt 300 ] && { b & b; wait; }; }; b # spaced-bomb'
bomb_held() {
	inside "$1" 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\0" " "' | grep -q 'spaced-bomb[ ]'
}
bomb_gone() { ! bomb_held "$1"; }
run $id "$BOMB"
# timeouts: guards against a hang, not measures
check "the bomb ran out of processes (control: fork failed inside)" \
    wait_for 120 sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- cat /tmp/bomb.err | grep -q 'fork'"
# The issue's bound, 10 s, is a deadline on an event, not a measure:
# wait_short polls (100 tries, 0.1 s apart, each as long as spacectl
# takes) and returns at the answer; the answer must come while the
# bomb still holds, which the check after them proves.  Short on
# purpose (not wait_for's floor): the bound is the issue's.
check "during the bomb the server answers within 10 s (pid $pid0)" \
    wait_short 10 sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /pid | jq -r .pid)\" = '$pid0' ]"
run $id 'echo started > /tmp/during.bomb'
check "during the bomb the server starts a command within 10 s" \
    wait_short 10 sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- cat /tmp/during.bomb | grep -qx started"
check "the space still runs during the bomb" running $id
check "... and the bomb still held (its processes are there)" bomb_held $id
inside $id 'touch /tmp/bomb.stop'
check "the bomb has ended once released" wait_for 120 bomb_gone $id
check "the space still runs after the bomb" running $id
check "the same server after the bomb" \
    sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /pid | jq -r .pid)\" = '$pid0' ]"

# --- a server that dies anyway ---------------------------------------------
# stderr: the relay's alone (the server's goes to stdout), the engine's frames.
err_of() { api_get "/containers/spaced-space-$1-space/logs?stdout=0&stderr=1" >"$T/err.raw" && tr -d '\000-\010' <"$T/err.raw"; }
out_of() { api_get "/containers/spaced-space-$1-space/logs?stdout=1&stderr=0" >"$T/out.raw" && tr -d '\000-\010' <"$T/out.raw"; }
# server records in the journal (-j, one object a line)
journal_restarts() { sc journal $id -j | jq -s '[.[] | select(.unmapped.listener == "server")] | length'; }
restarts_known() { [ -n "$(sc -j show $id | jq -r '.restarts // empty')" ]; }
# Counted from here: the memory hogs above may have cost a restart too.
wait_for 30 restarts_known
c0=$(sc -j show $id | jq -r '.restarts // 0')
sc events -f -j >"$T/events" 2>&1 &
evpid=$!
inside $id "kill -9 $pid0"
newpid() { p=$(server_pid $id 2>/dev/null); [ -n "$p" ] && [ "$p" != "$pid0" ]; }
check "a killed server is started again and answers" wait_for 60 newpid
check "the space still runs after the server's death" running $id
# (the engine's log copier writes the line a moment after the relay
# did: read again until it is there, a hang guard)
restart_logged() {
	err_of $id >"$T/log1" &&
	    grep -Eq 'spaced-relay: restart [0-9]+ hostile-server signal 9 backoff [0-9]+$' "$T/log1"
}
check "the restart is one line on the space's stderr, the relay's" \
    wait_for 60 restart_logged
check "show counts the restart ($((c0 + 1)))" wait_for 30 restarts_shown $((c0 + 1))
check "events -f saw it: restart, its space, what died and how" wait_for 10 \
    sh -c "jq -r 'select(.kind == \"restart\") | .space + \" \" + .detail' '$T/events' | grep -Eqx '$id hostile-server restart [0-9]+ signal 9 backoff [0-9]+'"
sc journal $id -j >"$T/j1" 2>&1
check "the journal has the restart: listener server, what died, how, the backoff" \
    sh -c "jq -r 'select(.unmapped.listener == \"server\") | .dst_endpoint.hostname + \" \" + .message' '$T/j1' | tail -n 1 | grep -Eqx 'hostile-server restart [0-9]+ signal 9 backoff [0-9]+'"
pid1=$(server_pid $id)
inside $id "kill -9 $pid1"
newpid2() { p=$(server_pid $id 2>/dev/null); [ -n "$p" ] && [ "$p" != "$pid1" ]; }
check "a second death: started again" wait_for 60 newpid2
check "show counts two more restarts ($((c0 + 2)))" wait_for 30 restarts_shown $((c0 + 2))
err_of $id >"$T/log2"
backoffs=$(tail -n 2 "$T/log2" | awk '{ print $NF }' | tr '\n' ' ')
check "... after a longer backoff ($backoffs)" sh -c "set -- $backoffs; [ \$# = 2 ] && [ \$2 -gt \$1 ]"
check "the journal has as many restart records as show counts ($((c0 + 2)))" \
    test "$(journal_restarts)" = "$(sc -j show $id | jq -r .restarts)"
check "list -j counts them too" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j list | jq -e '.[] | select(.id == \"$id\") | .restarts == $((c0 + 2))' >/dev/null"
# (its follower writes each event a moment after spaced sent it)
check "events -f saw both" wait_for 60 sh -c \
    "test \"\$(jq -r 'select(.kind == \"restart\" and .space == \"$id\") | .kind' '$T/events' | wc -l)\" = 2"
check "journal --verify passes with the restart records" sc journal $id --verify

# --- a restart line forged by the agent --------------------------------------
# The agent (a command its server started) writes the relay's line where
# it can: its server's stdout and stderr, both the container's stdout.
pid2=$(server_pid $id)
FORGED='spaced-relay: restart 999 hostile-server signal 9 backoff 1'
run $id "echo '$FORGED' >/proc/$pid2/fd/1; echo '$FORGED' >/proc/$pid2/fd/2"
forged_out() { out_of $id | grep -qF "$FORGED"; }
check "control: the forged line is on the space's log (the agent's stdout)" wait_for 30 forged_out
keeper=$(inside $id "awk '/^PPid:/ { print \$2 }' /proc/$pid2/status")
check "control: the agent's uid writes through a process's fd in /proc (its server's)" \
    inside $id "echo control >/proc/$pid2/fd/1"
keeper_refused() {
	[ -n "$keeper" ] && inside $id "echo '$FORGED' >/proc/$keeper/fd/2" 2>&1 |
	    grep -q 'Permission denied'
}
check "the relay's stderr is not the agent's: its keeper ($keeper) is not dumpable (EACCES)" \
    keeper_refused
# A real restart after the forgery: once it is counted, the forged line
# (earlier on the log) was read, and counted for nothing.
inside $id "kill -9 $pid2"
newpid3() { p=$(server_pid $id 2>/dev/null); [ -n "$p" ] && [ "$p" != "$pid2" ]; }
check "a third death: started again" wait_for 60 newpid3
real_restarts() { sc journal $id -j | jq -r 'select(.unmapped.listener == "server") | .message' | grep -vc '^restart 999 '; }
third_kept() { [ "$(real_restarts)" = $((c0 + 3)) ]; }
check "the third restart reached the journal" wait_for 60 third_kept
check "show counts the real restarts, the forged line none ($((c0 + 3)))" \
    wait_for 10 restarts_shown $((c0 + 3))
check_fails "the journal holds no record of the forged line" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' journal $id -j | jq -r 'select(.unmapped.listener == \"server\") | .message' | grep -q '^restart 999 '"
check "journal --verify passes" sc journal $id --verify

# --- the one way to the relay's stream, and what it is worth -----------------
# The engine's docker-init, pid 1, runs as the space's user and holds
# the container's stderr: the agent's uid writes there (the finding,
# docs/privsep.md).  What it gets: a restart record a second at most,
# of the relay's shape alone; no other kind of record, nothing else.
# Five lines a tenth of a second apart: the engine stamps each (a line
# at the same millisecond as one kept would be no new one anyway).
c3=$(sc -j show $id | jq -r .restarts)
others() { sc journal $id -j | jq -s '[.[] | select(.unmapped.listener != "server")] | length'; }
o3=$(others)
FORGED_INIT='spaced-relay: restart 998 hostile-server signal 9 backoff 1'
# Two seconds after the burst, kept whatever the cap: once it is in the
# journal, every line before it was collected.
SENTINEL='spaced-relay: restart 996 hostile-server signal 9 backoff 1'
GKLINE='{"boot":1,"seq":999999,"at":"2026-12-06T10:11:02.123Z","listener":"corridor","host":"forged.example","port":443,"decision":"allow","count":1}'
check "found: pid 1 (docker-init) is the space user's, its stderr open to the agent's uid" \
    inside $id "[ \"\$(stat -c %u /proc/1)\" = \"\$(id -u)\" ] && echo '$GKLINE' >/proc/1/fd/2 && for i in 1 2 3 4 5; do echo '$FORGED_INIT'; sleep 0.1; done >/proc/1/fd/2 && sleep 2 && echo '$SENTINEL' >/proc/1/fd/2"
init_err() { err_of $id | grep -cF "$FORGED_INIT"; }
forged_seen() { [ "$(init_err)" = 5 ]; }
check "control: all five forged lines are on the relay's stream (stderr)" wait_for 30 forged_seen
forged_kept() { sc journal $id -j | jq -r 'select(.unmapped.listener == "server") | .message' | grep -q '^restart 996 '; }
check "a forged line of the relay's shape is kept as a restart (the space's own word)" wait_for 60 forged_kept
# What the cap keeps of them, from the engine's own times (to the ms):
# a line a second or more after the last kept, the rest dropped.
api_get "/containers/spaced-space-$id-space/logs?stdout=0&stderr=1&timestamps=1" |
    tr -d '\000-\010' | grep -oE "[0-9T:.-]+Z spaced-relay: restart 998 " |
    cut -d' ' -f1 >"$T/burst"
capped=$(while read -r t; do date -d "$t" +%s%3N; done <"$T/burst" |
    awk 'NR == 1 || $1 - last >= 1000 { n++; last = $1 } END { print n + 0 }')
check "control: five lines at five engine times, within a burst the cap folds ($capped kept of $(sort -u "$T/burst" | wc -l))" \
    sh -c "[ \$(sort -u '$T/burst' | wc -l) = 5 ] && [ '$capped' -lt 5 ]"
check "the journal keeps only those a second apart ($capped)" \
    test "$(sc journal $id -j | jq -r 'select(.unmapped.listener == "server") | .message' | grep -c '^restart 998 ')" = "$capped"
check "show counts them so, and the sentinel ($((c3 + capped + 1)))" \
    wait_for 30 restarts_shown $((c3 + capped + 1))
check "a gatekeeper's line there makes no record of any other kind ($o3)" \
    test "$(others)" = "$o3"
check_fails "nothing names the forged host" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' journal $id -j | grep -q forged.example"
check "journal --verify passes after the forgery" sc journal $id --verify
kill $evpid 2>/dev/null
wait $evpid 2>/dev/null

# --- a stop is still a stop --------------------------------------------------
check "stop (the server is told, not started again)" sc stop $id
check_fails "the space is stopped" running $id
check "start" sc start $id
check "the server answers after the start" sc server $id GET /pid
check "remove" sc remove $id

for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
rm -rf "$tgzdir"
finish
