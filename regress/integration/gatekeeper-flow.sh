#!/bin/sh
# spaced-gatekeeper flow: the journal's limiter for cap drops and
# unreadable requests (per listener, per kind, per minute), backpressure
# through a tunnel and the window (a fast sender, a slow reader, the
# gatekeeper's RSS bounded), and a tunnel's survivor flushed after the
# other side's reset.
. "$(dirname "$0")/gk/lib.sh"
setup
C=9099 CL=9096 JPORT=9099
start_gk gk $C $GKADDR 3128 8080 $C ||
    { not_ok "gatekeeper starts" "$(cat "$T/gk.err")"; finish; }
# A gatekeeper of its own, so that no earlier note shares its minute.
start_gk lim $CL $GKADDR 3131 8083 $CL 300000 2 2 2 ||
    { not_ok "limiter gatekeeper starts" "$(cat "$T/lim.err")"; finish; }
network $C allowlist upstream.test.example
network $CL allowlist upstream.test.example
grant $C gb http://upstream.test.example/v1 x-api-key k-flow ||
    not_ok "POST /grants gb"

# lcount LISTENER DECISION: records on the limiter gatekeeper.
lcount()
{
	journal $CL
	jq --arg l "$1" --arg d "$2" '[.records[] | select(.listener == $l and
	    .decision == $d)] | length' "$T/journal.json"
}

# Five requests the parser throws out, on one listener within a minute:
# each is answered 400, and one note stands for all five.
garbage()
{
	i=0 n400=0
	while [ $i -lt 5 ]; do
		printf '\000\001\377garbage\r\n\r\n' |
		    cli raw $GKADDR "$1" >"$T/col/garbage.$1.$i" 2>/dev/null
		[ "$(status_of "$T/col/garbage.$1.$i")" = 400 ] &&
		    n400=$((n400 + 1))
		i=$((i + 1))
	done
	echo $n400
}
check "corridor: five unreadable requests, each answered 400" \
    test "$(garbage 3131)" = 5
check "... one deny:unreadable-request note for the five" \
    test "$(lcount corridor deny:unreadable-request)" = 1
check "window: five unreadable requests, each answered 400" \
    test "$(garbage 8083)" = 5
check "... a note of the window's own (the corridor's does not silence it)" \
    test "$(lcount window deny:unreadable-request)" = 1
check "... and still one on the corridor" \
    test "$(lcount corridor deny:unreadable-request)" = 1
out=$(cli rungs $GKADDR 3131 corridor 2 | tr '\n' ' ')
case $out in
"rungs=2 next=dropped end="*) ok "corridor cap 2: the third connection dropped";;
*) not_ok "corridor cap 2: the third connection dropped" "$out";;
esac
check "... a deny:too-many-connections note in the same minute (another kind)" \
    test "$(lcount corridor deny:too-many-connections)" = 1
check "limiter gatekeeper alive" alive lim

# Backpressure: the upstream sends 64 MiB as fast as it is taken, the
# client reads 16 KiB every 50 ms for 3 s (or the other way round).
# The gatekeeper may hold a little, never the difference.
GKPID=$(cat "$T/gk.pid")
check "the RSS is the gatekeeper's" \
    test "$(readlink /proc/$GKPID/exe)" = "$(readlink -f "$GK_BIN")"
# pressure NAME OUTPUT: the bound and its control from one run's words.
pressure()
{
	echo "    $2"
	eval "$(echo "$2" | tr ' ' '\n' | grep -E '^(pushed|read|rss0|rssmax)=[0-9-]+$')"
	if [ -z "${rssmax:-}" ] || [ "${read:-0}" -le 0 ]; then
		not_ok "$1" "$2"
		return
	fi
	check "$1: the sender was far ahead of the reader (control)" \
	    test $((pushed - read)) -ge $((2 << 20))
	check "$1: gatekeeper RSS grew by less than 8 MiB ($((rssmax - rss0)) KiB)" \
	    test $((rssmax - rss0)) -lt 8192
	unset pushed read rss0 rssmax
}
pressure "tunnel download" "$(cli pressure $GKADDR 3128 \
    upstream.test.example:443 down $GKPID "$T/up" pd 3)"
pressure "tunnel upload" "$(cli pressure $GKADDR 3128 \
    upstream.test.example:443 up $GKPID "$T/up" pu 3)"
pressure "window answer" "$(cli wpressure $GKADDR 8080 /model/gb/big-wd \
    $GKPID "$T/up" wd 3)"
pressure "window body" "$(cli wpressure $GKADDR 8080 /model/gb/slowbody-wu \
    $GKPID "$T/up" wu 3)"

# A tunnel's upstream resets while the gatekeeper still holds bytes of
# its for the client (the client stopped reading): the client still
# gets every byte the gatekeeper had taken, then its end.  What the
# gatekeeper took is what the upstream saw acked less what still sat
# in the gatekeeper's socket there (lost with the reset either way).
# What it holds is counted from the kernel's queues, so bytes kept in a
# pipe count as much as bytes kept in its memory: backpressure again.
out=$(cli flush $GKADDR 3128 upstream.test.example:443 $GKPID "$T/up" fl |
    tr '\n' ' ')
echo "    flush: $out"
check "flush: the gatekeeper held bytes for the client at the reset (control)" \
    eval 'echo "$out" | grep -q "^held=[1-9]"'
held=$(echo "$out" | sed -n 's/^held=\([0-9-]*\).*/\1/p')
check "flush: it held under 1 MiB for a client that stopped reading (${held:-?})" \
    test "${held:-0}" -gt 0 -a "${held:-0}" -lt 1048576
took=$(echo "$out" | sed -n 's/.*took=\([0-9]*\).*/\1/p')
total=$(echo "$out" | sed -n 's/.*total=\([0-9]*\).*/\1/p')
check "flush: the client got every byte taken (${total:-?} of ${took:-?}), then EOF" \
    eval '[ -n "$took" ] && [ "${total:-0}" -ge "$took" ] &&
    echo "$out" | grep -q "end=eof"'

check "process alive" alive gk
check "health 200" health $C
finish
