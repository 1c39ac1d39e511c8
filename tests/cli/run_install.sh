#!/usr/bin/env bash
# The installed ldgsm (issue 17): `cmake --install` of the build this binary belongs to, into a scratch
# prefix, puts the binary, the rules, the ontology, the fixtures and the man page in their places; the
# installed binary reads its rules from there (a broken installed rule file is the error it reports) and
# runs `ldgsm demo` from them; the man page shows every command and every flag of every --help.
set -u
ldgsm=${1:?usage: run_install.sh path/to/ldgsm}
build=$(cd "$(dirname "$ldgsm")" && pwd)
work=$(mktemp -d /tmp/ldgsm-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
check() { # description command...
  local what=$1; shift
  if "$@" > /dev/null 2>&1; then passes=$((passes + 1)); else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
prefix=$work/prefix
timeout 120 cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1
check "cmake --install succeeds ($(tail -n 2 "$work/install.log"))" [ $? = 0 ]
for f in bin/ldgsm share/ldgsm/rules/gsm-fcr.n3 share/ldgsm/rules/gsm-events.n3 share/ldgsm/ontology/gsm.ttl \
  share/ldgsm/ldp-fixtures/fire-alarm/status/alarm1 share/man/man1/ldgsm.1; do
  check "installed: $f" [ -r "$prefix/$f" ]
done
installed=$prefix/bin/ldgsm
check "the installed binary's version is the build's" [ "$("$installed" --version)" = "$("$ldgsm" --version)" ]

# the installed rules are the ones read: a broken one is the error, named by its installed path
rules=$prefix/share/ldgsm/rules/gsm-fcr.n3
cp "$rules" "$work/gsm-fcr.n3"
echo '{ this is not N3' >> "$rules"
(cd / && env -u LDGSM_HOME timeout 60 "$installed" demo --interval 0) > "$work/broken.out" 2>&1
check "with a broken installed rule file the demo fails" [ $? != 0 ]
check "naming the installed file ($(head -c 300 "$work/broken.out"))" grep -q "share/ldgsm/rules/gsm-fcr.n3:[0-9]*:[0-9]*" "$work/broken.out"
cp "$work/gsm-fcr.n3" "$rules"
(cd / && env -u LDGSM_HOME timeout 60 "$installed" demo --interval 0) > "$work/demo.out" 2>&1
check "the installed ldgsm runs the demo from its installed rules and fixtures" [ $? = 0 ]
check "the demo's workflow completes" grep -q "the workflow is complete" "$work/demo.out"

# the man page: every command, and every flag each --help names
MANWIDTH=200 man -l "$prefix/share/man/man1/ldgsm.1" > "$work/man.txt" 2> "$work/man.err"
check "man renders the page ($(head -c 200 "$work/man.err"))" [ -s "$work/man.txt" ]
missing=
for command in $("$ldgsm" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
  grep -q "^ *ldgsm $command\$" "$work/man.txt" || missing="$missing $command"
  for flag in $("$ldgsm" "$command" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
    grep -qF -- "$flag" "$work/man.txt" || missing="$missing $command:$flag"
  done
done
check "the man page shows every command and flag (missing:${missing:- none})" [ -z "$missing" ]
echo "$(basename "$0"): $passes passed, $failures failed"
[ $failures = 0 ]
