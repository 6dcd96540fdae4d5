#!/bin/sh
# The agent on the native place (issue 25, and issue 23's session): the
# default profile's OpenCode from a tools folder that spaced-ns filled
# (a one-shot made like a space, the filler under the host's node behind
# a gatekeeper whose allowlist is the npm registry), bound read-only at
# /opt/spaced-tools; the scripted model (agent/model-server.py) behind a
# grant.  server, prompt, sessions, token; then the confinement rows with
# the server running (its uid, no capability, no_new_privs, seccomp; the
# tools read-only and root's; the token in no argv or environment); a
# killed server started again, journaled and counted, and the relay's
# restart lines out of the agent's reach.  The
# fill is cached under /var/cache/spaced/native-tools, keyed by its
# inputs (as tools/images.sh caches the images): a minute or two warm.
dir=$(cd "$(dirname "$0")" && pwd)
ca=${SPACED_TOOLS_CA:-}
[ -z "$ca" ] && [ -f /etc/ssl/certs/ca-certificates.crt ] &&
    ca=/etc/ssl/certs/ca-certificates.crt
SPACED_TEST_PLACE=native
# The default OpenCode, and hostile (packed, agent/hostile.sh) beside it
# for the prune of a second profile's fill.
. "$dir/../agent/hostile.sh"
SPACED_AGENT_CONF=$(profile "" | grep -v '^default')
SPACED_EXTRA_CONF=${ca:+"tools ca bundle \"$ca\""}
. "$dir/../contract/lib.sh"
. "$dir/../agent/lib.sh"

jqf() { jq -e "$@" >/dev/null 2>&1; }
rnd() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
command -v node >/dev/null ||
    { not_ok "the host has node (tools/deps.sh: nodejs)"; finish; }
# The /30 it wishes for in 198.51.100.0/24 (agent/turn.sh wishes for
# .1/.2, session/agent.sh .201/.202); model_up takes another when a run
# holds it.
NM=spaced-nsag-$$ HOSTIP=198.51.100.205 MODEL=198.51.100.206
KEY=sk-spaced-$(rnd)
TOKEN=spaced-nsag-$(rnd | cut -c1-12)
# (and what a command the server starts may do: a user namespace of its
# own is refused by the space filter, which it inherits through pid 1)
CMD="echo $TOKEN > ns.txt; (unshare -U true 2>/dev/null && echo made || echo refused) > userns.txt; cat ns.txt"
umask 077
printf '%s\n' "$KEY" >"$T/key"
umask 022
trap model_gone EXIT
at_finish model_gone

# --- a fill whose child dies before its end (its alarm, a kill) --------------
# The one-shot is made before the fork: spaced-ns removes its folder,
# its cgroups and the staging itself when the child leaves no word.
sc create -n nskilled >"$T/killed.out" 2>&1 &
cpid=$!
ns_pid=$(pgrep -P "$spaced_pid" -x spaced-ns | head -n 1)
oneshot() { ls "$NS_STATE" 2>/dev/null | grep -vx tools | head -n 1; }
wait_for 120 sh -c "o=\$(ls '$NS_STATE' | grep -vx tools | head -n 1) &&
    test -n \"\$o\" && test -d /sys/fs/cgroup/pids/spaced-ns/\$o-gk"
os=$(oneshot)
check "control: the fill's one-shot has its folder and cgroups while it runs (${os:-none})" \
    sh -c "test -n '$os' && test -d '$NS_STATE/$os' &&
    test -d '$(ns_cg pids "$os")' && test -d '$(ns_cg memory "$os-gk")'"
fchild=$(pgrep -P "$ns_pid" -x spaced-ns | head -n 1)
check "the fill's child is found (pid ${fchild:-none})" test -n "$fchild"
[ -n "$fchild" ] && kill -KILL "$fchild"
wait "$cpid"
check "the create fails: the fill ended without a word" \
    grep -q 'without a word' "$T/killed.out"
