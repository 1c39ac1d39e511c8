#!/usr/bin/env python3
"""fixed_status.py: a server whose every answer is fixed by its path, for tests/gsm/run_status.sh (what
`ldgsm status` says of a sentry's read that failed): GET /NNN... answers status NNN with an empty body,
GET /hang... answers 200 only after 60 seconds (longer than the reader's --timeout). Listens on 127.0.0.1,
PORT 0 picks a free port; the first line on stdout is the port. Stopped by its PID.

usage: fixed_status.py PORT"""
import http.server
import sys
import time

import idempotency  # tests/gsm/idempotency.py: the test services' HTTP server


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            name = self.path.lstrip("/")
            if name.startswith("hang"):
                time.sleep(60)
                status = 200
            else:
                status = int(name[:3]) if name[:3].isdigit() else 404
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = idempotency.Server(("127.0.0.1", int(argv[0])), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
