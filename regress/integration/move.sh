#!/bin/sh
# New tools at the next start (spec): a live suite against the real
# engine.  A space made on tools key A, stopped, moves to key B at its
# next start (same id, token, home and work, server ready, the old
# container gone); a running space is never moved; every rollback of
# the move gives the old container its name back and it still starts on
# its old tools: the server never ready (B unfilled), the new create,
# verify or start failing (a fault proxy in front of the engine,
# engine_fault.py); a create's Id too long to keep whole is no Id (no
# call names a cut of it); the undo removes the new container by the id its
# create returned, even when something gave the old one its name back
# meanwhile (the mutant "by name" deletes the only container); start
# repairs a half-done move made by hand; verify, exec and stop answer
# space_move_unfinished when only the aside container is left; list
# shows it as exited and prefers the plain name; remove removes both;
# two starts share one run, and a stop waits for it.  Its spaced has a
# space CA bundle: the moved container keeps the bundle's variables.
# The tools volumes are filled by hand (each rollback needs a volume of
# a given kind under a given key) from the pinned agent, installed once
# on this host from the registry into /var/cache/spaced/opencode-1.18.33.
. "$(dirname "$0")/lib.sh"

src=/var/cache/spaced/opencode-1.18.33
if [ "$(id -u)" -ne 0 ] || ! docker info >/dev/null 2>&1; then
	skip "needs root and a Docker engine"
	finish
fi
# the images of this build (tools/images.sh), or those MOVE_IMAGES names
images=${MOVE_IMAGES:-$build/images.env}
if [ ! -f "$images" ]; then
	skip "no $images: run tools/images.sh"
	finish
fi
. "$images"
# The install as the filler makes it (--ignore-scripts, then the one
# post-install), in the space image on a bridge, with the host's CA
# bundle for a network that inspects TLS.
if [ ! -x "$src/node_modules/.bin/opencode" ]; then
	echo "# installing opencode-ai 1.18.33 into $src"
	mkdir -p "$src"
	ca=; [ -f /etc/ssl/certs/ca-certificates.crt ] &&
	    ca="-v /etc/ssl/certs/ca-certificates.crt:/ca.crt:ro -e NODE_EXTRA_CA_CERTS=/ca.crt -e npm_config_cafile=/ca.crt"
	# shellcheck disable=SC2086
	docker run --rm -u 0 -v "$src:/c" $ca -e HOME=/tmp --entrypoint /bin/sh \
	    "$SPACE_IMAGE" -c 'cd /c && npm install --ignore-scripts --no-audit \
	    --no-fund opencode-ai@1.18.33 && cd node_modules/opencode-ai &&
	    node postinstall.mjs' </dev/null >/tmp/move-install.log 2>&1 ||
	    { rm -rf "$src"; not_ok "opencode-ai installs (/tmp/move-install.log)"; finish; }
fi

T=$(mktemp -d /tmp/move-test.XXXXXX)
install=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
prefix=spaced-tools-$install-0-
make_tree
python3 "$top/regress/integration/engine_fault.py" "$T/engine.sock" \
    /var/run/docker.sock "$T/rules" >"$T/proxy.log" 2>&1 &
proxy=$!
wait_for 5 test -S "$T/engine.sock" || { echo "no proxy"; exit 1; }
: >"$T/rules"
rules() { echo "$*" >"$T/rules"; }

cleanup() {
	[ -n "${id:-}" ] && ctl remove "$id" >/dev/null 2>&1
	stop_spaced
	kill "$proxy" 2>/dev/null
	docker rm -f "spaced-move-holder-$install" >/dev/null 2>&1
	for c in $(docker ps -aq --filter "label=spaced.space.owner=$install:0"); do
		docker rm -f "$c" >/dev/null 2>&1
	done
	for v in $(docker volume ls -q | grep "^$prefix"); do
		docker volume rm "$v" >/dev/null 2>&1
	done
	rm -rf "$T" "$tree"
}
trap cleanup EXIT

