#!/usr/bin/env python3
"""exec -t's resize belongs to the client whose exec it is.  Client A
starts an exec with a terminal (raw protocol, struct ctl_exec) that
prints its size every second; client B names A's output stream in an
IMSG_CTL_EXEC_RESIZE.  Prints, one a line: "B: closed" (spaced cut B
off) or "B: open"; then, A's own resize as the positive control,
"A: resized" once A's command prints the new size, or "A: not resized".
usage: resize_owner.py SOCKET SPACE_ID"""
import os, socket, struct, sys, time

CTL_EXEC, CTL_EXEC_RESIZE = 114, 126
CTL_DATA, CTL_END, CTL_FAIL = 200, 201, 202
STREAM_DATA, STREAM_CREDIT, STREAM_END = 10, 11, 12
HDR = struct.Struct("=IHHII")
PEER = 2	# CTL_PEERID(0): tag 0, protocol version 2

def send(s, mtype, body, peerid=PEER):
    s.sendall(HDR.pack(mtype, HDR.size + len(body), 0, peerid, os.getpid()) + body)

def messages(s, buf, limit):
    """(type, peerid, body) of what came within limit seconds; None: closed"""
    s.settimeout(limit)
    try:
        d = s.recv(65536)
    except socket.timeout:
        return buf, []
    if not d:
        return buf, None
    buf += d
    out = []
    while len(buf) >= HDR.size:
        t, l, _, p, _ = HDR.unpack(buf[:HDR.size])
        if len(buf) < l:
            break
        out.append((t, p, buf[HDR.size:l]))
        buf = buf[l:]
    return buf, out

sock, sid = sys.argv[1], sys.argv[2].encode()
argv = [b"sh", b"-c", b"while :; do stty size; sleep 1; done"]
av = b"".join(a + b"\0" for a in argv)
ex = (sid + b"\0" + b"\0" * 3 + struct.pack("=5I", 0, 0, 1, len(argv), len(av)) +
      av.ljust(8192, b"\0") + struct.pack("=IHH", 1, 24, 80))
a = socket.socket(socket.AF_UNIX); a.connect(sock)
send(a, CTL_EXEC, ex)
abuf, out_id, seen = b"", None, b""

def pump(limit):
    global abuf, out_id, seen
    abuf, ms = messages(a, abuf, limit)
    if ms is None:
        sys.exit("A: closed")
    for t, p, body in ms:
        if t == CTL_DATA and len(body) == 8 and out_id is None:
            out_id = struct.unpack("=II", body)[1]
        elif t == STREAM_DATA and p == out_id:
            seen += body[1:]	# far below the window: no credit owed
        elif t == CTL_FAIL:
            sys.exit("A: failed " + body.split(b"\0")[0].decode())

end = time.time() + 60
while (out_id is None or b"24 80" not in seen) and time.time() < end:
    pump(1)
if b"24 80" not in seen:
    sys.exit("A: no output of its terminal (%r)" % seen[-80:])
b = socket.socket(socket.AF_UNIX); b.connect(sock)
send(b, CTL_EXEC_RESIZE, struct.pack("=IHH", out_id, 33, 77))
bbuf, bm = messages(b, b"", 5)
state = "closed" if bm is None else "open"
if bm:	# a FAIL before the close counts as closed when the close follows
    bbuf, bm2 = messages(b, bbuf, 5)
    state = "closed" if bm2 is None else "open"
print("B: " + state, flush=True)
send(a, CTL_EXEC_RESIZE, struct.pack("=IHH", out_id, 44, 99))
end = time.time() + 60
while b"44 99" not in seen and time.time() < end:
    pump(1)
print("A: resized" if b"44 99" in seen else "A: not resized", flush=True)
print("A: saw 33 77" if b"33 77" in seen else "A: never saw 33 77", flush=True)
