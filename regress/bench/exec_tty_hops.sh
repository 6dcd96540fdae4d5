#!/bin/sh
# Where a keystroke's microseconds go through `spacectl exec -t`, hop by
# hop (issue 23): perf sched records the machine while tty_echo.py types,
# and each keystroke's chain of wakeups is followed, python's write to
# its echo: spacectl, spaced, spaced-docker, the engine (dockerd to
# dockerd), and back.  Per hop: the p50 and p90 from the waker's wakeup
# to the next one's, how often the wakee ran on another vCPU than its
# waker's (an IPI), and how often a process was preempted right after
# waking another (its rest ran later: a run more).  Skipped without
# perf (linux-perf).  Never asserts a time.
# usage: exec_tty_hops.sh [build-dir] [keys] [ms between keys]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-3000}
export TTY_ECHO_GAP_MS="${3:-0}"
command -v perf >/dev/null || { echo "exec_tty_hops: skipped, needs perf (linux-perf)"; exit 0; }
bench=exec_tty_hops
. "$(dirname "$0")/../lib/bench.sh"
bench_space
dpid=$(ctl status | awk '$1 == "spaced-docker" { print $2 }')
load0=$(cut -d' ' -f1-3 /proc/loadavg)
perf sched record -o "$T/sched.data" -- python3 "$top/regress/bench/tty_echo.py" \
    "$n" "$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$id" -t -- cat \
    >"$T/echo" 2>"$T/perf.err" || { cat "$T/perf.err" >&2; exit 1; }
perf sched timehist -i "$T/sched.data" -w --state 2>/dev/null >"$T/th"
echo "exec_tty_hops: $n keys, $TTY_ECHO_GAP_MS ms between keys;" \
    "p50 $(awk '$1 == 0 { print $2 }' "$T/echo" | sort -n |
    awk '{ v[NR] = $1 } END { print v[int(NR / 2)] }') us a keystroke"
awk -v SP="$spaced_pid" -v DP="$dpid" -v N="$n" -f regress/bench/exec_tty_hops.awk "$T/th"
echo "  load average $load0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
