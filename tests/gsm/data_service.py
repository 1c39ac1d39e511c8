#!/usr/bin/env python3
"""data_service.py: the services a GSM task calls in tests/gsm/run_data_flow.sh (DESIGN section 8, data
flow): like call_service.py it honours Idempotency-Key, and in addition it records every request it
receives byte for byte (method, raw path, headers, body) and answers with the headers and the RDF body a
test asks for, so that a test can read what each instance sent and what each answer bound.

  data_service.py serve PORT CONFIG LOG     listen on 127.0.0.1 (PORT 0: a free one; the port is the
                                            first line on stdout); stopped by its PID
  data_service.py show LOG WHAT ARG...      read the LOG it wrote (below)

How a request is answered comes from the JSON file CONFIG, read at every request (a test rewrites it
between iterations): the entry whose key is the longest prefix of the raw request path, e.g.
  {"/quote/A": {"status": 201, "location": "/tickets/t-A", "headers": {"X-Ticket": "42"},
                "body": "<q> <https://example.org/shop#price> 500 ."},
   "/retry/": {"hang_first": 1.5}, "/rebind-a/": {"status": 404}}
  status C        answer C (default 204)
  location L      a Location header
  headers {N: V}  more headers
  body TEXT       an answer body, as text/turtle
  fail N          the first N executions of the entry answer 500 (not stored: a re-send executes again)
  hang_first S    the first execution of the entry waits S seconds before answering
  put_first [URL, TEXT]
                  the first execution of the entry first PUTs TEXT (Turtle) to URL: the world changes
                  while the request is being executed (e.g. an instance's data, before the agent's deadline)
A request with an Idempotency-Key is executed once: a repeat with the same method, path and body replays
the stored answer (status, headers and body), a different request with the key gets 422, a repeat while
the first is still executing gets 409.

LOG has one JSON object per line, flushed at once: when a request arrives
  {"n": N, "method": M, "path": P, "headers": [[name, value], ...], "body": TEXT, "key": K}
(header values and the body decoded as UTF-8, invalid bytes as U+FFFD) and when it is answered
  {"n": N, "outcome": "executed" | "replayed" | "conflict" | "mismatch", "status": C}
and, for put_first, {"n": N, "put_first": URL, "status": C}.

show:
  requests LOG PREFIX        one line per request whose path starts with PREFIX, in arrival order:
                             "N METHOD PATH key=K OUTCOME STATUS" (OUTCOME "-" while unanswered)
  field LOG N path|body|key|method   that field of request N, as received
  header LOG N NAME          the value of header NAME of request N (exit 1 when it has none)
  same LOG N M               exit 0 when requests N and M are the same bytes: method, path, body and
                             every header but those an HTTP client sets per connection (Host,
                             Connection, Keep-Alive), in the same order; otherwise says what differs
"""
import json
import sys
import threading
import time
import urllib.request

import idempotency  # tests/gsm/idempotency.py: Idempotency-Key and the HTTP plumbing, shared with the other services


def serve(port, config_path, log_path):
    lock = threading.Lock()
    executions = {}  # config entry -> executions so far
    keys = idempotency.Keys()
    counter = [0]

    def entry_for(path):
        try:
            with open(config_path) as f:
                config = json.load(f)
        except (OSError, ValueError):
            return None, {}
        best = None
        for prefix in config:
            if path.startswith(prefix) and (best is None or len(prefix) > len(best)):
                best = prefix
        return best, (config[best] if best is not None else {})

    def log(obj):
        with lock, open(log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")

    class Handler(idempotency.Handler):
        def reply(self, n, outcome, status, headers=(), body=b""):
            log({"n": n, "outcome": outcome, "status": status})
            self.send(status, list(headers) + ([("Content-Type", "text/turtle")] if body else []), body)

        def handle_any(self):
            body = self.read_body()
            key = self.idempotency_key() or ""  # an empty key is no key
            with lock:
                counter[0] += 1
                n = counter[0]
            # http.server decodes header bytes as ISO-8859-1: back to the bytes, read as UTF-8
            headers = [[k, v.encode("iso-8859-1", "replace").decode("utf-8", "replace")]
                       for k, v in self.headers.items()]
            log({"n": n, "method": self.command, "path": self.path, "headers": headers,
                 "body": body.decode("utf-8", "replace"), "key": key})
            fingerprint = (self.command, self.path, body)
            if key:
                instead = keys.begin(key, fingerprint)
                if instead is not None:
                    return self.reply(n, *instead)
            name, conf = entry_for(self.path)
            with lock:
                done = executions[name] = executions.get(name, 0) + 1
            if done == 1 and conf.get("put_first"):
                url, text = conf["put_first"]
                req = urllib.request.Request(url, data=text.encode("utf-8"), method="PUT",
                                             headers={"Content-Type": "text/turtle"})
                with urllib.request.urlopen(req, timeout=30) as resp:
                    log({"n": n, "put_first": url, "status": resp.status})
            if done == 1 and conf.get("hang_first"):
                time.sleep(float(conf["hang_first"]))
            status, headers, answer = int(conf.get("status", 204)), [], b""
            if done <= int(conf.get("fail", 0)):
                status = 500
            else:
                if conf.get("location"):
                    headers.append(("Location", conf["location"]))
                for k, v in conf.get("headers", {}).items():
                    headers.append((k, v))
                answer = conf.get("body", "").encode("utf-8")
            if key:
                keys.finish(key, fingerprint, status, headers, answer)
            return self.reply(n, "executed", status, headers, answer)

        do_GET = do_PUT = do_POST = do_DELETE = do_PATCH = handle_any

    idempotency.serve(port, Handler)
    return 0


def read_log(path):
    requests, order = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            obj = json.loads(line)
            if "method" in obj:
                requests[obj["n"]] = dict(obj, outcome="-", status="-")
                order.append(obj["n"])
            elif "outcome" in obj and obj["n"] in requests:
                requests[obj["n"]].update(outcome=obj["outcome"], status=obj["status"])
    return requests, order


PER_CONNECTION = {"host", "connection", "keep-alive"}


def show(argv):
    what, log_path, args = argv[0], argv[1], argv[2:]
    requests, order = read_log(log_path)
    if what == "requests":
        for n in order:
            r = requests[n]
            if r["path"].startswith(args[0]):
                print("%d %s %s key=%s %s %s" % (n, r["method"], r["path"], r["key"], r["outcome"], r["status"]))
        return 0
    r = requests.get(int(args[0]))
    if r is None:
        print("no request %s" % args[0], file=sys.stderr)
        return 1
    if what == "field":
        sys.stdout.write(r[args[1]])
        return 0
    if what == "header":
        for k, v in r["headers"]:
            if k.lower() == args[1].lower():
                sys.stdout.write(v)
                return 0
        return 1
    if what == "same":
        s = requests.get(int(args[1]))
        if s is None:
            print("no request %s" % args[1], file=sys.stderr)
            return 1
        differs = [f for f in ("method", "path", "body", "key") if r[f] != s[f]]
        h = lambda x: [kv for kv in x["headers"] if kv[0].lower() not in PER_CONNECTION]
        if h(r) != h(s):
            differs.append("headers %s != %s" % (h(r), h(s)))
        for d in differs:
            print("differ: %s" % d[:300])
        return 1 if differs else 0
    print(__doc__, file=sys.stderr)
    return 2


def main(argv):
    if len(argv) == 4 and argv[0] == "serve":
        return serve(int(argv[1]), argv[2], argv[3])
    if len(argv) >= 3 and argv[0] == "show":
        return show(argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
