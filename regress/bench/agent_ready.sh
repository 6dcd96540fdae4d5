#!/bin/sh
# Create to ready and start to ready of a space with the default agent
# (OpenCode's server from a filled tools volume), through spacectl, in
# one run against the baseline the issue names: the docker CLI sequence
# of space_create.sh with the same tools mount and command, the token
# written over docker exec stdin, plus the same readiness wait (docker
# exec of curl every 0.5 s until the health answer is ready), and the
# same sequence with spaced's own, tighter readiness cadence.  The
# spec's own figures (2.9 s and 2.5 s) are printed beside.  Then the
# idle memory of a space with its server (the engine's stats).  Medians
# over N rounds; never asserts a time.  Also the agent's own start to
# healthy in a bare container, the floor of both columns, and what each
# adds beyond it.
# usage: agent_ready.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-3}
bench=agent_ready
. "$(dirname "$0")/../lib/bench.sh"
bench_spaced agent
trap 'stop_spaced; cli_sweep; bench_tools_sweep; rm -rf "$T" "$tree"' EXIT

TOOLS=$(ctl -j tools fill | jq -r .volume) || { echo "agent_ready: tools fill failed" >&2; exit 1; }
cli_create() { cli_agent_create "$1"; }
cli_start() {
	docker start "bench-$run-$1-gk" >/dev/null
	docker start "bench-$run-$1-space" >/dev/null
	cli_ready "bench-$run-$1-space" "$tok"
}
cli_stop() { docker stop -t 5 "bench-$run-$1-space" "bench-$run-$1-gk" >/dev/null; }

# The same sequence and the spec's wait spoken raw to the Engine API
# (engine_seq.c: a connection a call, no process start a step): the
# honest floor of the CLI columns.  Bodies are what the CLI's flags send.
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -D_GNU_SOURCE $(pkg-config --cflags libbsd-overlay) \
    -o "$T/engine_seq" regress/bench/engine_seq.c regress/bench/engine_client.c \
    $(pkg-config --libs libbsd-overlay)
raw_script() {
	p=bench-$run-raw$1
	L="\"Labels\":{\"spaced.bench\":\"$run\"}"
	H="\"Init\":true,\"ReadonlyRootfs\":true,\"SecurityOpt\":[\"no-new-privileges\"],\"CapDrop\":[\"ALL\"],\"PidsLimit\":512,\"ShmSize\":67108864,\"IpcMode\":\"private\",\"CgroupnsMode\":\"private\",\"LogConfig\":{\"Type\":\"local\",\"Config\":{\"max-size\":\"10m\",\"max-file\":\"1\",\"compress\":\"false\"}}"
	C=$(jq -cn --arg c "$CMD" '["-c", $c]')
	V=/v1.41
	tok=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
	printf 'url = "http://127.0.0.1:27600/global/health"\nuser = "opencode:%s"\nmax-time = 3\nsilent\nfail\n' "$tok" >"$T/curl.cfg"
	R="READY $p-space @$T/curl.cfg [\"/usr/bin/curl\",\"--disable\",\"--config\",\"-\"]"
	cat <<EOS
CALL POST $V/networks/create 201 {"Name":"$p-inner","Internal":true,$L}
CALL POST $V/networks/create 201 {"Name":"$p-outer",$L}
CALL POST $V/volumes/create 201 {"Name":"$p-work",$L}
CALL POST $V/volumes/create 201 {"Name":"$p-home",$L}
CALL POST $V/containers/create?name=$p-setup 201 {"Image":"$SPACE_IMAGE","User":"0","Entrypoint":["/bin/chown"],"Cmd":["10000:10000","/w","/h"],$L,"HostConfig":{"NetworkMode":"none","CapDrop":["ALL"],"CapAdd":["CHOWN"],"Memory":134217728,"Mounts":[{"Type":"volume","Source":"$p-work","Target":"/w"},{"Type":"volume","Source":"$p-home","Target":"/h"}]}}
CALL POST $V/containers/$p-setup/start 204
CALL POST $V/containers/$p-setup/wait 200
CALL DELETE $V/containers/$p-setup 204
CALL POST $V/containers/create?name=$p-gk 201 {"Image":"$GATEKEEPER_IMAGE","User":"10100:10100","Entrypoint":["/usr/libexec/spaced/spaced-gatekeeper"],"Cmd":["-u","/tmp","127.0.0.1","3128","8080","9099"],$L,"HostConfig":{$H,"Memory":268435456,"MemorySwap":268435456,"Tmpfs":{"/tmp":"rw,noexec,nosuid,size=16m"},"NetworkMode":"$p-inner"},"NetworkingConfig":{"EndpointsConfig":{"$p-inner":{"Aliases":["gatekeeper"]}}}}
CALL POST $V/networks/$p-outer/connect 200 {"Container":"$p-gk"}
CALL POST $V/containers/$p-gk/start 204
CALL POST $V/containers/create?name=$p-space 201 {"Image":"$SPACE_IMAGE","User":"10000:10000","Env":["HOME=/home/space","PATH=/usr/local/bin:/usr/bin:/bin:/opt/spaced-tools/fill/node_modules/.bin","OPENCODE_DISABLE_MODELS_FETCH=1","OPENCODE_DISABLE_AUTOUPDATE=1"],"Entrypoint":["/bin/sh"],"Cmd":$C,$L,"HostConfig":{$H,"Memory":4294967296,"MemorySwap":4294967296,"Tmpfs":{"/tmp":"rw,exec,nosuid,size=256m"},"NetworkMode":"$p-inner","Mounts":[{"Type":"volume","Source":"$p-work","Target":"/spaces/w"},{"Type":"volume","Source":"$p-home","Target":"/home/space"},{"Type":"volume","Source":"$TOOLS","Target":"/opt/spaced-tools","ReadOnly":true}]}}
CALL POST $V/containers/$p-space/start 204
EXEC $p-space $tok ["sh","-c","umask 077; mkdir -p ~/.spaced-space && cat > ~/.spaced-space/token.new && mv ~/.spaced-space/token.new ~/.spaced-space/token"]
$R
MARK create
CALL POST $V/containers/$p-space/stop?t=5 204
CALL POST $V/containers/$p-gk/stop?t=5 204
MARK stop
CALL POST $V/containers/$p-gk/start 204
CALL POST $V/containers/$p-space/start 204
$R
MARK start
EOS
}
# raw_round TAG: create and start to ready, as the CLI's line has them.
raw_round() {
	raw_script "$1" | "$T/engine_seq" "${DOCKER_SOCK:-/var/run/docker.sock}" \
	    >"$T/raw.round" ||
	    { echo "agent_ready: the raw sequence failed" >&2; exit 1; }
	awk '$1 == "create" { c = $2 } $1 == "start" { s = $2 }
	    END { print c, s }' "$T/raw.round"
}

