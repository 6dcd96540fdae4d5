#!/usr/bin/env python3
# A fault proxy in front of the Docker Engine for move.sh: forwards every
# connection to the real socket unchanged, and answers in its place the
# requests that a rule in RULES (a file, read at each request) names:
# (by id: only a container whose role label is "space")
#   fail-start-id     POST /containers/<64 hex>/start       -> 500
#   fail-create-space POST /containers/create?name=...-space -> 500
#   tamper-inspect-id GET /containers/<64 hex>/json: the real answer
#                     with HostConfig.Privileged true
#   long-id-create-space POST /containers/create?name=...-space: the
#                     real answer with its Id 8 hex longer (plain, too
#                     long for spaced to keep whole), the real Id in
#                     RULES.made; each request's first line in RULES.calls
# (by name, for server.sh)
#   fail-exec-space   POST /containers/...-space/exec            -> 500
# (an order of events, for prune-race.sh)
#   hold-create-space POST /containers/create?name=...-space waits,
#                     RULES.held written, until the rule is gone
# Only a move calls these by the engine's id, so the rules hit the move
# and nothing else.  usage: engine_fault.py LISTEN UPSTREAM RULES
import json, re, socket, sys, time
from engine_proxy import listen, requests

path, upstream, rules = sys.argv[1:4]
ID = re.compile(rb'^(GET|POST) (/v[0-9.]+)?/containers/([0-9a-f]{64})/(json|start)')
CREATE = re.compile(rb'^POST (/v[0-9.]+)?/containers/create\?name=spaced-space-[0-9a-f]{12}-space ')
EXEC = re.compile(rb'^POST (/v[0-9.]+)?/containers/spaced-space-[0-9a-f]{12}-space/exec ')

def active():
    try:
        return open(rules).read().split()
    except OSError:
        return []

def answer(c, status, body):
    c.sendall(b'HTTP/1.1 %d Injected\r\nContent-Type: application/json\r\n'
              b'Content-Length: %d\r\n\r\n' % (status, len(body)) + body)

def fetch(head, body=b''):
    # the same request on a connection of its own, Connection: close
    u = socket.socket(socket.AF_UNIX)
    u.connect(upstream)
    lines = [l for l in head.split(b'\r\n') if l and
             not l.lower().startswith(b'connection:')]
    u.sendall(b'\r\n'.join(lines) + b'\r\nConnection: close\r\n\r\n' + body)
    data = b''
    while True:
        b = u.recv(65536)
        if not b:
            break
        data += b
    u.close()
    h, _, body = data.partition(b'\r\n\r\n')
    if b'chunked' in h.lower():
        out, rest = b'', body
        while True:
            n, _, rest = rest.partition(b'\r\n')
            n = int(n, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        body = out
    return int(h.split()[1]), body

def role_of(cid):
    # the container's role label: the rules hit space containers only
    # (not the one-shots of the tools ensure)
    st, b = fetch(b'GET /containers/' + cid + b'/json HTTP/1.1\r\nHost: docker')
    if st != 200:
        return None
    return (json.loads(b).get('Config', {}).get('Labels') or {}).get('spaced.space.role')

def take(c, head, body):
    # the rule's answer in the engine's place (True), or none
    r, mi, mc = active(), ID.match(head), CREATE.match(head)
    if mi and r and role_of(mi.group(3)) != 'space':
        mi = None
    if mi and mi.group(4) == b'start' and 'fail-start-id' in r:
        answer(c, 500, b'{"message":"injected: start fails"}')
        return True
    if EXEC.match(head) and 'fail-exec-space' in r:
        answer(c, 500, b'{"message":"injected: exec fails"}')
        return True
    if 'long-id-create-space' in r:
        with open(rules + '.calls', 'ab') as f:
            f.write(head.split(b'\r\n', 1)[0] + b'\n')
    if mc and 'long-id-create-space' in r:
        st, b = fetch(head, body)
        if st == 201:
            o = json.loads(b)
            with open(rules + '.made', 'w') as f:
                f.write(o['Id'])
            o['Id'] += '0' * 8
            b = json.dumps(o).encode()
        answer(c, st, b)
        return True
    if mc and 'hold-create-space' in r:
        open(rules + '.held', 'w').close()
        while 'hold-create-space' in active():
            time.sleep(0.1)
    if mc and 'fail-create-space' in r:
        answer(c, 500, b'{"message":"injected: create fails"}')
        return True
    if mi and mi.group(4) == b'json' and 'tamper-inspect-id' in r:
        st, b = fetch(head)
        if st == 200:
            o = json.loads(b)
            o['HostConfig']['Privileged'] = True
            b = json.dumps(o).encode()
        answer(c, st, b)
        return True
    return False

def raw(head):
    # a hijacked stream (exec): raw from here on
    return (re.search(rb'(?im)^upgrade:', head) or
            re.match(rb'^POST \S*/(exec/[^/ ]+/start|containers/[^/ ]+/attach)',
                     head))

listen(path, lambda c: requests(c, upstream, take, raw), mode=0o666,
       backlog=64, ready=True)
