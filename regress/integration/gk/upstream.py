#!/usr/bin/env python3
# Stand-in "public" upstream for the gatekeeper suites.  Runs inside the
# upstream network namespace and serves:
#   ADDR:443   plain TCP for tunnels; the first line picks the behaviour
#   ADDR:80    plain HTTP (the window's http case)
#   ADDR:8443  HTTPS with a certificate from the test CA
#   ADDR:8444  HTTPS with a certificate nobody trusts
# With a fourth argument "http-only" it serves ADDR:80 alone.
# It logs what it saw into LOGDIR, never a header value: only sha256.
import fcntl, hashlib, json, os, random, select, socket, socketserver, ssl, struct, sys, termios, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ADDR, LOGDIR, CERTDIR = sys.argv[1], sys.argv[2], sys.argv[3]


def log(name, text):
	with open(os.path.join(LOGDIR, name), "a") as f:
		f.write(text)


def payload(token, n):
	return random.Random(token).randbytes(n)


def readline(sock):
	line = b""
	while not line.endswith(b"\n") and len(line) < 256:
		c = sock.recv(1)
		if not c:
			break
		line += c
	return line.decode("ascii", "replace").split()


def drain(sock):
	"""Read to EOF; return (count, sha256 hex, first 4 KiB)."""
	h, n, head = hashlib.sha256(), 0, b""
	while True:
		try:
			b = sock.recv(65536)
		except OSError:
			break
		if not b:
			break
		h.update(b)
		n += len(b)
		if len(head) < 4096:
			head += b[:4096 - len(head)]
	return n, h.hexdigest(), head


class Tunnel(socketserver.BaseRequestHandler):
	def handle(self):
		s = self.request
		words = readline(s)
		if not words:
			return
		mode, args = words[0], words[1:]
		if mode == "ECHO":
			while True:
				b = s.recv(65536)
				if not b:
					break
				s.sendall(b)
		elif mode == "DUPLEX":
			# Send n bytes and half-close while the client still
			# uploads; record what arrived.
			n, token = int(args[0]), args[1]
			data = payload(token, n)
			log(token + ".sent", hashlib.sha256(data).hexdigest())
			def send():
				s.sendall(data)
				s.shutdown(socket.SHUT_WR)
			t = threading.Thread(target=send)
			t.start()
			cnt, sha, _ = drain(s)
			t.join()
			log(token + ".recv", "%d %s\n" % (cnt, sha))
		elif mode == "HALF1":
			# The client half-closes first; answer after its EOF.
			cnt, sha, head = drain(s)
			s.sendall(b"GOT %d\nAFTER-EOF\n" % cnt)
		elif mode == "HALF2":
			# We half-close first and keep reading.
			token = args[0]
			s.sendall(b"BYE\n")
			s.shutdown(socket.SHUT_WR)
			cnt, sha, head = drain(s)
			log(token + ".recv", head.decode("ascii", "replace"))
		elif mode == "STREAM":
			token = args[0]
			chunk = b"s" * 16384
			try:
				while True:
					s.sendall(chunk)
			except OSError:
				pass
			log(token + ".closed", "1\n")
		elif mode == "STALL":
			# Never read; keep sending; note when the gatekeeper
			# lets go of us (seen without reading, by POLLRDHUP).
			token = args[0]
			s.sendall(b"K")
			def flood():
				try:
					while True:
						s.sendall(b"f" * 65536)
				except OSError:
					pass
			threading.Thread(target=flood, daemon=True).start()
			p = select.poll()
			p.register(s, select.POLLRDHUP | select.POLLHUP |
			    select.POLLERR)
			p.poll()
			log(token + ".closed", "1\n")
		elif mode == "LATE":
			# Count the tunnel, read to EOF, close a second later:
			# an upstream slow to finish.
			log("late.log", "1\n")
			drain(s)
			time.sleep(1)
		elif mode == "HOLD":
			token = args[0]
			s.sendall(b"OK\n")
			drain(s)
			log(token + ".closed", "1\n")
		elif mode == "SINK":
			cnt, sha, _ = drain(s)
			s.sendall(b"%d\n" % cnt)
		elif mode == "PUSH":
			# As fast as the gatekeeper takes it; on "REPORT"
			# from the client, log how much was taken.
			n, token = int(args[0]), args[1]
			sent = [0]
			def push():
				chunk = b"p" * 65536
				try:
					while sent[0] < n:
						sent[0] += s.send(chunk[:n - sent[0]])
				except OSError:
					pass
			threading.Thread(target=push, daemon=True).start()
			if readline(s)[:1] == ["REPORT"]:
				log(token + ".pushed", "%d\n" % sent[0])
			drain(s)
		elif mode == "SLOWSINK":
			# Read 16 KiB every 50 ms to EOF; log how much so far
			# after every read.
			token = args[0]
			got = 0
			try:
				while True:
					b = s.recv(16384)
					if not b:
						break
					got += len(b)
					with open(os.path.join(LOGDIR,
					    token + ".sunk"), "w") as f:
						f.write("%d\n" % got)
					time.sleep(0.05)
			except OSError:
				pass
		elif mode == "FILL":
			# Send without end; on "COUNT" log how many bytes the
			# gatekeeper has acked, on "RESET" log it again and
			# reset.
			token = args[0]
			log(token + ".port", "%d\n" % s.getpeername()[1])
			lock, sent = threading.Lock(), [0]
			def fill():
				chunk = b"f" * 65536
				while True:
					select.select([], [s], [])
					with lock:
						try:
							sent[0] += s.send(chunk,
							    socket.MSG_DONTWAIT)
						except BlockingIOError:
							pass
						except OSError:
							return
			threading.Thread(target=fill, daemon=True).start()
			def acked():
				with lock:
					outq = struct.unpack("i", fcntl.ioctl(s,
					    termios.TIOCOUTQ, b"\0" * 4))[0]
					n = sent[0] - outq
				with open(os.path.join(LOGDIR, token + ".acked"),
				    "w") as f:
					f.write("%d\n" % n)
			while True:
				words = readline(s)
				if words[:1] == ["COUNT"]:
					acked()
				elif words[:1] == ["RESET"]:
					acked()
					with lock:
						s.setsockopt(socket.SOL_SOCKET,
						    socket.SO_LINGER,
						    struct.pack("ii", 1, 0))
						s.close()
					log(token + ".reset", "1\n")
					break
				else:
					break
		elif mode == "SOURCE":
			n = int(args[0])
			chunk = b"z" * 65536
			while n > 0:
				s.sendall(chunk[:min(n, 65536)])
				n -= min(n, 65536)


