#!/bin/sh
# Installs the Debian packages spaced needs to build, test and run, when
# they are missing.  Needs root to install; a plain user gets the list.
set -eu

pkgs="build-essential pkg-config libbsd-dev libevent-dev libjansson-dev
libgit2-dev libssl-dev libseccomp-dev libcriterion-dev mandoc docker.io
iproute2 openssl curl clang libclang-rt-14-dev procps python3 util-linux jq
debootstrap"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
	    missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing Debian packages:$missing" >&2
	echo "deps: install them as root: apt-get install$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
