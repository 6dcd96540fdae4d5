#!/bin/sh
# The images make images builds: their labels and tags, a gatekeeper image
# with no shell whose binary runs as its own uid, a space image whose tools
# run as the space user and that holds no setuid file, and a second
# make images that finds everything in place.  Uses the docker CLI (a test
# may; the product never does).  Skips when no Docker daemon answers.
set -eu
. "$(dirname "$0")/lib.sh"

if ! sh "$top/tools/images.sh" ping || ! command -v docker >/dev/null; then
	skip "images: no Docker daemon answers"
	finish
	exit
fi
env_file="$build/images.env"
if [ ! -s "$env_file" ]; then
	not_ok "images built: $env_file missing (make images)"
	finish
	exit 1
fi
# shellcheck disable=SC1090
. "$env_file"
GK=$GATEKEEPER_IMAGE
SP=$SPACE_IMAGE
T=$(mktemp -d /tmp/spaced-images.XXXXXX)
vol=spaced-test-images-$$
gkc=spaced-test-images-gk-$$
cleanup() {
	docker rm -f "$gkc" >/dev/null 2>&1 || true
	docker volume rm -f "$vol" >/dev/null 2>&1 || true
	rm -rf "$T"
}
trap cleanup EXIT

label() { docker image inspect -f "{{ index .Config.Labels \"$2\" }}" "$1"; }
# image_ok IMAGE KIND: labels, the tag is the key's first 12, latest moves
image_ok() {
	key=$(label "$1" spaced.image.key) || return 1
	[ "$(label "$1" spaced.image)" = "$2" ] &&
	    [ "${#key}" -eq 64 ] && [ "${1##*:}" = "$(echo "$key" | cut -c1-12)" ] &&
	    [ "$(docker image inspect -f '{{.Id}}' "$1")" = \
	    "$(docker image inspect -f '{{.Id}}' "${1%%:*}:latest")" ]
}
check "gatekeeper image $GK: labels, key tag, :latest" image_ok "$GK" gatekeeper
check "space image $SP: labels, key tag, :latest" image_ok "$SP" space
for i in "$GK" "$SP"; do
	echo "# $i: $(($(docker image inspect -f '{{.Size}}' "$i") / 1048576)) MiB"
done

# --- the gatekeeper image --------------------------------------------

# exit_is CODE command...: the command exits with exactly CODE
exit_is() { want=$1; shift; rc=0; "$@" >"$T/out" 2>&1 || rc=$?; [ "$rc" = "$want" ]; }

# 127: docker found no such executable (not some other failure).
check "gatekeeper: no /bin/sh (run exits 127)" \
    exit_is 127 docker run --rm --network none --entrypoint /bin/sh "$GK" -c true
check "gatekeeper: no /bin/busybox either" \
    exit_is 127 docker run --rm --network none --entrypoint /bin/busybox "$GK" true
check "control: the same run finds /bin/sh in the space image" \
    exit_is 0 docker run --rm --network none --entrypoint /bin/sh "$SP" -c true

# The whole tree: the binary, its libraries, the trust store, passwd.
# The image's own layer (an export would add docker's init files).
: >"$T/tree"
mkdir "$T/save"
if docker save "$GK" | tar -xf - -C "$T/save"; then
	for l in "$T"/save/*/layer.tar; do tar -tvf "$l"; done |
	    awk '{ sub(/^\.\//, "", $6); print }' >"$T/tree" || true
fi
check "gatekeeper: its layer saved" test -s "$T/tree"
echo "# gatekeeper image files:" \
    "$(awk '$1 !~ /^d/ { print $6 }' "$T/tree" | tr '\n' ' ')"
no_bin() { ! awk '{ print $6 }' "$T/tree" | grep -Eq '^(usr/)?s?bin/.'; }
check "gatekeeper: nothing in bin or sbin" no_bin
only_lib() {
	# Every regular file is the binary, a library, or a small etc file.
	awk '$1 ~ /^-/ { print $6 }' "$T/tree" | grep -Ev \
	    '^(usr/libexec/spaced/spaced-gatekeeper|lib(64|/x86_64-linux-gnu|/aarch64-linux-gnu)?/[^/]+\.so[.0-9]*|lib/[^/]+/ld-linux[^/]*|etc/(passwd|group|ssl/certs/ca-certificates\.crt))$' |
	    { if grep .; then return 1; fi; }
}
check "gatekeeper: only its binary, libraries, CA and passwd" only_lib
# Debian's trust store, not the host's local additions.
for l in "$T"/save/*/layer.tar; do
	tar -xOf "$l" ./etc/ssl/certs/ca-certificates.crt 2>/dev/null || true