check "and nothing of the one-shot is left: its folder, its cgroups, the staging" \
    sh -c "test -n '$os' && test ! -e '$NS_STATE/$os' &&
    test ! -e '$(ns_cg pids "$os")' && test ! -e '$(ns_cg memory "$os-gk")' &&
    test -z \"\$(ls -d '$NS_STATE'/tools/*.fill 2>/dev/null)\""

# --- the fill's cache (lib/toolscache.sh) ------------------------------------
. "$dir/../lib/toolscache.sh"
tools_dir() { ls -d "$NS_STATE/tools/spaced-tools-$INSTALL-0-"* 2>/dev/null |
    grep -v '\.fill$' | head -n 1; }
# SPACED_NATIVE_FILL=1: no cache, the fill itself (a minute or so more).
seeded=
[ -n "${SPACED_NATIVE_FILL:-}" ] || ! tools_cache_seed "$NS_STATE" "$INSTALL" 0 ||
    seeded=1

# A fill prunes the owner's folders of other keys that no running space
# mounts, as the Docker place its volumes: one of an old key goes, one
# of another uid stays (the control).
old_mine=spaced-tools-$INSTALL-0-ffffffffffffffff
old_other=spaced-tools-$INSTALL-1000-ffffffffffffffff
[ -n "$seeded" ] || mkdir -p "$NS_STATE/tools/$old_mine/fill" \
    "$NS_STATE/tools/$old_other/fill"

# --- another run's model where this one would go --------------------------
# Another run of this suite at the same time (another worktree's, CI's
# beside it) holds this /30 and its model wants another key: this run
# must take another block, or its window reaches that model (a 401, the
# prompt fails).  Its namespace as model_up makes one; kept until the
# prompt is done.
SQ=spaced-nsq-$$ sq_pid=
squat_gone() {
	[ -n "$sq_pid" ] && kill "$sq_pid" 2>/dev/null
	ip link delete "vq$$" 2>/dev/null
	ip netns delete "$SQ" 2>/dev/null
	sq_pid=
}
at_finish squat_gone
rnd >"$T/sqkey"
ip netns add "$SQ" && ip link add "vq$$" type veth peer name "vr$$" &&
ip link set "vr$$" netns "$SQ" && ip addr add "$HOSTIP/30" dev "vq$$" &&
ip link set "vq$$" up && ip -n "$SQ" addr add "$MODEL/30" dev "vr$$" &&
ip -n "$SQ" link set lo up && ip -n "$SQ" link set "vr$$" up &&
ip -n "$SQ" route add default via "$HOSTIP" &&
ip netns exec "$SQ" python3 "$dir/../agent/model-server.py" --listen "$MODEL" \
    --port 8000 --key-file "$T/sqkey" --log "$T/sq.log" --command true \
    --lifetime 900 </dev/null >"$T/sq.err" 2>&1 &
sq_pid=$!
check "control: another run's model answers on $MODEL, wanting another key (401)" \
    wait_for 10 sh -c "test \"\$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 http://$MODEL:8000/v1/models)\" = 401"
wished=$MODEL

# --- the model, on a documentation address in a namespace of ours --------
model_up "$NM" "va$$" "vb$$" "$HOSTIP" "$MODEL" "$CMD" 900
check "this run's model took a /30 of its own, not the other run's ($MODEL)" \
    test "$MODEL" != "$wished"

# --- create: the tools, the space, the server ----------------------------
t0=$(date +%s.%N)
id=$(sc create -n nsagent) || {
	sed 's/^/# /' "$T/sd/log" | grep -i 'tools\|fill\|ns' | tail -20
	not_ok "create with the default agent on the native place"; finish; }
