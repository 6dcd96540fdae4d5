#!/bin/sh
# Faults of the Docker place, through spaced and spacectl against a real
# engine (spec "Rollback": a failed or interrupted create leaves nothing,
# at once or after the next sweep).
#   1. ten creates in flight at once: distinct, verified, removed whole
#   2. spaced-docker killed mid-create; spacectl killed mid-create
#   3. a failed create: an image that does not exist; a gatekeeper image
#      without the gatekeeper (its corridor socket never comes)
#   4. the engine itself killed (SIGKILL) and stalled (SIGSTOP) mid-create:
#      an engine of this suite's own, never the machine's dockerd, which
#      other work shares
# Everything it makes it removes; finish fails the suite when anything
# with its owner remains.  No timed assertions: times are "#" lines.
. "$(dirname "$0")/../contract/lib.sh"

j() { jq -r "$@"; }
# FAULTS_ONLY="concurrent killed failed engine": some parts only.
want() { case " ${FAULTS_ONLY:-all} " in *" all "*|*" $1 "*) return 0;; esac; return 1; }
now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }

# own_count: how many resources with this run's owner exist now (not
# the shared runtime volume); filtered by the engine, so it is quick
# enough to poll.
own_filter=$(printf '{"label":["spaced.space.owner=%s"]}' "$OWNER_ROOT" | jq -sRr @uri)
# An engine error prints "engine-error", never a count: no check that
# compares it with 0 can pass on one.
own_count() {
	if ! api_get "/containers/json?all=1&filters=$own_filter" >"$T/oc.c" ||
	    ! api_get "/volumes?filters=$own_filter" >"$T/oc.v" ||
	    ! api_get "/networks?filters=$own_filter" >"$T/oc.n"; then
		echo engine-error
		return
	fi
	{ jq -r '.[].Id' "$T/oc.c" &&
	  jq -r '.Volumes // [] | .[] |
	      select(.Labels["spaced.space.role"] != "runtime") | .Name' "$T/oc.v" &&
	  jq -r '.[].Id' "$T/oc.n" || echo unreadable
	} | grep -c .
}

# The control: the counter counts a volume of this run, then none.
if own_volume "spaced-control-count-$INSTALL"; then
	check "own_count counts a volume of this run (control)" \
	    test "$(own_count)" = 1
	api DELETE "/volumes/spaced-control-count-$INSTALL" >/dev/null
	check "... and none once it is gone" test "$(own_count)" = 0
else
	not_ok "the engine makes a control volume"
fi

# The pid of this spaced's spaced-docker (from spacectl status as root).
docker_worker_pid() { ctl status | awk '$1 ~ /docker/ { print $2; exit }'; }

# kill_when_started SIG PID: waits (at most 20 s) until the first
# resource of a space of this run exists (the runtime fill does not
# count), then sends SIG to PID: "mid-create".
space_filter=$(printf '{"label":["spaced.space.owner=%s","spaced.space.id"]}' \
    "$OWNER_ROOT" | jq -sRr @uri)
space_started() {
	[ -n "$({ api GET "/networks?filters=$space_filter" | jq -r '.[].Id'
	    api GET "/volumes?filters=$space_filter" | jq -r '.Volumes // [] | .[].Name'
	    } 2>/dev/null)" ]
}
kill_when_started() {
	k_t0=$(now)
	wait_for 20 space_started || echo "# nothing of a space seen in 20 s"
	# counted before: a stopped engine answers no count
	k_n=$(own_count)
	kill "-$1" "$2"
	echo "# SIG$1 to $2 $(ms "$k_t0" "$(now)") ms after the create began, $k_n resource(s) of ours made just before"
}

# sweep: what an operator does after a fault: every listed space of
# this install removed.  Prints the ids it removed.
sweep() {
	for s in $(sc -j list | j 'if type == "array" then .[].id else empty end'); do
		sc -j remove "$s" >"$T/sweep.json" 2>&1
		echo "$s: $(j -c . "$T/sweep.json")"
	done
}

# restart_spaced [extra conf]: a fresh spaced (the last one stopped, if
# it still runs), with the base configuration and what is given.
base_conf=$SPACED_EXTRA_CONF
restart_spaced() {
	stop_spaced
	# the last one's log: kept for a failure's reading
	[ -f "$sd/log" ] && { echo "=== $(date +%T)"; cat "$sd/log"; } >>"$T/spaced-logs"
	SPACED_EXTRA_CONF="$base_conf
${1:-}"
	if ! start_spaced "$sd"; then
		echo "# spaced did not start:"; sed 's/^/# /' "$sd/log"
		return 1
	fi
}

