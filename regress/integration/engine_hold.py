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
import os, re, sys, threading, time
from engine_proxy import header, listen, requests

path, upstream, pattern, held, go = sys.argv[1:6]
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


def take(c, head, body):
    line = head.split(b'\r\n', 1)[0]
    if PAT.search(line):
        hold(line, body)
    return False


def raw(head):
    # From here on the stream is not ours to read.
    return (header(head, b'upgrade') is not None or
            header(head, b'transfer-encoding') is not None)


listen(path, lambda c: requests(c, upstream, take, raw))
