# Shared by the contract and escape suites: a private spaced with an
# install id of its own against the real engine, spacectl through it,
# and the sweep that fails a suite when anything with its owner remains.
. "$(dirname "$0")/../integration/lib.sh"

if ! curl -sf --max-time 3 --unix-socket /var/run/docker.sock \
    http://docker/_ping >/dev/null 2>&1; then
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

sc() { ctl "$@"; }

# space_uid ID: the host uid a space runs as with spaced.conf's default
# range, 2000000000-2000999999 (harden_space_uid: first + id % count).
space_uid() { echo $((2000000000 + 0x$1 % 1000000)); }

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

# The end of every suite (at finish): nothing of ours remains.
contract_end() {
	stop_spaced
	# KEEP=1: the log of the suite's spaced survives it, for a look.
	[ -z "${KEEP:-}" ] || cp "$T/sd/log" /tmp/spaced-last.log
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
