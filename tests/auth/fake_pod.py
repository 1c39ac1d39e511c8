#!/usr/bin/env python3
"""fake_pod.py: a Solid-OIDC issuer and a resource server that checks every request as strictly as
RFC 9449 allows, in front of an LDP server, for tests/auth/run_auth.sh (no Community Solid Server: it
starts in a second). Three origins on 127.0.0.1, their base URLs the first line on stdout
("ISSUER RESOURCE OTHER"):

- the issuer: /.well-known/openid-configuration, and /token, the client credentials grant: HTTP Basic with
  CLIENT_ID and SECRET, a DPoP proof for POST on /token (no ath); it answers a DPoP-bound token (random,
  bound to the proof's key thumbprint, RFC 7638) lasting --expires seconds (default 3600). POST /revoke
  revokes every token given so far (an expiry the client did not see coming); after POST /break the token
  endpoint answers 503 until POST /mend. With --garbage it answers 200 with an HTML page.
- the resource server: forwards to TARGET what carries "Authorization: DPoP TOKEN" for a live token of
  this issuer and one DPoP proof that verifies: typ dpop+jwt, alg ES256, the jwk's P-256 signature, the
  jwk's thumbprint that of the token, htm the method, htu this origin's URL of the path without query
  and fragment, iat within 60 s, a jti never seen before, ath the SHA-256 of the token. Anything else is
  401, with why in the body and the log. A write to a path listed in --forbid (a line of that file) is 403
  when it passed (a read-only grant).
- the other origin: answers 200 with an empty Turtle document (/profile/card: a WebID profile naming the
  issuer as its solid:oidcIssuer), and logs LEAK when a request carries an Authorization or DPoP header:
  credentials must never go there.

LOG gets a line per request: "issuer|pod|other METHOD PATH STATUS WHY", WHY "-" when it passed; tokens
given as "TOKEN N VALUE" (for the test to grep for). ES256 is verified here in pure Python (the tests' environment has the standard library
only): slow (a few ms) but exact.

usage: fake_pod.py TARGET LOG CLIENT_ID SECRET [--expires S] [--garbage] [--forbid FILE]"""
import base64
import hashlib
import http.client
import json
import os
import secrets
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "gsm"))
import idempotency  # noqa: E402  (tests/gsm/idempotency.py: the test services' HTTP server)

# ---- P-256 (FIPS 186-4 D.1.2.3) and ECDSA verification (SEC 1 4.1.4) ----
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


def point_add(p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0] and (p[1] + q[1]) % P == 0:
        return None
    if p == q:
        lam = (3 * p[0] * p[0] + A) * pow(2 * p[1], -1, P) % P
    else:
        lam = (q[1] - p[1]) * pow(q[0] - p[0], -1, P) % P
    x = (lam * lam - p[0] - q[0]) % P
    return x, (lam * (p[0] - x) - p[1]) % P


def point_mul(k, p):
    r = None
    while k:
        if k & 1:
            r = point_add(r, p)
        p = point_add(p, p)
        k >>= 1
    return r


def es256_verify(x, y, message, signature):
    if len(signature) != 64 or (y * y - x * x * x - A * x - B) % P != 0:
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if not (0 < r < N and 0 < s < N):
        return False
    e = int.from_bytes(hashlib.sha256(message).digest(), "big")
    w = pow(s, -1, N)
    q = point_add(point_mul(e * w % N, G), point_mul(r * w % N, (x, y)))
    return q is not None and q[0] % N == r


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def thumbprint(jwk):
    """RFC 7638: the SHA-256 of the required members in lexicographic order, no whitespace."""
    canonical = json.dumps({k: jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode()).digest())


