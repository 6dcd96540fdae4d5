#!/bin/sh
# A stream through spaced itself, spaced-git -> spaced -> spaced-journal
# (spacectl stream-test), against a raw socketpair copy of the same size
# in the same run; goal 0.5 or better.  Root only (workers' uids).
# usage: spaced_stream.sh [build-dir]; SPACED_STREAM_MIB (1024).
set -eu
b=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
SPACED_BUILD=$b
. "$here/../integration/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
	echo "spaced_stream: skipped, needs root"
	exit 0
fi
mib=${SPACED_STREAM_MIB:-1024}
sh "$top/tools/users.sh" >/dev/null
cc -O2 -o "$b/rawcopy" "$here/rawcopy.c"
make_tree
trap 'stop_spaced; rm -rf "$tree"' EXIT
sd=$tree/bench
start_spaced "$sd"
for run in 1 2 3; do
	raw=$("$b/rawcopy" "$mib")
	out=$(ctl -j stream-test "$mib")
	python3 - "$raw" "$out" "$run" <<'PY'
import json, sys
raw = float(sys.argv[1]); d = json.loads(sys.argv[2])
if not d["intact"]:
    sys.exit("stream corrupted")
print("run %s: through spaced %.0f MiB/s, raw socketpair %.0f MiB/s, "
      "ratio %.2f (goal 0.5); spaced peak RSS %d KiB" %
      (sys.argv[3], d["mibPerSec"], raw, d["mibPerSec"] / raw,
       d["spacedPeakRssKiB"]))
PY
done
