# Shared by the contract and escape suites: a private spaced with an
# install id of its own against the real engine, spacectl through it,
# and the sweep that fails a suite when anything with its owner remains.
. "$(dirname "$0")/../integration/lib.sh"

# PLACE: the place the suite drives (SPACED_TEST_PLACE, docker by
# default); what a check reads behind spaced is read from it (below).
PLACE=${SPACED_TEST_PLACE:-docker}
[ "$PLACE" != auto ] || PLACE=docker
docker_up() {
	curl -sf --max-time 3 --unix-socket /var/run/docker.sock \
	    http://docker/_ping >/dev/null 2>&1
}
if [ "$PLACE" = native ]; then
	# Its runtime is the kernel's namespaces and cgroups, as root.
	if [ "$(id -u)" != 0 ]; then
		skip "the native place needs root (namespaces and cgroup groups)"
		finish
	fi
elif ! docker_up; then
	echo "# no Docker daemon answers: these suites need one (make check starts it)"
	not_ok "a Docker engine answers"
	finish
fi

INSTALL=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
OWNER_ROOT=$INSTALL:0
T=$(mktemp -d /tmp/spaced-contract.XXXXXX)
chmod 0755 "$T"
make_tree
# A suite may change the tree before spaced starts (its own relay key).
if command -v contract_tree >/dev/null 2>&1; then contract_tree; fi
# SPACED_TEST_PLACE=native runs the same suite against the native place
# (auto, the default, is Docker where an engine answers).
SPACED_EXTRA_CONF="install id $INSTALL
default place ${SPACED_TEST_PLACE:-auto}
${SPACED_EXTRA_CONF:-}"
# SPACED_WRAP: a command spaced runs under (spaced-unit.sh: the unit's bounds).
if ! start_spaced "$T/sd" ${SPACED_WRAP:-}; then
	echo "# spaced did not start:"; sed 's/^/# /' "$T/sd/log"
	not_ok "spaced starts"; finish
fi

# sc: spacectl through this spaced; on the native place each call
# notes the spaces the state holds then, for the leftover sweep.
sc() {
	ctl "$@"
	_sc_r=$?
	[ "$PLACE" != native ] || ns_ids >>"$T/ids"
	return $_sc_r
}

# space_uid ID: the host uid a space runs as.  Docker: spaced.conf's
# default range, 2000000000-2000999999 (harden_space_uid: first + id %
# count); native: 0x50000000 and the id's low 24 bits (worker-ns/ns.h).
space_uid() {
	case $PLACE in
	native) echo $((0x50000000 | 0x${1#??????})) ;;
	*) echo $((2000000000 + 0x$1 % 1000000)) ;;
	esac
}

# host_uid ID: the host uid of a command spaced runs in the space: its
# uid inside, through the space's own uid map (Docker's maps each uid to
# itself; native's maps the space user alone).
host_uid() {
	sc exec "$1" -- sh -c 'u=$(id -u); awk -v u="$u" \
	    "u >= \$1 && u < \$1 + \$3 { print u - \$1 + \$2 }" /proc/self/uid_map'
}

# log_of ID ROLE: what a role wrote on its stdout and stderr (Docker:
# the container log; native: the gatekeeper's gk.log)
log_of() {
	case $PLACE in
	native) cat "$NS_STATE/$1/gk.log" ;;
	*) api_get "/containers/spaced-space-$1-$2/logs?stdout=1&stderr=1" ;;
	esac
}
# cg_read ID CONTROLLER FILE: a file of the space's cgroup (Docker: as
# the space sees it; native: the host's, since a native space sees no
# cgroup files)
cg_read() {
	case $PLACE in
	native) cat "$(ns_cg "$2" "$1")/$3" ;;
	*) sc exec "$1" -- cat "/sys/fs/cgroup/$2/$3" ;;
	esac
}
# gk_hostname ID: the hostname the gatekeeper runs under
gk_hostname() {
	case $PLACE in
	native) g_p=$(ns_pids "$1" gatekeeper | head -n 1)
		[ -n "$g_p" ] && nsenter -t "$g_p" -u hostname ;;
	*) api GET "/containers/spaced-space-$1-gatekeeper/json" |
	    jq -r .Config.Hostname ;;
	esac
}
# EXEC_MISSING: an exec of a program that is not there, "STATUS TEXT":
# 127 on both places, as a shell (the engine says 126 for any command it
# could not start; spaced-docker asks it whether the path is there), and
# the words of the place (runc's stat, spaced-ns's exec).
case $PLACE in
native) EXEC_MISSING="127 exec /bin/sh: No such file or directory" ;;
*) EXEC_MISSING="127 stat /bin/sh: no such file or directory" ;;
esac

