#!/usr/bin/env python3
# Clients for the gatekeeper suites, run in the gatekeeper's network
# namespace.  Every subcommand prints what it saw as plain words on
# stdout; the suites judge.
#
# ADDR may be the path of a unix socket (starting with '/'; PORT unused).
#   raw ADDR PORT [--keep] [--reset-after N] < request
#       send stdin, half-close and print the answer bytes to EOF; with
#       --keep do not half-close and print one answer (head + body);
#       with --reset-after N send only N bytes and reset (SO_LINGER 0)
#   tunnel ADDR PORT TARGET echo|half1|half2 TOKEN|duplex N TOKEN
#   hold ADDR PORT TARGET N TOKEN HOLD|STREAM|STALL [exit]
#       open N tunnels, prove each, print "ready N", then wait forever
#       (or exit)
#   refusals ADDR PORT N FORMAT
#       N CONNECTs one after the other to FORMAT % i; prints the statuses
#   closing ADDR PORT TARGET N LINE
#       N tunnels one after the other, each sent LINE and closed before
#       the next opens; prints the statuses
#   uploading ADDR PORT TARGET BYTES
#       CONNECT, then keep writing BYTES while reading the answer
#   drained ADDR PORT TARGET BYTES
#       the same, then end the upload: how the answer, the upload and
#       the connection ended
#   leave ADDR PORT TARGET end|close
#       CONNECT, then half-close (end) or close at once, and go
#   slow ADDR PORT
#       send half a request head and wait (60 s at most) to be let go
#   flood ADDR PORT N
#       open N sockets at once, hold them a moment, print how many
#       connected
#   rungs ADDR PORT corridor|window|control CAP [WPATH]
#       climb to CAP proven connections, then print how the next one ended
import fcntl, hashlib, os, random, socket, struct, subprocess, sys, termios, threading, time


def dial(addr, port, timeout=10):
	if addr.startswith("/"):
		# A unix socket (spaced-gatekeeper -u); PORT is not used.
		s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
		s.settimeout(timeout)
		s.connect(addr)
		return s
	s = socket.create_connection((addr, int(port)), timeout=timeout)
	s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
	return s


def read_head(s):
	"""Read an HTTP head byte by byte so no tunnel byte is taken."""
	head = b""
	try:
		while not head.endswith(b"\r\n\r\n"):
			c = s.recv(1)
			if not c:
				break
			head += c
	except ConnectionResetError:
		pass
	return head


def status_of(head):
	parts = head.split(b" ", 2)
	if len(parts) < 2 or not head.startswith(b"HTTP/"):
		return "none"
	return parts[1].decode("ascii", "replace")


def read_all(s, limit=1 << 20):
	"""Read to EOF; return (bytes, how it ended)."""
	out = b""
	try:
		while len(out) < limit:
			b = s.recv(65536)
			if not b:
				return out, "eof"
			out += b
	except ConnectionResetError:
		return out, "reset"
	except socket.timeout:
		return out, "timeout"
	return out, "limit"


def proxy(addr, port, target):
	s = dial(addr, port)
	s.sendall(b"CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" %
	    (target.encode(), target.encode()))
	head = read_head(s)
	return s, status_of(head), head


def cmd_raw(addr, port, *opts):
	data = sys.stdin.buffer.read()
	s = dial(addr, port, timeout=8)
	if "--reset-after" in opts:
		n = int(opts[opts.index("--reset-after") + 1])
		s.sendall(data[:n])
		s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
		    struct.pack("ii", 1, 0))
		s.close()
		print("reset-sent")
		return
	try:
		s.sendall(data)
		if "--keep" not in opts:
			s.shutdown(socket.SHUT_WR)
	except (BrokenPipeError, ConnectionResetError):
		pass
	if "--keep" in opts:
		# The client stays: a half-close while the name is being
		# resolved is a client that left.  Read one answer and go.
		out = read_head(s)
		for line in out.split(b"\r\n"):
			if line.lower().startswith(b"content-length:"):
				n = int(line.split(b":")[1])
				while n > 0:
					b = s.recv(n)
					if not b:
						break
					out += b
					n -= len(b)
		sys.stdout.buffer.write(out)
		return
	out, how = read_all(s)
	sys.stdout.buffer.write(out)
	sys.stderr.write("end=%s\n" % how)


