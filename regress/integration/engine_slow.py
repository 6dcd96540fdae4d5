#!/usr/bin/env python3
# A slow engine for spaced-flood.sh: forwards every connection to the
# real socket, and holds each /version and /info request (what check
# asks) DELAY seconds first, as a loaded dockerd does; it appends one
# line to LOG for each such request it passes on, so a suite counts the
# checks that reached the engine.  usage: engine_slow.py LISTEN UPSTREAM
# DELAY LOG
import re, socket, sys, threading, time
from engine_proxy import listen, pump

path, upstream, delay, log = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
CHECK = re.compile(rb'^GET (/v[0-9.]+)?/(version|info)[ ?]')
lock = threading.Lock()

def serve(c):
    head = b''
    try:
        while b'\r\n' not in head:
            d = c.recv(4096)
            if not d:
                c.close()
                return
            head += d
        if CHECK.match(head):
            with lock, open(log, 'a') as f:
                f.write('%f %s\n' % (time.time(), head.split(b'\r\n')[0].decode()))
            time.sleep(delay)
        u = socket.socket(socket.AF_UNIX)
        u.connect(upstream)
        u.sendall(head)
    except OSError:
        c.close()
        return
    threading.Thread(target=pump, args=(u, c), daemon=True).start()
    pump(c, u)

listen(path, serve)
