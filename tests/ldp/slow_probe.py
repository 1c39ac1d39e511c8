#!/usr/bin/env python3
"""tests/ldp/slow_probe.py: slow clients (Slowloris) for run_ldp_slowloris.sh and bench/ldp/slowloris.sh.
Every loop ends by itself within its time bound; connections go to 127.0.0.0/8 only.

A slow head sends a request line and then one header line every INTERVAL seconds, never ending the head;
a slow body sends a whole PUT head announcing a 1 MB body, then one body byte every INTERVAL seconds; a
slow second head (KIND again) sends a whole GET, then the next request on the same connection as a slow head.

  slow_probe.py one HOST PORT SOURCE KIND INTERVAL WAIT
      one connection from address SOURCE, KIND head, body or again; prints "closed after S s" when the server
      closes it within WAIT seconds, "open" otherwise.
  slow_probe.py attack HOST PORT SOURCES PER_SOURCE INTERVAL STOPFILE WAIT DRAIN
      PER_SOURCE connections from each address of SOURCES (comma-separated), alternately slow heads and
      slow bodies, their sends spread over INTERVAL; one the server closes is opened again INTERVAL
      seconds later (a steady attack, not a loop of reconnections), until STOPFILE exists (at most WAIT seconds). Then the connections go on sending, none opened again,
      until the server has closed them all (at most DRAIN seconds). Prints "opened N" once the first N
      connections are under way, and at the end "closed-by-server K open M": how many the server
      closed, how many were still open.
"""
import errno
import ipaddress
import os
import resource
import select
import selectors
import socket
import sys
import time

BODY_LENGTH = 1000000


def loopback(address):
    if not ipaddress.ip_address(address) in ipaddress.ip_network("127.0.0.0/8"):
        raise SystemExit("slow_probe.py: %s is not a loopback address" % address)
    return address


def opening(kind, n):
    if kind == "head":
        return b"GET /slow-%d HTTP/1.1\r\nHost: 127.0.0.1\r\n" % n
    if kind == "again":
        return b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + opening("head", n)
    return (b"PUT /slow-%d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/turtle\r\n"
            b"Content-Length: %d\r\n\r\n" % (n, BODY_LENGTH))


def trickle(kind, n):
    return b"#" if kind == "body" else b"X-Slow-%d: 1\r\n" % n


def peer_closed(sock):
    """True when the server has closed (end of file or reset); reads and drops any answer it sent."""
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def one(host, port, source, kind, interval, wait):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((loopback(source), 0))
    sock.settimeout(wait)
    start = time.monotonic()
    sock.connect((loopback(host), port))
    sock.setblocking(False)
    sends = 0
    try:
        sock.send(opening(kind, 0))
        while time.monotonic() - start < wait:
            readable, _, _ = select.select([sock], [], [], interval)
            if readable and peer_closed(sock):
                print("closed after %.1f s" % (time.monotonic() - start), flush=True)
                return 0
            sends += 1
            sock.send(trickle(kind, sends))
    except OSError:  # a reset while sending: closed too
        print("closed after %.1f s" % (time.monotonic() - start), flush=True)
        return 0
    print("open", flush=True)
    return 0


class Slow:
    def __init__(self, source, kind, n):
        self.source, self.kind, self.n = source, kind, n
        self.sock = None
        self.sends = 0


def attack(host, port, sources, per_source, interval, stop_file, wait, drain):
    count = len(sources) * per_source
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 64), hard))
    sel = selectors.DefaultSelector()
    start = time.monotonic()
    deadline = start + wait
    reopen = True
    conns = [Slow(sources[i % len(sources)], "head" if (i // len(sources)) % 2 == 0 else "body", i)
             for i in range(count)]
    due = {}  # connection -> time of its next send
    closed = 0

    def connect(c, at):
        c.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.sock.bind((c.source, 0))
        c.sock.setblocking(False)
        err = c.sock.connect_ex((host, port))
        if err not in (0, errno.EINPROGRESS):
            raise SystemExit("slow_probe.py: connect: " + os.strerror(err))
        c.sends = -1  # the opening is the first send
        sel.register(c.sock, selectors.EVENT_READ, c)
        due[c] = at

    def close(c):
        nonlocal closed
        closed += 1
        sel.unregister(c.sock)
        c.sock.close()
        c.sock = None
        if reopen:
            due[c] = time.monotonic() + interval
        else:
            del due[c]

    for i, c in enumerate(conns):
        connect(c, start + interval * i / count)
    print("opened %d" % count, flush=True)
    while True:
        now = time.monotonic()
        if reopen and (now >= deadline or os.path.exists(stop_file)):
            reopen = False
            deadline = now + drain
            for c in [c for c in due if c.sock is None]:
                del due[c]
        if now >= deadline or not due:
            break
        for key, _ in sel.select(timeout=min(0.05, deadline - now)):
            c = key.data
            if peer_closed(c.sock):
                close(c)
        now = time.monotonic()
        for c in [c for c, at in due.items() if at <= now]:
            if c.sock is None:
                connect(c, now)
                continue
            try:
                c.sock.send(opening(c.kind, c.n) if c.sends < 0 else trickle(c.kind, c.sends))
                c.sends += 1
                due[c] = now + interval
            except BlockingIOError:  # still connecting (the listen queue is full): try again soon
                due[c] = now + 0.2
            except OSError:
                close(c)
    still_open = sum(1 for c in conns if c.sock is not None and not peer_closed(c.sock))
    print("closed-by-server %d open %d" % (closed, still_open), flush=True)
    return 0


def main(argv):
    if len(argv) == 8 and argv[1] == "one" and argv[5] in ("head", "body", "again"):
        return one(argv[2], int(argv[3]), argv[4], argv[5], float(argv[6]), float(argv[7]))
    if len(argv) == 10 and argv[1] == "attack":
        sources = [loopback(s) for s in argv[4].split(",")]
        return attack(loopback(argv[2]), int(argv[3]), sources, int(argv[5]), float(argv[6]), argv[7],
                      float(argv[8]), float(argv[9]))
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