# The profile, whole, with a revision: a key of its own.  The ready wait
# is the default: the agent's own start can pass 30 s on a loaded
# machine; the one server that never answers (fill fake) waits it whole.
profile() {
	cat <<EOP
agent opencode package opencode-ai 1.18.33
agent opencode postinstall opencode-ai postinstall.mjs
agent opencode binary opencode --version
agent opencode serve opencode serve --hostname 127.0.0.1 --port %p
agent opencode port 27600
agent opencode password env OPENCODE_SERVER_PASSWORD
agent opencode auth basic opencode
agent opencode ready GET /global/health 200 healthy
agent opencode ready wait 120
agent opencode env OPENCODE_DISABLE_MODELS_FETCH=1
agent opencode env OPENCODE_DISABLE_AUTOUPDATE=1
${1:+agent opencode revision $1}
default agent opencode
EOP
}
# restart REV [proxy]: spaced with key REV current ("" the built-in
# profile); with proxy, through the fault proxy (which carries no exec
# stream: the faults come before any)
restart() {
	stop_spaced
	SPACED_AGENT_CONF=$(profile "$1")
	SPACED_EXTRA_CONF="space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\"
install id \"$install\"
space ca bundle \"/etc/ssl/certs/ca-certificates.crt\"
tools ca bundle \"/etc/ssl/certs/ca-certificates.crt\"
${2:+docker socket \"$T/engine.sock\"}"
	[ -f "$sd/log" ] && cat "$sd/log" >>"$T/spaced-logs"
	SPACED_V=-v start_spaced "$sd" || { echo "# spaced did not start"; cat "$sd/log"; exit 1; }
}
sd=$T/sd

cat >"$T/held" <<'EOH'
#!/bin/sh
[ "$1" = --version ] || until [ -e /tmp/spaced-go ]; do sleep 0.1; done
exec "$(dirname "$0")/../opencode-ai/bin/opencode.exe" "$@"
EOH
chmod 755 "$T/held"
tvols() { docker volume ls -q | grep "^$prefix" | sort; }
# newvol: the tools volume that appeared since the last snapshot
snap() { tvols >"$T/vols"; }
newvol() { tvols | comm -13 "$T/vols" -; }
# The current tools volume and key, as spaced names them.
cur() { ctl -j tools | jq -r ".$1"; }
# fill HOW: the current tools volume as ensure would leave it (labels,
# the marker with its key, written last), with the pinned agent (real),
# the same whose server starts only once /tmp/spaced-go is there (held),
# nothing (empty: its server never starts) or a server that never
# answers (fake)
fill() {
	f_vol=$(cur volume); f_key=$(cur key)
	docker volume create --label spaced.space=true \
	    --label "spaced.space.owner=$install:0" \
	    --label spaced.space.role=tools --label "spaced.tools.key=$f_key" \
	    --label "spaced.tools.description=move.sh $1" \
	    --label "spaced.space.created=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	    "$f_vol" >/dev/null
	case $1 in
	real) f_src="-v $src:/s:ro"; f_sh='cp -a /s/. /t/' ;;
	empty) f_src=; f_sh=: ;;
	held) f_src="-v $src:/s:ro -v $T/held:/held:ro"
	    f_sh='cp -a /s/. /t/ && rm /t/node_modules/.bin/opencode &&
	    cp /held /t/node_modules/.bin/opencode' ;;
	fake) f_src=; f_sh='mkdir -p /t/node_modules/.bin &&
	    printf "#!/bin/sh\nexec /bin/sleep 1000\n" >/t/node_modules/.bin/opencode &&
	    chmod 755 /t/node_modules/.bin/opencode' ;;
	esac
	# shellcheck disable=SC2086
	# The fill's own folder, fill/ (SPACE_TOOLS_ROOT), as the filler has it.
	docker run --rm -u 0 -v "$f_vol:/v" $f_src --network none \
	    --entrypoint /bin/sh "$SPACE_IMAGE" -c "mkdir -p /v/fill && ln -s /v/fill /t && $f_sh && printf %s $f_key >/t/.spaced-filled && chmod 644 /t/.spaced-filled"
	echo "$f_vol"
}

