#!/usr/bin/env python3
"""tests/ldp/conn_probe.py: idle TCP connections for run_ldp_limits.sh; every wait is bounded.

  conn_probe.py flood HOST PORT SOURCE N STOPFILE WAIT [EXPECT]
      opens N connections from address SOURCE (any 127/8 address reaches a server on 127.0.0.1) and
      sends nothing; prints "opened N" once they are under way and keeps them until STOPFILE exists;
      then prints "closed-by-server K": how many the server has closed, waiting (at most WAIT seconds
      in all) for it to reach EXPECT when that argument is given.
  conn_probe.py idle HOST PORT WAIT
      opens one connection and sends nothing; prints "closed" when the server closes it within WAIT
      seconds, "open" otherwise.
"""
import errno
import os
import resource
import select
import socket
import sys
import time


def closed_by_server(sock):
    """True when the peer has closed (end of file or reset); False while it is open or connecting."""
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        if not poller.poll(0):
            return False
        return sock.recv(1) == b""
    except OSError as e:
        return e.errno in (errno.ECONNRESET, errno.EPIPE, errno.ECONNREFUSED, errno.ENOTCONN)


def flood(host, port, source, count, stop_file, wait, expect):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 64), hard))
    socks = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((source, 0))
        s.setblocking(False)
        err = s.connect_ex((host, port))
        if err not in (0, errno.EINPROGRESS):
            print("connect failed: " + os.strerror(err), flush=True)
            return 1
        socks.append(s)
    print("opened %d" % count, flush=True)
    deadline = time.monotonic() + wait
    while not os.path.exists(stop_file) and time.monotonic() < deadline:
        time.sleep(0.05)
    closed = set()
    while True:
        closed.update(i for i, s in enumerate(socks) if i not in closed and closed_by_server(s))
        if len(closed) >= expect or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    print("closed-by-server %d" % len(closed), flush=True)
    return 0


def idle(host, port, wait):
    s = socket.create_connection((host, port), timeout=wait)
    readable, _, _ = select.select([s], [], [], wait)
    print("closed" if readable and closed_by_server(s) else "open", flush=True)
    return 0


def main(argv):
    if len(argv) in (8, 9) and argv[1] == "flood":
        expect = int(argv[8]) if len(argv) == 9 else 0
        return flood(argv[2], int(argv[3]), argv[4], int(argv[5]), argv[6], float(argv[7]), expect)
    if len(argv) == 5 and argv[1] == "idle":
        return idle(argv[2], int(argv[3]), float(argv[4]))
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
