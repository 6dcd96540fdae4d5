#!/bin/sh
# tools/images.sh and its cache: a cached rootfs tarball is imported
# only with the bytes its build recorded, from a cache and files only
# the running uid may write; anything else is built again (or, for the
# cache itself, refused).  Uses the docker CLI (a test may).
set -eu
. "$(dirname "$0")/lib.sh"

if ! sh "$top/tools/images.sh" ping || ! command -v docker >/dev/null; then
	skip "images-cache: no Docker daemon answers"
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
SP=$SPACE_IMAGE
T=$(mktemp -d /tmp/spaced-images-cache.XXXXXX)
gkc=spaced-test-images-cache-$$
cleanup() {
	docker rm -f "$gkc" >/dev/null 2>&1 || true
	rm -rf "$T"
}

# Under repositories of the test's own (never spaced's :latest), a cache
# of its own and a gatekeeper key no one else has; the space is the
# image above, tagged under the test's name ("present").
pfx=spaced-test-$$-
tc=$T/cache; tb=$T/build
mkdir -m 0755 "$tc"; mkdir -p "$tb/libexec/spaced"
cp "$build/libexec/spaced/spaced-gatekeeper" "$tb/libexec/spaced/"
echo "spaced-test-$$" >>"$tb/libexec/spaced/spaced-gatekeeper"
cache_cleanup() {
	docker rmi -f "$(cat "$T/gkid" 2>/dev/null)" >/dev/null 2>&1 || true
	docker rmi "${pfx}spaced-space:${SP##*:}" "${pfx}spaced-space:latest" \
	    >/dev/null 2>&1 || true
	cleanup
}
trap cache_cleanup EXIT
docker tag "$SP" "${pfx}spaced-space:${SP##*:}"
# imgs NAME: tools/images.sh into $T/NAME; the gatekeeper's id in $T/gkid
imgs() {
	SPACED_IMAGES_PREFIX=$pfx SPACED_IMAGE_CACHE=$tc \
	    sh "$top/tools/images.sh" build "$tb" >"$T/$1" 2>&1 ||
	    { sed 's/^/# /' "$T/$1"; return 1; }
	sed -n 's/^GATEKEEPER_IMAGE_ID=//p' "$tb/images.env" >"$T/gkid"
}
gk_gone() { docker rmi -f "$(cat "$T/gkid")" >/dev/null; }
said() { grep -q "${pfx}spaced-gatekeeper:.*) $2 in" "$T/$1"; }
check "cache: a new key's gatekeeper is built and cached" \
    eval 'imgs built && said built built'
check "cache control: with its image gone, the cached tarball is imported" \
    eval 'gk_gone && imgs again && said again "imported from the cache"'
gk_tar=$(ls "$tc"/gatekeeper-*.tar)
plant() {
	gk_gone || return 1
	mkdir -p "$T/plant" && echo planted >"$T/plant/evil"
	tar -rf "$gk_tar" -C "$T/plant" ./evil && tar -tf "$gk_tar" | grep -qx ./evil
}
check "cache: a file planted in the cached tarball" plant
corrupt_refused() {
	imgs corrupt && said corrupt built &&
	    grep -q "is not the one recorded" "$T/corrupt"
}
check "cache: the changed tarball is not imported: built again" corrupt_refused
in_image() {
	docker create --name "$gkc" "$(cat "$T/gkid")" >/dev/null || return 2
	docker cp "$gkc:$1" - >/dev/null 2>&1; c_rc=$?
	docker rm -f "$gkc" >/dev/null 2>&1
	return $c_rc
}
check "cache control: docker cp finds /etc/passwd in the image" in_image /etc/passwd
check "cache: the planted file is not in the image" eval '! in_image /evil'
check "cache: the rebuilt tarball holds no planted file" \
    eval '! tar -tf "$gk_tar" | grep -qx ./evil'
not_mine() {
	gk_gone && chown nobody "${gk_tar%.tar}.inputs" && imgs foreign &&
	    said foreign built && grep -q "not this uid's alone" "$T/foreign"
}
check "cache: a tarball whose record another uid owns is built again" not_mine
open_cache() {
	chmod 0777 "$tc"
	! imgs open && grep -q "not this uid's alone to write" "$T/open"
}
check "cache: a cache others may write is refused" open_cache
chmod 0755 "$tc"

finish
