#!/bin/sh
# spaced-gatekeeper -u: the corridor and the window on corridor.sock and
# window.sock only, mode 0666 for the space's user, a stale socket
# replaced and anything else at the name left alone; and -C, the control
# channel's client, against the real control channel and stand-ins that
# stall, flood or garble.
. "$(dirname "$0")/gk/lib.sh"
setup
C=9099 JPORT=9099
S=$T/sock
mkdir -p "$S"
# Like the socket volume: the space's user may pass through, not list.
chmod 0711 "$T"
chmod 0755 "$S"
PY=/usr/bin/python3
SPACE_UID=10000

# mksock PATH: a socket file nobody listens on (what a dead run leaves).
mksock()
{
	$PY -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"
}
# asspace CMD...: as the space's uid, no groups.
asspace()
{
	setpriv --reuid=$SPACE_UID --regid=$SPACE_UID --clear-groups "$@"
}
# uconnect PATH: as the space's uid, connect and print ok or the errno.
uconnect()
{
	asspace $PY -c 'import errno, socket, sys
s = socket.socket(socket.AF_UNIX)
try:
	s.connect(sys.argv[1]); print("ok")
except OSError as e:
	print(errno.errorcode.get(e.errno, e.errno))' "$1" 2>&1
}
# tcp_listener PORT: the gatekeeper listens on TCP PORT, any address.
tcp_listener()
{
	nsx ss -ltnpH "sport = :$1" | grep -q '"spaced-gatekeep"'
}

# A stale socket of an earlier run at both the final and the temporary
# name; the rename replaces the first, the second is unlinked.
mksock "$S/corridor.sock"
mksock "$S/.window.sock.tmp"
stale=$(stat -c %i "$S/corridor.sock")

start_gk gk $C -u "$S" $GKADDR 3128 8080 $C ||
    { not_ok "gatekeeper -u starts" "$(cat "$T/gk.err")"; finish; }
ok "gatekeeper -u starts over a stale socket: health 200"
check "the stale corridor.sock was replaced" \
    test "$(stat -c %i "$S/corridor.sock")" != "$stale"
check "corridor.sock is a socket of mode 0666" \
    test "$(stat -c '%F %a' "$S/corridor.sock")" = "socket 666"
check "window.sock is a socket of mode 0666" \
    test "$(stat -c '%F %a' "$S/window.sock")" = "socket 666"
check "only the two sockets are left in SOCKDIR" \
    test "$(ls -A "$S" | tr '\n' ' ')" = "corridor.sock window.sock "

# Where it listens: control on 127.0.0.1, nothing else on TCP.
check "-u: no TCP listener on 3128" eval '! tcp_listener 3128'
check "-u: no TCP listener on 8080" eval '! tcp_listener 8080'
check "-u: the only TCP listener is control on 127.0.0.1" \
    test "$(nsx ss -ltnpH | grep '"spaced-gatekeep"' | awk '{print $4}' |
    tr '\n' ' ')" = "127.0.0.1:$C "

# The corridor through corridor.sock.
network $C allowlist upstream.test.example || not_ok "POST /network"
check "corridor.sock: an allowlisted CONNECT carries bytes" \
    test "$(cli tunnel "$S/corridor.sock" 0 upstream.test.example:443 echo |
    tr '\n' ' ' | tr -d '\r')" = "status=200 echo=ok "
check "... journalled allow" jhas corridor upstream.test.example allow
check "corridor.sock: a name off the list is refused (403)" \
    test "$(cli tunnel "$S/corridor.sock" 0 wrongname.test.example:443 echo |
    sed -n 1p)" = "status=403"
check "... journalled deny:not-on-allowlist" \
    jhas corridor wrongname.test.example deny:not-on-allowlist

# The window through window.sock.
SECRET=sk-gkt-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
grant $C g1 http://upstream.test.example/v1 authorization "Bearer $SECRET" ||
    not_ok "POST /grants g1"
grant $C own1 http://127.0.0.1:$C/v1 authorization "Bearer $SECRET" ||
    not_ok "POST /grants own1"
grant $C own2 http://$GKADDR:3128/v1 authorization "Bearer $SECRET" ||
    not_ok "POST /grants own2"
# wu PATH: a window request over window.sock; answer in $A, status in $s.
n=0
wu()
{
	n=$((n + 1)); A=$T/col/wu.$n
	curl -s -i --max-time 20 --unix-socket "$S/window.sock" -o "$A" \
	    "http://gatekeeper$1"
	s=$(status_of "$A")
}
wu /model/g1/chat
check "window.sock: a grant reaches its upstream (200)" test "$s" = 200
check "... at the grant's path" \
    test "$(sed '1,/^\r$/d' "$A" | jq -r .path)" = /v1/chat
check "... journalled window allow" jhas window upstream.test.example allow
wu /model/own1/chat
check "window.sock: a grant to control on 127.0.0.1 is refused (403)" \
    test "$s" = 403
wu /model/own2/chat
check "window.sock: a grant to BIND:CORRIDOR_PORT is refused (403)" \
    test "$s" = 403
