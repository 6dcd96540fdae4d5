#!/bin/sh
# spacectl as a new user meets it, against a live spaced and one native
# space (root; no Docker): what -j and the tables print of bytes a space
# or its owner chose, and the cap on an owner's spaces.  Each check was
# red before its fix.  About 10 s.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
SPACED_AGENT_CONF="default agent none"
SPACED_EXTRA_CONF='spaces per owner "2"'
. "$(dirname "$0")/../contract/lib.sh"

jqt() { jq -e "$@" >/dev/null; }

id=$(sc create -n "user one") || id=
check "a native space ($id)" test -n "$id"

# exec -j: jansson refuses a string that is not UTF-8 whole, and the
# output was dropped ("stdout": ""); each bad byte is U+FFFD now.
sc -j exec "$id" -- printf 'plain \303\251\n' >"$T/ok.json"
check "exec -j: UTF-8 output exactly (control)" \
    jqt '.stdout == "plain \u00e9\n" and .exitCode == 0' "$T/ok.json"
sc -j exec "$id" -- sh -c 'printf "ok\377\376\303\251\n"; printf "e\300\257" >&2' >"$T/bad.json"
check "exec -j: a byte that is not UTF-8 is U+FFFD, the rest kept" \
    jqt '.stdout == "ok\ufffd\ufffd\u00e9\n"' "$T/bad.json"
check "  on stderr too (an overlong form: two bytes, two U+FFFD)" \
    jqt '.stderr == "e\ufffd\ufffd"' "$T/bad.json"
head -c 300000 /dev/urandom >"$T/rand"
sc -j exec "$id" -- cat <"$T/rand" >"$T/rand.json"
check "  300 KB of random bytes: a string, not an empty one" \
    jqt '.stdout | length > 100000' "$T/rand.json"

# A name its owner's list could not print: spaced refuses it now, and
# the list goes on working.
sc create -n "$(printf 'bad\377utf')" >"$T/bad.out" 2>"$T/bad.err"
check "create -n with bytes that are not UTF-8: invalid_name" \
    grep -q '^spacectl: invalid_name' "$T/bad.err"
check "  nothing was made" test ! -s "$T/bad.out"
check "list works and shows the space" sh -c "sc() { '$tree/bin/spacectl' -s '$sd/run/spaced.sock' \"\$@\"; }
    sc list | grep -q '^$id  user one ' && sc -j list | jq -e 'length == 1' >/dev/null"

# spaces per owner held on the Docker place alone: a native create never
# counted, and an owner could make any number.
id2=$(sc create -n "user two") || id2=
check "a second space under a cap of 2 (control)" test -n "$id2"
sc create -n "user three" >"$T/three.out" 2>"$T/three.err"
check "a third: too_many_spaces, saying the setting" \
    grep -q '^spacectl: too_many_spaces: 2 spaces already, 2 at most (spaces per owner in spaced.conf)' "$T/three.err"
check "  nothing was made" sh -c "[ ! -s '$T/three.out' ] &&
    '$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j list | jq -e 'length == 2' >/dev/null"
sc remove "$id2" >/dev/null

# Every body ends its line.
for c in "list" "show $id" "-j show $id" "-j list" "-j verify $id" \
    "-j exec $id -- true" "-j events"; do
	sc $c >"$T/body" 2>/dev/null
	check "spacectl $c: ends with a newline" sh -c \
	    "[ \"\$(tail -c1 '$T/body' | od -An -c | tr -d ' ')\" = '\\n' ]"
done

sc remove "$id" >/dev/null
check "removed" sh -c "! '$tree/bin/spacectl' -s '$sd/run/spaced.sock' show '$id' >/dev/null 2>&1"
# Whatever a broken build made that list could not show (its mutants).
for s in $(sc -j events 2>/dev/null | jq -r 'select(.kind == "create") | .space'); do
	[ "$s" = "$id" ] || [ "$s" = "${id2:-}" ] || sc remove "$s" >/dev/null 2>&1
done
finish
