#!/usr/bin/env python3
"""tests/http/tls_server.py: an HTTPS server on 127.0.0.1 (a free port) presenting the certificate it
is given, for tests of the client's certificate verification.

Usage: tls_server.py CERT KEY REQUEST_LOG
Prints its base URL (https://127.0.0.1:PORT/) on the first line of stdout once it listens. Every GET
answers 200 with one Turtle triple; each request that gets past the TLS handshake is appended to
REQUEST_LOG as "METHOD PATH", so a test can tell that a rejected handshake sent nothing."""
import http.server
import ssl
import sys

cert, key, request_log = sys.argv[1:4]
BODY = b'<http://ex.org/doc> <http://ex.org/served> "over TLS" .\n'


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        with open(request_log, "a") as log:
            log.write(f"GET {self.path}\n")
        self.send_response(200)
        self.send_header("Content-Type", "text/turtle")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
# A client that refuses the certificate makes the handshake fail on accept: serve_forever logs nothing
# for that (an OSError in get_request) and goes on serving.
server.socket = context.wrap_socket(server.socket, server_side=True)
print(f"https://127.0.0.1:{server.server_address[1]}/", flush=True)
server.serve_forever()
