#!/bin/sh
# The filler's way out (issue 27), tried from inside it: the packed test
# agent's install script, which the filler runs, is a probe (probe.js)
# that writes what it reached into the volume.  Through the corridor
# (the relay on the filler's loopback, 127.0.0.1:3128, to a gatekeeper
# of its own) the registry answers and another name is refused; directly
# nothing: a documentation-address "public" host in a network namespace
# of this suite's, the cloud metadata address and the host (its bridge
# address, its loopback) are out of reach; the host on a /30 no other
# run holds (lib/netblock.sh; the control: another run's host on the
# one it wishes for).  The control runs the same
# probe in a plain container on the default bridge, where the filler
# used to be: it reaches the host and the documentation-address host.
# Then the filler's gatekeeper, bridge and socket volume: labelled with
# the owner, made and removed around the fill, and gone after a fill that
# fails too.  SPACED_TOOLS_OFFLINE=1 leaves out the registry's answer.
. "$(dirname "$0")/lib.sh"

if ! sh "$top/tools/images.sh" ping >/dev/null 2>&1 ||
    ! docker image inspect spaced-space:latest >/dev/null 2>&1; then
	skip "filler-net: no Docker engine or no space image (make images)"
	finish
fi
for t in npm ip python3 curl jq; do
	command -v $t >/dev/null 2>&1 || { skip "filler-net: no $t"; finish; }
done
[ "$(id -u)" -eq 0 ] || { skip "filler-net: not root"; finish; }
images=${TOOLS_IMAGES:-$build/images.env}
[ -f "$images" ] || { skip "filler-net: no $images (make images)"; finish; }
GK_IMAGE=$(sed -n 's/^GATEKEEPER_IMAGE=//p' "$images")
SP_IMAGE=$(sed -n 's/^SPACE_IMAGE=//p' "$images")
make_tree
work=$tree/w; mkdir -p "$work"
. "$top/regress/lib/netblock.sh"
# The /30 it wishes for in 198.51.100.0/24; netblock_up takes another
# when a run holds it.
NS=spaced-fnet-$$ VH=vfh$$ VN=vfn$$ HOSTIP=198.51.100.237 DOC=198.51.100.238
HPORT=$((30000 + $$ % 20000))
SQ=spaced-fnq-$$
pids=
cleanup() {
	stop_spaced
	for p in $pids; do kill "$p" 2>/dev/null; done
	ip link delete "$VH" 2>/dev/null
	ip netns delete "$NS" 2>/dev/null
	ip link delete "vfq$$" 2>/dev/null
	ip netns delete "$SQ" 2>/dev/null
	owned_rm ${inst:-}
	rm -rf "$tree"
}
trap cleanup EXIT