def cmd_tunnel(addr, port, target, mode, *args):
	s, status, head = proxy(addr, port, target)
	print("status=%s" % status)
	sys.stdout.flush()
	if status != "200":
		sys.stdout.buffer.write(head)
		return
	if mode == "echo":
		probe = b"ping-%d" % random.randrange(1 << 30)
		s.sendall(b"ECHO\n" + probe)
		got = b""
		while len(got) < len(probe):
			b = s.recv(100)
			if not b:
				break
			got += b
		print("echo=%s" % ("ok" if got == probe else "bad"))
	elif mode == "half1":
		s.sendall(b"HALF1\nhello-from-client")
		s.shutdown(socket.SHUT_WR)
		out, how = read_all(s)
		print("half1=%s end=%s" % (out.replace(b"\n", b"|").decode(), how))
	elif mode == "half2":
		token = args[0]
		s.sendall(b"HALF2 %s\n" % token.encode())
		out, how = read_all(s)
		print("half2-read=%s end=%s" % (out.strip().decode(), how))
		s.sendall(b"after-fin-" + token.encode())
		s.shutdown(socket.SHUT_WR)
		time.sleep(0.2)
	elif mode == "duplex":
		duplex(s, int(args[0]), args[1])
	s.close()


def duplex(s, n, token):
	"""Upload n bytes slowly while reading n bytes slowly; the upstream
	half-closes once it has sent, while the upload is still going."""
	up = random.Random("up-" + token).randbytes(n)
	print("up-sha=%s" % hashlib.sha256(up).hexdigest())
	down = hashlib.sha256()
	got = [0, "open"]
	sent = [0]
	at_eof = [-1]

	def reader():
		try:
			while True:
				b = s.recv(16384)
				if not b:
					got[1] = "eof"
					at_eof[0] = sent[0]
					return
				down.update(b)
				got[0] += len(b)
				time.sleep(0.015)
		except OSError as e:
			got[1] = "error:%s" % e.__class__.__name__
	t = threading.Thread(target=reader)
	s.sendall(b"DUPLEX %d %s\n" % (n, token.encode()))
	t.start()
	err = ""
	try:
		while sent[0] < n:
			s.sendall(up[sent[0]:sent[0] + 16384])
			sent[0] += 16384
			time.sleep(0.02)
		s.shutdown(socket.SHUT_WR)
	except OSError as e:
		err = e.__class__.__name__
	t.join(60)
	print("uploaded=%d upload-error=%s down-count=%d down-end=%s "
	    "down-sha=%s" % (min(sent[0], n), err or "none", got[0], got[1],
	    down.hexdigest()))
	print("uploaded-at-down-eof=%d" % at_eof[0])


def cmd_hold(addr, port, target, n, token, mode, then="wait"):
	socks = []
	for i in range(int(n)):
		s, status, head = proxy(addr, port, target)
		if status != "200":
			print("rung %d status=%s" % (i, status))
			sys.stdout.flush()
			os._exit(1)
		s.sendall(b"%s %s-%d\n" % (mode.encode(), token.encode(), i))
		if not s.recv(1):
			print("rung %d closed" % i)
			sys.stdout.flush()
			os._exit(1)
		if mode == "STALL":
			# Upload without end and never read again.
			threading.Thread(target=s.sendall,
			    args=(b"x" * (64 << 20),), daemon=True).start()
		socks.append(s)
	print("ready %d" % len(socks))
	sys.stdout.flush()
	if then != "exit":
		threading.Event().wait()


def cmd_refusals(addr, port, n, fmt):
	seen = {}
	for i in range(int(n)):
		try:
			s, status, head = proxy(addr, port, fmt % i)
			s.close()
		except (ConnectionResetError, BrokenPipeError):
			status = "reset"	# refused at accept
		seen[status] = seen.get(status, 0) + 1
	print(" ".join("%s=%d" % kv for kv in sorted(seen.items())))


