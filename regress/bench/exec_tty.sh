#!/bin/sh
# Keystroke echo through `spacectl exec -t` against `docker exec -it` on
# the same space, in one run (issue 23): a byte in, its echo out (the
# space's terminal echoes it; tty_echo.py times it on a pty of ours).
# Both run at once and take turns byte by byte in a shuffled order; p50
# and p99 of each and the ratios, the CPU time and runs a keystroke of
# each side's own processes (spacectl, spaced and spaced-docker; the
# docker CLI), each one's runs and how many of them were preempted, and
# the load average.  Never asserts a time.
# usage: exec_tty.sh [build-dir] [samples a round] [rounds] [ms between keys]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-1000}
rounds=${3:-3}
export TTY_ECHO_GAP_MS="${4:-0}"
bench=exec_tty
. "$(dirname "$0")/../lib/bench.sh"
bench_space
c=spaced-space-$id-space
# The space's own user, as spacectl's exec runs.
uid=$(docker inspect -f '{{.Config.User}}' "$c")
# The floor of the four hops spaced and spaced-docker add to a round.
mkdir -p "$b/regress/bench"
cc -O2 -Wall -Wextra -Werror -o "$b/regress/bench/relay_hops" \
    regress/bench/relay_hops.c
# spaced and spaced-docker count with spacectl: the path's own processes.
ours="$spaced_pid $(ctl status | awk '$1 == "spaced-docker" { print $2 }')"
load0=$(cut -d' ' -f1-3 /proc/loadavg)

pct() { sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 } END { i = int(NR * p / 100 + 0.5); if (i < 1) i = 1; print v[i] }'; }
# Both at once, byte by byte in turn: the load falls on each alike.
ratios=
for r in $(seq "$rounds"); do
	TTY_ECHO_PIDS_0=$ours python3 "$top/regress/bench/tty_echo.py" \
	    "$n" "$tree/bin/spacectl" \
	    -s "$sd/run/spaced.sock" exec "$id" -t -- cat --- \
	    docker exec -it -u "$uid" "$c" cat >"$T/both"
	awk '$1 == 0 { print $2 }' "$T/both" >>"$T/api"
	awk '$1 == 1 { print $2 }' "$T/both" >>"$T/cli"
	awk '$1 == "cpu" { print $2, $3, $4 }' "$T/both" >>"$T/cpu"
	awk '$1 == "runs"' "$T/both" >>"$T/runs"
	# Each round's own p50 ratio: the spread says how far to trust one.
	awk '$1 == 0 { print $2 }' "$T/both" >"$T/a1"
	awk '$1 == 1 { print $2 }' "$T/both" >"$T/c1"
	ratios="$ratios $(echo "scale=2; $(pct "$T/a1" 50) / $(pct "$T/c1" 50)" | bc)"
	# As many hops as keystrokes, with the same pause.
	"$b/regress/bench/relay_hops" "$n" "$TTY_ECHO_GAP_MS" |
	    awk '{ print $2 - $1 }' >>"$T/hops"
done
a50=$(pct "$T/api" 50); a99=$(pct "$T/api" 99)
c50=$(pct "$T/cli" 50); c99=$(pct "$T/cli" 99)
echo "exec_tty: keystroke echo, $((n * rounds)) samples each," \
    "$TTY_ECHO_GAP_MS ms between keys, microseconds"
printf '  spacectl exec -t      p50 %6d  p99 %6d\n' "$a50" "$a99"
printf '  docker exec -it (CLI) p50 %6d  p99 %6d\n' "$c50" "$c99"
echo "  ratio spacectl/docker p50 $(echo "scale=2; $a50 / $c50" | bc)  p99 $(echo "scale=2; $a99 / $c99" | bc)"
echo "  p50 ratio of each round:$ratios"
# Means over the rounds: CPU microseconds and times scheduled a keystroke.
awk '{ ns[$1] += $2; runs[$1] += $3; k[$1]++ }
END {
	printf "  CPU a keystroke: spacectl+spaced+spaced-docker %.1f us in %.1f runs, docker CLI %.1f us in %.1f runs\n",
	    ns[0] / k[0] / 1000, runs[0] / k[0], ns[1] / k[1] / 1000, runs[1] / k[1]
}' "$T/cpu"
# Each process's runs a key, and how each ended: it slept (a wakeup
# ends it) or was preempted (its rest is one run more).
awk '{ k = $3; r[k] += $4; v[k] += $5; p[k] += $6; n[k]++ }
END {
	printf "  runs a keystroke (slept / preempted):"
	for (k in n)
		printf " %s %.2f (%.2f / %.2f)", k, r[k] / n[k], v[k] / n[k],
		    p[k] / n[k]
	printf "\n"
}' "$T/runs"
echo "  p50 spacectl - docker: $((a50 - c50)) us; four minimal relay hops" \
    "(the floor of what spaced and spaced-docker add): $(pct "$T/hops" 50) us"
echo "  load average $load0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
