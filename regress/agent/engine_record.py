#!/usr/bin/env python3
# What spaced sends the Docker Engine, recorded, so that a test can say
# where a secret crossed the Engine API.
#
#   engine_record.py serve LISTEN UPSTREAM DIR [CLOSE_FLAG]
#       forwards every connection to UPSTREAM unchanged; what the client
#       sends is appended to DIR/<n>.up, one file a connection.  While
#       the file CLOSE_FLAG is there, a connection that begins with an
#       exec's resize is closed after the engine's answer to it, as an
#       engine that keeps no connection open would: the client needs a
#       connection a resize (session/tty.sh, spaced's cap on them).
#   engine_record.py where DIR SECRET_FILE
#       prints "http N" and "stream N": how often the secret is in a
#       request (line, headers, body) and how often in the bytes after an
#       exec's start, the hijacked stdin of that exec.
import os, re, socket, sys, threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'integration'))
from engine_proxy import pump

START = re.compile(rb'^POST (/v[0-9.]+)?/exec/[0-9a-f]+/start[ ?]')
RESIZE = re.compile(rb'^POST (/v[0-9.]+)?/exec/[0-9a-f]+/resize\?')


def upto(sock, b, end):
    # b and what sock sends until b holds end (or the peer closed)
    while end not in b:
        d = sock.recv(65536)
        if not d:
            break
        b += d
    return b


def once(c, u, b, log):
    # one resize: its request to the engine, the answer back, then the
    # connection closed on both sides
    b = upto(c, b, b'\r\n\r\n')
    log.write(b)
    log.flush()
    u.sendall(b)
    a = upto(u, b'', b'\r\n\r\n')
    head, _, body = a.partition(b'\r\n\r\n')
    m = re.search(rb'\r\ncontent-length: *([0-9]+)', head, re.I)
    if m:
        while len(body) < int(m.group(1)):
            d = u.recv(65536)
            if not d:
                break
            body += d
    elif re.search(rb'\r\ntransfer-encoding: *chunked', head, re.I):
        body = upto(u, body, b'0\r\n\r\n')
    try:
        c.sendall(head + b'\r\n\r\n' + body)
    except OSError:
        pass
    u.close()
    c.close()


def conn(c, upstream, log, close_flag):
    u = socket.socket(socket.AF_UNIX)
    u.connect(upstream)
    if close_flag and os.path.exists(close_flag):
        b = upto(c, b'', b'\r\n')
        if RESIZE.match(b):
            return once(c, u, b, log)
        log.write(b)
        log.flush()
        u.sendall(b)
    threading.Thread(target=pump, args=(u, c), daemon=True).start()
    pump(c, u, log)


def serve(listen, upstream, out, close_flag=None):
    s = socket.socket(socket.AF_UNIX)
    s.bind(listen)
    os.chmod(listen, 0o600)
    s.listen(64)
    n = 0
    while True:
        c, _ = s.accept()
        n += 1
        log = open(os.path.join(out, '%d.up' % n), 'wb')
        threading.Thread(target=conn, args=(c, upstream, log, close_flag),
                         daemon=True).start()


def split(data):
    # (http bytes, stream bytes) of one connection's client side
    http, i = b'', 0
    while i < len(data):
        end = data.find(b'\r\n\r\n', i)
        if end == -1:
            return http + data[i:], b''
        head = data[i:end + 4]
        m = re.search(rb'\r\ncontent-length: *([0-9]+)', head, re.I)
        n = int(m.group(1)) if m else 0
        http += data[i:end + 4 + n]
        i = end + 4 + n
        if START.match(head):
            return http, data[i:]
    return http, b''


def where(out, secret_file):
    secret = open(secret_file, 'rb').read().strip()
    http = stream = 0
    for f in os.listdir(out):
        if f.endswith('.up'):
            h, s = split(open(os.path.join(out, f), 'rb').read())
            http += h.count(secret)
            # where, for the failing test's log, the secret masked
            i = h.find(secret)
            while i != -1:
                line = h[max(0, h.rfind(b'\r\n', 0, i) + 2):i + 80]
                sys.stderr.write('# in a request: %r\n' %
                                 line.replace(secret, b'<secret>'))
                i = h.find(secret, i + 1)
            stream += s.count(secret)
    print('http %d' % http)
    print('stream %d' % stream)


if sys.argv[1] == 'serve':
    serve(*sys.argv[2:6])
elif sys.argv[1] == 'where':
    where(*sys.argv[2:4])
else:
    sys.exit('usage: engine_record.py serve|where ...')
