# The gatekeeper suites' helpers (sourced, POSIX sh), on regress/lib/harness.sh.
#
# Two network namespaces of the suite's own, joined by a veth pair with
# documentation addresses only:
#   gkt-gk-PID  the gatekeeper and every client; 203.0.113.1/24
#   gkt-up-PID  the stand-in public upstream;     203.0.113.10 and .11
# The gatekeeper also runs in a mount namespace where /etc/hosts,
# /etc/resolv.conf (a fake DNS server on 127.0.0.53 that logs every
# question) and /etc/ssl/certs (the test CA only) are the suite's.

GK_DIR=${GK_DIR:-$(cd "$(dirname "$0")/gk" && pwd)}
GK_TOP=$(cd "$GK_DIR/../../.." && pwd)
GK_BIN=${SPACED_BUILD:-$GK_TOP/build}/libexec/spaced/spaced-gatekeeper
NSG=gkt-gk-$$
NSU=gkt-up-$$
GKADDR=203.0.113.1
UPADDR=203.0.113.10
. "$GK_TOP/regress/lib/harness.sh"

# Suites need root for namespaces; without it they skip, and say why.
need_root()
{
	if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null ||
	    ! command -v unshare >/dev/null; then
		skip "needs root, ip and unshare for network namespaces"
		finish
	fi
	if [ ! -x "$GK_BIN" ]; then
		not_ok "$GK_BIN is missing (run make -j2 first)"
		finish
	fi
}

