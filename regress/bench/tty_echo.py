#!/usr/bin/env python3
# Keystroke echo through terminal programs (exec -t, docker exec -it):
# each program runs on a pty of ours, `cat` inside echoes through its own
# terminal; a sample is one byte written to a pty's master until that
# byte comes back.  With several programs (their argv split by "---"),
# all run at once and the samples alternate between them byte by byte,
# so that the machine's load falls on each alike.  Prints one line a
# sample, "<program index> <microseconds>".
# usage: tty_echo.py samples command [arg ...] [--- command [arg ...]] ...
import os, pty, select, sys, time

def read_until(fd, want, limit):
    buf = b""
    end = time.monotonic() + limit
    while want not in buf:
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise SystemExit("tty_echo: no %r within %d s (%r)" % (want, limit, buf[-80:]))
        buf += os.read(fd, 4096)
    return buf

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
out = []
for i in range(n):
    c = bytes([ord("a") + i % 26])
    for k, (pid, fd) in enumerate(progs):
        t0 = time.perf_counter_ns()
        os.write(fd, c)
        read_until(fd, c, 10)
        out.append("%d %d" % (k, (time.perf_counter_ns() - t0) // 1000))
    if i % 50 == 49:
        for pid, fd in progs:
            os.write(fd, b"\r")	# a line now and then: cat's buffer stays small
            read_until(fd, b"\n", 10)
for pid, fd in progs:
    os.write(fd, b"\x04\x04")
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
print("\n".join(out))
