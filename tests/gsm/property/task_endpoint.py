#!/usr/bin/env python3
"""task_endpoint.py: a stand-in for a device a GSM task commands, for tests/gsm/run_gsm_restart.sh.
Listens on 127.0.0.1 (port 0 picks a free one; the first line on stdout is the port), answers every
request 204 and logs "METHOD PATH" to LOG, one line per request, flushed once the body is read. With
--hang-first it never answers the first request: an agent sending it can be killed while the task is
in flight. Stopped by its PID.

usage: task_endpoint.py PORT LOG [--hang-first]"""
import http.server
import sys
import threading


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    port, log_path, hang_first = int(argv[0]), argv[1], "--hang-first" in argv[2:]
    first = threading.Lock()
    forever = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def handle_any(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with open(log_path, "a") as log:
                log.write("%s %s\n" % (self.command, self.path))
            if hang_first and first.acquire(blocking=False):
                forever.wait()
            self.send_response(204)
            self.end_headers()

        do_PUT = do_POST = do_DELETE = do_GET = handle_any

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
