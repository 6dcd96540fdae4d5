"""A raw client of spaced's control socket for exec -t's tests
(resize_owner.py, resize_flood.py): the protocol's few constants, one
message out, the messages in, and an exec with a terminal of 24x80 whose
command prints its size every second (struct ctl_exec)."""
import os, socket, struct, sys, time

CTL_EXEC, CTL_EXEC_RESIZE = 114, 126
CTL_DATA, CTL_FAIL = 200, 202
STREAM_DATA = 10
HDR = struct.Struct("=IHHII")
PEER = int(os.environ["CTL_VERSION"])	# CTL_PEERID(0): regress/lib/ctlversion.sh
SEEN_MAX = 4096	# a line a second: far below the window, no credit owed


def send(s, mtype, body):
    s.sendall(HDR.pack(mtype, HDR.size + len(body), 0, PEER, os.getpid()) + body)


def resize(stream, rows, cols, pid=None):
    """One IMSG_CTL_EXEC_RESIZE of stream, as bytes to send (pid: the
    header's, ours unless given)."""
    return (HDR.pack(CTL_EXEC_RESIZE, HDR.size + 8, 0, PEER,
                     os.getpid() if pid is None else pid) +
            struct.pack("=IHH", stream, rows, cols))


def messages(s, buf, limit):
    """(buf, [(type, peerid, body)]) of what came within limit seconds;
    the list is None once the peer closed."""
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


class SizeExec:
    """An exec -t of `stty size` every second in space sid; what its
    terminal printed is in .seen (the last SEEN_MAX bytes), its output
    stream's id in .out_id.  who prefixes the messages it exits with."""

    def __init__(self, sock, sid, who=""):
        argv = [b"sh", b"-c", b"while :; do stty size; sleep 1; done"]
        av = b"".join(a + b"\0" for a in argv)
        ex = (sid + b"\0" + b"\0" * 3 +
              struct.pack("=5I", 0, 0, 1, len(argv), len(av)) +
              av.ljust(8192, b"\0") + struct.pack("=IHH", 1, 24, 80))
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(sock)
        self.who, self.buf, self.out_id, self.seen = who, b"", None, b""
        send(self.s, CTL_EXEC, ex)

    def pump(self, limit):
        """What came within limit seconds, taken in; exits on a close
        or a failure."""
        self.buf, ms = messages(self.s, self.buf, limit)
        if ms is None:
            sys.exit(self.who + "closed (%r)" % self.seen[-80:])
        for t, p, body in ms:
            if t == CTL_DATA and len(body) == 8 and self.out_id is None:
                self.out_id = struct.unpack("=II", body)[1]
            elif t == STREAM_DATA and p == self.out_id:
                self.seen = (self.seen + body[1:])[-SEEN_MAX:]
            elif t == CTL_FAIL:
                sys.exit(self.who + "failed " +
                         body.split(b"\0")[0].decode())

    def wait_for(self, text, limit):
        """1 once the terminal printed text (within limit seconds)."""
        end = time.time() + limit
        while ((self.out_id is None or text not in self.seen) and
               time.time() < end):
            self.pump(1)
        return text in self.seen

    def started(self):
        """Its first size (24 80) came, or exit saying what did."""
        if not self.wait_for(b"24 80", 60):
            sys.exit(self.who + "no output of its terminal (%r)" %
                     self.seen[-80:])
