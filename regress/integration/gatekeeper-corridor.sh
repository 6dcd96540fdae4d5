#!/bin/sh
# spaced-gatekeeper corridor: every refusal rule tried against a target
# that would otherwise get through, each with its positive control.
. "$(dirname "$0")/gk/lib.sh"
# DNS would send upstream.test.example to a closed port; /etc/hosts wins.
GK_DNS="upstream.test.example=203.0.113.11"
setup
C=9099 JPORT=9099
start_gk gk $C $GKADDR 3128 8080 $C ||
    { not_ok "gatekeeper starts" "$(cat "$T/gk.err")"; finish; }
LISTED="upstream.test.example private.test.example loop.test.example
metadata.test.example home.test.example auth.openai.com dnsonly.test.example
nx.test.example closed.test.example"
network $C allowlist $LISTED || not_ok "POST /network"

# tun TARGET: one CONNECT with an echo through it; prints one line.
tun()
{
	cli tunnel $GKADDR 3128 "$1" echo | tr '\n' ' ' | tr -d '\r' >"$T/tun"
	cat "$T/tun"
}

# refused NAME TARGET DECISION [HOST]: 403 + the reason header, and the
# journal names the rule.
refused()
{
	printf 'CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n' "$2" "$2" |
	    cli raw $GKADDR 3128 --keep >"$T/col/r.$4$3" 2>/dev/null
	f="$T/col/r.$4$3"
	h=${4:-${2%:*}}
	# An IPv6 literal may be journalled with or without its brackets.
	if [ "$(status_of "$f")" = 403 ] &&
	    grep -qi '^x-gatekeeper-reason: refused' "$f" &&
	    { jhas corridor "$h" "$3" ||
	    jhas corridor "$(echo "$h" | tr -d '[]')" "$3"; }; then
		ok "$1: 403 refused, journal $3"
	else
		journal $C
		not_ok "$1: 403 refused, journal $3" "answer: $(head -c 300 "$f")" \
		    "journal for $h: $(jq -c --arg h "$h" \
		    '[.records[] | select(.host == $h) | .decision]' \
		    "$T/journal.json")"
	fi
}

check "positive control: listed public name carries bytes (/etc/hosts first)" \
    test "$(tun upstream.test.example:443)" = "status=200 echo=ok "
check "... journalled allow" jhas corridor upstream.test.example allow
check "listed name in another case with a trailing dot carries bytes" \
    test "$(tun UPSTREAM.Test.Example.:443)" = "status=200 echo=ok "

# Names mapped to blocked ranges, all on the allowlist.
refused "10.0.0.5 by name" private.test.example:443 deny:blocked-address
refused "127.0.0.1 by name" loop.test.example:443 deny:blocked-address
refused "169.254.169.254 by name" metadata.test.example:443 deny:blocked-address
refused "192.168.1.1 by name" home.test.example:443 deny:blocked-address
refused "always refused, on the allowlist" auth.openai.com:443 \
    deny:always-refused
refused "not on the allowlist" notlisted.test.example:443 deny:not-on-allowlist
refused "subdomain of a listed name" sub.upstream.test.example:443 \
    deny:not-on-allowlist
refused "public address literal" 203.0.113.10:443 deny:not-a-name
refused "integer address" 3405803786:443 deny:not-a-name
refused "hex address" 0xcb00710a:443 deny:not-a-name
refused "IPv6 literal" '[::1]:443' deny:not-a-name '[::1]'
refused "port 0443" upstream.test.example:0443 deny:port upstream.test.example
refused "port +443" upstream.test.example:+443 deny:port upstream.test.example
refused "port 65979 (443 + 65536)" upstream.test.example:65979 deny:port \
    upstream.test.example
refused "port 80" upstream.test.example:80 deny:port upstream.test.example
refused "unresolved listed name" nx.test.example:443 'deny:unresolved:*'

# No query leaves for a name refused before any lookup; an allowed name
# not in /etc/hosts does make one, and gets its tunnel.
check "no DNS query for the unlisted name" \
    eval '! grep -q notlisted "$T/dns.log"'
check "positive control: listed name from DNS carries bytes" \
    test "$(tun dnsonly.test.example:443)" = "status=200 echo=ok "
check "... and its query reached the fake DNS server" \
    grep -q '^dnsonly.test.example 1$' "$T/dns.log"

# Every 403 is the same bytes whatever the rule.
same=1
for f in "$T"/col/r.deny:not-on-allowlist "$T"/col/r.deny:not-a-name \
    "$T"/col/r.upstream.test.exampledeny:port "$T"/col/r.deny:always-refused \
    "$T"/col/r.deny:blocked-address; do
	cmp -s "$f" "$T/col/r.deny:not-on-allowlist" || { same=0; echo "   differs: $f"; }
done
check "403 byte-identical across five refusal rules" test $same = 1

# A plain proxy request: 403, journalled by host only.
printf 'GET http://upstream.test.example/secret-path?tok=qq1 HTTP/1.1\r\nHost: upstream.test.example\r\n\r\n' |
    cli raw $GKADDR 3128 --keep >"$T/col/plain" 2>/dev/null
