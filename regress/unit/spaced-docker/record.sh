#!/bin/sh
# Records the inspect JSON the harden tests read, from a real engine:
# builds the fixture's create bodies (regress/tools/harden_bodies.c),
# creates the volumes, the network and both containers from them (never
# started: a created container already has every field the checkers
# read), and saves each inspect and create answer into data/.  Then, one
# at a time, a space or gatekeeper body with one violation planted is
# created, inspected into data/<role>-v-<check>.json and removed.
# The image is a busybox-static rootfs put in by docker import: nothing
# is pulled.  Everything made here is removed at the end, on any exit.
# Usage: sh regress/unit/spaced-docker/record.sh   (root or the docker group;
# BUSYBOX=/path/to/static/busybox, else /bin/busybox or apt-get download)
set -eu
cd "$(dirname "$0")/../../.." || exit 1
SOCK=${DOCKER_SOCK:-/var/run/docker.sock}
API=http://localhost/v1.41
out=regress/unit/spaced-docker/data
tmp=$(mktemp -d)
IMAGE=spaced-harden-record:1
ID=a1b2c3d4e5f6
OWNER=00112233445566778899aabbccddeeff:1000
SPACE=spaced-space-$ID-space
GK=spaced-space-$ID-gatekeeper
NET=spaced-space-$ID-net
HOSTS=/tmp/spaced-harden-record.hosts	# fixture.h FX_HOSTS

