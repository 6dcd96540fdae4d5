#!/usr/bin/env python3
"""exec -t's resize belongs to the client whose exec it is.  Client A
starts an exec with a terminal (raw protocol, rawexec.py) that prints
its size every second; client B names A's output stream in an
IMSG_CTL_EXEC_RESIZE.  Prints, one a line: "B: closed" (spaced cut B
off) or "B: open"; then, A's own resize as the positive control,
"A: resized" once A's command prints the new size, or "A: not resized".
usage: resize_owner.py SOCKET SPACE_ID"""
import socket, sys

from rawexec import SizeExec, messages, resize

sock, sid = sys.argv[1], sys.argv[2].encode()
a = SizeExec(sock, sid, "A: ")
a.started()
b = socket.socket(socket.AF_UNIX); b.connect(sock)
b.sendall(resize(a.out_id, 33, 77))
bbuf, bm = messages(b, b"", 5)
state = "closed" if bm is None else "open"
if bm:	# a FAIL before the close counts as closed when the close follows
    bbuf, bm2 = messages(b, bbuf, 5)
    state = "closed" if bm2 is None else "open"
print("B: " + state, flush=True)
a.s.sendall(resize(a.out_id, 44, 99))
print("A: resized" if a.wait_for(b"44 99", 60) else "A: not resized",
      flush=True)
print("A: saw 33 77" if b"33 77" in a.seen else "A: never saw 33 77", flush=True)
