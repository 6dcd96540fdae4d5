#!/bin/sh
# The filler's relay is never a file its gatekeeper can write.  That
# gatekeeper parses the registry's traffic, and the filler it serves
# writes the tools volume every space of the profile mounts: the filler
# runs spaced-relay from the runtime volume, read-only, filled by the
# steps a space's create runs (space_runtime.c), and never from the
# socket volume the gatekeeper writes.  Standing in for a compromised
# gatekeeper, this suite (root on the host) plants a spaced-relay in
# that socket volume once the gatekeeper runs, while the fill waits at
# its filler's create (engine_hold.py holds that one call: an order of
# events, no timing), then lets it go.  The planted relay would leave a
# witness in the tools volume and then run the real one, so the fill
# succeeds either way: the fill fills, and no witness is there.  The
# control runs the planted file as the filler used to, from the socket
# volume mounted read-only, with the filler's hardening: it runs, and
# writes its witness.
. "$(dirname "$0")/lib.sh"

if ! sh "$top/tools/images.sh" ping >/dev/null 2>&1 ||
    ! docker image inspect spaced-space:latest >/dev/null 2>&1; then
	skip "filler-relay: no Docker engine or no space image (make images)"
	finish
fi
for t in npm jq python3; do
	command -v $t >/dev/null 2>&1 || { skip "filler-relay: no $t"; finish; }
done
[ "$(id -u)" -eq 0 ] || { skip "filler-relay: not root"; finish; }
images=${TOOLS_IMAGES:-$build/images.env}
[ -f "$images" ] || { skip "filler-relay: no $images (make images)"; finish; }
GK_IMAGE=$(sed -n 's/^GATEKEEPER_IMAGE=//p' "$images")
SP_IMAGE=$(sed -n 's/^SPACE_IMAGE=//p' "$images")
make_tree
work=$tree/w; mkdir -p "$work"
proxy=
cleanup() {
	[ -f "$work/go" ] || : >"$work/go"
	[ -z "${fillpid:-}" ] || wait "$fillpid" 2>/dev/null
	stop_spaced
	[ -z "$proxy" ] || kill "$proxy" 2>/dev/null
	for v in $(docker volume ls -q --filter "name=spaced-tools-${inst:-none}" 2>/dev/null); do
		docker ps -aq --filter "volume=$v" | xargs -r docker rm -f >/dev/null 2>&1
		docker volume rm -f "$v" >/dev/null 2>&1
	done
	docker network ls -q --filter "name=spaced-tools-${inst:-none}" |
	    xargs -r docker network rm >/dev/null 2>&1
	# The runtime volume this install made, when no space mounts it.
	docker volume ls -q --filter "label=spaced.space.owner=${inst:-none}:0" \
	    --filter label=spaced.space.role=runtime |
	    xargs -r docker volume rm >/dev/null 2>&1
	[ -n "${KEEP:-}" ] || rm -rf "$tree"
}
trap cleanup EXIT

# --- the agent: a packed package, filled with no registry --------------
p=$work/src-plant-agent; mkdir -p "$p/bin"
printf '{"name":"plant-agent","version":"1.2.3","bin":{"plant-agent":"bin/la"}}' \
    >"$p/package.json"
printf '#!/bin/sh\necho 1.2.3\n' >"$p/bin/la"; chmod 755 "$p/bin/la"
printf "process.exitCode = 0\n" >"$p/post.js"
(cd "$work" && npm pack "$p" --pack-destination "$work" >/dev/null 2>&1)
check "the agent's package is packed" test -f "$work/plant-agent-1.2.3.tgz"

# --- the engine, with the filler's create held -------------------------
python3 "$top/regress/integration/engine_hold.py" "$work/engine.sock" \
    /var/run/docker.sock \
    'POST /v[0-9.]+/containers/create\?name=spaced-tools-[^ &]*-fill( |&)' \
    "$work/held" "$work/go" >"$work/proxy.log" 2>&1 &
proxy=$!
wait_for 10 test -S "$work/engine.sock" ||
    { not_ok "the holding engine listens"; finish; }
SPACED_EXTRA_CONF="docker socket \"$work/engine.sock\"
gatekeeper image \"$GK_IMAGE\"
agent plant packed plant-agent 1.2.3 $work/plant-agent-1.2.3.tgz
agent plant postinstall plant-agent post.js
agent plant binary plant-agent --version
agent plant serve plant-agent
agent plant port 27603
agent plant password env TOOLS_PASSWORD
agent plant ready GET /health 200 -
default agent plant"
sd=$tree/s
if ! start_spaced "$sd"; then
	not_ok "spaced starts with the holding engine"; cat "$sd/log"; finish