class Http(BaseHTTPRequestHandler):
	protocol_version = "HTTP/1.1"

	def log_message(self, *a):
		pass

	def answer(self, code, body, ctype="application/json"):
		self.send_response(code)
		self.send_header("content-type", ctype)
		self.send_header("content-length", str(len(body)))
		self.end_headers()
		self.wfile.write(body)
		self.wfile.flush()

	def hold(self):
		try:
			while self.connection.recv(4096):
				pass
		except OSError:
			pass
		self.close_connection = True

	def handle_any(self):
		port = self.server.server_address[1]
		log("http.log", "%d %s %s\n" % (port, self.command, self.path))
		n = int(self.headers.get("content-length") or 0)
		last = self.path.rsplit("/", 1)[-1]
		if last.startswith("slowbody-"):
			# Take the body 16 KiB every 50 ms; log how much so
			# far after every read.
			got = 0
			try:
				while got < n:
					b = self.rfile.read1(16384)
					if not b:
						break
					got += len(b)
					with open(os.path.join(LOGDIR,
					    last[9:] + ".sunk"), "w") as f:
						f.write("%d\n" % got)
					time.sleep(0.05)
			except OSError:
				pass
			self.close_connection = True
			return
		body = self.rfile.read(n) if n else b""
		if last == "hold":
			self.send_response(200)
			self.send_header("content-length", "1000")
			self.end_headers()
			self.wfile.write(b"x")
			self.wfile.flush()
			return self.hold()
		if last.startswith("big-"):
			# 64 MiB as fast as the client takes it; how much was
			# taken is logged every 256 KiB.
			token = last[4:]
			n, sent, chunk = 64 << 20, 0, b"b" * 65536
			self.send_response(200)
			self.send_header("content-length", str(n))
			self.end_headers()
			self.wfile.flush()
			try:
				while sent < n:
					self.connection.sendall(chunk)
					sent += len(chunk)
					if sent % (256 << 10) == 0:
						with open(os.path.join(LOGDIR,
						    token + ".pushed"), "w") as f:
							f.write("%d\n" % sent)
			except OSError:
				pass
			self.close_connection = True
			return
		if last == "silent":
			return self.hold()
		if last == "drip":
			time.sleep(0.7)
			self.send_response(200)
			self.send_header("content-length", "7")
			self.end_headers()
			self.wfile.flush()
			for c in b"dripped":
				time.sleep(0.7)
				self.wfile.write(bytes([c]))
				self.wfile.flush()
			return
		hashes = {}
		for k, v in self.headers.items():
			if k.lower() in ("authorization", "x-api-key",
			    "proxy-authorization"):
				hashes.setdefault(k.lower(), []).append(
				    hashlib.sha256(v.encode()).hexdigest())
		out = {"path": self.path, "method": self.command,
		    "headers": [k.lower() for k in self.headers.keys()],
		    "hashes": hashes, "body_sha256":
		    hashlib.sha256(body).hexdigest(),
		    "sni": getattr(self.connection, "gk_sni", None)}
		self.answer(200, json.dumps(out).encode())

	do_GET = do_POST = do_PUT = do_DELETE = handle_any


class Threaded(socketserver.ThreadingTCPServer):
	allow_reuse_address = True
	daemon_threads = True
	request_queue_size = 256


class Http2(ThreadingHTTPServer):
	# TLS (when ctx is set) is negotiated in the handler thread,
	# not in the accept loop.
	daemon_threads = True
	request_queue_size = 256

	def __init__(self, addr, ctx):
		super().__init__(addr, Http)
		self.ctx = ctx

	def finish_request(self, request, client_address):
		if self.ctx is not None:
			try:
				request = self.ctx.wrap_socket(request,
				    server_side=True)
			except (OSError, ssl.SSLError):
				return
		self.RequestHandlerClass(request, client_address, self)


def tls_ctx(name):
	ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
	ctx.load_cert_chain(os.path.join(CERTDIR, name + ".crt"),
	    os.path.join(CERTDIR, name + ".key"))

	def sni(sock, server_name, c):
		sock.gk_sni = server_name
		log("sni.log", "%s\n" % server_name)
	ctx.sni_callback = sni
	return ctx


if len(sys.argv) > 4 and sys.argv[4] == "http-only":
	servers = [Http2((ADDR, 80), None)]
else:
	servers = [Threaded((ADDR, 443), Tunnel),
	    Http2((ADDR, 80), None),
	    Http2((ADDR, 8443), tls_ctx("upstream")),
	    Http2((ADDR, 8444), tls_ctx("untrusted"))]
for srv in servers:
	srv.daemon_threads = True
	threading.Thread(target=srv.serve_forever, daemon=True).start()
log("ready", "1\n")
threading.Event().wait()
