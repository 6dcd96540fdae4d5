#!/usr/bin/env python3
"""exec -t read in the background: spacectl under a pty of our own,
whose session we lead.  With spacectl's command reading lines inside,
we take the foreground from it (tcsetpgrp, no signal) and type a line:
its read of the terminal from the background meets EIO (SIGTTIN is
blocked outside its poll), as a read after a SIGSTOP and a continue in
the background does when the shell took the terminal meanwhile.  That
must stop it as SIGTTIN stops a program (or hold the input), never end
its input; fg (the foreground back, SIGCONT) then brings that line in.
Prints one line a step:
  control: a background read with SIGTTIN blocked gets EIO
  foreground: a line reaches the command
  background read: stopped by SIGTTIN   (or what happened instead)
  fg: the line typed in the background reaches the command
  fg: a line typed after it reaches the command
  Ctrl-D: spacectl exits N
With "orphan", spacectl's parent leaves first: its process group is
orphaned, where the kernel stops no one (SIGTTIN is dropped), so it
must hold its input instead, without reading the terminal again and
again until it is in the foreground:
  orphaned: the background read met EIO
  orphaned: no read of the terminal while in the background (N in 2 s)
  orphaned fg: the line typed in the background reaches the command
  orphaned: Ctrl-D ends the command
usage: ttin.py SPACECTL SOCKET SPACE_ID [orphan]"""
import errno, fcntl, os, select, signal, struct, sys, termios, time

spacectl, sock, sid = sys.argv[1:4]
orphan = sys.argv[4:5] == ["orphan"]
WAIT = 60	# a guard against a hang, never a measure


class Pty:
    def __init__(self, master):
        self.master, self.seen = master, b""

    def expect(self, text, limit=WAIT):
        """1 once spacectl printed text (the output is taken as it
        comes, so spacectl never waits on us)."""
        end = time.time() + limit
        while text not in self.seen and time.time() < end:
            self.drain(1)
        return text in self.seen

    def drain(self, limit):
        r, _, _ = select.select([self.master], [], [], limit)
        if r:
            try:
                self.seen += os.read(self.master, 4096)
            except OSError:
                time.sleep(limit)


def probe(slave):
    """Exit 0 when a read of the terminal from a process group of its
    own, SIGTTIN blocked, fails with EIO (the kernel's answer that the
    test relies on)."""
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTTIN])
        fd = os.open(os.ttyname(slave), os.O_RDONLY | os.O_NONBLOCK)
        try:
            os.read(fd, 1)
        except OSError as e:
            os._exit(0 if e.errno == errno.EIO else 1)
        os._exit(1)
    return os.waitpid(pid, 0)[1] == 0


def waitstop(pid, pty):
    """What became of spacectl: ("stopped", sig), ("exited", status)
    or (None, None) within WAIT seconds."""
    end = time.time() + WAIT
    while time.time() < end:
        p, st = os.waitpid(pid, os.WUNTRACED | os.WNOHANG)
        if p == pid and os.WIFSTOPPED(st):
            return "stopped", os.WSTOPSIG(st)
        if p == pid:
            return "exited", st
        pty.drain(0.2)
    return None, None


def start(master, slave):
    """spacectl in a process group of its own, in the foreground; in
    orphan mode its parent (the group's first) has left: its pid."""
    rd, wr = os.pipe()
    mid = os.fork() if orphan else 0
    if mid != 0:
        os.close(wr)
        pid = int(os.read(rd, 32))
        os.waitpid(mid, 0)
        return pid
    if orphan:
        os.setpgid(0, 0)
    pid = os.fork()
    if pid == 0:
        if not orphan:
            os.setpgid(0, 0)
        os.tcsetpgrp(slave, os.getpgrp())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(master)
        os.close(slave)
        os.execv(spacectl, [spacectl, "-s", sock, "exec", sid, "-t", "--",
                            "sh", "-c", "echo ready; while read l; do "
                            "echo \"got:$l\"; done; echo eof-inside"])
    if orphan:
        os.write(wr, b"%d" % pid)
        os._exit(0)
    os.setpgid(pid, pid)
    return pid