fi
inst=$(cat "$sd/state/install-id")
V=$(ctl -j tools -a plant | jq -r .volume)
check "the profile's tools volume is named ($V)" test -n "$V" -a "$V" != null

ctl -j tools fill >"$work/out" 2>&1 &
fillpid=$!
check "the fill stops at its filler's create, its gatekeeper made" \
    wait_for 120 test -f "$work/held"
sed 's/^/# held: /' "$work/held" 2>/dev/null
S=$V-fill-sock
mp=$(docker volume inspect -f '{{.Mountpoint}}' "$S" 2>/dev/null)
check "the gatekeeper's socket volume is there ($S)" test -n "$mp" -a -d "$mp"
check "its gatekeeper runs" sh -c \
    "docker inspect -f '{{.State.Running}}' '$V-fill-gk' | grep -qx true"

# --- the plant: what a gatekeeper that is not ours any more could write -
# The witness goes where only the filler may write: its fill folder.
W=/opt/spaced-tools/fill/.planted
cp "$tree/libexec/spaced/spaced-relay" "$mp/real-relay"
cat >"$mp/spaced-relay.new" <<EOF
#!/bin/sh
echo planted >$W
[ "\${1:-}" = probe ] && exit 0
exec /run/spaced/real-relay "\$@"
EOF
chmod 0755 "$mp/spaced-relay.new" "$mp/real-relay"
mv -f "$mp/spaced-relay.new" "$mp/spaced-relay"
check "a planted spaced-relay in the socket volume" \
    grep -q '^echo planted' "$mp/spaced-relay"

# The control: the planted file run as the filler ran its relay, from
# the socket volume mounted read-only, hardened as the filler is: it
# runs, and its witness is there.
mkdir -p "$work/ctl" && chmod 0777 "$work/ctl"
docker run --rm --network none --read-only --cap-drop ALL \
    --security-opt no-new-privileges --user 2000000123:2000000123 \
    -v "$S:/run/spaced:ro" -v "$work/ctl:/opt/spaced-tools/fill" \
    --entrypoint /run/spaced/spaced-relay "$SP_IMAGE" probe \
    >"$work/ctl.log" 2>&1
check "control: run from the socket volume, the planted relay runs (its witness)" \
    grep -qx planted "$work/ctl/.planted"

# --- let the fill go ----------------------------------------------------
: >"$work/go"
wait "$fillpid"; rc=$?
fillpid=
check "the fill fills, the planted relay in the socket volume ($rc)" sh -c \
    "[ $rc -eq 0 ] && jq -e '.filled == true' '$work/out' >/dev/null"
[ $rc -eq 0 ] || { cat "$work/out"; tail -n 20 "$sd/log"; }
docker run --rm --network none -v "$V:/v:ro" --entrypoint /bin/sh \
    "$SP_IMAGE" -c 'ls -a /v/fill; cat /v/fill/.planted 2>/dev/null' \
    >"$work/vol" 2>&1
check "the tools volume is filled (its marker)" grep -qx .spaced-filled "$work/vol"
check_fails "the planted relay never ran: no witness in the tools volume" \
    grep -qx planted "$work/vol"
# What the worker asked for, read from the held create's body.
B=$work/held.body
jqt() { jq -e "$@" >/dev/null; }
check "the filler runs the relay from the runtime volume (/opt/spaced)" \
    jqt '.Entrypoint == ["/opt/spaced/spaced-relay"]' "$B"
check "... which it mounts read-only" jqt '[.HostConfig.Mounts[] |
    select(.Target == "/opt/spaced" and (.Source | startswith("spaced-runtime-")) and
    .ReadOnly == true)] | length == 1' "$B"
check "... and the socket volume read-only, for the sockets alone" \
    jqt '[.HostConfig.Mounts[] | select(.Source == "'"$S"'" and
    .ReadOnly == true)] | length == 1' "$B"
RT=$(jq -r '.HostConfig.Mounts[] | select(.Target == "/opt/spaced") | .Source' "$B")
check "the runtime volume holds our relay ($RT)" sh -c \
    "test -n '$RT' && docker run --rm --network none -v '$RT:/r:ro' \
    --entrypoint /bin/cat \
    '$SP_IMAGE' /r/spaced-relay | cmp -s - '$tree/libexec/spaced/spaced-relay'"
finish
