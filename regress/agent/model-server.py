#!/usr/bin/env python3
# model-server.py: a scripted OpenAI-compatible model for the agent-turn
# tests (a test fixture: stdlib only, no network but the listener).
#
#   model-server.py --listen ADDR --port N --key-file F --log F \
#       --command CMD [--model ID] [--key-header H] [--lifetime S]
#
# The key is read from --key-file (or $MODEL_KEY_FILE), never from argv.
# Every request is logged to --log as one JSON line: method, path, the
# headers (the key header's value replaced by its verdict), the body.
# A request whose key header is not the expected one ("Bearer KEY" for
# authorization, "KEY" for any other header) gets 401.
#
# POST /v1/chat/completions, streamed (SSE) or not:
#   - a request without tools (OpenCode's title generator)  -> a short text
#   - a request whose messages hold a tool result           -> final text
#     "spaced-final: <the tool's output>"
#   - else                                                   -> one call of
#     the request's shell tool ("bash": command, and description when
#     its schema has one) running CMD
# GET /v1/models -> the one model.  Anything else -> 404, logged.
# --dns: a DNS logger on udp/53 (NXDOMAIN to all); --proxy-port N: a
# corridor stand-in (each CONNECT or absolute-URL request logged, 403).
# It stops by itself after --lifetime seconds or --max-requests requests.

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument("--listen", default="127.0.0.1")
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--key-file", default=os.environ.get("MODEL_KEY_FILE"))
ap.add_argument("--key-header", default="authorization")
ap.add_argument("--log", required=True)
ap.add_argument("--command", required=True)
ap.add_argument("--model", default="scripted")
ap.add_argument("--tool", default="bash")
ap.add_argument("--lifetime", type=float, default=600)
ap.add_argument("--max-requests", type=int, default=200)
ap.add_argument("--dns", action="store_true",
                help="also answer DNS on udp/53 of --listen: log each "
                     "name asked for, answer NXDOMAIN")
ap.add_argument("--proxy-port", type=int, default=0,
                help="also a corridor stand-in on this port of --listen: "
                     "log each proxy request, answer 403")
args = ap.parse_args()

if not args.key_file:
    sys.exit("model-server: no --key-file and no MODEL_KEY_FILE")
with open(args.key_file) as f:
    KEY = f.read().strip()
if not KEY:
    sys.exit("model-server: empty key")
KEY_HEADER = args.key_header.lower()
EXPECTED = ("Bearer " + KEY) if KEY_HEADER == "authorization" else KEY
# headers whose values could carry a key: logged only as a verdict
SECRET_HEADERS = {"authorization", "x-api-key", "proxy-authorization",
                  KEY_HEADER}

lock = threading.Lock()
logf = open(args.log, "a", buffering=1)
count = 0


def log(rec):
    with lock:
        logf.write(json.dumps(rec, sort_keys=True) + "\n")


def verdict(value):
    if value is None:
        return "absent"
    return "match" if value == EXPECTED else "mismatch"


def bash_tool(tools):
    for t in tools or []:
        fn = t.get("function") or {}
        if fn.get("name") == args.tool:
            return fn
    return None


