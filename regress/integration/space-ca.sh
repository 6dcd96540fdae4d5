#!/bin/sh
# The space CA bundle (spaced.conf(5) "space ca bundle"): on a network
# that inspects TLS the tools in a space must trust the site's CA, and
# only what the configuration names.  Two test CAs of our own (A, B)
# and a TLS server for each inside the space, on its loopback (both
# families: Node asks ::1 for localhost first); curl,
# Node, git and npm in the space are asked to reach both.
#   - spaced with a bundle of the system CAs and A: the variables are
#     in the space's environment, the file in its runtime volume is the
#     bundle byte for byte and read-only, and every client reaches A;
#     B, whose CA is not in the bundle, is refused by each (the check
#     can fail).
#   - the control, spaced without a bundle: no variables, and every
#     client refuses A (the trust came from the bundle, not the image).
#   - spaced with the bundle of B: a new runtime key, the new space
#     trusts B and not A; the first space, made with A, still trusts A.
#   - a filled runtime volume whose bundle was changed behind spaced's
#     back is refused (runtime_volume_foreign), after the control that the
#     genuine one is compared and taken.
#   - a bundle with no certificate in it: create answers runtime_missing
#     and spaced's log names the file; nothing is made.
. "$(dirname "$0")/../contract/lib.sh"

command -v openssl >/dev/null || { not_ok "openssl on the host"; finish; }
P=$T/pki
mkdir -p "$P"
for n in a b; do
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -keyout "$P/ca-$n.key" -out "$P/ca-$n.pem" -days 2 \
	    -subj "/CN=spaced test CA $n" 2>/dev/null &&
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -keyout "$P/srv-$n.key" -out "$P/srv-$n.csr" -subj "/CN=localhost" \
	    2>/dev/null &&
	printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$P/san" &&
	openssl x509 -req -in "$P/srv-$n.csr" -CA "$P/ca-$n.pem" \
	    -CAkey "$P/ca-$n.key" -CAcreateserial -out "$P/srv-$n.pem" \
	    -days 2 -extfile "$P/san" 2>/dev/null ||
	    { not_ok "test CA $n made"; finish; }
	# The bundle a site would name: the system's CAs and its own.
	cat /etc/ssl/certs/ca-certificates.crt "$P/ca-$n.pem" >"$P/bundle-$n.pem"
done
ok "two test CAs and a server certificate of each (localhost, 127.0.0.1)"

# restart [conf]: this suite's spaced again, with that configuration.
BASE_CONF=$SPACED_EXTRA_CONF
restart() {
	stop_spaced
	SPACED_EXTRA_CONF="$BASE_CONF
$1"
	start_spaced "$T/sd" || { sed 's/^/# /' "$T/sd/log"; return 1; }
}

