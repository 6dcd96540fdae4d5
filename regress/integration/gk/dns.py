#!/usr/bin/env python3
# Fake DNS server: answers A records from its arguments (name=address;
# name=drop is never answered),
# an empty answer for other types of a known name, NXDOMAIN for the rest,
# and logs every question ("name type") to LOGFILE, so a suite can show
# that no query left for a refused name.
import socket, struct, sys

ADDR, LOGFILE = sys.argv[1], sys.argv[2]
TABLE = dict(a.split("=", 1) for a in sys.argv[3:])


def qname(pkt, off):
	labels = []
	while pkt[off]:
		n = pkt[off]
		labels.append(pkt[off + 1:off + 1 + n].decode("ascii", "replace"))
		off += 1 + n
	return ".".join(labels).lower(), off + 1


s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((ADDR, 53))
open(LOGFILE + ".ready", "w").close()
while True:
	pkt, peer = s.recvfrom(4096)
	try:
		qid, flags, qd = struct.unpack(">HHH", pkt[:6])
		name, end = qname(pkt, 12)
		qtype, = struct.unpack(">H", pkt[end:end + 2])
	except (struct.error, IndexError):
		continue
	with open(LOGFILE, "a") as f:
		f.write("%s %d\n" % (name, qtype))
	if TABLE.get(name) == "drop":
		continue
	question = pkt[12:end + 4]
	rcode, answers = 3, b""
	if name in TABLE:
		rcode = 0
		if qtype == 1:
			answers = (b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4)
			    + socket.inet_aton(TABLE[name]))
	hdr = struct.pack(">HHHHHH", qid, 0x8180 | rcode, 1,
	    1 if answers else 0, 0, 0)
	s.sendto(hdr + question + answers, peer)
