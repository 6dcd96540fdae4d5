#!/bin/sh
# make run: the main job.  Starts dockerd when none runs, creates the
# workers' users (root), builds the images, starts spaced in the
# background (or uses the one that answers), creates a space, brings
# this checkout's code into it and prints how to reach it.  It ends with
# that space running.  Where no Docker engine answers and none can be
# started, the space is on the native place, with its agent all the same.
set -eu
build=$1
ctl="$build/bin/spacectl"
log=$build/spaced.log

# The fresh-machine test (regress/fresh/) stops here, in a chroot where
# no dockerd may start: the packages are in and the build is done.
if [ "${SPACED_RUN_UNTIL:-}" = build ]; then
	echo "run: built; stopping before dockerd (SPACED_RUN_UNTIL=build)"
	exit 0
fi

# The first use runs from another folder: there only a full path works.
ctl_abs=$(cd "$build/bin" && pwd)/spacectl

[ "$(id -u)" -ne 0 ] || sh tools/users.sh
docker=1
if ! sh tools/dockerd.sh; then
	docker=0
	echo "run: no Docker engine: the space goes on the native place"
fi
# The images trust what this host trusts (its CA bundle, for the
# window's TLS to a model), as spaced does for the filler and the spaces
# unless spaced.conf(5) says "trust images".
[ $docker = 0 ] || sh tools/images.sh build "$build"

if "$ctl" status >/dev/null 2>&1; then
	echo "run: spaced already answers; using it"
else
	echo "run: starting spaced (log: $log)"
	nohup "$build/sbin/spaced" -d >"$log" 2>&1 \
	    </dev/null &
	echo $! >"$build/spaced.pid"
	i=0
	until "$ctl" status >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$(cat "$build/spaced.pid")" \
		    2>/dev/null; then
			echo "run: spaced did not start; its log:" >&2
			cat "$log" >&2
			exit 1
		fi
		sleep 0.1
	done
fi

if [ $docker = 1 ]; then
	"$ctl" check
	# The first create fills the agent's tools from the npm registry (once).
	"$ctl" tools fill >/dev/null
else
	# check fails for the absent engine; the native place must answer.
	"$ctl" check | tee "$build/check.out" || true
	grep -q '^native: available' "$build/check.out" || {
		echo "run: the native place is not available either" >&2
		exit 1
	}
fi
# This checkout's own code in, as part of create (code in, as git objects).
if git rev-parse --show-toplevel >/dev/null 2>&1; then
	id=$("$ctl" create -n "make run" --code .)
else
	echo "run: this checkout is no git repository: no code brought in"
	id=$("$ctl" create -n "make run")
fi
"$ctl" verify "$id"
echo
"$ctl" show "$id"
if [ $docker = 1 ]; then
	cat <<EOT

run: space $id is running, verified, behind its own gatekeeper.
  the agent's own screen:  $ctl attach $id
  one prompt, for scripts: $ctl prompt $id 'what does this project do?'
  its agent's server:    $ctl server $id GET /global/health
  the server's token:    $ctl token $id
EOT
else
	cat <<EOT

run: space $id is running on the native place (no Docker engine here),
verified, behind its own gatekeeper process.
  the agent's own screen:  $ctl attach $id
  one prompt, for scripts: $ctl prompt $id 'what does this project do?'
  its agent's server:    $ctl server $id GET /global/health
EOT
fi
cat <<EOT
  a shell inside:        $ctl exec $id -t -- bash -i
  one command:           $ctl exec $id -- git --version
  let it reach a name:   $ctl network $id allowlist registry.npmjs.org
  what it tried:         $ctl journal $id
  a model key (stdin):   printf 'Bearer %s\\n' "\$KEY" |
                         $ctl grant $id model https://api.openai.com authorization
  stop, start, remove:   $ctl stop|start|remove $id
  every space:           $ctl list
  stop spaced:           kill \$(cat $build/spaced.pid)

The whole first use, from any project folder (create prints the ID):
  id=\$($ctl_abs create --code .) && $ctl_abs attach \$id
EOT
