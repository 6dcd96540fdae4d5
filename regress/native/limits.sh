#!/bin/sh
# A limit the host cannot give (issue 25): spaced runs in a mount
# namespace of its own where the pids controller is an empty tmpfs, as
# on a host without it.  check names it, create refuses, spaced.conf's
# "native accept missing limits" lets create go on, verify names it,
# and the space's processes are still found and ended (the memory
# group holds them).  The host's own controllers are the control.
# And spaced started under umask 077 (a hardened root's) still makes
# a native space: spaced-ns's folders were 0700, its gatekeeper's exec
# refused.
. "$(dirname "$0")/lib.sh"

native_begin limits

# spaced in a mount namespace whose pids controller is an empty tmpfs.
# HIDDEN_PLACE: its default place lines (native by default).
hidden() {
	SPACED_EXTRA_CONF="install id $IID
default place ${HIDDEN_PLACE:-native}${1:+
native accept missing limits $1}"
	start_spaced "$T/sd" unshare -m --propagation private sh -c \
	    'mount -t tmpfs nopids /sys/fs/cgroup/pids && exec "$@"' hide
}

# --- the control: the same spaced with the host's controllers ----------
SPACED_EXTRA_CONF="install id $IID
default place native"
start_spaced "$T/sd" || { not_ok "spaced starts"; finish; }
A=$(sc create -n control) || A=
check "control: with every controller a native space is made" test -n "$A"
check "control: its pids group is on the host" \
    test -f "/sys/fs/cgroup/pids/spaced-ns/$A/pids.max"
check "control: verify is clean" sc verify "$A"
# A group taken away where the host has the controller is no missing
# limit: verify names it as not the record's.
# Again while the space forks a process into it between the move and
# the rmdir (seen once: the rmdir refused, verify clean).
g=/sys/fs/cgroup/pids/spaced-ns/$A
take_group() {
	for p in $(cat "$g/cgroup.procs" 2>/dev/null); do
		echo "$p" >/sys/fs/cgroup/pids/cgroup.procs
	done
	rmdir "$g" 2>/dev/null || [ ! -d "$g" ]
}
check "  control: its pids group is taken away" wait_for 10 take_group
check_refusal "a pids group taken away: verify names pids" 1 \
    'pids.*not the record' sc verify "$A"
sc remove "$A" >/dev/null; A=
stop_spaced

# --- without the pids controller, nothing accepted ----------------------
hidden "" || { not_ok "spaced starts without a pids controller"; finish; }
check "check names the missing limit" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' check 2>&1 | grep -q 'no pids limit'"
check_refusal "create -p native refuses, naming the limit and the setting" \
    1 'sandbox_unavailable.*no pids limit.*native accept missing limits' \
    sc create -p native -n refused
sc create -p native -n refused >"$T/asked" 2>&1
lacks "  it says nothing of the default place (native was asked for)" \
    "$T/asked" 'default place'
# Sent there by spaced.conf's default place, not by the user: it says so.
check_refusal "create naming no place says the default place sent it there, and the way out" \
    1 'sandbox_unavailable.*no pids limit.*named no place.*default place is native \(spaced.conf: default place native\): use -p docker' \
    sc create -n refused
stop_spaced

# --- auto, no engine answering: native, and the refusal says why -------
HIDDEN_PLACE="auto
docker socket $T/no-engine.sock"
hidden "" || { not_ok "spaced starts (auto, no engine)"; finish; }
HIDDEN_PLACE=
check_refusal "auto sent a create to native, Docker not answering: it says so" \
    1 'sandbox_unavailable.*no pids limit.*default place auto chose native, Docker not answering.*start Docker' \
    sc create -n refused
stop_spaced

# --- another limit accepted: still refused ------------------------------
hidden "swap,cpu" || { not_ok "spaced starts (swap,cpu accepted)"; finish; }
check_refusal "accepting other limits does not accept pids" \
    1 'sandbox_unavailable.*no pids limit' sc create -p native -n refused
stop_spaced

