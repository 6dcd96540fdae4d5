#!/bin/sh
# The flood (issue 26): from inside a real space, ten allowed CONNECTs
# through the corridor to an upstream of ours, then 100,000 refused
# CONNECTs to long names, each a name of its own.  All ten allowed
# records are still in spaced-journal's store, every refusal is
# counted (the gatekeeper folds repeats, the corridor fails closed
# rather than go unrecorded), and --verify passes.  The control: the
# same log, as today's gatekeeper wrote it (a line a refusal), into a
# container with today's log settings (local, one 10 MB file) loses
# the ten.  Needs root and Docker; about two minutes.
# This build's gatekeeper, not whatever "latest" another build tagged.
if [ -r "${SPACED_BUILD:-build}/images.env" ]; then
	. "${SPACED_BUILD:-build}/images.env"
	SPACED_EXTRA_CONF="gatekeeper image $GATEKEEPER_IMAGE"
fi
. "$(dirname "$0")/../contract/lib.sh"

R=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
IMG=spaced-space:latest
HL="--label spaced.flood=$R"
N=100000
cleanup_flood() {
	docker rm -f "flood-up-$R" >/dev/null 2>&1
	docker network rm "flood-doc-$R" >/dev/null 2>&1
}

id=$(sc create -n flood) || id=
check "create ($id)" test -n "$id"

# An upstream on a documentation network (not a refused range), named
# up.flood.example by Docker's resolver; the gatekeeper joins it.
UPSRV='
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("content-length", "3")
        self.end_headers()
        self.wfile.write(b"up\n")
    def log_message(self, *a):
        pass
print("up", flush=True)
ThreadingHTTPServer(("0.0.0.0", 443), H).serve_forever()
'
docnet=
for sub in 198.51.100 203.0.113; do
	if docker network create $HL --subnet "$sub.0/24" --gateway "$sub.1" \
	    "flood-doc-$R" >/dev/null 2>"$T/net.err"; then
		docnet=$sub; break
	fi
done
check "a documentation network of ours ($docnet.0/24)" test -n "$docnet"
docker run -d $HL --name "flood-up-$R" --network "flood-doc-$R" \
    --ip "$docnet.20" --network-alias up.flood.example \
    --entrypoint python3 "$IMG" -c "$UPSRV" >/dev/null 2>"$T/up.err"
wait_for 10 sh -c "docker logs flood-up-$R 2>&1 | grep -q '^up'"
docker network connect "flood-doc-$R" "spaced-space-$id-gatekeeper" \
    2>>"$T/up.err"
sc network "$id" allowlist up.flood.example >/dev/null

# Ten allowed.
ok10=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	b=$(sc exec "$id" -- curl -s --max-time 60 -x http://127.0.0.1:3128 \
	    -p "http://up.flood.example:443/m$i" 2>/dev/null)
	[ "$b" = up ] && ok10=$((ok10 + 1))
done
check "ten CONNECTs to the upstream carry bytes ($ok10)" test "$ok10" = 10

# The flood: N CONNECTs, 32 at a time, each to a long name of its own.
FLOOD='
const net = require("net");
const N = +process.argv[1], L = "a".repeat(60);
let next = 0, done = 0;
const seen = {};
function one() {
	if (next >= N) return;
	const i = next++;
	let buf = "", fin = false;
	const s = net.connect(3128, "127.0.0.1", () => s.write(
	    "CONNECT f" + i + "." + L + "." + L + "." + L + ".example:443 " +
	    "HTTP/1.1\r\nHost: x\r\n\r\n"));
	const end = () => {
		if (fin) return;
		fin = true;
		const st = buf.startsWith("HTTP/") ? buf.split(" ")[1] : "closed";
		seen[st] = (seen[st] || 0) + 1;
		s.destroy();
		if (++done === N) console.log(JSON.stringify(seen));
		else one();
	};
	s.on("data", (d) => { buf += d; if (buf.includes("\r\n\r\n")) end(); });
	s.on("close", end);
	s.on("error", () => {});
}
for (let k = 0; k < 32; k++) one();
'
t0=$(date +%s)
sc exec "$id" -T 900 -- node -e "$FLOOD" "$N" >"$T/flood.out" 2>&1
t1=$(date +%s)
echo "# flood: $(cat "$T/flood.out") in $((t1 - t0)) s"
check "the flood ran: $N CONNECTs, none let through" \
    jq -e --argjson n "$N" '(to_entries | map(.value) | add) == $n and
    (has("200") | not)' "$T/flood.out"