def cmd_closing(addr, port, target, n, line):
	seen = {}
	for i in range(int(n)):
		s, status, head = proxy(addr, port, target)
		if status == "200":
			s.sendall(line.encode() + b"\n")
		s.close()
		seen[status] = seen.get(status, 0) + 1
	print(" ".join("%s=%d" % kv for kv in sorted(seen.items())))


def cmd_uploading(addr, port, target, n):
	s = dial(addr, port)
	s.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
	junk = b"u" * int(n)
	def up():
		try:
			s.sendall(junk)
		except OSError:
			pass
	t = threading.Thread(target=up, daemon=True)
	t.start()
	# Read late, as a busy client does: a reset that came meanwhile
	# would have thrown the answer away.
	time.sleep(0.5)
	try:
		print("status=%s" % status_of(read_head(s)))
	except ConnectionResetError:
		print("status=reset")


def cmd_drained(addr, port, target, n):
	"""A refused client's whole upload taken, then a FIN, not a reset."""
	s = dial(addr, port)
	s.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
	sent = ["cut"]
	def up():
		try:
			s.sendall(b"u" * int(n))
			sent[0] = "all"
		except OSError:
			pass
	t = threading.Thread(target=up, daemon=True)
	t.start()
	time.sleep(0.5)
	try:
		st = status_of(read_head(s))
	except ConnectionResetError:
		st = "reset"
	t.join(10)
	try:
		s.shutdown(socket.SHUT_WR)
	except OSError:
		pass
	rest, how = read_all(s)
	print("status=%s sent=%s end=%s" % (st, sent[0], how))


def cmd_leave(addr, port, target, how):
	s = dial(addr, port)
	s.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
	if how == "end":
		s.shutdown(socket.SHUT_WR)
		time.sleep(0.3)
		print("ended")
	else:
		s.close()
		print("closed")


def cmd_slow(addr, port):
	s = dial(addr, port, timeout=60)
	s.sendall(b"CONNECT upstream.test.example:443 HTTP/1.1\r\nX-A: b")
	out, how = read_all(s)
	print("slow=%s" % ("let-go" if how in ("eof", "reset") else how))


def cmd_flood(addr, port, n):
	held = []
	for _ in range(int(n)):
		try:
			held.append(socket.create_connection((addr, int(port)),
			    timeout=5))
		except OSError:
			pass
	time.sleep(1)
	print("connected=%d" % len(held))


def prove(kind, addr, port, wpath):
	"""One connection the listener has provably accepted: it answered."""
	s = dial(addr, port)
	if kind == "corridor":
		s.sendall(b"CONNECT upstream.test.example:443 HTTP/1.1\r\n"
		    b"Host: upstream.test.example:443\r\n\r\n")
		if status_of(read_head(s)) != "200":
			return None
		s.sendall(b"ECHO\nx")
		return s if s.recv(1) == b"x" else None
	if kind == "window":
		s.sendall(b"GET %s HTTP/1.1\r\nHost: w\r\n\r\n" % wpath.encode())
		ok = status_of(read_head(s)) == "200" and s.recv(1) == b"x"
		return s if ok else None
	# The control channel closes after each answer, so an answered
	# rung would not stay.  A head left unfinished holds the place, and
	# the kernel shows when the gatekeeper owns the socket: accepted,
	# not waiting in the backlog.
	s.sendall(b"GET /health HTTP/1.1\r\nHost: c\r\n")
	flt = "( sport = :%s and dport = :%d )" % (port, s.getsockname()[1])
	for _ in range(50):
		out = subprocess.run(["ss", "-tnpH", flt], capture_output=True,
		    text=True).stdout
		if "users:" in out:
			return s
		time.sleep(0.1)
	return None