def tool_result(messages):
    """The content of the last tool message after the last user message
    (this turn's tool result), or None."""
    out = None
    for m in messages or []:
        if m.get("role") == "user":
            out = None
        if m.get("role") == "tool":
            c = m.get("content")
            if isinstance(c, list):
                c = "".join(p.get("text", "") for p in c
                            if isinstance(p, dict))
            out = c if isinstance(c, str) else json.dumps(c)
    return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "spaced-model/1"

    def log_message(self, fmt, *a):
        pass

    def reply(self, code, obj, rec):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        rec["status"] = code
        log(rec)

    def handle_one(self, method):
        global count
        with lock:
            count += 1
            n = count
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        hdrs = {}
        for k, v in self.headers.items():
            lk = k.lower()
            hdrs[lk] = ("<%s>" % verdict(v)) if lk in SECRET_HEADERS else v
        rec = {"n": n, "t": round(time.time(), 3), "method": method,
               "path": self.path, "headers": hdrs,
               "key": verdict(self.headers.get(KEY_HEADER))}
        try:
            body = json.loads(raw) if raw else None
            rec["body"] = body
        except ValueError:
            body = None
            rec["body_raw"] = raw.decode("utf-8", "replace")
        if rec["key"] != "match":
            return self.reply(401, {"error": {
                "message": "spaced-model: wrong or missing key",
                "type": "invalid_request_error", "code": "invalid_api_key"}},
                rec)
        path = self.path.split("?")[0]
        if method == "GET" and path.endswith("/models"):
            return self.reply(200, {"object": "list", "data": [
                {"id": args.model, "object": "model", "created": 0,
                 "owned_by": "spaced"}]}, rec)
        if method != "POST" or not path.endswith("/chat/completions") \
                or not isinstance(body, dict):
            return self.reply(404, {"error": {"message": "not here"}}, rec)
        self.chat(body, rec)

    def chat(self, body, rec):
        tools = body.get("tools")
        fn = bash_tool(tools)
        result = tool_result(body.get("messages"))
        if not tools:
            kind, text, call = "title", "spaced turn", None
        elif result is not None:
            kind, text, call = "final", "spaced-final: " + result.strip(), None
        elif fn is None:
            rec["error"] = "no tool named %r" % args.tool
            return self.reply(400, {"error": {"message": rec["error"]}}, rec)
        else:
            kind, text = "tool_call", None
            # the arguments the tool's own schema names: OpenCode
            # 1.18.33's bash takes command (required), timeout, workdir
            props = (fn.get("parameters") or {}).get("properties") or {}
            targs = {"command": args.command}
            if "description" in props:
                targs["description"] = "Run the scripted command"
            call = {"id": "call_spaced_%d" % rec["n"], "type": "function",
                    "function": {"name": args.tool,
                                 "arguments": json.dumps(targs)}}
            rec["tool_schema"] = fn.get("parameters")
        rec["answer"] = kind
        rec["tool_names"] = [(t.get("function") or {}).get("name")
                             for t in tools or []]
        cid = "chatcmpl-spaced-%d" % rec["n"]
        created = int(time.time())
        usage = {"prompt_tokens": 10, "completion_tokens": 5,
                 "total_tokens": 15}
        finish = "tool_calls" if call else "stop"
        if not body.get("stream"):
            msg = {"role": "assistant", "content": text}
            if call:
                msg["tool_calls"] = [call]
            return self.reply(200, {
                "id": cid, "object": "chat.completion", "created": created,
                "model": args.model, "choices": [{"index": 0, "message": msg,
                                                  "finish_reason": finish}],
                "usage": usage}, rec)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()

        def chunk(delta, fin=None, extra=None):
            c = {"id": cid, "object": "chat.completion.chunk",
                 "created": created, "model": args.model,
                 "choices": [{"index": 0, "delta": delta,
                              "finish_reason": fin}]}
            if extra:
                c.update(extra)
            self.wfile.write(b"data: " + json.dumps(c).encode() + b"\n\n")

        chunk({"role": "assistant", "content": ""})
        if call:
            chunk({"tool_calls": [dict(call, index=0)]})
        else:
            chunk({"content": text})
        chunk({}, finish)
        if (body.get("stream_options") or {}).get("include_usage"):
            c = {"id": cid, "object": "chat.completion.chunk",
                 "created": created, "model": args.model, "choices": [],
                 "usage": usage}
            self.wfile.write(b"data: " + json.dumps(c).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True
        rec["status"] = 200
        rec["stream"] = True
        log(rec)

    def do_GET(self):
        self.handle_one("GET")

    def do_POST(self):
        self.handle_one("POST")

    def do_PUT(self):
        self.handle_one("PUT")

    def do_DELETE(self):
        self.handle_one("DELETE")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server((args.listen, args.port), Handler)
log({"event": "listening", "listen": args.listen, "port": args.port,
     "pid": os.getpid()})


def dns_name(q, off):
    labels = []
    while off < len(q) and q[off] != 0:
        n = q[off]
        if n & 0xC0 or off + 1 + n > len(q):
            return None, off
        labels.append(q[off + 1:off + 1 + n].decode("ascii", "replace"))
        off += 1 + n
    return ".".join(labels), off + 1


def dns_loop():
    import socket
    import struct
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((args.listen, 53))
    s.settimeout(0.5)
    while True:
        try:
            q, peer = s.recvfrom(512)
        except socket.timeout:
            continue
        if len(q) < 12:
            continue
        name, off = dns_name(q, 12)
        qtype = struct.unpack("!H", q[off:off + 2])[0] \
            if name is not None and off + 2 <= len(q) else None
        log({"event": "dns", "t": round(time.time(), 3), "name": name,
             "qtype": qtype, "from": peer[0]})
        # NXDOMAIN: same id, QR, opcode from the query, RD copied, RA
        flags = 0x8000 | (q[2] & 0x79) << 8 | 0x0080 | 3
        s.sendto(q[:2] + struct.pack("!HHHHH", flags, 1 if name else 0,
                                     0, 0, 0) +
                 (q[12:off + 4] if name is not None else b""), peer)


if args.dns:
    threading.Thread(target=dns_loop, daemon=True).start()


class Corridor(BaseHTTPRequestHandler):
    """A stand-in for the corridor: logs what a proxy client asks for
    (CONNECT host:port, or an absolute URL) and refuses it."""
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        pass

    def refuse(self):
        log({"event": "proxy", "t": round(time.time(), 3),
             "method": self.command, "target": self.path,
             "headers": {k.lower(): v for k, v in self.headers.items()
                         if k.lower() not in SECRET_HEADERS}})
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    do_CONNECT = do_GET = do_POST = do_PUT = do_HEAD = refuse


if args.proxy_port:
    psrv = Server((args.listen, args.proxy_port), Corridor)
    threading.Thread(target=psrv.serve_forever, daemon=True).start()


def stopper():
    end = time.time() + args.lifetime
    while time.time() < end and count < args.max_requests:
        time.sleep(0.2)
    log({"event": "stopping", "requests": count})
    srv.shutdown()


threading.Thread(target=stopper, daemon=True).start()
srv.serve_forever()
