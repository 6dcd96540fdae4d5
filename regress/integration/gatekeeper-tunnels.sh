#!/bin/sh
# spaced-gatekeeper tunnels: the connection caps climbed rung by rung, the
# tunnel cap with real tunnels, TCP teardown (4 MiB full duplex while the
# client still uploads, half-close each way), 2,000 tunnels closed one
# after the other and 20 peers killed.
. "$(dirname "$0")/gk/lib.sh"
GK_DNS="blackhole.test.example=drop"	# asked, never answered
setup
C=9099 C2=9098 JPORT=9099
start_gk gk $C $GKADDR 3128 8080 $C ||
    { not_ok "gatekeeper starts" "$(cat "$T/gk.err")"; finish; }
start_gk caps $C2 $GKADDR 3129 8081 $C2 300000 2 2 2 ||
    { not_ok "caps gatekeeper starts" "$(cat "$T/caps.err")"; finish; }
network $C allowlist upstream.test.example
network $C2 allowlist upstream.test.example blackhole.test.example
grant $C2 gh http://upstream.test.example/v1 x-api-key k-caps ||
    not_ok "POST /grants on the caps gatekeeper"

# Half a request head, then nothing: let go after the head timeout.
bg slowc cli slow $GKADDR 3128
bg sloww cli slow $GKADDR 8080

tun()
{
	cli tunnel $GKADDR "${2:-3128}" "$1" echo | tr '\n' ' ' | tr -d '\r'
}

# Caps 2 2 2: two proven connections, then the third is dropped with
# nothing on it and journalled; then the places are back.
for spec in corridor:3129 window:8081 control:$C2; do
	kind=${spec%:*} port=${spec#*:}
	addr=$GKADDR; [ $kind = control ] && addr=127.0.0.1
	out=$(cli rungs $addr $port $kind 2 /model/gh/hold | tr '\n' ' ')
	case $out in
	"rungs=2 next=dropped end=eof "|"rungs=2 next=dropped end=reset ")
		ok "$kind cap 2: two rungs proven, the third dropped";;
	*)	not_ok "$kind cap 2: two rungs proven, the third dropped" "$out";;
	esac
	if waitfor 5 health $C2; then
		journal $C2
		check "... journal $kind deny:too-many-connections" jqt \
		    --arg l $kind '[.records[] | select(.listener == $l and
		    .decision == "deny:too-many-connections")] | length >= 1' \
		    "$T/journal.json"
	else
		not_ok "... control answers again after the $kind climb"
	fi
done
check "caps: corridor carries again once the rungs went" \
    waitfor 5 eval 'test "$(tun upstream.test.example:443 3129)" = "status=200 echo=ok "'
wecho()
{
	test "$(nsx curl -s --max-time 2 -o /dev/null -w '%{http_code}' \
	    http://$GKADDR:8081/model/gh/echo)" = 200
}
check "caps: window answers again once the rungs went" waitfor 5 wecho
check "caps gatekeeper alive" alive caps

# Clients that leave while their name is being resolved (the DNS server
# never answers) free their places at once, on a half-close as well as
# on a close: with cap 2 both places are back long before the 15 s
# connect timeout would have freed them.
cli leave $GKADDR 3129 blackhole.test.example:443 end >/dev/null
cli leave $GKADDR 3129 blackhole.test.example:443 close >/dev/null
check "... the lookups were really pending (the DNS server was asked)" \
    grep -q '^blackhole.test.example ' "$T/dns.log"
two()
{
	cli hold $GKADDR 3129 upstream.test.example:443 2 two HOLD exit |
	    grep -q '^ready 2$'
}
# 10 s: before the connect timeout (15 s) frees them, with room for a
# loaded machine; no measure of speed.
check "clients gone while resolving: both places back before the 15 s connect timeout" \
    waitfor 10 two

# 2,000 tunnels one after the other, each closed by its client before
# the next opens, to an upstream that takes a second to finish: the
# client's close frees the place, so none meets the cap (the 64 held
# tunnels below are the control that the cap still counts).
out=$(cli closing $GKADDR 3128 upstream.test.example:443 2000 LATE)
check "2,000 tunnels closed one after the other: every one 200 ($out)" \
    test "$out" = "200=2000"
lates()
{
	[ "$(wc -l <"$T/up/late.log")" -ge 2000 ]
}
check "... each carried its line to the upstream" waitfor 30 lates

# 64 real tunnels, the 65th refused 503, places back as clients go.
bg hold64 cli hold $GKADDR 3128 upstream.test.example:443 64 h64 HOLD
if waitfor 30 grep -q '^ready\|^rung' "$T/hold64.out" &&
    grep -q '^ready 64$' "$T/hold64.out"; then
	ok "64 tunnels established and proven"
else
	not_ok "64 tunnels established and proven" "$(cat "$T/hold64.out")"
fi
printf 'CONNECT upstream.test.example:443 HTTP/1.1\r\n\r\n' |
    cli raw $GKADDR 3128 --keep >"$T/col/65th" 2>/dev/null
check "65th tunnel: 503 refused" eval '[ "$(status_of "$T/col/65th")" = 503 ] &&
    grep -qi "^x-gatekeeper-reason: refused" "$T/col/65th"'
check "... journal deny:too-many-tunnels" \
    jhas corridor upstream.test.example deny:too-many-tunnels