# tamper_network ID: interfaces given to a space behind spaced's back,
# with the checks that they took; TAMPERED is what verify must name,
# first what it names first.  Docker: a network of the suite's own
# connected to both containers (the space has no engine network: a
# connect is only a record there, and it keeps loopback alone).  Native:
# a tap interface (else a veth pair) made in the space's network
# namespace (its gatekeeper has the host's network by design: nothing
# to add).
# untamper_network ID undoes it.  STOP_KEEPS: a stopped space keeps
# what was changed (Docker's containers); a native stop ends the tree
# and start makes it anew from the record.
case $PLACE in
native) TAMPERED=network; STOP_KEEPS= ;;
*) TAMPERED="gatekeeper_network network"; STOP_KEEPS=1 ;;
esac
tamper=spaced-contract-$INSTALL
tamper_network() {
	case $PLACE in
	native)
		t_p=$(ns_pids "$1" space | head -n 1)
		check "an interface made in the space's network behind spaced's back" \
		    nsenter -t "${t_p:-0}" -n sh -c 'ip tuntap add esc0 mode tap 2>/dev/null ||
		    ip link add esc0 type veth peer name esc1'
		check "  control: the space has an interface beside loopback" \
		    test "$(ifaces_of "$1" space)" -ge 1
		return ;;
	esac
	curl -s -o /dev/null --unix-socket "$DOCKER_SOCK" \
	    -H 'Content-Type: application/json' -d "{\"Name\":\"$tamper\"}" \
	    http://docker/v1.41/networks/create
	check "a network connected to the space behind spaced's back: the engine records it" \
	    test "$(t_connect "spaced-space-$1-space")" = 200
	check "  yet the space has loopback alone (no engine network: nothing to plumb)" \
	    test "$(ifaces_of "$1" space)" = 0
	check "a network connected to the gatekeeper behind spaced's back" \
	    test "$(t_connect "spaced-space-$1-gatekeeper")" = 200
	check "  control: the gatekeeper has its bridge and the new one" \
	    test "$(ifaces_of "$1" gatekeeper)" = 2
}
t_connect() {
	curl -s -o /dev/null -w '%{http_code}' --unix-socket "$DOCKER_SOCK" \
	    -H 'Content-Type: application/json' -d "{\"Container\":\"$1\"}" \
	    "http://docker/v1.41/networks/$tamper/connect"
}
untamper_network() {
	case $PLACE in
	native)
		t_p=$(ns_pids "$1" space | head -n 1)
		[ -z "$t_p" ] || nsenter -t "$t_p" -n ip link del esc0 2>/dev/null
		return ;;
	esac
	for t_r in gatekeeper space; do
		curl -s --unix-socket "$DOCKER_SOCK" -H 'Content-Type: application/json' \
		    -d "{\"Container\":\"spaced-space-$1-$t_r\",\"Force\":true}" \
		    "http://docker/v1.41/networks/$tamper/disconnect" >/dev/null
	done
	api DELETE "/networks/$tamper" >/dev/null
}
# tamper_gone ID: after remove, the suite's network is gone too (Engine
# 20.10 keeps the endpoint of a space without an engine network after
# the disconnect; forced by name now that its container is gone, the
# network goes too).
tamper_gone() {
	[ "$PLACE" != native ] || return 0
	check "gone control: an unknown network is not found" \
	    no_such "/networks/spaced-none-$INSTALL" "^network .* not found$"
	untamper_network "$1"
	check "the suite's own network is gone (404 not found)" \
	    no_such "/networks/$tamper" "^network .* not found$"
}

