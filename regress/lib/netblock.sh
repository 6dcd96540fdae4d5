# A /30 of 198.51.100.0/24 (a documentation range) that no other run
# holds, for a suite's namespace on the far end of a veth pair
# (sourced).  Two runs at once (a helper's beside CI's, two worktrees)
# must not share one: the second's traffic would reach the first's host.
# The lock is one for every user of the range, the agent suites' model
# (agent/lib.sh) and integration/filler-net.sh, whatever tree they run.
netblock_lock=/run/lock/spaced-regress-model.lock

# netblock_free BYTE: the first address of a /30 that holds no address
# of the host and no route of its own: BYTE's block if free, else the
# next free one.  Under netblock_up's lock.
netblock_free() {
	for nb in $(seq $(($1 / 4 * 4)) 4 252) $(seq 0 4 252); do
		[ -z "$(ip -4 -o addr show to "198.51.100.$nb/30")" ] &&
		    [ -z "$(ip -4 route show table all root "198.51.100.$nb/30")" ] &&
		    { echo "$nb"; return 0; }
	done
	return 1
}

# netblock_up NS HOSTLINK PEERLINK WISH: the namespace NS, joined to the
# host by the veth pair HOSTLINK (the host's end) and PEERLINK (in NS),
# on the /30 of the address WISH if no run holds it, else on a free one;
# NB_HOST is the host's end, NB_PEER the namespace's, its default route
# through NB_HOST.  One run at a time from the look to the address on
# its link, so that two never take the same block.
netblock_up() {
	NB_HOST= NB_PEER=
	exec 8>>"$netblock_lock"
	flock -w 60 8
	nb=$(netblock_free "${4##*.}") &&
	NB_HOST=198.51.100.$((nb + 1)) NB_PEER=198.51.100.$((nb + 2)) &&
	ip netns add "$1" && ip link add "$2" type veth peer name "$3" &&
	ip link set "$3" netns "$1" && ip addr add "$NB_HOST/30" dev "$2" &&
	ip link set "$2" up && ip -n "$1" addr add "$NB_PEER/30" dev "$3" &&
	ip -n "$1" link set lo up && ip -n "$1" link set "$3" up &&
	ip -n "$1" route add default via "$NB_HOST"
	nb_rc=$?
	exec 8>&-
	return $nb_rc
}
