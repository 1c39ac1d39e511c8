#!/usr/bin/env bash
# `ldgsm compile --max-stages N` (default 10000): a term whose copies multiply past N stages is refused
# before the model is built, the error naming the innermost term that passes and the model's stages, and
# nothing is written. loop(count(1000), loop(count(1000), task(a))) (47 bytes) wrote gigabytes before the cap:
# every compile here runs under a 20 MB file-size limit, so a missing cap fails fast, and a timeout far above
# what the one model built here (102 stages) takes on a loaded machine in the sanitizer build (10 s was
# passed there once): a missing cap that only spins is still stopped.
set -u
. "$(dirname "$0")/../agent/lib.sh"
names=$work/names.ttl
cat > "$names" <<'NAMES'
@prefix http: <http://www.w3.org/2011/http#> .
@prefix httpm: <http://www.w3.org/2011/http-methods#> .
<#a> a http:Request ; http:mthd httpm:DELETE ; http:requestURI <../work/a> .
NAMES
compile() { # args...: ldgsm compile, its exit in $status, stderr in $work/err
  (ulimit -f 20480; exec timeout 120 "$ldgsm" compile "$@") > "$work/out" 2> "$work/err"
  status=$?
}
said() { grep -qF -- "$1" "$work/err"; }
refused() { [ $status = 1 ] && said "$1"; }                                    # MESSAGE
usage_error() { [ $status = 2 ] && said "--max-stages needs a positive number, not '$1'"; } # VALUE

echo "# copies that multiply are refused before anything is built"
compile --term 'loop(count(1000), loop(count(1000), task(a)))' -o "$work/model.ttl" "$names"
check "the 47-byte term is refused (exit 1, not cut by the limits: $status)" [ $status = 1 ]
check "naming the term, where it starts and the model's stages" \
  said "the term loop(count(1000), loop(count(1000), task(a))) at 1:1 makes the model 1001002 stages; it may have 10000 (--max-stages)"
check "and nothing is written" [ ! -e "$work/model.ttl" ]
compile --term 'seq(task(a), mi(fixed(1000), all, loop(count(1000), task(a))))' "$names"
check "the innermost term that passes is named, at its own position" \
  refused "the term mi(fixed(1000), all, loop(count(1000), task(a))) at 1:14 makes the model 1001004 stages"
compile --term 'loop(count(1000), seq(task(a), task(a), task(a), task(a), task(a), task(a), task(a), task(a), task(a)))' "$names"
check "one stage past the default (10002 > 10000) is refused" refused "makes the model 10002 stages"
deep='task(a)'
for _ in 1 2 3 4 5 6 7; do deep="loop(count(1000), $deep)"; done
compile --term "$deep" "$names"
check "a count past 64 bits is said, not wrapped" refused "makes the model more than 10^19 stages"

echo "# --max-stages moves the cap"
compile --max-stages 102 --term 'loop(count(100), task(a))' "$names"
check "102 stages under --max-stages 102 compile" [ $status = 0 ]
check "into 102 stages" [ "$(grep -c 'a gsm:Stage' "$work/out")" = 102 ]
compile --max-stages 101 --term 'loop(count(100), task(a))' "$names"
check "and under --max-stages 101 are refused" refused "makes the model 102 stages; it may have 101 (--max-stages)"
for bad in 0 -5 abc 12x; do
  compile --max-stages "$bad" --term 'task(a)' "$names"
  check "--max-stages $bad: exit 2" usage_error "$bad"
done
compile --help
check "--help shows --max-stages and its default" grep -q -- '--max-stages N .*default 10000' "$work/out"
finish
