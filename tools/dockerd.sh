#!/bin/sh
# Starts dockerd in the background when no daemon answers, and waits for it.
set -eu
sock=/var/run/docker.sock
ping() { curl -sf --max-time 2 --unix-socket "$sock" http://docker/_ping >/dev/null 2>&1; }
ping && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "dockerd: no Docker daemon answers on $sock; start one as root" >&2
	exit 1
fi
if ! [ -x "$(command -v dockerd 2>/dev/null)" ]; then
	echo "dockerd: no Docker daemon answers on $sock and none is installed" >&2
	exit 1
fi

# A containerd pid file left by a daemon that did not stop (a machine
# restored from a snapshot, a kill -9) may name a pid that another
# program now has; dockerd then waits for that program to answer as
# containerd and gives up after a minute.  Only a file whose pid is no
# containerd goes.
pidfile=/var/run/docker/containerd/containerd.pid
if [ -f "$pidfile" ]; then
	pid=$(cat "$pidfile" 2>/dev/null || true)
	comm=$(cat "/proc/$pid/comm" 2>/dev/null || true)
	if [ "$comm" != containerd ]; then
		echo "dockerd: removing stale $pidfile (pid ${pid:-none}: ${comm:-gone})"
		rm -f "$pidfile"
	fi
fi

echo "dockerd: starting"
nohup dockerd >/var/log/spaced-dockerd.log 2>&1 </dev/null &
pid=$!
i=0
while ! ping; do
	# A daemon that cannot run here (no privileges for its mounts, say)
	# exits at once: no need to wait the 30 s.
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "dockerd: exited at start; see /var/log/spaced-dockerd.log" >&2
		exit 1
	fi
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		echo "dockerd: did not answer within 30 s; see /var/log/spaced-dockerd.log" >&2
		exit 1
	fi
	sleep 0.5
done