journal $C
check "... both journalled deny:own-listener" \
    test "$(jq '[.records[] | select(.listener == "window" and
    .decision == "deny:own-listener")] | length' "$T/journal.json")" = 2

# The space's user: a socket of mode 0600 refuses it (the uid really
# changed), the gatekeeper's sockets let it in.
mksock "$T/neg.sock"
chmod 0600 "$T/neg.sock"
check "negative control: uid $SPACE_UID cannot connect to a 0600 socket" \
    test "$(uconnect "$T/neg.sock")" = EACCES
check "uid $SPACE_UID connects to corridor.sock" \
    test "$(uconnect "$S/corridor.sock")" = ok
check "uid $SPACE_UID connects to window.sock" \
    test "$(uconnect "$S/window.sock")" = ok
check "uid $SPACE_UID gets a grant's answer through window.sock" \
    test "$(asspace curl -s -o /dev/null -w '%{http_code}' --max-time 10 \
    --unix-socket "$S/window.sock" http://gatekeeper/model/g1/chat)" = 200

# Positive control for the listener checks: without -u they listen.
start_gk tcp 9098 $GKADDR 3130 8082 9098 ||
    not_ok "gatekeeper without -u starts" "$(cat "$T/tcp.err")"
check "positive control: without -u the corridor listens on TCP" \
    tcp_listener 3130
check "positive control: without -u the window listens on TCP" \
    tcp_listener 8082
kill "$(cat "$T/tcp.pid")" 2>/dev/null

# Nothing but a socket is replaced: a file or a directory at the name
# ends the program, and is left as it was.
# bad_name NAME SETUP: the gatekeeper must exit 1 and leave what SETUP made.
bad_name()
{
	d=$T/bad.$2
	rm -rf "$d"; mkdir -p "$d"
	case $2 in
	file)	echo keep >"$d/corridor.sock";;
	dir)	mkdir "$d/window.sock"; echo keep >"$d/window.sock/x";;
	link)	ln -s "$S/corridor.sock" "$d/corridor.sock";;
	tmpfile) echo keep >"$d/.corridor.sock.tmp";;
	esac
	nsx timeout 30 "$GK_BIN" -u "$d" $GKADDR 3131 8083 9096 \
	    >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	case $2 in
	file)	kept=$(cat "$d/corridor.sock");;
	dir)	kept=$(cat "$d/window.sock/x");;
	link)	kept=$(test -L "$d/corridor.sock" && echo keep);;
	tmpfile) kept=$(cat "$d/.corridor.sock.tmp");;
	esac
	if [ $rc = 1 ] && [ "$kept" = keep ] && grep -q 'not a socket' "$T/bad.err"
	then
		ok "$1: exit 1, left in place"
	else
		not_ok "$1: exit 1, left in place" "exit $rc, kept '$kept'" \
		    "stderr: $(head -c 300 "$T/bad.err")"
	fi
}
bad_name "a regular file at corridor.sock" file
bad_name "a directory at window.sock" dir
bad_name "a symlink at corridor.sock" link
bad_name "a regular file at the temporary name" tmpfile

# -C against the real control channel (run where 127.0.0.1 is its own).
# gkc ARGS...: stdout in $T/c.out, stderr in $T/c.err, status in $rc.
gkc()
{
	nsx "$GK_BIN" -C "$@" >"$T/c.out" 2>"$T/c.err"
	rc=$?
}
gkc GET /health
check "-C GET /health (default port): exit 0, the body" \
    test "$rc:$(cat "$T/c.out")" = '0:{"ok":true}'
gkc GET /health -p $C -t 5
check "-C GET /health -p $C -t 5: exit 0" test "$rc" = 0
check "... nothing on stderr" test ! -s "$T/c.err"

check "before: wrongname is refused in allowlist mode" \
    test "$(cli tunnel "$S/corridor.sock" 0 wrongname.test.example:443 echo |
    sed -n 1p)" = "status=403"
# stdin from files: a pipe would run gkc, and set rc, in a subshell.
printf '{"mode":"open","domains":[]}' >"$T/open.json"
rc=x
gkc POST /network <"$T/open.json"
check "-C POST /network with the body from stdin: exit 0" test "$rc" = 0
check "... open mode now lets wrongname through" \
    test "$(cli tunnel "$S/corridor.sock" 0 wrongname.test.example:443 echo |
    tr '\n' ' ' | tr -d '\r')" = "status=200 echo=ok "
gkc GET /journal
check "-C GET /journal: exit 0 and the allow of wrongname in it" \
    jqt '[.records[] | select(.host == "wrongname.test.example" and
    .decision == "allow")] | length >= 1' "$T/c.out"
rcp=$(printf '{"mode":"allowlist","domains":["upstream.test.example"]}' |
    nsx "$GK_BIN" -C POST /network >/dev/null 2>&1; echo $?)
check "-C POST /network with the body from a pipe: exit 0" test "$rcp" = 0
check "... allowlist mode again refuses wrongname" \
    test "$(cli tunnel "$S/corridor.sock" 0 wrongname.test.example:443 echo |
    sed -n 1p)" = "status=403"
