#!/bin/sh
# A space's disk use (issue 27, finding 6).  The engine here cannot cap
# a volume (overlay2 on ext4: --storage-opt size and a local volume's
# size need xfs with pquota), so spaced measures each space (its
# writable layers and its work and home volumes, GET /system/df) every
# "space disk sweep" seconds and stops a running space at "space disk
# limit".  The control first: with a limit of 1T the same write goes on
# and the space runs through two sweeps; then with 64M it is stopped,
# the log says why, show and verify say it, and the other space, at 80%,
# is warned of and goes on.  A native space (its folders under the
# state directory, walked by spaced-ns) is held to the same limit.
# About a minute.
SPACED_EXTRA_CONF="space disk limit 1T
space disk sweep 1"
SPACED_V=-v	# each sweep's line is a debug one
. "$(dirname "$0")/../contract/lib.sh"

LIMIT=67108864
state() { api GET "/containers/spaced-space-$1-space/json" | jq -r .State.Status; }
# a native space's state, from spaced's own list
nstate() { sc -j show "$1" | jq -r .state; }
nexited() { test "$(nstate "$1")" = exited; }
exited() { test "$(state "$1")" = exited; }
sweeps() { grep -c 'disk: swept' "$T/sd/log"; }
# two_sweeps: wait until two more sweeps than now are in the log
more_sweeps() { test "$(sweeps)" -ge "$1"; }
two_sweeps() { wait_for 60 more_sweeps $(($(sweeps) + 2)); }

sc create -n "disk a" -m 128m >"$T/a" 2>"$T/err"; A=$(cat "$T/a")
sc create -n "disk b" -m 128m >"$T/b" 2>>"$T/err"; B=$(cat "$T/b")
check "two spaces are made ($(cat "$T/err"))" test -n "$A" -a -n "$B"
sc create -p native -n "disk n" -m 128m >"$T/n" 2>"$T/err"; N=$(cat "$T/n")
check "a native space is made ($(cat "$T/err"))" test -n "$N"

# --- the control: a limit far away --------------------------------------
check "A writes 80 MiB into its work folder" \
    sc exec "$A" -- sh -c "head -c 83886080 /dev/zero >/spaces/$A/big && sync"
check "B writes 55 MiB into its home (over 80% of 64 MiB)" \
    sc exec "$B" -- sh -c 'head -c 57671680 /dev/zero >$HOME/big && sync'
check "N (native) writes 80 MiB into its home" \
    sc exec "$N" -- sh -c 'head -c 83886080 /dev/zero >$HOME/big && sync'
check "two sweeps measure them" two_sweeps
check "with a limit of 1T, N still runs (control)" test "$(nstate "$N")" = running
check "with a limit of 1T, A still runs (control)" test "$(state "$A")" = running
check "show says what A uses (80 MiB at least) and the limit" sh -c \
    "$tree/bin/spacectl -s $sd/run/spaced.sock -j show $A |
     jq -e '.disk.used >= 83886080 and .disk.limit == 1099511627776 and
     .disk.over == false' >/dev/null"

# --- the limit: 64 MiB --------------------------------------------------
stop_spaced
SPACED_EXTRA_CONF=$(printf '%s\n' "$SPACED_EXTRA_CONF" |
    sed 's/^space disk limit 1T$/space disk limit 64M/')
if ! start_spaced "$T/sd"; then
	not_ok "spaced starts again with a limit of 64M"
	finish
fi
check "A, over its limit, is stopped by spaced" \
    wait_for 60 exited "$A"
check "spaced's log says why" grep -q \
    "disk: space $A of $INSTALL:0 uses [0-9]* bytes, at its limit of $LIMIT: stopped" \
    "$T/sd/log"
# A native space does not outlive its spaced-ns: N starts again.
sc start "$N" >/dev/null 2>&1
check "N, the native space over its limit, is stopped" wait_for 60 nexited "$N"
check "spaced's log says why for N" grep -q \
    "disk: space $N of $INSTALL:0 uses [0-9]* bytes, at its limit of $LIMIT: stopped" \
    "$T/sd/log"
check "A's gatekeeper is stopped too" test "$(api GET \
    "/containers/spaced-space-$A-gatekeeper/json" | jq -r .State.Status)" = exited
sc show "$A" >"$T/show" 2>&1
check "show says A is at its limit" grep -q \
    "^disk: .* of $LIMIT bytes, at its limit: stopped by spaced" "$T/show"
sc verify "$A" >"$T/verify" 2>&1
check "verify names the disk limit" grep -q "disk_limit" "$T/verify"
check "B, at 80%, is warned of in the log" grep -q \
    "disk: space $B of $INSTALL:0 uses [0-9]* bytes, 80% of its limit of $LIMIT" \
    "$T/sd/log"
check "two sweeps later" two_sweeps
check "B goes on running" test "$(state "$B")" = running
check "B still writes" sc exec "$B" -- sh -c 'echo x >$HOME/small'
sc verify "$B" >"$T/verify" 2>&1
check_fails "verify of B names no disk limit" grep -q "disk_limit" "$T/verify"
sc remove "$A" >/dev/null 2>&1
sc remove "$N" >/dev/null 2>&1
sc remove "$B" >/dev/null 2>&1
finish
