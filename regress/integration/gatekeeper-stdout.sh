#!/bin/sh
# spaced-gatekeeper journal lines on stdout: a log reader that stops
# reading (a pipe or FIFO nobody drains, as a stalled docker log pipe)
# must not freeze the gatekeeper.  Records that do not fit are dropped
# and counted, tunnels and the window keep working, lines stay whole,
# and the open file description it shares with others is not changed.
. "$(dirname "$0")/gk/lib.sh"
setup
C=9099 CF=9098 JPORT=9099

# What start_gk runs in the gatekeeper's mount namespace.
MOUNTS='t=$1; shift
    mount --bind "$t/etc/hosts" /etc/hosts &&
    mount --bind "$t/etc/resolv.conf" /etc/resolv.conf &&
    mount --bind "$t/sslcerts" /etc/ssl/certs || exit 99
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    SSL_CERT_DIR=/etc/ssl/certs exec "$@"'
# The pid file is written by the process that then execs, through ip,
# unshare and sh (all exec in place), into the gatekeeper.
PIDEXEC='echo $$ >"$1"; shift; exec "$@"'

# gk: stdout an anonymous pipe (docker's case) whose reader, a sleep,
# never reads.
sh -c "$PIDEXEC" sh "$T/gk.pid" ip netns exec "$NSG" unshare -m \
    sh -c "$MOUNTS" sh "$T" "$GK_BIN" $GKADDR 3128 8080 $C 2>"$T/gk.err" |
    sleep 600 &
echo $! >"$T/gkreader.pid"

# fifo: stdout a FIFO; the reader holds it open read-write and never
# reads, and a second process (the holder) shares the gatekeeper's very
# open file description, as a parent shell or docker's shim would.
mkfifo "$T/fifo"
sleep 600 <>"$T/fifo" &
echo $! >"$T/fiforeader.pid"
exec 3>"$T/fifo"
sleep 600 >&3 &
echo $! >"$T/holder.pid"
sh -c "$PIDEXEC" sh "$T/fifo.pid" ip netns exec "$NSG" unshare -m \
    sh -c "$MOUNTS" sh "$T" "$GK_BIN" $GKADDR 3129 8081 $CF \
    >&3 2>"$T/fifo.err" &
exec 3>&-

waitfor 30 health $C || { not_ok "gatekeeper (pipe) starts" "$(cat "$T/gk.err")"; finish; }
waitfor 30 health $CF || { not_ok "gatekeeper (fifo) starts" "$(cat "$T/fifo.err")"; finish; }
ok "both gatekeepers start with a stalled stdout"
for p in $C $CF; do
	network $p allowlist upstream.test.example ||
	    not_ok "POST /network on $p"
	grant $p g1 http://upstream.test.example/v1 x-api-key k-stdout ||
	    not_ok "POST /grants on $p"
done

# O_NONBLOCK is 04000 in the octal flags of fdinfo.
nonblock()
{
	_f=$(sed -n 's/^flags:[[:space:]]*//p' "/proc/$1/fdinfo/$2")
	[ $((0$_f & 04000)) -ne 0 ]
}
check "holder's shared stdout still blocking (gatekeeper took its own)" \
    eval '! nonblock $(cat "$T/holder.pid") 1'

