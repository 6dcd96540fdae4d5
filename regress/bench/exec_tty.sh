#!/bin/sh
# Keystroke echo through `spacectl exec -t` against `docker exec -it` on
# the same space, in one run (issue 23): a byte in, its echo out (the
# space's terminal echoes it; tty_echo.py times it on a pty of ours).
# Both run at once and the samples alternate byte by byte; p50 and p99
# of each and the ratios.  Never asserts a time.
# usage: exec_tty.sh [build-dir] [samples a round] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-200}
rounds=${3:-3}
cd "$(dirname "$0")/../.."
top=$(pwd)
. regress/integration/lib.sh
[ -f "$b/images.env" ] || { echo "exec_tty: make images first" >&2; exit 1; }
. "$b/images.env"
T=$(mktemp -d)
build=$b
make_tree
SPACED_EXTRA_CONF="space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\""
start_spaced "$T/sd" || { echo "exec_tty: spaced did not start" >&2; exit 1; }
id=
trap '[ -n "$id" ] && ctl remove "$id" >/dev/null; stop_spaced; rm -rf "$T" "$tree"' EXIT
id=$(ctl create)
c=spaced-space-$id-space
# The space's own user, as spacectl's exec runs.
uid=$(docker inspect -f '{{.Config.User}}' "$c")

# Both at once, byte by byte in turn: the load falls on each alike.
for r in $(seq "$rounds"); do
	python3 "$top/regress/bench/tty_echo.py" "$n" "$tree/bin/spacectl" \
	    -s "$sd/run/spaced.sock" exec "$id" -t -- cat --- \
	    docker exec -it -u "$uid" "$c" cat >"$T/both"
	awk '$1 == 0 { print $2 }' "$T/both" >>"$T/api"
	awk '$1 == 1 { print $2 }' "$T/both" >>"$T/cli"
done
pct() { sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 } END { i = int(NR * p / 100 + 0.5); if (i < 1) i = 1; print v[i] }'; }
a50=$(pct "$T/api" 50); a99=$(pct "$T/api" 99)
c50=$(pct "$T/cli" 50); c99=$(pct "$T/cli" 99)
echo "exec_tty: keystroke echo, $((n * rounds)) samples each, microseconds"
printf '  spacectl exec -t      p50 %6d  p99 %6d\n' "$a50" "$a99"
printf '  docker exec -it (CLI) p50 %6d  p99 %6d\n' "$c50" "$c99"
echo "  ratio spacectl/docker p50 $(echo "scale=2; $a50 / $c50" | bc)  p99 $(echo "scale=2; $a99 / $c99" | bc)"