cleanup()
{
	set +e
	for f in "$T"/*.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	ip netns del "$NSG" 2>/dev/null
	ip netns del "$NSU" 2>/dev/null
	# A helper that was still logging can refill the directory once.
	[ -n "${GK_KEEP:-}" ] || rm -rf "$T" 2>/dev/null ||
	    { sleep 0.5; rm -rf "$T"; }
}

# nsx CMD...: run in the gatekeeper's network namespace.
nsx()
{
	ip netns exec "$NSG" "$@"
}

cli()
{
	ip netns exec "$NSG" python3 "$GK_DIR/client.py" "$@"
}

# waitfor SECONDS CMD...: poll until CMD succeeds; bounded, the seconds
# as given (no floor, unlike ../lib.sh's wait_for): gatekeeper-tunnels.sh
# waits under the gatekeeper's own timers (head and linger 10 s, connect
# 15 s), where a longer wait would let a timer do what the check asks of
# a close.  A start's wait is a hang guard: 30 s.
waitfor()
{
	_end=$(($(date +%s) + $1)); shift
	until "$@"; do
		[ "$(date +%s)" -ge "$_end" ] && return 1
		sleep 0.1
	done
	return 0
}

# bg NAME CMD...: start a helper in the background, remember its pid.
# cli and nsx are spelt out so that the pid is the program's own and not
# a subshell's (ip netns exec, unshare and sh exec in place).
bg()
{
	_name=$1; shift
	case $1 in
	cli)	shift; set -- ip netns exec "$NSG" python3 "$GK_DIR/client.py" "$@";;
	nsx)	shift; set -- ip netns exec "$NSG" "$@";;
	esac
	: >"$T/$_name.out"
	"$@" >>"$T/$_name.out" 2>"$T/$_name.err" &
	echo $! >"$T/$_name.pid"
}

make_certs()
{
	c=$T/certs
	mkdir -p "$c" "$T/sslcerts"
	(
	cd "$c" || exit 1
	for ca in ca otherca; do
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
		    -nodes -keyout $ca.key -out $ca.crt -days 2 \
		    -subj "/CN=gkt $ca" 2>/dev/null
	done
	for leaf in upstream:ca untrusted:otherca; do
		n=${leaf%%:*}; ca=${leaf#*:}
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		    -keyout $n.key -out $n.csr -subj "/CN=upstream.test.example" \
		    2>/dev/null
		printf 'subjectAltName=DNS:upstream.test.example\n' >$n.ext
		openssl x509 -req -in $n.csr -CA $ca.crt -CAkey $ca.key \
		    -CAcreateserial -out $n.crt -days 2 -extfile $n.ext \
		    2>/dev/null
	done
	) || return 1
	cp "$c/ca.crt" "$T/sslcerts/ca-certificates.crt"
	cp "$c/ca.crt" "$T/sslcerts/gkt-ca.pem"
	ln -s gkt-ca.pem "$T/sslcerts/$(openssl x509 -hash -noout \
	    -in "$c/ca.crt").0"
}

# setup: namespaces, veth, test /etc files, CA, upstream, fake DNS.
# Extra /etc/hosts lines and DNS answers come from GK_HOSTS, GK_DNS.
setup()
{
	need_root
	T=$(mktemp -d /tmp/gkt.XXXXXX)
	trap cleanup EXIT
	trap 'exit 1' INT TERM
	mkdir -p "$T/up" "$T/etc" "$T/col"
	ip netns add "$NSG" && ip netns add "$NSU" || exit 1
	ip link add gkt$$a type veth peer name gkt$$b || exit 1
	ip link set gkt$$a netns "$NSG"
	ip link set gkt$$b netns "$NSU"
	nsx ip link set lo up
	nsx ip addr add $GKADDR/24 dev gkt$$a
	nsx ip link set gkt$$a up
	ip netns exec "$NSU" ip link set lo up
	ip netns exec "$NSU" ip addr add $UPADDR/24 dev gkt$$b
	ip netns exec "$NSU" ip addr add 203.0.113.11/24 dev gkt$$b
	ip netns exec "$NSU" ip link set gkt$$b up
	cat >"$T/etc/hosts" <<EOF
127.0.0.1 localhost
$UPADDR upstream.test.example
$UPADDR wrongname.test.example
$UPADDR auth.openai.com
203.0.113.11 closed.test.example
10.0.0.5 private.test.example
127.0.0.1 loop.test.example
169.254.169.254 metadata.test.example
192.168.1.1 home.test.example
${GK_HOSTS:-}
EOF
	echo "nameserver 127.0.0.53" >"$T/etc/resolv.conf"
	make_certs || { not_ok "openssl makes the test CA"; finish; }
	bg upstream ip netns exec "$NSU" python3 "$GK_DIR/upstream.py" \
	    $UPADDR "$T/up" "$T/certs"
	bg dns nsx python3 "$GK_DIR/dns.py" 127.0.0.53 "$T/dns.log" \
	    dnsonly.test.example=$UPADDR ${GK_DNS:-}
	waitfor 30 test -f "$T/up/ready" -a -f "$T/dns.log.ready" ||
	    { not_ok "the helpers start" "$(cat "$T"/*.err)"; finish; }
}

# start_gk NAME CPORT ARGS...: run the gatekeeper with ARGS in its
# namespaces; waits for GET /health on 127.0.0.1:CPORT.
start_gk()
{
	_name=$1 _cport=$2; shift 2
	bg "$_name" nsx unshare -m sh -c '
	    t=$1; shift
	    mount --bind "$t/etc/hosts" /etc/hosts &&
	    mount --bind "$t/etc/resolv.conf" /etc/resolv.conf &&
	    mount --bind "$t/sslcerts" /etc/ssl/certs || exit 99
	    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
	    SSL_CERT_DIR=/etc/ssl/certs exec "$@"' sh "$T" "$GK_BIN" "$@"
	waitfor 30 health "$_cport"
}

health()
{
	[ "$(nsx curl -s -o /dev/null -w '%{http_code}' --max-time 3 \
	    "http://127.0.0.1:$1/health")" = 200 ]
}

alive()
{
	kill -0 "$(cat "$T/$1.pid")" 2>/dev/null
}

# ctl CPORT METHOD PATH [BODY]: the control channel; prints the body,
# then "code=NNN" on its own line (--max-time: a hang guard).
ctl()
{
	if [ $# -ge 4 ]; then
		nsx curl -s --max-time 30 -X "$2" -H 'content-type: application/json' \
		    --data-binary "$4" -w '\ncode=%{http_code}\n' \
		    "http://127.0.0.1:$1$3"
	else
		nsx curl -s --max-time 30 -X "$2" -w '\ncode=%{http_code}\n' \
		    "http://127.0.0.1:$1$3"
	fi
}

# network CPORT MODE DOMAIN...: set mode and allowlist; 0 when 2xx.
network()
{
	_p=$1 _m=$2; shift 2
	_d=$(printf '%s\n' "$@" | jq -R . | jq -sc 'map(select(. != ""))')
	ctl "$_p" POST /network "{\"mode\":\"$_m\",\"domains\":$_d}" |
	    grep -q '^code=2'
}

# grant CPORT ID UPSTREAM HEADER SECRET
grant()
{
	ctl "$1" POST /grants "$(jq -nc --arg i "$2" --arg u "$3" \
	    --arg h "$4" --arg s "$5" \
	    '{id:$i,upstream:$u,header:$h,secret:$s}')" | grep -q '^code=2'
}

# journal CPORT: the journal body into $T/journal.json (kept in col/).
journal()
{
	ctl "$1" GET /journal | sed '$d' >"$T/journal.json"
	cp "$T/journal.json" "$T/col/journal.$(date +%s%N).json"
}

# jcount LISTENER HOST DECISION: how many records match (after
# `journal`); DECISION ending in '*' matches a prefix.
jcount()
{
	jq --arg l "$1" --arg h "$2" --arg d "$3" '[.records[] |
	    select(.listener == $l and .host == $h and
	    (if ($d | endswith("*")) then (.decision | startswith($d[:-1]))
	    else .decision == $d end))] | length' "$T/journal.json" 2>/dev/null ||
	    echo -1
}

# jhas LISTENER HOST DECISION: journal (re-read) has at least one.
jhas()
{
	journal "$JPORT"
	[ "$(jcount "$@")" -ge 1 ]
}

# status_of FILE: the status code of an HTTP answer saved in FILE.
status_of()
{
	head -n 1 "$1" | awk '{print $2}' | tr -d '\r'
}

# jqt ARGS...: jq -e, quietly (a test of a JSON file).
jqt()
{
	jq -e "$@" >/dev/null
}
