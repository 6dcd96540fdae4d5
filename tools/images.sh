#!/bin/sh
# Builds the two images spaced runs, locally and never pulled:
#
#   spaced-gatekeeper  the gatekeeper binary, its libraries, the CA
#                      certificates, a passwd line; no shell, nothing else
#   spaced-space       Debian minbase (debootstrap) with git, curl,
#                      ca-certificates, nodejs and npm, no setuid file
#
# tools/images.sh [build] [BUILD_DIR]  build what is missing, write
#                                      BUILD_DIR/images.env (default build)
# tools/images.sh prune [BUILD_DIR]    remove spaced images of another key
#                                      that no container uses, and their
#                                      cached tarballs
# tools/images.sh ping                 succeed when a Docker daemon answers
#
# Each image has a key, the sha256 of its inputs (listed in the .inputs
# file next to its tarball).  An image whose spaced.image.key label holds
# the key is kept; else a cached rootfs tarball of that key is imported;
# else the tarball is built, cached and imported.  The cache is
# $SPACED_IMAGE_CACHE, by default /var/cache/spaced/images for root and
# ${XDG_CACHE_HOME:-~/.cache}/spaced/images for anyone else; it and
# its files must be the running uid's alone to write, and a tarball is
# imported only when its sha256 is the one its .inputs file recorded at
# its build (else it is built again).  The Engine
# is spoken to over its socket with curl (DOCKER_HOST=unix://... or
# /var/run/docker.sock); the docker CLI is not needed.
set -eu

cmd=${1:-build}
case $cmd in
build|prune|ping) [ $# -gt 0 ] && shift ;;
*) cmd=build ;;
esac
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
script="$top/tools/images.sh"

# Inputs of the images.  A change to any of them, or to this script,
# makes a new key.
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
space_pkgs="ca-certificates curl git nodejs npm"
space_uid=10000
gk_uid=10100
gk_bin=/usr/libexec/spaced/spaced-gatekeeper
# Bump to build the same inputs again (new Debian point release, a
# security update the key cannot see).
revision=${SPACED_IMAGES_REVISION:-}

case ${DOCKER_HOST:-} in
unix://*) sock=${DOCKER_HOST#unix://} ;;
*) sock=/var/run/docker.sock ;;
esac

# Repositories of another name (a test's own), never spaced's :latest.
prefix=${SPACED_IMAGES_PREFIX:-}
case $prefix in *[!a-z0-9-]*) echo "images: bad SPACED_IMAGES_PREFIX" >&2; exit 1 ;; esac

if [ -n "${SPACED_IMAGE_CACHE:-}" ]; then
	cache=$SPACED_IMAGE_CACHE
elif [ "$(id -u)" -eq 0 ]; then
	cache=/var/cache/spaced/images
else
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/spaced/images
fi

say()	{ echo "images: $*"; }
die()	{ echo "images: $*" >&2; exit 1; }
now()	{ date +%s; }
uri()	{ jq -rn --arg v "$1" '$v|@uri'; }

# api METHOD PATH [curl options...]: the answer's body on stdout; fails
# on any HTTP error.  Unversioned paths: the Engine's own API version.
api() {
	a_m=$1; a_p=$2; shift 2
	curl -sS --fail-with-body --unix-socket "$sock" -X "$a_m" "$@" \
	    "http://docker$a_p"
}

ping() { [ -S "$sock" ] && [ "$(api GET /_ping 2>/dev/null)" = OK ]; }

sha()	{ sha256sum "$1" | cut -d' ' -f1; }

# The libraries a dynamic binary loads, its loader among them.
libs_of() {
	ldd "$1" 2>/dev/null | awk '
	    /not found/ { print "MISSING:" $1; next }
	    $2 == "=>" && $3 ~ /^\// { print $3; next }
	    $1 ~ /^\// { print $1 }' || true
}

