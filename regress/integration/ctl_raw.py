#!/usr/bin/env python3
"""Sends hand-made requests to spaced's control socket and prints what
comes back: the error code of an IMSG_CTL_FAIL, "end", "data", or "closed".
The header is struct imsg_hdr: type u32, len u16, flags u16, peerid u32,
pid u32 (common/lib/imsg.h)."""
import socket, struct, sys

CTL_STATUS, CTL_PROBE, CTL_FAIL, CTL_DATA, CTL_END = 100, 104, 202, 200, 201
CTL_PING, CTL_STREAM_TEST, CTL_PROGRESS = 105, 106, 203
CTL_EXEC = 114
import os
# The version: regress/lib/ctlversion.sh, which every suite sources.
VERSION, PROC_GIT = int(os.environ["CTL_VERSION"]), 2
HDR = struct.Struct("=IHHII")

def hdr(mtype, plen, peerid=None, flags=0, length=None):
    if peerid is None:
        peerid = VERSION
    return HDR.pack(mtype, HDR.size + plen if length is None else length,
                    flags, peerid, 0)

def answers(sock, versions=False):
    out, buf = [], b""
    sock.settimeout(5)
    while True:
        try:
            d = sock.recv(65536)
        except socket.timeout:
            out.append("timeout"); return out
        except ConnectionResetError:
            d = b""
        if not d:
            out.append("closed"); return out
        buf += d
        while len(buf) >= HDR.size:
            t, l, _, peerid, _ = HDR.unpack(buf[:HDR.size])
            if len(buf) < l:
                break
            body, buf = buf[HDR.size:l], buf[l:]
            if t == CTL_FAIL:
                out.append(body.split(b"\0")[0].decode())
            elif t == CTL_END:
                out.append("end")
            elif t == CTL_DATA:
                out.append("data")
            else:
                out.append("type%d" % t)
            if versions:
                out[-1] += "@%d" % (peerid & 0xff)
            if t in (CTL_FAIL, CTL_END):
                return out

def tagged(tag):
    return (tag << 8) | VERSION

