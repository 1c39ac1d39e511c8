#!/usr/bin/env python3
"""lossy_notifications.py: a reverse proxy in front of `ldgsm serve` whose Solid Notifications lose
messages, for tests/gsm/run_notifications_lossy.sh (issue 35: lost notifications are bounded by the
agent's --safety-poll), or whose sockets open late, for tests/gsm/run_notifications_open_race.sh (a channel
vouches only for reads after its socket opened), or whose containers' Remove activities are lost, for
tests/wsm/run_wsm_own_writes.sh (the agent's own DELETE ends what a channel vouches for). Standard library only.

HTTP: every request is forwarded to TARGET (a base URL) and its answer sent back. The server names itself
by its own origin (the storage description's subscription service, container members, Location, Link)
and takes subscriptions only for topics under it, so the proxy shows the server under its own origin:
TARGET's origin is replaced by the proxy's in answers (headers and bodies) and the reverse in request
bodies (a subscription's topic, an agent's absolute IRIs). A client that starts at the proxy's base URL
thus never reaches the server directly. In a subscription's answer (JSON with receiveFrom) receiveFrom is
replaced by a socket of the proxy's own relay, ws://127.0.0.1:RELAY/<the same path>.

The relay: a connection to it is forwarded to the real receiveFrom (the handshake passes through, Host
rewritten); the client's frames go to the server as they are; the server's frames come back as they are
(a whole text message with TARGET's origin replaced), but for the text messages (the notifications) the
mode picks:
  --drop-every N    the Nth, 2Nth, ... text message, counted over all sockets, is not forwarded (N=2:
                    every other one)
  --close-random P  each text message, with probability P (seeded by --seed, default 1), is not
                    forwarded and its socket is cut instead: both TCP connections closed at once, no close
                    frame (a network fault or a server restart). Per message, not on a timer: a socket is
                    cut only when something was happening on it, the case where a loss matters. The draws
                    are counted over all sockets like --drop-every's (seed 1 draws 0.134 first: with P
                    above it the first message is always cut)
  --drop-type TYPE  every text message that is an activity of type TYPE (e.g. Remove: a container's member
                    deleted) is not forwarded (not counted as a message by the two above)
and, beside them or alone:
  --hold-open SUFFIX GATE   a socket whose topic ends with SUFFIX is held before its handshake reaches the
                    server (so the server has no socket for it: a change meanwhile is told to no one)
                    until the file GATE exists; the test decides what happens first
  --refuse-subscriptions N  the first N subscriptions (POSTs of a JSON body with a "topic"), of any
                    channel type, are answered 503 and not forwarded (for
                    tests/gsm/run_notifications_webhook.sh; a webhook's POSTs go from the server to the
                    agent directly, not through the proxy)

  --storage-path PATH       the server is shown as one pod of a server of many, as Community Solid
                    Server shows each pod: its storage description at PATH.well-known/solid (PATH starts
                    and ends with '/'), the one every 2xx answer's Link rel=solid#storageDescription names
                    (an answer that is not 2xx names none, as CSS's 404s do not), while /.well-known/solid
                    answers 404 (tests/gsm/run_notifications_pod.sh)
  --storage-origin ORIGIN   with --storage-path, the Link names the description on ORIGIN (another
                    server: what an agent must not follow)

LOG gets one tab-separated line per event, written before the event's effect (a dropped message is
logged before the next frame is read; a forwarded one before it is sent):
  SUBSCRIBE  TOPIC  RECEIVE-FROM      a subscription answered (the real receiveFrom)
  HOLD       TOPIC                    a socket held (--hold-open), before its handshake went on
  OPEN       TOPIC                    a relayed socket's handshake passed
  FORWARD    TOPIC  STATE             a notification forwarded (STATE: its "state", "-" without)
  DROP       TOPIC  STATE             a notification not forwarded
  CUT        TOPIC  STATE             a notification not forwarded and its socket cut
  END        TOPIC                    a relayed socket ended (either side closed it)
  REFUSE     TOPIC                    a subscription answered 503 by the relay
TOPIC is the subscription's topic as the client named it (under the proxy's origin).

Listens on 127.0.0.1 only, on free ports; the first line on stdout is the proxy's base URL. Stopped by
its PID.

usage: lossy_notifications.py TARGET LOG [--drop-every N | --close-random P [--seed S]] [--drop-type TYPE]
                               [--hold-open SUFFIX GATE] [--refuse-subscriptions N] [--storage-path PATH]
                               [--storage-origin ORIGIN]"""