kill "$(cat "$T/hold64.pid")"
closed()
{
	[ "$(ls "$T/up" | grep -c "^$1.*\.closed$")" -ge "$2" ]
}
check "upstream sees all 64 closed after the client went" waitfor 10 closed h64- 64
bg again cli hold $GKADDR 3128 upstream.test.example:443 64 again HOLD
check "64 places back: 64 new tunnels" \
    eval 'waitfor 30 grep -q "^ready\|^rung" "$T/again.out" &&
    grep -q "^ready 64$" "$T/again.out"'
kill "$(cat "$T/again.pid")"
waitfor 10 closed again- 64

# 4 MiB each way at once; the upstream ends its side while the client is
# still uploading.
out=$(cli tunnel $GKADDR 3128 upstream.test.example:443 duplex 4194304 dup1)
echo "$out" | sed 's/^/    /'
sent=$(cat "$T/up/dup1.sent" 2>/dev/null)
waitfor 10 test -s "$T/up/dup1.recv"
has()
{
	echo "$out" | grep -q "$1"
}
check "duplex: client received all 4 MiB, sha256 equal" \
    has "down-count=4194304 down-end=eof down-sha=$sent"
upsha=$(echo "$out" | sed -n 's/^up-sha=//p')
check "duplex: upstream received all 4 MiB, sha256 equal" \
    grep -q "^4194304 $upsha\$" "$T/up/dup1.recv"
check "duplex: the upload went on to its end after the download ended" \
    has "uploaded=4194304 upload-error=none"
at=$(echo "$out" | sed -n 's/^uploaded-at-down-eof=//p')
check "duplex: the download ended while the client was still uploading ($at)" \
    test "${at:--1}" -ge 0 -a "${at:-0}" -lt 4194304

# Half-close, each way.
out=$(cli tunnel $GKADDR 3128 upstream.test.example:443 half1 | tr '\n' ' ')
check "client half-closes: upstream sees EOF and still answers" \
    test "$out" = "status=200 half1=GOT 17|AFTER-EOF| end=eof "
out=$(cli tunnel $GKADDR 3128 upstream.test.example:443 half2 hc2 | tr '\n' ' ')
check "upstream half-closes: client sees EOF" \
    test "$out" = "status=200 half2-read=BYE end=eof "
check "... and what the client sends next still arrives" \
    waitfor 5 grep -q '^after-fin-hc2$' "$T/up/hc2.recv"

# 20 peers holding streaming tunnels killed with SIGKILL: their places
# are back at once (long before the 300 s idle limit).
i=0
while [ $i -lt 20 ]; do
	bg peer$i cli hold $GKADDR 3128 upstream.test.example:443 1 k$i STREAM
	i=$((i + 1))
done
ready=0
i=0
while [ $i -lt 20 ]; do
	waitfor 20 grep -q '^ready\|^rung' "$T/peer$i.out" &&
	    grep -q '^ready 1$' "$T/peer$i.out" && ready=$((ready + 1))
	i=$((i + 1))
done
check "20 streaming tunnels established" test $ready = 20
for i in $(seq 0 19); do kill -9 "$(cat "$T/peer$i.pid")"; rm "$T/peer$i.pid"; done
check "upstream side of all 20 closed after the kill" waitfor 10 closed k 20
bg after cli hold $GKADDR 3128 upstream.test.example:443 64 after HOLD
check "after 20 killed: 64 new tunnels at once" \
    eval 'waitfor 30 grep -q "^ready\|^rung" "$T/after.out" &&
    grep -q "^ready 64$" "$T/after.out"'
kill "$(cat "$T/after.pid")"
# A client killed while both directions are backed up (it uploads, the
# upstream never reads; the upstream sends, it never reads): the
# gatekeeper learns of the death when it writes, and the upstream side,
# which still has bytes kept for it, is let go after a bounded linger.
bg stall cli hold $GKADDR 3128 upstream.test.example:443 1 st STALL
waitfor 20 grep -q '^ready\|^rung' "$T/stall.out"
check "backed-up tunnel established" grep -q '^ready 1$' "$T/stall.out"
sleep 1
kill -9 "$(cat "$T/stall.pid")"; rm "$T/stall.pid"
check "killed client's upstream side let go (linger, not the idle limit)" \
    waitfor 30 closed st- 1

# A flood of 600 sockets on each listener of the main gatekeeper: it
# survives, notes the drops a few times and not 1,500, and serves again.
for spec in $GKADDR:3128 $GKADDR:8080 127.0.0.1:$C; do
	out=$(cli flood ${spec%:*} ${spec#*:} 600)
	echo "    flood $spec: $out"
done
check "after the floods: alive and health 200" \
    eval 'alive gk && waitfor 10 health $C'
journal $C
check "after the floods: at most two notes per listener" jqt '[.records[] |
    select(.decision == "deny:too-many-connections")] | group_by(.listener) |
    map(length) | all(. <= 2)' "$T/journal.json"
check "after the floods: the corridor carries again" \
    waitfor 10 eval 'test "$(tun upstream.test.example:443)" = "status=200 echo=ok "'

# The slow clients started at the top were let go by the head timeout.
check "half a head on the corridor: let go" \
    waitfor 30 grep -q '^slow=let-go$' "$T/slowc.out"
check "half a head on the window: let go" \
    waitfor 30 grep -q '^slow=let-go$' "$T/sloww.out"
check "process alive" alive gk
check "health 200" health $C
finish