def cmd_rungs(addr, port, kind, cap, wpath="/"):
	held = []
	for i in range(int(cap)):
		s = prove(kind, addr, port, wpath)
		if s is None:
			print("rung %d not proven" % i)
			return
		held.append(s)
	print("rungs=%d" % len(held))
	s = dial(addr, port)
	try:
		if kind == "corridor":
			s.sendall(b"CONNECT upstream.test.example:443 HTTP/1.1\r\n"
			    b"Host: x\r\n\r\n")
		else:
			s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
	except OSError:
		pass
	out, how = read_all(s)
	if out:
		print("next=answered:%s" % out.split(b"\r\n")[0].decode(
		    "ascii", "replace"))
	else:
		print("next=dropped end=%s" % how)


def rss_kib(pid):
	with open("/proc/%s/status" % pid) as f:
		for line in f:
			if line.startswith("VmRSS:"):
				return int(line.split()[1])
	return -1


def read_count(path, limit=10):
	"""The number in a helper's log file, once it is there."""
	end = time.time() + limit
	while True:
		try:
			with open(path) as f:
				t = f.read().strip()
			if t:
				return int(t)
		except (OSError, ValueError):
			pass
		if time.time() >= end:
			return -1
		time.sleep(0.05)


def slow_read(s, pid, seconds):
	"""16 KiB every 50 ms for SECONDS; (bytes read, RSS at start, max)."""
	got = len(s.recv(16384))
	rss0 = rssmax = rss_kib(pid)
	end = time.time() + float(seconds)
	while time.time() < end:
		b = s.recv(16384)
		if not b:
			break
		got += len(b)
		rssmax = max(rssmax, rss_kib(pid))
		time.sleep(0.05)
	return got, rss0, rssmax


def cmd_pressure(addr, port, target, way, pid, updir, token, seconds):
	"""A fast sender and a slow reader through a tunnel: how far the
	sender got, how much the reader took, the gatekeeper's RSS."""
	s, status, head = proxy(addr, port, target)
	if status != "200":
		print("status=%s" % status)
		return
	if way == "down":
		s.sendall(b"PUSH %d %s\n" % (64 << 20, token.encode()))
		got, rss0, rssmax = slow_read(s, pid, seconds)
		s.sendall(b"REPORT\n")
		pushed = read_count(os.path.join(updir, token + ".pushed"))
	else:
		s.sendall(b"SLOWSINK %s\n" % token.encode())
		sent = [0]
		def push():
			chunk = b"u" * 65536
			try:
				while sent[0] < (64 << 20):
					s.sendall(chunk)
					sent[0] += len(chunk)
			except OSError:
				pass
		threading.Thread(target=push, daemon=True).start()
		rss0 = rssmax = rss_kib(pid)
		end = time.time() + float(seconds)
		while time.time() < end:
			rssmax = max(rssmax, rss_kib(pid))
			time.sleep(0.05)
		pushed = sent[0]
		got = read_count(os.path.join(updir, token + ".sunk"))
	print("pushed=%d read=%d rss0=%d rssmax=%d" % (pushed, got, rss0,
	    rssmax))
	sys.stdout.flush()
	os._exit(0)


def cmd_wpressure(addr, port, path, pid, updir, token, seconds):
	"""The same through the window: an answer of 64 MiB read slowly,
	or (a path ending in slowbody-TOKEN) a body of 64 MiB taken slowly."""
	s = dial(addr, port)
	if "/slowbody-" in path:
		s.sendall(b"POST %s HTTP/1.1\r\nHost: w\r\n"
		    b"Content-Length: %d\r\n\r\n" % (path.encode(), 64 << 20))
		sent = [0]
		def push():
			chunk = b"u" * 65536
			try:
				while sent[0] < (64 << 20):
					s.sendall(chunk)
					sent[0] += len(chunk)
			except OSError:
				pass
		threading.Thread(target=push, daemon=True).start()
		rss0 = rssmax = rss_kib(pid)
		end = time.time() + float(seconds)
		while time.time() < end:
			rssmax = max(rssmax, rss_kib(pid))
			time.sleep(0.05)
		print("pushed=%d read=%d rss0=%d rssmax=%d" % (sent[0],
		    read_count(os.path.join(updir, token + ".sunk")), rss0,
		    rssmax))
		sys.stdout.flush()
		os._exit(0)
	s.sendall(b"GET %s HTTP/1.1\r\nHost: w\r\n\r\n" % path.encode())
	status = status_of(read_head(s))
	if status != "200":
		print("status=%s" % status)
		return
	got, rss0, rssmax = slow_read(s, pid, seconds)
	pushed = read_count(os.path.join(updir, token + ".pushed"))
	print("pushed=%d read=%d rss0=%d rssmax=%d" % (pushed, got, rss0,
	    rssmax))
	sys.stdout.flush()
	os._exit(0)


