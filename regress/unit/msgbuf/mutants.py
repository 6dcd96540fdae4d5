#!/usr/bin/env python3
# Mutants of common/msgbuf.c: each removes one check, rebuilds the msgbuf
# unit suite (ASan+UBSan) against it and prints which tests went red.
# Every mutant must turn at least one test red.  Run from the top of the
# tree:  python3 regress/unit/msgbuf/mutants.py [B1 B2 ...]
import subprocess, sys, os, tempfile
W = tempfile.mkdtemp(prefix='msgbuf-mut.')
L = subprocess.check_output("pkg-config --libs libbsd-overlay libevent", shell=True, text=True).split()
CF = "-std=gnu11 -O1 -g -D_GNU_SOURCE -I. -Icommon -isystem /usr/include/bsd -DLIBBSD_OVERLAY -fsanitize=address,undefined -fno-sanitize-recover=all".split()
F = "common/msgbuf.c"
muts = [
 ("B1 no at-end check", "if (reader_left(r) != 0)\n\t\treturn reader_fail(r, EBADMSG);", ""),
 ("B2 reader errors not sticky", "if (r->mr_err != 0) {\n\t\treader_fail(r, r->mr_err);\n\t\treturn NULL;\n\t}", ""),
 ("B3 embedded NUL accepted", "if (memchr(p, '\\0', len) != NULL)\n\t\treturn reader_fail(r, EBADMSG);", ""),
 ("B4 string over its bound accepted", "if (len > max)\n\t\treturn reader_fail(r, ERANGE);", ""),
 ("B5 strv count off by one (no room for NULL)", "if (count >= vsz)", "if (count > vsz)"),
 ("B6 strv total size unchecked", "msg_read_strn(r, &s, &len, bufsz - used - 1)", "msg_read_strn(r, &s, &len, SIZE_MAX)"),
 ("B7 empty key accepted", "if (eq == NULL || eq == s) {", "if (eq == NULL) {"),
 ("B8 writer overflow unchecked", "if (len > sizeof(w->mw_buf) - w->mw_len)\n\t\treturn writer_fail(w, ERANGE);", ""),
 ("B9 writer errors not sticky", "\tif (w->mw_err != 0)\n\t\treturn writer_fail(w, w->mw_err);\n\tif (len > sizeof", "\tif (len > sizeof"),
 ("B10 failed strv leaves half a vector", "\t/* Never half a vector: the caller sees it empty. */\n\tv[0] = NULL;", ""),
 ("B11 writer accepts a NUL in a string", "if (len > 0 && memchr(s, '\\0', len) != NULL)", "if (0)"),
 ("B12 failed u32 leaves its output", "\t*v = 0;\n\tif ((p = reader_take(r, sizeof(*v))) == NULL)\n\t\treturn -1;\n\tmemcpy(v, p, sizeof(*v));\n\treturn 0;\n}\n\nint\nmsg_read_u64", "\tif ((p = reader_take(r, sizeof(*v))) == NULL)\n\t\treturn -1;\n\tmemcpy(v, p, sizeof(*v));\n\treturn 0;\n}\n\nint\nmsg_read_u64"),
 ("B13 half-fitting string written", "if (len > UINT32_MAX ||\n\t    sizeof(uint32_t) + len > sizeof(w->mw_buf) - w->mw_len)", "if (len > UINT32_MAX)"),
 ("B14 compose_event keeps the fd of a failed writer", "\t\tif (fd != -1)\n\t\t\tclose(fd);\n\t\terrno = saved;", "\t\terrno = saved;"),
]
sel = sys.argv[1:]
survived = []
os.makedirs(W + '/t', exist_ok=True)
test = W + '/t/msgbuf.o'
subprocess.check_call(['cc'] + CF + ['-c', '-o', test, 'regress/unit/msgbuf/msgbuf.c'])
imsgo = W + '/imsg.o'
subprocess.check_call(['cc'] + CF + ['-c', '-o', imsgo, 'common/imsg.c'])
for name, old, new in muts:
    if sel and name.split()[0] not in sel: continue
    src = open(F).read()
    assert src.count(old) == 1, name
    mf = W + '/msgbuf.c'
    open(mf, 'w').write(src.replace(old, new))
    o = W + '/msgbuf.o'
    subprocess.check_call(['cc'] + CF + ['-c', '-o', o, mf])
    subprocess.check_call(['cc', '-fsanitize=address,undefined', '-o', W + '/unit', test, o, imsgo] + L + ['-lcriterion', '-lpthread'])
    try:
        out = subprocess.run(['timeout', '120', W + '/unit', '--jobs', '2'], capture_output=True, text=True).stderr
    except Exception as e:
        out = str(e)
    fails = [l.split()[1].rstrip(':') for l in out.splitlines() if l.startswith('[FAIL]') or 'CRASH' in l]
    synth = [l for l in out.splitlines() if 'Synthesis' in l]
    if not fails:
        survived.append(name)
    print(f"{name}: red={fails} {synth[-1].split('Synthesis: ')[1] if synth else out[-300:]}", flush=True)
subprocess.call(['rm', '-rf', W])
print('survived:', survived if survived else 'none')
sys.exit(1 if survived else 0)
