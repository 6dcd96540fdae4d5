#!/bin/sh
# The prune and what it may take (spec "Tools volume", spaced.conf(5)
# "Agent profiles"), with packed tools (hostile-server), no registry.
#   - A fill of another profile (hostile2, another key) prunes only what
#     no profile uses: hostile's current volume stays and is not filled
#     again (red before: the prune took every other volume of the
#     owner, so two profiles used in turn were each filled every time);
#     the control, a volume of a key no profile has, goes.
#   - A create held by the fault proxy at its space's container create
#     (the order of events, no timing), its tools ensured and its
#     runtime volume looked at, whose tools volume, then whose runtime
#     volume, is removed meanwhile as a prune of another spaced on this
#     engine removes it (the same engine call): the engine refuses the
#     container instead of making an empty volume of the name, the
#     create answers space_volume_gone naming it, nothing is left of the
#     name and the next create stands (red before: the engine made an
#     empty unlabelled volume, and every later ensure or create of it
#     was refused as not ours).  The runtime volume is of this suite's
#     own key (a space CA bundle of its own): another run shares none.
# ~2 min.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/hostile.sh"
# hostile, then hostile2: the same, of another key.
other() { profile "" | grep -v '^default' |
    sed "s/^agent hostile /agent $1 /"; echo "agent $1 revision $1"; }
# Its creates must stand: a loaded host's fresh server may take more
# than hostile.sh's 30 s (readiness is not in the key).
SPACED_AGENT_CONF=$(profile "$(other hostile2)
agent hostile ready wait 60")
rec=$(mktemp -d /tmp/spaced-race.XXXXXX)
python3 "$dir/../integration/engine_fault.py" "$rec/fault.sock" \
    /var/run/docker.sock "$rec/rules" >"$rec/fault.log" 2>&1 &
faultpid=$!
trap 'kill $faultpid 2>/dev/null; rm -rf "$rec"' EXIT
# Until it listens (a hang guard of 60 s, no measure).
i=0
while [ ! -S "$rec/fault.sock" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
# The host's CAs and a line of this run: a runtime key of its own.
{ cat /etc/ssl/certs/ca-certificates.crt; echo "# prune-race $rec"; } >"$rec/ca.pem"
SPACED_EXTRA_CONF="docker socket \"$rec/fault.sock\"
space ca bundle \"$rec/ca.pem\""
. "$dir/../contract/lib.sh"

labels() { docker volume inspect "$1" -f '{{index .Labels "spaced.space.role"}}' 2>/dev/null; }
gone() { ! docker volume inspect "$1" >/dev/null 2>&1; }
check "tools fill (hostile)" sc tools fill
VA=$(sc -j tools -a hostile | jq -r .volume)
owner=$(docker volume inspect "$VA" -f '{{index .Labels "spaced.space.owner"}}')

# --- a fill prunes what no profile uses, and each profile's newest stays -
old=${VA%-*}-00000000000000b1
docker volume create --label spaced.space=true --label "spaced.space.owner=$owner" \
    --label spaced.space.role=tools --label spaced.tools.key=00000000000000b1 \
    "$old" >/dev/null
sc -j tools fill -a hostile2 >"$T/fill2.out" 2>&1
check "another profile's fill (a new fill: it prunes)" \
    jq -e '.filled == true' "$T/fill2.out"
check "... and leaves hostile's current volume ($VA)" test "$(labels "$VA")" = tools
check "control: ... and prunes a key no profile has ($old)" gone "$old"
sc -j tools fill >"$T/fill1.out" 2>&1
check "hostile used again: nothing to fill" jq -e '.filled == false' "$T/fill1.out"

# held_create NAME VOLUME: a create held at its container's create while
# VOLUME is removed, as another spaced's prune removes it; then on.
held_create() {
	echo hold-create-space >"$rec/rules"
	"$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j create -n "$1" >"$T/$1.out" 2>&1 &
	cpid=$!
	check "$1: the create is held at its space's container create" \
	    wait_for 60 test -f "$rec/rules.held"
	check "$1: $2 removed meanwhile (unmounted, as a prune finds it)" \
	    docker volume rm "$2"
	: >"$rec/rules"
	rm -f "$rec/rules.held"
	wait "$cpid"; crc=$?
	sed "s/^/# $1: /" "$T/$1.out"
	check "$1: the create fails space_volume_gone, naming $2" sh -c \
	    "[ $crc -ne 0 ] && jq -se '.[-1] | .error == \"space_volume_gone\" and (.message | contains(\"$2\"))' '$T/$1.out'"
	check "$1: ... and the engine made no volume of the name" gone "$2"
}

# --- the tools volume gone between its ensure and the container -------
held_create race-tools "$VA"
sc -j create -n race-after >"$T/after.out" 2>&1 ||
    sed 's/^/# race-after: /' "$T/after.out"
check "then a create fills the tools again and stands" \
    jq -se '.[-1].id // empty | length > 0' "$T/after.out"
id=$(jq -rs '.[-1].id // empty' "$T/after.out")
check "... its server ready on its tools" sc server "$id" GET /
RT=$(docker inspect "spaced-space-$id-space" \
    -f '{{range .Mounts}}{{if eq .Destination "/opt/spaced"}}{{.Name}}{{end}}{{end}}' 2>/dev/null)
check "... its runtime volume of this run's key, ours" sh -c \
    "[ -n '$RT' ] && docker volume inspect '$RT' -f '{{index .Labels \"spaced.space.owner\"}}' | grep -q '^$INSTALL:'"
[ -n "$id" ] && sc remove "$id" >/dev/null

# --- the runtime volume gone between its look and the container --------
[ -n "$RT" ] && held_create race-runtime "$RT"
sc -j create -n race-again >"$T/again.out" 2>&1 ||
    sed 's/^/# race-again: /' "$T/again.out"
check "then a create fills the runtime again and stands" \
    jq -se '.[-1].id // empty | length > 0' "$T/again.out"
id=$(jq -rs '.[-1].id // empty' "$T/again.out")
check "... its server ready" sc server "$id" GET /
[ -n "$id" ] && sc remove "$id" >/dev/null

for v in $(api GET /volumes | jq -r '.Volumes[].Name' |
    grep -e "^spaced-tools-$INSTALL-" -e "^${RT:-none}\$"); do
	api DELETE "/volumes/$v" >/dev/null
done
rm -rf "$tgzdir"
finish