# --- 1. ten creates in flight -----------------------------------------
if want concurrent; then
# A fresh spaced: the ten share one fill of the runtime volume (or find
# it filled), as the creates of a machine that just started would.
t0=$(now)
i=0
while [ $i -lt 10 ]; do
	( sc create -n "c$i" >"$T/c$i.id" 2>"$T/c$i.err"; echo $? >"$T/c$i.rc" ) &
	pids="${pids:-} $!"
	i=$((i + 1))
done
# (not a bare wait: spaced is a child of this shell too)
for p in $pids; do wait "$p"; done
t1=$(now)
echo "# 10 concurrent creates: $(ms "$t0" "$t1") ms wall"
okc=0; ids=
i=0
while [ $i -lt 10 ]; do
	if [ "$(cat "$T/c$i.rc")" = 0 ]; then
		okc=$((okc + 1)); ids="$ids $(cat "$T/c$i.id")"
	else
		echo "# create c$i: rc $(cat "$T/c$i.rc"): $(cat "$T/c$i.err")"
	fi
	i=$((i + 1))
done
check "concurrent: all ten creates succeed ($okc)" test "$okc" = 10
check "concurrent: ten distinct ids" \
    test "$(echo $ids | tr ' ' '\n' | sort -u | grep -c .)" = "$okc"
check "concurrent: ten listed" \
    test "$(sc -j list | j 'length')" = "$okc"
bad=0
for id in $ids; do
	sc verify "$id" >"$T/v" 2>&1 || { bad=$((bad + 1)); echo "# verify $id: $(cat "$T/v")"; }
done
check "concurrent: every one verifies clean" test $bad = 0
t0=$(now)
bad=0
for id in $ids; do
	sc -j remove "$id" >"$T/r.json" 2>&1
	[ "$(j -c '[(.removed | length), (.failed | length)]' "$T/r.json")" = "[6,0]" ] ||
	    { bad=$((bad + 1)); echo "# remove $id: $(cat "$T/r.json")"; }
done
t1=$(now)
echo "# 10 removes one after another: $(ms "$t0" "$t1") ms"
check "concurrent: every remove removed 6, failed 0" test $bad = 0
check "concurrent: nothing remains" test "$(own_count)" = 0
[ "$(own_count)" = 0 ] || sweep | sed 's/^/# swept /'

# Two creates one after the other in one spaced (the first fills the
# runtime volume or finds it; the second finds it ready).
restart_spaced || not_ok "spaced starts again"
for n in first second; do
	sc -j create -n "$n" >"$T/$n.json" 2>&1
	check "in turn: the $n create in one spaced succeeds" \
	    sh -c "jq -re .id '$T/$n.json' >/dev/null 2>&1 || \
	    grep -Eqx '[0-9a-f]{12}' '$T/$n.json'"
	grep -q error "$T/$n.json" && echo "# $n: $(j -c . "$T/$n.json")"
done
sweep | sed 's/^/# swept /'
check "in turn: nothing remains" test "$(own_count)" = 0

fi

# --- 2. spaced-docker killed mid-create ----------------------------------
if want killed; then
restart_spaced || not_ok "spaced starts again"
wpid=$(docker_worker_pid)
echo "# spaced-docker is pid $wpid"
t0=$(now)
timeout 60 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j create -n killed \
    >"$T/k.out" 2>"$T/k.err" &
cpid=$!
kill_when_started KILL "$wpid"
wait $cpid; rc=$?
t1=$(now)
echo "# create answered rc $rc in $(ms "$t0" "$t1") ms: $(cat "$T/k.out" "$T/k.err" | tr '\n' ' ')"
check "worker killed: the create does not hang" test $rc != 124
check "worker killed: the create fails" test $rc != 0
# spaced without a worker stops the others and waits for each before it
# exits (seconds on a loaded machine; 0.3 s was a guess): its end is
# awaited, 60 s, and one still running then has survived.
spaced_ended() {
	! pid_alive "$spaced_pid"
}
if ! wait_for 60 spaced_ended; then
	echo "# spaced survived its worker"
	survived=1
