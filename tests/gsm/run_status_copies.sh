#!/usr/bin/env bash
# `ldgsm status` on a multiple-instance stage (issue 37 item 4): the copies of mi(dynamic(lines, 1, 12), ...)
# over a list of eleven items are listed in copy order (1, 2, ..., 11: not by IRI, where 10 sorts before
# 2), only the eleven spawned (pat:spawned on the mi's stage instance), with a line saying how many of the 12 spawned
# (in JSON: copies, copiesSpawned); and the history leaves out the flags set-up gives their first value
# ("(none) -> not completed"), keeping the other first values ("(none) -> calling"). The copies' task calls
# a closed port, so each call is exhausted at once.
set -u
. "$(dirname "$0")/../agent/lib.sh"
names="$(dirname "$0")/../patterns/names.ttl"
start_server
sed 's/SVC_PORT/1/' "$names" > "$work/names.ttl"
bounded "$ldgsm" compile --term 'mi(dynamic(lines, 1, 12), all, task(a))' --base "${base}models/mi" -o "$work/mi.ttl" \
  "$work/names.ttl" 2> "$work/compile.err"
check "the mi term compiles: $(cat "$work/compile.err")" [ $? = 0 ]
put models/mi "$(cat "$work/mi.ttl")" > /dev/null
put env/lines '<#it> <https://example.org/env#items> ("a" "b" "c" "d" "e" "f" "g" "h" "i" "j" "k") .' > /dev/null
put status/mi '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/mi#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" run --instance "${base}status/mi#it" -n 0 --until quiescent --iterations 20 > /dev/null 2> "$work/run.log"
instance="${base}status/mi#it"
bounded "$ldgsm" status "$instance" --history 100 > "$work/status.txt" 2> "$work/status.err"
check "ldgsm status shows the instance (exit 0: $(cat "$work/status.err"))" [ $? = 0 ]
order=$(sed -n 's/^ *stage "task(a) (copy \([0-9]*\) of 12)".*/\1/p' "$work/status.txt" | tr '\n' ' ')
check "the copies spawned, in copy order: $order" [ "$order" = "1 2 3 4 5 6 7 8 9 10 11 " ]
check "... and a line saying how many of the copies spawned" grep -q '^    11 of its 12 copies spawned$' "$work/status.txt"
check "no transition line from no value to a flag's first value" ! grep -q '(none) -> not \(completed\|achieved\)' "$work/status.txt"
check "... the root's becoming active is kept" grep -q 'workflow mi(dynamic(lines, 1, 12), all, task(a)): uninitialized -> active' "$work/status.txt"
check "... and the calls' first states" [ "$(grep -c 'callState: (none) -> calling' "$work/status.txt")" = 11 ]
check "... and a flag's change" grep -q 'task(a) (copy 3 of 12): not completed -> completed' "$work/status.txt"
bounded "$ldgsm" status "$instance" --json > "$work/status.json" 2> /dev/null
mi=$(python3 -c 'import json, sys
stage = json.load(open(sys.argv[1]))["root"]["children"][0]
print(stage["copies"], stage["copiesSpawned"], " ".join(c["name"][14:-7] for c in stage["children"]))' "$work/status.json")
check "JSON: 12 copies, 11 spawned, those listed in order ($mi)" [ "$mi" = "12 11 1 2 3 4 5 6 7 8 9 10 11" ]
finish
