#!/usr/bin/env bash
# `ldgsm run --auth` against tests/auth/fake_pod.py (a Solid-OIDC issuer and a resource server checking
# every DPoP proof strictly, in front of `ldgsm serve`): a run gets one token and every request carries a
# proof the server accepts (htu without the query, a fresh jti, ath); nothing goes to a third origin; a
# revoked token is renewed once after the 401 and the request sent again; tokens lasting a second are
# renewed as the run goes on; a 403 is a clear line and the rest of the run goes on; a wrong secret, an
# unreachable issuer, a token endpoint answering garbage and a bad credentials file each end the run at
# its start with a line naming the cause, writing nothing; without --auth the 401 is named with the
# resource; a WebID stands for the issuer its profile names. The secret and the tokens appear in no log
# line, trace record or stored document.
set -u
. "$(dirname "$0")/../agent/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
start_server
secret=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
client=ldgsm-test-client

# fake_pod [options]: starts tests/auth/fake_pod.py (its PID in fake_pid, its log $work/pod.log) and
# sets issuer, pod and other (base URLs ending in /)
fake_pid=
fake_pod() {
  [ -n "$fake_pid" ] && stop_pid "$fake_pid"
  : > "$work/pod.log"
  rm -f "$work/fake.out" # never read the last one's addresses
  python3 "$here/fake_pod.py" "$base" "$work/pod.log" "$client" "$secret" "$@" > "$work/fake.out" 2> "$work/fake.err" &
  fake_pid=$!
  wait_for_line "$work/fake.out" "$work/fake.err" "$fake_pid" "the fake pod"
  read -r issuer pod other <<< "$line"
}
trap 'stop_pid "$fake_pid"; cleanup' EXIT