echo "# create (tools fill included when not cached): $(echo "$(date +%s.%N) - $t0" | bc) s"
ok "create answers once OpenCode's server is ready ($id)"
check "the space is native" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show $id | jq -e '.place == \"native\"' >/dev/null"
td=$(tools_dir)
check "its tools are a folder of the native place's ($td)" test -f "$td/fill/.spaced-filled"
if [ -z "$seeded" ]; then
	check "spaced-ns filled the folder (its log: a fill begun and done)" \
	    sh -c "grep -q 'tools: filling spaced-tools-$INSTALL-0-' '$sd/log' &&
	    grep -q 'tools: spaced-tools-$INSTALL-0-[0-9a-f]* filled' '$sd/log'"
	check "and nothing of its one-shot is left (its folder, its staging)" \
	    sh -c "test -z \"\$(ls -d '$NS_STATE'/tools/*.fill 2>/dev/null)\" &&
	    test -z \"\$(ls '$NS_STATE' | grep -vx 'tools\\|$id')\""
	check "the fill pruned the owner's folder of an old key" \
	    test ! -e "$NS_STATE/tools/$old_mine"
	check "  and left another uid's (control)" \
	    test -d "$NS_STATE/tools/$old_other"
	rm -rf "$NS_STATE/tools/$old_other"
	tools_cache_keep "$td"
fi
check "the tools are root's, every file of them" \
    sh -c "test -z \"\$(find '$td' ! -user 0 -print -quit)\" && test -n \"\$(find '$td' -user 0 -print -quit)\""
check "and no file of them is writable but by root" \
    sh -c "test -z \"\$(find '$td' ! -type l -perm /022 -print -quit)\""
check "its health answers inside the space" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /global/health | jq -e '.healthy == true' >/dev/null"

# --- a prompt through a grant, sessions ------------------------------------
# Before the grant the window refuses the model: prompt says what to do.
sc prompt "$id" "Run the command the tool call gives." >/dev/null 2>"$T/p0.err"
check "prompt before a grant: the window's 403 (control), and the grant to give" \
    sh -c "grep -q '^spacectl: window_refused: .*403' '$T/p0.err' &&
    grep -q 'spacectl grant $id ' '$T/p0.err'"
printf 'Bearer %s\n' "$KEY" | sc grant "$id" model "http://$MODEL:8000" authorization
# (-T: a guard, far from a turn's seconds and from OpenCode's 300 s
# wait for an answer on the connection the 403 came on: it waited so,
# the gatekeeper drained that connection without a FIN)
sc prompt "$id" -T 150 "Run the command the tool call gives." >"$T/p.out" 2>"$T/p.err"
rc=$?
check "prompt: exits 0 ($rc), after the refused one" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T/p.err" "$T/p.out" | tail -20
check "prompt: the final answer is the model's, with the command's output" \
    sh -c "tail -n 1 '$T/p.out' | grep -qx 'spaced-final: $TOKEN'"
check "prompt: the tool call and its status on stderr" \
    grep -q '^tool bash: completed' "$T/p.err"
check "OpenCode ran the command in the space's folder" \
    test "$(sc exec "$id" -- cat "/spaces/$id/ns.txt")" = "$TOKEN"
check "the model saw the grant's key" jqf -s \
    'map(select(.answer and .key == "match")) | length >= 2' "$T/model.log"
sc -j sessions "$id" >"$T/sessions.j"
check "sessions: the prompt's session is listed" jqf 'length >= 1' "$T/sessions.j"
check "the other run's model saw nothing of this run's" \
    sh -c "! grep -q chat/completions '$T/sq.log'"
squat_gone

# --- attach: the agent's own screen, under tmux -----------------------------
TS="spaced-nsag-$$"
TM() { tmux -L "$TS" "$@"; }
at_finish 'tmux -L "$TS" kill-server 2>/dev/null'
TM -f /dev/null new-session -d -s a -x 120 -y 40 "env PS1='host\$ ' sh" ||
    { not_ok "tmux starts (tools/deps.sh)"; finish; }
TM set-option -g status off
seen() { wait_for "${2:-60}" sh -c "tmux -L '$TS' capture-pane -p -t a | grep -qF -- \"\$1\"" _ "$1"; }
TM send-keys -t a "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' attach $id" Enter
check "attach: the agent's screen is drawn (its prompt box names the mode)" seen "Build" 120
TM send-keys -t a C-c
check "leaving attach: back on the host, the server still answers" \
    sh -c "sleep 1; '$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /global/health >/dev/null"
TM kill-server 2>/dev/null

# --- confinement with the server running -----------------------------------
srv=
for p in $(ns_pids "$id" space); do
	tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q 'opencode.* serve' &&
	    { srv=$p; break; }
