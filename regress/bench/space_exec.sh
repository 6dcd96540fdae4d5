#!/bin/sh
# Exec through spacectl and spaced against the docker CLI on the same
# container, in one run (issue 7): the round trip of `true` (also against
# the Engine API spoken raw, engine_exec.c: the honest floor), and 100 MiB
# in (stdin), out (stdout), and both ways through cat, with the peak RSS of
# spaced and spaced-docker over the whole run.  Medians over N rounds
# and the ratios.  Never asserts a time.
# usage: space_exec.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-9}
cd "$(dirname "$0")/../.."
. regress/integration/lib.sh
[ -f "$b/images.env" ] || { echo "space_exec: make images first" >&2; exit 1; }
. "$b/images.env"
T=$(mktemp -d)
build=$b
mkdir -p "$b/regress/bench"
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE $(pkg-config --cflags libbsd-overlay) \
    -o "$b/regress/bench/engine_exec" regress/bench/engine_exec.c regress/bench/engine_client.c \
    $(pkg-config --libs libbsd-overlay)
make_tree
SPACED_EXTRA_CONF="space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\""
start_spaced "$T/sd" || { echo "space_exec: spaced did not start" >&2; exit 1; }
id=
trap '[ -n "$id" ] && ctl remove "$id" >/dev/null; stop_spaced; rm -rf "$T" "$tree"' EXIT
id=$(ctl create)
c=spaced-space-$id-space

now() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# 100 MiB of incompressible bytes, from a file: the source costs both
# sides the same.
head -c $((100 << 20)) /dev/urandom >"$T/in"
want=$(sha256sum <"$T/in" | cut -d' ' -f1)
# docker exec runs as the image's user unless told: the space's, as ours.
# A failed step fails the bench (set -e), never drops out of the median.
for i in $(seq "$n"); do
	t0=$(now); ctl exec "$id" -- true; t1=$(now)
	docker exec -u 10000:10000 "$c" true; t2=$(now)
	r=$("$b/regress/bench/engine_exec" "${DOCKER_SOCK:-/var/run/docker.sock}" \
	    "$c" 10000:10000 1 true)
	echo "$(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 )) $r" >>"$T/rtt"
done
# Three shapes: stdin only, stdout only, and both ways through cat.
for i in $(seq 3); do
	t0=$(now); ctl exec "$id" -- sh -c 'cat >/dev/null' <"$T/in"; t1=$(now)
	docker exec -i -u 10000:10000 "$c" sh -c 'cat >/dev/null' <"$T/in"; t2=$(now)
	echo "$(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 ))" >>"$T/in.t"
	t0=$(now); ctl exec "$id" -n -- head -c $((100 << 20)) /dev/zero >"$T/out.api"; t1=$(now)
	docker exec -u 10000:10000 "$c" head -c $((100 << 20)) /dev/zero >"$T/out.cli"; t2=$(now)
	for s in api cli; do
		[ "$(wc -c <"$T/out.$s")" -eq $((100 << 20)) ] ||
		    { echo "space_exec: $s: short output" >&2; exit 1; }
	done
	echo "$(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 ))" >>"$T/out.t"
	t0=$(now); ctl exec "$id" -- cat <"$T/in" >"$T/out.api"; t1=$(now)
	docker exec -i -u 10000:10000 "$c" cat <"$T/in" >"$T/out.cli"; t2=$(now)
	for s in api cli; do
		[ "$(sha256sum <"$T/out.$s" | cut -d' ' -f1)" = "$want" ] ||
		    { echo "space_exec: $s: the bytes came back changed" >&2; exit 1; }
	done
	echo "$(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 ))" >>"$T/cat.t"
done
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status"; }
dpid=$(pgrep -P "$spaced_pid" -x spaced-docker | head -1)
a=$(cut -d' ' -f1 "$T/rtt" | median); d=$(cut -d' ' -f2 "$T/rtt" | median)
r=$(cut -d' ' -f3 "$T/rtt" | median)
awk -v a="$a" -v d="$d" 'BEGIN { printf "exec true      spacectl %6.1f ms   docker exec %6.1f ms   %.2fx faster (goal 1.3x; the CLI, the old baseline)\n", a / 1000, d / 1000, d / a }'
awk -v a="$a" -v r="$r" 'BEGIN { printf "exec true      spacectl %6.1f ms   raw Engine API %6.1f ms   ratio %.2f (raw/spacectl: 1.0 is the floor)\n", a / 1000, r / 1000, r / a }'
for shape in in out cat; do
	a=$(cut -d' ' -f1 "$T/$shape.t" | median); d=$(cut -d' ' -f2 "$T/$shape.t" | median)
	awk -v w="$shape" -v a="$a" -v d="$d" 'BEGIN {
	    what = w == "in" ? "100 MiB stdin " : w == "out" ? "100 MiB stdout" : "100 MiB both  "
	    printf "%s spacectl %6.0f MiB/s  docker exec -i %6.0f MiB/s  %.2f of it (goal 0.8)\n", what, 104.8576e6 / a, 104.8576e6 / d, d / a }'
done
echo "peak RSS       spaced $(( $(hwm "$spaced_pid") / 1024 )) MiB, spaced-docker $(( $(hwm "$dpid") / 1024 )) MiB"
