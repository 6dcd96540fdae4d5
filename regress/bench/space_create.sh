#!/bin/sh
# Create of a verified running space with its gatekeeper, then stop,
# start and remove, through spacectl and spaced against the real engine,
# in one run against the baseline the issue names: a shell script that
# performs the spec's docker CLI sequence (two networks, two volumes, the
# setup one-shot, gatekeeper create/connect/start and its health, space
# create/start, token exec, the inspects in between) on the same engine
# and images.  Medians over N rounds and the ratios.  Never asserts a
# time.  usage: space_create.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-5}
bench=space_create
# Names and labels of this run only (lib/bench.sh): another run of this
# bench on the same engine must not meet or sweep them.
. "$(dirname "$0")/../lib/bench.sh"
# The images of this build by their tags, for spaced and the CLI alike.
GK_IMAGE=$GATEKEEPER_IMAGE
bench_spaced
trap 'stop_spaced; cli_sweep; rm -rf "$T" "$tree"' EXIT

# The gatekeeper's health, polled as the spec's place did; bounded, so a
# gatekeeper that exited fails the bench instead of hanging it.
gk_health() {
	wait_for 30 docker exec "$1" /usr/libexec/spaced/spaced-gatekeeper \
	    -C GET /health >/dev/null 2>&1 ||
	    { echo "space_create: $1: no health in 30 s" >&2; docker logs "$1" >&2; exit 1; }
}

# A spacectl create.  A failed create fails the bench: it is never
# retried and dropped from the timing.
api_create() {
	ctl create >"$T/id" 2>"$T/create.err" ||
	    { echo "space_create: spacectl create failed:" >&2; cat "$T/create.err" >&2; exit 1; }
	id=$(cat "$T/id")
}

# The spec's sequence, one docker CLI call a step, as its Node place ran it.
cli_create() {
	p=bench-$run-$1
	docker network create --internal --label spaced.bench=$run "$p-inner" >/dev/null
	docker network create --label spaced.bench=$run "$p-outer" >/dev/null
	docker volume create --label spaced.bench=$run "$p-work" >/dev/null
	docker volume create --label spaced.bench=$run "$p-home" >/dev/null
	docker run --rm --network none --cap-drop ALL --cap-add CHOWN \
	    --memory 128m --user 0 --label spaced.bench=$run \
	    --mount type=volume,src="$p-work",dst=/w \
	    --mount type=volume,src="$p-home",dst=/h \
	    --entrypoint /bin/chown "$SPACE_IMAGE" 10000:10000 /w /h
	# shellcheck disable=SC2086
	docker create --name "$p-gk" $HARD --user 10100:10100 \
	    --memory 256m --memory-swap 256m \
	    --tmpfs /tmp:rw,noexec,nosuid,size=16m --network "$p-inner" \
	    --network-alias gatekeeper \
	    --entrypoint /usr/libexec/spaced/spaced-gatekeeper "$GK_IMAGE" \
	    -u /tmp 127.0.0.1 3128 8080 9099 >/dev/null
	docker network connect "$p-outer" "$p-gk"
	docker inspect "$p-gk" >/dev/null
	docker start "$p-gk" >/dev/null
	gk_health "$p-gk"
	# shellcheck disable=SC2086
	docker create --name "$p-space" $HARD --user 10000:10000 \
	    --memory 4g --memory-swap 4g \
	    --tmpfs /tmp:rw,exec,nosuid,size=256m --network "$p-inner" \
	    --mount type=volume,src="$p-work",dst=/spaces/w \
	    --mount type=volume,src="$p-home",dst=/home/space \
	    "$SPACE_IMAGE" /bin/sleep infinity >/dev/null
	docker inspect "$p-space" >/dev/null
	docker start "$p-space" >/dev/null
	echo token | docker exec -i "$p-space" sh -c 'cat > /tmp/token'
	docker inspect "$p-space" "$p-gk" >/dev/null
}
cli_stop() { docker stop -t 5 "bench-$run-$1-space" >/dev/null; docker stop -t 5 "bench-$run-$1-gk" >/dev/null; }
cli_start() {
	docker start "bench-$run-$1-gk" >/dev/null
	gk_health "bench-$run-$1-gk"
	docker start "bench-$run-$1-space" >/dev/null
}
cli_remove() {
	docker rm -f "bench-$run-$1-space" "bench-$run-$1-gk" >/dev/null
	docker volume rm "bench-$run-$1-work" "bench-$run-$1-home" >/dev/null
	docker network rm "bench-$run-$1-inner" "bench-$run-$1-outer" >/dev/null
}

