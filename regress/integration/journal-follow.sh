#!/bin/sh
# Collection that loses nothing (issue 26).  spaced-journal follows each
# gatekeeper with nobody asking: a record reaches the store while no one
# runs spacectl journal, of three spaces at once; what was collected
# stays readable once the gatekeeper is gone; a gatekeeper restart and a
# restart of spaced (SIGTERM: the spaces run on, and are followed again
# from the store at the next start) lose no record and repeat none.  With
# the follow slowed to an hour (the control: a record then stays out of
# the store), a stop and a remove still collect first, a remove the
# relay's restart lines too.  Needs root and Docker; about three minutes.
# A mutant's copy of the tree has no images of its own: MOVE_IMAGES.
for f in "${SPACED_BUILD:-build}/images.env" "${MOVE_IMAGES:-}"; do
	[ -r "$f" ] || continue
	. "$f"
	SPACED_EXTRA_CONF="gatekeeper image $GATEKEEPER_IMAGE"
	break
done
SPACED_EXTRA_CONF="${SPACED_EXTRA_CONF:-}
journal interval 1"
. "$(dirname "$0")/../contract/lib.sh"

# mark ID TAG: a refused CONNECT from inside, a record of its own
# (--max-time: a hang guard; the refusal is at once).
mark() {
	sc exec "$1" -- curl -s -o /dev/null --max-time 60 \
	    -x http://127.0.0.1:3128 -p "https://$2.follow.example/" \
	    >/dev/null 2>&1
}
# stored ID TAG: the record is in the store's files (read as root).
stored() { cat "$sd/store/$INSTALL-0-$1".journal* 2>/dev/null |
    grep -q "	$2\.follow\.example	"; }
# rec_count ID TAG: how many records of TAG the journal gives.
rec_count() {
	sc -j journal "$1" 2>/dev/null | jq --arg h "$2.follow.example" \
	    '[.records[] | select(.host == $h)] | length'
}
gk() { echo "spaced-space-$1-gatekeeper"; }
running() {
	[ "$(api GET "/containers/$1/json" | jq -r .State.Running)" = true ]
}

a=$(sc create -n follow-a) || a=
b=$(sc create -n follow-b) || b=
c=$(sc create -n follow-c) || c=
check "three spaces ($a $b $c)" test -n "$a" -a -n "$b" -a -n "$c"
stored "$a" f0
check "  (the probe sees no record before one is made)" test $? -ne 0

# 1. Followed with nobody asking, three spaces at once.
for s in $a $b $c; do mark "$s" f1; done
for s in $a $b $c; do
	wait_for 60 stored "$s" f1
	check "a record of $s reaches the store with no journal asked" \
	    stored "$s" f1
done
check "  and spaced answers meanwhile (list)" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' list >/dev/null"

# 2. The gatekeeper removed behind spaced's back: what was collected stays.
mark "$a" f2
wait_for 60 stored "$a" f2
docker rm -f "$(gk "$a")" >/dev/null 2>&1
sc journal "$a" >"$T/a.out" 2>"$T/a.err"
check "with its gatekeeper gone, journal still gives its records" \
    sh -c "grep -q 'f1.follow.example' '$T/a.out' &&
    grep -q 'f2.follow.example' '$T/a.out'"
sc journal 000000000000 2>"$T/err"
check "  an id the store never had: space_not_found (gatekeeper_missing is a space's of the caller's)" \
    grep -q space_not_found "$T/err"
sc network "$a" allowlist example.com >/dev/null 2>"$T/err"
check "  network of it (an exec into the gatekeeper): gatekeeper_missing" \
    grep -q gatekeeper_missing "$T/err"
sc network 000000000000 allowlist example.com >/dev/null 2>"$T/err"
check "  network of an id never made: space_not_found (control)" \
    grep -q space_not_found "$T/err"

