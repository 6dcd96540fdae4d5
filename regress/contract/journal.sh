#!/bin/sh
# The journal through spacectl against the real engine: a corridor
# refusal that the gatekeeper journals reaches spaced-journal's store by
# way of the gatekeeper's container log, stays there past a restart of
# the gatekeeper (which forgets its ring), is shown once however often
# it is read, and never to another user.  Hostile lines are the unit
# tests' (regress/unit/spaced-journal) and the fuzz target's.
. "$(dirname "$0")/lib.sh"

j() { jq -r "$@"; }
# holds FILE JQ-TEST: the journal read again into FILE until a record
# passes the test.  A refusal reaches the store through the
# gatekeeper's container log, which the engine's log copier writes a
# moment after curl had its answer (under load, later than the next
# read); the wait is a hang guard, each check below still reads once.
holds() {
	sc -j journal "$id" >"$1" 2>/dev/null &&
	    [ "$(j --arg t "$2" '[.records[] | select(.host | test($t))] |
	    length' "$1")" -ge 1 ]
}

id=$(sc create -n journal) || id=
check "create ($id)" test -n "$id"

# A corridor refusal: not on the (empty) allowlist.
sc exec "$id" -- curl -s -m 60 -o /dev/null -x http://gatekeeper:3128 \
    https://not-listed.example/ >/dev/null 2>&1
wait_for 60 holds "$T/j0.json" '^not-listed\.example$'
sc -j journal "$id" >"$T/j1.json" 2>"$T/err"
check "journal -j answers an object" \
    sh -c "jq -e 'has(\"records\") and has(\"malformed\")' '$T/j1.json' >/dev/null"
n1=$(j '[.records[] | select(.host == "not-listed.example")] | length' "$T/j1.json")
check "the refusal is in it ($n1)" test "${n1:-0}" -ge 1
check "  as a corridor deny on 443" test "$(j '[.records[] |
    select(.host == "not-listed.example")][0] |
    "\(.listener) \(.port) \(.decision | startswith("deny:"))"' "$T/j1.json")" = \
    "corridor 443 true"
check "  with an ISO time" sh -c "jq -r '.records[0].at' '$T/j1.json' |
    grep -Eqx '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z'"
check "  and no malformed line" test "$(j .malformed "$T/j1.json")" = 0
sc journal "$id" >"$T/j1.txt"
check "journal: a text line of it" \
    grep -Eq ' corridor not-listed\.example:443 deny:' "$T/j1.txt"

sc -j journal "$id" >"$T/j2.json"
check "read again, nothing twice" test "$(j '.records | length' "$T/j2.json")" = \
    "$(j '.records | length' "$T/j1.json")"

# The gatekeeper restarts: its ring is gone, the container log and the
# store are not.
sc stop "$id" >/dev/null && sc start "$id" >/dev/null
check "the restarted gatekeeper's own journal forgot it" sh -c "
    '$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$id' -g -- \
    /usr/libexec/spaced/spaced-gatekeeper -C GET /journal |
    jq -e '[.records[] | select(.host == \"not-listed.example\")] | length == 0' >/dev/null"
sc -j journal "$id" >"$T/j3.json"
check "after stop and start, the record is still shown" \
    test "$(j '[.records[] | select(.host == "not-listed.example")] | length' "$T/j3.json")" = "$n1"
check "  and nothing twice" test "$(j '.records | length' "$T/j3.json")" = \
    "$(j '.records | length' "$T/j1.json")"

# A second attempt after the restart comes on top.
sc exec "$id" -- curl -s -m 60 -o /dev/null -x http://gatekeeper:3128 \
    https://second.example/ >/dev/null 2>&1
wait_for 60 holds "$T/j0.json" '^second\.example$'
sc -j journal "$id" >"$T/j4.json"
check "a new record after the restart is added" \
    test "$(j '[.records[] | select(.host == "second.example")] | length' "$T/j4.json")" -ge 1
check "  after the old ones" test "$(j '.records | length' "$T/j4.json")" -gt \
    "$(j '.records | length' "$T/j3.json")"

# A host far over the cap, in a plain proxy request (its target is in
# the request line): the gatekeeper cuts it to 256, the journal takes it
# at that length, and no line of the log was malformed.
long=$(printf '%0300d' 0 | tr 0 a)
sc exec "$id" -- curl -s -m 60 -o /dev/null -x http://gatekeeper:3128 \
    "http://$long.example/" >/dev/null 2>&1
