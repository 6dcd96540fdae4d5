# What the benches of a space against the docker CLI share
# (space_create.sh, agent_ready.sh, create_code.sh, attach.sh,
# exec_tty.sh, exec_tty_hops.sh): this
# build's images, a private tree, a spaced of its own install id, the
# CLI's hardening flags and the sweep of what its rounds made, and for
# the agent the server's command and spaced's readiness wait spoken
# through docker exec.  Sourced with $b the build and $bench the name.
run=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. regress/integration/lib.sh
[ -f "$b/images.env" ] || { echo "$bench: make images first" >&2; exit 1; }
. "$b/images.env"
T=$(mktemp -d)
build=$b
make_tree
INSTALL=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# bench_spaced [agent]: spaced on this build's images by their tags
# (":latest" moves when anyone rebuilds); with agent, the host's CA
# bundle for the tools fill and the built-in agent.
bench_spaced() {
	bs_ca=
	[ "${1:-}" = agent ] && [ -f /etc/ssl/certs/ca-certificates.crt ] &&
	    bs_ca='tools ca bundle "/etc/ssl/certs/ca-certificates.crt"'
	[ "${1:-}" = agent ] && SPACED_AGENT_CONF=""
	SPACED_EXTRA_CONF="install id $INSTALL
space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\"
$bs_ca"
	start_spaced "$T/sd" ||
	    { echo "$bench: spaced did not start" >&2; exit 1; }
}
# bench_space: bench_spaced and one space of it, $id, both gone at the
# end with the tree (exec_tty.sh, exec_tty_hops.sh).
bench_space() {
	bench_spaced
	id=
	trap '[ -n "$id" ] && ctl remove "$id" >/dev/null; stop_spaced; rm -rf "$T" "$tree"' EXIT
	id=$(ctl create)
}
# The tools volumes of this install (350 MB a fill), at the end.
bench_tools_sweep() {
	for v in $(docker volume ls -q | grep "^spaced-tools-$INSTALL-"); do
		docker volume rm -f "$v" >/dev/null
	done
}

HARD="--init --read-only --security-opt no-new-privileges --cap-drop ALL
    --pids-limit 512 --shm-size 64m --ipc private --cgroupns private
    --log-driver local --log-opt max-size=10m --log-opt max-file=1
    --log-opt compress=false --label spaced.bench=$run"

# What the CLI rounds of this run made, and only those.
cli_sweep() {
	docker ps -aq --filter label=spaced.bench=$run | xargs -r docker rm -f >/dev/null
	docker volume ls -q --filter label=spaced.bench=$run | xargs -r docker volume rm >/dev/null
	docker network ls -q --filter label=spaced.bench=$run | xargs -r docker network rm >/dev/null
}

# The agent's server as spaced starts it: once the token file is there.
PW=OPENCODE_SERVER_PASSWORD
TF=/home/space/.spaced-space/token
CMD="while [ ! -s $TF ]; do /bin/sleep 0.2; done; $PW=\"\$(/bin/cat $TF)\"; export $PW; exec opencode serve --hostname 127.0.0.1 --port 27600"

cli_attempt() {	# container token limit-seconds
	printf 'url = "http://127.0.0.1:27600/global/health"\nuser = "opencode:%s"\nmax-time = %s\nsilent\n' "$2" "$3" |
	    docker exec -i "$1" /usr/bin/curl --disable --config - 2>/dev/null |
	    grep -q '"healthy":true'
}
# The spec's wait (3 s an attempt, 0.5 s after each), or with WAIT=spaced
# spaced's own cadence (spaced(8): the first attempt 0.5 s, a second more
# after each that timed out, up to 3 s; 0.5 s apart start to start).  A
# server never ready fails the bench (120 attempts, a minute or more of
# them), never hangs it or drops the round.
cli_ready() {	# container token
	tries=0
	if [ "${WAIT:-spec}" = spec ]; then
		until cli_attempt "$1" "$2" 3; do
			tries=$((tries + 1))
			[ $tries -lt 120 ] || { echo "$bench: $1 never ready" >&2; exit 1; }
			sleep 0.5
		done
		return 0
	fi
	lim=500
	while :; do
		tries=$((tries + 1))
		[ $tries -le 120 ] || { echo "$bench: $1 never ready" >&2; exit 1; }
		a0=$(now)
		cli_attempt "$1" "$2" "$((lim / 1000)).$(printf %03d $((lim % 1000)))" &&
		    return 0
		took=$(ms "$a0" "$(now)")
		[ "$took" -ge "$lim" ] && lim=$((lim + 1000 > 3000 ? 3000 : lim + 1000))
		[ "$took" -lt 500 ] && sleep "0.$(printf %03d $((500 - took)))"
	done
}
# cli_agent_create ROUND [COMMAND]: the spec's CLI sequence with the
# agent's server from the tools volume $TOOLS, the token over docker exec
# stdin, then the readiness wait; COMMAND (given the space container)
# runs beside the server's start and is waited for too.
cli_agent_create() {
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
	    --entrypoint /usr/libexec/spaced/spaced-gatekeeper "$GATEKEEPER_IMAGE" \
	    -u /tmp 127.0.0.1 3128 8080 9099 >/dev/null
	docker network connect "$p-outer" "$p-gk"
	docker start "$p-gk" >/dev/null
	# shellcheck disable=SC2086
	docker create --name "$p-space" $HARD --user 10000:10000 \
	    --memory 4g --memory-swap 4g \
	    --tmpfs /tmp:rw,exec,nosuid,size=256m --network "$p-inner" \
	    -e HOME=/home/space -e PATH=/usr/local/bin:/usr/bin:/bin:/opt/spaced-tools/fill/node_modules/.bin \
	    -e OPENCODE_DISABLE_MODELS_FETCH=1 -e OPENCODE_DISABLE_AUTOUPDATE=1 \
	    --mount type=volume,src="$p-work",dst=/spaces/w \
	    --mount type=volume,src="$p-home",dst=/home/space \
	    --mount type=volume,src="$TOOLS",dst=/opt/spaced-tools,readonly \
	    --entrypoint /bin/sh "$SPACE_IMAGE" -c "$CMD" >/dev/null
	docker start "$p-space" >/dev/null
	beside=
	if [ -n "${2:-}" ]; then
		"$2" "$p-space" & beside=$!
	fi
	tok=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
	printf %s "$tok" | docker exec -i "$p-space" sh -c \
	    'umask 077; mkdir -p ~/.spaced-space && cat > ~/.spaced-space/token.new && mv ~/.spaced-space/token.new ~/.spaced-space/token'
	cli_ready "$p-space" "$tok"
	[ -z "$beside" ] || wait "$beside" ||
	    { echo "$bench: $2 failed" >&2; exit 1; }
}
