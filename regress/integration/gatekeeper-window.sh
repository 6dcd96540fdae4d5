#!/bin/sh
# spaced-gatekeeper window: grants to a plain and a TLS upstream, header
# rules, the secret never shown, walk-outs, own listeners, the deadline.
. "$(dirname "$0")/gk/lib.sh"
setup
C=9099 CD=9097 JPORT=9099
W=http://$GKADDR:8080
start_gk gk $C $GKADDR 3128 8080 $C ||
    { not_ok "gatekeeper starts" "$(cat "$T/gk.err")"; finish; }
start_gk dl $CD $GKADDR 3130 8082 $CD 1500 ||
    { not_ok "deadline gatekeeper starts" "$(cat "$T/dl.err")"; finish; }
bg local nsx python3 "$GK_DIR/upstream.py" $GKADDR "$T/up" "$T/certs" http-only
SECRET=sk-gkt-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
SECRET2=ak-gkt-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
sha()
{
	printf '%s' "$1" | sha256sum | cut -d' ' -f1
}
g()
{
	grant $C "$@" || not_ok "POST /grants $1"
}
g g1 http://upstream.test.example/v1 authorization "Bearer $SECRET"
g gs https://upstream.test.example:8443/v1 x-api-key "$SECRET2"
g gwrong https://wrongname.test.example:8443/v1 x-api-key "$SECRET2"
g guntrusted https://upstream.test.example:8444/v1 x-api-key "$SECRET2"
g gauth http://auth.openai.com/v1 authorization "Bearer $SECRET"
g gnx http://nx.test.example/v1 authorization "Bearer $SECRET"
g gclosed http://closed.test.example:443/v1 authorization "Bearer $SECRET"
g own1 http://$GKADDR:8080/v1 authorization "Bearer $SECRET"
g own2 http://127.0.0.1:$C/v1 authorization "Bearer $SECRET"
g own3 http://$GKADDR:3128/v1 authorization "Bearer $SECRET"
g own4 http://127.0.0.1:8080/v1 authorization "Bearer $SECRET"
g ownok http://$GKADDR:80/v1 authorization "Bearer $SECRET"
grant $CD gd http://upstream.test.example/v1 authorization "Bearer $SECRET" ||
    not_ok "POST /grants on the deadline gatekeeper"

n=0
# w PATH [CURL ARGS]: a window request; the answer is kept in
# $T/col/w.N (named by $A), its status in $s.
w()
{
	n=$((n + 1)); A=$T/col/w.$n
	_p=$1; shift
	nsx curl -s -i --path-as-is --max-time 20 -o "$A" "$@" "$W$_p"
	s=$(status_of "$A")
}
body()
{
	sed '1,/^\r$/d' "$A"
}
# wcount DECISION: window records with that decision (re-reads journal).
wcount()
{
	journal "${2:-$C}"
	jq --arg d "$1" '[.records[] | select(.listener == "window" and
	    (if ($d | endswith("*")) then (.decision | startswith($d[:-1]))
	    else .decision == $d end))] | length' "$T/journal.json"
}

# Plain http upstream, client credentials removed, grant header set.
w /model/g1/chat -H "authorization: Bearer client-junk" \
    -H "x-api-key: client-key" -H "proxy-authorization: Basic junk"
check "http grant: 200" test "$s" = 200
check "... rest appended to the upstream path" \
    test "$(body | jq -r .path)" = /v1/chat
check "... the grant's header arrives once, with the grant's secret" \
    test "$(body | jq -c .hashes.authorization)" = "[\"$(sha "Bearer $SECRET")\"]"
check "... the client's x-api-key and proxy-authorization removed" \
    test "$(body | jq -c '[.headers[] | select(. == "x-api-key" or
    . == "proxy-authorization")]')" = "[]"
check "... journal window allow" jhas window upstream.test.example allow
w /model/g1/up -X POST --data-binary "hello-body"
check "http grant: a POST body arrives whole" \
    test "$s:$(body | jq -r .body_sha256)" = "200:$(sha hello-body)"

# The same credentials in other cases and twice: all removed.
printf 'GET /model/g1/chat HTTP/1.1\r\nHost: w\r\nAUTHORIZATION: Bearer c1\r\nauthorization: Bearer c2\r\nX-Api-Key: k1\r\nx-api-key: k2\r\nProxy-Authorization: Basic p\r\nConnection: close\r\n\r\n' |
    cli raw $GKADDR 8080 --keep >"$T/col/dup" 2>/dev/null