done
check "the server is a process of the space's group (control: found, pid $srv)" test -n "$srv"
st() { sed -n "s/^$1:[[:space:]]*//p" "/proc/${srv:-0}/status" 2>/dev/null; }
uid=$(space_uid "$id")
check "the server runs as the space's uid ($uid), not root" \
    sh -c "test \"\$(echo '$(st Uid)' | tr -s '\t ' ' ')\" = '$uid $uid $uid $uid'"
check "with no capability (CapEff, CapPrm, CapBnd 0)" \
    sh -c "test '$(st CapEff)' = 0000000000000000 && test '$(st CapPrm)' = 0000000000000000 && test '$(st CapBnd)' = 0000000000000000"
check "with no_new_privs" test "$(st NoNewPrivs)" = 1
check "under a seccomp filter (mode 2)" test "$(st Seccomp)" = 2
# (spaced-ns's own filter is inherited by all it starts, so the mode
# alone cannot tell the space filter: what it refuses can.)
check "a command the server ran could make no user namespace (the space filter)" \
    test "$(sc exec "$id" -- cat "/spaces/$id/userns.txt")" = refused
check "  control: the same uid on the host, unfiltered, makes one" \
    setpriv --reuid="$uid" --regid="$uid" --clear-groups unshare -U true
check "in the space's network namespace, not the host's" \
    sh -c "test \"\$(readlink /proc/${srv:-0}/ns/net)\" != \"\$(readlink /proc/self/ns/net)\""
sc exec "$id" -- sh -c 'grep " /opt/spaced-tools " /proc/self/mountinfo' >"$T/mnt"
check "the tools are mounted in the space (control: its mount row, $(cut -d' ' -f5,6 "$T/mnt"))" \
    grep -q ' /opt/spaced-tools ' "$T/mnt"
check "read-only" sh -c "cut -d' ' -f6 '$T/mnt' | tr , '\n' | grep -qx ro"
sc -j verify "$id" >"$T/verify.json"
check "verify is clean with the agent running" jqf 'length == 0' "$T/verify.json"
# Made writable behind spaced's back (the host's root remounts it in the
# space's mount namespace): verify names it.
ip1=$(ns_pids "$id" space | head -n 1)
nsenter -t "${ip1:-0}" -m mount -o remount,bind,rw /opt/spaced-tools 2>/dev/null
check "  control: the tools remounted read-write behind spaced's back" \
    sh -c "grep ' /opt/spaced-tools ' /proc/${ip1:-0}/mountinfo | cut -d' ' -f6 | grep -q '^rw'"
check "verify names it: tools_writable" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' verify $id 2>&1 | grep -q '^tools_writable'"
nsenter -t "${ip1:-0}" -m mount -o remount,bind,ro /opt/spaced-tools 2>/dev/null
check "and is clean again once it is read-only" sc verify "$id"
check "a write into the tools is refused" \
    sh -c "! '$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- sh -c 'echo x > /opt/spaced-tools/planted' 2>/dev/null"
check "  control: the same write into the space's folder works" \
    sc exec "$id" -- sh -c "echo x > /spaces/$id/planted"
check "  and the host's folder is untouched" test ! -e "$td/planted"

# --- another owner: the token and the server's commands, as an unknown ID ----
# (they said "the token cannot be read: the space does not run")
dgid=$(getent group docker | cut -d: -f3)
nobody() {
	setpriv --reuid=65534 --regid=65534 --groups="${dgid:-0}" \
	    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"
}
for c in token sessions "server GET /global/health" "prompt hi"; do
	set -- $c
	cmd=$1; shift
	nobody $cmd "$id" "$@" >/dev/null 2>"$T/n1.err"; r1=$?
	nobody $cmd 0123456789ab "$@" >/dev/null 2>"$T/n2.err"; r2=$?
	check "another owner's space, $cmd: as an unknown ID ($r1)" sh -c \
	    "[ $r1 = $r2 ] && [ $r1 != 0 ] &&
	    grep -qx 'spacectl: space_not_found: no such space of yours' '$T/n1.err' &&
	    cmp -s '$T/n1.err' '$T/n2.err'"