# Refusals of long names: ~330 bytes of journal line each.  Repeats
# are counted, and past 1000 denial lines a second the hosts fold, so
# 12000 of them write over 3 s of lines: past the pipe (64 KiB) and half
# the gatekeeper's buffer.  Then the corridor fails closed (issue 26):
# nothing it does goes unrecorded.
L60=$(printf 'a%.0s' $(seq 60))
FMT="%d.$L60.$L60.$L60.example:443"
ms()
{
	echo $(($(date +%s%N) / 1000000))
}
for spec in gk:3128:8080:$C fifo:3129:8081:$CF; do
	name=${spec%%:*} rest=${spec#*:}
	cp=${rest%%:*} rest=${rest#*:}
	wp=${rest%%:*} ctlp=${rest#*:}
	t0=$(ms)
	out=$(timeout 120 ip netns exec "$NSG" python3 "$GK_DIR/client.py" \
	    refusals $GKADDR $cp 12000 "$FMT" 2>&1 | tail -n 1)
	t1=$(ms)
	check "$name: 12000 refusals with stdout stalled, none let through ($out, $((t1 - t0)) ms)" \
	    eval 'echo "$out" | grep -q "^403=" && ! echo "$out" | grep -q "200="'
	check "$name: ... the later ones refused at once (fail closed)" \
	    eval 'echo "$out" | grep -Eq "(none|reset)="'
	out0=$out
	# the 60 s guards against a hang; a refusal is an answer (status= not 200)
	out=$(timeout 60 ip netns exec "$NSG" python3 "$GK_DIR/client.py" \
	    tunnel $GKADDR $cp upstream.test.example:443 echo 2>&1 |
	    tr '\n' ' ' | tr -d '\r')
	check "$name: then a tunnel is refused: it could not be journalled ($out)" \
	    eval 'echo "$out" | grep -q "^status=" &&
	    ! echo "$out" | grep -q "^status=200"'
	s=$(nsx curl -s -o /dev/null -w '%{http_code}' --max-time 5 \
	    "http://$GKADDR:$wp/model/g1/x")
	check "$name: and the window answers (${s:-none})" test "$s" = 200
	ctl $ctlp GET /journal | sed '$d' >"$T/journal.json"
	u=$(jq .unwritten "$T/journal.json" 2>/dev/null)
	check "$name: no record went unwritten (unwritten ${u:-none})" \
	    test "${u:-x}" = 0
	# each refused at once, and the tunnel: counted, not a line each.
	# One line a second however many (the fold), so the lines are
	# bounded by the flood's own seconds, not a number a loaded
	# machine outruns: the tunnel's, and a second begun at each end.
	closed=$(echo "$out0" | tr ' ' '\n' |
	    awk -F= '$1 == "none" || $1 == "reset" { n += $2 } END { print n + 1 }')
	secs=$(((t1 - t0) / 1000 + 1))
	check "$name: each refusal journalled, counted (deny:journal-unavailable x$closed, in $secs s)" \
	    jqt --argjson n "$closed" --argjson s "$secs" '[.records[] |
	    select(.decision == "deny:journal-unavailable") | .count // 1] |
	    add == $n and length <= $s + 2' "$T/journal.json"
	check "$name: alive, health 200" eval 'alive $name && health $ctlp'
done
check "fifo gatekeeper's own stdout is non-blocking" \
    nonblock "$(cat "$T/fifo.pid")" 1

# A reader that comes back gets whole lines, the newest included: it
# reads until the stall's own refusal (the newest kind of record) has
# come and a line has ended; the 60 s only guard against a hang.
ends_line() { [ "$(tail -c 1 "$1" | od -An -c | tr -d " ")" = "\\n" ]; }
drained() {
	cp "$T/drained" "$T/seen" &&
	    grep -q '"decision":"deny:journal-unavailable"' "$T/seen" &&
	    ends_line "$T/seen"
}
cat "$T/fifo" >"$T/drained" &
catpid=$!
waitfor 60 drained
kill "$catpid" 2>/dev/null; wait "$catpid" 2>/dev/null
lines=$(wc -l <"$T/seen")
check "fifo: a late reader gets whole JSON lines ($lines)" eval \
    '[ "$lines" -gt 100 ] && jq -e . "$T/seen" >/dev/null 2>&1 &&
    ends_line "$T/seen"'
check "fifo: ... the refusal of the stall among them" eval \
    'grep -q "\"decision\":\"deny:journal-unavailable\"" "$T/seen"'
out=$(timeout 60 ip netns exec "$NSG" python3 "$GK_DIR/client.py" \
    tunnel $GKADDR 3129 upstream.test.example:443 echo 2>&1 |
    tr '\n' ' ' | tr -d '\r')
check "fifo: read again, the corridor opens again (positive control)" \
    test "$out" = "status=200 echo=ok "
finish
