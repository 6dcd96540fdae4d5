#!/bin/sh
# Reload and the configuration check (issue 26).  spaced -n prints every
# setting; docs/spaced.conf.example parses to the defaults.  On SIGHUP a
# good file's live settings take effect (spaces per owner, tried with a
# create), a bad file keeps the configuration in force and says why (the
# log, spacectl status), and a setting only a restart changes keeps its
# value and is named, until a reload of the reverted file clears it.  A
# file renamed over spaced.conf (vim, sed -i, mv) is taken as one written
# in place, unless another uid owns it or others may write it.  Needs
# root and Docker; under a minute.
# A mutant's copy of the tree has no images of its own: MOVE_IMAGES.
for f in "${SPACED_BUILD:-build}/images.env" "${MOVE_IMAGES:-}"; do
	[ -r "$f" ] || continue
	. "$f"
	SPACED_EXTRA_CONF="gatekeeper image $GATEKEEPER_IMAGE"
	break
done
. "$(dirname "$0")/../contract/lib.sh"

# --- spaced -n ------------------------------------------------------------
env -i HOME=/root PATH="$PATH" "$tree/sbin/spaced" -n \
    -f "$top/docs/spaced.conf.example" >"$T/ex.out" 2>"$T/ex.err"
check "the example config parses (spaced -n: $(cat "$T/ex.err"))" \
    grep -qx 'configuration OK' "$T/ex.err"
env -i HOME=/root PATH="$PATH" "$tree/sbin/spaced" -n -f /dev/null \
    >"$T/def.out" 2>/dev/null
check "  to the defaults, setting for setting" cmp -s "$T/ex.out" "$T/def.out"
check "  and names every setting ($(grep -c '^[a-z#]' "$T/def.out") lines)" \
    sh -c "for k in socket 'docker socket' 'docker group' 'state directory' \
    'journal store' 'empty directory' 'install id' 'space image' \
    'gatekeeper image' 'default agent' 'tools ca bundle' 'space ca bundle' \
    'code in timeout' 'space uid range' 'space network pool' \
    'space network size' 'spaces per owner' 'default place' trust \
    'journal interval' 'native accept missing limits' \
    'space disk limit' 'space disk sweep'; do grep -q \"^#* *\$k[ :]\" '$T/def.out' || exit 1; done"
printf 'journal interval 0\n' >"$T/bad.conf"
"$tree/sbin/spaced" -n -f "$T/bad.conf" >/dev/null 2>"$T/bad.err"
check "spaced -n refuses a bad file: exit 1 and why" sh -c \
    "test $? = 1 && grep -q 'journal interval: not a number' '$T/bad.err'"

# default agent none (this suite's spaced): no space runs a profile, yet
# spacectl tools -a names the built-in one and fills it, so -n prints it.
"$tree/sbin/spaced" -n -f "$sd/spaced.conf" >"$T/none.out" 2>/dev/null
check "spaced -n with default agent none prints the built-in profile" sh -c \
    "grep -qx 'default agent \"none\"' '$T/none.out' &&
    grep -q '^agent opencode serve ' '$T/none.out'"
check "  which spaced uses: spacectl tools -a opencode shows it" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' tools -a opencode |
    grep -q '^agent opencode: key '"

# --- SIGHUP ---------------------------------------------------------------
conf=$sd/spaced.conf
cp "$conf" "$T/orig.conf"
a=$(sc create -n reload-a) || a=
check "a space ($a)" test -n "$a"
status_line() { sc status | awk '$1 == "spaced"' ; }
check "status says the configuration is as started" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' status | grep -q 'config: as started'"

# A good file: one space an owner, at once.
{ cat "$T/orig.conf"; echo 'spaces per owner 1'; } >"$T/one.conf"
cat "$T/one.conf" >"$conf"	# in place (a rename: below)
kill -HUP "$spaced_pid"
wait_for 10 grep -q 'reload: .*: taken' "$sd/log"
check "a good reload is taken (log)" grep -q 'reload: .*: taken' "$sd/log"
sc status >"$T/st1" 2>&1
check "  and said by status" grep -q 'config: reloaded' "$T/st1"
# Its event in the log named spaced's own as 'uid -1', with two spaces.
check "  its event in the log: spaced's own, no space" \
    grep -q 'event reload - spaced: /' "$sd/log"
lacks "  no event line says uid -1" "$sd/log" 'uid -1'
check "  control: a space's event names its space and uid" \
    grep -q "event create $a uid $(id -u): " "$sd/log"
sc create -n reload-b >/dev/null 2>"$T/b.err"
check "  its live setting holds: a second space is too_many_spaces" \
    grep -q too_many_spaces "$T/b.err"

# A bad file: nothing changes.
printf 'spaces per owner 16\nno such setting\n' >"$conf"
kill -HUP "$spaced_pid"
wait_for 10 grep -q 'reload: .*line 2: unknown setting.*stays' "$sd/log"
check "a bad reload keeps the config in force and says why (log)" \
    grep -q 'reload: .*line 2: unknown setting.*stays' "$sd/log"
