#!/bin/sh
# The native place's confined-shell table, in the reference's style
# (../shared/spec/session-sandbox.md): real native spaces, stand-ins on
# the host, each thing a space must not reach or do tried from inside,
# each with a control that shows the attempt works where the protection
# is absent, then what a space must reach.  mutants/native.sh breaks one
# bind or rule at a time and names the row that must go red.
. "$(dirname "$0")/../integration/lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "the native place needs root (namespaces and cgroup groups)"
	finish
fi
T=$(mktemp -d /tmp/spaced-native.XXXXXX)
chmod 0755 "$T"
make_tree
SPACED_EXTRA_CONF="install id $(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
default place native"
if ! start_spaced "$T/sd"; then
	echo "# spaced did not start:"; sed 's/^/# /' "$T/sd/log"
	not_ok "spaced starts"; finish
fi
sc() { "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"; }
# inside SPACE COMMAND: a shell command inside, its status
inside() { _s=$1; shift; sc exec "$_s" -- sh -c "$*" >"$T/out" 2>&1; }
# on the host, as nobody: the same attempt without the space around it
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "$*" \
    >/dev/null 2>&1; }

native_end() {
	for s in ${A:-} ${B:-} ${M:-} ${X:-}; do sc remove "$s" >/dev/null 2>&1; done
	stop_spaced
	[ -n "${http_pid:-}" ] && kill "$http_pid" 2>/dev/null
	[ -n "${abs_pid:-}" ] && kill "$abs_pid" 2>/dev/null
	[ -n "${stray:-}" ] && kill "$stray" 2>/dev/null
	[ -n "${shm_id:-}" ] && ipcrm -m "$shm_id" 2>/dev/null
	[ -z "${KEEP:-}" ] || cp "$sd/log" /tmp/spaced-native-last.log
	rm -rf "$T" "$tree"
}
at_finish native_end

A=$(sc create -n table) || A=
B=$(sc create -n other) || B=
check "two native spaces ($A, $B)" sh -c "[ -n '$A' ] && [ -n '$B' ]"
check "they are native (show: place native)" \
    test "$(sc -j show "$A" | jq -r .place)" = native
# Without the other space its rows fail; the rest still run.
[ -n "$A" ] || finish

# --- stand-ins ---------------------------------------------------------
mkdir -p "$sd/.ssh" && echo "stand-in-secret-$$" >"$sd/.ssh/id_standin"
chmod 0644 "$sd/.ssh/id_standin"; chmod 0755 "$sd/.ssh" "$sd"
inside "$B" "echo other-secret >/spaces/$B/secret; nohup sleep 4242 \
    >/dev/null 2>&1 &"
http_listen 127.0.0.1 "$T" "$sd/http.log"
port=$http_port
abs="spaced-standin-$$"
python3 -c "
import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(chr(0) + '$abs'); s.listen(8)
while True:
    c, _ = s.accept(); c.close()" >/dev/null 2>&1 &
abs_pid=$!
shm_id=$(ipcmk -M 4096 2>/dev/null | awk '{print $NF}')
ABS_CONNECT="import socket; s = socket.socket(socket.AF_UNIX); s.connect(chr(0) + '$abs')"
PTRACE='import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pid = os.fork()
if pid == 0:
    r = libc.ptrace(0, 0, None, None)
    os._exit(0 if r == 0 else 1)
_, st = os.waitpid(pid, 0)
sys.exit(0 if os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0 else 1)'

# row DESCRIPTION COMMAND: the attempt inside A must fail
row() {
	_d=$1; shift
	if inside "$A" "$*"; then
		not_ok "$_d" "inside: $(head -c 300 "$T/out")"
	else
		ok "$_d"
	fi
}
# reach DESCRIPTION COMMAND: inside A it must work
reach() {
	_d=$1; shift
	if inside "$A" "$*"; then ok "$_d"; else
		not_ok "$_d" "inside: $(head -c 300 "$T/out")"; fi
}

# --- what a space must not reach or do ----------------------------------
check "  control: spaced's HOME holds the stand-in secret" \
    nobody "cat '$sd/.ssh/id_standin'"
row "the stand-in secret in spaced's HOME" "cat '$sd/.ssh/id_standin'"
check "  control: the host's /root is there" test -d /root
row "the host's /root" "ls -d /root"
check "  control: the other space reads its own secret" \
    inside "$B" "cat /spaces/$B/secret"
row "another space's work folder, at /spaces" "cat /spaces/$B/secret"
row "another space's work folder, at its host path" \
    "cat '$sd/state/native/$B/work/$B/secret'"
