#!/bin/sh
# The runtime volume and its fill containers between installations on
# one engine: a create sweeps this installation's leftover fill
# containers of its key and never another's (the control: its own
# leftover goes), and a volume another installation pruned after this
# one filled it is filled again at the next create instead of wedging
# it.  The relay of this run is made unique (a byte appended), so its
# key, volume and fill containers are this run's alone.
contract_tree() {
	printf 'runtime-suite %s\n' "$$" >>"$tree/libexec/spaced/spaced-relay"
}
. "$(dirname "$0")/lib.sh"

KEY=$(sed -n 's/.*runtime: .*, key \([0-9a-f]*\),.*/\1/p' "$T/sd/log" | head -n 1)
VOL=spaced-runtime-$KEY
OTHER=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n'):0
check "a runtime key of this run ($KEY)" test "${#KEY}" = 16
# The image spaced itself uses here (the contract's: the defaults).
SPACE_IMAGE=spaced-space:latest

# fill_ctr NAME OWNER: a never-started fill container of our key, as
# the installation OWNER's create leaves it while it fills
fill_ctr() {
	docker create --name "$1" --network none \
	    --label spaced.space=true --label "spaced.space.owner=$2" \
	    --label spaced.space.role=runtime --label "spaced.runtime.key=$KEY" \
	    "$SPACE_IMAGE" /bin/true >/dev/null
}
runtime_cleanup() {
	docker rm -f "rt-own-$INSTALL" "rt-other-$INSTALL" >/dev/null 2>&1
	docker volume rm "$VOL" >/dev/null 2>&1
	true
}
at_finish runtime_cleanup
exists() { docker inspect -f '{{.Id}}' "$1" >/dev/null 2>&1; }

check "a fill container of another installation, our key" \
    fill_ctr "rt-other-$INSTALL" "$OTHER"
check "a fill container of ours a killed worker left" \
    fill_ctr "rt-own-$INSTALL" "$OWNER_ROOT"
sc create -n "runtime one" -m 256m >"$T/id1" 2>"$T/c1.err"
check "create fills the runtime volume" eval 'test -s "$T/id1" && docker volume inspect "$VOL" >/dev/null'
check "control: the create's sweep removed our own leftover" \
    eval '! exists "rt-own-$INSTALL"'
check "another installation's fill container is not removed" \
    exists "rt-other-$INSTALL"
docker rm -f "rt-other-$INSTALL" >/dev/null 2>&1

# Another installation of the same key prunes the volume while no space
# of ours mounts it; this spaced-docker still holds it as ready.
sc remove "$(cat "$T/id1")" >/dev/null 2>&1
check "the volume is pruned behind our back (no space mounts it)" \
    eval 'docker volume rm "$VOL" >/dev/null'
check "... and gone" eval '! docker volume inspect "$VOL" >/dev/null 2>&1'
sc create -n "runtime two" -m 256m >"$T/id2" 2>"$T/c2.err"
rc_two=$?
sed 's/^/# /' "$T/c2.err"
check "the next create fills it again and succeeds" test "$rc_two" = 0
owner_of() { docker volume inspect -f '{{ index .Labels "spaced.space.owner" }}' "$VOL"; }
check "... the volume is labelled as ours again" \
    test "$(owner_of 2>/dev/null)" = "$OWNER_ROOT"
[ -s "$T/id2" ] && sc remove "$(cat "$T/id2")" >/dev/null 2>&1
finish