done

# --- the token: in the space's file only ------------------------------------
tok=$(sc token "$id")
check "the token is there (control: 43 characters)" test "${#tok}" = 43
printf '%s\n' "$tok" >"$T/tok"
# The server takes it from the file into its own environment (the
# profile's password variable), inside the space, as on Docker.
ns_pids "$id" space >"$T/spids"
for p in $(cat "$T/spids"); do cat "/proc/$p/environ"; done >"$T/spenv" 2>/dev/null
check "the server's environment inside the space holds it (control: the dump is real)" \
    grep -qaF -f "$T/tok" "$T/spenv"
for p in $(cat "$T/spids"); do cat "/proc/$p/cmdline"; done >"$T/spargv" 2>/dev/null
check "  control: the argv dump holds the server's" grep -qa serve "$T/spargv"
lacks "the token is in no argv of the space" "$T/spargv" -aF -f "$T/tok"
for p in /proc/[0-9]*; do
	grep -qx "${p#/proc/}" "$T/spids" ||
	    cat "$p/environ" "$p/cmdline" 2>/dev/null
done >"$T/hostprocs"
check "  control: the host's dump holds spaced's own argv" grep -qaF "$sd" "$T/hostprocs"
lacks "nor in any argv or environment of the host's processes outside it" \
    "$T/hostprocs" -aF -f "$T/tok"
lacks "nor in spaced's log" "$sd/log" -aF -f "$T/tok"
lacks "nor in the gatekeeper's log" "$NS_STATE/$id/gk.log" -aF -f "$T/tok"

