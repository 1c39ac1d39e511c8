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
import http.server
import json
import sys
import threading
import time


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    port, config_path, log_path = int(argv[0]), argv[1], argv[2]
    lock = threading.Lock()
    executions = {}  # path -> executions so far
    answers = {}     # key -> (fingerprint, status, headers) once answered; None while executing

    def config_for(path):
        try:
            with open(config_path) as f:
                return json.load(f).get(path, {})
        except (OSError, ValueError):
            return {}

    def log(line):
        with lock, open(log_path, "a") as f:
            f.write(line + "\n")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def answer(self, status, headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def handle_any(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            key = (self.headers.get("Idempotency-Key") or "").strip('"')
            fingerprint = (self.command, self.path, body)
            if key:
                with lock:
                    known = key in answers
                    stored = answers.get(key)
                    if not known:
                        answers[key] = None
                if known and stored is None:
                    log("%s %s key=%s conflict 409" % (self.command, self.path, key))
                    return self.answer(409)
                if known and stored[0] != fingerprint:
                    log("%s %s key=%s mismatch 422" % (self.command, self.path, key))
                    return self.answer(422)
                if known:
                    log("%s %s key=%s replayed %d" % (self.command, self.path, key, stored[1]))
                    return self.answer(stored[1], stored[2] + [("Idempotent-Replayed", "true")])
            conf = config_for(self.path)
            with lock:
                n = executions[self.path] = executions.get(self.path, 0) + 1
            if conf.get("hang"):
                time.sleep(float(conf["hang"]))
            if n <= int(conf.get("reset", 0)):
                log("%s %s key=%s executed reset" % (self.command, self.path, key))
                with lock:
                    answers.pop(key, None)
                self.close_connection = True
                self.connection.shutdown(2)
                return None
            status, headers = int(conf.get("status", 204)), []
            if n <= int(conf.get("reset", 0)) + int(conf.get("fail", 0)):
                status = 500
            elif conf.get("result"):
                headers.append(("Location", conf["result"].replace("{key}", key)))
            log("%s %s key=%s executed %d" % (self.command, self.path, key, status))
            with lock:
                if status >= 500:
                    answers.pop(key, None)
                elif key:
                    answers[key] = (fingerprint, status, headers)
            return self.answer(status, headers)

        do_PUT = do_POST = do_DELETE = do_PATCH = handle_any

        def do_GET(self):
            text = config_for(self.path).get("get")
            if text is None:
                return self.answer(404)
            body = text.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/turtle")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