# a process whose whole command line is "sleep 4242" (this one's is not)
SLEEP='for f in /proc/[0-9]*/cmdline; do
    [ "$(tr "\0" " " <$f)" = "sleep 4242 " ] && exit 0; done; exit 1'
check "  control: the other space sees its own sleep 4242" \
    inside "$B" "$SLEEP"
row "another space's processes" "$SLEEP"
check "  control: spaced's pid is there on the host" \
    kill -0 "$spaced_pid"
row "spaced's process (kill -0)" "kill -0 $spaced_pid"
check "  control: spaced's state holds the record" \
    test -f "$sd/state/native/$A/record"
row "spaced's state directory" "ls '$sd/state'"
check "  control: the journal store is there" test -d "$sd/store"
row "spaced's journal store" "ls '$sd/store'"
check "  control: the Docker socket is there on the host" \
    test -S /var/run/docker.sock
row "the Docker socket" "test -e /var/run/docker.sock"
check "  control: the host's loopback service answers" \
    nobody "curl -s -o /dev/null -m 3 http://127.0.0.1:$port/"
check "  control: the host has an interface beside lo" \
    sh -c "awk -F: 'NR > 2 && \$1 !~ /^ *lo\$/' /proc/net/dev | grep -q ."
# (its listener was started in the background above: it may take a while)
check "  control: the host's abstract socket takes a connection" \
    wait_for 10 nobody "python3 -c \"$ABS_CONNECT\""
# One row, one rule (the network namespace): any of the three is a hole.
row "the host's network: its loopback service, an interface, an abstract socket" \
    "curl --noproxy '*' -s -o /dev/null -m 3 http://127.0.0.1:$port/ ||
    awk -F: 'NR > 2 && \$1 !~ /^ *lo\$/' /proc/net/dev | grep -q . ||
    python3 -c \"$ABS_CONNECT\""
check "  control: the host's shared memory segment is listed" \
    sh -c "ipcs -m | grep -qw '$shm_id'"
row "the host's System V IPC" "ipcs -m | grep -qw '$shm_id'"
check "  control: the host's hostname is not the space's id" \
    test "$(hostname)" != "$A"
row "the host's hostname" "test \"\$(hostname)\" = '$(hostname)'"
row "the host's users (/etc/shadow)" "cat /etc/shadow"
row "a write to /" "touch /planted"
row "a write to /usr" "touch /usr/planted"
row "a write to /etc/hosts" "echo x >>/etc/hosts"
row "a write in the socket folder" "touch /run/spaced/planted"
row "a write over the relay" "echo x >>/opt/spaced/spaced-relay"
row "a write beside its work folder" "touch /spaces/planted"
check "  control: a plain user on the host makes a user namespace" \
    nobody "unshare -U -r true"
row "a user namespace inside (new privileges)" "unshare -U -r true"
row "a mount inside" "mount -t tmpfs none /tmp"
check "  control: ptrace works on the host" nobody "python3 -c '$PTRACE'"
row "ptrace" "python3 -c '$PTRACE'"
# pid 1 too: it never execs, so only the drop itself empties its sets
row "a capability (CapEff not 0, here or in pid 1)" \
    "! grep -q 'CapEff:[[:space:]]*0000000000000000' /proc/self/status ||
    ! grep -q 'CapEff:[[:space:]]*0000000000000000' /proc/1/status"
row "new privileges (no_new_privs off)" \
    "! grep -q 'NoNewPrivs:[[:space:]]*1' /proc/self/status"
check "  control: the cgroup files are there on the host" \
    test -d /sys/fs/cgroup/memory
row "the cgroup files" "ls /sys/fs/cgroup"
row "a disk device" "ls /dev/sd* /dev/vd* /dev/nvme* /dev/mem"

# spaced's log: spaced-ns's stdout and stderr are spaced's log pipe; a
# space's first processes (pid 1, the relay, and so the agent the relay
# starts) must hold none of it, or a space floods spaced's log without a
# cap.  Their fds are read through /proc: the relay and its keeper are
# not dumpable (their fds are nobody's to open), so the command the
# keeper started, which holds the relay's stdio, is read (the space
# user's).
RELAY_FDS='for p in /proc/[0-9]*; do
    pp=$(awk "/^PPid:/ { print \$2 }" $p/status 2>/dev/null)
    [ "$(cat /proc/$pp/comm 2>/dev/null)" = spaced-relay ] || continue
    [ "$(cat $p/comm 2>/dev/null)" != spaced-relay ] || continue
    stat -L -c %F $p/fd/1 $p/fd/2; done'
check "  control: the same look tells a pipe (an exec's own stdout)" \
    inside "$A" '[ "$(stat -L -c %F /proc/self/fd/1)" = fifo ]'