api() {	# method path [body file]
	if [ $# -eq 3 ]; then
		curl -sS --unix-socket "$SOCK" -X "$1" \
		    -H 'Content-Type: application/json' \
		    --data-binary "@$3" "$API$2"
	else
		curl -sS --unix-socket "$SOCK" -X "$1" "$API$2"
	fi
}

cleanup() {
	set +e
	for c in $(docker ps -aq --filter "label=spaced.space.owner=$OWNER"); do
		docker rm -f "$c" >/dev/null
	done
	# the runtime volume is the installation's (fixture.h FX_RT_OWNER)
	for v in $(docker volume ls -q --filter "label=spaced.space.owner=$OWNER") \
	    $(docker volume ls -q --filter "label=spaced.runtime.key=fedcba9876543210"); do
		docker volume rm -f "$v" >/dev/null
	done
	for n in $(docker network ls -q --filter "label=spaced.space.owner=$OWNER"); do
		docker network rm "$n" >/dev/null
	done
	docker image rm -f "$IMAGE" >/dev/null 2>&1
	rm -rf "$tmp" "$HOSTS"
}
trap cleanup EXIT
cleanup; tmp=$(mktemp -d)

cc -std=gnu11 -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto -o "$tmp/bodies" \
    regress/tools/harden_bodies.c worker-docker/docker_harden.c \
    common/proto/labels.c common/proto/agent.c \
    $(pkg-config --cflags --libs libbsd-overlay jansson)

bb=${BUSYBOX:-/bin/busybox}
if [ ! -x "$bb" ]; then
	(cd "$tmp" && apt-get download busybox-static >/dev/null &&
	    dpkg-deb -x busybox-static_*.deb x)
	bb=$tmp/x/bin/busybox
fi
mkdir -p "$tmp/root/bin" "$tmp/root/run/spaced" "$tmp/root/home/space"
cp "$bb" "$tmp/root/bin/busybox"
ln -s busybox "$tmp/root/bin/sleep"
cp "$bb" "$tmp/root/spaced-gatekeeper"
tar -C "$tmp/root" --owner=1000 --group=1000 -cf "$tmp/root.tar" .
docker import "$tmp/root.tar" "$IMAGE" >/dev/null

cp gatekeeper/spaced-relay/space-hosts "$HOSTS"
mkdir -p "$out"
# pretty: one key a line, so a diff of a new recording reads well
# and a container's mounts by destination: the engine lists them in a
# map's order, which changes from one recording to the next
save() { jq 'if type == "object" and (.Mounts | type) == "array"
    then .Mounts |= sort_by(.Destination) else . end' >"$out/$1.json"; }

for b in sock work home runtime; do
	"$tmp/bodies" $b >"$tmp/$b.json"
	api POST /volumes/create "$tmp/$b.json" | save "create-volume-$b"
	api GET "/volumes/$(jq -r .Name "$tmp/$b.json")" | save "volume-$b"
done
"$tmp/bodies" network >"$tmp/net.json"
api POST /networks/create "$tmp/net.json" | save create-network
api GET "/networks/$NET" | save network

"$tmp/bodies" gatekeeper >"$tmp/gatekeeper.json"
"$tmp/bodies" space >"$tmp/space.json"
api POST "/containers/create?name=$GK" "$tmp/gatekeeper.json" |
    save create-gatekeeper
api GET "/containers/$GK/json" | save gatekeeper
api POST "/containers/create?name=$SPACE" "$tmp/space.json" | save create-space
api GET "/containers/$SPACE/json" | save space
api DELETE "/containers/$SPACE?force=1" >/dev/null

# plant <role> <check> <jq filter>: create with one violation, record, remove
plant() {
	name=$SPACE; [ "$1" = gatekeeper ] && name=$GK
	api DELETE "/containers/$name?force=1" >/dev/null
	jq "$3" "$tmp/$1.json" >"$tmp/v.json"
	api POST "/containers/create?name=$name" "$tmp/v.json" >"$tmp/ans.json"
	if ! jq -e .Id "$tmp/ans.json" >/dev/null; then
		echo "record: $1 $2 refused: $(cat "$tmp/ans.json")" >&2
		exit 1
	fi
	api GET "/containers/$name/json" | save "$1-v-$2"
	api DELETE "/containers/$name?force=1" >/dev/null
}

plant space privileged '.HostConfig.Privileged = true'
plant space cap_add '.HostConfig.CapAdd = ["net_raw"]'
plant space cap_drop '.HostConfig.CapDrop = ["cap_chown"]'
plant space memory_swap '.HostConfig.MemorySwap = 0'
plant space memory '.HostConfig.Memory = 8589934592 | .HostConfig.MemorySwap = 8589934592'
plant space pids_limit '.HostConfig.PidsLimit = 0'
plant space readonly_rootfs '.HostConfig.ReadonlyRootfs = false'
plant space tmpfs '.HostConfig.Tmpfs["/var/tmp"] = "rw,size=1g"'
plant space runtime_socket '.HostConfig.Mounts += [{"Type":"bind","Source":"/var/run/docker.sock","Target":"/var/run/docker.sock"}]'
plant space mounts '.HostConfig.Mounts += [{"Type":"bind","Source":"/etc","Target":"/host-etc","ReadOnly":true}]'
plant space hosts_mount '.HostConfig.Mounts[0].ReadOnly = false'
plant space socket_mount '.HostConfig.Mounts[1].ReadOnly = false'
plant space runtime_mount '.HostConfig.Mounts[2].ReadOnly = false'
# the engine's sandbox back: mode "none" alone, as before NetworkDisabled
plant space network '.NetworkDisabled = false'
plant space pid_mode '.HostConfig.PidMode = "host"'
plant space ipc '.HostConfig.IpcMode = "shareable"'
plant space uts_mode '.HostConfig.UTSMode = "host"'
plant space seccomp '.HostConfig.SecurityOpt += ["seccomp=unconfined"]'
plant space no_new_privileges '.HostConfig.SecurityOpt = []'
plant space security_opt '.HostConfig.SecurityOpt += ["label=disable"]'
plant space user '.User = "0:0"'
plant space init '.HostConfig.Init = false'
plant space log_config '.HostConfig.LogConfig = {"Type":"json-file","Config":{}}'
plant space cpu '.HostConfig.NanoCpus = 0'
plant space healthcheck '.Healthcheck = null'
plant space extra_hosts '.HostConfig.ExtraHosts = ["gatekeeper:172.17.0.1"]'
plant space devices '.HostConfig.Devices = [{"PathOnHost":"/dev/fuse","PathInContainer":"/dev/fuse","CgroupPermissions":"rwm"}]'
plant space sysctls '.HostConfig.Sysctls = {"kernel.msgmax":"65536"}'
plant space restart_policy '.HostConfig.RestartPolicy = {"Name":"always","MaximumRetryCount":0}'
# what the CLI's systempaths=unconfined sends
plant space masked_paths '.HostConfig.MaskedPaths = [] | .HostConfig.ReadonlyPaths = []'
plant space env '.Env += ["GITHUB_TOKEN=x"]'
# the same image by its id: not the reference we were asked for
plant space image ".Image = \"$(docker image inspect -f '{{.Id}}' "$IMAGE")\""
plant space labels '.Labels["spaced.space.owner"] = "ffffffffffffffffffffffffffffffff:1000"'
plant space shm_size '.HostConfig.ShmSize = 1073741824'
plant space oom_kill_disable '.HostConfig.OomKillDisable = true'
plant space cgroupns '.HostConfig.CgroupnsMode = "host"'
plant space ports '.HostConfig.PortBindings = {"22/tcp":[{"HostIp":"","HostPort":"2222"}]}'
plant gatekeeper mounts ".HostConfig.Mounts += [{\"Type\":\"volume\",\"Source\":\"spaced-space-$ID-work\",\"Target\":\"/work\"}]"
plant gatekeeper socket_mount '.HostConfig.Mounts[0].ReadOnly = true'
plant gatekeeper memory '.HostConfig.Memory = 536870912 | .HostConfig.MemorySwap = 536870912'
plant gatekeeper network '.HostConfig.NetworkMode = "bridge" | .NetworkingConfig = null'
plant gatekeeper tmpfs '.HostConfig.Tmpfs["/tmp"] = "rw,exec,nosuid,size=16m"'
plant gatekeeper env '.Env += ["OPENAI_API_KEY=x"]'
plant gatekeeper cap_add '.HostConfig.CapAdd = ["CAP_NET_ADMIN"]'
# issue 27: the limits, the OOM score, groups, masks and the uid
plant space ulimits '.HostConfig.Ulimits = [{"Name":"core","Soft":-1,"Hard":-1},{"Name":"nofile","Soft":16384,"Hard":16384},{"Name":"nproc","Soft":1024,"Hard":1024}]'
plant space oom_score_adj '.HostConfig.OomScoreAdj = -500'
plant space group_add '.HostConfig.GroupAdd = ["0"]'
plant gatekeeper ulimits '.HostConfig.Ulimits = []'

# A create the engine answers with a warning (a dropped setting).
jq '.HostConfig.KernelMemory = 8388608' "$tmp/space.json" >"$tmp/v.json"
api POST "/containers/create?name=$SPACE" "$tmp/v.json" |
    save create-space-warning
echo "recorded into $out: $(ls "$out" | wc -l) files"
