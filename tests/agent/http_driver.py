#!/usr/bin/env python3
"""http_driver.py: the shell tests' HTTP client, one process per test instead of a curl per request.

A curl start costs about 30 ms of CPU on the suite's machines, and the shell tests made thousands of
requests (a sixth of the suite's CPU). tests/agent/lib.sh starts this once per test and talks to it through
bash's /dev/tcp, which costs no process: each request is a connection of its own (so requests from
subshells and background jobs never mix), and each is sent to the server on a new connection, as curl
sends it.

Usage: http_driver.py TIMEOUT-SECONDS. Prints the port it listens on (127.0.0.1), then serves until
killed. A request to the driver:

    METHOD URL BODY-LENGTH\\n
    Name: value\\n            (any number of headers)
    \\n
    BODY                      (BODY-LENGTH bytes)

Its answer: the response's status code and a newline, the response's headers (one per line, as
"name: value") and an empty line, then the body; the connection is closed after it. A request that could
not be made (refused, timed out, unreadable URL) is answered with status 000, as curl's %{http_code} has
it, and the reason as a header "x-driver-error".
"""
import http.client
import socketserver
import sys
import urllib.parse


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        try:
            method, url, length = self.rfile.readline().decode("utf-8").split()
            headers = []
            while True:
                line = self.rfile.readline().decode("utf-8").rstrip("\r\n")
                if not line:
                    break
                name, _, value = line.partition(":")
                headers.append((name.strip(), value.strip()))
            body = self.rfile.read(int(length)) if int(length) else None
        except (ValueError, UnicodeDecodeError) as e:
            self.answer("000", [("x-driver-error", "bad request to the driver: %s" % e)], b"")
            return
        try:
            status, response_headers, data = self.forward(method, url, headers, body)
        except (OSError, http.client.HTTPException, ValueError) as e:
            self.answer("000", [("x-driver-error", "%s: %s" % (type(e).__name__, e))], b"")
            return
        self.answer(str(status), response_headers, data)

    def forward(self, method, url, headers, body):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http":
            raise ValueError("only http URLs: " + url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=self.server.timeout_s)
        try:
            target = parts.path or "/"
            if parts.query:
                target += "?" + parts.query
            connection.putrequest(method, target, skip_accept_encoding=True)
            for name, value in headers:
                connection.putheader(name, value)
            if not any(name.lower() == "accept" for name, _ in headers):
                connection.putheader("Accept", "*/*")  # as curl sends it
            if body is not None or method in ("PUT", "POST", "PATCH"):
                connection.putheader("Content-Length", str(len(body or b"")))
            connection.endheaders(body)
            response = connection.getresponse()
            data = response.read()
            return response.status, [(k.lower(), v) for k, v in response.getheaders()], data
        finally:
            connection.close()

    def answer(self, status, headers, data):
        head = status + "\n" + "".join("%s: %s\n" % (k, v.replace("\n", " ")) for k, v in headers) + "\n"
        self.wfile.write(head.encode("utf-8") + data)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: http_driver.py TIMEOUT-SECONDS")
    server = Server(("127.0.0.1", 0), Handler)
    server.timeout_s = float(sys.argv[1])
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