reach "not spaced's log pipe: the relay's command's stdout and stderr are /dev/null" \
    "o=\$($RELAY_FDS); [ -n \"\$o\" ] &&
    ! printf '%s\\n' \"\$o\" | grep -qvx 'character special file'"
check "  control: exec -g runs the gatekeeper's own client beside it" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$A' -g -- \
    /usr/libexec/spaced/spaced-gatekeeper -C GET /health >/dev/null"
check_fails "a shell beside the gatekeeper (exec -g sh, on its PATH)" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$A' -g -- \
    sh -c true 2>/dev/null"

# The gatekeeper's control channel (grants, the allowlist, the journal)
# is spaced's alone: a plain user on the host must not reach it, on a
# loopback port or through the gatekeeper's own root.
gkpid=$(for p in $(cat "/sys/fs/cgroup/pids/spaced-ns/$A-gk/cgroup.procs" \
    2>/dev/null); do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = spaced-gatekeep ] && echo "$p"
done | head -n 1)
gk_ports=$(ss -ltnpH 2>/dev/null | awk -v p="pid=${gkpid:-x}," \
    'index($0, p) { n = split($4, a, ":"); print a[n] }')
check "  control: A's gatekeeper runs (pid ${gkpid:-none})" \
    test -n "$gkpid"
check "  control: its control channel answers root in its own root" \
    curl -sf -m 5 --unix-socket "/proc/${gkpid:-0}/root/tmp/control.sock" \
    -o /dev/null http://gatekeeper/health
check "  control: a plain user reaches a loopback listener on the host" \
    nobody "curl -s -m 5 -o /dev/null http://127.0.0.1:$port/"
check_fails "a plain user on the host reaches a gatekeeper's control channel" \
    nobody "for p in $gk_ports; do curl -sf -m 3 http://127.0.0.1:\$p/health && exit 0; done
curl -sf -m 3 --unix-socket /proc/${gkpid:-0}/root/tmp/control.sock http://gatekeeper/health"

# --- what it must reach -------------------------------------------------
reach "its work folder, read and write" \
    "echo w >/spaces/$A/f && test \"\$(cat /spaces/$A/f)\" = w"
reach "its HOME, empty of the host's, read and write" \
    "test \"\$HOME\" = /home/space && echo h >\$HOME/f && cat \$HOME/f"
reach "a private /tmp" "echo t >/tmp/f && cat /tmp/f"
reach "/dev/null and /dev/urandom" "head -c 4 /dev/urandom >/dev/null"
reach "its own loopback" "python3 -c 'import socket
s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(1)
c = socket.create_connection(s.getsockname())'"
reach "the corridor through the relay (the gatekeeper's 403)" \
    "test \"\$(curl -s -o /dev/null -w '%{http_connect}' -m 10 -x http://gatekeeper:3128 https://not-listed.example.org/)\" = 403"
reach "the window through the relay (an HTTP answer)" \
    "test \"\$(curl -s -o /dev/null -w '%{http_code}' -m 10 http://gatekeeper:8080/)\" != 000"
reach "the space user, 10000" "test \"\$(id -u)\" = 10000"

# --- limits: the escape suite's memory and pids attempts ----------------
M=$(sc create -n limits -m 64m) || M=
check "a space of 64 MiB" test -n "$M"
check "  control: 16 MiB are taken" \
    inside "$M" "python3 -c 'b = bytearray(16 << 20)'"
check "    and with no word of a limit met" \
    sh -c "! grep -q 'limit' '$T/out'"
check_fails "256 MiB are not: the memory limit (swap included) ends it" \
    inside "$M" "python3 -c 'b = bytearray(256 << 20); b[::4096] = b\"x\" * (256 << 8)'"
# A bare 137 tells a person nothing: the end says which limit, and how
# to get more.
sc -j exec "$M" -- python3 -c 'b = bytearray(256 << 20); b[::4096] = b"x" * (256 << 8)' >"$T/oom.j" 2>/dev/null
check "  and says so: out of memory, its limit 64 MiB, create -m ($(jq -r .message "$T/oom.j" 2>/dev/null | cut -c1-60))" \
    sh -c 'jq -e "$1" "$2" >/dev/null' _ '.exitCode == 137 and (.message |
    contains("ran out of memory") and contains("its limit is 64 MiB") and
    contains("create -m"))' "$T/oom.j"
FORKS='import os, time
n = 0
try:
    for i in range(700):
        if os.fork() == 0:
            os.close(1); os.close(2); time.sleep(5); os._exit(0)
        n += 1
except OSError:
    pass
