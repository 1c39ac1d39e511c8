#!/usr/bin/env python3
"""call_service.py: services a GSM task calls, for the call tests (tests/gsm/run_call_*.sh): flaky,
hanging, resetting or refusing on demand, and honouring Idempotency-Key as the IETF draft says, so a
test counts how often each request was really executed.

Listens on 127.0.0.1 (PORT 0 picks a free one; the first line on stdout is the port). How each path
behaves is read from the JSON file CONFIG at every request (a test rewrites it between iterations):
  {"/supplier-a": {"fail": 2}, "/supplier-b": {"status": 201}, "/slow": {"hang": 5}}
  fail N     the first N executions answer 500 (5xx answers are not stored, so a re-send executes again)
  status C   then answer C (default 204; 202 with "result": "/path" answers 202 with that Location;
             "{key}" in it is replaced by the request's Idempotency-Key, a result per send)
  reset N    the first N executions close the connection without an answer
  hang S     every execution waits S seconds before answering
  get TEXT   a GET answers 200 with this Turtle (a result resource); without it a GET answers 404
A path without an entry answers 204. A request with an Idempotency-Key is executed once: a repeat with
the same method, path and body replays the stored answer, a different request with the key gets 422, a
repeat while the first is still executing gets 409. Every request is one line of LOG, flushed at once:
  METHOD PATH key=K executed|replayed|conflict|mismatch STATUS
Stopped by its PID.

usage: call_service.py PORT CONFIG LOG"""
import json
import sys
import threading
import time

import idempotency  # tests/gsm/idempotency.py: Idempotency-Key and the HTTP plumbing, shared with the other services


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    port, config_path, log_path = int(argv[0]), argv[1], argv[2]
    lock = threading.Lock()
    executions = {}  # path -> executions so far
    keys = idempotency.Keys()

    def config_for(path):
        try:
            with open(config_path) as f:
                return json.load(f).get(path, {})
        except (OSError, ValueError):
            return {}

    def log(line):
        with lock, open(log_path, "a") as f:
            f.write(line + "\n")

    class Handler(idempotency.Handler):
        def handle_any(self):
            body = self.read_body()
            key = self.idempotency_key() or ""  # an empty key is no key
            fingerprint = (self.command, self.path, body)
            if key:
                instead = keys.begin(key, fingerprint)
                if instead is not None:
                    outcome, status, headers, _ = instead
                    log("%s %s key=%s %s %d" % (self.command, self.path, key, outcome, status))
                    return self.send(status, headers)
            conf = config_for(self.path)
            with lock:
                n = executions[self.path] = executions.get(self.path, 0) + 1
            if conf.get("hang"):
                time.sleep(float(conf["hang"]))
            if n <= int(conf.get("reset", 0)):
                log("%s %s key=%s executed reset" % (self.command, self.path, key))
                keys.forget(key)
                self.close_connection = True
                self.connection.shutdown(2)
                return None
            status, headers = int(conf.get("status", 204)), []
            if n <= int(conf.get("reset", 0)) + int(conf.get("fail", 0)):
                status = 500
            elif conf.get("result"):
                headers.append(("Location", conf["result"].replace("{key}", key)))
            log("%s %s key=%s executed %d" % (self.command, self.path, key, status))
            if key:
                keys.finish(key, fingerprint, status, headers)
            return self.send(status, headers)

        do_PUT = do_POST = do_DELETE = do_PATCH = handle_any

        def do_GET(self):
            text = config_for(self.path).get("get")
            if text is None:
                return self.send(404)
            return self.send(200, [("Content-Type", "text/turtle")], text.encode())

    idempotency.serve(port, Handler)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