# The servers (A on 8443, B on 8444) and the clients, in one exec: each
# client prints "name port: answer", the first line of what it said.
PROBE='
cd /tmp
for n in a b; do
	node -e "
	    const fs = require(\"fs\");
	    require(\"https\").createServer({ key: fs.readFileSync(\"srv-$n.key\"),
	        cert: fs.readFileSync(\"srv-$n.pem\") }, (q, s) => {
	        s.writeHead(404); s.end(\"none\\n\"); })
	    .listen(+process.argv[1], \"::\",
	        () => fs.writeFileSync(\"up-$n\", \"\"));" \
	    $([ $n = a ] && echo 8443 || echo 8444) >/dev/null 2>&1 &
done
i=0; while [ ! -e up-a ] || [ ! -e up-b ]; do
	i=$((i + 1)); [ $i -gt 100 ] && { echo "servers did not start"; exit 1; }
	sleep 0.1
done
one() { w=$1; shift; echo "$w: $("$@" 2>&1 | tr -d "\r" | grep -v "^$" | head -1)"; }
for port in 8443 8444; do
	u=https://localhost:$port
	one "curl $port" curl -sS -o /dev/null -w "%{http_code}\n" $u/
	one "node $port" node -e "require(\"https\").get(\"$u/\",
	    r => console.log(r.statusCode)).on(\"error\",
	    e => { console.log(e.code); process.exit(1); })"
	one "git $port" git ls-remote $u/r.git
	one "npm $port" npm view --registry=$u/ --fetch-retries=0 left-pad version
done
kill $(jobs -p) 2>/dev/null
'
# probe ID: the servers' files into the space's /tmp, then the probe
probe() {
	for f in srv-a.key srv-a.pem srv-b.key srv-b.pem; do
		sc exec "$1" -- /bin/sh -c "cat > /tmp/$f" <"$P/$f" || return 1
	done
	sc exec "$1" -- /bin/sh -c "$PROBE" >"$T/probe-$1" 2>&1
	sed 's/^/# /' "$T/probe-$1"
}
trusts() {	# ID PORT: every client reached the server
	grep -qx "curl $2: 404" "$T/probe-$1" &&
	grep -qx "node $2: 404" "$T/probe-$1" &&
	grep -q "^git $2: .*not found" "$T/probe-$1" &&
	grep -qx "npm $2: npm ERR! code E404" "$T/probe-$1"
}
refuses() {	# ID PORT: every client refused its certificate
	grep -Eq "^curl $2: curl: \(60\) SSL certificate problem" "$T/probe-$1" &&
	grep -qx "node $2: UNABLE_TO_VERIFY_LEAF_SIGNATURE" "$T/probe-$1" &&
	grep -q "^git $2: .*server certificate verification failed" "$T/probe-$1" &&
	grep -q "^npm $2: npm ERR! code UNABLE_TO_VERIFY_LEAF_SIGNATURE" "$T/probe-$1"
}
env_of() { api GET "/containers/spaced-space-$1-space/json" | jq -r '.Config.Env[]'; }
runtime_of() {
	api GET "/containers/spaced-space-$1-space/json" |
	    jq -r '.Mounts[] | select(.Destination == "/opt/spaced") | .Name'
}
CA_VARS="SSL_CERT_FILE CURL_CA_BUNDLE GIT_SSL_CAINFO NODE_EXTRA_CA_CERTS"

# --- with the bundle of A ------------------------------------------------
restart "space ca bundle \"$P/bundle-a.pem\"" || not_ok "spaced starts with a space ca bundle"
check "spaced's log names the bundle" \
    grep -q "space ca bundle $P/bundle-a.pem" "$T/sd/log"
# Its answer named when it fails: a key blind to the bundle meets the
# runtime volume of no bundle here, filled without one, and is refused.
a=$(sc create -n ca-a 2>"$T/a.err") ||
    { not_ok "create with the bundle of A: $(head -c 300 "$T/a.err")"; finish; }
ok "create with the bundle of A ($a)"
has_line() { printf '%s\n' "$1" | grep -Eqx "$2"; }
envs=$(env_of "$a")
for v in $CA_VARS; do
	check "$v=/opt/spaced/ca-certificates.crt in the space's environment" \
	    has_line "$envs" "$v=/opt/spaced/ca-certificates.crt"
done
sum_in=$(sc exec "$a" -- sha256sum /opt/spaced/ca-certificates.crt | cut -d' ' -f1)
check "the file inside is the bundle, byte for byte" \
    test "$sum_in" = "$(sha256sum "$P/bundle-a.pem" | cut -d' ' -f1)"
sc exec "$a" -- /bin/sh -c ': > /opt/spaced/ca-certificates.crt' >"$T/w" 2>&1
check "the bundle cannot be written from inside (Read-only file system)" \
    grep -qi "read-only file system" "$T/w"
probe "$a"
check "with A's bundle: curl, node, git and npm reach A" trusts "$a" 8443
check "with A's bundle: each refuses B, whose CA it lacks (the check can fail)" \
    refuses "$a" 8444
rt_a=$(runtime_of "$a")

# --- the control: no bundle ---------------------------------------------
restart "" || not_ok "spaced starts without a space ca bundle"
c=$(sc create -n ca-none) || { not_ok "create without a bundle"; finish; }
env_c=$(env_of "$c")
check "without a bundle: the environment is read (control: HOME is in it)" \
    has_line "$env_c" "HOME=.*"
check_fails "without a bundle: none of the variables" has_line \
    "$env_c" "(SSL_CERT_FILE|CURL_CA_BUNDLE|GIT_SSL_CAINFO|NODE_EXTRA_CA_CERTS)=.*"
probe "$c"
check "without a bundle: each refuses A (the trust came from the bundle)" \
    refuses "$c" 8443
check "without a bundle: another runtime volume ($(runtime_of "$c"))" \
    test "$(runtime_of "$c")" != "$rt_a"
check "without a bundle the key is the relay's alone, as before bundles" \
    test "$(runtime_of "$c")" = "spaced-runtime-$(sha256sum \
    "$tree/libexec/spaced/spaced-relay" | cut -c1-16)"

# --- the default: trust what the host trusts ------------------------------
restart "trust host" || not_ok "spaced starts trusting the host"
check "trust host: spaced's log names the host's bundle as the space's" \
    grep -q "space ca bundle /etc/ssl/certs/ca-certificates.crt" "$T/sd/log"
h=$(sc create -n ca-host) || { not_ok "create trusting the host"; finish; }
envs=$(env_of "$h")
check "trust host: the variables are in the space's environment" \
    has_line "$envs" "NODE_EXTRA_CA_CERTS=/opt/spaced/ca-certificates.crt"
check "trust host: the file inside is the host's bundle, byte for byte" \
    test "$(sc exec "$h" -- sha256sum /opt/spaced/ca-certificates.crt | cut -d' ' -f1)" = \
    "$(sha256sum /etc/ssl/certs/ca-certificates.crt | cut -d' ' -f1)"
sc remove "$h" >/dev/null || not_ok "remove $h"

# --- the bundle of B ----------------------------------------------------
restart "space ca bundle \"$P/bundle-b.pem\"" || not_ok "spaced starts with B's bundle"
b=$(sc create -n ca-b) || { not_ok "create with the bundle of B"; finish; }
rt_b=$(runtime_of "$b")
check "another bundle, another runtime volume ($rt_a, $rt_b)" \
    test -n "$rt_b" -a "$rt_b" != "$rt_a" -a "$rt_b" != "$(runtime_of "$c")"
probe "$b"
check "with B's bundle: each reaches B" trusts "$b" 8444
check "with B's bundle: each refuses A" refuses "$b" 8443
probe "$a"
check "the space made with A still trusts A (its runtime is its own)" \
    trusts "$a" 8443
sc stop "$a" >/dev/null && sc start "$a" >/dev/null
check "after stop and start it keeps its variables" has_line \
    "$(env_of "$a")" "SSL_CERT_FILE=/opt/spaced/ca-certificates.crt"

# --- a runtime volume whose bundle is not ours ----------------------------
# A fresh spaced-docker compares a filled volume with what it holds; the
# control first: the genuine volume of A passes and is taken.
restart "space ca bundle \"$P/bundle-a.pem\"" || not_ok "spaced starts with A's bundle again"
a2=$(sc create -n ca-a2) && ok "A's filled volume is compared and taken ($a2)" ||
    not_ok "A's filled volume is compared and taken"
check "it is the same volume" test "$(runtime_of "$a2")" = "$rt_a"
sc remove "$a2" >/dev/null
sc remove "$a" >/dev/null || not_ok "remove $a"
mp=$(api GET "/volumes/$rt_a" | jq -r .Mountpoint)
printf 'another bundle\n' >"$mp/ca-certificates.crt"
restart "space ca bundle \"$P/bundle-a.pem\"" || not_ok "spaced starts with A's bundle again"
sc create -n ca-foreign >"$T/foreign" 2>&1
sed "s/^/# /" "$T/foreign"
check "its bundle changed behind us: create answers runtime_volume_foreign" \
    grep -q "runtime_volume_foreign: the runtime volume holds another CA bundle" "$T/foreign"

# --- a file that is no bundle -------------------------------------------
printf 'not a certificate\n' >"$P/junk.pem"
restart "space ca bundle \"$P/junk.pem\"" || not_ok "spaced starts with a junk bundle"
check "a junk bundle: the log names it" grep -q "space ca bundle $P/junk.pem: no " "$T/sd/log"
sc create -n ca-junk >"$T/junk" 2>&1
check "a junk bundle: create answers runtime_missing" grep -q runtime_missing "$T/junk"
check "a junk bundle: nothing made" test "$(sc -j list | jq length)" -eq 2

# A bundle others may write: every fill would take whatever they put in.
cp "$P/bundle-a.pem" "$P/open.pem" && chmod 0666 "$P/open.pem"
restart "space ca bundle \"$P/open.pem\"" || not_ok "spaced starts with an open bundle"
check "a bundle others may write: the log says so" \
    grep -q "space ca bundle $P/open.pem: others may write it" "$T/sd/log"
sc create -n ca-open >"$T/open" 2>&1
check "a bundle others may write: create answers runtime_missing" \
    grep -q runtime_missing "$T/open"

for s in "$b" "$c"; do sc remove "$s" >/dev/null || not_ok "remove $s"; done
# The runtime volumes of this run's bundles: no other space has them.
for v in $rt_a $rt_b; do
	api DELETE "/volumes/$v" >/dev/null
done
finish
