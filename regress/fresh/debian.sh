#!/bin/sh
# First contact on a fresh machine: a Debian 12 root made by debootstrap
# (minbase, and make, which the README asks for first), cached under
# /var/cache/spaced/fresh by the key of its inputs; in a copy of it, a
# clone of this tree where the README's two commands run as root, in
# its order: make run up to the build (SPACED_RUN_UNTIL=build: no
# dockerd in a chroot), then make check up to the unit tests
# (CHECK_UNTIL=unit).  The .debs apt fetched are kept beside it.
dir=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$dir/../.." && pwd)
. "$dir/../lib/harness.sh"

suite=bookworm
mirror=${SPACED_FRESH_MIRROR:-http://deb.debian.org/debian}
cache=${SPACED_FRESH_CACHE:-/var/cache/spaced/fresh}

if [ "$(id -u)" -ne 0 ]; then
	skip "the fresh root needs root (debootstrap, chroot)"
	finish
fi
if ! command -v debootstrap >/dev/null || ! command -v unshare >/dev/null; then
	not_ok "debootstrap and unshare are there (tools/deps.sh installs them)"
	finish
fi

# The root of the key: what debootstrap makes, nothing of this tree.
make_root() {
	debootstrap --variant=minbase --include=make \
	    --cache-dir="$cache/debs" "$suite" "$1" "$mirror"
}
key=$( { echo "$suite $mirror"; sed -n '/^make_root() {$/,/^}$/p' "$0"; } |
    sha256sum | cut -c1-16)
tarball=$cache/root-$key.tar
T=$(mktemp -d /tmp/spaced-fresh.XXXXXX)
at_finish 'fresh_cleanup'
fresh_cleanup() {
	# Mounts live in the namespace of each run; never remove under one.
	if grep -q " $T/" /proc/mounts; then
		echo "# left $T: something is still mounted under it"
	else
		rm -rf "$T"
	fi
}
took() { echo "# $1: $(($(date +%s) - $2)) s"; }

mkdir -p "$cache/debs/partial"
if [ ! -s "$tarball" ]; then
	t0=$(date +%s)
	if ! make_root "$T/new" >"$T/debootstrap.log" 2>&1; then
		sed 's/^/# /' "$T/debootstrap.log" | tail -20
		not_ok "debootstrap $suite"; finish
	fi
	tar -C "$T/new" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
	rm -rf "$T/new"
	took "debootstrap, once for key $key" $t0
fi
check "the cached root of key $key is there" test -s "$tarball"

# root NAME: a new root from the tarball, this tree in /src.
root() {
	r=$T/$1
	mkdir -p "$r"
	tar -C "$r" -xf "$tarball" || return 1
	mkdir -p "$r/src"
	# The tree as a clone has it (tracked and new files, never build/),
	# a repository of its own: lint's test copies what git lists.
	(cd "$src" && git ls-files -z -co --exclude-standard |
	    tar --null -T - -cf -) | tar -C "$r/src" -xf - || return 1
	git -C "$r/src" init -q && git -C "$r/src" add -A &&
	    git -C "$r/src" -c user.name=fresh -c user.email=fresh@localhost \
	    commit -q -m "the tree under test" || return 1
	cp /etc/resolv.conf "$r/etc/resolv.conf"
	# On a Debian with systemd, installing docker.io starts dockerd; in
	# a chroot none starts: the host's engine answers in its place (the
	# live unit test of spaced-docker asks it for its version).
	# What every Debian chroot has: packages start no services here.
	printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
	chmod 0755 "$r/usr/sbin/policy-rc.d"
}
# run_in NAME LOG COMMAND: COMMAND run by sh in /src of root NAME, in a
# mount namespace of its own, rooted there; its output in $T/LOG.log.
run_in() {
	r=$T/$1
	t0=$(date +%s)
	# pivot_root, not chroot alone: in a chroot the kernel refuses new
	# user namespaces, which a unit test of common/ makes.
	unshare --mount --propagation private sh -c '
	    r=$1; cache=$2; shift 2
	    mount --bind "$r" "$r" &&
	    mount -t proc proc "$r/proc" &&
	    mount --rbind /dev "$r/dev" &&
	    mount --rbind /sys "$r/sys" &&
	    mount --bind "$cache/debs" "$r/var/cache/apt/archives" &&
	    { [ ! -S /var/run/docker.sock ] ||
	      { : >"$r/run/docker.sock" &&
	        mount --bind /var/run/docker.sock "$r/run/docker.sock"; }; } &&
	    cd "$r" && mkdir -p .old && pivot_root . .old &&
	    exec /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	        HOME=/root TERM=dumb /bin/sh -c \
	        "umount -l /.old && rmdir /.old && cd /src && $*"' \
	    sh "$r" "$cache" "$3" >"$T/$2.log" 2>&1
	rc=$?
	took "$2" $t0
	return $rc
}
# A failure shows the tests that failed and the end of what it printed.
tail_of() {
	grep -a -e '^\[FAIL\]' -e '^not ok' -e 'FAILED' "$T/$1.log" | head -20 |
	    sed 's/^/#   /'
	tail -15 "$T/$1.log" | sed 's/^/#   /'
}

check "the fresh root has no compiler and no pkg-config (control)" sh -c \
    "tar -tf '$tarball' | grep -Eq '^\./usr/bin/(cc|gcc|pkg-config)$' && exit 1; exit 0"
root fresh || { not_ok "a fresh root with this tree"; finish; }
if run_in fresh run "SPACED_RUN_UNTIL=build make run"; then
	ok "make run on a fresh Debian 12: packages, then the build"
else
	not_ok "make run on a fresh Debian 12: packages, then the build"; tail_of run
fi
b=$T/fresh/src/build
check "... it built spaced, spacectl and the relay" test -x "$b/sbin/spaced" \
    -a -x "$b/bin/spacectl" -a -x "$b/libexec/spaced/spaced-relay"
check "... it installed the packages itself (deps ran)" grep -q '^deps: installing' "$T/run.log"
lacks "... no declaration was missing (pkg-config's flags were read)" "$T/run.log" -e 'undeclared' -e 'implicit declaration'
check "... and stopped before dockerd, as asked" grep -q 'stopping before dockerd' "$T/run.log"

# The README's second command, next, on the same machine.
if run_in fresh check "CHECK_UNTIL=unit make check"; then
	ok "make check next: build, runners, unit tests under ASan+UBSan"
else
	not_ok "make check next: build, runners, unit tests under ASan+UBSan"; tail_of check
fi
check "... the unit tests ran and none failed" grep -Eq '^unit: [1-9][0-9]* passed, 0 failed' "$T/check.log"
rm -rf "$T/fresh"
finish