# 3. A gatekeeper restart: its run changes, its numbers start again.
mark "$b" g1
wait_for 60 stored "$b" g1
docker restart -t 2 "$(gk "$b")" >/dev/null 2>&1
wait_for 30 running "$(gk "$b")"
# The corridor is back once a CONNECT is answered again.
wait_for 30 sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$b' \
    -- curl -s -o /dev/null -w '%{http_connect}' --max-time 5 \
    -x http://127.0.0.1:3128 -p https://g2.follow.example/ | grep -q 403"
wait_for 60 stored "$b" g2
check "after a gatekeeper restart its new records are kept" stored "$b" g2
check "  the records before it once each (g1 $(rec_count "$b" g1), f1 $(rec_count "$b" f1))" \
    test "$(rec_count "$b" g1)" = 1 -a "$(rec_count "$b" f1)" = 1
sc -j journal "$b" >"$T/b.json" 2>/dev/null
check "  no gap record" jq -e '[.records[] |
    select(.decision == "journal:gap")] | length == 0' "$T/b.json"
sc journal "$b" --verify >"$T/v.out" 2>&1
check "  --verify: the chain holds" grep -q '^the chain holds' "$T/v.out"

# 4. SIGTERM: spaced goes, the spaces stay; the next spaced follows them
# again from the store, with nobody naming them.
wpids=$(worker_pids)
check "spaced has workers ($(echo $wpids))" test -n "$wpids"
stop_spaced
check "spaced stopped on SIGTERM" test -z "$spaced_pid"
check "  and its workers with it" sh -c "for p in $(echo $wpids); do
    grep -q '^State:[[:space:]]*[^Z]' /proc/\$p/status 2>/dev/null && exit 1; done; exit 0"
check "  saying so in its log" grep -q 'exiting on signal 15' "$sd/log"
check "  its spaces still run" running "spaced-space-$c-space"
check "  and their gatekeepers" running "$(gk "$c")"
code=$(docker exec "spaced-space-$c-space" curl -s -o /dev/null --max-time 60 \
    -w '%{http_connect}' -x http://127.0.0.1:3128 -p https://d1.follow.example/ \
    2>&1)
check "  and refuse a CONNECT meanwhile ($code)" test "$code" = 403
start_spaced "$T/sd" || not_ok "spaced starts again"
wait_for 60 stored "$c" d1
check "a record made while spaced was away is collected after its start" \
    stored "$c" d1
check "  from the store's knowledge, nobody asked" \
    grep -q "following [0-9]* spaces the journal knows" "$sd/log"
check "  the earlier one kept once ($(rec_count "$c" f1))" test "$(rec_count "$c" f1)" = 1
sc list >"$T/list" 2>&1
check "  its spaces are found again (list)" sh -c \
    "grep -q '$b' '$T/list' && grep -q '$c' '$T/list'"

# 5. The follow at an hour: only the stop's and the remove's own
# collection can keep what was made just before.
stop_spaced
SPACED_EXTRA_CONF="$SPACED_EXTRA_CONF
journal interval 3600"
start_spaced "$T/sd" || not_ok "spaced starts with an hour's interval"
mark "$b" x1
sleep 3
stored "$b" x1
check "  (control: at an hour's interval a record stays out of the store)" \
    test $? -ne 0
# A restart line of the relay's shape on $c's stderr (pid 1 is the
# space user's): the restarts row, which the remove deletes with it.
sc exec "$c" -- /bin/sh -c "echo 'spaced-relay: restart 995 r2.follow.example signal 9 backoff 1' >/proc/1/fd/2"
sleep 3
stored "$c" r2
check "  (control: at an hour's interval a restart line stays out of the store)" \
    test $? -ne 0
mark "$b" s1
sc stop "$b" >/dev/null 2>&1
check "a record made just before a stop is in the store after it" \
    stored "$b" s1
mark "$c" r1
sc remove "$c" >/dev/null 2>&1
check "a record made just before a remove is in the store after it" \
    stored "$c" r1
check "a restart made just before a remove is in the store after it" \
    stored "$c" r2
sc journal "$c" >"$T/c.out" 2>&1
check "  and journal gives it, the space gone" grep -q r1.follow.example "$T/c.out"

for s in $a $b; do sc remove "$s" >/dev/null 2>&1; done
finish
