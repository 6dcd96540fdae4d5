#!/usr/bin/env python3
# Keystroke echo through a terminal program (exec -t, docker exec -it):
# the program runs on a pty of ours, `cat` inside echoes through its own
# terminal; each sample is one byte written to our pty's master until
# that byte comes back.  Prints the samples in microseconds, one a line.
# usage: tty_echo.py samples command [arg ...]
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
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
# Ready when a line typed comes back: cat runs, its terminal echoes.
os.write(fd, b"ready\r")
read_until(fd, b"ready", 60)
time.sleep(0.3)
while select.select([fd], [], [], 0.2)[0]:
    os.read(fd, 4096)
out = []
for i in range(n):
    c = bytes([ord("a") + i % 26])
    t0 = time.perf_counter_ns()
    os.write(fd, c)
    read_until(fd, c, 10)
    out.append((time.perf_counter_ns() - t0) // 1000)
    if i % 50 == 49:
        os.write(fd, b"\r")	# a line now and then: cat's buffer stays small
        read_until(fd, b"\n", 10)
os.write(fd, b"\x04\x04")
try:
    os.waitpid(pid, 0)
except ChildProcessError:
    pass
print("\n".join(str(v) for v in out))