A=$T/col/dup
check "credentials in any case, twice: only the grant's arrives" \
    test "$(body | jq -c '[.hashes, ([.headers[] | select(. == "x-api-key"
    or . == "proxy-authorization")] | length)]')" = \
    "[{\"authorization\":[\"$(sha "Bearer $SECRET")\"]},0]"

# TLS upstream: the test CA, the host name and SNI.
w /model/gs/chat -H "authorization: Bearer client-junk"
check "https grant (test CA): 200" test "$s" = 200
check "... SNI is the upstream's name" \
    test "$(body | jq -r .sni)" = upstream.test.example
check "... x-api-key is the grant's, the client's authorization removed" \
    test "$(body | jq -c '[.hashes, (.headers | index("authorization"))]')" = \
    "[{\"x-api-key\":[\"$(sha "$SECRET2")\"]},null]"
w /model/gwrong/chat
check "https to a name the certificate does not cover: refused (${s:-none})" \
    test "$s" != 200 -a "$(wcount 'failed:*')" != 0
w /model/guntrusted/chat
# The refusal by its name: a 502 for any other reason (a refused
# connection, a handshake that failed for something else) is not this.
check "https with a certificate from an unknown CA: 502, journal failed:UNABLE_TO_GET_ISSUER_CERT_LOCALLY (${s:-none})" \
    test "$s" = 502 -a \
    "$(wcount failed:UNABLE_TO_GET_ISSUER_CERT_LOCALLY)" = 1
check "... no request reached the untrusted upstream" \
    eval '! grep -q "^8444 " "$T/up/http.log"'
check "... and none reached the wrongly named one" \
    test "$(grep -c '^8443 ' "$T/up/http.log")" = 1

# Unknown grant, always refused, unresolved.
w /model/nope/chat
check "unknown grant: 403" test "$s" = 403
journal $C
check "... journal deny:no-grant" jqt '[.records[] | select(.listener ==
    "window" and .decision == "deny:no-grant")] | length == 1' "$T/journal.json"
w /model/gauth/chat
check "grant at auth.openai.com refused (${s:-none})" eval \
    '[ "$s" != 200 ] && jhas window auth.openai.com deny:always-refused'
w /model/gnx/chat
check "grant at an unresolvable name refused (${s:-none})" eval \
    '[ "$s" != 200 ] && jhas window nx.test.example "deny:unresolved:*"'

w /model/gclosed/chat
check "grant at a closed port: 502, journal failed:<code> (${s:-none})" eval \
    '[ "$s" = 502 ] && jhas window closed.test.example "failed:*"'

# Grants at the gatekeeper's own listeners.
for id in own1 own2 own3 own4; do
	before=$(wcount deny:own-listener)
	w /model/$id/chat
	check "grant $id at an own listener: refused (${s:-none})" \
	    test "$s" != 200 -a "$(wcount deny:own-listener)" = $((before + 1))
done
w /model/ownok/chat
check "positive control: own address, another port: 200" test "$s" = 200

# Walk-outs, decoded to a fixed point; the scoped npm path passes.
reqs=$(wc -l <"$T/up/http.log")
for rest in %2e%2e/x .%2e/x %2e./x ..%2fx ..%5cx '..;/x' ../x a/../../x \
    %252e%252e/x %25252e%25252e/x %2525252e%2525252e/x '..%3fx' \
    '%2e%2e%3bx' '..\x' '%zz/x' '..?x=1' '%2E%2E/x'; do
	before=$(wcount deny:path-walks-out)
	w "/model/g1/$rest"
	after=$(wcount deny:path-walks-out)
	check "walk-out $rest: 403 deny:path-walks-out" \
	    test "$s:$after" = "403:$((before + 1))"
done
check "no walk-out reached the upstream" \
    test "$(wc -l <"$T/up/http.log")" = "$reqs"
w /model/g1/@scope%2fname
check "scoped npm path /@scope%2fname: 200, verbatim upstream" \
    test "$s:$(body | jq -r .path)" = "200:/v1/@scope%2fname"
w /model/g1/a..b/c.d/...x
check "dots that are not a walk-out pass" \
    test "$s:$(body | jq -r .path)" = "200:/v1/a..b/c.d/...x"

# Hostile input on the window.
for line in 'GET' 'GET /model/g1/x' 'GET  /model/g1/x HTTP/1.1' \
    'BREW /model/g1/x HTTP/9.9' '%%% %%% %%%'; do
	printf '%s\r\n\r\n' "$line" | cli raw $GKADDR 8080 >"$T/col/wm" 2>/dev/null
	s=$(status_of "$T/col/wm")
	check "window malformed '$line': not 200 (${s:-closed})" test "$s" != 200
