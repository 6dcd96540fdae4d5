# What the suites' stand-ins in front of the Docker Engine share
# (engine_fault.py, engine_hold.py, engine_slow.py): the listener, a
# client's requests read one after another, one direction of a
# connection copied as it comes, its end passed on.
import os, socket, threading


def pump(src, dst, log=None):
    # log: a file that gets a copy of every byte, or None
    try:
        while True:
            b = src.recv(65536)
            if not b:
                break
            if log is not None:
                log.write(b)
                log.flush()
            dst.sendall(b)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def header(head, name):
    # the value of header name (lower case) in a request's head, or None
    for l in head.split(b'\r\n')[1:]:
        k, _, v = l.partition(b':')
        if k.strip().lower() == name:
            return v.strip()
    return None


def requests(c, upstream, take, raw):
    # A client's requests on c, read one after another (a worker's
    # request makes its calls in turn on one connection), each to its
    # own connection to upstream unless take(c, head, body) answered it
    # itself (True).  Once raw(head) says a request it passed on is
    # upgraded (an exec's stream), the rest is copied as it comes.
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
            n = int(header(head, b'content-length') or 0)
            while len(buf) < n:
                d = c.recv(65536)
                if not d:
                    break
                buf += d
            body, buf = buf[:n], buf[n:]
            if take(c, head, body):
                continue
            u.sendall(head + body)
            if raw(head):
                if buf:
                    u.sendall(buf)
                pump(c, u)
                return
    except OSError:
        c.close()


def listen(path, serve, mode=0o600, backlog=1024, ready=False):
    # Accepts on a unix socket at path for good, serve(c) in a thread
    # for each connection; says 'ready' once it listens when asked.
    s = socket.socket(socket.AF_UNIX)
    try:
        os.unlink(path)
    except OSError:
        pass
    s.bind(path)
    os.chmod(path, mode)
    s.listen(backlog)
    if ready:
        print('ready', flush=True)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()