plain() { echo "spaced-space-$id-space"; }
aside() { echo "spaced-space-$id-space-old"; }
cid() { docker inspect -f '{{.Id}}' "$1" 2>/dev/null; }
tools_of() { docker inspect -f '{{range .Mounts}}{{if eq .Destination "/opt/spaced-tools"}}{{.Name}}{{end}}{{end}}' "$1" 2>/dev/null; }
state_of() { docker inspect -f '{{.State.Status}}' "$1" 2>/dev/null; }
# the space containers (role space) of this space, by label: count
nspace() { docker ps -aq --filter "label=spaced.space.id=$id" --filter "label=spaced.space.role=space" | grep -c .; }
healthy() { ctl server "$id" GET /global/health 2>/dev/null | grep -q '"healthy":true'; }
quiet() { "$@" >/dev/null 2>&1; }
# code_of FILE: the answer's error code, empty when it succeeded; an
# answer that is not one JSON object is "not-json", never success.
code_of() {
	jq -se 'length == 1 and (.[0] | type) == "object"' "$1" \
	    >/dev/null 2>&1 || { echo not-json; return; }
	jq -r '.error // empty' "$1"
}
# failed FILE: the answer is a JSON error (any code but not-json)
failed() { c=$(code_of "$1"); [ -n "$c" ] && [ "$c" != not-json ]; }
msg_of() { jq -r '.message // empty' "$1" 2>/dev/null; }

# the old container is back, as it was, and alone
old_is_back() {
	[ "$(cid "$(plain)")" = "$1" ] && [ "$(tools_of "$(plain)")" = "$2" ] &&
	    ! docker inspect "$(aside)" >/dev/null 2>&1 && [ "$(nspace)" -eq 1 ]
}

# --- A: make the space ---------------------------------------------------
restart ""
A=$(fill real)
check "key A: spacectl tools names its volume" test -n "$A"
id=$(ctl create -n move 2>"$T/c1.err")
check "create on key A (${id:-none})" test -n "$id"
[ -n "$id" ] || { cat "$T/c1.err"; tail -20 "$sd/log"; finish; }
check "its tools are A" test "$(tools_of "$(plain)")" = "$A"
ctl exec "$id" -- /bin/sh -c "echo home-kept >/home/space/marker && echo work-kept >/spaces/$id/marker" >/dev/null
tok=$(ctl token "$id")
check "a token" test -n "$tok"
ctl stop "$id" >/dev/null
oldA=$(cid "$(plain)")

# --- rollback: the server never gets ready (B unfilled) ------------------
restart r2
B=$(fill empty)
ctl -j start "$id" >"$T/s1.json" 2>&1
check "the move to an empty B fails ($(code_of "$T/s1.json"))" failed "$T/s1.json"
check "its message says the space keeps its old container" grep -q "keeps its old container" "$T/s1.json"
check "the old container is back under its name, on A, alone" old_is_back "$oldA" "$A"
check "B is a volume of its own" test -n "$B" -a "$B" != "$A"

# --- the move --------------------------------------------------------------
docker volume rm "$B" >/dev/null
fill real >/dev/null
# Two more tools volumes besides A: one a container still mounts (Docker
# refuses to remove it) and one of another owner; the prune after the
# move keeps both.
tvol() {
	docker volume create --label spaced.space=true \
	    --label "spaced.space.owner=$1" --label spaced.space.role=tools \
	    --label spaced.tools.key=0123456789abcdef "$2" >/dev/null
}
tvol "$install:0" "${prefix}held"
docker create --name "spaced-move-holder-$install" \
    -v "${prefix}held:/t" --network none "$SPACE_IMAGE" /bin/true >/dev/null
tvol "$install:1" "${prefix}stranger"
t0=$(date +%s%N)
ctl -j start "$id" >"$T/s2.json" 2>&1
echo "# move to B: $((($(date +%s%N) - t0) / 1000000)) ms"
check "start moves the space ($(code_of "$T/s2.json"))" test -z "$(code_of "$T/s2.json")"
newB=$(cid "$(plain)")
check "a new container, same id, on B" test -n "$newB" -a "$newB" != "$oldA" -a "$(tools_of "$(plain)")" = "$B"
# Made with the space CA bundle (spaced.conf(5)), it keeps its variables.
check "the moved container keeps the space CA bundle's variables" sh -c \
    "docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' $(plain) |
    grep -qx SSL_CERT_FILE=/opt/spaced/ca-certificates.crt"
