#!/bin/sh
# The plain callers' spaced-git instances, shared fairly (review
# 2026-12-06 F8): two users who keep 6 instances each busy hold the 12
# of plain callers; a third user's request waits its turn instead of
# answering busy, gets the first instance freed, and the holders are
# still served.  A caller at its share still hears busy (no queue for
# the greedy), and root is never held.  Instances are kept busy by
# order of events: a spaced-git stopped (SIGSTOP) with a request in its
# channel.  Makes two local users of its own, removed at the end.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (local users)"
	finish
fi
command -v useradd >/dev/null || { skip "no useradd"; finish; }
make_tree
work=$(mktemp -d /tmp/spaced-gitfair.XXXXXX)
chmod 0755 "$work"
ua=sgfa$$
ub=sgfb$$
uc=nobody
for u in "$ua" "$ub"; do
	useradd --no-create-home --home-dir /nonexistent \
	    --shell /usr/sbin/nologin --user-group "$u" ||
	    { not_ok "useradd $u"; finish; }
done
holders=""
cleanup() {
	for p in $(pgrep -f '^spaced-git -g '"$work"); do kill -CONT "$p"; done
	for p in $holders; do kill "$p" 2>/dev/null; done
	for u in "$ua" "$ub"; do pkill -KILL -u "$u" 2>/dev/null; done
	stop_spaced
	for u in "$ua" "$ub"; do
		userdel "$u" 2>/dev/null
		getent group "$u" >/dev/null && groupdel "$u" 2>/dev/null
	done
	[ -n "${KEEP:-}" ] || rm -rf "$tree" "$work"
}
trap cleanup EXIT
sd=$tree/s1
sock=$sd/run/spaced.sock
as() { w=$1; shift; setpriv --reuid="$w" --regid="$(id -g "$w")" --clear-groups "$@"; }
ctl_as() { w=$1; shift; as "$w" "$tree/bin/spacectl" -s "$sock" "$@"; }
inst() { pgrep -u "$1" -f "^spaced-git -g $2\$"; }
count_as() { pgrep -u "$1" -f "^spaced-git -g $work/" | wc -l; }
requests_at_least() {
	[ "$(ctl status | awk '$1 == "spaced" { print $6 }')" -ge "$1" ]
}
# spaced-launch's row of status: spaced's instances, live and waiting
instances() {
	ctl status | sed -n 's/^spaced-launch  *[0-9-]*  *[a-z]*  *//p'
}
instances_say() { instances | grep -q "$1"; }

check "spaced starts" start_spaced "$sd"

git init -q "$work/proto" && (cd "$work/proto" &&
    git -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m one)
mkrepo() { rm -rf "$1"; cp -a "$work/proto" "$1"; chown -R "$2" "$1"; }
mkdir -p "$work/a" "$work/b" "$work/c"
chown "$ua" "$work/a"; chown "$ub" "$work/b"; chown "$uc" "$work/c"

# hold who dir: a spaced-git for dir, stopped, with a files request of
# who's in its channel (busy: nothing frees it while it waits).  The
# client's pid goes to $work/pids/<dir's name>, its answer beside it.
nholds=0
mkdir -p "$work/pids"
hold() {
	ctl_as "$1" files "$2" >/dev/null 2>&1 || return 1
	p=$(inst "$1" "$2")
	[ -n "$p" ] || return 1
	kill -STOP $p
	n=$(basename "$2")
	# A simple command, so that $! is spacectl itself.
	setpriv --reuid="$1" --regid="$(id -g "$1")" --clear-groups \
	    "$tree/bin/spacectl" -s "$sock" -j files "$2" \
	    >"$work/pids/$n.out" 2>&1 &
	echo $! >"$work/pids/$n"
	holders="$holders $!"
	nholds=$((nholds + 1))
	wait_for 20 requests_at_least $((nholds + 1))
}
ha=0; hb=0
for i in $(seq 1 6); do
	mkrepo "$work/a/a$i" "$ua"
	hold "$ua" "$work/a/a$i" && ha=$((ha + 1))
	mkrepo "$work/b/b$i" "$ub"
	hold "$ub" "$work/b/b$i" && hb=$((hb + 1))
done
check "two users hold 6 busy instances each (control: $ha, $hb)" \
    test "$ha" -eq 6 -a "$hb" -eq 6
check "their own spaced-git, 6 as each user" \
    test "$(count_as "$ua")" -eq 6 -a "$(count_as "$ub")" -eq 6
check "spaced counts the 12 plain instances ($(instances))" \
    instances_say "12 live, 12 plain, 0 waiting"

# --- the third user waits its turn, where it answered busy -----------------
mkrepo "$work/c/c1" "$uc"
as "$uc" "$tree/bin/spacectl" -s "$sock" -j files "$work/c/c1" \
    >"$work/c1.out" 2>&1 &
third=$!
check "a third user's files waits for an instance" \
    wait_for 20 instances_say "1 waiting"
check "and has not answered (busy) meanwhile" kill -0 "$third"
mkrepo "$work/root-repo" root
check "root lists its repository while the third user waits" \
    sh -c "'$tree/bin/spacectl' -s '$sock' -j files '$work/root-repo' |
    jq -e '.files | length == 0' >/dev/null"
mkrepo "$work/a/a7" "$ua"
check "a holder at its share (6 of 12, three users: 4) still hears busy" \
    sh -c "setpriv --reuid=$ua --regid=\$(id -g $ua) --clear-groups \
    '$tree/bin/spacectl' -s '$sock' files '$work/a/a7' 2>&1 |
    grep -q '^spacectl: busy'"
check "its refusal queued nothing ($(instances))" \
    instances_say "12 plain, 1 waiting"
# Its instances take no new request while the third user waits: one
# for a repository it holds would queue behind the request there and
# keep the instance busy, one request after another.
ctl_as "$ua" files "$work/a/a2" >"$work/a2-again.out" 2>&1 &
again=$!
check "a holder's next request on its own busy instance: busy, not queued" \
    wait_for 20 sh -c "! kill -0 $again && grep -q '^spacectl: busy' '$work/a2-again.out'"

# One of the first user's requests goes on: its instance, idle, is the
# third user's.
kill -CONT "$(inst "$ua" "$work/a/a1")"
check "the freed instance goes to the third user: its files answers" \
    wait_for 30 sh -c "! kill -0 $third"
wait "$third"
rc=$?
check "with the repository's files, no error ($(tr -d " \n" <"$work/c1.out" | head -c 120))" \
    sh -c "[ $rc -eq 0 ] && jq -e '.files | length == 0' '$work/c1.out' >/dev/null"
check "the holder whose request went on was served" \
    wait_for 20 sh -c "jq -e '.files | length == 0' '$work/pids/a1.out' >/dev/null"
check "and the third user's spaced-git runs as it" \
    test -n "$(inst "$uc" "$work/c/c1")"

# --- the holders are still served --------------------------------------------
for p in $(pgrep -f "^spaced-git -g $work/"); do kill -CONT "$p"; done
served=0
for f in "$work"/pids/[ab][0-9]; do
	n=$(basename "$f")
	wait "$(cat "$f")" && jq -e '.files | length == 0' \
	    "$work/pids/$n.out" >/dev/null && served=$((served + 1))
done
holders=""
check "every held request of both users answers ($served of 12)" \
    test "$served" -eq 12
check "nothing waits any more ($(instances))" instances_say "0 waiting"
check "and spaced still serves" ctl status

stop_spaced
finish
