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
make_tree
work=$(mktemp -d /tmp/spaced-gitfair.XXXXXX)
chmod 0755 "$work"
ua=sgfa$$
ub=sgfb$$
uc=nobody
cleanup() {
	for p in $(pgrep -f '^spaced-git -g '"$work"); do kill -CONT "$p"; done
	for p in $plain_holders; do kill "$p" 2>/dev/null; done
	plain_users_kill
	stop_spaced
	plain_users_del
	[ -n "${KEEP:-}" ] || rm -rf "$tree" "$work"
}
trap cleanup EXIT
plain_users "$ua" "$ub"
sd=$tree/s1
sock=$sd/run/spaced.sock
count_as() { pgrep -u "$1" -f "^spaced-git -g $work/" | wc -l; }
# spaced-launch's row of status: spaced's instances, live and waiting
instances() {
	ctl status | sed -n 's/^spaced-launch  *[0-9-]*  *[a-z]*  *//p'
}
instances_say() { instances | grep -q "$1"; }

check "spaced starts" start_spaced "$sd"

mkdir -p "$work/a" "$work/b" "$work/c"
chown "$ua" "$work/a"; chown "$ub" "$work/b"; chown "$uc" "$work/c"

ha=0; hb=0
for i in $(seq 1 6); do
	plain_repo "$work/a/a$i" "$ua"
	plain_hold "$ua" "$work/a/a$i" && ha=$((ha + 1))
	plain_repo "$work/b/b$i" "$ub"
	plain_hold "$ub" "$work/b/b$i" && hb=$((hb + 1))
done
check "two users hold 6 busy instances each (control: $ha, $hb)" \
    test "$ha" -eq 6 -a "$hb" -eq 6
check "their own spaced-git, 6 as each user" \
    test "$(count_as "$ua")" -eq 6 -a "$(count_as "$ub")" -eq 6
check "spaced counts the 12 plain instances ($(instances))" \
    instances_say "12 live, 12 plain, 0 waiting"

# --- the third user waits its turn, where it answered busy -----------------
plain_repo "$work/c/c1" "$uc"
plain_as "$uc" "$tree/bin/spacectl" -s "$sock" -j files "$work/c/c1" \
    >"$work/c1.out" 2>&1 &
third=$!
check "a third user's files waits for an instance" \
    wait_for 20 instances_say "1 waiting"
check "and has not answered (busy) meanwhile" kill -0 "$third"
plain_repo "$work/root-repo" root
check "root lists its repository while the third user waits" \
    sh -c "'$tree/bin/spacectl' -s '$sock' -j files '$work/root-repo' |
    jq -e '.files | length == 0' >/dev/null"
plain_repo "$work/a/a7" "$ua"
check "a holder at its share (6 of 12, three users: 4) still hears busy" \
    sh -c "setpriv --reuid=$ua --regid=\$(id -g $ua) --clear-groups \
    '$tree/bin/spacectl' -s '$sock' files '$work/a/a7' 2>&1 |
    grep -q '^spacectl: busy'"
check "its refusal queued nothing ($(instances))" \
    instances_say "12 plain, 1 waiting"
# Its instances take no new request while the third user waits: one
# for a repository it holds would queue behind the request there and
# keep the instance busy, one request after another.
plain_ctl "$ua" files "$work/a/a2" >"$work/a2-again.out" 2>&1 &
again=$!
check "a holder's next request on its own busy instance: busy, not queued" \
    wait_for 20 sh -c "! kill -0 $again && grep -q '^spacectl: busy' '$work/a2-again.out'"

# One of the first user's requests goes on: its instance, idle, is the
# third user's.
kill -CONT "$(plain_inst "$ua" "$work/a/a1")"
check "the freed instance goes to the third user: its files answers" \
    wait_for 30 sh -c "! kill -0 $third"
wait "$third"
rc=$?
check "with the repository's files, no error ($(tr -d " \n" <"$work/c1.out" | head -c 120))" \
    sh -c "[ $rc -eq 0 ] && jq -e '.files | length == 0' '$work/c1.out' >/dev/null"
check "the holder whose request went on was served" \
    wait_for 20 sh -c "jq -e '.files | length == 0' '$work/pids/a1.out' >/dev/null"
check "and the third user's spaced-git runs as it" \
    test -n "$(plain_inst "$uc" "$work/c/c1")"

# --- the holders are still served --------------------------------------------
for p in $(pgrep -f "^spaced-git -g $work/"); do kill -CONT "$p"; done
served=0
for f in "$work"/pids/[ab][0-9]; do
	n=$(basename "$f")
	wait "$(cat "$f")" && jq -e '.files | length == 0' \
	    "$work/pids/$n.out" >/dev/null && served=$((served + 1))
done
plain_holders=""
check "every held request of both users answers ($served of 12)" \
    test "$served" -eq 12
check "nothing waits any more ($(instances))" instances_say "0 waiting"
check "and spaced still serves" ctl status

stop_spaced
finish