# --- accepted: create goes on, verify names it --------------------------
hidden "pids" || { not_ok "spaced starts (pids accepted)"; finish; }
A=$(sc create -n accepted) || A=
check "with pids accepted, create makes the space" test -n "$A"
[ -n "$A" ] || finish
check "it runs a command" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$A' -- echo hi | grep -qx hi"
check_refusal "verify names the missing limit" 1 'pids' sc verify "$A"
sc verify "$A" >"$T/verify" 2>&1
lacks "verify names nothing else (memory, swap, cpu are there)" \
    "$T/verify" -E 'memory|swap|cpu|network'
check "the space has no pids group on the host" \
    test ! -e "/sys/fs/cgroup/pids/spaced-ns/$A"
check "its memory limit is still set" sh -c \
    "[ \$(cat /sys/fs/cgroup/memory/spaced-ns/$A/memory.limit_in_bytes) = \
    \$(cat /sys/fs/cgroup/memory/spaced-ns/$A/memory.memsw.limit_in_bytes) ]"
check "start on the running space is not refused for it" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' start '$A' >/dev/null"
sc exec "$A" -- sh -c 'nohup sleep 4243 >/dev/null 2>&1 &' >/dev/null 2>&1
pids=$(cat "/sys/fs/cgroup/memory/spaced-ns/$A/cgroup.procs")
check "the space's processes are in its memory group" test -n "$pids"
sc remove "$A" >/dev/null; A=
left=
for p in $pids; do [ -d "/proc/$p" ] && left="$left $p"; done
check "remove leaves none of them (found through the memory group)" \
    test -z "$left"
stop_spaced

# --- a disk that fills: the state directory on a tmpfs of 4 MiB ---------
# Only spaced's mount namespace sees it; a space writes there, and a
# create that finds no room says so and leaves nothing.
SPACED_EXTRA_CONF="install id $IID
default place native"
start_spaced "$T/sd" unshare -m --propagation private sh -c \
    'mount -t tmpfs -o size=4m full "$0" && exec "$@"' "$T/sd/state" ||
    { not_ok "spaced starts on a state directory of 4 MiB"; finish; }
in_ns() { nsenter -t "$spaced_pid" -m "$@"; }
A=$(sc create -n filler) || A=
check "control: a space is made on the small disk" test -n "$A"
sc exec "$A" -- sh -c 'head -c 8m /dev/zero >big' >"$T/fill.err" 2>&1
check "  control: a write in it fills the disk" \
    grep -q 'No space left on device' "$T/fill.err"
in_ns ls "$sd/state/native" >"$T/before"
check_refusal "create says the disk is full, where, and what to do" \
    1 "disk_full: no room left on the disk of $sd/state/native: free some there.*spacectl remove" \
    sc create -n refused
in_ns ls "$sd/state/native" >"$T/after"
check "and leaves no folder" cmp -s "$T/before" "$T/after"
sc exec "$A" -- rm -f big
B=$(sc create -n after) || B=
check "  control: with room again, the same create works" test -n "$B"
[ -n "$B" ] && sc remove "$B" >/dev/null
sc remove "$A" >/dev/null; A=
stop_spaced

# --- spaced started under umask 077 (a hardened root's, the unit's UMask=)
# spaced-ns made a space's folders and mount points with the modes it
# asked for less that umask: root's 0700, which the gatekeeper's and the
# space's uids could not search ("exec spaced-gatekeeper: Permission
# denied").  The sections above, under this shell's 022, are the control.
SPACED_EXTRA_CONF="install id $IID
default place native"
start_spaced "$T/sd" sh -c 'umask 077 && exec "$@"' umask ||
    { not_ok "spaced starts under umask 077"; finish; }
check "  control: spaced runs under umask 077" \
    grep -q '^Umask:[[:space:]]*0077' "/proc/$spaced_pid/status"
A=$(sc create -n umask 2>"$T/umask.err") || A=
check "under umask 077 a native space is made ($(cat "$T/umask.err"))" \
    test -n "$A"
check "  it runs a command" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec '$A' -- echo hi | grep -qx hi"
check "  verify is clean (its gatekeeper runs)" sc verify "$A"
[ -n "$A" ] && sc remove "$A" >/dev/null; A=
stop_spaced
finish