else
	wait "$spaced_pid"; src=$?
	spaced_pid=
	echo "# spaced exited with $src: $(grep -i 'spaced-docker\|exit' "$sd/log" | tail -2 | tr '\n' ' ')"
	survived=0
fi
check "worker killed: spaced survives it or exits with a word in its log" \
    sh -c "test $survived = 1 || grep -q 'spaced-docker.*killed by signal 9' '$sd/log'"
echo "# left behind by the kill: $(own_count) resource(s)"
[ $survived = 1 ] || restart_spaced || not_ok "spaced starts again"
sc -j list >"$T/list.json"
echo "# list after restart: $(j -c '[.[] | {id, state, orphans, damaged}]' "$T/list.json")"
sweep | sed 's/^/# swept /'
check "worker killed: nothing remains after the next sweep" test "$(own_count)" = 0

# spacectl killed mid-create: the client went away, the create must
# still roll back (or finish and be listed) -- nothing may be left
# that the list does not show.
restart_spaced || not_ok "spaced starts again"
# spacectl itself: a kill of timeout(1) would leave its child running
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" create -n left \
    >"$T/l.out" 2>"$T/l.err" &
cpid=$!
kill_when_started KILL "$cpid"
wait $cpid 2>/dev/null
# The cancel rolls the create back: a sweep, the two-second pause, a
# second sweep by name.  Fifteen seconds at most.
none_own() { [ "$(own_count)" = 0 ]; }
wait_for 15 none_own
n_own=$(own_count)
n_listed=$(sc -j list | j 'length')
echo "# client killed: $n_own resource(s) of ours, $n_listed space(s) listed"
check "client killed: nothing is left, or what is left is listed" \
    sh -c "test $n_own = 0 || test $n_listed -gt 0"
check "client killed: nothing remains" test "$n_own" = 0
sweep | sed 's/^/# swept /'
check "client killed: nothing remains after the next sweep" test "$(own_count)" = 0

fi

# --- 3. a failed create leaves nothing -----------------------------------
if want failed; then
restart_spaced 'space image "spaced-nonexistent:1"' ||
    not_ok "spaced starts with a space image that does not exist"
t0=$(now)
sc -j create -n noimage >"$T/f.json" 2>"$T/f.err"; rc=$?
t1=$(now)
echo "# no such image: rc $rc in $(ms "$t0" "$t1") ms: $(cat "$T/f.json" "$T/f.err" | tr '\n' ' ')"
check "no such image: create fails" test $rc != 0
check "no such image: docker_command_failed" \
    grep -q docker_command_failed "$T/f.json" "$T/f.err"
check "no such image: no rollback failures" \
    test "$(cat "$T/f.json" "$T/f.err" | jq -rs '[.[] | .details.rollbackFailures // [] | length] | add // 0' 2>/dev/null)" = 0
check "no such image: nothing remains" test "$(own_count)" = 0

# The space image as gatekeeper: the new space does not verify (the
# image has variables beyond HOME), so create fails at once, named, and
# rolls back.  Bounded by more than the create deadline (120 s): a hang
# is a failure, not a skip.
restart_spaced 'gatekeeper image "spaced-space:latest"' ||
    not_ok "spaced starts with a space image as gatekeeper"
t0=$(now)
timeout 180 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j create -n nogk \
    >"$T/g.json" 2>"$T/g.err"; rc=$?
t1=$(now)
echo "# gatekeeper image without the gatekeeper: rc $rc in $(ms "$t0" "$t1") ms: $(cat "$T/g.json" "$T/g.err" | tr '\n' ' ')"
check "no gatekeeper: create ends by its deadline (rc $rc, not 124)" \
    test $rc != 124
gcode=$(jq -r '.error // empty' "$T/g.json" 2>/dev/null)
check "no gatekeeper: create fails, space_verify_failed ($gcode)" \
    test "$gcode" = space_verify_failed
check "no gatekeeper: nothing remains" test "$(own_count)" = 0
restart_spaced || not_ok "spaced starts again"

fi

