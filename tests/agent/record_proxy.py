#!/usr/bin/env python3
"""record_proxy.py: an HTTP proxy in front of an LDP server for the agent's shell tests: it shows what
the agent sent, which the server's access log does not. Every request is forwarded to TARGET (a base
URL) and logged to LOG as one tab-separated line, before its answer goes back (so once a client has its
answer, the line is there):

    METHOD  PATH  STATUS  IF-MATCH  IF-NONE-MATCH  ETAG

the two request headers as sent ("-" when absent) and the ETag of the response ("-" when none).
Listens on 127.0.0.1, a free port; the first line on stdout is its base URL. Stopped by its PID.

  --race PATH FILE  another writer wins the race: before forwarding the first write (PUT or PATCH) to
                    PATH, the proxy replaces PATH with FILE's Turtle itself (a GET for the ETag, then a
                    PUT with If-Match), logged as a RACE line with that PUT's status
  --fail FILE       answer 500 to any request whose path is a line of FILE, or whose method and path are
                    one ("PUT /status/a"), read at every request, so a test can start and end the
                    failure while the proxy runs; logged with status 500
  --hang FILE       hold any request whose path is a line of FILE without answering (a device that
                    accepts the connection and never answers) until the line is gone (FILE is read
                    every 20 ms), then forward it as usual; logged as a HANG line when the hold begins
  --refuse-patch PATH  answer 415 to a PATCH of PATH (a server that lists N3 Patch in Accept-Patch but
                    does not take the agent's); logged with status 415
  --hide-accept-patch PATH  drop Accept-Patch from the answers for PATH (a server that takes no patches)

usage: record_proxy.py TARGET LOG [--race PATH FILE] [--fail FILE] [--hang FILE] [--refuse-patch PATH]
       [--hide-accept-patch PATH]"""
import http.client
import http.server
import os
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "gsm"))
import idempotency  # noqa: E402  (tests/gsm/idempotency.py: the test services' HTTP server)

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-connection", "content-length"}
UPSTREAM_TIMEOUT = 15  # seconds: a server that stops answering fails the request, not the test run


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    target = urllib.parse.urlsplit(argv[0])
    log_path = argv[1]
    race_path = race_file = fail_file = hang_file = None
    refuse_patch = hide_accept_patch = None
    rest = argv[2:]
    while rest:
        if rest[0] == "--race" and len(rest) >= 3:
            race_path, race_file, rest = rest[1], rest[2], rest[3:]
        elif rest[0] == "--fail" and len(rest) >= 2:
            fail_file, rest = rest[1], rest[2:]
        elif rest[0] == "--hang" and len(rest) >= 2:
            hang_file, rest = rest[1], rest[2:]
        elif rest[0] == "--refuse-patch" and len(rest) >= 2:
            refuse_patch, rest = rest[1], rest[2:]
        elif rest[0] == "--hide-accept-patch" and len(rest) >= 2:
            hide_accept_patch, rest = rest[1], rest[2:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    log_lock, race_lock = threading.Lock(), threading.Lock()
    raced = []

    def upstream(method, path, headers, body):
        conn = http.client.HTTPConnection(target.hostname, target.port, timeout=UPSTREAM_TIMEOUT)
        try:
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.getheaders(), resp.read()
        finally:
            conn.close()

    def log(*fields):
        with log_lock, open(log_path, "a") as f:
            f.write("\t".join(fields) + "\n")

    def listed(path, file):
        if file is None:
            return False
        try:
            with open(file) as f:
                return path in (line.strip() for line in f)
        except FileNotFoundError:
            return False

    def failing(method, path):
        return listed(path, fail_file) or listed(method + " " + path, fail_file)

    def race(path):
        with open(race_file, "rb") as f:
            text = f.read()
        status, headers, _ = upstream("GET", path, {"Accept": "text/turtle"}, None)
        etag = dict((k.lower(), v) for k, v in headers).get("etag")
        condition = {"If-Match": etag} if status == 200 and etag else {"If-None-Match": "*"}
        status, _, _ = upstream("PUT", path, dict(condition, **{"Content-Type": "text/turtle"}), text)
        log("RACE", path, str(status), condition.get("If-Match", "-"), condition.get("If-None-Match", "-"), "-")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes: no delayed-ACK stall

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if_match = self.headers.get("If-Match", "-")
            if_none_match = self.headers.get("If-None-Match", "-")
            path = urllib.parse.urlsplit(self.path).path
            if listed(path, hang_file):
                log("HANG", path, "-", "-", "-", "-")
                while listed(path, hang_file):
                    time.sleep(0.02)
            if failing(self.command, path):
                log(self.command, path, "500", if_match, if_none_match, "-")
                self.answer(500, [("Content-Type", "text/plain")], b"failing on purpose\n")
                return
            if self.command == "PATCH" and path == refuse_patch:
                log(self.command, path, "415", if_match, if_none_match, "-")
                self.answer(415, [("Content-Type", "text/plain")], b"no patches here\n")
                return
            if self.command in ("PUT", "PATCH") and path == race_path:
                with race_lock:
                    first = not raced
                    raced.append(path)
                if first:
                    race(path)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP | {"host"}}
            try:
                status, resp_headers, resp_body = upstream(self.command, self.path, headers, body)
            except OSError as e:
                log(self.command, path, "502", if_match, if_none_match, "-")
                self.answer(502, [("Content-Type", "text/plain")], ("upstream: %s\n" % e).encode())
                return
            if path == hide_accept_patch:
                resp_headers = [(k, v) for k, v in resp_headers if k.lower() != "accept-patch"]
            etag = dict((k.lower(), v) for k, v in resp_headers).get("etag", "-")
            log(self.command, path, str(status), if_match, if_none_match, etag)
            self.answer(status, [(k, v) for k, v in resp_headers if k.lower() not in HOP_BY_HOP], resp_body)

        def answer(self, status, headers, body):
            idempotency.send_answer(self, status, headers, body)

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_PATCH = do_OPTIONS = handle_any

        def log_message(self, *args):
            pass

    server = idempotency.Server(("127.0.0.1", 0), Handler)
    print("http://127.0.0.1:%d/" % server.server_address[1], flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
