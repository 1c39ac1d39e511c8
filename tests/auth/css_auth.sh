#!/usr/bin/env bash
# tests/auth/css_auth.sh: `ldgsm run --auth` against a real Solid pod: Community Solid Server 7.2.0 as
# scripts/css-pod.sh starts it (WAC enforced, an account, a pod and client credentials seeded; anonymous
# requests inside the pod get 401; access tokens lasting 5 s, so that every run renews them as it goes). The fire alarm (tests/gsm/run_fire_alarm.sh) and the order fixture
# (tests/gsm/run_orders.sh, part 1, its `ldgsm status` included) run in the pod with AGENT_OPTIONS and
# STATUS_OPTIONS "--auth FILE", from a
# scratch tree whose tests/agent/lib.sh is tests/auth/css_auth_lib.sh (the test's own requests go as the
# pod's owner); then the fire alarm's agent without --auth: a line names the 401 and the resource, and the
# pod is unchanged; with --notifications, the agent finds the pod's subscription service (the description
# its documents link to) and its channels open, an absent document's too. No secret or token in the agents'
# logs.
# Usage: [KEEP=1] css_auth.sh PATH/TO/ldgsm (KEEP: the scratch directories stay). Exit 77 when CSS is not installed (node_modules missing).
set -u
ldgsm=${1:?usage: css_auth.sh path/to/ldgsm}
ldgsm=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
root=$(cd "$here/../.." && pwd)
WORK=$(mktemp -d /tmp/ldgsm-css-auth.XXXXXX)
. "$root/tests/ldp/css.sh"
trap '"$root/scripts/css-pod.sh" stop "$WORK/pod" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
if ! css_available; then
  echo "css_auth.sh: Community Solid Server is not installed (node_modules missing: run scripts/peers.sh)" >&2
  exit 77