printf '{"mode":"sideways"}' >"$T/bad.json"
gkc POST /network <"$T/bad.json"
check "-C POST /network with a bad body: exit 1, status 400 on stderr" \
    test "$rc" = 1 -a -n "$(grep 'status 400' "$T/c.err")"
gkc GET /nope
check "-C GET /nope: exit 1, \"status 404\" on stderr" \
    test "$rc" = 1 -a -n "$(grep 'status 404' "$T/c.err")"
check "... and the answer's body on stdout" \
    jqt '.error == "not_found"' "$T/c.out"
gkc GET /health -p 9
check "-C to a port nobody listens on: exit 2 with a reason" \
    test "$rc" = 2 -a -n "$(grep 'refused' "$T/c.err")"
head -c 1048577 /dev/zero >"$T/over"
gkc POST /network <"$T/over"
check "-C with stdin over 1 MiB: exit 2" \
    test "$rc" = 2 -a -n "$(grep 'over' "$T/c.err")"
head -c 1048576 /dev/zero >"$T/mib"
gkc POST /network <"$T/mib"
check "positive control: exactly 1 MiB is sent (control answers 413: exit 1)" \
    test "$rc" = 1 -a -n "$(grep 'status 413' "$T/c.err")"
for a in "get /health" "G3T /health" "GET health" "GET /a\ b" "GET /a$(printf '\177')" \
    "GET /health -p 0" "GET /health -t 0" "GET /health -x 1" "GET /health -p"; do
	# shellcheck disable=SC2086
	eval "gkc $a"
	check "-C $a: exit 2 (usage)" test "$rc" = 2
done

# -C against stand-ins of our own.
fake()
{
	bg "fake$1" nsx $PY "$GK_DIR/fakectl.py" "$1" "$T/fake$1.ready" "$2" \
	    ${3:-}
}
fake 9201 stall
fake 9202 big 3000000
fake 9203 big 2000000
fake 9204 eof 5000
fake 9205 short
fake 9206 garbage
fake 9207 chunked
waitfor 30 test -f "$T/fake9201.ready" -a -f "$T/fake9207.ready" ||
    not_ok "the stand-ins start" "$(cat "$T"/fake*.err)"
# Order, not time: a -t 5 client started first still waits when a -t 2
# one started after it gives up (with -t ignored, the first ends first).
nsx "$GK_BIN" -C GET /health -p 9201 -t 5 >/dev/null 2>"$T/c5.err" &
c5=$!
t0=$(date +%s)
gkc GET /health -p 9201 -t 2
echo "# -t 2 against a stall: $(($(date +%s) - t0)) s"
kill -0 "$c5" 2>/dev/null && c5_waits=1 || c5_waits=0
wait "$c5" && rc5=0 || rc5=$?
check "-C -t 2 against a server that stalls: exit 2" test "$rc" = 2
check "... before a -t 5 client started earlier gave up" test "$c5_waits" = 1
check "... which times out too, exit 2 (control: both clients wait on the stall)" \
    test "$rc5" = 2
check "... says it timed out" grep -q 'timed out' "$T/c.err"
# Confined while it waits: seccomp filter mode and no_new_privs.
# Spelt out: a function in the background would be a subshell.  Read
# until it has become the gatekeeper and confined itself (a filter is
# never lifted); the 60 s guard against a hang.
ip netns exec "$NSG" "$GK_BIN" -C GET /health -p 9201 -t 60 >/dev/null 2>&1 &
cpid=$!
confined() {
	grep -E '^(Seccomp|NoNewPrivs):' /proc/$cpid/status >"$T/c.status" 2>&1 &&
	    [ "$(tr -s '\t ' ' ' <"$T/c.status" | tr '\n' ' ')" = "NoNewPrivs: 1 Seccomp: 2 " ]
}
waitfor 60 confined
kill $cpid; wait $cpid
check "-C runs under a seccomp filter with no_new_privs" \
    test "$(tr -s '\t ' ' ' <"$T/c.status" | tr '\n' ' ')" = \
    "NoNewPrivs: 1 Seccomp: 2 "
gkc GET /health -p 9202
check "-C with an answer over 2 MiB: exit 2" \
    test "$rc" = 2 -a -n "$(grep 'over' "$T/c.err")"
gkc GET /health -p 9203
check "positive control: a 2000000-byte body is written whole, exit 0" \
    test "$rc:$(wc -c <"$T/c.out")" = "0:2000000"
gkc GET /health -p 9204
check "an answer without framing is read to EOF" \
    test "$rc:$(wc -c <"$T/c.out")" = "0:5000"
gkc GET /health -p 9205
check "-C with an answer cut short: exit 2" test "$rc" = 2
gkc GET /health -p 9206
check "-C with an answer that is not HTTP: exit 2" test "$rc" = 2
gkc GET /health -p 9207
check "-C with a chunked answer (control never sends one): exit 2" \
    test "$rc" = 2
finish
