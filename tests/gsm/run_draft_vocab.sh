#!/usr/bin/env bash
# A model in the GSM paper authors' draft vocabulary runs with `--compat authors-draft` (the fire-alarm
# scenario's status lines in order), and an instance document written in the draft vocabulary is refused
# at start with the triples to write instead.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
fixtures=$(cd "$(dirname "$0")/../../ldp-fixtures/draft-vocab" && pwd)
start_server --fixtures "$fixtures"

AGENT_OPTIONS="--compat authors-draft" play 0
check "the draft model runs: Fig. 2 lines 1, 2, 3, 4, 6 in order" subsequence "$work/lines" "inactive inactive f f
active inactive f f
inactive active T f
inactive inactive f T
active inactive f f"

put status/old '@prefix d: <http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#> .
<#it> a d:StageInstance ; d:isInstanceOf <../models/fire-alarm#root> ; d:hasState d:uninitialized .' > /dev/null
bounded "$ldgsm" run --instance "${base}status/old#it" --compat authors-draft -n 0 --iterations 3 > /dev/null 2> "$work/old.log"
status=$?
check "a draft-vocabulary instance is refused (exit 1)" [ $status = 1 ]
check "the message shows what to write" grep -q "isInstanceOf> <${base}models/fire-alarm#root>" "$work/old.log"
check "nothing was written" [ "$(grep -Ec '^(PUT|PATCH) /status/old 20' "$work/serve.log")" = 1 ]
finish
