# What the suites' stand-ins in front of the Docker Engine share: one
# direction of a connection copied as it comes, its end passed on.
import socket


def pump(src, dst, log=None):
    # log: a file that gets a copy of every byte, or None
    try:
        while True:
            b = src.recv(65536)
            if not b:
                break
            if log is not None:
                log.write(b)
                log.flush()
            dst.sendall(b)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass
