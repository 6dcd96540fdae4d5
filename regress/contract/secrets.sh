#!/bin/sh
# A grant's secret after use: gone from the memory of spaced and
# spaced-docker (freed and cached message buffers, jansson's and
# libevent's freed memory), read through /proc/PID/mem.  The controls:
# the same scan finds what each process still holds on purpose (the
# install id, the runtime key), and a secret still in use (a grant
# whose spacectl has not finished sending it).
. "$(dirname "$0")/lib.sh"

scan() { python3 "$top/regress/tools/memscan.py" "$@"; }
pid_of() { ctl -j status | jq -r --arg n "$1" '.processes[] | select(.name == $n) | .pid'; }
SP_PID=$(pid_of spaced)
DK_PID=$(pid_of spaced-docker)
KEY=$(sed -n 's/.*runtime: .*, key \([0-9a-f]*\),.*/\1/p' "$T/sd/log" | head -n 1)

sc create -n "secrets" -m 256m >"$T/id" 2>"$T/create.err"
id=$(cat "$T/id")
check "a space to grant to" test -n "$id"
SECRET=sk-planted-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
printf '%s' "$SECRET" | sc grant "$id" model http://upstream.example/v1 x-api-key
check "the grant is taken" test $? -eq 0
# Some more traffic through both, as a process lives on.
sc list >/dev/null; sc show "$id" >/dev/null

scan "$SP_PID" "$SECRET" "$INSTALL" >"$T/spaced.scan"
scan "$DK_PID" "$SECRET" "$KEY" >"$T/docker.scan"
sed 's/^/# spaced: /' "$T/spaced.scan"; sed 's/^/# spaced-docker: /' "$T/docker.scan"
check "control: the scan finds the install id in spaced" \
    grep -qx "found $INSTALL" "$T/spaced.scan"
check "control: the scan finds the runtime key in spaced-docker" \
    grep -qx "found $KEY" "$T/docker.scan"
check "the grant's secret is not in spaced's memory" \
    grep -qx "absent $SECRET" "$T/spaced.scan"
check "the grant's secret is not in spaced-docker's memory" \
    grep -qx "absent $SECRET" "$T/docker.scan"
# Control: a secret in use is found.  A spacectl that has sent part of
# it and holds the connection: its bytes are in spaced's read buffer.
HELD=sk-held-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
{ printf '%s' "$HELD"; sleep 30; } |
    sc grant "$id" model2 http://upstream.example/v1 x-api-key >/dev/null 2>&1 &
held_pid=$!
held_found() {
	for p in $(pgrep -f "spacectl -s $T/sd/run/spaced.sock grant $id model2"); do
		scan "$p" "$HELD"
	done | grep -qx "found $HELD"
}
check "control: the scan finds a secret its spacectl still holds" \
    wait_for 10 held_found
kill "$held_pid" 2>/dev/null; wait "$held_pid" 2>/dev/null
check "core dumps: spaced's core limit is 0" \
    grep -Eq '^Max core file size +0 +0 ' "/proc/$SP_PID/limits"
sc remove "$id" >/dev/null 2>&1
finish