sc status >"$T/st2" 2>&1
check "  and status says it failed" grep -q 'config: reload failed' "$T/st2"
sc create -n reload-c >/dev/null 2>"$T/c.err"
check "  the old value stays: still one space an owner" \
    grep -q too_many_spaces "$T/c.err"

# A restart-only setting: named, kept; the live one beside it taken.
{ cat "$T/orig.conf"; echo 'space network size 28'; } >"$conf"
kill -HUP "$spaced_pid"
wait_for 10 grep -q 'change only at a restart (first: space network size)' "$sd/log"
check "a setting only a restart changes is named, and kept" \
    grep -q 'change only at a restart (first: space network size)' "$sd/log"
sc status >"$T/st3" 2>&1
check "  status names it" grep -q 'space network size needs restart' "$T/st3"
b=$(sc create -n reload-b 2>"$T/b2.err") || b=
check "  and the live ones were taken: a second space again ($b)" test -n "$b"

# Reverted (and HUP): nothing needs a restart any more, since a reload
# compares the file with the configuration in force, not the last file.
cat "$T/orig.conf" >"$conf"
kill -HUP "$spaced_pid"
taken() { [ "$(grep -c 'reload: .*: taken' "$sd/log")" -ge "$1" ]; }
wait_for 10 taken 2
sc status >"$T/st4" 2>&1
check "a restart-only setting reverted: reloaded, nothing needs restart" \
    grep -q 'config: reloaded [0-9:]* UTC' "$T/st4"

# A file renamed over it (vim, sed -i, mv) reloads as one written in
# place: spaced-launch opens the path for spaced, which reads no file.
{ cat "$T/orig.conf"; echo 'spaces per owner 2'; } >"$sd/new.conf"
chmod 0644 "$sd/new.conf"
mv "$sd/new.conf" "$conf"
kill -HUP "$spaced_pid"
wait_for 10 taken 3
check "a file renamed over the config is taken" taken 3
c2=$(sc create -n reload-c 2>"$T/c2.err") || c2=
check "  its new value holds: a third space is too_many_spaces" \
    grep -q too_many_spaces "$T/c2.err"
sed -i 's/^spaces per owner 2$/spaces per owner 16/' "$conf"
kill -HUP "$spaced_pid"
wait_for 10 taken 4
check "  and sed -i's rename too" taken 4

# The one rule on a file spaced did not start with: root's or spaced's
# own, written by no one else.  Refused by name, the old value kept.
refused() { [ "$(grep -c 'reload: .*stays' "$sd/log")" -ge "$1" ]; }
{ cat "$T/orig.conf"; echo 'spaces per owner 2'; } >"$sd/new.conf"
chmod 0666 "$sd/new.conf"
mv "$sd/new.conf" "$conf"
kill -HUP "$spaced_pid"
wait_for 10 refused 2
check "a file others may write is refused, and said" grep -q \
    'reload: .*: writable by others than its owner: the configuration in force stays' \
    "$sd/log"
{ cat "$T/orig.conf"; echo 'spaces per owner 2'; } >"$sd/new.conf"
chmod 0644 "$sd/new.conf"
chown 65534 "$sd/new.conf"
mv "$sd/new.conf" "$conf"
kill -HUP "$spaced_pid"
wait_for 10 refused 3
check "a file of another owner is refused, and said" grep -q \
    'reload: .*: owned by uid 65534, not root or spaced: the configuration in force stays' \
    "$sd/log"
c=$(sc create -n reload-c 2>"$T/c3.err") || c=
check "  the old value stays: a third space again ($c)" test -n "$c"

# Its group may write it when that is root's (here) or spaced's own
# group, as a umask of 002 leaves a user's file; another group may not.
{ cat "$T/orig.conf"; echo 'spaces per owner 3'; } >"$sd/new.conf"
chmod 0664 "$sd/new.conf"
chown 0:65534 "$sd/new.conf"
mv "$sd/new.conf" "$conf"
kill -HUP "$spaced_pid"
wait_for 10 refused 4
check "a file another group may write is refused, and said" sh -c \
    "grep 'reload: .*stays' '$sd/log' | tail -n 1 |
    grep -q 'writable by others than its owner'"
{ cat "$T/orig.conf"; echo 'spaces per owner 3'; } >"$sd/new.conf"
chmod 0664 "$sd/new.conf"
chown 0:0 "$sd/new.conf"
mv "$sd/new.conf" "$conf"
kill -HUP "$spaced_pid"
wait_for 10 taken 5
check "a file root's group may write (0664) is taken" taken 5
c4=$(sc create -n reload-d 2>"$T/c4.err") || c4=
check "  its new value holds: a fourth space is too_many_spaces" \
    grep -q too_many_spaces "$T/c4.err"

for s in $a $b $c $c2 $c4; do sc remove "$s" >/dev/null 2>&1; done
finish
