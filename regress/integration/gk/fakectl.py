#!/usr/bin/env python3
# A stand-in control channel for the suites of spaced-gatekeeper -C:
# listens on 127.0.0.1:PORT, writes READY_FILE, and answers every
# connection after reading its request head:
#   stall        never answers (the client's deadline must end it)
#   big N        200 with a body of N bytes, framed by Content-Length
#   eof N        200 with a body of N bytes and no framing (to EOF)
#   short        a Content-Length longer than what is sent, then EOF
#   garbage      a line that is not an HTTP answer
#   chunked      200 with a chunked body
import socket, sys, threading, time

port, ready, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
arg = int(sys.argv[4]) if len(sys.argv) > 4 else 0


def serve(c):
	head = b""
	while b"\r\n\r\n" not in head and len(head) < 65536:
		b = c.recv(4096)
		if not b:
			break
		head += b
	if mode == "stall":
		time.sleep(120)
	elif mode == "big":
		c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n"
		    b"Connection: close\r\n\r\n" % arg + b"x" * arg)
	elif mode == "eof":
		c.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" +
		    b"y" * arg)
	elif mode == "short":
		c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc")
	elif mode == "garbage":
		c.sendall(b"SSH-2.0-nothttp\r\n\r\n")
	elif mode == "chunked":
		c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
		    b"\r\n3\r\nabc\r\n0\r\n\r\n")
	c.close()


s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen(16)
open(ready, "w").close()
while True:
	c, _ = s.accept()
	threading.Thread(target=serve, args=(c,), daemon=True).start()