def queues(sport, dport):
	"""Recv-Q and Send-Q of the one TCP socket sport -> dport."""
	out = subprocess.run(["ss", "-tnH", "( sport = :%d and dport = :%d )"
	    % (sport, dport)], capture_output=True, text=True).stdout.split()
	if len(out) < 3:
		return None
	return int(out[1]), int(out[2])


def inode(sport, dport):
	out = subprocess.run(["ss", "-tneH", "( sport = :%d and dport = :%d )"
	    % (sport, dport)], capture_output=True, text=True).stdout
	for w in out.split():
		if w.startswith("ino:"):
			return w[4:]
	return None


def cmd_flush(addr, port, target, pid, updir, token):
	"""The upstream sends without end and this client does not read, so
	the gatekeeper holds some bytes for it; then the upstream resets.
	Does the client get every byte the gatekeeper had taken, then its
	end?"""
	s, status, head = proxy(addr, port, target)
	if status != "200":
		print("status=%s" % status)
		return
	lport = s.getsockname()[1]
	s.sendall(b"FILL %s\n" % token.encode())
	gkport = read_count(os.path.join(updir, token + ".port"))
	acked = os.path.join(updir, token + ".acked")

	def state():
		inq = struct.unpack("i", fcntl.ioctl(s, termios.FIONREAD,
		    b"\0" * 4))[0]
		return queues(gkport, 443), queues(int(port), lport), inq

	def count(word):
		if os.path.exists(acked):
			os.unlink(acked)
		s.sendall(word)
		return read_count(acked)
	# Wait until nothing moves; the gatekeeper took what the upstream
	# had acked less what sits in its socket there, and holds for us
	# what is neither read, nor in our queue, nor in its queue to us.
	# If it holds nothing at that point, read a KiB and look again.
	got, held, last = 0, 0, None
	for _ in range(300):
		time.sleep(0.1)
		now = state()
		if now != last or None in now:
			last = now
			continue
		up, mine, inq = now
		took = count(b"COUNT\n") - up[0]
		held = took - got - inq - mine[1]
		if held > 0 and state() == now:
			break
		got += len(s.recv(1024))
		last = None
	print("held=%d" % held)
	if held <= 0:
		return
	ino = inode(gkport, 443)
	took = count(b"RESET\n") - up[0]
	if read_count(os.path.join(updir, token + ".reset")) != 1:
		print("no-reset")
		return
	# The gatekeeper learns of the reset writing to the upstream: poke
	# until it has closed that socket.  The first poke may find the
	# reset not taken yet (its sequence number was not the one the
	# gatekeeper expected; the upstream's answer to the poke is).
	fds = "/proc/%s/fd" % pid
	for pokes in range(1, 21):
		s.sendall(b"x")
		time.sleep(0.2)
		if not any(os.readlink(os.path.join(fds, f)) ==
		    "socket:[%s]" % ino for f in os.listdir(fds)):
			break
	print("pokes=%d" % pokes)
	rest, how = read_all(s, 1 << 30)
	print("took=%d total=%d end=%s" % (took, got + len(rest), how))


if __name__ == "__main__":
	cmds = {"raw": cmd_raw, "tunnel": cmd_tunnel, "hold": cmd_hold,
	    "rungs": cmd_rungs, "refusals": cmd_refusals,
	    "closing": cmd_closing,
	    "uploading": cmd_uploading, "drained": cmd_drained,
	    "slow": cmd_slow,
	    "leave": cmd_leave, "flood": cmd_flood, "flush": cmd_flush,
	    "pressure": cmd_pressure, "wpressure": cmd_wpressure}
	cmds[sys.argv[1]](*sys.argv[2:])
