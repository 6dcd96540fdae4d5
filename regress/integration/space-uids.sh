#!/bin/sh
# Docker spaces never share a uid (review 2026-12-06 F5).  A space's uid
# is the range's first plus its id modulo the range's size; spaced-docker
# drew the id once, so two spaces of the installation could meet on one
# uid and share the kernel's per-uid limits (nproc 1024, inotify).  Now a
# create draws again while another space of the installation (listed,
# or a create in flight) has that uid.  Here the range is two uids: two
# spaces get both, a third is refused (too_many_spaces, no free uid;
# before: made, on a uid another space had), and once one goes the
# third is made on its uid (the control: the range is not stuck).  Each
# uid is read inside, against the formula.  About 30 s.
SPACED_EXTRA_CONF='space uid range 70000-70001'
. "$(dirname "$0")/../contract/lib.sh"

ids=""
# uid_in ID: the uid its commands run as
uid_in() { sc exec "$1" -- id -u 2>/dev/null; }
want() { echo $((70000 + 0x$1 % 2)); }

a=$(sc create -n uid-a -m 64m) && ids="$ids $a"
b=$(sc create -n uid-b -m 64m) && ids="$ids $b"
check "two spaces in a range of two uids ($a, $b)" test -n "$a" -a -n "$b"
ua=$(uid_in "$a") ub=$(uid_in "$b")
check "  each runs as first + id mod 2 (control: $ua, $ub)" \
    test "$ua" = "$(want "$a")" -a "$ub" = "$(want "$b")"
check "  and not as the same uid" test -n "$ua" -a "$ua" != "$ub"
c=$(sc create -n uid-c -m 64m 2>"$T/err.c") && ids="$ids $c"
uc=
[ -z "$c" ] || uc=$(uid_in "$c")
check "a third is refused: no free uid (made on uid $uc)" sh -c \
    "[ -z '$c' ] && grep -q '^spacectl: too_many_spaces: no free uid' '$T/err.c'"
sc remove "$a" >/dev/null
d=$(sc create -n uid-d -m 64m) && ids="$ids $d"
ud=
[ -z "$d" ] || ud=$(uid_in "$d")
check "once one is removed, the next is made on its uid (control: $ud)" \
    test -n "$d" -a "$ud" = "$ua"
for i in $ids; do sc remove "$i" >/dev/null 2>&1; done
finish
