#!/bin/sh
# check floods against the engine requests of others (issue 27, M5): a
# plain user's 32 connections x 16 checks, and then a docker-group
# user's, each against a slow engine (engine_slow.py holds check's
# /version and /info 3 s, as a loaded dockerd does), must not make a
# concurrent root create answer busy.  A plain user's checks come from
# a short cache (the engine sees a few, not 512); a docker-group user's
# reach the engine, at most spaced's per-uid cap of them at once.
# Makes a docker-group user of its own, removed at the end.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! docker info >/dev/null 2>&1; then
	skip "needs root and a Docker engine"
	finish
fi
getent group docker >/dev/null || { skip "no docker group"; finish; }
command -v useradd >/dev/null || { skip "no useradd"; finish; }
T=$(mktemp -d /tmp/spaced-flood.XXXXXX)
chmod 0755 "$T"
install=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
u=sfl$$
useradd --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
    --user-group -G docker "$u" || { not_ok "useradd $u"; finish; }
make_tree
python3 "$top/regress/integration/engine_slow.py" "$T/engine.sock" \
    /var/run/docker.sock 3 "$T/checks.log" >"$T/proxy.log" 2>&1 &
proxy=$!
wait_for 5 test -S "$T/engine.sock" || { not_ok "the slow engine listens"; finish; }
cleanup() {
	for c in $(docker ps -aq --filter "label=spaced.space.owner=$install:0"); do
		docker rm -f -v "$c" >/dev/null 2>&1
	done
	stop_spaced
	for n in $(docker network ls -q --filter "label=spaced.space.owner=$install:0"); do
		docker network rm "$n" >/dev/null 2>&1
	done
	for v in $(docker volume ls -q --filter "label=spaced.space.owner=$install:0"); do
		docker volume rm "$v" >/dev/null 2>&1
	done
	kill "$proxy" 2>/dev/null
	pkill -KILL -u "$u" 2>/dev/null
	userdel "$u" 2>/dev/null
	getent group "$u" >/dev/null && groupdel "$u" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$T" "$tree"
}
trap cleanup EXIT
sd=$T/sd
SPACED_EXTRA_CONF="install id $install
docker socket \"$T/engine.sock\""
check "spaced starts" start_spaced "$sd"
# spaced's engine connections are its own; the users reach only spaced.
chmod 0755 "$sd" "$sd/run"

# flood CONNS PER: that many checks on each of that many connections,
# all sent at once; prints "end N busy M other K" when every one is
# answered.
cat >"$T/flood.py" <<'PY'
import os, socket, struct, sys
HDR = struct.Struct("=IHHII")
CHECK, END, FAIL = 102, 201, 202
path, conns, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
socks = []
for i in range(conns):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(b"".join(HDR.pack(CHECK, HDR.size, 0, (t + 1) << 8 | int(os.environ["CTL_VERSION"]), 0)
                       for t in range(per)))
    socks.append(s)
count = {"end": 0, "busy": 0, "other": 0}
for s in socks:
    s.settimeout(60)
    buf, left = b"", per
    while left:
        try:
            d = s.recv(65536)
        except OSError:
            d = b""
        if not d:
            count["other"] += left
            break
        buf += d
        while len(buf) >= HDR.size:
            t, l, _, _, _ = HDR.unpack(buf[:HDR.size])
            if len(buf) < l:
                break
            body, buf = buf[HDR.size:l], buf[l:]
            if t == END:
                count["end"] += 1; left -= 1
            elif t == FAIL:
                code = body.split(b"\0")[0].decode()
                count["busy" if code == "busy" else "other"] += 1
                left -= 1
print("end %d busy %d other %d" % (count["end"], count["busy"], count["other"]))
PY
chmod 0644 "$T/flood.py"
as() { w=$1; shift; setpriv --reuid="$w" --regid="$(id -g "$w")" --init-groups "$@"; }
checks() { [ -f "$T/checks.log" ] && wc -l <"$T/checks.log" || echo 0; }

# flood_then_create WHO LABEL: WHO floods; once its checks reach the
# engine, root creates a space; both outputs kept under LABEL.
flood_then_create() {
	: >"$T/checks.log"
	as "$1" /usr/bin/python3 "$T/flood.py" "$sd/run/spaced.sock" 32 16 \
	    >"$T/$2.flood" 2>&1 &
	f=$!
	wait_for 20 sh -c "[ \$(wc -l <'$T/checks.log') -ge 1 ]"
	# every connection's checks are in before root asks
	sleep 1
	ctl create -n "$2" -m 256m >"$T/$2.id" 2>"$T/$2.err"
	echo $? >"$T/$2.rc"
	wait "$f"
	echo "# $2: flood $(cat "$T/$2.flood"); $(checks) checks reached the engine; create: $(cat "$T/$2.err" | head -3)"
	[ -s "$T/$2.id" ] && ctl remove "$(cat "$T/$2.id")" >/dev/null 2>&1
}

# --- a plain user (nobody: not in the docker group) --------------------
flood_then_create nobody plain
check "a plain user's flood is answered, every check (positive control)" \
    grep -q '^end 512 busy 0 other 0$' "$T/plain.flood"
check "root creates a space during a plain user's check flood" \
    test "$(cat "$T/plain.rc")" -eq 0
check "a plain user's 512 checks reach the engine a few times, from a cache" \
    test "$(checks)" -le 4

# --- a docker-group user: its checks reach the engine, capped ---------
flood_then_create "$u" group
check "a docker-group user's flood is refused busy past its cap (positive control)" \
    grep -q '^end [0-9]* busy [1-9][0-9]* other 0$' "$T/group.flood"
check "root creates a space during a docker-group user's check flood" \
    test "$(cat "$T/group.rc")" -eq 0
check "at most 32 of the docker-group user's checks reach the engine at once" \
    sh -c "grep -c . '$T/checks.log' | awk '{ exit !(\$1 <= 40) }'"
finish
