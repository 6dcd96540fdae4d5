#!/bin/sh
# spaced-gatekeeper: the bind argument, where each listener listens, the
# control channel's answers, and the journal's shape, ring and cuts.
. "$(dirname "$0")/gk/lib.sh"
setup
C=9099 JPORT=9099

# run_bad NAME BIND: the program must exit 2 with a message, never listen
# (timeout: a hang guard of 30 s, no measure).
run_bad()
{
	nsx timeout 30 "$GK_BIN" "$2" 3128 8080 $C >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	if [ $rc = 2 ] && [ -s "$T/bad.err" ]; then
		ok "bind $1: exit 2 with a message"
	else
		not_ok "bind $1: exit 2 with a message" "exit $rc (124 = still running)" \
		    "stderr: $(head -c 200 "$T/bad.err")"
	fi
}

: >"$T/empty"
echo 0.0.0.0 >"$T/any4"
echo "not an address" >"$T/junkfile"
run_bad "0.0.0.0" 0.0.0.0
run_bad "::" ::
run_bad "missing file" "$T/missing"
run_bad "empty file" "$T/empty"
run_bad "file holding 0.0.0.0" "$T/any4"
run_bad "file holding junk" "$T/junkfile"
run_bad "junk" junk
run_bad "address with a port" 203.0.113.1:3128
run_bad "999.1.1.1" 999.1.1.1
run_bad "empty argument" ""

# The positive control: an address file works, and so does an address.
echo $GKADDR >"$T/bindfile"
if start_gk gk $C "$T/bindfile" 3128 8080 $C; then
	ok "bind from an address file: health 200"
else
	not_ok "bind from an address file: health 200" "$(cat "$T/gk.err")"
	finish
fi

connects()
{
	nsx python3 -c 'import socket,sys
socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3)' \
	    "$1" "$2" 2>/dev/null
}
check "corridor listens on BIND" connects $GKADDR 3128
check "window listens on BIND" connects $GKADDR 8080
check "corridor not on 127.0.0.1" eval '! connects 127.0.0.1 3128'
check "window not on 127.0.0.1" eval '! connects 127.0.0.1 8080'
check "control not on BIND" eval '! connects $GKADDR $C'
check "control on 127.0.0.1" connects 127.0.0.1 $C

# Control channel answers.
code()
{
	ctl $C "$@" | tail -n 1
}
check "GET /health is 200" test "$(code GET /health)" = code=200
check "GET /nope is 404" test "$(code GET /nope)" = code=404
check "POST /health is 404" test "$(code POST /health '{}')" = code=404
check "GET /network is 404" test "$(code GET /network)" = code=404
check "GET /journal/x is 404" test "$(code GET /journal/x)" = code=404
for body in '[]' 'null' 'junk' '"mode"' '42' '{"mode":' ''; do
	check "POST /network body '$body' is 400" \
	    test "$(code POST /network "$body")" = code=400
	check "POST /grants body '$body' is 400" \
	    test "$(code POST /grants "$body")" = code=400
done
check "process alive after control refusals" alive gk
# Once its listeners are up it confines itself: read from the kernel.
st=/proc/$(cat "$T/gk.pid")/status
check "the pid read is the gatekeeper's (control)" \
    grep -q '^Name:[[:space:]]*spaced-gatekee' "$st"
check "confined once up: Seccomp 2" grep -q '^Seccomp:[[:space:]]*2$' "$st"
check "confined once up: NoNewPrivs 1" grep -q '^NoNewPrivs:[[:space:]]*1$' "$st"

# A new gatekeeper allows nothing; the same target passes once listed.
out=$(cli tunnel $GKADDR 3128 upstream.test.example:443 echo)
check "fresh gatekeeper: allowlist mode, empty list, 403" \
    test "$(echo "$out" | head -n 1)" = status=403
check "... journalled deny:not-on-allowlist" \
    jhas corridor upstream.test.example deny:not-on-allowlist
network $C allowlist upstream.test.example
out=$(cli tunnel $GKADDR 3128 upstream.test.example:443 echo)
check "positive control: listed name gets a tunnel" \
    test "$(echo "$out" | tr '\n' ' ')" = "status=200 echo=ok "

# Journal shape, and every record also one JSON line on stdout.
journal $C
check "journal has records and dropped" jqt \
    '(.records | type == "array") and (.dropped | type == "number")' \
    "$T/journal.json"
check "records carry exactly at, listener, host, port, decision" jqt \
    '[.records[] | keys == ["at","decision","host","listener","port"]] |
    all and length > 0' "$T/journal.json"
jq -c '.records[] | [.at,.listener,.host,.port,.decision]' "$T/journal.json" |
    sort >"$T/j.lines"
grep '^{' "$T/gk.out" | jq -c '[.at,.listener,.host,.port,.decision]' \
    2>/dev/null | sort >"$T/o.lines"
check "every journal record is a JSON line on stdout" \
    test -s "$T/j.lines" -a -z "$(comm -23 "$T/j.lines" "$T/o.lines")"

# Cuts: a host is cut to 256 characters.
l63=$(printf 'a%.0s' $(seq 63))
long=$l63.$l63.$l63.$l63.$l63.example
cli tunnel $GKADDR 3128 "$long:443" echo >/dev/null
journal $C
check "a 325-character host is journalled cut to 256" jqt --arg h "$long" \
    '[.records[] | select(.host == ($h[:256]))] | length == 1' \
    "$T/journal.json"
printf 'GET http://%s/p HTTP/1.1\r\nHost: x\r\n\r\n' "$long" |
    cli raw $GKADDR 3128 >/dev/null 2>&1
journal $C
check "plain proxy request: host cut to 256, deny:not-connect" jqt \
    --arg h "$long" '[.records[] | select(.host == ($h[:256]) and
    .decision == "deny:not-connect")] | length == 1' "$T/journal.json"

# The ring holds 500 and counts what it dropped.
n0=$(jq '.records | length' "$T/journal.json")
out=$(cli refusals $GKADDR 3128 520 'flood-%d.test.example:443')
check "520 unlisted names refused" test "$out" = "403=520"
journal $C
check "ring holds 500 records" jqt '.records | length == 500' \
    "$T/journal.json"
check "dropped counts the rest ($n0 + 520 - 500)" jqt --argjson d \
    $((n0 + 520 - 500)) '.dropped == $d' "$T/journal.json"
check "newest record is the last attempt" jqt \
    '.records[-1].host == "flood-519.test.example"' "$T/journal.json"
check "process alive" alive gk

# -a NAME: on the allowlist from the start (the tools filler's gatekeeper
# is started so, with the registry alone); another name still 403, the
# control being that the same gatekeeper without -a refused it above.
if start_gk gka 9199 -a second.test.example -a Upstream.Test.Example \
    $GKADDR 3138 8090 9199; then
	out=$(cli tunnel $GKADDR 3138 upstream.test.example:443 echo)
	check "-a: the name (the second of two, in another case) gets a tunnel with no control call" \
	    test "$(echo "$out" | tr '\n' ' ')" = "status=200 echo=ok "
	out=$(cli tunnel $GKADDR 3138 other.test.example:443 echo)
	check "-a: another name is refused (403)" \
	    test "$(echo "$out" | head -n 1)" = status=403
else
	not_ok "a gatekeeper with -a starts" "$(cat "$T/gka.err")"
fi
nsx timeout 30 "$GK_BIN" -a 'not a name' $GKADDR 3148 8100 9299 \
    >"$T/bad.out" 2>"$T/bad.err"
check "-a with what is not a name: exit 2" test $? = 2
finish
