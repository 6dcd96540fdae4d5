#!/bin/sh
# One native space's stuck exec helper holds no other space, and native
# spaces across a restart of spaced.
# - spaced-ns sent each command to a space's helper with a blocking
#   send: a helper that stopped reading (SIGSTOP) held spaced-ns's loop
#   once its socket was full, and every other native space's requests
#   with it.  Now a full socket answers busy at once: another space's
#   exec completes while the first helper is still stopped (no timing:
#   the check is the order of events), and the commands queued before
#   run once it goes on.
# - spacectl tools lists the native place's tools folders beside
#   Docker's volumes, with a place column.
# - spaced stopped (SIGTERM) ends its workers, and a native space's
#   processes die with spaced-ns (their death signal); the record stays:
#   the restarted spaced lists the space exited, and start brings it
#   back.
# - A create whose client leaves at once makes no space that stands
#   unannounced (review F3), and the spaces that stand are followed:
#   their gatekeeper's records reach the journal unasked.  About a
#   minute.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
. "$(dirname "$0")/../contract/lib.sh"

A=$(sc create -n "stuck") || A=
B=$(sc create -n "other") || B=
check "two native spaces ($A, $B)" test -n "$A" -a -n "$B"
check "control: an exec in the first space" \
    test "$(sc exec "$A" -- echo one 2>&1)" = one

ns_pid=$(pgrep -P "$spaced_pid" -x spaced-ns | head -n 1)
# A's helper: root, a child of spaced-ns, in A's group.
helper=
for p in $(ns_pids "$A" space); do
	[ "$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null)" = "$ns_pid" ] &&
	    [ "$(awk '/^Uid:/ { print $2 }' "/proc/$p/status" 2>/dev/null)" = 0 ] &&
	    helper=$p
