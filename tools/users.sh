#!/bin/sh
# Creates the system users spaced's workers run as when spaced is root.
set -eu
[ "$(id -u)" -eq 0 ] || exit 0
for u in _spaced-docker _spaced-git _spaced-journal _spaced-quarantine; do
	if ! getent passwd "$u" >/dev/null; then
		useradd --system --no-create-home --home-dir /nonexistent \
		    --shell /usr/sbin/nologin --user-group "$u"
		echo "users: created $u"
	fi
done
