#!/bin/sh
# A large gatekeeper log through spacectl journal (issue 26): a real
# space whose gatekeeper is swapped for one of the same name, labels and
# log settings that writes a few MB of journal lines, each with boot and
# seq as the gatekeeper writes them.  Every line must reach the store.
# timeout is a hang guard, not a timed assertion.  Needs root and
# Docker; well under a minute.
# No collection nor disk sweep meanwhile: their traffic on spaced-docker's
# channel would arm its write and hide a pump that leaves a window queued.
SPACED_EXTRA_CONF="journal interval 3600
space disk sweep 86400"
if [ -r "${SPACED_BUILD:-build}/images.env" ]; then
	. "${SPACED_BUILD:-build}/images.env"
	SPACED_EXTRA_CONF="$SPACED_EXTRA_CONF
gatekeeper image $GATEKEEPER_IMAGE"
fi
. "$(dirname "$0")/../contract/lib.sh"

IMG=spaced-space:latest
N=${JOURNAL_LARGE_LINES:-30000}

id=$(sc create -n large) || id=
check "create ($id)" test -n "$id"
gk=spaced-space-$id-gatekeeper
api GET "/containers/$gk/json" >"$T/gk.json"
labels=$(jq -r '.Config.Labels | to_entries[] | "--label=\(.key)=\(.value)"' \
    "$T/gk.json")
check "the gatekeeper's labels ($(echo "$labels" | wc -l))" \
    test "$(echo "$labels" | grep -c spaced.space)" -ge 3

# The stand-in: N journal lines (about 200 bytes each), then it stays up.
GEN='
import sys, time
L = "a" * 60
w = sys.stdout.write
for i in range(int(sys.argv[1])):
    w("{\"at\":\"2026-12-06T04:00:00.000Z\",\"listener\":\"corridor\","
      "\"host\":\"f%d.%s.example\",\"port\":443,"
      "\"decision\":\"deny:not-on-allowlist\",\"boot\":1765000000000,"
      "\"seq\":%d}\n" % (i, L, i))
sys.stdout.flush()
print("done", file=sys.stderr, flush=True)
time.sleep(3600)
'
docker rm -f "$gk" >/dev/null 2>&1
# shellcheck disable=SC2086
docker run -d --name "$gk" $labels --log-driver local \
    --log-opt max-size=10m --log-opt max-file=5 --log-opt compress=false \
    --entrypoint python3 "$IMG" -c "$GEN" "$N" >/dev/null 2>"$T/run.err"
wait_for 60 sh -c "docker logs $gk 2>&1 >/dev/null | grep -q '^done'"
# stdout and stderr reach the log by copiers of their own: "done" on
# stderr can come before the last lines of stdout (a hang guard).
wait_for 60 sh -c "[ \$(docker logs $gk 2>/dev/null | wc -l) -ge $N ]"
bytes=$(docker logs "$gk" 2>/dev/null | wc -c)
check "the stand-in's log holds $N lines ($bytes bytes)" \
    test "$(docker logs "$gk" 2>/dev/null | wc -l)" = "$N"

t0=$(date +%s)
timeout 120 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j journal "$id" \
    >"$T/j.json" 2>"$T/j.err"
rc=$?
echo "# journal: $(($(date +%s) - t0)) s for $bytes bytes"
check "journal ends ($rc; $(head -c 200 "$T/j.err"))" test "$rc" = 0
n=$(jq '[.records[] | select(.host | startswith("f"))] | length' \
    "$T/j.json" 2>/dev/null)
check "every line is a record ($n of $N)" test "${n:-0}" = "$N"
check "  none malformed" test "$(jq .malformed "$T/j.json" 2>/dev/null)" = 0
check "  the last one last" test "$(jq -r '.records[-1].host' \
    "$T/j.json" 2>/dev/null | cut -d. -f1)" = "f$((N - 1))"

docker rm -f "$gk" >/dev/null 2>&1
sc -j remove "$id" >/dev/null
finish
