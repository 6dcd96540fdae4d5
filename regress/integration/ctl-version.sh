#!/bin/sh
# The control protocol's version, both ways: a request of another
# version (a spacectl of an older or newer build, here a raw client) is
# answered protocol_version naming spaced's version, and closed; the
# real spacectl meeting an answer of another version (a stand-in spaced,
# ctl_fake.py) says protocol_version with both numbers, never
# bad_answer.  ~5 s.
. "$(dirname "$0")/lib.sh"

make_tree
trap 'stop_spaced; kill $fake 2>/dev/null; rm -rf "$tree"' EXIT
sd=$tree/s1
fake=
old=$((CTL_VERSION - 1)) new=$((CTL_VERSION + 1))
# The versions before answers named theirs: spacectls that compare an
# answer's whole peerid with their request's (ctl_proto.h).
echoed=2
want="protocol_version: spacectl speaks $CTL_VERSION, spaced speaks"
same="use the spacectl of the same build"

# --- spacectl meets spaced of another build --------------------------
# fake NAME MODE [N]: a stand-in spaced at $tree/NAME.sock, listening.
fake() {
	rm -f "$tree/$1.ready"
	python3 "$top/regress/integration/ctl_fake.py" "$tree/$1.sock" \
	    "$2" ${3:+"$3"} "$tree/$1.ready" 2>"$tree/$1.err" &
	fake=$!
	wait_for 10 test -e "$tree/$1.ready"
}
fctl() { n=$1; shift; "$tree/bin/spacectl" -s "$tree/$n.sock" "$@"; }

fake same same
check "an answer of spacectl's own version is taken (control)" \
    fctl same verbose 1
fake old old "$old"
check_refusal "an older spaced's check record: protocol_version naming both, not bad_answer" \
    1 "^spacectl: $want $old; $same\$" fctl old check
fake oldj old "$old"
check_refusal "  and under -j an error object of the same words" \
    1 "\"message\": \"spacectl speaks $CTL_VERSION, spaced speaks $old; $same\"" \
    fctl oldj -j check
fake refuse refuse "$new"
check_refusal "a newer spaced's refusal: protocol_version naming both" \
    1 "^spacectl: $want $new; $same\$" fctl refuse check
fake echo echo
check_refusal "a spaced whose refusal echoes our version: another version, unnamed" \
    1 "^spacectl: protocol_version: spacectl speaks $CTL_VERSION, spaced another version; $same\$" \
    fctl echo check

# --- spaced meets spacectl of another build --------------------------
check "spaced starts" start_spaced "$sd"
raw() { python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" "$@"; }
check "a check in spaced's own version is answered (control)" sh -c \
    "python3 '$top/regress/integration/ctl_raw.py' '$sd/run/spaced.sock' speak $CTL_VERSION 102 | grep -Eq '^(data@$CTL_VERSION )+end@$CTL_VERSION\$'"
# A client of 2 (a spacectl built before 3) had its check answered with
# records it could not read: bad_answer.
check "a client of $echoed's check: protocol_version, in its own version (the only peerid it takes)" \
    [ "$(raw speak "$echoed" 102)" = "protocol_version@$echoed" ]
if [ "$old" -gt "$echoed" ]; then
	check "an older client's check: protocol_version in spaced's version" \
	    [ "$(raw speak "$old" 102)" = "protocol_version@$CTL_VERSION" ]
fi
check "a newer client's check: protocol_version in spaced's version" \
    [ "$(raw speak "$new" 102)" = "protocol_version@$CTL_VERSION" ]
check "a newer client's status: the same" \
    [ "$(raw speak "$new" 100)" = "protocol_version@$CTL_VERSION" ]
check "a client of version 0: the same" \
    [ "$(raw speak 0 100)" = "protocol_version@$CTL_VERSION" ]
# A request over the control channel's cap: its version is in the header
# spaced reads, and a mismatch is the cause (red before: a newer
# spacectl's large request was told request_too_large).
check "a newer client's request over the cap: protocol_version in spaced's version" \
    [ "$(raw speak-big "$new" 114)" = "protocol_version@$CTL_VERSION" ]
check "a client of $echoed's request over the cap: protocol_version in its own" \
    [ "$(raw speak-big "$echoed" 114)" = "protocol_version@$echoed" ]
check "  control: the same request in spaced's version: request_too_large" \
    [ "$(raw speak-big "$CTL_VERSION" 114)" = "request_too_large@$CTL_VERSION" ]
# A stream's data carries its stream's id where a request's version is.
check "  a stream's data over the cap: request_too_large, its id no version" \
    [ "$(raw speak-big 7 10)" = "request_too_large@$CTL_VERSION" ]
check "spaced still serves" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' status >/dev/null"
finish
