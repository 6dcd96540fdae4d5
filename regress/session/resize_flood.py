#!/usr/bin/env python3
"""A resize flood on one exec -t (review F7): the client starts an exec
with a terminal (raw protocol, struct ctl_exec) that prints its size
every second, then sends N IMSG_CTL_EXEC_RESIZE, 20 every 20 ms (a
burst alone is one size by the time it is sent), the last one 57x133,
a size none before it had.  Prints "sent N", then
"final: seen" once the command prints 57 133, or "final: not seen".
usage: resize_flood.py SOCKET SPACE_ID N"""
import os, socket, struct, sys, time

CTL_EXEC, CTL_EXEC_RESIZE = 114, 126
CTL_DATA, CTL_FAIL = 200, 202
STREAM_DATA = 10
HDR = struct.Struct("=IHHII")
PEER = 2	# CTL_PEERID(0): tag 0, protocol version 2

def send(s, mtype, body):
    s.sendall(HDR.pack(mtype, HDR.size + len(body), 0, PEER, os.getpid()) + body)

sock, sid, n = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
argv = [b"sh", b"-c", b"while :; do stty size; sleep 1; done"]
av = b"".join(a + b"\0" for a in argv)
ex = (sid + b"\0" + b"\0" * 3 + struct.pack("=5I", 0, 0, 1, len(argv), len(av)) +
      av.ljust(8192, b"\0") + struct.pack("=IHH", 1, 24, 80))
a = socket.socket(socket.AF_UNIX); a.connect(sock)
send(a, CTL_EXEC, ex)
buf, out_id, seen = b"", None, b""

def pump(limit):
    global buf, out_id, seen
    a.settimeout(limit)
    try:
        d = a.recv(65536)
    except socket.timeout:
        return
    if not d:
        sys.exit("closed (%r)" % seen[-80:])
    buf += d
    while len(buf) >= HDR.size:
        t, l, _, p, _ = HDR.unpack(buf[:HDR.size])
        if len(buf) < l:
            break
        body, buf = buf[HDR.size:l], buf[l:]
        if t == CTL_DATA and len(body) == 8 and out_id is None:
            out_id = struct.unpack("=II", body)[1]
        elif t == STREAM_DATA and p == out_id:
            seen = (seen + body[1:])[-4096:]	# a line a second: no credit owed
        elif t == CTL_FAIL:
            sys.exit("failed " + body.split(b"\0")[0].decode())

end = time.time() + 60
while (out_id is None or b"24 80" not in seen) and time.time() < end:
    pump(1)
if b"24 80" not in seen:
    sys.exit("no output of its terminal (%r)" % seen[-80:])
# Sizes that change each time; never 57x133 before the last.
msgs = [HDR.pack(CTL_EXEC_RESIZE, HDR.size + 8, 0, PEER, 0) +
        struct.pack("=IHH", out_id, 20 + i % 30, 60 + i % 50)
        for i in range(n - 1)]
a.setblocking(True)
for i in range(0, len(msgs), 20):
    a.sendall(b"".join(msgs[i:i + 20]))
    time.sleep(0.02)
send(a, CTL_EXEC_RESIZE, struct.pack("=IHH", out_id, 57, 133))
print("sent %d" % n, flush=True)
seen = b""
end = time.time() + 90
while b"57 133" not in seen and time.time() < end:
    pump(1)
print("final: seen" if b"57 133" in seen else "final: not seen", flush=True)