# --- What a check reads behind spaced, by place ------------------------
# Where a check is about the contract it goes through spacectl; these
# are for what is about a place's own mechanics: Docker's Engine API,
# or the native place's record (state/native/ID/) and cgroups and /proc.
NS_STATE=$T/sd/state/native
ns_cg() { echo "/sys/fs/cgroup/$1/spaced-ns/$2"; }	# CONTROLLER GROUP
# ns_group ID ROLE: the cgroup of a native space's role
ns_group() { [ "$2" = gatekeeper ] && echo "$1-gk" || echo "$1"; }
# ns_pids ID ROLE: the host pids of a role of a native space
ns_pids() { cat "$(ns_cg pids "$(ns_group "$1" "$2")")/cgroup.procs" 2>/dev/null; }
# ns_field ID NAME: a field of a native space's record
ns_field() { sed -n "s/^$2=//p" "$NS_STATE/$1/record" 2>/dev/null; }

# owner_of ID ROLE: the owner a role's resource carries (Docker: its
# label; native: the record, one for both roles, whose role must run).
owner_of() {
	case $PLACE in
	native) [ -n "$(ns_pids "$1" "$2")" ] && ns_field "$1" owner ;;
	*) api GET "/containers/spaced-space-$1-$2/json" |
	    jq -r '.Config.Labels["spaced.space.owner"]' ;;
	esac
}
# role_of ID ROLE: the role the resource says it has
role_of() {
	case $PLACE in
	native) [ -n "$(ns_pids "$1" "$2")" ] && ns_field "$1" id >/dev/null &&
	    echo "$2" ;;
	*) api GET "/containers/spaced-space-$1-$2/json" |
	    jq -r '.Config.Labels["spaced.space.role"]' ;;
	esac
}
# dump_of ID ROLE: everything the place keeps of a role that others
# could read (Docker: the inspect; native: the record and each of the
# role's processes' argv and environment); fails when there is none.
dump_of() {
	case $PLACE in
	native)
		d_p=$(ns_pids "$1" "$2")
		[ -n "$d_p" ] && cat "$NS_STATE/$1/record" || return 1
		for d_q in $d_p; do
			tr '\0' '\n' <"/proc/$d_q/cmdline"
			tr '\0' '\n' <"/proc/$d_q/environ"
		done 2>/dev/null ;;
	*) api_get "/containers/spaced-space-$1-$2/json" ;;
	esac
}
# there ID ROLE, gone ID ROLE: the place holds the role's resource, or
# holds nothing of it (Docker: 404 No such container; native: no
# record, no cgroup, no process).
there() {
	case $PLACE in
	native) test -f "$NS_STATE/$1/record" && test -n "$(ns_pids "$1" "$2")" ;;
	*) api_get "/containers/spaced-space-$1-$2/json" >/dev/null ;;
	esac
}
gone() {
	case $PLACE in
	native)
		test -d "$NS_STATE" && ! test -e "$NS_STATE/$1" || return 1
		for g_c in memory pids cpu; do
			! test -e "$(ns_cg $g_c "$(ns_group "$1" "$2")")" || return 1
		done ;;
	*) no_such "/containers/spaced-space-$1-$2/json" "^No such container" ;;
	esac
}
# stop_behind ID ROLE: the role stopped behind spaced's back; on
# native, done once its group holds no process (asked at each turn of
# the wait: a test -z "$(ns_pids)" was read once, and waited it all out)
ns_none_of() { [ -z "$(ns_pids "$1" "$2")" ]; }
stop_behind() {
	case $PLACE in
	native) for s_p in $(ns_pids "$1" "$2"); do kill -9 "$s_p"; done
		wait_for 10 ns_none_of "$1" "$2" ;;
	*) api POST "/containers/spaced-space-$1-$2/stop?t=1" >/dev/null ;;
	esac
}
# raise_memory ID: the space's memory limit raised to 1 GiB behind
# spaced's back
raise_memory() {
	case $PLACE in
	native)
		r_g=$(ns_cg memory "$1")
		echo 1073741824 >"$r_g/memory.memsw.limit_in_bytes" 2>/dev/null
		echo 1073741824 >"$r_g/memory.limit_in_bytes" &&
		    echo 1073741824 >"$r_g/memory.memsw.limit_in_bytes" ;;
	*) curl -s --unix-socket "$DOCKER_SOCK" -H 'Content-Type: application/json' \
	    -d '{"Memory":1073741824,"MemorySwap":1073741824}' \
	    "http://docker/v1.41/containers/spaced-space-$1-space/update" >/dev/null ;;
	esac
}
# ifaces_of ID ROLE: how many interfaces but loopback a role has, read
# from the host in its first process's network namespace
ifaces_of() {
	case $PLACE in
	native) i_p=$(ns_pids "$1" "$2" | head -n 1) ;;
	*) i_p=$(docker inspect -f '{{.State.Pid}}' "spaced-space-$1-$2") ;;
	esac
	[ -n "$i_p" ] && awk -F: 'NR > 2 && $1 !~ /^ *lo$/ { n++ } END { print n + 0 }' \
	    "/proc/$i_p/net/dev"
}

