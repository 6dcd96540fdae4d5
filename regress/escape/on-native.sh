#!/bin/sh
# The escape suite (docker.sh, unchanged) against the native place: what
# it reads behind spaced comes from the native record, cgroups and /proc
# (contract/lib.sh).  A native gatekeeper resolves names through the
# host's /etc/hosts: the suite's upstream names go into a copy of it,
# bound over /etc/hosts in a mount namespace of this suite alone.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
suite=$(dirname "$0")/docker.sh
# Not root: the library says the native place needs it (a skip).
[ "$(id -u)" = 0 ] || exec sh "$suite"
# Its controls (plain containers, networks, the upstream) are Docker's.
if ! curl -sf --max-time 3 --unix-socket /var/run/docker.sock \
    http://docker/_ping >/dev/null 2>&1; then
	echo "skip - the escape suite's controls need a Docker engine (none answers)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
ESC_HOSTS=$(mktemp /tmp/spaced-esc-hosts.XXXXXX) || exit 1
export ESC_HOSTS
cat /etc/hosts >"$ESC_HOSTS" && chmod 0644 "$ESC_HOSTS"
unshare -m --propagation private sh -c \
    'mount --bind "$ESC_HOSTS" /etc/hosts && exec sh "$1"' sh "$suite"
rc=$?
rm -f "$ESC_HOSTS"
exit $rc
