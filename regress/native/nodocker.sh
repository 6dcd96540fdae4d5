#!/bin/sh
# make run on a machine without Docker (issue 25): make run itself (its
# deps step, the build, tools/run.sh), in a mount namespace where no
# Docker can be had: the Docker socket is /dev/null, dockerd and docker
# are not executable, and the package cannot be installed (apt has no
# source there and a copy of dpkg's status without docker.io, so the
# real apt-get refuses it: "no installation candidate"), with a
# /run/spaced, /var/lib/spaced and /etc/spaced.conf of its own (spaced's
# defaults as root, no one else's).  It must end with a verified space
# on the native place holding this checkout's code.  The controls: the
# engine answers outside the namespace, and docker.io is installed
# there.  What is not real: the package's absence is staged (the host
# has it), and the build is a copy of this tree's (make finds it up to
# date, so the test does not rebuild).
if [ -z "${NODOCKER_INSIDE:-}" ]; then
	. "$(dirname "$0")/../integration/lib.sh"
	if [ "$(id -u)" != 0 ]; then
		skip "the native place needs root (namespaces and cgroup groups)"
		finish
	fi
	T=$(mktemp -d /tmp/spaced-nodocker.XXXXXX)
	chmod 0755 "$T"
	mkdir -p /run/spaced /var/lib/spaced
	# This tree's build, times kept (make finds it up to date), so that
	# make run's log and pid land in the copy.
	cp -a "$build" "$T/build"
	chmod -R a+rX "$T"
	check "control: the engine answers here" curl -sf --max-time 5 \
	    --unix-socket /var/run/docker.sock http://docker/_ping -o /dev/null
	check "control: docker.io is installed here" sh -c \
	    "dpkg-query -W -f='\${Status}' docker.io | grep -q 'ok installed'"
	NODOCKER_INSIDE=1 T=$T B=$T/build unshare -m --propagation private \
	    sh "$0" >"$T/inside.log" 2>&1
	rc=$?
	sed 's/^/# /' "$T/inside.log" | grep -v '^# ok\|^# not ok' | tail -40
	grep '^ok\|^not ok' "$T/inside.log"
	pass=$((pass + $(grep -c '^ok' "$T/inside.log")))
	fail=$((fail + $(grep -c '^not ok' "$T/inside.log")))
	[ $rc = 0 ] || not_ok "the namespace's run ended (exit $rc)"
	rm -rf "$T"
	finish
fi

# --- inside: a machine without Docker ------------------------------------
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
mount -t tmpfs nodocker /run/spaced && mount -t tmpfs nodocker /var/lib/spaced &&
    touch "$T/empty.conf" && touch /etc/spaced.conf 2>/dev/null
mount --bind "$T/empty.conf" /etc/spaced.conf 2>/dev/null
# The agent's tools from the fill's cache (agent.sh fills it), under the
# install id this state will have: the minutes of npm saved, no more.
. "$top/regress/lib/toolscache.sh"
inst=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
echo "$inst" >/var/lib/spaced/install-id && chmod 600 /var/lib/spaced/install-id
mkdir -m 700 /var/lib/spaced/native
tools_cache_seed /var/lib/spaced/native "$inst" 0
for s in /run/docker.sock /var/run/docker.sock; do
	[ -e "$s" ] && mount --bind /dev/null "$s"
done
for c in dockerd docker; do
	d=$(command -v $c 2>/dev/null) && mount --bind /dev/null "$d"
done
# The package: no source to take it from, and dpkg's status without it
# (copies; the host's apt and dpkg files are not written).
mkdir -p "$T/apt/sources" "$T/apt/lists/partial" "$T/apt/cache/archives/partial" \
    "$T/apt/dpkg/updates" "$T/apt/dpkg/info"
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/^Package: docker\.io\n/' \
    /var/lib/dpkg/status >"$T/apt/dpkg/status"
for f in arch diversions statoverride; do
	[ -e "/var/lib/dpkg/$f" ] && cp "/var/lib/dpkg/$f" "$T/apt/dpkg/"
done
: >"$T/apt/dpkg/available"
mount --bind "$T/apt/sources" /etc/apt/sources.list.d
[ -e /etc/apt/sources.list ] && mount --bind /dev/null /etc/apt/sources.list
mount --bind "$T/apt/lists" /var/lib/apt/lists
mount --bind "$T/apt/cache" /var/cache/apt
mount --bind "$T/apt/dpkg" /var/lib/dpkg
ctl="$B/bin/spacectl"
say() { if "$@"; then echo "ok - $D"; else echo "not ok - $D"; fi; }
D="no engine answers in the namespace"
say sh -c '! curl -sf --max-time 2 --unix-socket /var/run/docker.sock http://docker/_ping'
D="no dockerd to start"; say sh -c '! [ -x "$(command -v dockerd)" ]'
D="docker.io cannot be installed: apt-get refuses it"
say sh -c '! apt-get install -s -q docker.io >/dev/null 2>&1'

cd "$top" && make -s B="$B" run >"$T/run.out" 2>&1
rc=$?
sed 's/^/    /' "$T/run.out" | tail -25
D="make run ends well (exit $rc)"; say test $rc = 0
D="its deps step says docker.io cannot be installed, and goes on"
say grep -q "docker.io cannot be installed here: make run goes on with the native place" "$T/run.out"
D="it says the space is on the native place"
say grep -q "no Docker engine: the space goes on the native place" "$T/run.out"
id=$("$ctl" list | awk 'NR > 1 && $2 == "make" { print $1 }' | head -n 1)
[ -n "$id" ] || id=$("$ctl" list | awk 'NR > 1 { print $1 }' | head -n 1)
D="a space is there ($id)"; say test -n "$id"
D="its place is native"
say sh -c "[ \"\$('$ctl' -j show '$id' | jq -r .place)\" = native ]"
D="it runs and verify is clean"
say sh -c "'$ctl' -j show '$id' | jq -e '.state == \"running\"' >/dev/null && '$ctl' verify '$id' >/dev/null"
D="this checkout's code is in it (its HEAD, or a snapshot on top of it)"
head=$(git -C "$top" rev-parse HEAD)
say sh -c "'$ctl' exec '$id' -- sh -c 'for d in /spaces/$id/*/; do git -C \"\$d\" rev-parse HEAD HEAD^ 2>/dev/null; done' | grep -qx '$head'"
D="its agent's server answers (the default profile, on the native place)"
say sh -c "'$ctl' server '$id' GET /global/health | jq -e '.healthy == true' >/dev/null"
D="and its token is there"
say sh -c "test \"\$('$ctl' token '$id' | wc -c)\" -eq 44"
D="run prints the first use: attach"
say grep -q "attach $id" "$T/run.out"
D="a command runs in it"
say sh -c "[ \"\$('$ctl' exec '$id' -- echo inside)\" = inside ]"
"$ctl" remove "$id" >/dev/null 2>&1
[ -f "$B/spaced.pid" ] && kill "$(cat "$B/spaced.pid")"
sleep 1
exit 0