# api METHOD PATH: the engine, for what a test checks behind spaced
# ($DOCKER_SOCK: a suite that runs an engine of its own points it there).
DOCKER_SOCK=${DOCKER_SOCK:-/var/run/docker.sock}
api() { curl -s --max-time 30 --unix-socket "$DOCKER_SOCK" -X "$1" "http://docker/v1.41$2"; }
# api_get PATH: a list a count is made of; fails on any engine error, so
# that an error never reads as "nothing".
api_get() { curl -sf --max-time 30 --unix-socket "$DOCKER_SOCK" "http://docker/v1.41$1"; }

# no_such PATH ERE: the engine answers 404 with a message that matches
# ERE for PATH (an engine error, a wrong path or another 404 page is not
# absence).  Containers: '^No such container'; networks: 'not found$'.
no_such() {
	_ns=$(curl -s --max-time 30 --unix-socket "$DOCKER_SOCK" \
	    -w '\n%{http_code}' "http://docker/v1.41$1") || return 1
	[ "$(printf '%s\n' "$_ns" | tail -n 1)" = 404 ] &&
	    printf '%s\n' "$_ns" | sed '$d' |
	    jq -e --arg r "$2" '.message | test($r)' >/dev/null
}

# own_volume NAME: a volume with this run's owner label, the positive
# control of a counter that proves absence.
own_volume() {
	curl -sf --max-time 30 --unix-socket "$DOCKER_SOCK" -X POST \
	    -H 'content-type: application/json' \
	    --data "{\"Name\":\"$1\",\"Labels\":{\"spaced.space.owner\":\"$OWNER_ROOT\"}}" \
	    "http://docker/v1.41/volumes/create" >/dev/null
}