# The same sequence spoken raw to the Engine API (engine_seq.c: a
# connection a call, no process start a step), the honest floor: the
# CLI's process starts are not the engine's work.  Its bodies are what
# the CLI's flags above send.
raw_script() {
	p=bench-$run-raw$1
	L="\"Labels\":{\"spaced.bench\":\"$run\"}"
	H="\"Init\":true,\"ReadonlyRootfs\":true,\"SecurityOpt\":[\"no-new-privileges\"],\"CapDrop\":[\"ALL\"],\"PidsLimit\":512,\"ShmSize\":67108864,\"IpcMode\":\"private\",\"CgroupnsMode\":\"private\",\"LogConfig\":{\"Type\":\"local\",\"Config\":{\"max-size\":\"10m\",\"max-file\":\"1\",\"compress\":\"false\"}}"
	V=/v1.41
	cat <<EOS
CALL POST $V/networks/create 201 {"Name":"$p-inner","Internal":true,$L}
CALL POST $V/networks/create 201 {"Name":"$p-outer",$L}
CALL POST $V/volumes/create 201 {"Name":"$p-work",$L}
CALL POST $V/volumes/create 201 {"Name":"$p-home",$L}
CALL POST $V/containers/create?name=$p-setup 201 {"Image":"$SPACE_IMAGE","User":"0","Entrypoint":["/bin/chown"],"Cmd":["10000:10000","/w","/h"],$L,"HostConfig":{"NetworkMode":"none","CapDrop":["ALL"],"CapAdd":["CHOWN"],"Memory":134217728,"Mounts":[{"Type":"volume","Source":"$p-work","Target":"/w"},{"Type":"volume","Source":"$p-home","Target":"/h"}]}}
CALL POST $V/containers/$p-setup/start 204
CALL POST $V/containers/$p-setup/wait 200
CALL DELETE $V/containers/$p-setup 204
CALL POST $V/containers/create?name=$p-gk 201 {"Image":"$GK_IMAGE","User":"10100:10100","Entrypoint":["/usr/libexec/spaced/spaced-gatekeeper"],"Cmd":["-u","/tmp","127.0.0.1","3128","8080","9099"],$L,"HostConfig":{$H,"Memory":268435456,"MemorySwap":268435456,"Tmpfs":{"/tmp":"rw,noexec,nosuid,size=16m"},"NetworkMode":"$p-inner"},"NetworkingConfig":{"EndpointsConfig":{"$p-inner":{"Aliases":["gatekeeper"]}}}}
CALL POST $V/networks/$p-outer/connect 200 {"Container":"$p-gk"}
CALL GET $V/containers/$p-gk/json 200
CALL POST $V/containers/$p-gk/start 204
HEALTH $p-gk ["/usr/libexec/spaced/spaced-gatekeeper","-C","GET","/health"]
CALL POST $V/containers/create?name=$p-space 201 {"Image":"$SPACE_IMAGE","User":"10000:10000","Cmd":["/bin/sleep","infinity"],$L,"HostConfig":{$H,"Memory":4294967296,"MemorySwap":4294967296,"Tmpfs":{"/tmp":"rw,exec,nosuid,size=256m"},"NetworkMode":"$p-inner","Mounts":[{"Type":"volume","Source":"$p-work","Target":"/spaces/w"},{"Type":"volume","Source":"$p-home","Target":"/home/space"}]}}
CALL GET $V/containers/$p-space/json 200
CALL POST $V/containers/$p-space/start 204
EXEC $p-space token ["sh","-c","cat > /tmp/token"]
CALL GET $V/containers/$p-space/json 200
CALL GET $V/containers/$p-gk/json 200
MARK create
CALL POST $V/containers/$p-space/stop?t=5 204
CALL POST $V/containers/$p-gk/stop?t=5 204
MARK stop
CALL POST $V/containers/$p-gk/start 204
HEALTH $p-gk ["/usr/libexec/spaced/spaced-gatekeeper","-C","GET","/health"]
CALL POST $V/containers/$p-space/start 204
MARK start
CALL DELETE $V/containers/$p-space?force=1 204
CALL DELETE $V/containers/$p-gk?force=1 204
CALL DELETE $V/volumes/$p-work 204
CALL DELETE $V/volumes/$p-home 204
CALL DELETE $V/networks/$p-inner 204
CALL DELETE $V/networks/$p-outer 204
MARK remove
EOS
}
# raw_round TAG: the sequence once; its four marks on one line.  A
# failed step fails the bench.
raw_round() {
	raw_script "$1" | "$b/regress/bench/engine_seq" \
	    "${DOCKER_SOCK:-/var/run/docker.sock}" >"$T/raw.round" ||
	    { echo "space_create: the raw sequence failed" >&2; exit 1; }
	awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }' \
	    "$T/raw.round"
}
mkdir -p "$b/regress/bench"
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE $(pkg-config --cflags libbsd-overlay) \
    -o "$b/regress/bench/engine_seq" regress/bench/engine_seq.c regress/bench/engine_client.c \
    $(pkg-config --libs libbsd-overlay)

# One warm-up each: the runtime volume is filled once, images are cached.
api_create; ctl remove "$id" >/dev/null
cli_create w && cli_remove w
raw_round w >/dev/null

i=0
while [ $i -lt "$n" ]; do
	t0=$(now); cli_create "$i"; t1=$(now); cli_stop "$i"; t2=$(now)
	cli_start "$i"; t3=$(now); cli_remove "$i"; t4=$(now)
	echo "$(ms "$t0" "$t1") $(ms "$t1" "$t2") $(ms "$t2" "$t3") $(ms "$t3" "$t4")" >>"$T/cli"
	t0=$(now); api_create
	t1=$(now); ctl stop "$id"; t2=$(now)
	ctl start "$id" >/dev/null; t3=$(now); ctl remove "$id" >/dev/null; t4=$(now)
	echo "$(ms "$t0" "$t1") $(ms "$t1" "$t2") $(ms "$t2" "$t3") $(ms "$t3" "$t4")" >>"$T/api"
	raw_round "$i" >>"$T/raw"
	i=$((i + 1))
done

col=1
for op in create stop start remove; do
	c=$(cut -d' ' -f$col "$T/cli" | median)
	a=$(cut -d' ' -f$col "$T/api" | median)
	r=$(cut -d' ' -f$col "$T/raw" | median)
	awk -v op="$op" -v c="$c" -v a="$a" -v r="$r" 'BEGIN { printf "%-7s spacectl %5d ms   docker CLI sequence %5d ms (%.1fx)   raw Engine API sequence %5d ms (%.2fx)\n", op, a, c, (a > 0 ? c / a : 0), r, (a > 0 ? r / a : 0) }'
	col=$((col + 1))
done
