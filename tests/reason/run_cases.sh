#!/usr/bin/env bash
# Runs `ldgsm reason --pass-only-new` on each case under cases/ and compares the derived triples with the
# case's expected.nt (written by hand). Blank node labels are compared as _:B. Then checks the error paths:
# exit codes and file:line:col messages. $1 is the ldgsm binary.
set -u
ldgsm=${1:?usage: run_cases.sh path/to/ldgsm}
here=$(cd "$(dirname "$0")" && pwd)
failures=0
pass=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { pass=$((pass + 1)); }
normalize() { sed -E 's/_:[A-Za-z0-9_.-]+/_:B/g' | LC_ALL=C sort; }

for case_dir in "$here"/cases/*/; do
  name=$(basename "$case_dir")
  inputs=()
  [ -f "$case_dir/program.path" ] && inputs+=("$case_dir/$(cat "$case_dir/program.path")")
  [ -f "$case_dir/program.n3" ] && inputs+=("$case_dir/program.n3")
  [ -f "$case_dir/data.ttl" ] && inputs+=("$case_dir/data.ttl")
  actual=$("$ldgsm" reason --pass-only-new "${inputs[@]}" 2>/tmp/ldgsm-case-$$.err)
  status=$?
  if [ $status -ne 0 ]; then
    fail "$name: exit $status: $(cat /tmp/ldgsm-case-$$.err)"
    continue
  fi
  if diff <(normalize < "$case_dir/expected.nt") <(printf '%s\n' "$actual" | sed '/^$/d' | normalize) > /tmp/ldgsm-case-$$.diff; then
    ok
  else
    fail "$name: derived triples differ (< expected, > actual)"; cat /tmp/ldgsm-case-$$.diff
  fi
done

# --pass prints the input too: the closure of rdfs-basic holds its 8 input and 10 derived triples.
count=$("$ldgsm" reason --pass "$here/cases/rdfs-basic/program.n3" "$here/cases/rdfs-basic/data.ttl" | grep -c ' \.$')
[ "$count" = 18 ] && ok || fail "--pass printed $count triples, expected 18"

# Turtle output parses back to the same triples (checked by reading it again as input).
"$ldgsm" reason --pass-only-new -o turtle "$here/cases/rdfs-basic/program.n3" "$here/cases/rdfs-basic/data.ttl" > /tmp/ldgsm-case-$$.ttl
again=$("$ldgsm" reason --pass /tmp/ldgsm-case-$$.ttl | normalize)
[ "$again" = "$(normalize < "$here/cases/rdfs-basic/expected.nt")" ] && ok || fail "turtle output does not round-trip"

expect_error() { # expected-exit pattern args...
  local want=$1 pattern=$2; shift 2
  "$ldgsm" "$@" > /dev/null 2> /tmp/ldgsm-case-$$.err
  local status=$?
  if [ $status -ne "$want" ]; then fail "ldgsm $* exited $status, expected $want"; return; fi
  if ! grep -qE -- "$pattern" /tmp/ldgsm-case-$$.err; then
    fail "ldgsm $*: stderr lacks /$pattern/: $(cat /tmp/ldgsm-case-$$.err)"; return
  fi
  ok
}
expect_error 1 'chase\.n3:3:[0-9]+.*fresh blank nodes' reason --max-fresh 100 "$here/errors/chase.n3"
expect_error 1 'syntax\.n3:3:1: ' reason "$here/errors/syntax.n3"
expect_error 1 'bad\.ttl:2' reason "$here/errors/bad.ttl"
expect_error 1 'no-such-file\.ttl: No such file' reason "$here/errors/no-such-file.ttl"
expect_error 0 'unbound-builtin\.n3:4:1.*never bound' reason "$here/errors/unbound-builtin.n3"
expect_error 1 'unstratifiable\.n3:4:1: its negation .* not stratifiable' reason "$here/errors/unstratifiable.n3"
# through another rule: refused when the answer contradicts the negation, with the binding it fired with
expect_error 1 'unstratifiable-cycle\.n3:4:1: its negation \(log:notIncludes\) held when the rule fired, and no longer holds.* not stratifiable' reason "$here/errors/unstratifiable-cycle.n3"
expect_error 1 'collect-cycle\.n3:6:1: its log:collectAllIn gave one list when the rule fired, and gives another.* not stratifiable' reason "$here/errors/collect-cycle.n3"
expect_error 0 'backward-never\.n3:4:1 \(on demand, bb\) can never fire: builtin <http://www.w3.org/2000/10/swap/math#sum> cannot be evaluated' reason "$here/errors/backward-never.n3"
expect_error 0 'negation-scope\.n3:4:1 can never fire: log:notIncludes needs as its subject a formula, or a variable' reason "$here/errors/negation-scope.n3"
expect_error 0 'negation-scope\.n3:5:1 can never fire: head variable \?y .*only inside a log:notIncludes' reason "$here/errors/negation-scope.n3"
expect_error 3 'inference fuse: rule .*fuse\.n3:5:1 fired with \?x = <http://ex/b>, \?a = "30"' reason "$here/errors/fuse.n3"
# --query prints the query's answers over the closure, nothing else
answers=$("$ldgsm" reason --query "$here/errors/query.n3" "$here/cases/rules-derived-by-rules/program.n3" | LC_ALL=C sort | tr '\n' ' ')
[ "$answers" = "<http://ex/answer> <http://ex/is> <http://ex/bob> . <http://ex/answer> <http://ex/is> <http://ex/carol> . " ] &&
  ok || fail "--query printed: $answers"
# --pass-merged prints the input as read, rules included; its output reads back as the same program
merged=$("$ldgsm" reason --pass-merged "$here/printing/rules.n3")
printf '%s\n' "$merged" > /tmp/ldgsm-case-$$.n3
again=$("$ldgsm" reason --pass-merged /tmp/ldgsm-case-$$.n3)
same_program() { sed -E 's/\?[A-Za-z0-9_]+/?V/g' | LC_ALL=C sort; } # variables may be renamed
[ "$(same_program <<<"$merged")" = "$(same_program <<<"$again")" ] && ok ||
  fail "--pass-merged output does not read back as itself: $again"
grep -q '^{ ?x <http://ex/g> <http://ex/h> . } <http://www.w3.org/2000/10/swap/log#isImpliedBy> { ?x <http://ex/b> <http://ex/c> . } .$' <<<"$merged" &&
  grep -q '<http://ex/says> { { <http://ex/p> <http://ex/q> <http://ex/r> . } <http://www.w3.org/2000/10/swap/log#isImpliedBy>' <<<"$merged" &&
  grep -q '{ ( "1"^^<http://www.w3.org/2001/XMLSchema#integer> "2"^^<http://www.w3.org/2001/XMLSchema#integer> ) <http://www.w3.org/2000/10/swap/math#sum> ?n . }' <<<"$merged" &&
  grep -q '^<http://ex/e> <http://ex/f> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .$' <<<"$merged" &&
  [ "$(grep -c . <<<"$merged")" = 7 ] && ok || fail "--pass-merged printed: $merged"
# --pass-all: the closure and the rules
all=$("$ldgsm" reason --pass-all "$here/printing/rules.n3")
grep -q '^<http://ex/a> <http://ex/knows> <http://ex/c> .$' <<<"$all" && [ "$(grep -c '^{' <<<"$all")" = 4 ] &&
  [ "$(grep -c . <<<"$all")" = 10 ] && ok || fail "--pass-all printed: $all"
strings=$("$ldgsm" reason --strings "$here/printing/strings.n3")
[ "$strings" = "$(printf 'first\nhello world')" ] && ok || fail "--strings printed: $strings"
# a full disk is an error, not a silent loss
if [ -w /dev/full ]; then
  "$ldgsm" reason "$here/cases/rdfs-basic/program.n3" "$here/cases/rdfs-basic/data.ttl" > /dev/full 2> /tmp/ldgsm-case-$$.err
  status=$?
  [ $status = 1 ] && grep -q 'writing the output: No space left' /tmp/ldgsm-case-$$.err && ok ||
    fail "writing to /dev/full: exit $status, $(cat /tmp/ldgsm-case-$$.err)"
fi
expect_error 2 'no input files' reason
expect_error 2 'unknown output format' reason -o json "$here/errors/chase.n3"
expect_error 2 'unknown command' frobnicate
# the version is the project's (CMakeLists.txt), one line
version=$(sed -n 's/^project(ldgsm VERSION \([0-9.]*\) .*/\1/p' "$here/../../CMakeLists.txt")
if [ -n "$version" ] && [ "$("$ldgsm" --version)" = "ldgsm $version" ]; then pass=$((pass + 1)); else
  echo "FAIL: ldgsm --version prints '$("$ldgsm" --version)', not 'ldgsm $version'"; failures=$((failures + 1)); fi

rm -f /tmp/ldgsm-case-$$.*
echo "reason cases: $pass passed, $failures failed"
[ $failures -eq 0 ]