# What is left with an owner label of this run (any uid).  The runtime
# volume (role runtime) is shared by every space of the engine and stays
# by design: it is not a leftover.
leftovers() {
	for k in containers/json?all=1 volumes networks; do
		if ! api_get "/$k" >"$T/left.json"; then
			echo "engine-error:${k%%\?*}"
			continue
		fi
		jq -r --arg i "$INSTALL" '
		    (if type == "object" then .Volumes // [] else . end)[] |
		    select((.Labels // {})["spaced.space.owner"] // "" |
		    startswith($i + ":")) |
		    # the runtime volume is shared and stays, by design
		    select((.Labels // {})["spaced.space.role"] != "runtime") |
		    (.Names[0]? // .Name)' "$T/left.json" ||
		    echo "unreadable:${k%%\?*}"
	done
}

sees_control() { leftovers | grep -qx "spaced-control-$INSTALL"; }

# ns_ids: the spaces' folders of the state (its tools/ is none)
ns_ids() { ls "$NS_STATE" 2>/dev/null | grep -x '[0-9a-f]\{12\}'; }
# What is left of the native spaces this run saw: a record, a group
# of a space or its gatekeeper, a process of their host uids (/proc).
ns_leftovers() {
	ns_ids | sed 's/^/record:/'
	for l_i in $(sort -u "$T/ids" 2>/dev/null); do
		for l_g in "$l_i" "$l_i-gk"; do
			for l_c in memory pids cpu; do
				[ ! -e "$(ns_cg $l_c "$l_g")" ] || echo "cgroup:$l_c/$l_g"
			done
		done
		l_u=$(space_uid "$l_i")
		l_k=$((0x51000000 | 0x${l_i#??????}))
		for l_p in /proc/[0-9]*; do
			awk -v a="$l_u" -v b="$l_k" '$1 == "Uid:" &&
			    ($2 == a || $2 == b) { f = 1 } END { exit !f }' \
			    "$l_p/status" 2>/dev/null && echo "process:${l_p#/proc/}"
		done
	done
}
ns_none_left() { [ -z "$(ns_leftovers)" ]; }
sees_record() { ns_leftovers | grep -qx record:000000000000; }
ns_sweep_end() {
	mkdir -p "$NS_STATE/000000000000"
	check "the native sweep sees a record of this run (control)" sees_record
	rmdir "$NS_STATE/000000000000"
	# A removed space's pid 1 may still be reaping (zap_pid_ns_processes)
	# for a moment after remove answered: gone within 10 s is gone.
	wait_for 10 ns_none_left
	left=$(ns_leftovers)
	if [ -n "$left" ]; then
		not_ok "nothing of this run's native spaces remains: $(echo $left)"
	else
		ok "nothing of this run's native spaces remains (records, groups, /proc)"
	fi
}

# The end of every suite (at finish): nothing of ours remains.
contract_end() {
	stop_spaced
	# KEEP=1: the log of the suite's spaced survives it, for a look;
	# KEEP_DIR=DIR: all the suite wrote too (not the tools), in DIR/T.tar.
	[ -z "${KEEP:-}" ] || cp "$T/sd/log" /tmp/spaced-last.log
	[ -z "${KEEP_DIR:-}" ] || { mkdir -p "$KEEP_DIR" && tar -C "$T" \
	    --exclude='*/tools/*' --exclude=sd/run -cf "$KEEP_DIR/T.tar" . \
	    2>/dev/null; }
	if [ "$PLACE" = native ]; then
		ns_sweep_end
		# A native run makes nothing in an engine, if one answers.
		docker_up || { rm -rf "$T" "$tree"; return; }
	fi
	# The control: the sweep sees a volume of this run.
	if own_volume "spaced-control-$INSTALL"; then
		check "the leftover sweep sees a volume of this run (control)" \
		    sees_control
		api DELETE "/volumes/spaced-control-$INSTALL" >/dev/null
	else
		not_ok "the engine makes a control volume"
	fi
	left=$(leftovers)
	if [ -n "$left" ]; then
		not_ok "nothing with this run's owner remains: $(echo $left)"
		# clean up anyway, so one failure does not poison the next run
		for k in $left; do
			k=${k#/}	# a container's name comes with its slash
			api DELETE "/containers/$k?force=1" >/dev/null
			api DELETE "/volumes/$k" >/dev/null
			api DELETE "/networks/$k" >/dev/null
		done
	else
		ok "nothing with this run's owner remains"
	fi
	rm -rf "$T" "$tree"
}
at_finish contract_end
