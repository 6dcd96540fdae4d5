#!/usr/bin/env python3
# window.py: a stand-in for the gatekeeper's window in the agent-turn
# tests that run outside a space (a test fixture, stdlib only).
#
#   window.py --listen ADDR --port N --grants DIR --upstream HOST:PORT \
#       --log F [--lifetime S]
#
# /model/<grant>/<rest> goes to http://UPSTREAM/<rest> with the grant's
# header set, "Authorization: Bearer <key>", the key read from
# DIR/<grant> (never argv); whatever the client sent as authorization,
# x-api-key or proxy-authorization is dropped first, as the spec's
# window does.  An unknown grant is 403.  The answer is relayed as it
# comes (SSE included).  One JSON line per request to --log, no key.

import argparse
import http.client
import json
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument("--listen", default="127.0.0.1")
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--grants", required=True)
ap.add_argument("--upstream", required=True)
ap.add_argument("--log", required=True)
ap.add_argument("--lifetime", type=float, default=600)
args = ap.parse_args()

up_host, up_port = args.upstream.rsplit(":", 1)
DROP = {"authorization", "x-api-key", "proxy-authorization", "host",
        "connection", "keep-alive", "transfer-encoding", "te", "upgrade",
        "proxy-connection"}
GRANT = re.compile(r"^/model/([A-Za-z0-9_-]{1,64})(/.*)$")
lock = threading.Lock()
logf = open(args.log, "a", buffering=1)


def log(rec):
    with lock:
        logf.write(json.dumps(rec, sort_keys=True) + "\n")


def grant_key(g):
    try:
        with open(os.path.join(args.grants, g)) as f:
            return f.read().strip() or None
    except OSError:
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "spaced-window-standin/1"

    def log_message(self, fmt, *a):
        pass

    def deny(self, code, rec):
        body = json.dumps({"error": "window: %d" % code}).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        rec["status"] = code
        log(rec)

    def relay(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else None
        rec = {"t": round(time.time(), 3), "method": method,
               "path": self.path,
               "client_sent_auth": any(h.lower() in ("authorization",
                                                     "x-api-key")
                                       for h in self.headers.keys())}
        m = GRANT.match(self.path)
        if not m:
            return self.deny(404, rec)
        key = grant_key(m.group(1))
        rec["grant"] = m.group(1)
        if key is None:
            return self.deny(403, rec)
        hdrs = {k: v for k, v in self.headers.items()
                if k.lower() not in DROP}
        hdrs["Authorization"] = "Bearer " + key
        hdrs["Host"] = args.upstream
        try:
            c = http.client.HTTPConnection(up_host, int(up_port), timeout=60)
            c.request(method, m.group(2), body=body, headers=hdrs)
            r = c.getresponse()
        except OSError as e:
            rec["error"] = str(e)
            return self.deny(502, rec)
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() not in DROP and k.lower() != "content-length":
                self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        while True:
            chunk = r.read1(65536) if hasattr(r, "read1") else r.read(65536)
            if not chunk:
                break
            self.wfile.write(chunk)
            self.wfile.flush()
        c.close()
        self.close_connection = True
        rec["status"] = r.status
        log(rec)

    def do_GET(self):
        self.relay("GET")

    def do_POST(self):
        self.relay("POST")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server((args.listen, args.port), Handler)
log({"event": "listening", "listen": args.listen, "port": args.port})


def stopper():
    time.sleep(args.lifetime)
    srv.shutdown()


threading.Thread(target=stopper, daemon=True).start()
srv.serve_forever()