check "plain proxy request: 403" test "$(status_of "$T/col/plain")" = 403
check "plain proxy 403 identical to the others" \
    cmp -s "$T/col/plain" "$T/col/r.deny:not-on-allowlist"
check "... journal deny:not-connect with the host" \
    jhas corridor upstream.test.example deny:not-connect
check "... and no path or query in the journal" \
    eval '! grep -q "secret-path\|tok=qq1" "$T/journal.json" "$T/gk.out"'

# Unreachable: allowed, then failed, answered 502.
printf 'CONNECT closed.test.example:443 HTTP/1.1\r\n\r\n' |
    cli raw $GKADDR 3128 --keep >"$T/col/unreach" 2>/dev/null
check "unreachable listed host: 502 unreachable" eval \
    '[ "$(status_of "$T/col/unreach")" = 502 ] &&
    grep -qi "^x-gatekeeper-reason: unreachable" "$T/col/unreach"'
journal $C
check "... journal allow then failed:<code>" jqt '[.records[] |
    select(.host == "closed.test.example") | .decision] as $d |
    ($d | length) == 2 and $d[0] == "allow" and ($d[1] | test("^failed:."))' \
    "$T/journal.json"

# Open mode: the name rule opens, the others do not.
network $C open || not_ok "POST /network open"
check "open mode: unlisted public name carries bytes" \
    test "$(tun upstream.test.example:443)" = "status=200 echo=ok "
refused "open mode: always refused" auth.openai.com:443 deny:always-refused
refused "open mode: blocked address" private.test.example:443 \
    deny:blocked-address
refused "open mode: port 8443" upstream.test.example:8443 deny:port \
    upstream.test.example
refused "open mode: address literal" 203.0.113.10:443 deny:not-a-name
network $C allowlist $LISTED

# A refused client is let go by draining, not by a reset: one still
# uploading 4 MiB reads its 403 (a reset would throw the 403 away).
for i in 1 2 3; do
	out=$(cli uploading $GKADDR 3128 notlisted.test.example:443 4194304)
	check "refused client still uploading 4 MiB reads its 403 (run $i)" \
	    test "$out" = status=403
done
check "positive control: an uploading client of a listed name gets 200" \
    test "$(cli uploading $GKADDR 3128 upstream.test.example:443 1048576)" = \
    status=200
# The 403 alone does not show the drain (Linux keeps an answer already
# received through a reset): the whole upload is taken, and the client's
# end is answered with a FIN.
check "refused client: its 4 MiB taken, then a FIN, not a reset" \
    test "$(cli drained $GKADDR 3128 notlisted.test.example:443 4194304)" = \
    "status=403 sent=all end=eof"

# Hostile input: none of it may end the process.
n=0
for line in 'CONNECT' 'CONNECT upstream.test.example:443' \
    'CONNECT  upstream.test.example:443 HTTP/1.1' \
    'CONNECT upstream.test.example:443 HTTP/9.9' 'CONNECT :443 HTTP/1.1' \
    'CONNECT upstream.test.example: HTTP/1.1' '%%%% / HTTP/1.1' \
    'CONNECT upstream.test.example:443 HTTP/1.1 extra'; do
	n=$((n + 1))
	printf '%s\r\n\r\n' "$line" | cli raw $GKADDR 3128 >"$T/col/mal$n" 2>/dev/null
	s=$(status_of "$T/col/mal$n")
	case $s in
	200) not_ok "malformed line '$line': refused" "got 200";;
	*) ok "malformed line '$line': refused (${s:-closed})";;
	esac
done
printf '\000\001\377garbage\r\n\r\n' | cli raw $GKADDR 3128 >/dev/null 2>&1
journal $C
check "malformed requests journalled (deny:malformed or unreadable)" jqt \
    '[.records[] | select(.listener == "corridor" and (.decision ==
    "deny:malformed" or .decision == "deny:unreadable-request"))] |
    length >= 1' "$T/journal.json"
python3 -c 'import sys
sys.stdout.write("CONNECT upstream.test.example:443 HTTP/1.1\r\nX-Big: " +
    "a" * 200000 + "\r\n\r\n")' | cli raw $GKADDR 3128 >"$T/col/big" 2>/dev/null
s=$(status_of "$T/col/big")
check "200,000-character header block: 4xx or close (${s:-closed})" \
    eval 'case "$s" in 4??|"") true;; *) false;; esac'
python3 -c 'import sys
sys.stdout.write("CONNECT upstream.test.example:443 HTTP/1.1\r\n" +
    "X-H: b\r\n" * 20000 + "\r\n")' | cli raw $GKADDR 3128 >"$T/col/big2" 2>/dev/null
s=$(status_of "$T/col/big2")
check "20,000 header lines: 4xx or close (${s:-closed})" \
    eval 'case "$s" in 4??|"") true;; *) false;; esac'
req='CONNECT upstream.test.example:443 HTTP/1.1\r\nHost: upstream.test.example:443\r\n\r\n'
for cut in 0 5 20 30 200 200 200 200; do
	printf "$req" | cli raw $GKADDR 3128 --reset-after $cut >/dev/null 2>&1
done
check "process alive after hostile input" alive gk
check "health 200 after hostile input" health $C
check "corridor still carries after hostile input" \
    test "$(tun upstream.test.example:443)" = "status=200 echo=ok "
finish
