#!/usr/bin/env python3
"""iso_service.py: the service the tasks of tests/gsm/property/iso_property.py call (DESIGN section 8,
isolation). Its answer is a function of the request alone, so that instances with different data get
different answers, instances with the same data the same ones, and an instance run alone gets what it got
beside others:

  h = SHA-1(method, path, body with every http://127.0.0.1:PORT left out)   (the LDP server's address
                                                                            differs between runs)
  status    GET: 200; else 201 when h is even, 200 when odd
  Location  with 201: /made/<h's first 12 hex digits>
  X-Ticket  t-<h's first 6 hex digits>
  body      text/turtle: <#q> ex:price P ; ex:grade "G" .   P = h mod 250, G one of a, b, c
            (ex: = https://example.org/iso#), about the request's own document (<#q>)

It honours Idempotency-Key as the IETF draft says: a request is executed once, a repeat with the same
method, path and body replays the stored answer, another request under the key gets 422, a repeat while
the first executes 409. Every request is one JSON line of LOG, written and flushed when answered:
  {"n": N, "method": M, "path": P, "headers": [[name, value], ...], "body": TEXT, "key": K or null,
   "outcome": "executed" | "replayed" | "mismatch" | "conflict", "status": C}
headers in the order received, the body decoded as UTF-8 (invalid bytes U+FFFD).

Listens on 127.0.0.1 (PORT 0: a free one; the port is the first line on stdout); stopped by its PID.

usage: iso_service.py PORT LOG"""
import hashlib
import json
import os
import re
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
import idempotency  # noqa: E402  (tests/gsm/idempotency.py: Idempotency-Key and the HTTP plumbing, shared with the other services)

EX = "https://example.org/iso#"
ADDRESS = re.compile(r"http://127\.0\.0\.1:[0-9]+")


def answer_for(method, path, body):
    """(status, headers, body bytes) for a request: a function of its method, path and body, the
    server's address left out."""
    h = hashlib.sha1("\n".join([method, path, ADDRESS.sub("", body)]).encode("utf-8")).hexdigest()
    n = int(h, 16)
    status = 200 if method == "GET" or n % 2 else 201
    headers = [("Content-Type", "text/turtle"), ("X-Ticket", "t-" + h[:6])]
    if status == 201:
        headers.append(("Location", "/made/" + h[:12]))
    text = '@prefix ex: <%s> .\n<#q> ex:price %d ; ex:grade "%s" .\n' % (EX, n % 250, "abc"[n // 250 % 3])
    return status, headers, text.encode("utf-8")


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    port, log_path = int(argv[0]), argv[1]
    lock = threading.Lock()
    keys = idempotency.Keys()
    count = [0]
    log_file = open(log_path, "a", encoding="utf-8")

    def log(record):
        with lock:
            count[0] += 1
            record["n"] = count[0]
            log_file.write(json.dumps(record, ensure_ascii=False) + "\n")
            log_file.flush()

    class Handler(idempotency.Handler):
        def handle_any(self):
            raw = self.read_body()
            body = raw.decode("utf-8", errors="replace")
            key = self.idempotency_key()
            record = {"method": self.command, "path": self.path, "headers": [[k, v] for k, v in self.headers.items()],
                      "body": body, "key": key}
            fingerprint = (self.command, self.path, raw)
            if key is not None:
                instead = keys.begin(key, fingerprint)
                if instead is not None:
                    outcome, status, headers, text = instead
                    log(dict(record, outcome=outcome, status=status))
                    return self.send(status, headers, text)
            status, headers, text = answer_for(self.command, self.path, body)
            if key is not None:
                keys.finish(key, fingerprint, status, headers, text)
            log(dict(record, outcome="executed", status=status))
            self.send(status, headers, text)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

    idempotency.serve(port, Handler)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
