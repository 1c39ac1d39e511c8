"""idempotency.py: what the test services (tests/gsm/call_service.py, data_service.py, property/iso_service.py)
share: Idempotency-Key as the IETF draft says (a key's first request is executed once, a repeat with the same
method, path and body replays its answer, another request under the key gets 422, a repeat while the first
is still executing gets 409), and their HTTP plumbing (the common parts of a request handler; the server
every test service runs, serving on 127.0.0.1 with the port as the first line on stdout). One copy, so the
services cannot drift apart."""
import http.server
import threading

REPLAYED = ("Idempotent-Replayed", "true")


class Keys:
    """The answers given under each Idempotency-Key. Which requests carry a key is the service's choice
    (call_service and data_service treat an empty key as none, iso_service does not)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._answers = {}  # key -> (fingerprint, status, headers, body) once answered; None while executing

    def begin(self, key, fingerprint):
        """None when the request is to be executed: the key is then marked as executing (finish or forget
        it). Otherwise the answer to give instead, (outcome, status, headers, body): "conflict" 409 while
        the first is executing, "mismatch" 422 for another fingerprint (method, path, body), or "replayed"
        with the stored answer."""
        with self._lock:
            if key not in self._answers:
                self._answers[key] = None
                return None
            stored = self._answers[key]
        if stored is None:
            return "conflict", 409, [], b""
        if stored[0] != fingerprint:
            return "mismatch", 422, [], b""
        return "replayed", stored[1], stored[2] + [REPLAYED], stored[3]

    def finish(self, key, fingerprint, status, headers, body=b""):
        """Stores the answer of an executed request. A 5xx is forgotten instead, so a re-send executes again."""
        if status >= 500:
            self.forget(key)
            return
        with self._lock:
            self._answers[key] = (fingerprint, status, list(headers), body)

    def forget(self, key):
        """The request got no answer to store (e.g. its connection was reset): a re-send executes again."""
        with self._lock:
            self._answers.pop(key, None)


class Handler(http.server.BaseHTTPRequestHandler):
    """What the services' request handlers have in common."""
    protocol_version = "HTTP/1.1"  # keep-alive: the agent re-uses its connections

    def read_body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def idempotency_key(self):
        """The request's Idempotency-Key without its quotes (a structured-field string); None without one."""
        key = self.headers.get("Idempotency-Key")
        return key.strip('"') if key is not None else None

    def send(self, status, headers=(), body=b""):
        """Answers status with headers and body; always a Content-Length, the connection being kept."""
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, *args):
        pass  # each service writes its own LOG; stderr stays for real errors


def send_answer(handler, status, headers, body):
    """Sends an answer from a request handler: status, headers (pairs), body, with its Content-Length (none, and
    no body, for HEAD, 204 and 304)."""
    handler.send_response(status)
    for k, v in headers:
        handler.send_header(k, v)
    has_body = handler.command != "HEAD" and status not in (204, 304)
    if has_body:
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if has_body:
        handler.wfile.write(body)


class Server(http.server.ThreadingHTTPServer):
    """The tests' HTTP server: a thread per connection, none of them holding the process at exit, and a
    listen queue for many agents at once. Python's default queue is 5 connections: beyond it the kernel
    drops a client's SYN, which is sent again a second later, so under load a call whose deadline is shorter
    than that (tests/gsm/models/chaos.ttl: 0.3 s) timed out before its request was ever sent."""
    daemon_threads = True
    request_queue_size = 128


def serve(port, handler):
    """Serves handler on 127.0.0.1:port (0: a free one) until the process is killed; the port is printed
    first, for the test to read."""
    server = Server(("127.0.0.1", port), handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