# The gatekeeper's trust store (the window's TLS to a model): what the
# host trusts, its system bundle, so that a network that inspects TLS
# works as it does on the host; a change of that bundle is a new key.
# SPACED_IMAGES_CA=FILE takes that file instead (a site's own CA), and
# SPACED_IMAGES_CA=debian Debian's own selection (ca-certificates, as
# /etc/ca-certificates.conf enables it, without local additions).
ca_bundle() {
	case ${SPACED_IMAGES_CA:-} in
	debian) ;;
	"")
		if [ -s /etc/ssl/certs/ca-certificates.crt ]; then
			cat /etc/ssl/certs/ca-certificates.crt
			return
		fi ;;
	*)
		cat "$SPACED_IMAGES_CA"
		return ;;
	esac
	[ -s /etc/ca-certificates.conf ] ||
	    die "ca-certificates missing: make deps"
	grep -v -e '^#' -e '^!' -e '^$' /etc/ca-certificates.conf |
	    while read -r c; do cat "/usr/share/ca-certificates/$c"; done
}

# --- keys ------------------------------------------------------------

gatekeeper_inputs() {
	bin="$build/libexec/spaced/spaced-gatekeeper"
	[ -x "$bin" ] || die "$bin missing: make binaries first"
	echo "kind gatekeeper"
	echo "script $(sha "$script")"
	echo "uid $gk_uid"
	echo "revision $revision"
	echo "file $gk_bin $(sha "$bin")"
	for l in $(libs_of "$bin"); do
		case $l in MISSING:*) die "${l#MISSING:}: library not found" ;; esac
		echo "file $l $(sha "$l")"
	done
	ca_bundle >"$work/ca.crt"
	grep -q "BEGIN CERTIFICATE" "$work/ca.crt" || die "no CA certificate"
	echo "file /etc/ssl/certs/ca-certificates.crt $(sha "$work/ca.crt")"
}

# The space's key takes only the script's build_space(), not the whole
# script: a change for the gatekeeper must not cost a debootstrap.
space_inputs() {
	echo "kind space"
	echo "script $(sed -n '/^build_space() {$/,/^}$/p' "$script" |
	    sha256sum | cut -d' ' -f1)"
	echo "suite $suite"
	echo "arch $(dpkg --print-architecture)"
	echo "packages $space_pkgs"
	echo "updates $suite-updates $suite-security"
	echo "uid $space_uid $gk_uid"
	echo "revision $revision"
}

# --- rootfs builders: write a tarball to $2 ---------------------------

# The gatekeeper's tree belongs to root but for /run/spaced, which the
# gatekeeper's uid owns: the socket volume mounted there takes that owner
# on its first mount.  Built without root: the owners are set in the tar.
build_gatekeeper() {
	g_out=$2
	g_root="$work/gatekeeper"
	mkdir -p "$g_root/etc/ssl/certs" "$g_root/usr/lib/ssl" \
	    "$g_root/usr/libexec/spaced" "$g_root/run/spaced" \
	    "$g_root/tmp" "$g_root/proc" "$g_root/sys" "$g_root/dev"
	chmod 1777 "$g_root/tmp"
	chmod 0755 "$g_root/run/spaced"
	install -m 0755 "$build/libexec/spaced/spaced-gatekeeper" "$g_root$gk_bin"
	for l in $(libs_of "$build/libexec/spaced/spaced-gatekeeper"); do
		mkdir -p "$g_root$(dirname "$l")"
		cp -L "$l" "$g_root$l"
		chmod 0755 "$g_root$l"
	done
	install -m 0644 "$work/ca.crt" "$g_root/etc/ssl/certs/ca-certificates.crt"
	# OpenSSL's default trust file, the one tls_preload() maps.
	ln -s /etc/ssl/certs/ca-certificates.crt "$g_root/usr/lib/ssl/cert.pem"
	cat >"$g_root/etc/passwd" <<EOF
root:x:0:0:root:/nonexistent:/nonexistent
_gatekeeper:x:$gk_uid:$gk_uid:spaced gatekeeper:/nonexistent:/nonexistent
EOF
	cat >"$g_root/etc/group" <<EOF
root:x:0:
_gatekeeper:x:$gk_uid:
EOF
	chmod 0644 "$g_root/etc/passwd" "$g_root/etc/group"
	# Same inputs, same bytes.
	t="tar --sort=name --mtime=@0 --numeric-owner --format=gnu -C $g_root"
	$t --owner=0 --group=0 --exclude=./run/spaced -cf "$g_out" .
	$t --owner=$gk_uid --group=$gk_uid --no-recursion -rf "$g_out" ./run/spaced
}

