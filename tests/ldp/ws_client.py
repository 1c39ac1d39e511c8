#!/usr/bin/env python3
"""ws_client.py: a minimal RFC 6455 WebSocket client for the notification tests (standard library only).

Usage: ws_client.py WS-URL [--send BYTES] [--rcvbuf BYTES] [--no-read SECONDS] [--limit SECONDS]

Connects to WS-URL, checks the handshake (101 and Sec-WebSocket-Accept), then prints one line per event,
flushed at once, so that a shell test can follow the file:
  OPEN <port>                   the handshake succeeded; the client's own port
  MESSAGE <text>                a text message (the notifications are one-line JSON)
  FIELDS <fields>               after each message that is a JSON object: its keys in order (joined by
                                ','), then its type, object, target, state, id, published and @context
                                (a JSON list), "" for each it lacks; the fields separated by U+001F
  CLOSE <code> <reason>         the server's close frame
  EOF                           the connection ended without one
  REFUSED <status line>         the handshake was refused (exit status 1)
--send BYTES sends one masked text message of that size after the handshake; --rcvbuf sets a small receive
buffer and --no-read waits that long before reading (a slow reader); --limit ends the client after that
long (default: LDGSM_TEST_WAIT or 30 s), printing TIMEOUT.
"""
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time
import urllib.parse

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def frame(opcode, payload):
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def main():
    args = sys.argv[1:]
    url = args.pop(0)
    send = rcvbuf = 0
    no_read = 0.0
    limit = float(os.environ.get("LDGSM_TEST_WAIT", "30"))
    while args:
        option, value = args.pop(0), args.pop(0)
        if option == "--send":
            send = int(value)
        elif option == "--rcvbuf":
            rcvbuf = int(value)
        elif option == "--no-read":
            no_read = float(value)
        elif option == "--limit":
            limit = float(value)
        else:
            sys.exit("unknown option " + option)
    parts = urllib.parse.urlsplit(url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(limit)
    sock.connect((parts.hostname, parts.port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
    sock.sendall(request.encode())
    head = b""
    try:
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1)
            if not chunk:
                break
            head += chunk
    except OSError:
        pass
    lines = head.decode("latin-1").split("\r\n")
    accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
    headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
    if not lines[0].startswith("HTTP/1.1 101") or headers.get("sec-websocket-accept") != accept:
        say("REFUSED " + (lines[0] or "(no answer)"))
        return 1
    say(f"OPEN {sock.getsockname()[1]}")
    if send:
        sock.sendall(frame(0x1, b"x" * send))
    if no_read:
        time.sleep(no_read)
    deadline = time.monotonic() + limit
    fragments = b""
    try:
        while True:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            b0, b1 = read_exact(sock, 2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", read_exact(sock, 2))[0]
            elif n == 127:
                n = struct.unpack("!Q", read_exact(sock, 8))[0]
            payload = read_exact(sock, n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 0
                say(f"CLOSE {code} {payload[2:].decode('utf-8', 'replace')}")
                try:
                    sock.sendall(frame(0x8, payload[:2]))
                except OSError:
                    pass
                return 0
            if opcode == 0x9:
                sock.sendall(frame(0xA, payload))
                continue
            if opcode in (0x1, 0x0):
                fragments += payload
                if b0 & 0x80:
                    text = fragments.decode("utf-8")
                    say("MESSAGE " + text)
                    try:
                        fields = json.loads(text)
                    except ValueError:
                        fields = None
                    if isinstance(fields, dict):
                        names = ["type", "object", "target", "state", "id", "published"]
                        values = [",".join(fields)] + [str(fields.get(k, "")) for k in names]
                        say("FIELDS\x1f" + "\x1f".join(values + [json.dumps(fields.get("@context", ""))]))
                    fragments = b""
    except EOFError:
        say("EOF")
    except (socket.timeout, TimeoutError):
        say("TIMEOUT")
    except OSError as e:
        say(f"EOF {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