# --- 4. the engine killed and stalled mid-create --------------------------
if want engine; then
# Never the machine's dockerd: other work shares it.  An engine of this
# suite's own (its data, exec root, pid file and socket under $E, no
# default bridge, no iptables), the images of this build loaded into it,
# and a spaced pointed at it with "docker socket".  A trap takes it and
# its directories away on any exit.
E=$(mktemp -d /tmp/spaced-flt-engine.XXXXXX)
engine_pid=
# In a network namespace of its own: a dockerd with --bridge none deletes
# the interface docker0 of the namespace it runs in, which would be the
# machine's own (measured: the system engine's default bridge was gone).
# nsenter, not ip netns exec: that one remounts /sys, and the engine
# then finds no devices cgroup.
NS=spaced-flt-$$
ip netns add "$NS" && ip netns exec "$NS" ip link set lo up
had_docker0=0
ip link show docker0 >/dev/null 2>&1 && had_docker0=1
engine_start() {
	nsenter --net="/var/run/netns/$NS" dockerd --data-root "$E/data" \
	    --exec-root "$E/exec" \
	    --pidfile "$E/dockerd.pid" -H "unix://$E/docker.sock" \
	    --bridge none --iptables=false --ip6tables=false \
	    --cgroup-parent "spaced-flt-$$" >>"$E/dockerd.log" 2>&1 &
	engine_pid=$!
	wait_for 60 curl -sf --max-time 1 --unix-socket "$E/docker.sock" \
	    http://docker/_ping -o /dev/null
}
engine_cleanup() {
	[ -n "$E" ] && [ -d "$E" ] || { ip netns del "$NS" 2>/dev/null; return 0; }
	if [ -n "$engine_pid" ] && kill -0 "$engine_pid" 2>/dev/null; then
		kill -CONT "$engine_pid" 2>/dev/null
		for c in $(curl -s --max-time 10 --unix-socket "$E/docker.sock" \
		    "http://docker/containers/json?all=1" | jq -r '.[].Id' 2>/dev/null); do
			curl -s --max-time 10 --unix-socket "$E/docker.sock" -X DELETE \
			    "http://docker/containers/$c?force=1" >/dev/null
		done
		kill "$engine_pid" 2>/dev/null
		e_i=0
		while kill -0 "$engine_pid" 2>/dev/null && [ $e_i -lt 150 ]; do
			e_i=$((e_i + 1)); sleep 0.1
		done
		kill -9 "$engine_pid" 2>/dev/null
		wait "$engine_pid" 2>/dev/null
	fi
	# Its containerd and shims: a shim whose containerd died with the
	# engine outlives it (measured).  Only processes whose command line
	# names this run's own directory $E.
	for c in /proc/[0-9]*/cmdline; do
		tr '\0' ' ' <"$c" 2>/dev/null | grep -qF "$E/exec/" || continue
		p=${c#/proc/}; p=${p%/cmdline}
		kill -9 "$p" 2>/dev/null
	done
	grep " $E" /proc/mounts | awk '{ print $2 }' | sort -r |
	    while read -r m; do umount -l "$m" 2>/dev/null; done
	[ -d "$T" ] && cp "$E/dockerd.log" "$T/dockerd.log" 2>/dev/null
	rm -rf "$E"
	E=
	ip netns del "$NS" 2>/dev/null
}
trap 'engine_cleanup' EXIT
trap 'engine_cleanup; exit 1' INT TERM HUP

# engine_own_count: what of ours the engine holds, once it answers.
ecurl() { curl -s --max-time 10 --unix-socket "$E/docker.sock" "$@"; }

sys_sock=$DOCKER_SOCK
[ -f "$build/images.env" ] && . "$build/images.env"
if [ -z "${SPACE_IMAGE:-}" ] || [ -z "${GATEKEEPER_IMAGE:-}" ]; then
	skip "engine faults: no $build/images.env (make images)"
elif ! command -v dockerd >/dev/null; then
	skip "engine faults: no dockerd binary to run an engine of our own"
elif ! engine_start; then
	echo "# an engine of our own did not start:"; tail -5 "$E/dockerd.log" | sed 's/^/# /'
	not_ok "an engine of this suite's own starts"
else
	ok "an engine of this suite's own starts (pid $engine_pid)"
	t0=$(now)
	docker save "$SPACE_IMAGE" "$GATEKEEPER_IMAGE" |
	    docker -H "unix://$E/docker.sock" load >/dev/null
	t1=$(now)
	echo "# images of this build loaded into it in $(ms "$t0" "$t1") ms"
	DOCKER_SOCK=$E/docker.sock
	econf="docker socket \"$E/docker.sock\"
space image \"$SPACE_IMAGE\"
gatekeeper image \"$GATEKEEPER_IMAGE\""

	# A create against it first, as a control: it works there at all.
	restart_spaced "$econf" || not_ok "spaced starts against our engine"
	sc -j create -n control >"$T/e0.json" 2>&1; rc=$?
	check "our engine: a create works there (control)" test $rc = 0
	[ $rc = 0 ] || echo "# $(j -c . "$T/e0.json" 2>/dev/null || cat "$T/e0.json")"
	sweep | sed 's/^/# swept /'
	check "our engine: nothing remains after the control" test "$(own_count)" = 0

	for fault in KILL STOP; do
		if ! ecurl -f http://docker/_ping -o /dev/null; then
			not_ok "engine SIG$fault: our engine answers before it"
			continue
		fi
		restart_spaced "$econf" || not_ok "spaced starts against our engine"
		t0=$(now)
		( timeout 150 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j \
		    create -n "engine $fault" >"$T/e.json" 2>&1
		  echo $? >"$T/e.rc"; now >"$T/e.end" ) &
		cpid=$!
		kill_when_started "$fault" "$engine_pid"
		if [ $fault = KILL ]; then
			wait "$engine_pid" 2>/dev/null
			# Its containerd goes too (a whole engine that died),
			# and the engine comes back fresh over the same data.
			# (dockerd would wait on a containerd it thinks alive,
			# and time out: measured here, once a zombie stayed.)
			cd_pid=$(cat "$E/exec/containerd/containerd.pid" 2>/dev/null)
			[ -n "$cd_pid" ] && grep -qs "$E" "/proc/$cd_pid/cmdline" &&
			    kill -9 "$cd_pid" 2>/dev/null
			wait_for 10 eval "! pid_alive $cd_pid"
			rm -f "$E/exec/containerd/containerd.pid"
			engine_start || not_ok "engine SIGKILL: our engine starts again"
		else
			sleep 5		# stalled, then it goes on
			kill -CONT "$engine_pid"
		fi
		t1=$(now)
		wait $cpid; rc=$(cat "$T/e.rc")
		echo "# SIG$fault: engine back $(ms "$t0" "$t1") ms after the create began; create answered rc $rc after $(ms "$t0" "$(cat "$T/e.end")") ms: $(j -c . "$T/e.json" 2>/dev/null || cat "$T/e.json")"
		check "engine SIG$fault: the create answers (no hang)" test $rc != 124
		if [ $rc != 0 ]; then
			check "engine SIG$fault: a failed create names a code" \
			    sh -c "jq -re .error '$T/e.json' >/dev/null 2>&1 || \
			    grep -q 'spacectl: [a-z_]*:' '$T/e.json'"
			echo "# SIG$fault: code $(j -r .error "$T/e.json" 2>/dev/null), uncertain $(j -r .details.uncertain "$T/e.json" 2>/dev/null), rollbackFailures $(j -c .details.rollbackFailures "$T/e.json" 2>/dev/null)"
		fi
		if ! kill -0 "$spaced_pid" 2>/dev/null; then
			echo "# spaced exited: $(tail -2 "$sd/log" | tr '\n' ' ')"
			spaced_pid=
		fi
		# The next sweep: spaced again if it left, list, remove.
		restart_spaced "$econf" || not_ok "spaced starts against our engine"
		echo "# SIG$fault: before the sweep $(own_count) resource(s) of ours; listed: $(sc -j list | j -c '[.[] | {id, state, orphans, damaged}]')"
		sweep | sed 's/^/# swept /'
		left=$(own_count)
		check "engine SIG$fault: nothing remains after the next sweep ($left)" \
		    test "$left" = 0
		[ "$left" = 0 ] || ecurl "http://docker/containers/json?all=1" |
		    jq -r '.[] | "# left: " + .Names[0]'
	done
	stop_spaced
	DOCKER_SOCK=$sys_sock
	engine_cleanup
fi

fi

# FAULTS_KEEP=file: the logs of every spaced (and our engine) kept there.
[ -n "${FAULTS_KEEP:-}" ] && cat "$T/spaced-logs" "$sd/log" "$T/dockerd.log" \
    >"$FAULTS_KEEP" 2>/dev/null
if want engine && [ "$had_docker0" = 1 ]; then
	engine_cleanup
	check "the machine's docker0 is still there after an engine of our own" \
	    ip link show docker0
fi
finish
