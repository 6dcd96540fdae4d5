#!/bin/sh
# spaced.service under a real systemd: a throwaway machine container (a
# Debian 12 root with systemd as pid 1, made by debootstrap, cached by
# the key of its inputs beside regress/fresh's root and imported as a
# local image, never pulled), this tree's make install in it, the unit
# driven by systemctl: readiness, reload, stop with a space, a worker's
# death; spaces through the host's engine (its socket bound in).  Root,
# Docker, debootstrap (tools/deps.sh); about a minute once cached.
. "$(dirname "$0")/lib.sh"

suite=bookworm
mirror=${SPACED_FRESH_MIRROR:-http://deb.debian.org/debian}
cache=${SPACED_FRESH_CACHE:-/var/cache/spaced/fresh}

if [ "$(id -u)" -ne 0 ]; then
	skip "the machine container needs root (debootstrap, Docker)"
	finish
fi
if ! curl -sf --max-time 3 --unix-socket /var/run/docker.sock \
    http://docker/_ping >/dev/null 2>&1; then
	not_ok "a Docker engine answers (make check starts it)"; finish
fi
if ! command -v debootstrap >/dev/null; then
	not_ok "debootstrap is there (tools/deps.sh installs it)"; finish
fi

# The root of the key: systemd and the libraries spaced links, nothing
# of this tree (the binaries come with make install, below).
make_root() {
	debootstrap --variant=minbase \
	    --include=systemd,systemd-sysv,libsystemd0,procps,libbsd0,libevent-2.1-7,libevent-core-2.1-7,libevent-extra-2.1-7,libevent-openssl-2.1-7,libgit2-1.5,libjansson4,libseccomp2,libssl3,zlib1g \
	    --cache-dir="$cache/debs" "$suite" "$1" "$mirror"
}
key=$( { echo "$suite $mirror"; sed -n '/^make_root() {$/,/^}$/p' "$0"; } |
    sha256sum | cut -c1-16)
tarball=$cache/machine-$key.tar
image=spaced-machine:$key
INSTALL=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
T=$(mktemp -d /tmp/spaced-machine.XXXXXX)
# The prefix: the same path in the machine and on the host, since the
# engine binds space-hosts from it (below /run: the unit's PrivateTmp
# hides /tmp and /var/tmp).
P=$(mktemp -d /run/spaced-machine.XXXXXX)
M=spaced-machine-$(echo "$INSTALL" | cut -c1-12)
at_finish machine_end
# At the end, whatever way: the machine goes, and nothing with this
# run's owner remains on the host's engine (the shared runtime volume
# stays by design, as contract/lib.sh's sweep says).
machine_end() {
	docker rm -f "$M" >/dev/null 2>&1
	f="label=spaced.space.owner=$INSTALL:0"
	left=$( { docker ps -aq --filter "$f"
	    docker network ls -q --filter "$f"
	    docker volume ls --filter "$f" \
	    --format '{{.Name}} {{.Label "spaced.space.role"}}' |
	    awk '$2 != "runtime" { print $1 }'; } 2>/dev/null)
	if [ -n "$left" ]; then
		not_ok "nothing with this run's owner remains: $(echo $left)"
		for k in $left; do
			docker rm -f "$k" || docker volume rm "$k" ||
			    docker network rm "$k"
		done >/dev/null 2>&1
	else
		ok "nothing with this run's owner remains on the engine"
	fi
	rm -rf "$T" "$P"
}

took() { echo "# $1: $(($(date +%s) - $2)) s"; }
mkdir -p "$cache/debs/partial"
if [ ! -s "$tarball" ]; then
	t0=$(date +%s)
	if ! make_root "$T/root" >"$T/debootstrap.log" 2>&1; then
		sed 's/^/# /' "$T/debootstrap.log" | tail -20
		not_ok "debootstrap $suite with systemd"; finish
	fi
	tar -C "$T/root" -cf "$tarball.tmp.$$" . &&
	    mv "$tarball.tmp.$$" "$tarball"
	rm -rf "$T/root"
	took "debootstrap, once for key $key" $t0
fi
if ! docker image inspect "$image" >/dev/null 2>&1; then
	docker import "$tarball" "$image" >/dev/null
fi
check "the machine image of key $key, imported from the cached root" \
    sh -c "docker image inspect '$image' >/dev/null"

# systemd as pid 1.  Engine 20.10 on this cgroup v1 host: --privileged
# asks for every capability, which the engine's own bounding set may
# lack (CAP_SYS_RESOURCE here): runc fails.  So the capabilities the
# unit's sandboxing needs (mount and network namespaces), no engine
# seccomp or AppArmor profile (the unit installs its own filter), a
# cgroup namespace of its own, and its cgroup mounts made writable
# (bind remounts: systemd makes its groups there, inside the machine's
# own group alone; one mount on a cgroup v2 host, one a hierarchy on
# v1).  /proc/sys and /sys stay read-only: no sysctl, binfmt or udev of
# the machine reaches the host.
docker run -d --name "$M" \
    --cap-add SYS_ADMIN --cap-add NET_ADMIN --cap-add SYS_PTRACE \
    --cap-add DAC_READ_SEARCH --cap-add SYSLOG --cap-add SYS_CHROOT \
    --cap-add SETPCAP \
    --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
    --cgroupns=private -e container=docker --tmpfs /run --tmpfs /run/lock \
    -v /var/run/docker.sock:/run/docker.sock -v "$P:$P:ro" \
    --device /dev/kmsg:/dev/kmsg:r \
    --label "spaced.test.machine=$INSTALL" --stop-signal SIGRTMIN+3 \
    "$image" sh -c 'c=/sys/fs/cgroup
    if [ "$(stat -fc %T $c)" = cgroup2fs ]; then
	mount -o remount,bind,rw $c || exit 1
    else
	mount -o remount,rw $c || exit 1
	for d in $c/*/; do mount -o remount,bind,rw "$d" || exit 1; done
    fi
    exec /lib/systemd/systemd' >/dev/null
in_m() { docker exec "$M" "$@"; }
sc() { docker exec "$M" "$P/usr/bin/spacectl" "$@"; }
booted() { in_m systemctl is-system-running 2>/dev/null | grep -Eq '^(running|degraded)$'; }
# (120 s: a hang guard; a boot beside two lanes of suites is slow)
if ! wait_for 120 booted; then
	docker logs "$M" 2>&1 | tail -20 | sed 's/^/# /'
	not_ok "systemd runs as pid 1 in the machine"; finish
fi
ok "systemd runs as pid 1 in the machine"
check "  pid 1 is systemd" test "$(in_m cat /proc/1/comm)" = systemd
in_m systemctl --failed --no-legend --plain | sed 's/^/# failed: /'

# make install of this tree's build: the prefix bound in, the unit
# where systemd looks (SYSTEMDDIR), the workers' users made inside.
make -s -C "$top" install B="$build" DESTDIR="$T/stage" PREFIX="$P/usr" \
    SYSTEMDDIR=/usr/local/lib/systemd/system >"$T/install.log" 2>&1
check "make install (DESTDIR, PREFIX $P/usr)" \
    test -x "$T/stage$P/usr/sbin/spaced" -a \
    -f "$T/stage/usr/local/lib/systemd/system/spaced.service"
cp -a "$T/stage$P/usr" "$P/" && rm -rf "$T/stage$P"
docker cp "$T/stage/." "$M:/" && docker cp "$top/tools/users.sh" "$M:/tmp/users.sh"
check "the workers' users made in the machine" sh -c "docker exec $M sh /tmp/users.sh >/dev/null"
conf() {
	{ echo "install id $INSTALL"; echo 'default agent none'
	  echo 'default place docker'; echo 'trust images'; cat; } |
	    docker exec -i "$M" sh -c 'cat >/etc/spaced.conf'
}
conf </dev/null
in_m systemctl daemon-reload
in_m systemd-analyze verify --man=no spaced.service >"$T/verify" 2>&1
v=$?
check "systemd-analyze verify spaced.service in the machine: clean" \
    sh -c "[ $v = 0 ] && ! test -s '$T/verify'"
sed 's/^/# /' "$T/verify"

# --- readiness: active only once READY=1 ------------------------------
# The control: a Type=notify unit that never notifies stays activating.
printf '[Service]\nType=notify\nExecStart=/bin/sleep infinity\nTimeoutStartSec=infinity\n' |
    docker exec -i "$M" sh -c 'cat >/etc/systemd/system/never-ready.service'
in_m systemctl daemon-reload
in_m systemctl start --no-block never-ready.service
check "systemctl start spaced returns" in_m systemctl start spaced.service
check "  spaced.service is active" \
    test "$(in_m systemctl is-active spaced.service)" = active
check "  and its socket answers as it returns (status)" sh -c \
    "docker exec $M $P/usr/bin/spacectl status >/dev/null"
main=$(in_m systemctl show -p MainPID --value spaced.service)
check "  its main pid is spaced itself ($main), NotifyAccess=main" \
    test "$(in_m cat "/proc/${main:-0}/comm")" = spaced
check "  it holds /dev/kmsg (PrivateDevices, the bind: a seccomp kill is named)" \
    sh -c "docker exec $M ls -l /proc/${main:-0}/fd | grep -q ' -> /dev/kmsg\$'"
# For the record: the workers as the unit leaves them (ROOT is '?' for
# the workers of other uids: no CAP_SYS_PTRACE, docs/privsep.md).
sc privileges 2>&1 | sed 's/^/#   /'
check "control: a Type=notify unit that never says READY=1 stays activating" \
    test "$(in_m systemctl is-active never-ready.service)" = activating
in_m systemctl stop --no-block never-ready.service

# --- a space, through the host's engine ---------------------------------
id=$(sc create -n machine) || id=
check "create through the host's engine ($id)" test -n "$id"
check "  exec in it" test "$(sc exec "${id:-none}" -- echo in)" = in

# --- reload: a good file takes effect, a bad one changes nothing -------
echo 'spaces per owner "1"' | conf
check "systemctl reload with a good file" in_m systemctl reload spaced.service
# The reload returns once its SIGHUP is sent (ExecReload, no RELOADING=1):
# spaced takes it a moment later, which status says.
reloaded() { sc status 2>/dev/null | grep -q 'config: reloaded'; }
wait_for 60 reloaded
check_refusal "  it took effect: a second space is refused" 1 \
    'too_many_spaces: 1 spaces already, 1 at most' sc create -n second
check "  status says reloaded" sh -c \
    "docker exec $M $P/usr/bin/spacectl status | grep -q 'config: reloaded'"
printf 'spaces per owner "16"\nthis is no setting\n' | conf
check_refusal "systemctl reload with a bad file fails" 1 \
    'Job for spaced.service failed' in_m systemctl reload spaced.service
check "  the unit stays active" \
    test "$(in_m systemctl is-active spaced.service)" = active
check "  the journal says why (spaced -n: the line)" sh -c \
    "docker exec $M journalctl -u spaced.service --no-pager |
    grep -q 'line 6: unknown setting'"
check_refusal "  nothing changed: the old limit holds" 1 \
    'too_many_spaces: 1 spaces already, 1 at most' sc create -n second
conf </dev/null
check "  and a good file again is taken" in_m systemctl reload spaced.service

# --- stop (SIGTERM) with a space present, start again --------------------
check "systemctl stop" in_m systemctl stop spaced.service
check "  spaced exited on SIGTERM, cleanly (Result=success)" sh -c \
    "docker exec $M journalctl -u spaced.service --no-pager |
    grep -q 'exiting on signal 15' &&
    [ \"\$(docker exec $M systemctl show -p Result --value spaced.service)\" = success ]"
check "  the space and its gatekeeper still run" sh -c \
    "[ \"\$(docker inspect -f '{{.State.Running}}' spaced-space-$id-space spaced-space-$id-gatekeeper)\" = 'true
true' ]"
check "systemctl start again" in_m systemctl start spaced.service
check "  the space is found, running" sh -c \
    "docker exec $M $P/usr/bin/spacectl list | grep -Eq '^$id +machine +running'"
check "  and answers" test "$(sc exec "${id:-none}" -- echo again)" = again
sc journal "${id:-none}" --verify >"$T/v" 2>&1
check "  journal --verify ($(cat "$T/v"))" grep -q '^the chain holds' "$T/v"

# --- a worker's death: in the log, spaced exits, the unit restarts it ---
n0=$(in_m systemctl show -p NRestarts --value spaced.service)
w=$(in_m pgrep -x spaced-docker)
in_m kill -9 "${w:-0}"
restarted() {
	[ "$(in_m systemctl show -p NRestarts --value spaced.service)" -gt "$n0" ] &&
	    [ "$(in_m systemctl is-active spaced.service)" = active ]
}
check "a killed spaced-docker: spaced exits, Restart=on-failure starts it" \
    wait_for 30 restarted
check "  the death was in the log before spaced exited (status 3)" sh -c \
    "docker exec $M journalctl -u spaced.service --no-pager |
    grep -A3 'spaced-docker (pid $w) killed by signal 9' |
    grep -q 'status=3'"
check "  the space is found again" sh -c \
    "docker exec $M $P/usr/bin/spacectl list | grep -Eq '^$id +machine +running'"

# --- systemd-analyze security, in the machine ---------------------------
score() {
	in_m systemd-analyze security --no-pager "$1" 2>/dev/null |
	    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'
}
printf '[Service]\nType=notify\nExecStart=%s/usr/sbin/spaced\n' "$P" |
    docker exec -i "$M" sh -c 'cat >/etc/systemd/system/spaced-bare.service'
in_m systemctl daemon-reload
after=$(score spaced.service)
before=$(score spaced-bare.service)
echo "# systemd-analyze security in the machine: $before bare, $after with the unit"
in_m systemd-analyze security --no-pager spaced.service 2>/dev/null |
    grep '^✗' | sed 's/  */ /g; s/^/#   /'
check "systemd-analyze security: at most 2.5 ($after), against $before bare" \
    awk -v a="${after:-99}" -v b="${before:-0}" 'BEGIN { exit !(a <= 2.5 && b >= 9.0) }'

check "remove" sh -c "docker exec $M $P/usr/bin/spacectl remove ${id:-none} >/dev/null"

finish
