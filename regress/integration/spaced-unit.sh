#!/bin/sh
# spaced.service (issue 26), where no systemd runs: the unit lints
# clean and scores as it should, and spaced does its job under the
# unit's bounds, each reproduced by hand: its capability bounding set
# (setpriv), no_new_privs, a network namespace of its own (unshare
# --net), and the readiness a Type=notify unit waits for (READY=1 on
# NOTIFY_SOCKET, from spaced's own pid, once its socket answers).  A
# space is created, used, verified and removed so.  Needs root, Docker
# and systemd-analyze (tools/deps.sh: systemd); about a minute.
top=$(cd "$(dirname "$0")/../.." && pwd)
U=$(mktemp -d /tmp/spaced-unit.XXXXXX)
UNIT_CAPS=$(sed -n '/^CapabilityBoundingSet=/,/[^\\]$/p' "$top/etc/spaced.service" |
    tr -d '\\\n' | sed 's/^CapabilityBoundingSet=//' | tr -s ' ' | tr ' ' '\n' |
    grep . | sed 's/^CAP_//' | tr 'A-Z' 'a-z' | sed 's/^/+/' | paste -sd, -)
# The notify listener: each datagram and its sender's pid, a line each.
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
out = open(sys.argv[2], "a", buffering=1)
while True:
    m, anc, f, a = s.recvmsg(4096, socket.CMSG_SPACE(12))
    pid = 0
    for lvl, typ, data in anc:
        if lvl == socket.SOL_SOCKET and typ == socket.SCM_CREDENTIALS:
            pid = int.from_bytes(data[0:4], "little")
    out.write("%d %s\n" % (pid, m.decode()))
' "$U/notify" "$U/notified" </dev/null >/dev/null 2>&1 &
listener=$!
# Gone whatever way the suite ends (lib.sh may finish before at_finish
# is reached); it never holds the runner's pipe either.
trap 'kill $listener 2>/dev/null' EXIT
# Until it listens (a hang guard of 60 s, no measure).
i=0
while [ ! -S "$U/notify" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
SPACED_WRAP="unshare --net setpriv --no-new-privs \
    --bounding-set=-all,$UNIT_CAPS env NOTIFY_SOCKET=$U/notify"
export SPACED_WRAP
. "$(dirname "$0")/../contract/lib.sh"
at_finish 'kill $listener 2>/dev/null; rm -rf "$U"'

# The unit as installed, with this tree's spaced.
sed "s|@SBINDIR@|$tree/sbin|g" "$top/etc/spaced.service" >"$U/spaced.service"
check "systemd-analyze verify: clean" \
    sh -c "systemd-analyze verify --man=no '$U/spaced.service' >'$U/verify' 2>&1 &&
    ! test -s '$U/verify'"
sed 's/^/# /' "$U/verify"
printf '[Unit]\nDescription=spaced\n[Service]\nType=forking\nExecStart=%s/sbin/spaced\n' \
    "$tree" >"$U/bare.service"
mkdir -p "$U/bare" && mv "$U/bare.service" "$U/bare/spaced.service"
score() {
	systemd-analyze security --offline=true "$1" 2>/dev/null |
	    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'
}
after=$(score "$U/spaced.service")
before=$(score "$U/bare/spaced.service")
echo "# systemd-analyze security: $before without hardening, $after with"
check "systemd-analyze security: at most 3.0 ($after), against $before bare" \
    awk -v a="${after:-99}" -v b="${before:-0}" 'BEGIN { exit !(a <= 3.0 && b >= 9.0) }'

# spaced under the bounds: said ready, from its own pid, not forked.
# What the wrapper gives spaced: the unit's bounding set, nothing more
# (spaced then empties its own; so does each worker).
bnd=$(unshare --net setpriv --no-new-privs --bounding-set=-all,$UNIT_CAPS \
    awk '/^CapBnd:/ { print $2 }' /proc/self/status)
check "spaced started under the unit's bounding set ($bnd: $UNIT_CAPS)" \
    sh -c "test -n '$bnd' && test \$((0x$bnd)) -eq $(python3 -c '
import sys
caps = {"chown": 0, "dac_override": 1, "dac_read_search": 2, "fowner": 3,
    "kill": 5, "setgid": 6, "setuid": 7, "setpcap": 8, "sys_chroot": 18,
    "syslog": 34}
print(sum(1 << caps[c.lstrip("+")] for c in sys.argv[1].split(",")))
' "$UNIT_CAPS")"
sp=$(pgrep -f "$tree/sbin/spaced -d" | head -1)
check "  with no_new_privs" grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$sp/status"
check "  in a network namespace of its own" \
    test "$(readlink "/proc/$sp/ns/net")" != "$(readlink /proc/self/ns/net)"
wait_for 5 grep -q READY=1 "$U/notified"
check "READY=1 on NOTIFY_SOCKET, from spaced itself ($(cat "$U/notified"))" \
    grep -q "^$sp READY=1\$" "$U/notified"

id=$(sc create -n unit) || id=
check "create under the unit's bounds ($id)" test -n "$id"
check "  exec in it" sc exec "$id" -- true
sc journal "$id" --verify >"$U/v" 2>&1
check "  journal --verify ($(cat "$U/v"))" grep -q '^the chain holds' "$U/v"
sc -j remove "$id" >/dev/null
check "  remove" test $? = 0
# The native place needs what the unit bounds away (CAP_SYS_ADMIN, the
# host's network): it is absent, said by name, and spaced goes on.
check_refusal "create -p native: the native place is absent, and why" 1 \
    'sandbox_unavailable.*capabilities' sc create -p native -n unit-ns
finish