build_space() {
	s_out=$2
	[ "$(id -u)" -eq 0 ] || die "the space image needs root for debootstrap" \
	    "(or a cached tarball of key $1)"
	command -v debootstrap >/dev/null || die "debootstrap missing: make deps"
	s_root="$work/space"
	mkdir -p "$cache/debs"
	# minbase alone: debootstrap's own resolver trips over npm's
	# dependencies; apt, inside, resolves them from all three suites.
	say "debootstrap $suite minbase, then $space_pkgs (minutes)"
	debootstrap --variant=minbase --cache-dir="$cache/debs" \
	    "$suite" "$s_root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
		tail -n 30 "$work/debootstrap.log" >&2
		tail -n 30 "$s_root/debootstrap/debootstrap.log" >&2 || true
		die "debootstrap failed"
	}
	# With the point release's and the security fixes.
	cat >"$s_root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
	printf '#!/bin/sh\nexit 101\n' >"$s_root/usr/sbin/policy-rc.d"
	chmod 0755 "$s_root/usr/sbin/policy-rc.d"
	in_root() { chroot "$s_root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	    DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }
	# shellcheck disable=SC2086
	if ! { in_root apt-get -q update && in_root apt-get -q -y upgrade &&
	    in_root apt-get -q -y --no-install-recommends install \
	    $space_pkgs; } >"$work/apt.log" 2>&1; then
		tail -n 30 "$work/apt.log" >&2
		die "apt-get failed"
	fi
	in_root apt-get clean
	in_root groupadd -g $space_uid space
	in_root useradd -u $space_uid -g $space_uid -m -d /home/space \
	    -s /bin/bash space
	# Mount points: the socket volume (the gatekeeper's uid owns the
	# folder in both images, so the volume gets that owner whichever
	# container mounts it first), the runtime volume, and the work
	# volume, whose folder the space user owns, so that the relay, as
	# that user, makes the space's folder in it.
	mkdir -p "$s_root/run/spaced" "$s_root/opt/spaced" "$s_root/spaces"
	chown $gk_uid:$gk_uid "$s_root/run/spaced"
	chown $space_uid:$space_uid "$s_root/spaces"
	chmod 0755 "$s_root/run/spaced" "$s_root/opt/spaced" "$s_root/spaces"
	# No setuid or setgid file: nothing in a space may gain a privilege.
	find "$s_root" -xdev -type f -perm /6000 >"$work/setuid"
	if [ -s "$work/setuid" ]; then
		say "setuid/setgid bits removed from:" \
		    "$(sed "s|^$s_root||" "$work/setuid" | tr '\n' ' ')"
		xargs chmod ug-s <"$work/setuid"
	fi
	# Smaller: no apt lists or caches, no docs but the copyrights, no man
	# pages, no translations, no logs; no host details (docker provides resolv.conf,
	# hosts and hostname at run time).
	rm -f "$s_root/usr/sbin/policy-rc.d" "$s_root/etc/resolv.conf" \
	    "$s_root/etc/hostname"
	rm -rf "$s_root"/var/lib/apt/lists/* "$s_root"/var/cache/apt/* \
	    "$s_root"/var/cache/debconf/*-old "$s_root"/var/lib/dpkg/*-old \
	    "$s_root"/var/log/* "$s_root"/tmp/* "$s_root"/root/.cache \
	    "$s_root"/usr/share/man/* "$s_root"/usr/share/info/* \
	    "$s_root"/usr/share/lintian
	# Message translations: 40 MB, and the space speaks C.UTF-8.
	find "$s_root/usr/share/locale" -mindepth 1 -maxdepth 1 \
	    ! -name locale.alias -exec rm -rf {} +
	find "$s_root/usr/share/doc" -mindepth 1 ! -type d ! -name copyright \
	    -delete 2>/dev/null || true
	find "$s_root/usr/share/doc" -mindepth 1 -type d -empty -delete \
	    2>/dev/null || true
	: >"$s_root/etc/machine-id"
	tar --sort=name --numeric-owner --format=gnu -C "$s_root" \
	    --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' \
	    -cf "$s_out" .
}

# --- import ----------------------------------------------------------

# image_with_key REF KEY: the image id when REF carries that key label
image_with_key() {
	api GET "/images/$1/json" 2>/dev/null |
	    jq -er --arg k "$2" \
	    'select(.Config.Labels["spaced.image.key"] == $k) | .Id' \
	    2>/dev/null
}

# import_tar KIND REPO KEY TAR CHANGE...: the new image's id
import_tar() {
	i_kind=$1; i_repo=$2; i_key=$3; i_tar=$4; shift 4
	q="fromSrc=-&repo=$i_repo&tag=$(echo "$i_key" | cut -c1-12)"
	q="$q&changes=$(uri "LABEL spaced.image=$i_kind spaced.image.key=$i_key")"
	for c in "$@"; do q="$q&changes=$(uri "$c")"; done
	api POST "/images/create?$q" -H 'Content-Type: application/x-tar' \
	    -T "$i_tar" >"$work/import.json" ||
	    die "import of $i_tar failed: $(cat "$work/import.json")"
	e=$(jq -rs 'map(select(.error)) | .[0].error // empty' "$work/import.json")
	[ -z "$e" ] || die "import of $i_tar failed: $e"
	jq -rs 'map(.status // empty) | last' "$work/import.json"
}

# mine PATH: owned by this uid and written by no one else
mine() {
	[ "$(stat -L -c %u "$1")" = "$(id -u)" ] &&
	    [ $((0$(stat -L -c %a "$1") & 022)) -eq 0 ]
}

# cached_ok TAR FD_PATH: the tarball open at FD_PATH (TAR's bytes) is
# the one built for its key: its .inputs file records the sha256 it had
# then, and both are this uid's and no one else's to write.
cached_ok() {
	c_inputs=${1%.tar}.inputs
	if ! mine "$2" || ! mine "$c_inputs"; then
		say "$1: not this uid's alone to write: built again"
		return 1
	fi
	c_want=$(sed -n 's/^tarball sha256 //p' "$c_inputs")
	c_got=$(sha "$2")
	[ -n "$c_want" ] && [ "$c_got" = "$c_want" ] && return 0
	say "$1: sha256 $c_got is not the one recorded" \
	    "(${c_want:-none}): built again"
	return 1
}

# ensure KIND REPO CHANGE...: sets $ref and $id; prints what it did
ensure() {
	e_kind=$1; e_repo=$2; shift 2
	"${e_kind}_inputs" >"$work/$e_kind.inputs"
	e_key=$(sha "$work/$e_kind.inputs")
	ref="$e_repo:$(echo "$e_key" | cut -c1-12)"
	e_tar="$cache/$e_kind-$e_key.tar"
	e_t0=$(now)
	if id=$(image_with_key "$ref" "$e_key"); then
		e_did="present"
	else
		# Held open from the check to the import: what was checked
		# is what goes in, whatever the path names meanwhile.
		if [ -s "$e_tar" ] && exec 8<"$e_tar" &&
		    cached_ok "$e_tar" /proc/self/fd/8; then
			e_did="imported from the cache"
		else
			exec 8<&-
			"build_$e_kind" "$e_key" "$e_tar.tmp"
			cp "$work/$e_kind.inputs" "$work/$e_kind.cached"
			echo "tarball sha256 $(sha "$e_tar.tmp")" \
			    >>"$work/$e_kind.cached"
			mv "$e_tar.tmp" "$e_tar"
			mv "$work/$e_kind.cached" "$cache/$e_kind-$e_key.inputs"
			exec 8<"$e_tar"
			e_did="built"
		fi
		id=$(import_tar "$e_kind" "$e_repo" "$e_key" /proc/self/fd/8 "$@")
		exec 8<&-
	fi
	api POST "/images/$id/tag?repo=$e_repo&tag=latest" >/dev/null
	e_size=$(api GET "/images/$id/json" | jq -r '.Size')
	say "$ref ($e_repo:latest) $e_did in $(($(now) - e_t0)) s," \
	    "$((e_size / 1048576)) MiB, $id"
}

# --- commands --------------------------------------------------------

cleanup() {
	[ -n "${work:-}" ] && [ -d "$work" ] || return 0
	# debootstrap unmounts what it mounted; never recurse into a mount.
	awk -v w="$work" 'index($2, w "/") == 1 { print $2 }' /proc/mounts |
	    sort -r | while read -r m; do umount "$m" 2>/dev/null || true; done
	if [ -n "${SPACED_IMAGES_KEEP_WORK:-}" ]; then
		say "work folder kept: $work"
		return 0
	fi
	rm -rf --one-file-system "$work"
}

command -v jq >/dev/null || die "jq missing: make deps"
command -v curl >/dev/null || die "curl missing: make deps"

if [ "$cmd" = ping ]; then
	ping
	exit
fi
ping || die "no Docker daemon answers on $sock"

mkdir -p "$cache"
# Whoever may write the cache chooses what the images hold.
mine "$cache" || die "$cache: not this uid's alone to write (owner, mode)"
work=$(mktemp -d "$cache/work.XXXXXX")
trap cleanup EXIT
trap 'exit 130' INT TERM
# One build at a time per cache.
if command -v flock >/dev/null; then
	exec 9>"$cache/.lock"
	flock 9
fi

if [ "$cmd" = prune ]; then
	keep=""
	for k in gatekeeper space; do
		if ( "${k}_inputs" ) >"$work/$k.inputs" 2>/dev/null; then
			keep="$keep $(sha "$work/$k.inputs")"
		else
			say "no key for $k (its inputs are missing): its images stay"
			keep="$keep $k"
		fi
	done
	api GET "/images/json?filters=$(uri '{"label":["spaced.image"]}')" |
	    jq -r '.[] | [.Id, .Labels["spaced.image"],
	    .Labels["spaced.image.key"]] | @tsv' >"$work/images"
	while IFS="$(printf '\t')" read -r pid pkind pkey; do
		case " $keep " in *" $pkey "* | *" $pkind "*) continue ;; esac
		used=$(api GET "/containers/json?all=1&filters=$(uri \
		    "{\"ancestor\":[\"$pid\"]}")" | jq length)
		if [ "$used" -gt 0 ]; then
			say "kept $pid ($pkind, $used containers use it)"
			continue
		fi
		api DELETE "/images/$pid?force=1" >/dev/null &&
		    say "removed $pid ($pkind, key $pkey)"
	done <"$work/images"
	for f in "$cache"/*.tar "$cache"/*.inputs; do
		[ -e "$f" ] || continue
		fn=${f##*/}; fkind=${fn%%-*}; fk=${fn#*-}; fk=${fk%.*}
		case " $keep " in *" $fk "* | *" $fkind "*) continue ;; esac
		rm -f "$f" && say "removed $f"
	done
	exit 0
fi

t0=$(now)
ensure gatekeeper "${prefix}spaced-gatekeeper" \
    "ENTRYPOINT [\"$gk_bin\"]" "USER $gk_uid:$gk_uid" "WORKDIR /"
gk_ref=$ref; gk_id=$id
ensure space "${prefix}spaced-space" \
    "USER $space_uid:$space_uid" "WORKDIR /home/space" \
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8" \
    'CMD ["/bin/bash"]'
space_ref=$ref; space_id=$id

mkdir -p "$build"
cat >"$build/images.env.tmp" <<EOF
GATEKEEPER_IMAGE=$gk_ref
GATEKEEPER_IMAGE_ID=$gk_id
SPACE_IMAGE=$space_ref
SPACE_IMAGE_ID=$space_id
EOF
mv "$build/images.env.tmp" "$build/images.env"
say "wrote $build/images.env in $(($(now) - t0)) s (cache $cache)"
