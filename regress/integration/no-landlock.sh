#!/bin/sh
# spaced on a kernel without Landlock (the Landlock calls fail with
# ENOSYS from a seccomp filter around spaced, see nolandlock.c): a
# worker that may open files by path runs only where a chroot holds it.
# As root every such worker is chrooted, so spaced starts; as a plain
# user nothing holds spaced-git or spaced-journal, so spaced refuses.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (chroots, a second uid)"
	finish
fi
sh "$top/tools/users.sh" >/dev/null
make_tree
trap 'stop_spaced; rm -rf "$tree"' EXIT
cc -o "$tree/nolandlock" "$top/regress/integration/nolandlock.c" -lseccomp ||
    { not_ok "build nolandlock"; finish; }
sd=$tree/s1
pj() { python3 -c "import json,sys; d=json.load(open('$tree/priv.json')); $1"; }

# --- Landlock present: the control ------------------------------------
check "with Landlock, spaced starts" start_spaced "$sd"
ctl -j privileges >"$tree/priv.json"
check "spaced-git is chrooted to the empty directory" pj "
r=[x for x in d['processes'] if x['name']=='spaced-git'][0]
sys.exit(r['root']!='$sd/empty')"
stop_spaced

# --- the helper really hides Landlock ---------------------------------
check "nolandlock hides Landlock (ENOSYS)" sh -c \
    "'$tree/nolandlock' python3 -c 'import ctypes,sys; l=ctypes.CDLL(None,use_errno=True); r=l.syscall(444,None,0,1); sys.exit(not (r==-1 and ctypes.get_errno()==38))'"

# --- root without Landlock: the chroots hold ---------------------------
check "root without Landlock: spaced starts" \
    start_spaced "$sd" "$tree/nolandlock"
ctl -j privileges >"$tree/priv.json"
for p in spaced spaced-git spaced-journal spaced-docker; do
	check "root without Landlock: $p reports none" pj "
r=[x for x in d['processes'] if x['name']=='$p'][0]
sys.exit(not r['landlock'].startswith('unavailable'))"
done
check "root without Landlock: spaced keeps CAP_KILL only (0x20)" pj "
r=[x for x in d['processes'] if x['name']=='spaced'][0]
sys.exit(int(r['capEff'],16)!=0x20)"
stop_spaced

# --- a plain user without Landlock: nothing holds the files ------------
pu=$tree/user
mkdir -p "$pu" && chown 65534:65534 "$pu"
check_fails "plain user without Landlock: spaced refuses to start" \
    start_spaced "$pu" "$tree/nolandlock" \
    setpriv --reuid=65534 --regid=65534 --clear-groups
stop_spaced
check "and says why" grep -Eq \
    "(git|journal): file access that neither Landlock \(the kernel has none\) nor a chroot can hold: refusing to run" \
    "$pu/log"
# No process runs a binary of the tree: spaced and its workers are gone.
none_ours() {
	for e in /proc/[0-9]*/exe; do
		case $(readlink "$e" 2>/dev/null) in "$tree"/*) return 1;; esac
	done
	return 0
}
check "the plain user's spaced is gone, workers too" wait_for 5 none_ours
check "a plain user's spaced with Landlock starts (control)" \
    start_spaced "$pu" setpriv --reuid=65534 --regid=65534 --clear-groups
stop_spaced

finish