done
check "the first space's exec helper is found (pid ${helper:-none})" test -n "$helper"
state() { awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

kill -STOP "$helper"
stopped() { [ "$(state "$helper")" = T ]; }
check "  it is stopped (control)" wait_for 30 stopped
# More commands than its socket holds: 30 of 8000 bytes each, past the
# socket's 208 KiB (net.core.wmem_default) and under spaced-ns's 32 execs.
# (two arguments: spacectl takes 4 KiB an argument, 8 KiB in all)
big=$(head -c 3900 /dev/zero | tr '\0' x)
for n in $(seq 1 30); do
	sc exec "$A" -- sh -c 'echo "queued $1"' sh "$n" "$big" "$big" \
	    >"$T/q.$n" 2>"$T/qe.$n" &
	echo $! >>"$T/q.pids"
done
# Each queued exec is sent or answered busy once spaced-ns read it: the
# busy answers say so.
busy_seen() { [ "$(grep -l 'busy' "$T"/qe.* 2>/dev/null | wc -l)" -ge 1 ]; }
check "  execs past its socket's room answer busy at once" wait_for 120 busy_seen
# A bound for a hang, not a measure: before, this never answered.
out=$(timeout 120 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$B" -- echo two 2>&1)
check "another space's exec completes ($out)" test "$out" = two
check "  while the first space's helper is still stopped" \
    test "$(state "$helper")" = T
check "  and a command queued to it has not run yet" \
    test ! -s "$T/q.1"
kill -CONT "$helper"
for p in $(cat "$T/q.pids"); do wait "$p" 2>/dev/null; done
ran=0; refused=0
for n in $(seq 1 30); do
	if [ "$(cat "$T/q.$n")" = "queued $n" ]; then
		ran=$((ran + 1))
	elif grep -q '^spacectl: busy' "$T/qe.$n"; then
		refused=$((refused + 1))
	fi
done
check "after SIGCONT each queued command ran or was refused busy ($ran ran, $refused busy)" \
    test $((ran + refused)) -eq 30 -a "$ran" -ge 1 -a "$refused" -ge 1
check "  and the space takes commands again" \
    test "$(sc exec "$A" -- echo three 2>&1)" = three

# --- spacectl tools: the native place's folders too ----------------------
# It listed Docker's volumes alone; a native folder of an old key stayed
# unseen.  A folder of the owner's (no marker: empty) and, as the
# control, one of another uid, which must not show.  This spaced runs
# no agent by default, so the listing names one (-a).
k=0123456789abcdef
mine=spaced-tools-$INSTALL-0-$k
mkdir -p "$NS_STATE/tools/$mine" "$NS_STATE/tools/spaced-tools-$INSTALL-1000-$k"
sc -j tools -a opencode >"$T/tools.json" 2>"$T/tools.err"
check "tools -j lists the owner's native folder: place native, empty" \
    jq -e ".volumes[] | select(.name == \"$mine\") | .place == \"native\" and .state == \"empty\"" "$T/tools.json"
check "  and not another uid's" \
    jq -e "[.volumes[] | select(.name | contains(\"-1000-\"))] == []" "$T/tools.json"
check "tools: the text names the place" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' tools -a opencode | grep -q '^$mine .* empty  *native '"
rm -rf "$NS_STATE/tools/$mine" "$NS_STATE/tools/spaced-tools-$INSTALL-1000-$k"

# --- a create whose client leaves (review F3) ----------------------------
# spaced-ns makes a space to its end whatever comes: a create whose
# client left while spaced-ns made it stood afterwards, running, with
# no create event and no journal follow until a list named it.  Now
# such a create goes on alone and removes what it made, as on Docker.
# A raw client sends create and leaves at once, after 50 ms and after
# 200 ms; once spaced holds no request but status's own, every space
# of the state was announced, or none is there.  The control: the
# creates did make spaces (spaced's rollback lines name them), and
# each is gone cleanly: its folder, both cgroups, its processes.
before=$(ns_ids | sort)
: >"$T/left.ids"
for ms in 0 50 200; do
	python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" \
	    space-leave 107 "$ms" >/dev/null 2>&1
done
# idle: spaced holds no request but this status (its own collections
# come and go: asked again until a moment without one)
idle() { sc -j status 2>/dev/null |
    jq -e 'any(.. | objects | select(has("requests")); .requests <= 1)' >/dev/null; }
t0=$(date +%s)
wait_for 60 idle
echo "# idle after $(( $(date +%s) - t0 )) s"
sc events >"$T/left.events" 2>&1
for i in $(ns_ids | sort); do
	printf '%s\n' "$before" | grep -qx "$i" && continue
	grep -q " create .*$i" "$T/left.events" || echo "$i" >>"$T/left.ids"
done
check "creates whose client left: no space stands unannounced ($(cat "$T/left.ids" | tr '\n' ' '))" \
    test ! -s "$T/left.ids"
made=$(sed -n 's/.*space \([0-9a-f]\{12\}\): cancelled (the client left): removing it.*/\1/p' "$sd/log" | sort -u)
check "  the creates did make spaces, then removed them (control: $(echo $made))" \
    test -n "$made"
clean=yes
for i in $made; do
	[ ! -e "$NS_STATE/$i" ] || clean="no: folder $i"
	for c in memory pids; do
		for g in "$i" "$i-gk"; do
			[ ! -e "$(ns_cg $c "$g")" ] || clean="no: cgroup $c/$g"
		done
	done
	[ -z "$(ns_pids "$i" space; ns_pids "$i" gatekeeper)" ] ||
	    clean="no: processes of $i"
	echo "$i" >>"$T/ids"
done
check "  each went cleanly: folder, cgroups, processes ($clean)" test "$clean" = yes
# The creates spaced answered before their clients left stand, announced,
# and followed: the journal collects their gatekeeper's records with
# nobody asking (collect.c), as any create's.  One such create for sure:
# its client leaves once its space was announced.
creates() { sc events 2>/dev/null | grep -c ' create '; }
n0=$(creates)
python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" \
    space-leave 107 600000 >/dev/null 2>&1 &
late=$!
announced() { [ "$(creates)" -gt "$n0" ]; }
check "a create whose client leaves after its answer: announced" \
    wait_for 60 announced
kill "$late" 2>/dev/null; wait "$late" 2>/dev/null
idle && wait_for 60 idle
# stored ID TAG: the record is in the store's files (read as root).
stored() { cat "$sd/store/"*"-$1".journal* 2>/dev/null |
    grep -q "	$2\.left\.example	"; }
unfollowed=
nstand=0
for i in $(ns_ids); do
	printf '%s\n' "$before" | grep -qx "$i" && continue
	nstand=$((nstand + 1))
	stored "$i" "m$i" && unfollowed="$unfollowed $i(before)"
	# a CONNECT its gatekeeper refuses: a record of its own
	sc exec "$i" -- curl -s -o /dev/null --max-time 8 \
	    -x http://127.0.0.1:3128 -p "https://m$i.left.example/" \
	    >/dev/null 2>&1
	wait_for 30 stored "$i" "m$i" || unfollowed="$unfollowed $i"
done
check "  the spaces that stand ($nstand) are followed: their records collected unasked (${unfollowed:-all})" \
    test "$nstand" -ge 1 -a -z "$unfollowed"
for i in $(ns_ids); do
	printf '%s\n' "$before" | grep -qx "$i" || sc remove "$i" >/dev/null
done

# --- a restart of spaced ------------------------------------------------
sc remove "$B" >/dev/null
stop_spaced
gone() { [ -z "$(ns_pids "$A" space)" ]; }
check "spaced stopped: the native space's processes went with spaced-ns" \
    wait_for 30 gone
check "  its record stays" test -s "$NS_STATE/$A/record"
if ! start_spaced "$T/sd"; then
	not_ok "spaced starts again"; finish
fi
check "the restarted spaced lists the space exited" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show '$A' | jq -e '.state == \"exited\"' >/dev/null"
check "start brings it back" sc start "$A"
check "  and an exec runs in it" \
    test "$(sc exec "$A" -- echo back 2>&1)" = back
sc remove "$A" >/dev/null
finish
