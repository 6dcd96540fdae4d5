# Shared by the spaced integration suites: the harness, and a private
# spaced with its own socket, store and chroot under a temporary directory.

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${SPACED_BUILD:-$top/build}
. "$top/regress/lib/harness.sh"
. "$top/regress/lib/ctlversion.sh"

# wait_for seconds command...: poll until the command succeeds, 0.1 s
# apart, for the seconds given but never under WAIT_FLOOR: a wait guards
# against a hang and is no measure (regress/README.md, "Time"), and on a
# loaded machine an event of a second can take many.  wait_short takes
# the seconds as given, for the few checks that rely on a short wait
# (each says why).  A wait that runs out says so, on stderr.
WAIT_FLOOR=${WAIT_FLOOR:-30}
wait_for() {
	w_s=$1; shift
	[ "$w_s" -ge "$WAIT_FLOOR" ] || w_s=$WAIT_FLOOR
	wait_short "$w_s" "$@"
}
wait_short() {
	w_limit=$(($1 * 10)); shift
	w_i=0
	until "$@" 2>/dev/null; do
		w_i=$((w_i + 1))
		if [ $w_i -ge $w_limit ]; then
			echo "# wait: $((w_limit / 10)) s ran out: $*" >&2
			return 1
		fi
		sleep 0.1
	done
}

# pid_alive PID: the process runs (a zombie has ended, though /proc and
# pgrep still show it until its parent waits).
pid_alive() {
	grep -q '^State:[[:space:]]*[^Z]' "/proc/$1/status" 2>/dev/null
}

# http_listen BIND DIR LOG: python's http.server of DIR on BIND, on a
# port the kernel picks (one looked up first and bound after may be
# taken in between by a suite beside), its output in LOG; once it
# answers, http_port is its port and http_pid its pid.
http_listen() {
	(cd "$2" && exec python3 -u -m http.server --bind "$1" 0) >"$3" 2>&1 &
	http_pid=$!
	wait_for 60 grep -q ' port [0-9]' "$3"
	http_port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$3" | head -n 1)
	wait_for 60 curl -s -o /dev/null "http://127.0.0.1:${http_port:-1}/"
}

# A temporary tree with the installed layout, usable by any uid; as
# root, the workers' users too (a suite may be the first on a machine).
make_tree() {
	sh "$top/tools/users.sh" >/dev/null || return 1
	tree=$(mktemp -d /tmp/spaced-test.XXXXXX)
	chmod 0755 "$tree"
	cp -r "$build/sbin" "$build/bin" "$build/libexec" "$tree/"
	# A sanitized build's relay is linked with the ASan runtime, which a
	# space's image lacks: the runner names the normal build's (static,
	# as installed) for the spaces of a san: suite.
	[ -z "${SPACED_SPACE_RELAY:-}" ] ||
	    cp "$SPACED_SPACE_RELAY" "$tree/libexec/spaced/spaced-relay"
	chmod -R a+rX "$tree"
}

# start_spaced dir [runas-prefix...]: a private spaced, its log in dir/log;
# $SPACED_EXTRA_CONF, when set, is added to its configuration (after
# "trust images", which it may override)
start_spaced() {
	sd=$1; shift
	mkdir -p "$sd"
	cat >"$sd/spaced.conf" <<EOC
socket "$sd/run/spaced.sock"
journal store "$sd/store"
empty directory "$sd/empty"
state directory "$sd/state"
${SPACED_AGENT_CONF-default agent none}
# Keys of the runtime and tools volumes that a change of the host's CA
# bundle never moves; a suite of the default says "trust host".
trust images
${SPACED_EXTRA_CONF:-}
EOC
	mkdir -p "$sd/run" && chown --reference="$sd" "$sd/run"
	# A restart in the same directory: the last log must not answer
	# for this spaced before the background shell truncates it.
	: >"$sd/log"
	"$@" env HOME="$sd" XDG_RUNTIME_DIR="$sd/run" \
	    "$tree/sbin/spaced" -d ${SPACED_V:-} -f "$sd/spaced.conf" >"$sd/log" 2>&1 &
	spaced_pid=$!
	# Until it says it is up, or it is gone: a hang guard of 60 s, no
	# measure (spaced itself gives its workers 10 s to be ready, and
	# hashes its relay before: under two lanes and a build beside, more
	# than a 10 s guard allowed).
	s_i=0
	until grep -q "workers confined" "$sd/log" 2>/dev/null; do
		kill -0 "$spaced_pid" 2>/dev/null || return 1
		s_i=$((s_i + 1))
		[ $s_i -ge 600 ] && return 1
		sleep 0.1
	done
	test -S "$sd/run/spaced.sock"
}

