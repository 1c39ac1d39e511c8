#!/usr/bin/env python3
"""webhook_receiver.py: a WebhookChannel2023 receiver for the notification tests (standard library only).

Usage: webhook_receiver.py

Listens on 127.0.0.1 (a free port) and prints, flushed at once so that a shell test can follow it:
  PORT <port> REFUSE <port>     first: where it listens, and a port bound without listening (connecting
                                to it is refused)
  POST <name> <fields>          each POST it answers: the name (the path's last segment), then, separated
                                by U+001F, its Content-Type, the JSON body's keys in order (joined by ','),
                                type, object, target, state, id, @context (a JSON list), "" for each it lacks
  HOLD <name>                   a /hang/ POST came and is held
How it answers a POST depends on its path: /ok/NAME 200; /status/CODE/NAME CODE; /flaky/NAME 500 the first
time, 200 after; /hang/NAME nothing until a GET of /release/NAME (or LDGSM_TEST_WAIT seconds), then 200.
Each request is answered on a thread of its own, connections kept alive.
"""
import http.server
import json
import os
import socket
import sys
import threading

WAIT = float(os.environ.get("LDGSM_TEST_WAIT", "30"))
lock = threading.Lock()
released = {}
seen = set()


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def release_event(name):
    with lock:
        return released.setdefault(name, threading.Event())


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, code):
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "release":
            release_event(parts[1]).set()
            self.answer(200)
        else:
            self.answer(404)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = self.path.strip("/").split("/")
        name = parts[-1]
        try:
            o = json.loads(body)
        except ValueError:
            o = {}
        fields = [self.headers.get("Content-Type", ""), ",".join(o)]
        fields += [str(o.get(k, "")) for k in ("type", "object", "target", "state", "id")]
        fields.append(json.dumps(o.get("@context", "")))
        if parts[0] == "hang":
            say("HOLD " + name)
            release_event(name).wait(WAIT)
        say("POST " + name + " " + "\x1f".join(fields))
        if parts[0] == "status":
            self.answer(int(parts[1]))
        elif parts[0] == "flaky":
            with lock:
                first = name not in seen
                seen.add(name)
            self.answer(500 if first else 200)
        else:
            self.answer(200)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    refuse = socket.socket()
    refuse.bind(("127.0.0.1", 0))
    say("PORT %d REFUSE %d" % (server.server_address[1], refuse.getsockname()[1]))
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