def flood(s, secs):
    """STATUS requests as fast as spaced takes them, never reading."""
    import time
    s.setblocking(False)
    req, sent, end = hdr(CTL_STATUS, 0) * 64, 0, time.time() + secs
    closed = ""
    while time.time() < end:
        try:
            sent += s.send(req)
        except BlockingIOError:
            time.sleep(0.01)
        except OSError as e:
            closed = "; closed by spaced (%s)" % e.strerror
            break
    print("sent %d requests%s" % (sent // HDR.size, closed))

def tags(s, n):
    """n pings to spaced-git on one connection, each with its own tag."""
    s.sendall(b"".join(hdr(CTL_PING, 4, peerid=tagged(t)) +
                       struct.pack("=I", PROC_GIT) for t in range(1, n + 1)))
    seen, buf = [], b""
    s.settimeout(5)
    while len(seen) < n:
        d = s.recv(65536)
        if not d:
            break
        buf += d
        while len(buf) >= HDR.size:
            t, l, _, peerid, _ = HDR.unpack(buf[:HDR.size])
            if len(buf) < l:
                break
            body, buf = buf[HDR.size:l], buf[l:]
            name = {CTL_END: "end", CTL_FAIL: "fail"}.get(t, "type%d" % t)
            if t == CTL_FAIL:
                name = body.split(b"\0")[0].decode()
            seen.append("%s:%d" % (name, peerid >> 8))
    print(" ".join(sorted(seen, key=lambda x: int(x.split(":")[1]))))

def checks(s, n, leave):
    """n checks in flight on one connection; the time until all ended.
    With RAW_FIRST and RAW_COUNT set, writes to RAW_FIRST, as the first
    answer arrives, how many requests the stand-in Engine had read then
    (the size of its count file RAW_COUNT): an order, not a time."""
    import os, time
    first, count = os.environ.get("RAW_FIRST"), os.environ.get("RAW_COUNT")
    t0 = time.time()
    s.sendall(b"".join(hdr(102, 0, peerid=tagged(t)) for t in range(1, n + 1)))
    if leave:
        s.close(); print("left"); return
    ends, avail, buf = 0, 0, b""
    s.settimeout(30)
    while ends < n:
        d = s.recv(65536)
        if not d:
            print("closed"); return
        if first and not os.path.exists(first):
            with open(first + ".tmp", "w") as f:
                f.write("%d\n" % os.path.getsize(count))
            os.rename(first + ".tmp", first)
        buf += d
        while len(buf) >= HDR.size:
            t, l, _, _, _ = HDR.unpack(buf[:HDR.size])
            if len(buf) < l:
                break
            body, buf = buf[HDR.size:l], buf[l:]
            # Docker's records; the native place's says "native"
            if (t == CTL_DATA and struct.unpack("=i", body[:4])[0] == 1 and
                    not body[68:74] == b"native"):
                avail += 1
            elif t in (CTL_END, CTL_FAIL):
                ends += 1
    print("%d available in %.2f s" % (avail, time.time() - t0))

def hold(path, n):
    """n connections, each proven by a status answer; holds them."""
    import time
    held, refused = [], 0
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        try:
            # A connection over the cap is closed unread.
            s.sendall(hdr(CTL_STATUS, 0))
            ok = answers(s)[-1] == "end"
        except OSError:
            ok = False
        if ok:
            held.append(s)
        else:
            refused += 1
    print("held %d refused %d" % (len(held), refused), flush=True)
    time.sleep(60)

def main():
    path, case = sys.argv[1], sys.argv[2]
    if case == "hold":
        hold(path, int(sys.argv[3])); return
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    if case == "oversized":
        s.sendall(hdr(CTL_STATUS, 0, length=60000) + b"x" * 4096)
    elif case == "big":
        s.sendall(hdr(CTL_STATUS, 9000) + b"y" * 9000)
    elif case == "undersized":
        s.sendall(hdr(CTL_STATUS, 0, length=4))
    elif case == "truncated":
        s.sendall(hdr(CTL_STATUS, 0)[:7]); s.close(); print("sent"); return
    elif case == "midmessage":
        s.sendall(hdr(CTL_PROBE, 12) + b"\1\0"); s.close(); print("sent"); return
    elif case == "version":
        s.sendall(hdr(CTL_STATUS, 0, peerid=0x2a))
    elif case == "unknown":
        s.sendall(hdr(150, 0))
    elif case == "badlength":
        s.sendall(hdr(CTL_STATUS, 3) + b"abc")
    elif case == "fdflag":
        s.sendall(hdr(CTL_STATUS, 0, flags=1))
    elif case == "probe-badproc":
        s.sendall(hdr(CTL_PROBE, 12) + struct.pack("=IIi", 9, 1, 0))
    elif case == "status":
        s.sendall(hdr(CTL_STATUS, 0))
    elif case == "flood":
        flood(s, float(sys.argv[3])); return
    elif case == "checks":
        checks(s, int(sys.argv[3]), len(sys.argv) > 4); return
    elif case == "tags":
        tags(s, int(sys.argv[3])); return
    elif case == "noread-stream":
        # 1 GiB to us as the sink, and we never read: spaced must hold
        # no more than a window of it.
        import time
        s.sendall(hdr(CTL_STREAM_TEST, 40) +
                  struct.pack("=QIIQQQ", 1 << 30, 1, 0, 0, 0, 0))
        time.sleep(float(sys.argv[3])); print("slept"); return
    elif case == "space-leave":
        # space-leave TYPE MS: a struct ctl_space of zeros (create: the
        # default place, name and memory), then the client leaves after
        # MS milliseconds, reading nothing.
        import time
        t, ms = int(sys.argv[3]), float(sys.argv[4])
        body = b"\0" * (13 + 65 + 17 + 1) + struct.pack("=Q", 0) + b"\0" * 8
        s.sendall(hdr(t, len(body)) + body)
        time.sleep(ms / 1000)
        s.close(); print("left"); return
    elif case == "space":
        # struct ctl_space by hand: space TYPE ID NAME PROJECT MEMORY;
        # a field "UNTERM" fills it without a NUL, "\\xNN" escapes work.
        def field(v, n):
            if v == "UNTERM":
                return b"a" * n
            b = v.encode().decode("unicode_escape").encode("latin-1")
            return b + b"\0" * (n - len(b))
        t, sid, name, project, mem = sys.argv[3:8]
        body = (field(sid, 13) + field(name, 65) + field(project, 17) +
                b"\0" + struct.pack("=Q", int(mem)) + b"\0" * 8)
        s.sendall(hdr(int(t), len(body)) + body)
    elif case == "exec-target":
        # struct ctl_exec by hand: exec-target ID TARGET, argv "true",
        # no stdin; prints the FAIL code (or "end").
        sid, target = sys.argv[3], int(sys.argv[4])
        argv = b"true\0"
        body = (sid.encode() + b"\0" + b"\0" * 3 +
                struct.pack("=IIIII", target, 0, 0, 1, len(argv)) +
                argv + b"\0" * (8192 - len(argv)) +
                struct.pack("=IHH", 0, 0, 0))	# no terminal
        s.sendall(hdr(CTL_EXEC, len(body)) + body)
    elif case == "speak":
        # speak N TYPE: a request of TYPE (no payload) in version N, as a
        # spacectl of another build sends it; prints each answer with its
        # peerid's low byte, spaced's version ("protocol_version@3").
        s.sendall(hdr(int(sys.argv[4]), 0, peerid=int(sys.argv[3])))
        print(" ".join(answers(s, versions=True)))
        return
    elif case == "speak-big":
        # speak-big N TYPE: the same with 9000 bytes of payload, over the
        # control channel's cap: spaced reads the header and no further.
        s.sendall(hdr(int(sys.argv[4]), 9000, peerid=int(sys.argv[3])) +
                  b"y" * 9000)
        print(" ".join(answers(s, versions=True)))
        return
    elif case == "why":
        # why TYPE LEN: a request of TYPE with LEN zero bytes; prints the
        # FAIL's code and the reason spaced gave after it (ctl_fail_why),
        # "CODE: REASON", or the code alone.
        s.sendall(hdr(int(sys.argv[3]), int(sys.argv[4])) +
                  b"\0" * int(sys.argv[4]))
        buf = b""
        while len(buf) < HDR.size or len(buf) < HDR.unpack(buf[:HDR.size])[1]:
            d = s.recv(65536)
            if not d:
                print("closed"); return
            buf += d
        t, l = HDR.unpack(buf[:HDR.size])[:2]
        body = buf[HDR.size:l]
        if t != CTL_FAIL:
            print("type%d" % t); return
        code = body[:64].split(b"\0")[0].decode()
        why = body[64:].split(b"\0")[0].decode()
        print("%s: %s" % (code, why) if why else code)
        return
    elif case == "data-nostream":
        # Data for a stream that does not exist: refused, then closed.
        s.sendall(hdr(10, 16, peerid=7) + b"z" * 16)
    print(" ".join(answers(s)))

main()