read -r l0 _ </proc/loadavg
# Warm-up: the runtime and tools volumes are there, images cached.
id=$(ctl create) && ctl remove "$id" >/dev/null
i=0
while [ $i -lt "$n" ]; do
	for WAIT in spec spaced; do
		t0=$(now); cli_create "$i"; t1=$(now); cli_stop "$i"; t2=$(now)
		cli_start "$i"; t3=$(now); cli_sweep
		echo "$(ms "$t0" "$t1") $(ms "$t2" "$t3")" >>"$T/cli-$WAIT"
	done
	raw_round "$i" >>"$T/raw"
	cli_sweep
	t0=$(now); id=$(ctl create); t1=$(now); ctl stop "$id"; t2=$(now)
	ctl start "$id" >/dev/null; t3=$(now)
	echo "$(ms "$t0" "$t1") $(ms "$t2" "$t3")" >>"$T/api"
	[ $i -eq $((n - 1)) ] || ctl remove "$id" >/dev/null
	i=$((i + 1))
done
echo "# rounds, create and start to ready in ms: CLI with the spec's wait $(tr '\n' ',' <"$T/cli-spec") with spaced's $(tr '\n' ',' <"$T/cli-spaced") spacectl $(tr '\n' ',' <"$T/api")"
col=1
for op in "create to ready" "start to ready"; do
	c=$(cut -d' ' -f$col "$T/cli-spec" | median)
	d=$(cut -d' ' -f$col "$T/cli-spaced" | median)
	a=$(cut -d' ' -f$col "$T/api" | median)
	r=$(cut -d' ' -f$col "$T/raw" | median)
	spec=2900; [ $col -eq 2 ] && spec=2500
	awk -v op="$op" -v c="$c" -v d="$d" -v a="$a" -v s="$spec" 'BEGIN { printf "%-16s spacectl %5d ms   docker CLI sequence + the spec'"'"'s readiness wait %5d ms: %.2fx (goal 0.5x)   + spaced'"'"'s wait %5d ms: %.2fx   spec %d ms\n", op, a, c, (c > 0 ? a / c : 0), d, (d > 0 ? a / d : 0), s }'
	awk -v op="$op" -v r="$r" -v a="$a" 'BEGIN { printf "%-16s   the same sequence and the spec'"'"'s wait spoken raw to the Engine API %5d ms: %.2fx\n", op, r, (r > 0 ? a / r : 0) }'
	col=$((col + 1))
