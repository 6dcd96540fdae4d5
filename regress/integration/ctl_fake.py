#!/usr/bin/env python3
"""A stand-in for a spaced of another build on a control socket: it
answers one request, the way its mode says, and exits, so that the
real spacectl meets an answer of another protocol version.  Usage:
ctl_fake.py SOCKET MODE READY, READY a file written once it listens.
  old N     a spaced of version N whose check answers a record of
            another size (docker_check_msg before it grew), then END
  refuse N  a spaced of version N refusing the request: IMSG_CTL_FAIL
            protocol_version, whose layout no version changes
  echo      a spaced from before answers named their version: the
            refusal echoes the request's peerid
  same      an answer of the request's own version and tag, END alone
            (the control: spacectl takes it)"""
import os, socket, struct, sys

CTL_DATA, CTL_END, CTL_FAIL = 200, 201, 202
HDR = struct.Struct("=IHHII")

def main():
    path, mode = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 4 else None
    ready = sys.argv[-1]
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ls.bind(path)
    ls.listen(1)
    open(ready, "w").close()
    c, _ = ls.accept()
    c.settimeout(30)
    buf = b""
    while len(buf) < HDR.size:
        d = c.recv(65536)
        if not d:
            return
        buf += d
    _, _, _, peerid, _ = HDR.unpack(buf[:HDR.size])
    tag = peerid >> 8

    def send(t, version, body=b""):
        c.sendall(HDR.pack(t, HDR.size + len(body), 0,
                           (tag << 8) | version, 0) + body)

    if mode == "old":
        send(CTL_DATA, int(arg), b"\0" * 232)
        send(CTL_END, int(arg))
    elif mode == "refuse":
        send(CTL_FAIL, int(arg), b"protocol_version".ljust(64, b"\0"))
    elif mode == "echo":
        send(CTL_FAIL, peerid & 0xff, b"protocol_version".ljust(64, b"\0"))
    elif mode == "same":
        send(CTL_END, peerid & 0xff)
    c.close()

main()
