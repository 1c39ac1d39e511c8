#!/usr/bin/env bash
# tests/http/run_tls_verification.sh: the HTTP client verifies TLS peers and host names (http_client.h
# guarantee 5). `ldgsm run` GETs https://127.0.0.1:PORT/doc from a local TLS server (tests/http/tls_server.py)
# whose certificate it must refuse: a self-signed one, and one signed by a CA the test makes for another
# host name. A refused handshake is a "TLS failure" and the server sees no request.
#
# The client has no option to trust a CA: it uses the system's certificates. To show that the wrong
# host name alone is refused (not only the unknown issuer), the agent also runs in a private mount
# namespace (unshare) where the system's certificates are the test CA alone: there the certificate for
# 127.0.0.1 signed by it is accepted and the one for another name is still refused. Without user
# namespaces that part cannot run: the rest is checked and the test exits 77 (skipped).
set -u
. "$(dirname "$0")/../agent/lib.sh"
command -v openssl > /dev/null || { echo "openssl is not installed (scripts/install-deps.sh installs it)"; exit 77; }
http_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

tls_pid=
trap '[ -n "$tls_pid" ] && stop_pid "$tls_pid"; cleanup' EXIT

# Certificates, made now in the test's directory.
pki=$work/pki
mkdir -p "$pki"
make_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$pki/$1.key" 2> /dev/null; }
# issue NAME SUBJECT_ALT_NAME: a leaf certificate NAME.pem for that name, signed by the test CA.
issue() {
  make_key "$1"
  openssl req -new -key "$pki/$1.key" -subj "/CN=${2#*:}" -out "$pki/$1.csr" 2> /dev/null
  printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$2" > "$pki/$1.ext"
  openssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
    -extfile "$pki/$1.ext" -out "$pki/$1.pem" 2> /dev/null
}
make_key self
openssl req -x509 -key "$pki/self.key" -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -days 2 \
  -out "$pki/self.pem" 2> /dev/null
make_key ca
openssl req -x509 -key "$pki/ca.key" -subj "/CN=ldgsm test CA" -addext basicConstraints=critical,CA:TRUE \
  -addext keyUsage=critical,keyCertSign,cRLSign -days 2 -out "$pki/ca.pem" 2> /dev/null
issue right IP:127.0.0.1
issue wrong DNS:wrong.example
for c in self ca right wrong; do
  [ -s "$pki/$c.pem" ] || { echo "FAIL: openssl did not make the $c certificate"; exit 1; }
done

# serve_tls NAME: a TLS server presenting NAME.pem; sets $tls_base and logs requests to $work/requests.
serve_tls() {
  [ -n "$tls_pid" ] && stop_pid "$tls_pid"
  : > "$work/requests"
  rm -f "$work/tls.out"
  python3 "$http_tests/tls_server.py" "$pki/$1.pem" "$pki/$1.key" "$work/requests" > "$work/tls.out" 2> "$work/tls.err" &
  tls_pid=$!
  local _
  for _ in $(seq 1 $((wait_limit * 20))); do
    tls_base=$(head -n 1 "$work/tls.out" 2> /dev/null)
    case $tls_base in https://*) return 0 ;; esac
    running "$tls_pid" || break
    nap 0.05
  done
  echo "the TLS server did not start: $(cat "$work/tls.err")"; exit 1
}

# get_doc [WRAPPER...]: `ldgsm run` with one rule that GETs ${tls_base}doc, run under WRAPPER if
# given; its log in $work/run.log. The client's timeouts are the test's bound: loading the system's
# certificates under the sanitizers can take longer than the default connect timeout, and than --read-wait's
# 2 s (then the one iteration ends with "no answer yet" instead of the handshake's verdict: the sanitizer
# stage under load, f641022).
get_doc() {
  printf '@prefix http: <http://www.w3.org/2011/http#> .\n@prefix httpm: <http://www.w3.org/2011/http-methods#> .\n{ } => { [] http:mthd httpm:GET ; http:requestURI <%sdoc> } .\n' \
    "$tls_base" > "$work/prog.n3"
  bounded "$@" "$ldgsm" run -p "$work/prog.n3" -n 0 --iterations 1 -v \
    --connect-timeout $((wait_limit * 1000)) --timeout $((wait_limit * 1000)) --read-wait 0 > "$work/run.out" 2> "$work/run.log"
}
refused() { grep -q "GET ${tls_base}doc failed (TLS failure)" "$work/run.log"; }
# show_unless_refused: what the agent said, when it did not refuse (a check's own output is silenced)
show_unless_refused() { refused || { echo "  the agent's log:"; head -n 8 "$work/run.log" | sed 's/^/    /'; }; }
accepted() { grep -q "GET ${tls_base}doc 200" "$work/run.log"; }
nothing_served() { [ ! -s "$work/requests" ]; }

serve_tls self
get_doc
check "a self-signed certificate is refused as a TLS failure" refused
show_unless_refused
check "... because its issuer is not trusted" grep -q 'certificate verification failed' "$work/run.log"
check "... and no request is sent" nothing_served

serve_tls wrong
get_doc
check "a certificate for another host name from an unknown CA is refused as a TLS failure" refused
show_unless_refused
check "... and no request is sent" nothing_served

# In a mount namespace where /etc/ssl/certs holds the test CA alone (as the CA directory and as the
# bundle file, whichever libcurl was built to read).
trust=$work/trust
mkdir -p "$trust"
cp "$pki/ca.pem" "$trust/ca-certificates.crt"
cp "$pki/ca.pem" "$trust/ldgsm-test-ca.pem"
trusting_test_ca=(unshare --user --map-root-user --mount sh -c \
  'mount --bind "$0" /etc/ssl/certs && exec "$@"' "$trust")
if ! "${trusting_test_ca[@]}" true > /dev/null 2>&1; then
  echo "SKIPPED: no private mount namespace (unshare --user --mount): the host name check alone is not tested"
  finish || exit 1
  exit 77
fi

serve_tls right
get_doc "${trusting_test_ca[@]}"
check "trusting the test CA, its certificate for 127.0.0.1 is accepted" accepted
check "... and the document is read" grep -q '1 triples read' "$work/run.log"
check "... the server saw the GET" grep -qx 'GET /doc' "$work/requests"

serve_tls wrong
get_doc "${trusting_test_ca[@]}"
check "trusting the test CA, its certificate for another host name is refused as a TLS failure" refused
check "... because the name does not match" grep -q 'does not match target host name' "$work/run.log"
check "... and no request is sent" nothing_served

serve_tls self
get_doc "${trusting_test_ca[@]}"
check "trusting the test CA, a self-signed certificate is still refused" refused
check "... and no request is sent" nothing_served

finish