done
# The floor both columns stand on: the agent's own start to its first
# healthy answer, in one container of the same image and tools (no
# network, read-only root, a fresh home on tmpfs each round), asked
# every 20 ms from inside with no exec in between.  What each column
# adds beyond it is the place's part (and the readiness wait's).
cat >"$T/floor.sh" <<'FLOOR'
now() { date +%s%N; }
i=0
while [ $i -lt "$1" ]; do
	rm -rf /home/space/.[a-z]* /tmp/* 2>/dev/null
	t0=$(now)
	opencode serve --hostname 127.0.0.1 --port 27600 >/dev/null 2>&1 &
	# A bare connect until it listens (no process for the agent's 2
	# cores to share), then the request: the floor must not be raised
	# by its own polling, which would flatter the ratios below.
	while ! (exec 3<>/dev/tcp/127.0.0.1/27600) 2>/dev/null; do
		sleep 0.02
	done
	while ! curl -s -m 0.2 -u opencode:x http://127.0.0.1:27600/global/health |
	    grep -q '"healthy":true'; do sleep 0.02; done
	echo $((($(now) - t0) / 1000000))
	kill $! && wait $! 2>/dev/null
	i=$((i + 1))
done
FLOOR
docker run --rm --network none --read-only --user 10000:10000 \
    --tmpfs /tmp:exec --tmpfs /home/space:uid=10000 -e HOME=/home/space \
    -e PATH=/usr/local/bin:/usr/bin:/bin:/opt/spaced-tools/fill/node_modules/.bin \
    -e OPENCODE_DISABLE_MODELS_FETCH=1 -e OPENCODE_DISABLE_AUTOUPDATE=1 \
    -e OPENCODE_SERVER_PASSWORD=x --label spaced.bench=$run \
    --mount type=volume,src="$TOOLS",dst=/opt/spaced-tools,readonly \
    --mount type=bind,src="$T/floor.sh",dst=/floor.sh,readonly \
    --entrypoint /bin/bash "$SPACE_IMAGE" /floor.sh "$n" >"$T/floor"
f=$(median <"$T/floor")
echo "# agent's own start to healthy, ms: $(tr '\n' ',' <"$T/floor")"
col=1
for op in "create to ready" "start to ready"; do
	c=$(cut -d' ' -f$col "$T/cli-spaced" | median)
	a=$(cut -d' ' -f$col "$T/api" | median)
	awk -v op="$op" -v c="$c" -v a="$a" -v f="$f" 'BEGIN { printf "%-16s beyond the agent'"'"'s own %d ms: spacectl %5d ms   CLI sequence + spaced'"'"'s wait %5d ms   %.2fx\n", op, f, a - f, c - f, (c > f ? (a - f) / (c - f) : 0) }'
	col=$((col + 1))
done
# Idle memory: the space with its server once it has settled (two
# samples in a row, each the engine's own second-long one, within
# 1 MiB), not after a fixed pause; an engine error fails the bench.
mem() {
	curl -sf --unix-socket "${DOCKER_SOCK:-/var/run/docker.sock}" \
	    "http://docker/v1.41/containers/spaced-space-$id-$1/stats?stream=false" |
	    jq -e '.memory_stats.usage - (.memory_stats.stats.total_inactive_file // .memory_stats.stats.inactive_file // 0)'
}
for r in space gatekeeper; do
	m=$(mem $r) || { echo "agent_ready: no stats of the $r" >&2; exit 1; }
	k=0
	while [ $k -lt 30 ]; do
		m2=$(mem $r) || { echo "agent_ready: no stats of the $r" >&2; exit 1; }
		d=$((m2 - m)); [ $d -lt 0 ] && d=$((-d))
		m=$m2
		[ $d -lt 1048576 ] && break
		k=$((k + 1))
	done
	[ $k -lt 30 ] || echo "# the $r's memory did not settle in 30 samples"
	echo "idle memory of the $r container: $((m / 1048576)) MiB"
done
ctl remove "$id" >/dev/null
# A loaded machine moves every figure above: say so beside them.
read -r l1 _ </proc/loadavg
echo "# load $l0 at the start, $l1 at the end, on $(nproc) cores"
awk -v a="$l0" -v b="$l1" -v n="$(nproc)" 'BEGIN { if (a > n || b > n)
    print "# the machine was loaded (load above its cores): these figures are not usable as measures" }'