wait_for 60 holds "$T/j0.json" '^aaaa'
sc -j journal "$id" >"$T/j5.json"
check "a host over the cap is kept cut to 256" \
    test "$(j '[.records[] | select(.host | startswith("aaaa"))][0].host | length' "$T/j5.json")" = 256
check "  and nothing of the log was malformed or dropped" \
    test "$(j '"\(.malformed) \(.dropped)"' "$T/j5.json")" = "0 0"

# -f: what is there, then only what is new.
# Ordered by events: the new record is made once the old ones are
# printed, and the follow ends once it shows (the waits guard against a hang).
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" journal "$id" -f \
    >"$T/follow" 2>&1 &
fpid=$!
printed() { [ "$(grep -c "$1" "$T/follow")" -ge "$2" ]; }
wait_for 60 printed ' not-listed\.example:443 ' "$n1"
sc exec "$id" -- curl -s -m 60 -o /dev/null -x http://gatekeeper:3128 \
    https://third.example/ >/dev/null 2>&1
wait_for 60 printed ' third\.example:443 ' 1
kill "$fpid"; wait "$fpid"
check "journal -f shows a record made while it follows" \
    grep -q ' third\.example:443 ' "$T/follow"
check "  and each record once" test "$(grep -c ' not-listed\.example:443 ' "$T/follow")" = "$n1"

# Another user: nothing of root's.
dgid=$(getent group docker | cut -d: -f3)
plain() {
	setpriv --reuid=65534 --regid=65534 --groups="${dgid:-0}" \
	    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"
}
plain journal "$id" >"$T/plain.out" 2>"$T/err"
check "a plain user's journal of root's space: space_not_found, as an unknown one" \
    grep -q space_not_found "$T/err"
check "  and no record" test ! -s "$T/plain.out"

# Unknown ids, and a space whose gatekeeper is gone.
sc journal 000000000000 2>"$T/err"
check "journal of an unknown space: space_not_found (gatekeeper_missing is for a space of the caller's)" \
    grep -q space_not_found "$T/err"
sc journal xyz 2>"$T/err"
check "a bad id is refused before it is sent (invalid_space_id)" \
    grep -q '^spacectl: invalid_space_id' "$T/err"

# The store holds the owner in its name, and no JSON of a gatekeeper.
check "the store file is named by owner and space" \
    test -f "$sd/store/$INSTALL-0-$id.journal"
check "  a line a record, tab-separated, ending in its MAC" \
    sh -c "awk -F '\t' 'NF != 10 || length(\$10) != 64 || \$10 ~ /[^0-9a-f]/ { bad = 1 }
    END { exit bad }' '$sd/store/$INSTALL-0-$id.journal'"
check "  the installation's key is spaced-journal's alone (0600)" \
    test "$(stat -c %a "$sd/store/.journal-key")" = 600

# The chain: the untouched store passes --verify, a hand's edit is named.
store=$sd/store/$INSTALL-0-$id.journal
sc journal "$id" --verify >"$T/v.out" 2>"$T/err"
check "journal --verify: the untouched store holds" \
    grep -q '^the chain holds: records 0 to' "$T/v.out"
sc journal "$id" -j >"$T/l.json"
check "journal -j: one OCSF network activity object a line" \
    jq -se 'length > 0 and all(.class_uid == 4001 and
    (.metadata.sequence | type == "number") and
    (.dst_endpoint.hostname | type == "string"))' "$T/l.json" >/dev/null
cp "$store" "$T/store.bak"
sed -i '0,/\tnot-listed\.example\t/s//\tnot-listed.exampl3\t/' "$store"
check "  (an edit by hand as root took)" sh -c "! cmp -s '$store' '$T/store.bak'"
sc journal "$id" --verify >"$T/v.out" 2>&1
rc=$?
check "  --verify names the edited record" \
    grep -Eq '^broken at record [0-9]+: record [0-9]+ does not match its MAC' "$T/v.out"
check "  and exits 1" test "$rc" = 1
cp "$T/store.bak" "$store"
sed -i '1d' "$store"
sc journal "$id" --verify >"$T/v.out" 2>&1
check "  --verify names a removed first record" \
    grep -q '^broken at record 1: record 1 stands where record 0 should' "$T/v.out"
cp "$T/store.bak" "$store"
sc journal "$id" --verify >"$T/v.out" 2>&1
check "  restored, it holds again" grep -q '^the chain holds' "$T/v.out"

sc -j remove "$id" >/dev/null
finish
