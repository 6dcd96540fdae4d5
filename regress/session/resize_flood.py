#!/usr/bin/env python3
"""A resize flood on one exec -t (review F7): the client starts an exec
with a terminal (raw protocol, rawexec.py) that prints its size every
second, then sends N IMSG_CTL_EXEC_RESIZE, 20 every 20 ms (a burst
alone is one size by the time it is sent), the last one 57x133, a size
none before it had.  Prints "sent N", then "final: seen" once the
command prints 57 133, or "final: not seen".
usage: resize_flood.py SOCKET SPACE_ID N"""
import sys, time

from rawexec import SizeExec, resize

sock, sid, n = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
a = SizeExec(sock, sid)
a.started()
# Sizes that change each time; never 57x133 before the last.
msgs = [resize(a.out_id, 20 + i % 30, 60 + i % 50, 0)
        for i in range(n - 1)]
a.s.setblocking(True)
for i in range(0, len(msgs), 20):
    a.s.sendall(b"".join(msgs[i:i + 20]))
    time.sleep(0.02)
a.s.sendall(resize(a.out_id, 57, 133))
print("sent %d" % n, flush=True)
a.seen = b""
print("final: seen" if a.wait_for(b"57 133", 90) else "final: not seen",
      flush=True)
