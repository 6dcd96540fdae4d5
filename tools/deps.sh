#!/bin/sh
# Installs the Debian packages spaced needs to build, test and run, when
# they are missing.  Needs root to install; a plain user gets the list.
# -o (make run): Docker is optional: where docker.io cannot be installed
# (no candidate, no network), it says so and goes on, and make run's
# space is on the native place.
set -eu
optional=
[ "${1:-}" = -o ] && optional=docker.io

pkgs="build-essential pkg-config libbsd-dev libevent-dev libjansson-dev
libgit2-dev libssl-dev libseccomp-dev libcriterion-dev mandoc docker.io
iproute2 openssl curl clang libclang-rt-14-dev procps python3 util-linux jq
debootstrap"

# Every program a suite calls on the host, as command:package (a command
# found elsewhere, e.g. npm inside NodeSource's nodejs, is enough).
# Grep the suites when one gains a command.  (Not tinyproxy, the
# gatekeeper bench's baseline: its package starts a daemon.)  node and
# npm are also spaced's own at run time: the native place fills the
# agent's tools with the host's (docs/privsep.md), and its spaces run
# the host's /usr.
cmds="node:nodejs npm:npm strace:strace git:git file:file bc:bc
ss:iproute2 ip:iproute2 nsenter:util-linux unshare:util-linux
setpriv:util-linux getent:libc-bin sha256sum:coreutils od:coreutils
stat:coreutils truncate:coreutils mkfifo:coreutils find:findutils
xargs:findutils diff:diffutils cmp:diffutils tar:tar pgrep:procps
dockerd:docker.io docker:docker.io openssl:openssl curl:curl jq:jq
python3:python3 cc:build-essential make:make tmux:tmux
systemd-analyze:systemd"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
	    missing="$missing $p"
done
for c in $cmds; do
	command -v "${c%%:*}" >/dev/null 2>&1 && continue
	case " $missing " in *" ${c#*:} "*) ;; *) missing="$missing ${c#*:}" ;; esac
done
# What may be left out comes apart from the rest.
later=
case " $missing " in *" $optional "*)
	[ -n "$optional" ] && later=$optional &&
	    missing=$(echo "$missing" | tr ' ' '\n' | grep -vx "$optional" |
	    tr '\n' ' ' | sed 's/ *$//')
esac
[ -z "$missing" ] && [ -z "$later" ] && exit 0

nodocker() {
	echo "deps: $later $1: make run goes on with the native place" \
	    "(no Docker engine; README)" >&2
	exit 0
}
if [ "$(id -u)" -ne 0 ]; then
	if [ -n "$missing" ]; then
		echo "deps: missing Debian packages:$missing $later" >&2
		echo "deps: install them as root: apt-get install$missing $later" >&2
		exit 1
	fi
	nodocker "is not installed (root could install it)"
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
[ -n "$later" ] || exit 0
echo "deps: installing $later"
{ [ -n "$missing" ] || apt-get update -q >/dev/null; } ||
    nodocker "cannot be installed (apt-get update failed)"
apt-get install -y -q --no-install-recommends "$later" >/dev/null ||
    nodocker "cannot be installed here"
