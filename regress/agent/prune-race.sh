#!/bin/sh
# The prune's race with a create (spec "Tools volume"): a create of the
# profile hostile has its tools volume ensured and is held, by the fault
# proxy, at its space's container create (the order of events, no
# timing); a fill of another profile (hostile2, another key) prunes the
# owner's other tools volumes meanwhile; then the create goes on.  Its
# volume is kept from that prune until the create ends, so the create
# stands; red before: the prune took it, the container's create made an
# empty volume of the name without labels, the space stopped as it
# started and every later ensure of hostile was tools_volume_not_ours.
# The control: once nothing holds or mounts it, a third profile's fill
# prunes it.  Packed tools (hostile-server), no registry; ~1 min.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/hostile.sh"
# hostile, then hostile2 and hostile3: the same, each of another key.
other() { profile "" | grep -v '^default' |
    sed "s/^agent hostile /agent $1 /"; echo "agent $1 revision $1"; }
SPACED_AGENT_CONF=$(profile "$(other hostile2; other hostile3)")
rec=$(mktemp -d /tmp/spaced-race.XXXXXX)
python3 "$dir/../integration/engine_fault.py" "$rec/fault.sock" \
    /var/run/docker.sock "$rec/rules" >"$rec/fault.log" 2>&1 &
faultpid=$!
trap 'kill $faultpid 2>/dev/null; rm -rf "$rec"' EXIT
i=0
while [ ! -S "$rec/fault.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
SPACED_EXTRA_CONF="docker socket \"$rec/fault.sock\""
. "$dir/../contract/lib.sh"

labels() { docker volume inspect "$1" -f '{{index .Labels "spaced.space.role"}}' 2>/dev/null; }
check "tools fill (hostile)" sc tools fill
VA=$(sc -j tools -a hostile | jq -r .volume)

# --- a create held after its ensure; another profile's fill meanwhile --
echo hold-create-space >"$rec/rules"
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j create -n race >"$T/create.out" 2>&1 &
cpid=$!
check "the create is held at its space's container create, its tools ensured" \
    wait_for 60 test -f "$rec/rules.held"
sc -j tools fill -a hostile2 >"$T/fill2.out" 2>&1
check "another profile's fill meanwhile (a new fill: it prunes)" \
    jq -e '.filled == true' "$T/fill2.out"
check "... and leaves the held create's tools volume, ours ($VA)" \
    test "$(labels "$VA")" = tools
: >"$rec/rules"
wait "$cpid"; crc=$?
sed 's/^/# create: /' "$T/create.out"
check "the create stands" test $crc -eq 0
id=$(jq -r '.id // empty' "$T/create.out")
check "... its server ready on its tools" sc server "$id" GET /
check "the tools of hostile are ensured again as they are" sc tools fill

# --- the control: unheld and unmounted, the prune takes it -------------
[ -n "$id" ] && sc remove "$id" >/dev/null
sc -j tools fill -a hostile3 >"$T/fill3.out" 2>&1
check "control: a third profile's fill once nothing holds it prunes it" \
    sh -c "jq -e '.pruned >= 1' '$T/fill3.out' >/dev/null && ! docker volume inspect '$VA' >/dev/null 2>&1"

for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
rm -rf "$tgzdir"
finish