done
check "window malformed requests journalled deny:unreadable-request" \
    test "$(wcount deny:unreadable-request)" -ge 1
python3 -c 'import sys
sys.stdout.write("GET /model/g1/x HTTP/1.1\r\nX-Big: " + "a" * 200000 +
    "\r\n\r\n")' | cli raw $GKADDR 8080 >"$T/col/wbig" 2>/dev/null
s=$(status_of "$T/col/wbig")
check "window 200,000-character header: 4xx or close (${s:-closed})" \
    eval 'case "$s" in 4??|"") true;; *) false;; esac'
printf 'GET /model/g1/x HTTP/1.1\r\nHost: x\r\n\r\n' |
    cli raw $GKADDR 8080 --reset-after 10 >/dev/null 2>&1
check "window: process alive, health 200" eval 'alive gk && health $C'
w /model/g1/x
check "window still answers after hostile input" test "$s" = 200

# The deadline: silence for 1.5 s is a 504 with one failed:timeout; a
# byte every 700 ms for 5 s is not silence.
W=http://$GKADDR:8082
w /model/gd/silent
check "deadline: silent upstream answered 504" test "$s" = 504
check "... exactly one failed:timeout" test "$(wcount failed:timeout $CD)" = 1
w /model/gd/drip
check "deadline: dripping upstream completes" \
    test "$s:$(body)" = "200:dripped"
check "... still exactly one failed:timeout" \
    test "$(wcount failed:timeout $CD)" = 1

# Grant ids: one rule for control and the window.  A grant control takes
# must be one the window routes, and one it cannot route is 400, never a
# 200 for a grant nobody can reach.  "ok:" ids must be taken and routed.
W=http://$GKADDR:8080
id64=$(printf 'i%.0s' $(seq 64)) id65=$(printf 'i%.0s' $(seq 65))
id128=$(printf 'j%.0s' $(seq 128))
for id in ok:Az09_-x ok:$id64 a.b a~b . .. '~' $id65 $id128 A%41 'a b'; do
	want=no
	case $id in ok:*) want=yes id=${id#ok:};; esac
	c=$(ctl $C POST /grants "$(jq -nc --arg i "$id" '{id:$i,
	    upstream:"http://upstream.test.example/v1",header:"x-api-key",
	    secret:"k-id"}')" | tail -n 1)
	if [ "$c" = code=200 ]; then
		w "/model/$id/chat"
		got="accepted, window ${s:-none}"
	else
		got="refused ${c#code=}"
	fi
	label="grant id '$(printf %.20s "$id")' (${#id} bytes)"
	if [ $want = yes ]; then
		check "$label: accepted and routed ($got)" \
		    test "$got" = "accepted, window 200"
	else
		check "$label: refused 400 ($got)" test "$got" = "refused 400"
	fi
done

# A grant posted again replaces the old one.
SECRET3=sk-gkt-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
W=http://$GKADDR:8080
g g1 http://upstream.test.example/v2 authorization "Bearer $SECRET3"
w /model/g1/chat
check "a grant posted again replaces the old one" test \
    "$s:$(body | jq -r '.path + " " + .hashes.authorization[0]')" = \
    "200:/v2/chat $(sha "Bearer $SECRET3")"

# The journal and stdout hold no path, query, body or header value.
journal $C
# Each file read and searched on its own: a missing one is no "nothing".
for f in journal.json gk.out dl.out; do
	lacks "no path, body or header value in $f" "$T/$f" \
	    -E "client-junk|client-key|hello-body|@scope|/v1|/chat|Basic"
done

# The secret is in nothing the test collected: answers, journals, stdout
# and stderr of both gatekeepers.  Control: the grep finds it when there.
journal $C; journal $CD
printf 'x%sx\n' "$SECRET" >"$T/plant"
check "control: the grep finds a planted secret" grep -qF "$SECRET" "$T/plant"
hits=$(grep -lF -e "$SECRET" -e "$SECRET2" -e "$SECRET3" "$T"/col/* "$T"/gk.out "$T"/gk.err \
    "$T"/dl.out "$T"/dl.err 2>/dev/null)
check "secrets in no answer, journal, stdout or stderr" test -z "$hits"
[ -z "$hits" ] || echo "    found in: $hits"
check "process alive" eval 'alive gk && alive dl'
finish
