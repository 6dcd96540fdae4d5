# exec_tty_hops.sh's reader of `perf sched timehist -w --state`: each
# keystroke's chain of wakeups, and per hop the time from one wakeup to
# the next.  -v SP=spaced's pid -v DP=spaced-docker's pid -v N=keys
# typed (runs and preemptions are a key of those; the hops' times, of
# the keystrokes whose whole chain was found).
function who(c) {
	if (c ~ /^spacectl\[/)
		return "spacectl"
	if (c == "spaced[" SP "]")
		return "spaced"
	if (c == "spaced-docker[" DP "]")
		return "spaced-docker"
	if (c ~ /^dockerd\[/)
		return "dockerd"
	if (c ~ /^kworker/)
		return "kworker"
	if (c ~ /^python3\[/)
		return "python3"
	return ""
}
function hop(k, v) {
	h[k, ++hn[k]] = v
}
function pct(k, p,    i, j, t, m) {
	m = hn[k]
	for (i = 1; i <= m; i++)
		s[i] = h[k, i]
	for (i = 2; i <= m; i++) {	# insertion sort: a few thousand
		t = s[i]
		for (j = i - 1; j > 0 && s[j] > t; j--)
			s[j + 1] = s[j]
		s[j + 1] = t
	}
	return s[int(m * p / 100) > 0 ? int(m * p / 100) : 1]
}
/awakened:/ {
	t = $1 * 1e6
	w = who($3)
	x = who($NF)
	cpu[x] = $2
	woken[x] = 1
	if (w == "python3" && x == "kworker") {
		tp = t
		st = 0
	} else if (st == 0 && w == "kworker" && x == "spacectl" && tp > 0) {
		ta = t; st = 1
	} else if (st == 1 && w == "spacectl" && x == "spaced") {
		tb = t; st = 2
	} else if (st == 2 && w == "spaced" && x == "spaced-docker") {
		tc = t; st = 3
	} else if (st == 3 && w == "spaced-docker" && x == "dockerd") {
		td = t; st = 4
	} else if (st == 4 && w == "dockerd" && x == "spaced-docker") {
		te = t
	} else if (st == 4 && te > td && w == "spaced-docker" &&
	    x == "spaced") {
		tf = t; st = 5
	} else if (st == 5 && w == "spaced" && x == "spacectl") {
		tg = t; st = 6
	} else if (st == 6 && w == "spacectl" && x == "kworker") {
		th = t; st = 7
	} else if (st == 7 && w == "kworker" && x == "python3") {
		hop(0, ta - tp); hop(1, tb - ta); hop(2, tc - tb)
		hop(3, td - tc); hop(4, te - td); hop(5, tf - te)
		hop(6, tg - tf); hop(7, th - tg); hop(8, t - th)
		keys++
		st = 0; tp = 0
	}
	if (w != "")
		last[w] = x
	next
}
{
	p = who($3)
	if (p != "spacectl" && p != "spaced" && p != "spaced-docker")
		next
	runs[p]++
	if (woken[p]) {
		woken[p] = 0
		wakes[p]++
		if ($2 != cpu[p])
			cross[p]++
	}
	if ($NF == "R")
		preempt[p, last[p]]++
}
END {
	if (keys == 0) {
		print "exec_tty_hops: no keystroke's chain found"
		exit 1
	}
	split("pty in (python to spacectl, the kworker);spacectl in;" \
	    "spaced in;spaced-docker in (to the engine);" \
	    "the engine (dockerd to dockerd);spaced-docker out;spaced out;" \
	    "spacectl out (to the kworker);pty out (kworker to python)",
	    name, ";")
	printf "  %d keystrokes followed; microseconds from a wakeup to the next\n", keys
	for (k = 0; k <= 8; k++)
		printf "  %-40s p50 %6.1f  p90 %6.1f\n", name[k + 1],
		    pct(k, 50), pct(k, 90)
	for (p in runs) {
		printf "  %-13s runs a key %.2f, woken on another vCPU than its waker %.0f%%, preempted right after waking:",
		    p, runs[p] / N, wakes[p] ? 100 * cross[p] / wakes[p] : 0
		for (q in preempt) {
			split(q, pq, SUBSEP)
			if (pq[1] == p)
				printf " %s %.2f", pq[2] == "" ? "other" : pq[2],
				    preempt[q] / N
		}
		printf " a key\n"
	}
}
