#!/bin/sh
# Many slow operations at once through spaced: a stand-in Engine
# (regress/tools/fake_engine) answers each request after 1 s; ten checks
# must all be in it before the first answers, and pings answer first; a
# client that leaves mid-check frees what it held in spaced and in
# spaced-docker, and a compromised spaced-git cannot answer another
# client's pending check.  Needs root (the workers' users).
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (the workers run under their own users)"
	finish
fi
sh "$top/tools/users.sh" >/dev/null
make_tree
trap 'stop_spaced; kill $engine_pid 2>/dev/null; rm -rf "$tree"' EXIT
sd=$tree/s1
raw() { python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" "$@"; }
count() { ctl -j status | jq ".processes[0].$1"; }
docker_fds() {
	ls "/proc/$(ctl -j status | jq '.processes[1].pid')/fd" | wc -l
}
# Checks begun: the GET /version the stand-in Engine read (a byte each).
engine_checks() { stat -c %s "$tree/engine/versions" 2>/dev/null || echo 0; }

mkdir -p "$tree/engine"
"$build/regress/tools/fake_engine" -d 1000 "$tree/engine" >"$tree/engine.out" &
engine_pid=$!
wait_for 5 grep -q ready "$tree/engine.out"
SPACED_EXTRA_CONF="docker socket \"$tree/engine/ok.sock\""
check "spaced starts against the stand-in Engine" start_spaced "$sd"
base_docker_fds=$(docker_fds)

# Order, not time (the times are regress/bench/ctl_rtt.sh's): all ten
# checks reach the Engine before the first answers (it answers each after
# 1 s), and pings answer before the first check does.
before=$(engine_checks)
check "one check answers available" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' check | grep -q available"
check "the Engine counted it as one check begun (positive control of the count)" \
    test "$(engine_checks)" -eq $((before + 1))

# --- ten at once, with pings meanwhile --------------------------------
before=$(engine_checks)
RAW_FIRST=$tree/first RAW_COUNT=$tree/engine/versions raw checks 10 \
    >"$tree/ten.out" &
ten_pid=$!
n=0; early=0; failed=0
while kill -0 "$ten_pid" 2>/dev/null; do
	"$tree/bin/spacectl" -s "$sd/run/spaced.sock" ping docker \
	    >/dev/null 2>&1 || failed=$((failed + 1))
	n=$((n + 1))
	[ -e "$tree/first" ] || early=$((early + 1))
done
wait "$ten_pid"
echo "# ten checks: $(cat "$tree/ten.out"); $n pings meanwhile, $early before the first check answered"
check "ten checks in flight all answer available" \
    grep -q "^10 available" "$tree/ten.out"
check "all ten were in the Engine before the first answered (side by side)" \
    test "$(cat "$tree/first" 2>/dev/null)" = $((before + 10))
check "every ping meanwhile answered" test "$failed" -eq 0
check "a ping answered before the first check did (not queued behind them)" \
    test "$early" -ge 1
check "a ping after the ten is seen after (positive control of the order)" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' ping docker >/dev/null && test -e '$tree/first'"

stop_spaced

# --- a client that leaves mid-check ------------------------------------
# Against the Engine that never answers, so that only a cancel ends the
# checks (an answer after 1 s would free them as well; the operation's
# own timeout logs no cancel): all five are in the Engine before the
# client leaves, and the waits after it guard against a hang.
SPACED_V=-v SPACED_EXTRA_CONF="docker socket \"$tree/engine/stall.sock\""
check "spaced starts against the Engine that never answers" start_spaced "$sd"
SPACED_V=
base_docker_fds=$(docker_fds)
before=$(engine_checks)
# python3 itself in the background: its pid is the client that leaves
python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" \
    checks 5 >/dev/null 2>&1 &
leaver=$!
engine_has() { [ "$(engine_checks)" -ge "$1" ]; }
check "the leaver's five checks are in the Engine (positive control)" \
    wait_for 60 engine_has $((before + 5))
kill "$leaver"; wait "$leaver" 2>/dev/null
cancelled() { [ "$(grep -c 'docker: check: cancelled (peer' "$sd/log")" -ge "$1" ]; }
check "the leaver's checks are cancelled in spaced-docker" \
    wait_for 60 cancelled 5
requests_are() { [ "$(count requests)" = "$1" ]; }
check "spaced's table is empty again" wait_for 60 requests_are 1
fds_are() { [ "$(docker_fds)" -eq "$1" ]; }
check "and spaced-docker holds no Engine connection for them" \
    wait_for 60 fds_are "$base_docker_fds"
check "spaced-docker answers after it" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' ping docker >/dev/null"
stop_spaced

# --- a compromised spaced-git and another client's pending check -------
# The Engine stalls, so the check stays pending in spaced-docker; the
# hostile worker forges check answers for the requests before its own.
cp "$build/regress/tools/hostile-worker" "$tree/libexec/spaced/spaced-git"
SPACED_EXTRA_CONF="docker socket \"$tree/engine/stall.sock\""
check "spaced starts with the hostile worker" start_spaced "$sd"
# Watched from /proc, not asked: a request between the victim's and the
# probe would take the id the hostile worker tries first.
dpid=$(ctl -j status | jq '.processes[1].pid')
dfds=$(ls "/proc/$dpid/fd" | wc -l)
ctl -j check >"$tree/victim.out" 2>&1 &
victim=$!
check "the victim's check is pending in spaced-docker (positive control)" \
    wait_for 3 sh -c "[ \$(ls /proc/$dpid/fd | wc -l) -gt $dfds ]"
ctl probe git socket >/dev/null 2>&1
check "spaced stops at the forged answer" \
    wait_for 5 sh -c "! kill -0 $spaced_pid"
stop_spaced
wait "$victim" 2>/dev/null
said_who() {
	grep -q "git: answer 65 .* is not one check takes\|git answered 65 for request [0-9]*, which waits for no answer of it" "$sd/log" ||
	    { sed 's/^/#   /' "$sd/log"; return 1; }
}
check "and says which worker lied" said_who
check "the victim never saw the forged answer" \
    sh -c "! grep -q forged '$tree/victim.out'"

finish
