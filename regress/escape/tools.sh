#!/bin/sh
# The escape suite's tools-volume attempts (spec "Tests": the tools
# attempts), inside a real space whose agent runs from its tools volume:
# first proof that the server runs from the mount; then ten ways to
# write to it, each of which must fail with "Read-only file system" and
# nothing else, and a fingerprint of the mount that must not change.
# The filler's uid owns the files, so "Permission denied" would stop
# the space user on a writable mount too: the control runs the same ten
# attempts as the same user on a writable mount of the same volume and
# requires that none of them answers "Read-only file system" (and none
# works), so the answer inside is the mount's.  Appending to an existing
# file is answered by its ownership first even on a read-only mount:
# that one accepts both answers and says it proves the ownership.
. "$(dirname "$0")/../agent/hostile.sh"
SPACED_AGENT_CONF=$(profile "")
. "$(dirname "$0")/../contract/lib.sh"

TD=/opt/spaced-tools
TC=$TD/fill	# the fill, in its folder (issue 27)
check "tools fill (packed test agent)" sc tools fill
id=$(sc create -n escape-tools) || { not_ok "create"; finish; }
vol=$(api GET "/containers/spaced-space-$id-space/json" |
    jq -r --arg d "$TD" '.Mounts[] | select(.Destination == $d) | .Name')
check "the space mounts a tools volume at $TD ($vol)" test -n "$vol"

# The server runs from the mount.
check "the agent's program runs from the mount" sc exec "$id" -- \
    /bin/sh -c "test -x $TC/node_modules/.bin/hostile-server"
check "the running server was started from it" sc exec "$id" -- /bin/sh -c \
    "grep -l 'spaced-tools/fill/node_modules/.bin/hostile-server' /proc/[0-9]*/cmdline | grep -q ."

FP="find $TD -printf '%p %y %m %U %s %T@\n' | sort | sha256sum | cut -d' ' -f1"
ATTEMPTS='
try() { w=$1; shift; if "$@" 2>/tmp/e; then echo "$w WORKED"; else echo "$w $(head -1 /tmp/e)"; fi; }
d=$1; p=$d/package.json; m=$d/node_modules
try create touch $d/new
try overwrite sh -c ": > $p"
try replace cp /etc/hostname $p
try delete rm -f $p
try rename mv $p $d/moved
try chmod chmod 777 $p
try mkdir mkdir $d/newdir
try symlink ln -s /tmp $d/link
try unlink-module rm -rf $m/spaced-hostile-server
try node-write node -e "try { require(\"fs\").writeFileSync(\"$d/n\", \"x\") } catch (e) { console.error(e.message); process.exit(1) }"
try append sh -c "echo x >> $p"
try remount python3 -c "$REMOUNT" $d
'
# mount(2) itself: mount(8) refuses a user by itself, whatever the mount.
REMOUNT='import ctypes, os, sys
l = ctypes.CDLL(None, use_errno=True)
r = l.mount(None, sys.argv[1].encode(), None, ctypes.c_ulong(32 | 4096), None)
r and sys.exit(os.strerror(ctypes.get_errno()))'
fp0=$(sc exec "$id" -- /bin/sh -c "$FP")
check "a fingerprint of the mount ($fp0)" test -n "$fp0"
sc exec "$id" -- env REMOUNT="$REMOUNT" /bin/sh -c "$ATTEMPTS" sh "$TC" \
    >"$T/ro" 2>&1
for op in create overwrite replace delete rename chmod mkdir symlink \
    unlink-module node-write; do
	check "tools: $op fails with Read-only file system" \
	    grep -qi "^$op .*read-only file system" "$T/ro"
done
check "tools: append is refused (EROFS or EACCES: proves the ownership)" \
    grep -Eq "^append .*(Read-only file system|Permission denied)" "$T/ro"
check "tools: no remount rw (mount(2): Operation not permitted)" \
    grep -qx "remount Operation not permitted" "$T/ro"
check "tools: /proc/mounts shows the mount ro" sc exec "$id" -- /bin/sh -c \
    "awk '\$2 == \"$TD\" { print substr(\$4, 1, 3) }' /proc/mounts | grep -qx ro,"
check "tools: the fingerprint is unchanged" \
    test "$(sc exec "$id" -- /bin/sh -c "$FP")" = "$fp0"

# The control: the same user, the same attempts, a writable mount of the
# same volume in a plain container of the space image, no network.
img=$(api GET "/containers/spaced-space-$id-space/json" | jq -r .Config.Image)
docker run --rm --network none -u 10000:10000 --entrypoint /bin/sh \
    -e REMOUNT="$REMOUNT" -v "$vol:$TD" "$img" -c "$ATTEMPTS" sh "$TC" \
    >"$T/rw" 2>&1
# The remount's control: root with CAP_SYS_ADMIN and no seccomp filter
# remounts the same read-only mount rw.
docker run --rm --network none -u 0 --cap-add SYS_ADMIN \
    --security-opt apparmor=unconfined --security-opt seccomp=unconfined \
    -v "$vol:$TD:ro" --entrypoint python3 "$img" -c "$REMOUNT" "$TD" \
    >"$T/remount" 2>&1 && echo "remount WORKED" >>"$T/remount"
check "tools control: root with CAP_SYS_ADMIN remounts it rw" \
    grep -qx "remount WORKED" "$T/remount"
for op in create overwrite replace delete rename chmod mkdir symlink \
    unlink-module node-write; do
	check "tools control: on a writable mount, $op is refused by ownership, not the mount" sh -c \
	    "grep -q '^$op ' '$T/rw' && ! grep -qi '^$op .*read-only file system' '$T/rw' && ! grep -q '^$op WORKED' '$T/rw'"
done
check "tools control: nothing changed through the writable mount either" \
    test "$(sc exec "$id" -- /bin/sh -c "$FP")" = "$fp0"
check "the server still answers after all this" sc server "$id" GET /

check "remove" sc remove "$id"
for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
rm -rf "$tgzdir"
finish
