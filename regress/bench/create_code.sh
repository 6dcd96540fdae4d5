#!/bin/sh
# create --code of this repository until attach could start (issue 23):
# spacectl create --code against the same steps by hand with the docker
# CLI, in one run, rounds alternating: agent_ready.sh's CLI sequence
# (networks, volumes, the setup one-shot, gatekeeper, the space with
# OpenCode's server from the same tools volume, the token over docker
# exec stdin, spaced's readiness cadence), and the code by hand beside
# the server's start as spaced brings it (a git bundle of HEAD over
# docker exec stdin, cloned inside; spaced's snapshot also carries the
# uncommitted work); done when both are.  Medians over N rounds; never
# asserts a time.  usage: create_code.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-3}
run=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
cd "$(dirname "$0")/../.."
top=$(pwd)
. regress/integration/lib.sh
. "$b/images.env"
T=$(mktemp -d)
build=$b
make_tree
ca=
[ -f /etc/ssl/certs/ca-certificates.crt ] &&
    ca='tools ca bundle "/etc/ssl/certs/ca-certificates.crt"'
INSTALL=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
SPACED_AGENT_CONF=""
SPACED_EXTRA_CONF="install id $INSTALL
space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\"
$ca"
start_spaced "$T/sd" || { echo "create_code: spaced did not start" >&2; exit 1; }
cli_sweep() {
	docker ps -aq --filter label=spaced.bench=$run | xargs -r docker rm -f >/dev/null
	docker volume ls -q --filter label=spaced.bench=$run | xargs -r docker volume rm >/dev/null
	docker network ls -q --filter label=spaced.bench=$run | xargs -r docker network rm >/dev/null
}
ids=
trap 'for i in $ids; do ctl remove "$i" >/dev/null 2>&1; done; stop_spaced; cli_sweep
    for v in $(docker volume ls -q | grep "^spaced-tools-$INSTALL-"); do
    docker volume rm -f "$v" >/dev/null; done; rm -rf "$T" "$tree"' EXIT
now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

TOOLS=$(ctl -j tools fill | jq -r .volume) || { echo "create_code: tools fill failed" >&2; exit 1; }
PW=OPENCODE_SERVER_PASSWORD
TF=/home/space/.spaced-space/token
CMD="while [ ! -s $TF ]; do /bin/sleep 0.2; done; $PW=\"\$(/bin/cat $TF)\"; export $PW; exec opencode serve --hostname 127.0.0.1 --port 27600"
HARD="--init --read-only --security-opt no-new-privileges --cap-drop ALL
    --pids-limit 512 --shm-size 64m --ipc private --cgroupns private
    --log-driver local --log-opt max-size=10m --log-opt max-file=1
    --log-opt compress=false --label spaced.bench=$run"
cli_attempt() {	# container token limit-seconds
	printf 'url = "http://127.0.0.1:27600/global/health"\nuser = "opencode:%s"\nmax-time = %s\nsilent\n' "$2" "$3" |
	    docker exec -i "$1" /usr/bin/curl --disable --config - 2>/dev/null |
	    grep -q '"healthy":true'
}
# spaced's cadence: 0.5 s apart, a second more a timed-out attempt, to 3 s
cli_ready() {	# container token
	lim=500
	while :; do
		a0=$(now)
		cli_attempt "$1" "$2" "$((lim / 1000)).$(printf %03d $((lim % 1000)))" &&
		    return 0
		took=$(ms "$a0" "$(now)")
		[ "$took" -ge "$lim" ] && lim=$((lim + 1000 > 3000 ? 3000 : lim + 1000))
		[ "$took" -lt 500 ] && sleep "0.$(printf %03d $((500 - took)))"
	done
}
# The code by hand: HEAD as a bundle over docker exec stdin, cloned.
cli_code() {	# container
	git -C "$top" bundle create - HEAD 2>/dev/null | docker exec -i "$1" sh -c \
	    'cat >/tmp/code.bundle && git clone -q /tmp/code.bundle /spaces/w/spaced && rm /tmp/code.bundle'
}
cli_create_code() {
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
	cli_code "$p-space" & code=$!
	tok=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
	printf %s "$tok" | docker exec -i "$p-space" sh -c \
	    'umask 077; mkdir -p ~/.spaced-space && cat > ~/.spaced-space/token.new && mv ~/.spaced-space/token.new ~/.spaced-space/token'
	cli_ready "$p-space" "$tok"
	wait "$code"
}

# Warm-up: the runtime and tools volumes are there, images cached.
id=$(ctl create) && ctl remove "$id" >/dev/null
for i in $(seq "$n"); do
	t0=$(now); cli_create_code "$i"; t1=$(now); cli_sweep
	t2=$(now); id=$(ctl create -n bench-code --code "$top"); t3=$(now)
	ids=$id
	ctl exec "$id" -n -- test -d "/spaces/$id/$(basename "$top")/.git" ||
	    { echo "create_code: no code in the space" >&2; exit 1; }
	ctl remove "$id" >/dev/null; ids=
	echo "$(ms "$t2" "$t3") $(ms "$t0" "$t1")" >>"$T/rounds"
done
a=$(cut -d' ' -f1 "$T/rounds" | median); c=$(cut -d' ' -f2 "$T/rounds" | median)
echo "# rounds, ms (spacectl, by hand): $(tr '\n' ',' <"$T/rounds")"
echo "create --code of this repository until attach could start, median of $n, ms"
echo "  spacectl create --code                    $a"
echo "  docker CLI by hand (code beside the start) $c"
echo "  ratio $(echo "scale=2; $a / $c" | bc)"