class Proofs:
    """Checks DPoP proofs; every jti once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.jtis = set()

    def check(self, proof, method, htu, token):
        """(None, thumbprint) when the proof is good, else (why, None)."""
        if proof is None:
            return "no DPoP header", None
        parts = proof.split(".")
        if len(parts) != 3:
            return "DPoP is not a compact JWS", None
        try:
            header, claims = json.loads(b64url_decode(parts[0])), json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
            jwk = header["jwk"]
            x, y = int.from_bytes(b64url_decode(jwk["x"]), "big"), int.from_bytes(b64url_decode(jwk["y"]), "big")
        except (ValueError, KeyError, TypeError) as e:
            return "DPoP does not decode: %s" % e, None
        if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256":
            return "DPoP header typ/alg %s/%s" % (header.get("typ"), header.get("alg")), None
        if jwk.get("kty") != "EC" or jwk.get("crv") != "P-256" or "d" in jwk:
            return "DPoP jwk is not a public P-256 key", None
        if not es256_verify(x, y, (parts[0] + "." + parts[1]).encode(), signature):
            return "DPoP signature does not verify", None
        if claims.get("htm") != method:
            return "htm %s, not %s" % (claims.get("htm"), method), None
        if claims.get("htu") != htu:
            return "htu %s, not %s" % (claims.get("htu"), htu), None
        iat = claims.get("iat")
        if not isinstance(iat, int) or abs(iat - time.time()) > 60:
            return "iat %s is not now" % iat, None
        if token is not None:
            ath = b64url(hashlib.sha256(token.encode()).digest())
            if claims.get("ath") != ath:
                return "ath %s, not the token's hash" % claims.get("ath"), None
        jti = claims.get("jti")
        if not isinstance(jti, str) or len(jti) < 12:
            return "no jti (or a short one)", None
        with self.lock:
            if jti in self.jtis:
                return "jti %s used before" % jti, None
            self.jtis.add(jti)
        return None, thumbprint(jwk)


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    target = urllib.parse.urlsplit(argv[0])
    log_path, client_id, secret = argv[1], argv[2], argv[3]
    expires, garbage, forbid = 3600, False, None
    rest = argv[4:]
    while rest:
        if rest[0] == "--expires" and len(rest) > 1:
            expires, rest = int(rest[1]), rest[2:]
        elif rest[0] == "--garbage":
            garbage, rest = True, rest[1:]
        elif rest[0] == "--forbid" and len(rest) > 1:
            forbid, rest = rest[1], rest[2:]
        else:
            print(__doc__, file=sys.stderr)
            return 2
    proofs = Proofs()
    lock = threading.Lock()
    tokens = {}  # token -> (number, thumbprint, expiry, revoked)
    broken = [False]
    servers = {}

    def log(*fields):
        with lock, open(log_path, "a") as f:
            f.write(" ".join(str(x) for x in fields) + "\n")

    def base(name):
        return "http://127.0.0.1:%d" % servers[name].server_address[1]

    def forbidden(path):
        try:
            with open(forbid) as f:
                return path in (line.strip() for line in f)
        except (TypeError, FileNotFoundError):
            return False

    class Issuer(idempotency.Handler):
        def do_GET(self):
            if self.path == "/.well-known/openid-configuration":
                conf = {"issuer": base("issuer") + "/", "token_endpoint": base("issuer") + "/token",
                        "token_endpoint_auth_methods_supported": ["client_secret_basic"],
                        "dpop_signing_alg_values_supported": ["ES256"]}
                log("issuer GET", self.path, 200, "-")
                self.send(200, [("Content-Type", "application/json")], json.dumps(conf).encode())
            else:
                log("issuer GET", self.path, 404, "-")
                self.send(404)

        def do_POST(self):
            body = self.read_body().decode()
            if self.path in ("/break", "/mend"):  # the token endpoint answers 503 from /break to /mend
                broken[0] = self.path == "/break"
                log("issuer POST", self.path, 204, "-")
                self.send(204)
                return
            if self.path == "/revoke":
                with lock:
                    for t, v in list(tokens.items()):
                        tokens[t] = v[:3] + (True,)
                log("issuer POST", self.path, 204, "-")
                self.send(204)
                return
            if self.path != "/token":
                self.send(404)
                return
            if broken[0]:
                log("issuer POST", self.path, 503, "broken")
                self.send(503, [("Content-Type", "text/plain")], b"down for maintenance\n")
                return
            status, answer, why = self.grant(body)
            log("issuer POST", self.path, status, why)
            if garbage and status == 200:
                self.send(200, [("Content-Type", "text/html")], b"<html><body>Welcome to our portal</body></html>")
            else:
                self.send(status, [("Content-Type", "application/json")], json.dumps(answer).encode())

        def grant(self, body):
            auth = self.headers.get("Authorization", "")
            try:
                user, _, password = base64.b64decode(auth[6:]).decode().partition(":") if auth.startswith("Basic ") \
                    else ("", "", "")
            except ValueError:
                user = password = ""
            if urllib.parse.unquote(user) != client_id or urllib.parse.unquote(password) != secret:
                return 401, {"error": "invalid_client"}, "wrong client credentials"
            form = urllib.parse.parse_qs(body)
            if form.get("grant_type") != ["client_credentials"]:
                return 400, {"error": "unsupported_grant_type"}, "grant_type %s" % form.get("grant_type")
            why, jkt = proofs.check(self.headers.get("DPoP"), "POST", base("issuer") + "/token", None)
            if why:
                return 400, {"error": "invalid_dpop_proof"}, why
            token = secrets.token_urlsafe(24)
            with lock:
                number = len(tokens) + 1
                tokens[token] = (number, jkt, time.time() + expires, False)
            log("TOKEN", number, token)
            return 200, {"access_token": token, "token_type": "DPoP", "expires_in": expires}, "-"

    class Pod(idempotency.Handler):
        def handle_any(self):
            body = self.read_body() if self.headers.get("Content-Length") else None
            path = urllib.parse.urlsplit(self.path).path
            why = self.refusal(path)
            if why:
                log("pod", self.command, path, 401, why)
                self.send(401, [("Content-Type", "text/plain"), ("WWW-Authenticate", 'DPoP algs="ES256"')],
                          (why + "\n").encode())
                return
            if self.command not in ("GET", "HEAD") and forbidden(path):
                log("pod", self.command, path, 403, "forbidden")
                self.send(403, [("Content-Type", "text/plain")], b"not allowed\n")
                return
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("authorization", "dpop", "host", "connection", "content-length")}
            conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            try:
                conn.request(self.command, self.path, body=body, headers=headers)
                resp = conn.getresponse()
                status, resp_headers, resp_body = resp.status, resp.getheaders(), resp.read()
            finally:
                conn.close()
            log("pod", self.command, path, status, "-")
            keep = [(k, v) for k, v in resp_headers
                    if k.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length")]
            idempotency.send_answer(self, status, keep, resp_body)

        def refusal(self, path):
            auth = self.headers.get("Authorization", "")
            if not auth.startswith("DPoP "):
                return "no DPoP access token"
            token = auth[5:]
            with lock:
                known = tokens.get(token)
            if known is None:
                return "unknown token"
            number, jkt, expiry, revoked = known
            if revoked:
                return "token %d revoked" % number
            if time.time() > expiry:
                return "token %d expired" % number
            why, proof_jkt = proofs.check(self.headers.get("DPoP"), self.command, base("pod") + path, token)
            if why:
                return why
            if proof_jkt != jkt:
                return "the proof's key is not the token's"
            return None

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_PATCH = handle_any

    class Other(idempotency.Handler):
        def do_GET(self):
            leak = [h for h in ("Authorization", "DPoP") if h in self.headers]
            log("other GET", self.path, 200, ("LEAK " + ",".join(leak)) if leak else "-")
            profile = b""
            if self.path == "/profile/card":
                profile = ("<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <%s/> ." % base("issuer")).encode()
            self.send(200, [("Content-Type", "text/turtle")], profile)

    for name, handler in (("issuer", Issuer), ("pod", Pod), ("other", Other)):
        servers[name] = idempotency.Server(("127.0.0.1", 0), handler)
        threading.Thread(target=servers[name].serve_forever, daemon=True).start()
    print(base("issuer") + "/", base("pod") + "/", base("other") + "/", flush=True)
    threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
