"""static_doc.py: serves one file's bytes as text/turtle at every path, on 127.0.0.1 and a free port (the
first line on stdout is its base URL): a device or a foreign server holding a document that ldgsm must
read, whatever the document is. usage: static_doc.py FILE"""
import http.server
import sys

import idempotency  # tests/gsm/idempotency.py: the test services' HTTP server


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    path = argv[0]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            with open(path, "rb") as f:
                body = f.read()
            self.send_response(200)
            self.send_header("Content-Type", "text/turtle")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = idempotency.Server(("127.0.0.1", 0), Handler)
    print("http://127.0.0.1:%d/" % server.server_address[1], flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
