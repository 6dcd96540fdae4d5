#!/usr/bin/env python3
# Load for regress/bench/gatekeeper.sh, run in the gatekeeper's netns.
# TARGET "-" means a direct connection to ADDR:PORT (the baseline);
# anything else is a CONNECT target through the corridor at ADDR:PORT.
#   thru ADDR PORT TARGET BYTES        one stream into the upstream's sink
#   par ADDR PORT TARGET N BYTES       N streams at once; aggregate
#   lat ADDR PORT TARGET COUNT         CONNECT setup latency
#   setup ADDR PORT TARGET COUNT       the same, each closed at once
#   bare ADDR PORT N                   hold N idle connections
import socket, sys, threading, time

CHUNK = b"\0" * (1 << 20)


def open_stream(addr, port, target):
	s = socket.create_connection((addr, int(port)), timeout=60)
	if target != "-":
		s.sendall(b"CONNECT %s HTTP/1.1\r\n\r\n" % target.encode())
		head = b""
		while not head.endswith(b"\r\n\r\n"):
			c = s.recv(1)
			if not c:
				raise SystemExit("closed during CONNECT")
			head += c
		if b" 200 " not in head.split(b"\r\n")[0] + b" ":
			raise SystemExit("refused: %r" % head[:40])
	return s


def sink(addr, port, target, n):
	s = open_stream(addr, port, target)
	s.sendall(b"SINK\n")
	while n > 0:
		k = min(n, len(CHUNK))
		s.sendall(CHUNK[:k])
		n -= k
	s.shutdown(socket.SHUT_WR)
	reply = b""
	while True:
		b = s.recv(64)
		if not b:
			break
		reply += b
	s.close()
	return int(reply or b"0")


def cmd_thru(addr, port, target, n):
	t = time.monotonic()
	got = sink(addr, port, target, int(n))
	dt = time.monotonic() - t
	print("%.1f MB/s (%d bytes)" % (got / dt / 1e6, got))


def cmd_par(addr, port, target, k, n):
	res = []
	def one():
		res.append(sink(addr, port, target, int(n)))
	ts = [threading.Thread(target=one) for _ in range(int(k))]
	t = time.monotonic()
	for th in ts:
		th.start()
	for th in ts:
		th.join()
	dt = time.monotonic() - t
	print("%.1f MB/s (%d streams, %d bytes)" % (sum(res) / dt / 1e6,
	    len(res), sum(res)))


def cmd_lat(addr, port, target, count):
	xs = []
	for _ in range(int(count)):
		t = time.monotonic()
		s = open_stream(addr, port, target)
		xs.append((time.monotonic() - t) * 1000)
		# Wait for the whole teardown, so no place is still taken
		# when the next one opens.
		s.shutdown(socket.SHUT_WR)
		while s.recv(4096):
			pass
		s.close()
	xs.sort()
	print("median %.2f ms p99 %.2f ms (n=%d)" % (xs[len(xs) // 2],
	    xs[min(len(xs) - 1, int(len(xs) * 0.99))], len(xs)))


def cmd_setup(addr, port, target, count):
	"""CONNECT setup, each tunnel closed at once before the next opens
	(a crawler's shape); a refusal fails the run."""
	xs = []
	for _ in range(int(count)):
		t = time.monotonic()
		s = open_stream(addr, port, target)
		xs.append((time.monotonic() - t) * 1e6)
		s.close()
	xs.sort()
	print("%.0f %.0f (p50 and p99 us, n=%d)" % (xs[len(xs) // 2],
	    xs[min(len(xs) - 1, int(len(xs) * 0.99))], len(xs)))


def cmd_bare(addr, port, n):
	held = [socket.create_connection((addr, int(port))) for _ in range(int(n))]
	print("ready %d" % len(held))
	sys.stdout.flush()
	threading.Event().wait()


if __name__ == "__main__":
	{"thru": cmd_thru, "par": cmd_par, "lat": cmd_lat,
	    "setup": cmd_setup,
	    "bare": cmd_bare}[sys.argv[1]](*sys.argv[2:])