# --- another run's public host where this one would go ------------------
# Another run of this suite at the same time (CI's beside a helper's)
# holds the /30 this one wishes for, its public host answering "other":
# this run must take another block, or its probes would reach that host.
# Under the lock, as a run takes one; a block a real run holds already
# stays as it is.
held() { test -n "$(ip -4 -o addr show to "${HOSTIP%.*}.$((${HOSTIP##*.} / 4 * 4))/30")"; }
exec 8>>"$netblock_lock"
flock -w 60 8
if ! held; then
	mkdir -p "$work/other" && echo other >"$work/other/index.html"
	ip netns add "$SQ" && ip link add "vfq$$" type veth peer name "vfr$$" &&
	ip link set "vfr$$" netns "$SQ" && ip addr add "$HOSTIP/30" dev "vfq$$" &&
	ip link set "vfq$$" up && ip -n "$SQ" addr add "$DOC/30" dev "vfr$$" &&
	ip -n "$SQ" link set lo up && ip -n "$SQ" link set "vfr$$" up
	(cd "$work/other" && exec ip netns exec "$SQ" python3 -m http.server \
	    --bind "$DOC" 8000) >/dev/null 2>&1 &
	pids="$pids $!"
	squat=1
fi
exec 8>&-
check "control: another run holds the /30 this one wishes for ($DOC)" held
[ -z "${squat:-}" ] || check "control: its public host answers on $DOC" \
    wait_for 10 sh -c "curl -sf --max-time 1 'http://$DOC:8000/' | grep -qx other"
wished=$DOC

# --- the public host, on a documentation address; the host's listener -
netblock_up "$NS" "$VH" "$VN" "$HOSTIP"
check "a namespace with a public host on $NB_PEER" test $? -eq 0
HOSTIP=$NB_HOST DOC=$NB_PEER
check "this run's public host took a /30 of its own, not the other run's ($DOC)" \
    test "$DOC" != "$wished"
mkdir -p "$work/www" && echo public >"$work/www/index.html"
(cd "$work/www" && exec ip netns exec "$NS" python3 -m http.server \
    --bind "$DOC" 8000) >/dev/null 2>&1 &
pids="$pids $!"
(cd "$work/www" && exec python3 -m http.server --bind 0.0.0.0 "$HPORT") \
    >/dev/null 2>&1 &
pids="$pids $!"
check "control: the public host answers from the host (this run's, not the other's)" \
    wait_for 10 sh -c "curl -sf --max-time 1 'http://$DOC:8000/' | grep -qx public"
check "control: the host's listener answers on its loopback" \
    wait_for 10 curl -sf --max-time 1 -o /dev/null "http://127.0.0.1:$HPORT/"
GW=$(docker network inspect bridge -f '{{(index .IPAM.Config 0).Gateway}}')
# An engine may not say it (20.10 here: the IPAM config of a docker0 it
# found holds its subnet alone); then docker0's own address.
[ -n "$GW" ] || GW=$(ip -4 -o addr show docker0 2>/dev/null |
    awk '{ sub(/\/.*/, "", $4); print $4; exit }')
check "the default bridge's gateway, the host ($GW)" test -n "$GW"

# --- the probe: what it reaches, one line each --------------------------
cat >"$work/probe.js" <<EOF
'use strict';
const net = require('net'), http = require('http'), fs = require('fs');
const out = [];
function tcp(name, host, port) {
	return new Promise((res) => {
		const s = net.connect({ host: host, port: port });
		const t = setTimeout(() => done('timeout'), 3000);
		function done(r) { clearTimeout(t); out.push(name + ' ' + r); s.destroy(); res(); }
		s.on('connect', () => done('open'));
		s.on('error', (e) => done('error ' + e.code));
	});
}
function corridor(name, target) {
	return new Promise((res) => {
		const r = http.request({ host: '127.0.0.1', port: 3128,
		    method: 'CONNECT', path: target });
		// 60 s: a hang guard (the registry's name and connect, under load)
		const t = setTimeout(() => done('timeout'), 60000);
		let said = false;
		function done(v) { if (said) return; said = true;
			clearTimeout(t); out.push(name + ' ' + v); r.destroy(); res(); }
		r.on('connect', (resp, sock) => { sock.destroy(); done(resp.statusCode); });
		r.on('response', (resp) => done(resp.statusCode));
		r.on('error', (e) => done('error ' + e.code));
		r.end();
	});
}
module.exports = (async () => {
	await corridor('corridor-registry', 'registry.npmjs.org:443');
	await corridor('corridor-other', 'registry.yarnpkg.com:443');
	await corridor('corridor-public', '$DOC:443');
	await tcp('direct-public', '$DOC', 8000);
	await tcp('direct-metadata', '169.254.169.254', 80);
	await tcp('direct-gateway', '$GW', $HPORT);
	await tcp('direct-loopback', '127.0.0.1', $HPORT);
	fs.writeFileSync(process.argv[2] || 'probe.txt', out.join('\n') + '\n');
})();
EOF
mkpkg() {	# mkpkg name postinstall-exit
	p=$work/src-$1; mkdir -p "$p/bin"
	printf '{"name":"%s","version":"1.2.3","bin":{"%s":"bin/la"}}' \
	    "$1" "$1" >"$p/package.json"
	printf '#!/bin/sh\necho stub >&2; exit 1\n' >"$p/bin/la"; chmod 755 "$p/bin/la"
	cp "$work/probe.js" "$p/probe.js"
	printf "require('fs').writeFileSync('bin/la', '#!/bin/sh\\\\necho 1.2.3\\\\n', {mode: 0o755}); require('./probe.js').then(() => { process.exitCode = %s; })\n" \
	    "$2" >"$p/post.js"
	(cd "$work" && npm pack "$p" --pack-destination "$work" >/dev/null 2>&1)
}
mkpkg probe-agent 0
mkpkg probe-fail-agent 1
profile() {	# profile name package
	cat <<EOC
agent $1 packed $2 1.2.3 $work/$2-1.2.3.tgz
agent $1 postinstall $2 post.js
agent $1 binary $2 --version
agent $1 serve $2
agent $1 port 27602
agent $1 password env TOOLS_PASSWORD
agent $1 ready GET /health 200 -
EOC
}
SPACED_EXTRA_CONF="gatekeeper image \"$GK_IMAGE\"
$(profile probe probe-agent)
$(profile probefail probe-fail-agent)
default agent probe"
sd=$tree/s
if ! start_spaced "$sd"; then
	not_ok "spaced starts with the probe profiles"; cat "$sd/log"; finish
fi
inst=$(cat "$sd/state/install-id")
owner="$inst:$(id -u)"
V=$(ctl -j tools -a probe | jq -r .volume)
# The engine's events, live (its ring of past ones is short on a busy
# engine): a volume's name is its ID; a container's labels attributes.
docker events --format '{{.Type}} {{.Action}} {{if .Actor.Attributes.name}}{{.Actor.Attributes.name}}{{else}}{{.Actor.ID}}{{end}} {{index .Actor.Attributes "spaced.space.owner"}} {{index .Actor.Attributes "spaced.space.role"}}' \
    >"$work/ev" 2>&1 &
evpid=$!
pids="$pids $evpid"
# Live once a volume of this run's shows in them (a second's sleep was
# a guess: a client that subscribed late missed the fill's first ones).
mark=spaced-evmark-$$-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
docker volume create "$mark" >/dev/null
wait_for 60 grep -q "^volume create $mark " "$work/ev"
docker volume rm "$mark" >/dev/null
t0=$(date +%s)
ctl -j tools fill >"$work/out" 2>&1; rc=$?
t1=$(date +%s)
check "the probe's fill fills ($((t1 - t0)) s)" sh -c \
    "[ $rc -eq 0 ] && jq -e '.filled == true' '$work/out' >/dev/null"
[ $rc -eq 0 ] || cat "$work/out"
docker run --rm --network none -v "$V:/v:ro" "$SP_IMAGE" \
    cat /v/fill/node_modules/probe-agent/probe.txt >"$work/in" 2>&1
sed 's/^/# filler: /' "$work/in"
said() { grep -qx "$1" "$2"; }
if [ "${SPACED_TOOLS_OFFLINE:-0}" = 1 ]; then
	skip "the registry through the corridor: SPACED_TOOLS_OFFLINE=1"
else
	check "the filler reaches the registry through its corridor (200)" \
	    said 'corridor-registry 200' "$work/in"
fi
check "its corridor refuses another name, registry.yarnpkg.com (403: the registry alone)" \
    said 'corridor-other 403' "$work/in"
check "its corridor refuses the public host's address (403)" \
    said 'corridor-public 403' "$work/in"
check_fails "the filler does not reach the public host $DOC directly" \
    said 'direct-public open' "$work/in"
check "the filler has no route to 169.254.169.254 (cloud metadata)" \
    said 'direct-metadata error ENETUNREACH' "$work/in"
check_fails "the filler does not reach the host at $GW" \
    said 'direct-gateway open' "$work/in"
check_fails "the filler does not reach the host's loopback" \
    said 'direct-loopback open' "$work/in"

# The control: the same probe in a plain container on the default bridge.
docker run --rm --network bridge -v "$work/probe.js:/p.js:ro" \
    --entrypoint /bin/sh "$SP_IMAGE" -c 'node /p.js /tmp/o.txt && cat /tmp/o.txt' \
    >"$work/bridge" 2>&1
sed 's/^/# default bridge: /' "$work/bridge"
check "control: on the default bridge the probe reaches the public host" \
    said 'direct-public open' "$work/bridge"
check "control: ... and the host at $GW" said 'direct-gateway open' "$work/bridge"
check_fails "control: ... and has a route toward 169.254.169.254" \
    said 'direct-metadata error ENETUNREACH' "$work/bridge"

# --- its gatekeeper, bridge and sockets: the owner's, gone after -------
# The events come through the client a moment after the engine's acts:
# read once the last of them has come (a hang guard), then stopped.
ev_all() {
	for e in "container destroy $V-fill-gk " "container destroy $V-fill " \
	    "network destroy $V-fill-net " "volume destroy $V-fill-sock "; do
		grep -q "^$e" "$work/ev" || return 1
	done
}
wait_for 60 ev_all
kill "$evpid" 2>/dev/null
check "its gatekeeper was made with the owner's labels and removed" sh -c \
    "grep -qx 'container create $V-fill-gk $owner tools-fill-gatekeeper' '$work/ev' &&
     grep -qx 'container destroy $V-fill-gk $owner tools-fill-gatekeeper' '$work/ev'"
check "the filler itself likewise" sh -c \
    "grep -qx 'container create $V-fill $owner tools-fill' '$work/ev' &&
     grep -qx 'container destroy $V-fill $owner tools-fill' '$work/ev'"
check "its bridge was made and removed" sh -c \
    "grep -q '^network create $V-fill-net ' '$work/ev' &&
     grep -q '^network destroy $V-fill-net ' '$work/ev'"
check "its socket volume was made and removed" sh -c \
    "grep -q '^volume create $V-fill-sock ' '$work/ev' &&
     grep -q '^volume destroy $V-fill-sock ' '$work/ev'"
left() {	# left VOLUME: what is left of its fill's way out
	docker ps -aq --filter "name=^$1-fill"; docker network ls -q \
	    --filter "name=^$1-fill-net"; docker volume ls -q --filter "name=^$1-fill-sock"
}
check "nothing of the filler's way out is left" test -z "$(left "$V")"
# What a killed worker would leave (made here by the names): the next
# ensure of the key, on a filled volume, removes it.
docker network create "$V-fill-net" >/dev/null
docker volume create "$V-fill-sock" >/dev/null
docker create --name "$V-fill-gk" --network none -v "$V-fill-sock:/s" \
    "$SP_IMAGE" true >/dev/null
check "control: a leftover gatekeeper, bridge and socket volume are seen" \
    test "$(left "$V" | wc -l)" -eq 3
ctl -j tools fill >"$work/out" 2>&1; rc=$?
check "the next ensure (filled: no fill) answers" sh -c \
    "[ $rc -eq 0 ] && jq -e '.filled == false' '$work/out' >/dev/null"
check "... and removed what was left" test -z "$(left "$V")"
Vf=$(ctl -j tools -a probefail | jq -r .volume)
ctl -j tools fill -a probefail >"$work/out" 2>&1; rc=$?
check "a fill that fails (its install script)" sh -c \
    "[ $rc -ne 0 ] && jq -e '.error == \"tools_fill_failed\"' '$work/out' >/dev/null"
check "... leaves nothing of the filler's way out either" test -z "$(left "$Vf")"
check "... nor its volume" sh -c "! docker volume inspect '$Vf' >/dev/null 2>&1"

# Nothing of this run's install is left: its tools volumes and the
# runtime volume of its relay key, which spaced keeps for the next
# space (integration/lib.sh owned_end).
stop_spaced
owned_end "$inst"
finish