check "the old container is gone" test "$(nspace)" -eq 1 -a -z "$(cid "$oldA")"
check "no aside container" test -z "$(cid "$(aside)")"
check "the token stays" test "$(ctl token "$id")" = "$tok"
check "home and work kept" test "$(ctl exec "$id" -- /bin/cat /home/space/marker /spaces/$id/marker | tr '\n' ' ')" = "home-kept work-kept "
check "the server answers" healthy
check "it verifies" ctl verify "$id"
check "the prune removed A, which nothing mounts any more" test -z "$(tvols | grep -x "$A")"
check "it kept B, the current tools" test -n "$(tvols | grep -x "$B")"
check "it kept a tools volume a container still mounts" test -n "$(tvols | grep -x "${prefix}held")"
check "it kept another owner's tools volume" test -n "$(tvols | grep -x "${prefix}stranger")"
docker rm -f "spaced-move-holder-$install" >/dev/null

# --- a running space is never moved --------------------------------------
restart r3
C=$(fill empty)
snap
check "start of a running space on an old key succeeds" quiet ctl start "$id"
check "a running space is not moved by a new key" test "$(cid "$(plain)")" = "$newB" -a "$(tools_of "$(plain)")" = "$B"
check "nothing was made for it: no new tools volume" test -z "$(newvol)"
check "and still verifies on its old tools" ctl verify "$id"
ctl stop "$id" >/dev/null

# key C: its server never starts, then it never answers
ctl -j start "$id" >"$T/s3.json" 2>&1
check "the move to an empty C fails and the old one is back" old_is_back "$newB" "$B"
docker volume rm "$C" >/dev/null
fill fake >/dev/null

# --- the undo removes by id: the old container got its name back ---------
# While spaced waits for the never-ready server, something renames the
# new container and gives the old one its name back.  A removal by name
# would now delete the only container of the space.
ctl -j start "$id" >"$T/s4.json" 2>&1 &
sp=$!
moved() { [ -n "$(cid "$(aside)")" ] && [ "$(state_of "$(plain)")" = running ]; }
if wait_for 30 moved; then
	newC=$(cid "$(plain)")
	docker rename "$(plain)" "spaced-move-test-$id" &&
	    docker rename "$(aside)" "$(plain)"
fi
wait $sp
check "the interrupted move fails ($(code_of "$T/s4.json"))" failed "$T/s4.json"
check "the old container survives under its name, on B" test "$(cid "$(plain)")" = "$newB" -a "$(tools_of "$(plain)")" = "$B"
check "the new one was removed by its id" test -n "${newC:-}" -a -z "$(cid "${newC:-x}")"
check "the message is true: keeps its old container" grep -q "keeps its old container" "$T/s4.json"

