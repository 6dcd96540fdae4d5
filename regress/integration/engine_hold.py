#!/usr/bin/env python3
# An engine that holds one call: forwards every connection to the real
# socket, reading each request of a connection (a worker's request makes
# its calls one after another on one connection), and holds the first
# whose request line matches PATTERN (a regular expression) until the
# file GO exists, after writing that line to HELD and its body to
# HELD.body.  A suite plants what
# it wants in that window, then lets the call go: an order of events,
# no timing.  An upgraded request (an exec's stream) is copied as it
# comes from there on.  usage: engine_hold.py LISTEN UPSTREAM PATTERN
# HELD GO
import os, re, socket, sys, threading, time
from engine_proxy import pump

listen, upstream, pattern, held, go = sys.argv[1:6]
PAT = re.compile(pattern.encode())
lock = threading.Lock()
state = {'held': False}


def hold(line, body):
    with lock:
        if state['held']:
            return
        state['held'] = True
    with open(held + '.body', 'wb') as f:
        f.write(body)
    with open(held + '.tmp', 'wb') as f:
        f.write(line + b'\n')
    os.rename(held + '.tmp', held)
    while not os.path.exists(go):
        time.sleep(0.05)


def header(head, name):
    for l in head.split(b'\r\n')[1:]:
        k, _, v = l.partition(b':')
        if k.strip().lower() == name:
            return v.strip()
    return None


def serve(c):
    u = socket.socket(socket.AF_UNIX)
    try:
        u.connect(upstream)
    except OSError:
        c.close()
        return
    threading.Thread(target=pump, args=(u, c), daemon=True).start()
    buf = b''
    try:
        while True:
            while b'\r\n\r\n' not in buf:
                d = c.recv(65536)
                if not d:
                    u.shutdown(socket.SHUT_WR)
                    return
                buf += d
            i = buf.index(b'\r\n\r\n') + 4
            head, buf = buf[:i], buf[i:]
            line = head.split(b'\r\n', 1)[0]
            n = int(header(head, b'content-length') or 0)
            while len(buf) < n:
                d = c.recv(65536)
                if not d:
                    break
                buf += d
            if PAT.search(line):
                hold(line, buf[:n])
            u.sendall(head + buf[:n])
            buf = buf[n:]
            if (header(head, b'upgrade') is not None or
                    header(head, b'transfer-encoding') is not None):
                # From here on the stream is not ours to read.
                if buf:
                    u.sendall(buf)
                pump(c, u)
                return
    except OSError:
        c.close()


s = socket.socket(socket.AF_UNIX)
try:
    os.unlink(listen)
except OSError:
    pass
s.bind(listen)
os.chmod(listen, 0o600)
s.listen(1024)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
