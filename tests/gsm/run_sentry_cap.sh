#!/usr/bin/env bash
# `ldgsm lint` on a sentry past the pattern cap (SENTRY_MAX_PATTERNS, 1000 triple patterns): one of 1001
# patterns, as SPIN RDF and as SPARQL text, is an error naming the sentry and the count; one of 1000 lints
# clean. (Building its join plans was cubic in its patterns before the cap: 2,000 took 9-28 s.) $1 is the
# ldgsm binary.
set -u
ldgsm=${1:?usage: run_sentry_cap.sh path/to/ldgsm}
ldgsm=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
work=$(mktemp -d /tmp/ldgsm-sentry-cap.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
pass=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { pass=$((pass + 1)); }

header() {
  echo '@prefix gsm: <http://purl.org/gsm/vocab#> . @prefix sp: <http://spinrdf.org/sp#> . @prefix ex: <https://example.org/ns#> .'
  echo '<#root> a gsm:Stage ; gsm:hasMilestone <#done> .'
  echo '<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#big> .'
}
spin() { # N: a SPIN sentry of N patterns, a chain over 50 variables
  header
  printf '<#big> a sp:Ask ; sp:where ('
  for i in $(seq 1 "$1"); do
    printf ' [ sp:subject [ sp:varName "v%d" ] ; sp:predicate ex:p%d ; sp:object [ sp:varName "v%d" ] ]' \
      $((i % 50)) "$i" $(((i + 1) % 50))
  done
  echo ' ) .'
}
text() { # N: the same as SPARQL text, ?v0 ex:p1 ?v1 . ...
  header
  printf '<#big> a sp:Ask ; sp:text "PREFIX ex: <https://example.org/ns#> ASK {'
  for i in $(seq 1 "$1"); do printf ' ?v%d ex:p%d ?v%d .' $((i % 50)) "$i" $(((i + 1) % 50)); done
  echo ' }" .'
}

for form in spin text; do
  "$form" 1000 > "$work/$form-1000.ttl"
  "$form" 1001 > "$work/$form-1001.ttl"
  (cd "$work" && timeout 60 "$ldgsm" lint "$form-1000.ttl") > "$work/out" 2>&1
  status=$?
  [ $status = 0 ] && ok || fail "$form, 1000 patterns: exit $status, expected 0: $(head -c 600 "$work/out")"
  (cd "$work" && timeout 60 "$ldgsm" lint "$form-1001.ttl") > "$work/out" 2>&1
  status=$?
  expected="$form-1001.ttl: error: <#big>: sentry cannot be evaluated: 1001 triple patterns, more than 1000: split it into smaller sentries"
  if [ $status != 1 ]; then
    fail "$form, 1001 patterns: exit $status, expected 1: $(head -c 600 "$work/out")"
  elif ! grep -qxF -- "$expected" "$work/out"; then
    fail "$form, 1001 patterns: lint did not say '$expected': $(head -c 600 "$work/out")"
  else
    ok
  fi
done

echo "sentry cap: $pass passed, $failures failed"
[ $failures -eq 0 ]