import http.client
import http.server
import json
import os
import random
import re
import socket
import struct
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "ldp"))
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import idempotency  # noqa: E402  (tests/gsm/idempotency.py: the test services' HTTP plumbing)
from ws_client import read_exact  # noqa: E402  (tests/ldp/ws_client.py: EOFError at the end)

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-connection", "content-length", "host"}
UPSTREAM_TIMEOUT = 15  # seconds: a server that stops answering fails the request, not the test run
HEAD_LIMIT = 16384     # bytes of a WebSocket handshake's head


def origin_of(url):
    parts = urllib.parse.urlsplit(url)
    return "%s://%s" % (parts.scheme, parts.netloc)


def replacer(old, new):
    """Replaces the origin old by new where it is not followed by another digit (":8080" is not ":80")."""
    pattern = re.compile(re.escape(old.encode()) + rb"(?![0-9])")
    return lambda data: pattern.sub(new.encode(), data)


class Relay:
    """The WebSocket relay: its channels (path -> real receiveFrom and topic), the mode, the log."""

    def __init__(self, log_path, drop_every, close_p, seed, to_client, hold=None, drop_type=None):
        self.log_path = log_path
        self.hold = hold  # (topic suffix, gate file) or None
        self.drop_type = drop_type
        self.to_client = to_client
        self.drop_every = drop_every
        self.close_p = close_p
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.channels = {}
        self.messages = 0
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.port = self.listener.getsockname()[1]

    def log(self, *fields):
        with self.lock, open(self.log_path, "a") as f:
            f.write("\t".join(fields) + "\n")

    def channel(self, receive_from, topic):
        """Registers a subscription's socket; returns the URL the client is to connect to instead."""
        path = urllib.parse.urlsplit(receive_from).path
        with self.lock:
            self.channels[path] = (receive_from, topic)
        self.log("SUBSCRIBE", topic, receive_from)
        return "ws://127.0.0.1:%d%s" % (self.port, path)

    def fate(self, kind):
        """What happens to the next text message from a server (an activity of type kind): "FORWARD", "DROP"
        or "CUT"."""
        if kind == self.drop_type:
            return "DROP"
        with self.lock:
            self.messages += 1
            if self.drop_every and self.messages % self.drop_every == 0:
                return "DROP"
            if self.close_p and self.random.random() < self.close_p:
                return "CUT"
        return "FORWARD"

    def serve(self):
        while True:
            client, _ = self.listener.accept()
            threading.Thread(target=self.relay, args=(client,), daemon=True).start()

    def relay(self, client):
        upstream = None
        topic = "-"
        try:
            client.settimeout(UPSTREAM_TIMEOUT)
            head = read_head(client)
            if head is None:
                return
            lines = head.split(b"\r\n")
            target = lines[0].split(b" ")[1].decode("latin-1") if len(lines[0].split(b" ")) > 2 else ""
            with self.lock:
                known = self.channels.get(urllib.parse.urlsplit(target).path)
            if not known:
                client.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            receive_from, topic = known
            if self.hold and topic.endswith(self.hold[0]):
                self.log("HOLD", topic)
                while not os.path.exists(self.hold[1]):  # the test stops the relay by its PID if it fails
                    time.sleep(0.02)
            parts = urllib.parse.urlsplit(receive_from)
            upstream = socket.create_connection((parts.hostname, parts.port), timeout=UPSTREAM_TIMEOUT)
            # the handshake as the client sent it, but for Host (the key, and so the accept, pass through)
            head = b"\r\n".join(line if not line.lower().startswith(b"host:")
                                else b"Host: " + parts.netloc.encode() for line in lines)
            upstream.sendall(head + b"\r\n\r\n")
            answer = read_head(upstream)
            if answer is None:
                return
            client.sendall(answer + b"\r\n\r\n")
            if b" 101 " not in answer.split(b"\r\n")[0] + b" ":
                return
            self.log("OPEN", topic)
            client.settimeout(None)
            upstream.settimeout(None)
            threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
            self.from_server(upstream, client, topic)
        except OSError:
            pass
        finally:
            for s in (client, upstream):
                if s is not None:
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    s.close()
            if upstream is not None:
                self.log("END", topic)

    def from_server(self, upstream, client, topic):
        """Forwards the server's frames to the client, deciding each text message's fate; returns when
        either side ends or the socket is cut."""
        dropping = False  # inside a fragmented text message that is not forwarded
        while True:
            frame = read_frame(upstream)
            if frame is None:
                return
            opcode, fin, payload, raw = frame
            if opcode == 0x1:
                state = kind = "-"
                try:
                    activity = json.loads(payload.decode()) if fin else {}
                    state, kind = str(activity.get("state", "-")), str(activity.get("type", "-"))
                except (ValueError, AttributeError):
                    pass
                fate = self.fate(kind)
                self.log(fate, topic, state)
                if fate == "CUT":
                    return
                dropping = fate == "DROP" and not fin
                if fate == "DROP":
                    continue
                if fin and not raw[1] & 0x80:
                    raw = text_frame(self.to_client(payload))  # the activity names the topic as the client does
            elif opcode == 0x0 and dropping:
                dropping = not fin
                continue
            client.sendall(raw)


