#!/bin/sh
# make run on a machine without Docker (issue 25): tools/run.sh, the
# body of make run after its deps and build, in a mount namespace where
# the Docker socket is /dev/null and dockerd is not executable, with a
# /run/spaced, /var/lib/spaced and /etc/spaced.conf of its own (spaced's
# defaults as root, no one else's).  It must end with a verified space
# on the native place holding this checkout's code.  The control: the
# same namespace before the hiding reaches the engine.
if [ -z "${NODOCKER_INSIDE:-}" ]; then
	. "$(dirname "$0")/../integration/lib.sh"
	if [ "$(id -u)" != 0 ]; then
		skip "the native place needs root (namespaces and cgroup groups)"
		finish
	fi
	T=$(mktemp -d /tmp/spaced-nodocker.XXXXXX)
	chmod 0755 "$T"
	mkdir -p "$T/build" /run/spaced /var/lib/spaced
	cp -r "$build/sbin" "$build/bin" "$build/libexec" "$T/build/"
	chmod -R a+rX "$T"
	check "control: the engine answers here" curl -sf --max-time 5 \
	    --unix-socket /var/run/docker.sock http://docker/_ping -o /dev/null
	NODOCKER_INSIDE=1 T=$T unshare -m --propagation private \
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
d=$(command -v dockerd 2>/dev/null) && mount --bind /dev/null "$d"
ctl="$T/build/bin/spacectl"
say() { if "$@"; then echo "ok - $D"; else echo "not ok - $D"; fi; }
D="no engine answers in the namespace"
say sh -c '! curl -sf --max-time 2 --unix-socket /var/run/docker.sock http://docker/_ping'

cd "$top" && sh tools/run.sh "$T/build" >"$T/run.out" 2>&1
rc=$?
sed 's/^/    /' "$T/run.out" | tail -25
D="make run's body ends well (exit $rc)"; say test $rc = 0
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
[ -f "$T/build/spaced.pid" ] && kill "$(cat "$T/build/spaced.pid")"
sleep 1
exit 0