def reads(pid):
    """spacectl's reads so far (syscr: read(2) and the like; its
    socket's recvmsg is not one of them), -1 once it is gone."""
    try:
        for line in open("/proc/%d/io" % pid):
            if line.startswith("syscr:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def run_orphan(pid, pty, me, slave):
    if not pty.expect(b"ready"):
        return say("no command inside (%r)" % pty.seen[-200:])
    os.write(pty.master, b"one\r")
    if pty.expect(b"got:one"):
        say("foreground: a line reaches the command")
    os.tcsetpgrp(slave, me)
    r0 = reads(pid)
    os.write(pty.master, b"two\r")
    end = time.time() + WAIT
    while reads(pid) == r0 and time.time() < end:
        pty.drain(0.2)
    if reads(pid) <= r0:
        return say("orphaned: no read in the background (%d)" % reads(pid))
    say("orphaned: the background read met EIO")
    # A window, not a measure: held, spacectl reads nothing in it;
    # reading the terminal again and again, thousands.
    r1 = reads(pid)
    pty.drain(2)
    n = reads(pid) - r1
    say("orphaned: no read of the terminal while in the background%s "
        "(%d in 2 s)" % ("" if n == 0 else " FAILED", n))
    os.tcsetpgrp(slave, os.getpgid(pid))
    os.kill(pid, signal.SIGCONT)
    if pty.expect(b"got:two"):
        say("orphaned fg: the line typed in the background reaches the "
            "command")
    os.write(pty.master, b"\x04")
    if pty.expect(b"eof-inside"):
        say("orphaned: Ctrl-D ends the command")


def leader(master, slave):
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    # We move the foreground from the background too.
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    me = os.getpgrp()
    pid = start(master, slave)
    pty = Pty(master)
    try:
        (run_orphan if orphan else run)(pid, pty, me, slave)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.kill(pid, signal.SIGCONT)
        except OSError:
            pass


def say(line):
    print(line, flush=True)


def run(pid, pty, me, slave):
    if not pty.expect(b"ready"):
        return say("no command inside (%r)" % pty.seen[-200:])
    if probe(slave):
        say("control: a background read with SIGTTIN blocked gets EIO")
    os.write(pty.master, b"one\r")
    if pty.expect(b"got:one"):
        say("foreground: a line reaches the command")
    # The foreground is ours now; spacectl hears nothing of it.
    os.tcsetpgrp(slave, me)
    os.write(pty.master, b"two\r")
    what, n = waitstop(pid, pty)
    if what == "stopped":
        say("background read: stopped by %s" % signal.Signals(n).name)
    elif what == "exited":
        return say("background read: spacectl exited (%d)" % n)
    else:
        say("background read: spacectl neither stopped nor ended")
    # fg, as a shell does it
    os.tcsetpgrp(slave, pid)
    os.kill(pid, signal.SIGCONT)
    if pty.expect(b"got:two"):
        say("fg: the line typed in the background reaches the command")
    os.write(pty.master, b"three\r")
    if pty.expect(b"got:three"):
        say("fg: a line typed after it reaches the command")
    os.write(pty.master, b"\x04")
    if not pty.expect(b"eof-inside"):
        return say("Ctrl-D: not seen inside (%r)" % pty.seen[-200:])
    end = time.time() + WAIT
    while time.time() < end:
        p, st = os.waitpid(pid, os.WNOHANG)
        if p == pid:
            return say("Ctrl-D: spacectl exits %d" % os.waitstatus_to_exitcode(st))
        pty.drain(0.2)
    say("Ctrl-D: spacectl did not exit")


master, slave = os.openpty()
child = os.fork()
if child == 0:
    try:
        leader(master, slave)
    finally:
        sys.stdout.flush()
        os._exit(0)
os.close(master)
os.close(slave)
os.waitpid(child, 0)