# --- rollbacks of the new container's create, verify and start ---------
restart r3 proxy
for f in fail-create-space:docker_command_failed \
    tamper-inspect-id:space_verify_failed fail-start-id:docker_command_failed; do
	want=${f#*:}; f=${f%%:*}
	rules "$f"
	ctl -j start "$id" >"$T/$f.json" 2>&1
	rules
	check "$f: the move fails with $want ($(code_of "$T/$f.json"))" test "$(code_of "$T/$f.json")" = "$want"
	check "$f: keeps its old container, says so" grep -q "keeps its old container" "$T/$f.json"
	check "$f: the old container is back, on B, alone" old_is_back "$newB" "$B"
done
# An Id too long for spaced to keep whole (an engine's answer is
# untrusted in shape): the move has no Id of the new container, as when
# the answer names none, and never calls the engine by a cut of it.
rm -f "$T/rules.calls" "$T/rules.made"
rules long-id-create-space
ctl -j start "$id" >"$T/long.json" 2>&1
rules
made=$(cat "$T/rules.made" 2>/dev/null)
check "long Id: the engine made the new container (${made:-no Id})" test -n "$made"
check "long Id: the move fails with space_verify_failed ($(code_of "$T/long.json"))" test "$(code_of "$T/long.json")" = space_verify_failed
check "long Id, control: the calls after the create are seen (the old one's inspect)" grep -q "/containers/$newB/json" "$T/rules.calls"
lacks "long Id: no call names a cut of it" "$T/rules.calls" -F "${made:-no-id}0"
# The new one holds the plain name: the old stays aside (the undo never
# removes by name); back by hand, as a start's repair would.
docker rm -f "${made:-no-id}" >/dev/null 2>&1
docker rename "$(aside)" "$(plain)"
check "long Id: the old container is back, on B, alone" old_is_back "$newB" "$B"

# and it still starts on its old tools
restart r2
check "the old container still starts on its old tools" quiet ctl start "$id"
check "no move: same container, on B" test "$(cid "$(plain)")" = "$newB" -a "$(tools_of "$(plain)")" = "$B"
ctl stop "$id" >/dev/null

# --- only the aside container: verify, exec, stop say so -----------------
docker rename "$(plain)" "$(aside)"
for op in verify stop; do
	ctl -j $op "$id" >"$T/$op.json" 2>&1
	check "$op answers space_move_unfinished" test "$(code_of "$T/$op.json")" = space_move_unfinished
done
ctl -j exec "$id" -- /bin/true >"$T/exec.json" 2>&1
check "exec answers space_move_unfinished" grep -q space_move_unfinished "$T/exec.json"
check "list shows it as exited" test "$(ctl -j list | jq -r ".[] | select(.id == \"$id\") | .state")" = exited
check "verify, exec and stop renamed nothing" test -n "$(cid "$(aside)")" -a -z "$(cid "$(plain)")"

# --- the half-done move: start repairs and moves -------------------------
# the unfinished new container: stopped, with the space's labels
labels=$(docker inspect -f '{{range $k, $v := .Config.Labels}}--label {{$k}}={{$v}} {{end}}' "$(aside)")
# shellcheck disable=SC2086
docker create --name "$(plain)" $labels --network none "$SPACE_IMAGE" /bin/true >/dev/null
half=$(cid "$(plain)")
check "list prefers the plain name (created, not exited)" test "$(ctl -j list | jq -r ".[] | select(.id == \"$id\") | .state")" = created
restart ""
# A went with the prune of the move to B: filled again, as ensure would
check "A filled again under its name" test "$(fill real)" = "$A"
ctl -j start "$id" >"$T/s5.json" 2>&1
check "start repairs and moves ($(code_of "$T/s5.json"))" test -z "$(code_of "$T/s5.json")"
check "the unfinished container is gone" test -z "$(cid "$half")"
check "the space runs on A, a new container, alone" test "$(tools_of "$(plain)")" = "$A" -a "$(state_of "$(plain)")" = running -a "$(nspace)" -eq 1 -a "$(cid "$(plain)")" != "$newB"
check "and its server answers" healthy

# --- two starts share one run; a stop waits for it -----------------------
ctl stop "$id" >/dev/null
check "the move back to A pruned B" test -z "$(tvols | grep -x "$B")"
restart r2
fill held >/dev/null
before=$(cid "$(plain)")
# Ordered by events, not by time: the first start's move is held with
# its new container running (its server waits for /tmp/spaced-go), the
# second start joins it and the stop waits for it (spaced's log says
# each), then the server goes on.
ctl -j start "$id" >"$T/p1.json" 2>&1 & p1=$!
check "the first start's move is under way (its new server held)" \
    wait_for 120 moved
ctl -j start "$id" >"$T/p2.json" 2>&1 & p2=$!
# restart runs spaced with -v: the line is there or the run was not shared.
check "spaced's log: the second start shared the run" \
    wait_for 60 grep -q "shares the start of $id" "$sd/log"
ctl -j stop "$id" >"$T/p3.json" 2>&1 & p3=$!
check "spaced's log: the stop waits for the start under way" \
    wait_for 60 grep -q "stop waits for the start of $id" "$sd/log"
docker exec "$(plain)" touch /tmp/spaced-go
wait $p1; wait $p2; wait $p3
check "both starts answer the same: moved" test -z "$(code_of "$T/p1.json")" -a -z "$(code_of "$T/p2.json")"
check "one move: on B, one container, no aside" test "$(tools_of "$(plain)")" = "$B" -a "$(nspace)" -eq 1 -a -z "$(cid "$(aside)")" -a "$(cid "$(plain)")" != "$before"
check "the stop waited and stopped it ($(code_of "$T/p3.json"))" test -z "$(code_of "$T/p3.json")" -a "$(state_of "$(plain)")" = exited

# --- remove finds both by label ------------------------------------------
docker rename "$(plain)" "$(aside)"
docker create --name "$(plain)" $labels --network none "$SPACE_IMAGE" /bin/true >/dev/null
check "remove removes both" quiet ctl remove "$id"
check "nothing of the space is left" test "$(docker ps -aq --filter "label=spaced.space.id=$id" | grep -c .)" -eq 0
id=

cp "$sd/log" /tmp/move-spaced.log 2>/dev/null
finish
