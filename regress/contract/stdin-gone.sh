#!/bin/sh
# An exec's stdin in flight when its stream ends.  spaced sends stdin
# under credit, so some is always on its way to spaced-docker; when the
# engine's stream ends first (the space removed or stopped, the command
# or its subreaper gone), those bytes have no reader.  Before, they were
# written into a request that was no longer a stream: spaced-docker's
# fatalx, and spaced exited with it (one user's remove beside their own
# exec -i took the daemon down for everyone).  Now they are dropped.
. "$(dirname "$0")/lib.sh"

big() { head -c "$1" /dev/zero; }

id=$(sc create -n stdin-gone 2>"$T/create.err")
check "a space ($id)" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
[ -n "$id" ] || finish
n=$(big 20000000 | sc exec "$id" -i -- wc -c)
check "control: 20 MB of stdin through exec -i all arrive ($n)" \
    test "$n" = 20000000
sc remove "$id" >/dev/null

# The space removed under an exec -i still sending, at several moments
# after its command runs (seen first: a remove before the exec reached
# the space, under load, is another answer than 137).
# cat_runs ID: a process of the space whose whole argv is "cat"
cat_runs() {
	sc exec "$1" -- sh -c 'for f in /proc/[0-9]*/cmdline; do
	    [ "$(tr "\0" " " <$f 2>/dev/null)" = "cat " ] && exit 0; done; exit 1'
}
i=0 down=
while [ $i -lt 8 ]; do
	id=$(sc create -n stdin-gone 2>>"$T/create.err")
	(big 500000000 | sc exec "$id" -i -- cat >/dev/null 2>"$T/x$i.err"
	    echo $? >"$T/x$i.rc") &
	ep=$!
	wait_for 60 cat_runs "$id"
	sleep "0.$((2 + i))"
	sc remove "$id" >/dev/null
	wait "$ep"
	if ! sc list >/dev/null 2>&1; then
		down=$i
		sed -n '/docker\[/p' "$sd/log" | tail -3 | sed 's/^/# /'
		break
	fi
	i=$((i + 1))
done
check "spaced answers after each of 8 removes under exec -i${down:+ (down at $down)}" \
    test -z "$down"
check "  each exec said its space was removed (137)" sh -c \
    "cat '$T'/x*.rc | grep -qvx 137 && exit 1; grep -q 'was removed' '$T/x0.err'"
check "  spaced logged no fatal of its worker" sh -c \
    "! grep -q 'not a stream' '$sd/log'"
finish
