#!/bin/sh
# Many slow operations at once through spaced: a stand-in Engine
# (regress/tools/fake_engine) answers each request after 1 s; ten checks in
# flight must end in about the time of one while pings keep answering, a
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
# elapsed seconds of a command, to two decimals
timed() {
	python3 -c 'import subprocess, sys, time
t = time.time(); r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print("%.2f" % (time.time() - t)); sys.exit(r.returncode)' "$@"
}

mkdir -p "$tree/engine"
"$build/regress/tools/fake_engine" -d 1000 "$tree/engine" >"$tree/engine.out" &
engine_pid=$!
wait_for 5 grep -q ready "$tree/engine.out"
SPACED_EXTRA_CONF="docker socket \"$tree/engine/ok.sock\""
check "spaced starts against the stand-in Engine" start_spaced "$sd"
base_docker_fds=$(docker_fds)

one=$(timed "$tree/bin/spacectl" -s "$sd/run/spaced.sock" check)
echo "# one check: $one s"
check "one check takes the Engine's delay (positive control: it is slow)" \
    python3 -c "import sys; sys.exit(not 0.9 <= $one < 3)"

# --- ten at once, with pings meanwhile --------------------------------
raw checks 10 >"$tree/ten.out" &
ten_pid=$!
slow=0; n=0
while kill -0 "$ten_pid" 2>/dev/null; do
	p=$(timed "$tree/bin/spacectl" -s "$sd/run/spaced.sock" ping docker) ||
	    p=99
	n=$((n + 1))
	python3 -c "import sys; sys.exit(not $p < 0.3)" || slow=$((slow + 1))
done
wait "$ten_pid"
echo "# ten checks: $(cat "$tree/ten.out"); $n pings meanwhile, $slow over 0.3 s"
check "ten checks in flight all answer available" \
    grep -q "^10 available" "$tree/ten.out"
check "ten checks end in about the time of one (under 2.5 s)" sh -c \
    "python3 -c \"import sys; sys.exit(not float('$(awk '{print $4}' "$tree/ten.out")') < 2.5)\""
check "pings were answered meanwhile, each within 0.3 s" \
    sh -c "[ $n -ge 2 ] && [ $slow -eq 0 ]"

# --- a client that leaves mid-check ------------------------------------
raw checks 5 leave >/dev/null
check "the leaver's checks are cancelled: spaced's table is empty again" \
    wait_for 3 sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq '.processes[0].requests')\" -eq 1 ]"
check "and spaced-docker holds no Engine connection for them" \
    wait_for 3 sh -c "[ \$(ls /proc/\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq '.processes[1].pid')/fd | wc -l) -eq $base_docker_fds ]"
check "spaced serves a check after it" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' check | grep -q available"
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
