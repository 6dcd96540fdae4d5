# Lanes over one queue, for the runners (run-unit.sh, run-integration.sh):
# each lane takes the queue's next line under one lock, runs it, and
# takes again until the queue is empty.  The caller sets LANES_DIR, a
# folder of its own; the queue is $LANES_DIR/queue, one line a unit of
# work in the order they are to start.

# lanes_locked COMMAND...: COMMAND with the lock held (mkdir is atomic),
# its status kept.
lanes_locked() {
	until mkdir "$LANES_DIR/lock" 2>/dev/null; do sleep 0.05; done
	"$@"; l_rc=$?
	rmdir "$LANES_DIR/lock"
	return $l_rc
}

# lanes_next: the queue's next line, taken off it; fails at its end.
# Called with the lock held.
lanes_next() {
	l_u=$(head -n 1 "$LANES_DIR/queue")
	[ -n "$l_u" ] || return 1
	sed -i 1d "$LANES_DIR/queue"
	echo "$l_u"
}

# lanes_run N COMMAND: N lanes, each running "COMMAND LINE" for every
# line it takes; returns when all are done.  An interrupt ends them.
lanes_run() {
	l_n=$1; shift
	l_pids="" l_i=0
	while [ $l_i -lt "$l_n" ]; do
		(
			while l_line=$(lanes_locked lanes_next); do
				"$@" "$l_line"
			done
		) &
		l_pids="$l_pids $!"
		l_i=$((l_i + 1))
	done
	trap 'kill $l_pids 2>/dev/null' INT TERM
	wait
	trap - INT TERM
}