credentials() { # FILE SECRET ISSUER: a credentials file, mode 0600
  (umask 077; printf '{"client_id": "%s", "client_secret": "%s", "issuer": "%s"}\n' "$client" "$2" "$3" > "$1")
}
# the program: read c/in (also with a query string), a document on a third origin, and c/out, and write
# c/out
program() {
  cat > "$work/prog.n3" <<N3
@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
@prefix ldgsm: <https://w3id.org/ldgsm#> .
@prefix : <http://ex.org/> .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${pod}c/in> } .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${pod}c/in?view=full> } .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${other}elsewhere> } .
{ } => { [] http:mthd httpm:GET ; http:requestURI <${pod}c/out> } .
{ <${pod}c/in#x> :v ?v . }
=> { [] http:mthd ldgsm:UPDATE ; http:requestURI <${pod}c/out#x> ; http:body { <${pod}c/out#x> :v ?v . } } .
N3
}
rejected() { grep -c '^pod .* 401 ' "$work/pod.log"; }   # requests the pod refused
tokens() { grep -c '^TOKEN ' "$work/pod.log"; }          # tokens the issuer gave
leaks() { grep -c 'LEAK' "$work/pod.log"; }               # credentials sent to the third origin
secrets_in() { # FILE...: the secret or a token given appears in one of them
  local t
  grep -qF -- "$secret" "$@" && return 0
  for t in $(awk '$1 == "TOKEN" { print $3 }' "$work/pod.log"); do grep -qF -- "$t" "$@" && return 0; done
  return 1
}

fake_pod
program
credentials "$work/auth.json" "$secret" "$issuer"
put c/in '<#x> <http://ex.org/v> 1 .' > /dev/null

# A run: one token, every request accepted, none to the third origin.
bounded "$ldgsm" run -p "$work/prog.n3" --auth "$work/auth.json" --allow-origin "$pod" -n 0 --iterations 3 \
  --until quiescent -v --trace "$work/trace.jsonl" > /dev/null 2> "$work/run.log"
check "a run with --auth ends quiescent (exit 0)" [ $? = 0 ]
check "c/out was written through the pod" grep -q '<http://ex.org/v> "1"' <(get c/out)
check "one token for the run" [ "$(tokens)" = 1 ]
check "every request's proof was accepted (htu without the query, fresh jti, ath)" [ "$(rejected)" = 0 ]
check "the query-string GET passed too" grep -q '^pod GET /c/in 200' "$work/pod.log"
check "the write passed" grep -qE '^pod (PUT|PATCH) /c/out 20' "$work/pod.log"
check "no credentials to the third origin" [ "$(leaks)" = 0 ]
check "the third origin was read" grep -q '^other GET /elsewhere 200' "$work/pod.log"
if [ $failures -gt 0 ]; then cat "$work/pod.log" "$work/run.log"; fi

# A token revoked between two iterations: the next request gets 401, the token is renewed once, the request
# sent again and answered.
rm -f "$work/steps.fifo"; mkfifo "$work/steps.fifo"
: > "$work/pod.log"
# (allowed to dump core as far as the hard limit lets it: --auth must take that back)
(ulimit -S -c "$(ulimit -H -c)"; exec "$ldgsm" run -p "$work/prog.n3" --auth "$work/auth.json" --allow-origin "$pod" \
  -n 0 --step -v --trace "$work/trace2.jsonl") < "$work/steps.fifo" 2> "$work/step.log" &
agent=$!
exec 8> "$work/steps.fifo"
follow_log "$work/step.log"
echo >&8
next_iteration $agent
check "a run with --auth dumps no core (it would hold the secret)" grep -qE '^Max core file size +0 ' "/proc/$agent/limits"
request POST "${issuer}revoke" ""
put c/in '<#x> <http://ex.org/v> 2 .' > /dev/null
echo >&8
next_iteration $agent
exec 8>&-
await_pid $agent
check "after the revocation: the requests refused were those carrying the revoked token" \
  [ "$(rejected)" -ge 1 ] && [ "$(grep -c '^pod .* 401 token [0-9]* revoked' "$work/pod.log")" = "$(rejected)" ]
check "after the revocation: one renewal for the whole batch" [ "$(tokens)" = 2 ]
check "after the revocation: the refused reads were answered when sent again" \
  [ "$(grep -c '^pod GET /c/in 200' "$work/pod.log")" -ge 2 ]
check "after the revocation: the write of the next iteration went through" grep -q '<http://ex.org/v> "2"' <(get c/out)
if [ $failures -gt 0 ]; then cat "$work/pod.log" "$work/step.log"; fi

# The issuer down when the token is revoked: the renewal fails, the requests needing it fail unsent with a
# line naming the cause, and the write waits; once the issuer is back, the next iteration renews and writes.
: > "$work/pod.log"
"$ldgsm" run -p "$work/prog.n3" --auth "$work/auth.json" --allow-origin "$pod" -n 0 --step -v \
  < "$work/steps.fifo" 2> "$work/down.log" &
agent=$!
exec 8> "$work/steps.fifo"
follow_log "$work/down.log"
echo >&8
next_iteration $agent
request POST "${issuer}break" ""
request POST "${issuer}revoke" ""
put c/in '<#x> <http://ex.org/v> 5 .' > /dev/null
echo >&8
next_iteration $agent
check "issuer down: a line names the failed renewal and its cause" \
  grep -q "auth: the token endpoint ${issuer}token answered 503" "$work/down.log"
check "issuer down: the requests needing a token failed unsent, saying why" \
  grep -q "${pod}c/in: .*not sent: no access token: the token endpoint ${issuer}token answered 503" "$work/down.log"
check "issuer down: none of them sent again with the refused token (no read ended 401)" ! grep -q 'status 401' "$work/down.log"
check "issuer down: nothing written" grep -q '<http://ex.org/v> "2"' <(get c/out)
request POST "${issuer}mend" ""
# an iteration at a time until the write is there (a failed renewal stands for a second, oidc_token.h
# guarantee 4, so the first iterations after the mend may not try again yet)
written_after_step() { echo >&8; next_iteration $agent && grep -q '<http://ex.org/v> "5"' <(get c/out); }
for ((step = 0; step < 200; step++)); do written_after_step && break; nap 0.05; done
check "issuer back: the next iterations renew and write" grep -q '<http://ex.org/v> "5"' <(get c/out)
exec 8>&-
await_pid $agent
if [ $failures -gt 0 ]; then cat "$work/pod.log" "$work/down.log"; fi

# Tokens lasting two seconds: the run (6 iterations at least 0.4 s apart) renews each before it expires (a
# quarter of its life before: no request carries an expired one), and its writes go through.
fake_pod --expires 2
program
credentials "$work/auth.json" "$secret" "$issuer"
put c/in '<#x> <http://ex.org/v> 3 .' > /dev/null
bounded "$ldgsm" run -p "$work/prog.n3" --auth "$work/auth.json" --allow-origin "$pod" -n 400 --iterations 6 \
  -v > /dev/null 2> "$work/expiry.log"
check "short-lived tokens: the run ends (exit 0)" [ $? = 0 ]
check "short-lived tokens: renewed during the run" [ "$(tokens)" -ge 2 ]
check "short-lived tokens: renewed before they expired (no request refused)" [ "$(rejected)" = 0 ]
check "short-lived tokens: the write went through" grep -q '<http://ex.org/v> "3"' <(get c/out)
if [ $failures -gt 0 ]; then cat "$work/pod.log" "$work/expiry.log"; fi

# A 403 for c/out (authenticated, not allowed): a line naming it; c/in is still read, nothing else lost.
fake_pod --forbid "$work/forbidden"
echo /c/out > "$work/forbidden"
program
credentials "$work/auth.json" "$secret" "$issuer"
put c/in '<#x> <http://ex.org/v> 4 .' > /dev/null
bounded "$ldgsm" run -p "$work/prog.n3" --auth "$work/auth.json" --allow-origin "$pod" -n 0 --iterations 2 \
  > /dev/null 2> "$work/forbidden.log"
check "403: a line names the write and the status" grep -qE "(PUT|PATCH) ${pod}c/out: answered 403" "$work/forbidden.log"
check "403: c/out keeps its value" grep -q '<http://ex.org/v> "3"' <(get c/out)
check "403: the reads went on" grep -q '^pod GET /c/in 200' "$work/pod.log"

# Without --auth: the 401 is named with the resource, and nothing is written.
: > "$work/pod.log"
bounded "$ldgsm" run -p "$work/prog.n3" --allow-origin "$pod" -n 0 --iterations 2 > /dev/null 2> "$work/anonymous.log"
check "without --auth: a line names the 401 and the resource" grep -q "${pod}c/in.*401" "$work/anonymous.log"
check "without --auth: nothing written" ! grep -qE '^pod (PUT|PATCH|POST|DELETE) .* 20' "$work/pod.log"

# Runs that cannot start: each ends with exit 1 and a line naming the cause, sending nothing to the pod.
cannot_start() { # DESCRIPTION PATTERN ldgsm-run-arguments...
  local what=$1 pattern=$2; shift 2
  : > "$work/pod.log"
  bounded "$ldgsm" run -p "$work/prog.n3" --allow-origin "$pod" -n 0 --iterations 1 "$@" > /dev/null 2> "$work/start.log"
  check "$what: exit 1" [ $? = 1 ]
  check "$what: the line names the cause" grep -qE -- "$pattern" "$work/start.log"
  check "$what: nothing sent to the pod" ! grep -q '^pod ' "$work/pod.log"
  if [ $failures -gt 0 ]; then cat "$work/start.log"; fi
}
credentials "$work/wrong.json" "not-$secret" "$issuer"
cannot_start "a wrong secret" "token endpoint ${issuer}token answered 401 \(invalid_client\): wrong client_id or client_secret" \
  --auth "$work/wrong.json"
closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
credentials "$work/unreachable.json" "$secret" "http://127.0.0.1:$closed/"
cannot_start "an unreachable issuer" "http://127.0.0.1:$closed/.well-known/openid-configuration: connect failure" \
  --auth "$work/unreachable.json"
chmod 644 "$work/auth.json"
cannot_start "a credentials file others can read" "mode 0644 lets others read or write it" --auth "$work/auth.json"
chmod 600 "$work/auth.json"
# a newline inside a string: jansson's message quotes where it stopped, the secret
# (a short one: jansson quotes no more than about 20 characters)
(umask 077; printf '{"client_id": "x", "client_secret": "%s\n"}\n' "${secret:0:16}" > "$work/broken.json")
cannot_start "a credentials file that is not JSON" "broken.json: not JSON \(line 1" --auth "$work/broken.json"
check "a credentials file that is not JSON: its secret is not quoted" ! grep -qF -- "${secret:0:16}" "$work/start.log"
bounded "$ldgsm" run -p "$work/prog.n3" --auth "$work/auth.json" -n 0 --iterations 1 > /dev/null 2> "$work/start.log"
check "--auth with no origin to send the token to: exit 1" [ $? = 1 ]
check "--auth with no origin to send the token to: the line says so" grep -q -- '--auth needs --allow-origin' "$work/start.log"
(umask 077; printf '{"client_id": "x", "client_secret": "y", "isuer": "%s"}\n' "$issuer" > "$work/typo.json")
cannot_start "a misspelt key" 'unknown key "isuer"' --auth "$work/typo.json"
fake_pod --garbage
program
credentials "$work/auth.json" "$secret" "$issuer"
cannot_start "a token endpoint answering garbage" "token endpoint ${issuer}token answered 200 with a body that is not a JSON object" \
  --auth "$work/auth.json"

# ldgsm status --auth, without --allow-origin: the token goes to the instance's origin.
fake_pod
program
credentials "$work/auth.json" "$secret" "$issuer"
bounded "$ldgsm" status --auth "$work/auth.json" "${pod}c/in#x" > "$work/status.out" 2> "$work/status.log"
check "ldgsm status --auth: the instance document was read with the token" grep -q '^pod GET /c/in 200' "$work/pod.log"
check "ldgsm status --auth: nothing refused" [ "$(rejected)" = 0 ]

# A WebID instead of the issuer: its profile names the issuer (solid:oidcIssuer).
(umask 077; printf '{"client_id": "%s", "client_secret": "%s", "webid": "%s"}\n' "$client" "$secret" \
  "${other}profile/card#me" > "$work/webid.json")
: > "$work/pod.log"
bounded "$ldgsm" run -p "$work/prog.n3" --auth "$work/webid.json" --allow-origin "$pod" -n 0 --iterations 1 \
  > /dev/null 2> "$work/webid.log"
check "a WebID instead of the issuer: the run ends (exit 0)" [ $? = 0 ]
check "a WebID instead of the issuer: its profile was read" grep -q '^other GET /profile/card 200 -$' "$work/pod.log"
check "a WebID instead of the issuer: a token from the issuer it names" [ "$(tokens)" = 1 ]
check "a WebID instead of the issuer: the pod took the requests" grep -q '^pod GET /c/in 200' "$work/pod.log"
check "a WebID instead of the issuer: none refused" [ "$(rejected)" = 0 ]

# No secret and no token in any log line, trace record or stored document.
for doc in c/in c/out; do get "$doc" >> "$work/stored.nt"; done
check "the secret and the tokens appear in no log, trace or stored document" ! secrets_in "$work"/{run,step,expiry}.log \
  "$work"/{forbidden,anonymous,start,status,webid}.log "$work"/trace*.jsonl "$work/stored.nt" "$work/status.out"
finish