def read_head(sock):
    """An HTTP head up to its blank line (not included), or None when the connection ends first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(1)  # byte by byte: nothing after the head may be taken from the socket
        if not chunk or len(data) > HEAD_LIMIT:
            return None
        data += chunk
    return data[:-4]


def read_frame(sock):
    """(opcode, fin, payload unmasked, the frame's bytes as received), or None at the end."""
    try:
        head = read_exact(sock, 2)
        raw = head
        n = head[1] & 0x7F
        if n in (126, 127):
            ext = read_exact(sock, 2 if n == 126 else 8)
            raw += ext
            n = struct.unpack("!H" if len(ext) == 2 else "!Q", ext)[0]
        mask = b""
        if head[1] & 0x80:
            mask = read_exact(sock, 4)
            raw += mask
        payload = read_exact(sock, n) if n else b""
    except EOFError:
        return None
    raw += payload
    if mask:
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head[0] & 0x0F, bool(head[0] & 0x80), payload, raw


def text_frame(payload):
    """An unmasked, final text frame (a server's) of payload."""
    n = len(payload)
    if n < 126:
        return bytes([0x81, n]) + payload
    if n < 65536:
        return bytes([0x81, 126]) + struct.pack("!H", n) + payload
    return bytes([0x81, 127]) + struct.pack("!Q", n) + payload


def pipe(src, dst):
    """Copies src to dst until src ends (the client's frames: masked, forwarded as they are)."""
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # Python's 5 drops the SYNs of a burst of subscriptions (resent a second later)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    target, log_path, rest = argv[0], argv[1], argv[2:]
    drop_every, close_p, seed, hold, drop_type, refuse, storage_path = 0, 0.0, 1, None, None, 0, None
    storage_origin = None
    while rest:
        if rest[0] == "--drop-every" and len(rest) >= 2:
            drop_every, rest = int(rest[1]), rest[2:]
        elif rest[0] == "--close-random" and len(rest) >= 2:
            close_p, rest = float(rest[1]), rest[2:]
        elif rest[0] == "--refuse-subscriptions" and len(rest) >= 2:
            refuse, rest = int(rest[1]), rest[2:]
        elif rest[0] == "--seed" and len(rest) >= 2:
            seed, rest = int(rest[1]), rest[2:]
        elif rest[0] == "--drop-type" and len(rest) >= 2:
            drop_type, rest = rest[1], rest[2:]
        elif rest[0] == "--storage-path" and len(rest) >= 2 and rest[1].startswith("/") and rest[1].endswith("/"):
            storage_path, rest = rest[1], rest[2:]
        elif rest[0] == "--storage-origin" and len(rest) >= 2:
            storage_origin, rest = rest[1].rstrip("/"), rest[2:]
        elif rest[0] == "--hold-open" and len(rest) >= 3:
            hold, rest = (rest[1], rest[2]), rest[3:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    parts = urllib.parse.urlsplit(target)
    server = Server(("127.0.0.1", 0), None)
    own = "http://127.0.0.1:%d" % server.server_address[1]
    to_client, to_server = replacer(origin_of(target), own), replacer(own, origin_of(target))
    relay = Relay(log_path, drop_every, close_p, seed, to_client, hold, drop_type)
    refused = [0]  # subscriptions refused so far (the handlers' threads share it, under relay.lock)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes: no delayed-ACK stall

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = to_server(self.rfile.read(length)) if length else None
            if self.command == "POST" and body and self.refuse(body):
                self.answer(503, [("Content-Type", "text/plain")], b"subscription refused by the relay\n")
                return
            headers = {k: to_server(v.encode("latin-1")).decode("latin-1")
                       for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            path = self.path
            if storage_path and path == "/.well-known/solid":
                self.answer(404, [("Content-Type", "text/plain")], b"no storage here: each pod has its own\n")
                return
            if storage_path and path == storage_path + ".well-known/solid":
                path = "/.well-known/solid"
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=UPSTREAM_TIMEOUT)
            try:
                conn.request(self.command, path, body=body, headers=headers)
                resp = conn.getresponse()
                status, resp_headers, resp_body = resp.status, resp.getheaders(), resp.read()
            except OSError as e:
                self.answer(502, [("Content-Type", "text/plain")], ("upstream: %s\n" % e).encode())
                return
            finally:
                conn.close()
            resp_body = to_client(resp_body)
            resp_headers = [(k, to_client(v.encode("latin-1")).decode("latin-1")) for k, v in resp_headers
                            if k.lower() not in HOP_BY_HOP]
            if storage_path:  # an answer that is not 2xx names no storage, as CSS's 404 does not
                resp_headers = [(k, v.replace(own + "/.well-known/solid>",
                                              (storage_origin or own) + storage_path + ".well-known/solid>"))
                                if k.lower() == "link" else (k, v) for k, v in resp_headers
                                if status // 100 == 2 or k.lower() != "link" or "storageDescription" not in v]
            if self.command == "POST" and status // 100 == 2 and b"receiveFrom" in resp_body:
                resp_body = self.subscribed(resp_body)
            self.answer(status, resp_headers, resp_body)

        def refuse(self, body):
            """True (logged) when body is a subscription the relay is to refuse."""
            try:
                topic = json.loads(body)["topic"]
            except (ValueError, KeyError, TypeError):
                return False
            with relay.lock:
                if refused[0] >= refuse:
                    return False
                refused[0] += 1
            relay.log("REFUSE", to_client(topic.encode()).decode())
            return True

        def subscribed(self, body):
            try:
                channel = json.loads(body)
                channel["receiveFrom"] = relay.channel(channel["receiveFrom"], channel.get("topic", "-"))
            except (ValueError, KeyError, TypeError):
                return body
            return json.dumps(channel, separators=(",", ":")).encode()

        def answer(self, status, headers, body):
            idempotency.send_answer(self, status, headers, body)

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_PATCH = do_OPTIONS = handle_any

        def log_message(self, *args):
            pass

    server.RequestHandlerClass = Handler
    threading.Thread(target=relay.serve, daemon=True).start()
    print(own + "/", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
