#!/bin/sh
# make run: the main job.  Starts dockerd when none runs (root), creates
# the workers' users (root), then spaced in the foreground with logs on
# stderr.  Stop it with ^C.  In another terminal: build/bin/spacectl status
set -eu
build=$1
if [ "$(id -u)" -eq 0 ]; then
	sh tools/dockerd.sh
	sh tools/users.sh
else
	sh tools/dockerd.sh || echo "run: going on without Docker" >&2
fi
echo "run: spaced -d (^C to stop); try: $build/bin/spacectl status | privileges | check"
exec "$build/sbin/spaced" -d