done >"$T/ca.crt"
echo "# gatekeeper CA certificates: $(grep -c 'BEGIN CERT' "$T/ca.crt")"
check "gatekeeper: a CA bundle" grep -q "BEGIN CERTIFICATE" "$T/ca.crt"
# By default the host's bundle (what the host trusts); with
# SPACED_IMAGES_CA=debian Debian's selection, without local additions.
no_local_ca() {
	for c in /usr/local/share/ca-certificates/*.crt; do
		[ -s "$c" ] || continue
		# The first line of the certificate's body.
		b=$(sed -n '2p' "$c")
		if grep -qF -- "$b" "$T/ca.crt"; then
			echo "# $c is in the image"
			return 1
		fi
	done
}
case ${SPACED_IMAGES_CA:-} in
"")	check "gatekeeper: the host's CA bundle, byte for byte" \
	    cmp -s "$T/ca.crt" /etc/ssl/certs/ca-certificates.crt ;;
debian)	check "gatekeeper: no CA of /usr/local/share/ca-certificates" no_local_ca ;;
*)	check "gatekeeper: the bundle of SPACED_IMAGES_CA" cmp -s "$T/ca.crt" "$SPACED_IMAGES_CA" ;;
esac

usage() {
	exit_is 2 docker run --rm --network none "$GK" && grep -q "usage: spaced-gatekeeper" "$T/out"
}
check "gatekeeper: the binary runs (no arguments: usage, exit 2)" usage
check "gatekeeper: image user 10100:10100" \
    test "$(docker image inspect -f '{{.Config.User}}' "$GK")" = 10100:10100

# Started for real: listening, as uid 10100, trust store found.
listening() {
	docker run -d --name "$gkc" --network none --read-only --cap-drop ALL \
	    --security-opt no-new-privileges "$GK" 127.0.0.1 3128 8080 9099 \
	    >/dev/null &&
	    wait_for 10 sh -c "docker logs $gkc 2>&1 | grep -q listening:"
}
check "gatekeeper: starts and listens, read-only, no capabilities" listening
uid_is() { [ "$(docker top "$gkc" -eo pid,uid,comm | awk 'NR == 2 { print $2 }')" = "$1" ]; }
check "gatekeeper: runs as uid 10100" uid_is 10100
docker logs "$gkc" >"$T/gk.log" 2>&1 || true
docker rm -f "$gkc" >/dev/null 2>&1 || true
check "gatekeeper: its log is read (listening:)" grep -q listening: "$T/gk.log"
check "gatekeeper: its trust store is found (no trust store warning)" \
    test "$(grep -c "trust store" "$T/gk.log")" = 0
# Control: the same start with a trust store that is not there warns.
nostore() {
	docker run -d --name "$gkc" --network none --read-only --cap-drop ALL \
	    --security-opt no-new-privileges -e SSL_CERT_FILE=/nonexistent \
	    "$GK" 127.0.0.1 3128 8080 9099 >/dev/null &&
	    wait_for 10 sh -c "docker logs $gkc 2>&1 | grep -q listening:"
	docker logs "$gkc" >"$T/gk.nostore" 2>&1
	docker rm -f "$gkc" >/dev/null 2>&1
	grep -q "trust store /nonexistent" "$T/gk.nostore"
}
check "gatekeeper control: a missing trust store is warned of" nostore

# The socket volume takes the owner of the gatekeeper's /run/spaced.
owner() {
	docker volume create "$vol" >/dev/null || return 1
	# Exits 2 (no arguments), after docker populated the volume.
	docker run --rm --network none -v "$vol:/run/spaced" "$GK" >/dev/null 2>&1 || true
	[ "$(docker run --rm --network none -v "$vol:/x:ro" "$SP" stat -c %u:%g:%a /x)" = \
	    10100:10100:755 ]
}
check "gatekeeper: a fresh socket volume gets 10100:10100 0755" owner

# --- the space image -------------------------------------------------

sp() { docker run --rm --network none --read-only --tmpfs /tmp "$SP" "$@"; }
check "space: runs as uid 10000 (space)" \
    test "$(sp id -un):$(sp id -u):$(sp id -g)" = space:10000:10000
# shellcheck disable=SC2016
check "space: HOME is /home/space" test "$(sp sh -c 'echo $HOME')" = /home/space
for t in "git --version" "curl --version" "node --version" "npm --version"; do
	# shellcheck disable=SC2086
	# the command's own status, not head's
	if v=$(sp $t 2>&1) && v=$(printf '%s\n' "$v" | head -n 1) &&
	    [ -n "$v" ]; then
		ok "space: $t as uid 10000 ($v)"
	else
		not_ok "space: $t as uid 10000 ($v)"
	fi
done
node_runs() { [ "$(sp node -e 'console.log(6 * 7)')" = 42 ]; }
check "space: node runs a script" node_runs
check "space: CA certificates" sp test -s /etc/ssl/certs/ca-certificates.crt
folders() {
	[ "$(sp stat -c %u:%a /run/spaced /opt/spaced | tr '\n' ' ')" = \
	    "10100:755 0:755 " ]
}
check "space: /run/spaced (10100 0755) and /opt/spaced (root 0755)" folders
docker run --rm --network none --user 0 "$SP" find / -xdev -perm /6000 -type f >"$T/suid" 2>&1 || true
echo "# space setuid/setgid files: $(tr '\n' ' ' <"$T/suid")"
check "space: no setuid or setgid file" test ! -s "$T/suid"
# Control: the same find sees a setuid file planted in a container.
docker run --rm --network none --user 0 --entrypoint sh "$SP" -c \
    'cp /bin/true /usr/local/bin/esc-suid && chmod 4755 /usr/local/bin/esc-suid &&
    find / -xdev -perm /6000 -type f' >"$T/suid.ctl" 2>&1 || true
check "space control: the find sees a planted setuid file" \
    grep -qx /usr/local/bin/esc-suid "$T/suid.ctl"
no_apt() { [ -z "$(sp find /var/lib/apt/lists /var/cache/apt -type f)" ]; }
check "space: no apt lists or package cache" no_apt

# --- a second make images --------------------------------------------

t0=$(date +%s.%N)
rc=0
make -s -C "$top" images >"$T/again" 2>&1 || rc=$?
secs=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }')
sed 's/^/# /' "$T/again"
check "make images again: succeeds in $secs s" test "$rc" = 0
check "make images again: both present, nothing built or imported" \
    test "$(grep -c ') present in' "$T/again")" = 2

finish