ctl() { "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"; }

# The pids of spaced's workers, from spacectl status as root.
worker_pids() { ctl status | awk 'NR > 1 && $1 != "spaced" { print $2 }'; }

stop_spaced() {
	[ -n "${spaced_pid:-}" ] || return 0
	kill "$spaced_pid" 2>/dev/null
	# Bounded: a spaced that cannot stop fails a check, it does not hang
	# the suite (a zombie has stopped: it waits for our wait).  60 s: it
	# stops its workers and waits for each, slow on a loaded machine.
	s_i=0
	while pid_alive "$spaced_pid"; do
		s_i=$((s_i + 1))
		if [ $s_i -ge 600 ]; then
			echo "# spaced $spaced_pid did not stop in 60 s: SIGKILL"
			kill -9 "$spaced_pid" 2>/dev/null
			break
		fi
		sleep 0.1
	done
	wait "$spaced_pid" 2>/dev/null
	spaced_pid=
	# A sanitized build (make SANITIZE=1): a report of any of its
	# processes ends that process, and what spaced's workers print goes
	# to this log; a death nobody checked must not pass unseen.  ok and
	# not_ok, not check: stop_spaced may run inside another check.
	if nm -D "$tree/sbin/spaced" 2>/dev/null | grep -q __asan_init; then
		if grep -Eq 'runtime error:|ERROR: AddressSanitizer|ERROR: LeakSanitizer' \
		    "$sd/log"; then
			not_ok "sanitizers: no report in spaced's log" \
			    "$(grep -E -A12 'runtime error:|Sanitizer' "$sd/log" |
			    head -n 40)"
		else
			ok "sanitizers: no report in spaced's log"
		fi
	fi
}

# --- Plain local users and their repositories, as root
# (spaced-gitusers.sh, spaced-gitfair.sh).  plain_users name...: local
# users of the suite's own, no home, no login; its cleanup ends their
# processes with plain_users_kill before stop_spaced and removes them
# with plain_users_del after.  The suite's temporary folder is $work.
plain_made=""
plain_users() {
	command -v useradd >/dev/null || { skip "no useradd"; finish; }
	for pu_u; do
		useradd --no-create-home --home-dir /nonexistent \
		    --shell /usr/sbin/nologin --user-group "$pu_u" ||
		    { not_ok "useradd $pu_u"; finish; }
		plain_made="$plain_made $pu_u"
	done
}
plain_users_kill() {
	for pu_u in $plain_made; do pkill -KILL -u "$pu_u" 2>/dev/null; done
}
plain_users_del() {
	for pu_u in $plain_made; do
		userdel "$pu_u" 2>/dev/null
		getent group "$pu_u" >/dev/null && groupdel "$pu_u" 2>/dev/null
	done
}

# plain_as who command...: the command as who, its own group alone
plain_as() {
	pu_w=$1; shift
	setpriv --reuid="$pu_w" --regid="$(id -g "$pu_w")" --clear-groups "$@"
}
plain_ctl() {
	pu_w=$1; shift
	plain_as "$pu_w" "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"
}
# plain_inst who dir: the pid of who's spaced-git for dir
plain_inst() { pgrep -u "$1" -f "^spaced-git -g $2\$"; }

# plain_repo dir owner: a copy of a repository of one commit, made once
plain_repo() {
	[ -d "$work/proto" ] || { git init -q "$work/proto" &&
	    (cd "$work/proto" && git -c user.name=t -c user.email=t@t.invalid \
	    commit -q --allow-empty -m one); } || return 1
	rm -rf "$1"; cp -a "$work/proto" "$1"; chown -R "$2" "$1"
}

# spaced's requests in flight (its row of status) are at least n
requests_at_least() {
	[ "$(ctl status | awk '$1 == "spaced" { print $6 }')" -ge "$1" ]
}
# plain_hold who dir: a spaced-git for dir, stopped, with a files request
# of who's in its channel (busy: nothing frees it while the request
# waits).  The client's pid goes to $plain_holders and to
# $work/pids/<dir's name>, its answer beside it.
plain_holders=""
plain_nholds=0
plain_hold() {
	plain_ctl "$1" files "$2" >/dev/null 2>&1 || return 1
	pu_p=$(plain_inst "$1" "$2")
	[ -n "$pu_p" ] || return 1
	kill -STOP $pu_p
	pu_n=$(basename "$2")
	mkdir -p "$work/pids"
	# A simple command, so that $! is spacectl itself (a function
	# would leave it running behind a subshell a kill misses).
	setpriv --reuid="$1" --regid="$(id -g "$1")" --clear-groups \
	    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" -j files "$2" \
	    >"$work/pids/$pu_n.out" 2>&1 &
	echo $! >"$work/pids/$pu_n"
	plain_holders="$plain_holders $!"
	# Busy only once its request is in: spaced counts it (and the
	# status request asking).
	plain_nholds=$((plain_nholds + 1))
	wait_for 20 requests_at_least $((plain_nholds + 1))
}