# --- a server that dies is started again, journaled and counted -------------
# As on Docker: the relay's keeper starts it again and says so on its
# stderr, which spaced-ns keeps in relay.err (each line after the time
# it read it); the collector's second row brings it to the journal.
restarts_shown() { [ "$(sc -j show $id | jq -r '.restarts // empty')" = "$1" ]; }
restarts_known() { [ -n "$(sc -j show $id | jq -r '.restarts // empty')" ]; }
check "show counts the server's restarts once collected" wait_for 30 restarts_known
c0=$(sc -j show $id | jq -r '.restarts // 0')
# The keeper's child: the relay's child (the keeper, the relay's own
# cmdline) started it; a process the server made in turn is not it.
is_relay() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q '^/opt/spaced/spaced-relay -w '; }
ppid_of() { awk '/^PPid:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
server_of() {
	for p in $(ns_pids "$id" space); do
		k=$(ppid_of "$p")
		[ -n "$k" ] && ! is_relay "$p" && is_relay "$k" &&
		    is_relay "$(ppid_of "$k")" && { echo "$p"; return; }
	done
}
srv0=$(server_of)
check "the server is the relay's keeper's child (pid $srv0)" test -n "$srv0"
sc events -f -j >"$T/events" 2>&1 &
evpid=$!
kill -9 "$srv0"
newsrv() { s=$(server_of); [ -n "$s" ] && [ "$s" != "$srv0" ]; }
check "a killed server is started again (was pid $srv0)" wait_for 60 newsrv
check "the restart is one line of relay.err, after spaced-ns's time" \
    grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{9}Z spaced-relay: restart [0-9]+ [A-Za-z0-9._+-]+ signal 9 backoff [0-9]+$' \
    "$NS_STATE/$id/relay.err"
check "show counts it ($((c0 + 1)))" wait_for 60 restarts_shown $((c0 + 1))
sc journal "$id" -j >"$T/jr"
check "the journal has it: listener server, signal 9" sh -c \
    "jq -r 'select(.unmapped.listener == \"server\") | .message' '$T/jr' | grep -Eqx 'restart [0-9]+ signal 9 backoff [0-9]+'"
check "events -f saw it" wait_for 10 sh -c \
    "jq -r 'select(.kind == \"restart\") | .space' '$T/events' | grep -qx '$id'"
kill $evpid 2>/dev/null
wait $evpid 2>/dev/null
check "the server answers again" wait_for 60 sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /global/health >/dev/null"
# Who holds the relay's stderr, seen from the host: spaced-ns's pipe,
# root's and 0600 (no /proc link to it opens for the space's user), in
# the relay and its keeper alone.
relay=$(for p in $(ns_pids "$id" space); do is_relay "$p" && ! is_relay "$(ppid_of "$p")" && echo "$p"; done | head -n 1)
pipe=$(readlink "/proc/${relay:-0}/fd/2")
check "the relay's stderr is a pipe (control: the relay is pid ${relay:-none}, $pipe)" \
    sh -c "case '$pipe' in pipe:*) true ;; *) false ;; esac"
check "the pipe is root's, mode 600" \
    test "$(stat -L -c '%u %a' "/proc/${relay:-0}/fd/2")" = "0 600"
holders=$(for p in $(ns_pids "$id" space); do
	for f in /proc/$p/fd/*; do [ "$(readlink "$f")" = "$pipe" ] && echo "$p"; done
done | sort -u | tr '\n' ' ')
check "only the relay and its keeper hold it ($holders)" sh -c \
    "set -- $holders; [ \$# = 2 ] && for p; do tr '\\0' ' ' </proc/\$p/cmdline | grep -q '^/opt/spaced/spaced-relay -w ' || exit 1; done"
# The agent's uid writes the relay's line into every fd 1 and 2 it can
# open through /proc in the space: the relay's and its keeper's stderr
# (spaced-ns's pipe, root's 0600, their /proc not the agent's) refuse.
FORGED='spaced-relay: restart 997 opencode signal 9 backoff 1'
sc exec "$id" -- sh -c "n=0; for f in /proc/[0-9]*/fd/1 /proc/[0-9]*/fd/2; do echo '$FORGED' 2>/dev/null >\"\$f\" && n=\$((n + 1)); done; echo \$n" >"$T/forged"
check "control: the agent's uid wrote through some process's fd in /proc ($(cat "$T/forged"))" \
    test "$(cat "$T/forged")" -gt 0
check_fails "no forged line reached relay.err" grep -qF 'restart 997' "$NS_STATE/$id/relay.err"
sc journal "$id" -j >"$T/jr2"
check "the journal's restarts are show's ($((c0 + 1)))" test "$(jq -s '[.[] | select(.unmapped.listener == "server")] | length' "$T/jr2")" = $((c0 + 1))
check "journal --verify passes with the restart record" sc journal "$id" --verify

# --- stop and start keep the token, the server comes back ------------------
check "stop" sc stop "$id"
check "start waits for the server again" sc start "$id"
check "the token stayed" test "$(sc token "$id")" = "$tok"
check "and the server answers with it" sc server "$id" GET /global/health

check "remove" sc remove "$id"
check "the tools stay for the next space (as Docker's volume)" test -f "$td/fill/.spaced-filled"

# --- another profile's fill keeps this profile's newest ---------------------
# spaced.conf(5) "Agent profiles": a fill prunes only what no profile
# uses, so two profiles used in turn (the default switched at a restart)
# are each filled once (red before: the owner's every folder no running
# space mounted went).  hostile is packed: its native fill needs no
# registry.
stop_spaced
SPACED_AGENT_CONF=$(profile "")
start_spaced "$T/sd" || { sed 's/^/# /' "$T/sd/log" | tail -5; not_ok "spaced starts again, default agent hostile"; }
mkdir -p "$NS_STATE/tools/$old_mine/fill"
hid=$(sc create -n nshostile 2>"$T/hcreate.err")
check "a native create of the other profile (hostile, packed): its own folder filled" \
    sh -c "test -n '$hid' && ls -d '$NS_STATE'/tools/spaced-tools-$INSTALL-0-* |
    grep -v -e '\\.fill\$' -e '^$td\$' -e '$old_mine' | grep -q ."
check "... leaves OpenCode's current folder, that no space mounts now" \
    test -f "$td/fill/.spaced-filled"
check "control: ... and prunes the owner's folder of a key no profile has" \
    test ! -e "$NS_STATE/tools/$old_mine"
[ -n "$hid" ] && sc remove "$hid" >/dev/null
rm -rf "$tgzdir"
model_gone
finish
