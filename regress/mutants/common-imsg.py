#!/usr/bin/env python3
# Mutants of the message layer: each removes one protection, rebuilds the
# imsg unit suite against it and prints which tests went red.  Every
# mutant must turn red the test named after it (a regex, the last field);
# the unmutated tree runs first and must pass.  Run from the top of the tree:
#   python3 regress/mutants/common-imsg.py [M1 M2 ...]
import subprocess, sys, os, re, tempfile
W = tempfile.mkdtemp(prefix='imsg-mut.')
L = subprocess.check_output("pkg-config --libs libbsd-overlay libevent", shell=True, text=True).split()
CF = "-std=gnu11 -O2 -g -D_GNU_SOURCE -I. -Icommon/lib -Icommon/proto -isystem /usr/include/bsd -DLIBBSD_OVERLAY".split()
# The message layer's tests in regress/unit/common (not the sandbox's).
IMSG_TESTS = ['event.c', 'fdpass.c', 'framing.c', 'helpers.c', 'leaks.c',
              'stream.c', 'stream_relay.c']
muts = [
 ("M0 the unmutated tree (control)", "common/lib/imsg.c", "", "", ""),
 ("M1 no maxsize cap", "common/lib/imsg.c", "if (hdr.len < IMSG_HEADER_SIZE || hdr.len > ibuf->maxsize) {", "if (hdr.len < IMSG_HEADER_SIZE) {", r"framing::length_over_cap"),
 ("M2 no under-header check", "common/lib/imsg.c", "if (hdr.len < IMSG_HEADER_SIZE || hdr.len > ibuf->maxsize) {", "if (hdr.len > ibuf->maxsize) {", r"framing::length_under_header"),
 ("M3 fds accepted without allow_fdpass", "common/lib/imsg.c", "if (bad || !ibuf->allow_fdpass ||", "if (bad ||", r"fdpass::refused_without_allow"),
 ("M4 MSG_CTRUNC ignored", "common/lib/imsg.c", "if (msg->msg_flags & MSG_CTRUNC)\n\t\tbad = 1;", "", r"fdpass::truncated_control_data"),
 ("M5 imsg_free keeps fd", "common/lib/imsg.c", "\tif (imsg->fd != -1)\n\t\tclose(imsg->fd);\n\timsg->fd = -1;\n\tif (imsg->data != NULL && !(imsg->hdr.flags & IMSGF_OUTBUF))", "\timsg->fd = -1;\n\tif (imsg->data != NULL && !(imsg->hdr.flags & IMSGF_OUTBUF))", r"fdpass::unclaimed_fd_is_closed"),
 ("M6 no extra-fd check", "common/lib/imsg.c", "if (ibuf->rlen == 0 && ibuf->nrfds > 0) {", "if (0) {", r"fdpass::extra_fd_is_closed"),
 ("M7 fd resent on each partial write", "common/lib/imsg.c", "\t\tclose(out->io_fd);\n\t\tout->io_fd = -1;\n\t}\n\tdone = n;", "\t}\n\tdone = n;", r"fdpass::fds_across_partial_writes"),
 ("M8 fd messages batched mid-write", "common/lib/imsg.c", "if (niov > 0 && out->io_fd != -1)\n\t\t\tbreak;", "", r"fdpass::(several_fds_one_flush|fds_across_partial_writes)"),
 ("M9 HASFD without fd accepted", "common/lib/imsg.c", "((hdr.flags & IMSGF_HASFD) && ibuf->nrfds == 0)", "0", r"fdpass::flag_without_fd"),
 ("M10 no MSG_CMSG_CLOEXEC", "common/lib/imsg.c", "MSG_DONTWAIT | MSG_CMSG_CLOEXEC", "MSG_DONTWAIT", r"fdpass::fd_and_payload_arrive_usable"),
 ("M11 receiver window unchecked", "common/lib/stream.c", "rx->sr_received + n > rx->sr_credited + STREAM_WINDOW", "0", r"stream::receiver_refuses_sender_ignoring_credit"),
 ("M12 credit beyond sent accepted", "common/lib/stream.c", "if (cr.bytes > tx->st_sent - tx->st_credited) {", "if (0) {", r"stream::credit_beyond_sent"),
 ("M13 END total unchecked", "common/lib/stream.c", "if (rx->sr_ended || end.total != rx->sr_received) {", "if (rx->sr_ended) {", r"stream::end_total_checked"),
 ("M14 relay gauge unchecked", "common/lib/stream.c", "if (sg->sg_ended || sg->sg_forwarded + n >\n\t\t    sg->sg_credited + STREAM_WINDOW)\n\t\t\tgoto proto;", "", r"relay_gauge_refuses_sender_ignoring_credit|source_ignoring_credit_is_cut_off"),
 ("M15 credit not batched", "common/lib/stream.c", "rx->sr_consumed - rx->sr_credited < STREAM_CREDIT_BATCH", "0", r"stream::credit_batches"),
 ("M16 unknown flags accepted", "common/lib/imsg.c", "(hdr.flags & ~IMSGF_HASFD) != 0 ||", "", r"framing::unknown_flags"),
 ("M17 partial write offset ignored", "common/lib/imsg.c", "out->io_off += done;", "out->io_off += 0;", r"framing::partial_writes"),
 ("M19 sender ignores window", "common/lib/stream.c", "return STREAM_WINDOW - (tx->st_sent - tx->st_credited);", "return 64 * STREAM_WINDOW;", r"stream::sender_limits"),
 ("M20 EOF errno not cleared", "common/lib/imsg_event.c", "errno = 0;\n\t\t\tgoto dead;", "goto dead;", r"framing::peer_closes_mid_message|event::"),
 ("M21 dead event left armed", "common/lib/imsg_event.c", "\tevent_del(&iev->ev);\n\terrno = saved;", "\terrno = saved;", r"event::"),
 ("M22 EV_WRITE kept after drain", "common/lib/imsg_event.c", "\t\t/* Drained: stop asking for EV_WRITE. */\n\t\timsg_event_add(iev);", "", r"event::compose_event_delivers_and_drains"),
 ("M23 forward drops the fd", "common/lib/imsg.c", "\tout->io_fd = imsg->fd;\n\tout->io_len = hdr.len;", "\tout->io_fd = -1;\n\tout->io_len = hdr.len;", r"fdpass::forward_(unchanged|after_claiming_fd)"),
 ("M24 sent buffers never freed (sender grows)", "common/lib/imsg.c", "\t} else if (out->io_len > MAX_IMSGSIZE / 4 &&\n\t    out_cached < OUT_CACHE_MAX)\n\t\tout_cache[out_cached++] = out;\n\telse\n\t\tfree(out);\n}", "\t}\n}", r"framing::buffers_reused_not_grown"),
 ("M25 read block rewritten under in-place payloads", "common/lib/imsg.c", "if (ibuf->roff > 0 && ibuf->rblock->rb_refs == 1) {", "if (ibuf->roff > 0) {", r"framing::inplace_payload_outlives_reads"),
 ("M26 imsg_free keeps its read block", "common/lib/imsg.c", "\tif (imsg->rblock != NULL)\n\t\trblock_unref(imsg->rblock);", "\tif (imsg->rblock != NULL)\n\t\t;", r"framing::buffers_reused_not_grown"),
 ("M27 sent in-place buffers keep their block (relay grows)", "common/lib/imsg.c", "\t\trblock_unref(out->io_rblock);\n\t\tfree(out);", "\t\tfree(out);", r"stream_relay::large_stream_bounded_relay"),
 ("M28 forward leaves the old header in place", "common/lib/imsg.c", "\tmemcpy(out->io_data, &hdr, sizeof(hdr));\n\tout->io_fd = imsg->fd;", "\tout->io_fd = imsg->fd;", r"fdpass::forward_(unchanged|after_claiming_fd)"),
 ("M29 failing compose keeps the fd", "common/lib/imsg.c", "\tif (fd != -1)\n\t\tclose(fd);\n\terrno = saved;", "\terrno = saved;", r"leaks::compose_(too_large|null_data|enomem)_closes_fd"),
 ("M30 fd sent on a channel without fdpass", "common/lib/imsg.c", "if (fd != -1 && !ibuf->allow_fdpass) {", "if (0) {", r"leaks::compose_fd_without_fdpass_refused"),
 ("M31 fd forwarded onto a channel without fdpass", "common/lib/imsg.c", "if (imsg->fd != -1 && !ibuf->allow_fdpass) {", "if (0) {", r"leaks::forward_fd_without_fdpass_refused"),
 ("M32 forward leaves the fd to both compose and imsg_free", "common/lib/imsg.c", "fd = imsg_get_fd(imsg);", "fd = imsg->fd;", r"leaks::forward_enomem_closes_fd_once|fdpass::forward_after_claiming_fd"),
 ("M33 ENOMEM in compose leaks the fd", "common/lib/imsg.c", "if ((out = out_alloc(IMSG_HEADER_SIZE + len)) == NULL)\n\t\tgoto fail;", "if ((out = out_alloc(IMSG_HEADER_SIZE + len)) == NULL)\n\t\treturn -1;", r"leaks::compose_enomem_closes_fd"),
 ("M34 oversize compose leaks the fd", "common/lib/imsg.c", "errno = ERANGE;\n\t\tgoto fail;", "errno = ERANGE;\n\t\treturn -1;", r"leaks::compose_too_large_closes_fd"),
 ("M18 no fd queue cap", "common/lib/imsg.c", "n > IMSG_MAX_FDS - ibuf->nrfds) {", "0) {", r"fdpass::fd_flood_refused"),
]
sel = sys.argv[1:]
survived = []
killed = 0
for name, f, old, new, want in muts:
    control = name.startswith('M0 ')
    if sel and not control and name.split()[0] not in sel: continue
    src = open(f).read()
    assert control or src.count(old) == 1, name
    mf = W + '/' + os.path.basename(f)
    open(mf, 'w').write(src if control else src.replace(old, new))
    os.makedirs(W + '/t', exist_ok=True)
    tests = []
    for x in IMSG_TESTS:
        if x.endswith('.c'):
            o = W + '/t/' + x + '.o'
            subprocess.check_call(['cc'] + CF + ['-c', '-o', o, 'regress/unit/common/' + x])
            tests.append(o)
    objs = []
    for c in ['common/lib/imsg.c', 'common/lib/stream.c', 'common/lib/log.c']:
        o = W + '/' + os.path.basename(c) + '.o'
        srcf = mf if c == f else c
        subprocess.check_call(['cc'] + CF + ['-c', '-o', o, srcf])
        objs.append(o)
    subprocess.check_call(['cc', '-Wl,--wrap=malloc', '-o', W + '/unit'] + tests + objs + L + ['-lcriterion', '-lpthread'])
    env = dict(os.environ, SPACED_STREAM_MB='64')
    try:
        out = subprocess.run(['timeout', '120', W + '/unit', '--jobs', '2'], env=env, capture_output=True, text=True).stderr
    except Exception as e:
        out = str(e)
    fails = [l.split()[1].rstrip(':') for l in out.splitlines() if l.startswith('[FAIL]') or 'CRASH' in l]
    synth = [l for l in out.splitlines() if 'Synthesis' in l]
    if control:
        if fails or not synth:
            print(f"{name} fails: red={fails}", out[-300:], flush=True)
            sys.exit(1)
        print(f"{name} passes", flush=True)
        continue
    # A kill counts only when the test named for the mutant went red.
    verdict = 'killed'
    if not fails:
        survived.append(name)
        verdict = 'SURVIVED'
    elif not any(re.search(want, t) for t in fails):
        survived.append(name)
        verdict = 'killed by another test than ' + want
    else:
        killed += 1
    print(f"{name}: {verdict}: red={fails} {synth[-1].split('Synthesis: ')[1] if synth else out[-300:]}", flush=True)

subprocess.call(['rm', '-rf', W])
print('survived:', survived if survived else 'none')
print(f'mutants: {killed} killed, {len(survived)} survived')
sys.exit(1 if survived else 0)