# What an install of a suite's own made in the engine, by its owner
# label (INST:uid): suites run beside others, so only that is theirs.
# owned_rm INST...: its tools volumes (and what mounts them) and its
# runtime volumes, one per relay key, which spaced keeps by design.  A
# runtime volume another run mounts (one key is one name for every
# install of a build) stays: the engine refuses an in-use volume.
owned_rm() {
	for o_i in "$@"; do
		for o_v in $(docker volume ls -q --filter "name=spaced-tools-$o_i"); do
			docker ps -aq --filter "volume=$o_v" |
			    xargs -r docker rm -f >/dev/null 2>&1
			docker volume rm -f "$o_v" >/dev/null 2>&1
		done
		docker network ls -q --filter "name=spaced-tools-$o_i" |
		    xargs -r docker network rm >/dev/null 2>&1
		docker volume ls -q --filter label=spaced.space.role=runtime \
		    --filter "label=spaced.space.owner=$o_i:$(id -u)" |
		    xargs -r docker volume rm >/dev/null 2>&1
	done
}
# owned_left INST...: what still carries an owner label of these
# installs, one a line (kind:name); a runtime volume that only another
# run's containers mount is that run's now (said on stderr, not a line).
owned_left() {
	o_all=$*
	for o_i in "$@"; do
		for o_k in container volume network; do
			case $o_k in
			container) o_f='{{.Names}} {{.Label "spaced.space.owner"}}'
				o_l=$(docker ps -a --format "$o_f") ;;
			*) o_f='{{.Name}} {{.Label "spaced.space.owner"}}'
				o_l=$(docker $o_k ls --format "$o_f") ;;
			esac
			printf '%s\n' "$o_l" | awk -v i="$o_i:" -v k="$o_k" \
			    'index($2, i) == 1 { print k ":" $1 }'
		done
	done | while read -r o_x; do
		case $o_x in
		volume:spaced-runtime-*)
			o_m=$(docker ps -a --filter "volume=${o_x#volume:}" \
			    --format '{{.Label "spaced.space.owner"}}')
			o_ours=
			for o_i in $o_all; do
				printf '%s\n' "$o_m" | grep -q "^$o_i:" && o_ours=1
			done
			if [ -n "$o_m" ] && [ -z "$o_ours" ]; then
				echo "# ${o_x#volume:} is mounted by another run" >&2
				continue
			fi ;;
		esac
		echo "$o_x"
	done
}
# owned_end INST...: at a suite's end, with its spaced stopped: what the
# installs made is removed (owned_rm) and nothing of theirs is left.  The
# controls: a runtime volume planted with the first install's labels is
# seen, then removed; one planted with another install's labels stays.
owned_end() {
	o_ours=spaced-runtime-ctl$(printf %s "$1" | cut -c1-12)
	o_theirs=spaced-runtime-other$$
	docker volume create --label spaced.space=true \
	    --label spaced.space.role=runtime \
	    --label "spaced.space.owner=$1:$(id -u)" "$o_ours" >/dev/null
	docker volume create --label spaced.space=true \
	    --label spaced.space.role=runtime \
	    --label "spaced.space.owner=0other$$:$(id -u)" "$o_theirs" >/dev/null
	o_tmp=$(mktemp)
	owned_left "$@" >"$o_tmp"
	check "control: the sweep sees a runtime volume with this run's labels" \
	    grep -qx "volume:$o_ours" "$o_tmp"
	owned_rm "$@"
	check "another install's runtime volume is never swept" \
	    sh -c "docker volume inspect '$o_theirs' >/dev/null"
	docker volume rm "$o_theirs" >/dev/null
	owned_left "$@" >"$o_tmp"
	sed 's/^/# left: /' "$o_tmp"
	check "nothing with this run's owner labels is left (containers, volumes, networks)" \
	    test ! -s "$o_tmp"
	rm -f "$o_tmp"
}
