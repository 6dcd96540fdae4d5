#!/usr/bin/env python3
# Keystroke echo through terminal programs (exec -t, docker exec -it):
# each program runs on a pty of ours, `cat` inside echoes through its own
# terminal; a sample is one byte written to a pty's master until that
# byte comes back.  With several programs (argv split by "---") all run
# at once and take turns byte by byte, in an order shuffled each byte
# (fixed seed), so that neither always follows the other.  Prints
# "<program> <microseconds>" a sample, then "cpu <program> <ns> <runs>":
# the CPU time and times scheduled, per sample, of the program and of
# the pids in $TTY_ECHO_PIDS_<program> (its helpers, e.g. spaced); and
# "runs <program> <process> <runs> <voluntary> <preempted>" a sample,
# for each of them.
# $TTY_ECHO_GAP_MS: a pause before each byte, as a person types.
# usage: tty_echo.py samples command [arg ...] [--- command [arg ...]] ...
import os, pty, random, select, sys, time

def read_until(fd, want, limit):
    buf = b""
    end = time.monotonic() + limit
    while want not in buf:
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise SystemExit("tty_echo: no %r within %d s (%r)" % (want, limit, buf[-80:]))
        buf += os.read(fd, 4096)
    return buf

def descendants(pid):
    kids = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(p))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out

# Run time (ns) and times scheduled of every thread of these processes.
def cpu(pids):
    ns = runs = 0
    for p in pids:
        for v in tasks(p):
            ns += v[0]
            runs += v[1]
    return ns, runs

# Per thread: run time, runs, and the switches away from it: voluntary
# (it slept: a wakeup ends its run) and not (it was preempted, and its
# rest runs later: a run more).
def tasks(p):
    out = []
    try:
        names = os.listdir("/proc/%d/task" % p)
    except OSError:
        return out
    for t in names:
        try:
            with open("/proc/%d/task/%s/schedstat" % (p, t)) as f:
                v = f.read().split()
            with open("/proc/%d/task/%s/status" % (p, t)) as f:
                st = dict(l.split(":", 1) for l in f if ":" in l)
        except OSError:
            continue
        out.append((int(v[0]), int(v[2]),
            int(st["voluntary_ctxt_switches"]),
            int(st["nonvoluntary_ctxt_switches"])))
    return out

# Each process's runs, voluntary and preempted switches, summed over
# its threads.
def switches(pids):
    out = {}
    for p in pids:
        try:
            with open("/proc/%d/comm" % p) as f:
                name = f.read().strip()
        except OSError:
            continue
        r = [0, 0, 0]
        for v in tasks(p):
            r = [r[0] + v[1], r[1] + v[2], r[2] + v[3]]
        out[p] = (name, r)
    return out

n = int(sys.argv[1])
cmds, cur = [], []
for a in sys.argv[2:]:
    if a == "---" and cur:
        cmds.append(cur)
        cur = []
    else:
        cur.append(a)
cmds.append(cur)
progs = []
for argv in cmds:
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    progs.append((pid, fd))
# Ready when a line typed comes back: cat runs, its terminal echoes.
for pid, fd in progs:
    os.write(fd, b"ready\r")
    read_until(fd, b"ready", 60)
time.sleep(0.3)
for pid, fd in progs:
    while select.select([fd], [], [], 0.2)[0]:
        os.read(fd, 4096)
watch = []
for k, (pid, fd) in enumerate(progs):
    extra = os.environ.get("TTY_ECHO_PIDS_%d" % k, "").split()
    watch.append(descendants(pid) + [int(p) for p in extra])
before = [cpu(w) for w in watch]
sw_before = [switches(w) for w in watch]
order = list(range(len(progs)))
rnd = random.Random(23)
gap = float(os.environ.get("TTY_ECHO_GAP_MS", "0")) / 1000
out = []
for i in range(n):
    c = bytes([ord("a") + i % 26])
    rnd.shuffle(order)
    for k in order:
        pid, fd = progs[k]
        if gap > 0:
            time.sleep(gap)
        t0 = time.perf_counter_ns()
        os.write(fd, c)
        read_until(fd, c, 10)
        out.append("%d %d" % (k, (time.perf_counter_ns() - t0) // 1000))
    if i % 50 == 49:
        for pid, fd in progs:
            os.write(fd, b"\r")	# a line now and then: cat's buffer stays small
            read_until(fd, b"\n", 10)
for k, w in enumerate(watch):
    ns, runs = cpu(w)
    out.append("cpu %d %d %.2f" % (k, (ns - before[k][0]) // n,
        (runs - before[k][1]) / n))
    # "runs <program> <process> <runs> <voluntary> <preempted>" a key
    for p, (name, r) in sorted(switches(w).items()):
        if p not in sw_before[k]:
            continue
        r0 = sw_before[k][p][1]
        out.append("runs %d %s %.2f %.2f %.2f" % (k, name,
            (r[0] - r0[0]) / n, (r[1] - r0[1]) / n, (r[2] - r0[2]) / n))
for pid, fd in progs:
    os.write(fd, b"\x04\x04")
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
print("\n".join(out))
