#!/usr/bin/env bash
# bench/scale/check-cluster.sh: is a multi-worker CSS deployment (scripts/css-cluster.sh) still one LDP
# server? Two checks, against the URL of a running deployment or one it starts itself:
#  1. conditional writes: ROUNDS rounds, each PUTs /check/race-R, reads its ETag, then RACERS clients PUT
#     it at once (one curl, --parallel: a connection each, so the primary hands them to different
#     workers) with If-Match: that ETag and different bodies. Exactly one must win (2xx), the others get
#     412, and the resource must then hold the winner's body.
#  2. read-your-writes across workers: ROUNDS times, a PUT of /check/rw-R, then READS GETs on fresh
#     connections must all return the new body. With a deployment it started itself (log level info:
#     CSS logs `{W-PID} ... Received PUT request for /check/rw-R`), it also counts the GETs that a
#     worker other than the writer served: at least one must (else the check proved nothing).
# usage: bench/scale/check-cluster.sh [URL [CSS_LOG]]   (no URL: starts WORKERS=2 workers + Redis itself)
# environment: WORKERS=2, ROUNDS=20, RACERS=4, READS=8. Exit 0 when both hold, 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../.." && pwd)
rounds=${ROUNDS:-20}; racers=${RACERS:-4}; reads=${READS:-8}
work=$(mktemp -d /tmp/ldgsm-check-cluster.XXXXXX)
url=${1:-}; log=${2:-}; own=
if [ -z "$url" ]; then
  own=$work/css
  url=$("$root/scripts/css-cluster.sh" start --workers "${WORKERS:-2}" --dir "$own" --log-level info) || exit 1
  log=$own/css.log
  trap '"$root/scripts/css-cluster.sh" stop --dir "$own"' EXIT
fi
fail=0
put() { curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: text/turtle' --data-binary "$2" "$url$1"; }
etag() { curl -s -D - -o /dev/null "$url$1" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p'; }

# 1. racing conditional writes
bad_rounds=0
for r in $(seq 1 "$rounds"); do
  path=check/race-$r
  put "$path" "<#s> <#round> $r ; <#by> 0 ." > /dev/null
  e=$(etag "$path")
  [ -n "$e" ] || { echo "race round $r: no ETag on $path" >&2; bad_rounds=$((bad_rounds + 1)); continue; }
  qe=${e//\"/\\\"} # the ETag's quotes escaped for curl's config syntax
  : > "$work/race.cfg"
  for k in $(seq 1 "$racers"); do
    [ "$k" -gt 1 ] && echo next >> "$work/race.cfg"
    printf 'url = "%s%s"\nrequest = "PUT"\nheader = "Content-Type: text/turtle"\nheader = "If-Match: %s"\ndata = "<#s> <#round> %d ; <#by> %d ."\noutput = "/dev/null"\nwrite-out = "%%{http_code} %d\\n"\n' \
      "$url" "$path" "$qe" "$r" "$k" "$k" >> "$work/race.cfg"
  done
  curl -s -S --no-progress-meter -Z --parallel-immediate --parallel-max "$racers" -K "$work/race.cfg" > "$work/race.out"
  won=$(grep -c '^2' "$work/race.out"); lost=$(grep -c '^412 ' "$work/race.out")
  winner=$(awk '/^2/ { print $2 }' "$work/race.out" | head -1)
  body=$(curl -s "$url$path")
  if [ "$won" -ne 1 ] || [ "$lost" -ne $((racers - 1)) ] || ! grep -q "#by> $winner" <<< "$body"; then
    echo "race round $r: $won won, $lost got 412 (answers: $(tr '\n' ' ' < "$work/race.out")); body: $body" >&2
    bad_rounds=$((bad_rounds + 1))
  fi
done
if [ $bad_rounds -eq 0 ]; then
  echo "PASS: $rounds rounds of $racers racing If-Match PUTs: exactly one winner each, the others 412, the winner's body kept"
else
  echo "FAIL: $bad_rounds of $rounds rounds of racing If-Match PUTs did not have exactly one winner"; fail=1
fi

# 2. a write read back on fresh connections (and so, with several workers, by the others)
stale=0 other=0 total=0
for r in $(seq 1 "$rounds"); do
  path=check/rw-$r
  put "$path" "<#s> <#v> 0 ." > /dev/null
  put "$path" "<#s> <#v> $r ." > /dev/null
  for _ in $(seq 1 "$reads"); do
    total=$((total + 1))
    curl -s "$url$path" | grep -q "#v> $r" || stale=$((stale + 1))
  done
  if [ -n "$log" ]; then
    sleep 0.2 # the workers' log lines
    writer=$(grep -F "Received PUT request for /$path" "$log" | tail -1 | grep -o '{W-[0-9]*}')
    n=$(grep -F "Received GET request for /$path" "$log" | grep -vcF "$writer")
    other=$((other + n))
  fi
done
if [ $stale -eq 0 ]; then
  echo -n "PASS: $total GETs after $rounds PUTs, each on a fresh connection, all read the new body"
  [ -n "$log" ] && echo -n "; $other of them served by a worker other than the one that took the PUT"
  echo
else
  echo "FAIL: $stale of $total GETs after a PUT read an old body"; fail=1
fi
if [ -n "$log" ] && [ "$other" -eq 0 ]; then
  echo "FAIL: no GET was served by another worker than the writer (is it one worker?)"; fail=1
fi
rm -rf "$work/race.cfg" "$work/race.out"
exit $fail
