#!/bin/sh
# spaced.conf's "spaces per owner" under creates at once, on both places.
# Each place counted the owner's spaces it could see: on Docker, ten
# creates in flight by one user all passed a cap of 3 (none had its
# containers yet).  Now each place counts its creates past the count
# too: ten at once make exactly 3, the others answer too_many_spaces; a
# create that fails after its count (here: its client left) gives its
# slot back.  The positive controls: three in a row are made, and the
# fourth in a row is refused.  About a minute.
SPACED_EXTRA_CONF='spaces per owner "3"'
. "$(dirname "$0")/../contract/lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "the native half needs root (namespaces and cgroup groups)"
	finish
fi

ids=""
remove_all() {
	for i in $ids; do sc remove "$i" >/dev/null 2>&1; done
	ids=
}
cap_end() { remove_all; }
at_finish cap_end

# ten PLACE: ten creates at once on PLACE; their ids in $T/id.N, errors
# in $T/err.N.
ten() {
	rm -f "$T"/id.* "$T"/err.*
	t_pids=
	for n in 1 2 3 4 5 6 7 8 9 10; do
		sc create -p "$1" -n "cap $n" -m 64m >"$T/id.$n" 2>"$T/err.$n" &
		t_pids="$t_pids $!"
	done
	# Each by its pid: a bare wait would wait for spaced too.
	for p in $t_pids; do wait "$p"; done
	for n in 1 2 3 4 5 6 7 8 9 10; do
		[ -s "$T/id.$n" ] && ids="$ids $(cat "$T/id.$n")"
	done
}
made() { cat "$T"/id.* | grep -c .; }
refused() { grep -l '^spacectl: too_many_spaces' "$T"/err.* | wc -l; }

for place in docker native; do
	# The control: the cap holds for creates one after another.
	for n in 1 2 3; do
		sc create -p $place -n "row $n" -m 64m >"$T/id" 2>"$T/err" &&
		    ids="$ids $(cat "$T/id")"
	done
	check "$place: three in a row under a cap of 3 are made (control)" \
	    test "$(echo $ids | wc -w)" -eq 3
	sc create -p $place -n "row 4" -m 64m >"$T/id" 2>"$T/err"
	check "  the fourth in a row: too_many_spaces (control)" \
	    grep -q '^spacectl: too_many_spaces: 3 spaces already, 3 at most' "$T/err"
	remove_all

	ten $place
	check "$place: ten creates at once under a cap of 3 make exactly 3 ($(made))" \
	    test "$(made)" -eq 3
	check "  the other seven answer too_many_spaces ($(refused))" \
	    test "$(refused)" -eq 7
	check "  the owner's list holds 3" test "$(sc -j list | jq length)" -eq 3
	remove_all
done

# --- a create that fails after its count gives its slot back (Docker) ---
for n in 1 2; do
	sc create -p docker -n "slot $n" -m 64m >"$T/id" 2>"$T/err" &&
	    ids="$ids $(cat "$T/id")"
done
check "two spaces of the cap's three" test "$(echo $ids | wc -w)" -eq 2
containers() {
	api GET "/containers/json?all=1&filters=$(printf '{"label":["spaced.space.owner=%s"]}' \
	    "$OWNER_ROOT" | jq -sRr @uri)" | jq length
}
more_than() { [ "$(containers)" -gt "$1" ]; }
at_most() { [ "$(containers)" -le "$1" ]; }
before=$(containers)
# spacectl itself in the background, so that the kill reaches it.
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" create -p docker -n "left" \
    -m 64m >/dev/null 2>&1 &
left=$!
# Past its count once a container of it exists: its client leaves then.
wait_for 120 more_than "$before"
kill "$left" 2>/dev/null
wait "$left" 2>/dev/null
check "the left create's rollback removes what it made" \
    wait_for 120 at_most "$before"
# Its slot comes back when it ends, a moment after its containers went
# (its volumes and network go after them): a third create is refused
# until then, and made after.  Without the slot given back, never.
third() {
	sc create -p docker -n "slot 3" -m 64m >"$T/id" 2>"$T/err" &&
	    ids="$ids $(cat "$T/id")"
}
wait_for 120 third
check "then a third is made: the failed create gave its slot back ($(cat "$T/err"))" \
    test "$(echo $ids | wc -w)" -eq 3
remove_all
finish
