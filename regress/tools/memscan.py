#!/usr/bin/env python3
# memscan.py PID STRING...: for each STRING, "found" or "absent" in the
# process's writable memory (heap, stacks, anonymous maps: where freed
# and cached buffers lie), read through /proc/PID/mem as root.  Exits 2
# when the memory could not be read at all.
import re
import sys

pid, wanted = sys.argv[1], [s.encode() for s in sys.argv[2:]]
found = set()
read = 0
with open("/proc/%s/maps" % pid) as maps, \
        open("/proc/%s/mem" % pid, "rb", 0) as mem:
    for line in maps:
        m = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+)", line)
        if not m or "w" not in m.group(3):
            continue
        lo, hi = int(m.group(1), 16), int(m.group(2), 16)
        try:
            mem.seek(lo)
            data = mem.read(hi - lo)
        except OSError:
            continue
        read += len(data)
        for w in wanted:
            if w in data:
                found.add(w)
if read == 0:
    sys.exit(2)
for w in wanted:
    print("%s %s" % ("found" if w in found else "absent", w.decode()))