print(n)'
n=$(sc exec "$A" -- python3 -c "$FORKS" 2>"$T/forks.err" | tail -1)
check "  control: 100 processes start ($n)" test "${n:-0}" -ge 100
check "700 do not: the pids limit holds ($n)" test "${n:-0}" -lt 700
check "  and the end says so: its limit of 512 processes" \
    grep -q '^spacectl: the space reached its limit of 512 processes' "$T/forks.err"

# --- parent death: the reference's choice 1 -----------------------------
# pids SPACE: every host pid of a space and of its gatekeeper
pids() {
	cat "/sys/fs/cgroup/pids/spaced-ns/$1/cgroup.procs" \
	    "/sys/fs/cgroup/pids/spaced-ns/$1-gk/cgroup.procs" 2>/dev/null
}
# none_left PIDS...: not one of them is in /proc any more
none_left() {
	for p in "$@"; do [ -d "/proc/$p" ] && return 1; done
	return 0
}
ns_pid=$(ctl status | awk '$1 == "spaced-ns" { print $2 }')
check "  control: spaced-ns runs ($ns_pid)" kill -0 "${ns_pid:-0}"
before=$(pids "$A")
check "  control: space $A has processes ($(echo $before))" test -n "$before"
check_fails "  control: they are in /proc" none_left $before
kill -9 "$ns_pid" 2>/dev/null
check "a crashed spaced-ns leaves no process of a space (from /proc)" \
    wait_for 10 none_left $before
check "  and spaced, without a worker, stops" wait_for 10 sh -c \
    "! kill -0 $spaced_pid"
stop_spaced
check "spaced starts again" start_spaced "$T/sd"
check "the next start finds every space (stopped, records kept)" \
    test "$(sc -j list | jq -c '[.[] | select(.place == "native") |
    .state] | sort')" = '["exited","exited","exited"]'
check "start brings one back, gatekeeper first, files kept" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' start '$A' >/dev/null &&
    test \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$A' -- cat /spaces/$A/f)\" = w"
before=$(pids "$A")
kill -9 "$spaced_pid"
check "a killed spaced leaves no process of a space (from /proc)" \
    wait_for 10 none_left $before
wait "$spaced_pid" 2>/dev/null
spaced_pid=
# The sweep at the next start: a process left in a space's group (as a
# worker dead before a death signal was armed would leave it) is ended.
# A's pair is spent now, and a suite beside this one may start a
# spaced-ns whose sweep takes it, as it should (no record of A there):
# plant makes the groups again where they went, and tries again while
# a sweep takes one under it.
sleep 600 &
stray=$!
plant() {
	for c in memory pids cpu; do
		mkdir -p "/sys/fs/cgroup/$c/spaced-ns/$A" &&
		    echo "$stray" >"/sys/fs/cgroup/$c/spaced-ns/$A/cgroup.procs" ||
		    return 1
	done 2>/dev/null
	for c in memory pids cpu; do
		grep -qx "$stray" "/sys/fs/cgroup/$c/spaced-ns/$A/cgroup.procs" ||
		    return 1
	done 2>/dev/null
}
check "  control: a stray process sits in A's groups ($stray)" wait_for 10 plant
# gone_or_zombie PID: ended (a zombie waits for this shell's wait)
gone_or_zombie() {
	! test -d "/proc/$1" || grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}
check_fails "  control: it runs" gone_or_zombie "$stray"
check "spaced starts once more" start_spaced "$T/sd"
check "  and finds the space again" \
    test "$(sc -j show "$A" | jq -r .state)" = exited
check "  and every space, stopped" \
    test "$(sc -j list | jq -c '[.[] | select(.place == "native") |
    .state] | sort')" = '["exited","exited","exited"]'
check "  and the stray process in A's group is ended (the sweep)" \
    wait_for 10 gone_or_zombie "$stray"
wait "$stray" 2>/dev/null


# remove leaves nothing when it answers: a command still running in the
# space, and the space's pid 1 that waits for it, are gone from /proc
# (pgrep lists zombies too) by then, not a moment later.  (Seen under
# load before end_all waited for pid 1; no mutant: unloaded, the kernel
# is done before the look, so removing the wait turns nothing red.)
X=$(sc create -n gone) || X=
xu=$((0x50000000 | 0x${X#??????}))
sc exec "$X" -- sleep 600 >/dev/null 2>&1 &
xpid=$!
sleeps() { pgrep -x -U "$1" sleep >/dev/null; }
check "  control: a command runs in space $X as its host uid $xu (from /proc)" \
    wait_for 10 sleeps "$xu"
sc remove "$X" >/dev/null
left=$(pgrep -U "$xu" | tr '\n' ' ')
check "remove leaves no process of the space when it answers ($left)" \
    test -z "$left"
wait "$xpid" 2>/dev/null

finish