# What the gatekeeper wrote, as its rotated container log keeps it:
# read again until its fold window (1 s) has written the last repeats'
# count (the 60 s guard against a hang).
gk_denied() {
	docker logs "spaced-space-$id-gatekeeper" 2>/dev/null | grep '^{' >"$T/gk.log"
	jq -s '[.[] | select(.decision | startswith("deny:")) |
	    select(.host != "up.flood.example") | .count // 1] | add' "$T/gk.log"
}
gk_counted() { [ "$(gk_denied)" -ge "$N" ] 2>/dev/null; }
wait_for 60 gk_counted
check "the gatekeeper's log keeps the ten allowed records" \
    test "$(grep '"decision":"allow"' "$T/gk.log" | grep -c up.flood.example)" = 10
glog=$(jq -s '[.[] | select(.decision | startswith("deny:")) |
    select(.host != "up.flood.example") | .count // 1] | add' "$T/gk.log")
check "  and counts every refusal ($glog of $N, in $(wc -l <"$T/gk.log") lines)" \
    test "${glog:-0}" -ge "$N"
t0=$(date +%s)
sc -j journal "$id" >"$T/j.json" 2>"$T/j.err"
echo "# journal: $(($(date +%s) - t0)) s, $(wc -c <"$T/j.json") bytes; $(head -c 300 "$T/j.err")"
jq -e '.records' "$T/j.json" >/dev/null 2>&1 || { echo "# answer:"; head -c 600 "$T/j.json" | sed 's/^/# /'; tail -c 600 "$T/j.json" | sed 's/^/# /'; }
check "all ten allowed records are in the store" \
    jq -e '[.records[] | select(.host == "up.flood.example" and
    .decision == "allow")] | length == 10' "$T/j.json"
refused=$(jq '[.records[] | select(.decision | startswith("deny:")) |
    select(.host != "up.flood.example") | .count] | add' "$T/j.json")
lines=$(jq '[.records[] | select(.decision | startswith("deny:"))] |
    length' "$T/j.json")
echo "# $refused refusals in $lines records; $(jq -c '[.records[] |
    .decision] | group_by(.) | map({(.[0]): length}) | add' "$T/j.json")"
check "every refusal is counted ($refused of $N, in $lines records)" \
    test "$refused" -ge "$N"
check "  repeats folded: fewer records than refusals" test "$lines" -lt "$N"
check "  no gap: nothing was lost between the gatekeeper and the store" \
    jq -e '[.records[] | select(.decision == "journal:gap")] | length == 0' \
    "$T/j.json"
sc journal "$id" --verify >"$T/v.out" 2>&1
check "journal --verify: the chain holds ($(cat "$T/v.out"))" \
    grep -q '^the chain holds' "$T/v.out"
full=$(api GET "/containers/spaced-space-$id-gatekeeper/json" | jq -r .Id)
root=$(docker info -f '{{.DockerRootDir}}')
nf=$(ls "$root/containers/$full/local-logs" 2>/dev/null | wc -l)
check "the gatekeeper's log rotates over at most 5 files ($nf)" \
    test "$nf" -ge 1 -a "$nf" -le 6

# The control: the gatekeeper's ten allowed lines, then a line a refusal
# as today's gatekeeper wrote them, into today's log settings.
docker logs "spaced-space-$id-gatekeeper" 2>/dev/null |
    grep '"decision":"allow"' | grep up.flood.example >"$T/allow.lines"
CTL='
import sys
sys.stdout.write(open("/dev/stdin").read())
L = "a" * 60
for i in range(int(sys.argv[1])):
    print("{\"at\":\"2026-12-06T04:00:00.000Z\",\"listener\":\"corridor\","
        "\"host\":\"f%d.%s.%s.%s.example\",\"port\":443,"
        "\"decision\":\"deny:not-on-allowlist\"}" % (i, L, L, L))
'
docker run -i $HL --name "flood-ctl-$R" --log-driver local \
    --log-opt max-size=10m --log-opt max-file=1 --log-opt compress=false \
    --entrypoint python3 "$IMG" -c "$CTL" "$N" <"$T/allow.lines" >/dev/null
kept=$(docker logs "flood-ctl-$R" 2>/dev/null | grep -c up.flood.example)
all=$(docker logs "flood-ctl-$R" 2>/dev/null | wc -l)
docker rm -f "flood-ctl-$R" >/dev/null 2>&1
check "control: today's settings keep $kept of the $(wc -l <"$T/allow.lines") allowed lines ($all lines left)" \
    test "$kept" = 0 -a "$(wc -l <"$T/allow.lines")" = 10

docker network disconnect -f "flood-doc-$R" "spaced-space-$id-gatekeeper" \
    >/dev/null 2>&1
cleanup_flood
sc -j remove "$id" >/dev/null
finish