fi
started=$SECONDS
# tokens lasting 5 s (CSS's default is 600): every run renews its token as it goes, 75% into its life
CSS_POD_TOKEN_TTL=5 CSS_POD_PORT=$(free_port) "$root/scripts/css-pod.sh" start "$WORK/pod" || exit 1
. "$WORK/pod/pod.env"
echo "css_auth.sh: pod $CSS_POD_URL, up in $((SECONDS - started)) s"
auth=$WORK/pod/auth.json
json() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }
# the owner's token for the test's own requests: the same client credentials, no DPoP (a Bearer token)
origin=${CSS_POD_URL%/*/}/
CSS_BEARER=$(curl -sf -u "$(json "$auth" client_id):$(json "$auth" client_secret)" -d grant_type=client_credentials \
  -d scope=webid "${origin}.oidc/token" | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])') ||
  { echo "FAIL: no owner token from ${origin}.oidc/token"; exit 1; }
anonymous=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: text/turtle' --data '<#a> <#b> <#c> .' \
  "${CSS_POD_URL}anonymous")
status=0
[ "$anonymous" = 401 ] || { echo "FAIL: an anonymous PUT into the pod was answered $anonymous, not 401"; status=1; }

# The scratch tree: the real test scripts and libraries, the fixtures, and this test's lib.sh.
mkdir -p "$WORK/tree/tests/gsm" "$WORK/tree/tests/agent"
ln -s "$root/ldp-fixtures" "$WORK/tree/ldp-fixtures"
for f in run_fire_alarm.sh fire_alarm_lib.sh run_orders.sh orders_check.py orders_lib.sh history_lines.py; do
  ln -s "$root/tests/gsm/$f" "$WORK/tree/tests/gsm/$f"
done
ln -s "$here/css_auth_lib.sh" "$WORK/tree/tests/agent/lib.sh"
export CSS_URL=$CSS_POD_URL CSS_ORIGIN=$origin LDGSM_TEST_AUTHORIZATION="Bearer $CSS_BEARER"
export LDGSM_AGENT_LIB="$root/tests/agent/lib.sh"
# CSS answers several times slower than ldgsm serve: twice the default waits, 10 orders (the protocol,
# not the scale: tests/gsm/css_gsm.sh runs 25 on an open CSS)
export LDGSM_TEST_WAIT=${LDGSM_TEST_WAIT:-60} ORDERS_CSS_INSTANCES=${ORDERS_CSS_INSTANCES:-10}
export AGENT_OPTIONS="--auth $auth" STATUS_OPTIONS="--auth $auth" # the orders' `ldgsm status` too
# the tests' scratch directories are kept (KEEP=1) to be searched for secrets below: those that are not
# there before are theirs, or another test's running beside (told apart by the pod's URL in their files)
kept_before=$(ls -d /tmp/ldgsm-agent-test.* 2>/dev/null)
for t in gsm/run_fire_alarm.sh gsm/run_orders.sh; do
  started=$SECONDS
  if ! KEEP=1 bash "$WORK/tree/tests/$t" "$ldgsm" > "$WORK/$(basename "$t").out" 2>&1; then
    echo "FAIL: $t with --auth in a pod of Community Solid Server 7.2.0"; status=1
  fi
  tail -n 3 "$WORK/$(basename "$t").out"
  echo "css_auth.sh: $t took $((SECONDS - started)) s"
done

# With --notifications: the pod's own storage description (POD/.well-known/solid, named by every 2xx answer's
# Link; the origin's /.well-known/solid describes no storage) lists the WebSocketChannel2023 service, whose
# subscriptions need the token. A document that exists and one that is absent (CSS's 404 names no storage:
# the description's pim:Storage root places it): both channels open, and the agent rests on them (-n and
# --safety-poll of ten minutes; stopped after 20 s).
curl -s -o /dev/null -X PUT -H "Authorization: Bearer $CSS_BEARER" -H 'Content-Type: text/turtle' \
  --data '<#it> <https://example.org/env#value> 1 .' "${CSS_POD_URL}notified/present"
timeout 20 "$ldgsm" run -v --auth "$auth" --instance "${CSS_POD_URL}notified/present#it" \
  --instance "${CSS_POD_URL}notified/absent#it" --notifications -n 600000 --safety-poll 600000 \
  > /dev/null 2> "$WORK/notifications.log"
if ! grep -q "^notifications: the storage described at ${CSS_POD_URL}.well-known/solid offers WebSocketChannel2023 at " \
  "$WORK/notifications.log"; then
  echo "FAIL: with --notifications, the pod's subscription service was not found:"; grep -i notif "$WORK/notifications.log"
  status=1
fi
if ! grep -qE '^iteration: .*, 2 channels live' "$WORK/notifications.log"; then
  echo "FAIL: with --notifications, the two channels in the pod did not open:"
  grep -E '^(iteration|notifications)' "$WORK/notifications.log"
  status=1
fi

# Without --auth: the fire alarm's agent reads its instance, gets 401, says so with the resource, writes
# nothing.
unset AGENT_OPTIONS STATUS_OPTIONS
before=$(curl -s -H "Authorization: Bearer $CSS_BEARER" "${CSS_POD_URL}status/alarm1")
timeout 60 "$ldgsm" run --instance "${CSS_POD_URL}status/alarm1#it" -n 0 --iterations 2 > /dev/null 2> "$WORK/anonymous.log"
after=$(curl -s -H "Authorization: Bearer $CSS_BEARER" "${CSS_POD_URL}status/alarm1")
if ! grep -q "${CSS_POD_URL}status/alarm1.*401" "$WORK/anonymous.log"; then
  echo "FAIL: without --auth, no line names the 401 and ${CSS_POD_URL}status/alarm1:"; cat "$WORK/anonymous.log"; status=1
fi
[ -n "$before" ] && [ "$before" = "$after" ] || { echo "FAIL: without --auth, the status document changed"; status=1; }
grep -E '^(PUT|PATCH|POST|DELETE) ' "$WORK/anonymous.log" | grep -vq ' 401 ' &&
  { echo "FAIL: without --auth, a write was answered other than 401"; status=1; }

# No secret in the agents' logs and traces, nor in what they wrote into the pod.
kept=()
for d in $(comm -13 <(printf '%s\n' $kept_before | sort) <(ls -d /tmp/ldgsm-agent-test.* 2>/dev/null | sort)); do
  grep -rqF -- "$CSS_POD_URL" "$d" 2>/dev/null && kept+=("$d")
done
# The runs renewed their 5-second tokens, and none of their requests was refused.
renewals=$(cat "${kept[@]/%//agent.log}" "${kept[@]/%//all.log}" 2>/dev/null | awk '$1 == "auth:" && $4 > 1' | wc -l)
for f in "${kept[@]/%//agent.log}" "${kept[@]/%//all.log}"; do
  [ -f "$f" ] && echo "css_auth.sh: $(basename "$f"): $(grep -c '^auth: access token' "$f") tokens"
done
[ "$renewals" -gt 0 ] || { echo "FAIL: no agent renewed its token"; status=1; }
if cat "${kept[@]/%//agent.log}" "${kept[@]/%//all.log}" 2>/dev/null | grep -qE ' 401 |status 401|answered 401'; then
  echo "FAIL: a request of the runs with --auth ended 401"; status=1
fi
secret=$(json "$auth" client_secret)
[ ${#kept[@]} -gt 0 ] || { echo "FAIL: the tests' scratch directories were not found"; status=1; }
# (the pod's resources: CSS keeps the credentials themselves in data/.internal)
if grep -rqF --exclude-dir=.internal -- "$secret" "${kept[@]}" "$WORK"/*.out "$WORK/anonymous.log" "$WORK/pod/data" 2>/dev/null; then
  echo "FAIL: the client secret in a log, a trace or the pod"; status=1
fi
[ -n "${KEEP:-}" ] || rm -rf "${kept[@]}"
[ $status = 0 ] && echo "css_auth.sh: passed"
exit $status
