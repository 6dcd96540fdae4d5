#!/bin/sh
# The tools volume's ensure through spaced (spacectl tools fill), against
# the docker CLI doing the same calls in the same run: on a filled volume
# (inspect, sweep, the check one-shot: create, inspect, start, exec, rm)
# and a packed fill of a tiny package (the same plus volume create, the
# filler one-shot and the second check).  Printed, never asserted.
. "$(dirname "$0")/../integration/lib.sh"
n=${BENCH_N:-5}
sh "$top/tools/images.sh" ping >/dev/null 2>&1 || { echo "bench tools: no engine"; exit 0; }
make_tree
w=$tree/w; mkdir -p "$w/p/bin"
trap 'stop_spaced; docker volume ls -q --filter name=spaced-tools-$(cat $tree/s/state/install-id 2>/dev/null) | xargs -r docker volume rm -f >/dev/null; docker volume rm -f bench-tools-cli >/dev/null 2>&1; rm -rf "$tree"' EXIT
printf '{"name":"bench-agent","version":"1.0.0","bin":{"bench-agent":"bin/b"}}' >"$w/p/package.json"
printf '#!/bin/sh\necho 1.0.0\n' >"$w/p/bin/b"; chmod 755 "$w/p/bin/b"
(cd "$w" && npm pack ./p --pack-destination "$w" >/dev/null 2>&1)
# This build's gatekeeper (the filler's takes -a), when images.env says.
gk=$(sed -n 's/^GATEKEEPER_IMAGE=//p' "$build/images.env" 2>/dev/null)
SPACED_EXTRA_CONF="${gk:+gatekeeper image \"$gk\"}
agent b packed bench-agent 1.0.0 $w/bench-agent-1.0.0.tgz
agent b binary bench-agent --version
agent b serve bench-agent
agent b port 27602
agent b password env B_PASSWORD
agent b ready GET / 200 -
default agent b" start_spaced "$tree/s" || { echo "bench tools: spaced did not start"; exit 1; }
# A failed step fails the bench: it never stays in a median.
fail() { echo "bench tools: $* failed" >&2; exit 1; }
sd=$tree/s
V=$(ctl -j tools | jq -r .volume)
ms() { date +%s%N | cut -c1-13; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# The same two sequences spoken raw to the Engine API (engine_seq.c: a
# connection a call, no process start a step): the honest floor.
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE $(pkg-config --cflags libbsd-overlay) \
    -o "$tree/engine_seq" "$top/regress/bench/engine_seq.c" \
    "$top/regress/bench/engine_client.c" \
    $(pkg-config --libs libbsd-overlay) || fail "engine_seq build"
cp "$w/bench-agent-1.0.0.tgz" "$w/b.tgz"
R=bench-tools-raw-$$
H='"Init":true,"ReadonlyRootfs":true,"CapDrop":["ALL"],"SecurityOpt":["no-new-privileges"],"PidsLimit":512'
raw_script() {
	cat <<EOS
CALL POST /v1.41/volumes/create 201 {"Name":"$R"}
CALL POST /v1.41/containers/create?name=$R-fill 201 {"Image":"spaced-space:latest","User":"0:0","Env":["HOME=/tmp"],"Cmd":["/bin/sleep","infinity"],"HostConfig":{$H,"Memory":2147483648,"MemorySwap":2147483648,"Tmpfs":{"/tmp":"rw,exec,nosuid,size=1g"},"Mounts":[{"Type":"volume","Source":"$R","Target":"/opt/spaced-tools"}]}}
CALL POST /v1.41/containers/$R-fill/start 204
EXEC $R-fill @$w/b.tgz ["sh","-c","cat >/tmp/b.tgz"]
EXEC $R-fill - ["sh","-c","cd /opt/spaced-tools && echo '{\"dependencies\":{\"bench-agent\":\"file:/tmp/b.tgz\"}}' >package.json && npm install --ignore-scripts --no-audit --no-fund --cache /tmp/c >/dev/null 2>&1 && sync && printf k >.spaced-filled"]
CALL DELETE /v1.41/containers/$R-fill?force=1 204
MARK fill
CALL GET /v1.41/volumes/$R 200
CALL GET /v1.41/containers/json?all=1&filters=%7B%22label%22%3A%5B%22bench%3D1%22%5D%7D 200
CALL POST /v1.41/containers/create?name=$R-check 201 {"Image":"spaced-space:latest","User":"10000:10000","Cmd":["/bin/sleep","infinity"],"HostConfig":{$H,"Memory":134217728,"MemorySwap":134217728,"NetworkMode":"none","Mounts":[{"Type":"volume","Source":"$R","Target":"/opt/spaced-tools","ReadOnly":true}]}}
CALL GET /v1.41/containers/$R-check/json 200
CALL POST /v1.41/containers/$R-check/start 204
EXEC $R-check - ["/bin/sh","-c","[ -f \"\$1\" ] || exit 42; /bin/cat \"\$1\"","sh","/opt/spaced-tools/.spaced-filled"]
CALL DELETE /v1.41/containers/$R-check?force=1 204
MARK check
EOS
}
fills=; filled=; clif=; clic=; rawf=; rawc=
for i in $(seq "$n"); do
	docker volume rm -f "$V" >/dev/null 2>&1
	t0=$(ms); ctl tools fill >/dev/null || fail "spacectl tools fill"; t1=$(ms)
	ctl tools fill >/dev/null || fail "spacectl tools fill (filled)"; t2=$(ms)
	fills="$fills $((t1 - t0))"; filled="$filled $((t2 - t1))"
	# The CLI's sequence for a filled volume, on a volume of its own.
	docker volume rm -f bench-tools-cli >/dev/null 2>&1
	t3=$(ms)
	docker volume create bench-tools-cli >/dev/null || fail "docker volume create"
	c=$(docker create --init --read-only --cap-drop ALL --security-opt no-new-privileges \
	    --pids-limit 512 --memory 2g --memory-swap 2g --tmpfs /tmp:rw,exec,nosuid,size=1g \
	    --user 0:0 -e HOME=/tmp --mount type=volume,src=bench-tools-cli,dst=/opt/spaced-tools \
	    spaced-space:latest /bin/sleep infinity) || fail "docker create"
	docker start "$c" >/dev/null || fail "docker start"
	docker cp "$w/bench-agent-1.0.0.tgz" "$c:/tmp/b.tgz" 2>/dev/null ||
	    docker exec -i "$c" sh -c 'cat >/tmp/b.tgz' <"$w/bench-agent-1.0.0.tgz"
	docker exec "$c" sh -c 'cd /opt/spaced-tools && echo "{\"dependencies\":{\"bench-agent\":\"file:/tmp/b.tgz\"}}" >package.json && npm install --ignore-scripts --no-audit --no-fund --cache /tmp/c >/dev/null 2>&1 && sync && printf k >.spaced-filled' ||
	    fail "the CLI's npm install"
	docker rm -f "$c" >/dev/null
	t4=$(ms)
	docker volume inspect bench-tools-cli >/dev/null
	docker ps -aq --filter label=bench=1 >/dev/null
	c=$(docker create --init --read-only --cap-drop ALL --security-opt no-new-privileges \
	    --pids-limit 512 --memory 128m --memory-swap 128m --network none --user 10000:10000 \
	    --mount type=volume,src=bench-tools-cli,dst=/opt/spaced-tools,readonly \
	    spaced-space:latest /bin/sleep infinity) || fail "docker create (check)"
	docker inspect "$c" >/dev/null
	docker start "$c" >/dev/null || fail "docker start (check)"
	docker exec "$c" /bin/sh -c '[ -f "$1" ] || exit 42; /bin/cat "$1"' sh /opt/spaced-tools/.spaced-filled >/dev/null ||
	    fail "the CLI's marker check"
	docker rm -f "$c" >/dev/null
	t5=$(ms)
	clif="$clif $((t4 - t3))"; clic="$clic $((t5 - t4))"
	docker volume rm -f "$R" >/dev/null 2>&1
	raw_script | "$tree/engine_seq" "${DOCKER_SOCK:-/var/run/docker.sock}" \
	    >"$tree/raw.out" || fail "the raw sequence"
	rawf="$rawf $(awk '$1 == "fill" { print $2 }' "$tree/raw.out")"
	rawc="$rawc $(awk '$1 == "check" { print $2 }' "$tree/raw.out")"
done
docker volume rm -f "$R" >/dev/null 2>&1
mf=$(echo $fills | tr ' ' '\n' | median); me=$(echo $filled | tr ' ' '\n' | median)
cf=$(echo $clif | tr ' ' '\n' | median); cc=$(echo $clic | tr ' ' '\n' | median)
rf=$(echo $rawf | tr ' ' '\n' | median); rc=$(echo $rawc | tr ' ' '\n' | median)
echo "tools ensure, filled volume: spaced ${me} ms, docker CLI sequence ${cc} ms, raw Engine API ${rc} ms (median of $n): ratio $(echo "scale=2; $me / $cc" | bc) to the CLI, $(echo "scale=2; $me / $rc" | bc) to the raw API"
echo "tools packed fill:           spaced ${mf} ms, docker CLI sequence ${cf} ms, raw Engine API ${rf} ms (median of $n): ratio $(echo "scale=2; $mf / $cf" | bc) to the CLI, $(echo "scale=2; $mf / $rf" | bc) to the raw API"
echo "  (the CLI's fill writes its marker without the filler's framing and checks; spaced's fill includes the second check)"
