#!/usr/bin/env python3
"""tests/ldp/syscall_order.py: the file system calls `ldgsm serve --data` made for each request, read
from an strace log, as lines a test compares with what it expects.

Usage: syscall_order.py TRACE DATA_DIR
TRACE is written by `strace -f -y -o TRACE -e trace=openat,write,writev,sendto,sendmsg,fsync,fdatasync,
rename,renameat,renameat2,mkdir,unlink ldgsm serve --data DATA_DIR` (DATA_DIR absolute, without
symbolic links: -y prints real paths). The server logs each request on stderr after answering it; the
calls before that line and after the previous one are the request's, printed after "== METHOD PATH STATUS"
(those before the server's "serving" line after "== start"):

  create P          openat with O_CREAT|O_EXCL (a new file)
  open-write P      openat for writing without O_EXCL (an existing file may be changed in place)
  write P           one or more consecutive writes to P
  fsync P, fdatasync P, mkdir P, unlink P, rename P Q
  answer STATUS     the response's status line sent on the socket

P is relative to DATA_DIR, starting with '/'; a directory ends with '/'. Temporary names (.tmp.*) are
TMP1, TMP2, ... in the order each request first uses them. A failed call ends with " -> error".
Read-only opens and everything outside DATA_DIR are left out."""
import re
import sys

trace_file, data_dir = sys.argv[1], sys.argv[2].rstrip("/")
CALL = re.compile(r"^(\d+) +(\w+)\((.*)\) += (.*)$")
FD_PATH = re.compile(r"^-?\d+<(.*)>$")
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
REQUEST_LOG = re.compile(r'^2<[^>]*>, "([A-Z]+ \S+ \d{3}) ')
STARTED = re.compile(r'^2<[^>]*>, "ldgsm serve: serving ')
ANSWER = re.compile(r'"HTTP/1\.1 (\d{3}) ')
dirs = set()  # every path known to be a directory (made, opened or renamed as one)


def calls(lines):
    """Each finished call as (name, args, result), in the order the calls began."""
    pending = {}  # pid -> index in out of its unfinished call
    out = []
    for line in lines:
        line = line.rstrip("\n")
        m = re.match(r"^(\d+) +(\w+)\((.*) <unfinished \.\.\.>$", line)
        if m:
            pending[m.group(1)] = len(out)
            out.append([m.group(2), m.group(3), None])
            continue
        m = re.match(r"^(\d+) +<\.\.\. \w+ resumed>(.*)\) += (.*)$", line)
        if m and m.group(1) in pending:
            call = out[pending.pop(m.group(1))]
            call[1] += m.group(2)
            call[2] = m.group(3)
            continue
        m = CALL.match(line)
        if m:
            out.append([m.group(2), m.group(3), m.group(4)])
    return [c for c in out if c[2] is not None]


class Request:
    def __init__(self):
        self.lines = []
        self.temps = {}

    def name(self, path):
        """path relative to the data directory, or None outside it."""
        if path != data_dir and not path.startswith(data_dir + "/"):
            return None
        parts = path[len(data_dir):].split("/")
        for i, part in enumerate(parts):
            if part.startswith(".tmp."):
                parts[i] = self.temps.setdefault(part, f"TMP{len(self.temps) + 1}")
        rel = "/".join(parts) or "/"
        return rel + "/" if path in dirs and not rel.endswith("/") else rel

    def add(self, line):
        if not (line.startswith("write ") and self.lines and self.lines[-1] == line):
            self.lines.append(line)


def fd_path(arg):
    m = FD_PATH.match(arg.split(", ")[0])
    return m.group(1) if m else None


def main():
    with open(trace_file) as f:
        finished = calls(f)
    request = Request()
    for name, args, result in finished:
        failed = " -> error" if result.startswith("-1") else ""
        if name in ("write", "writev", "sendto", "sendmsg"):
            logged = REQUEST_LOG.match(args)
            if logged or STARTED.match(args):
                print(f"== {logged.group(1) if logged else 'start'}")
                for line in request.lines:
                    print(line)
                request = Request()
                continue
            answer = ANSWER.search(args)
            if answer and "socket:" in args.split(",")[0]:
                request.add(f"answer {answer.group(1)}")
                continue
            path = fd_path(args)
            rel = request.name(path) if path else None
            if rel:
                request.add(f"write {rel}{failed}")
        elif name == "openat":
            flags = args.split(", ")[2] if args.count(", ") >= 2 else ""
            target = fd_path(result) or (STRING.findall(args) or [""])[0]
            if "O_DIRECTORY" in flags:
                dirs.add(target)
                continue
            rel = request.name(target)
            if not rel:
                continue
            if "O_CREAT" in flags and "O_EXCL" in flags:
                request.add(f"create {rel}{failed}")
            elif "O_WRONLY" in flags or "O_RDWR" in flags or "O_CREAT" in flags or "O_TRUNC" in flags:
                request.add(f"open-write {rel}{failed}")
        elif name in ("fsync", "fdatasync"):
            path = fd_path(args)
            rel = request.name(path) if path else None
            if rel:
                request.add(f"{name} {rel}{failed}")
        elif name in ("mkdir", "unlink"):
            path = STRING.findall(args)[0]
            if name == "mkdir":
                dirs.add(path)
            rel = request.name(path)
            if rel:
                request.add(f"{name} {rel}{failed}")
        elif name.startswith("rename"):
            paths = STRING.findall(args)
            if len(paths) == 2:
                if paths[0] in dirs:
                    dirs.add(paths[1])
                a, b = request.name(paths[0]), request.name(paths[1])
                if a or b:
                    request.add(f"rename {a} {b}{failed}")


main()
