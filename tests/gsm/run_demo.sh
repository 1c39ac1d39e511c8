#!/usr/bin/env bash
# `ldgsm demo` (README command 1): both variants (the door sensor read together with the doors, and one
# poll late) exit 0, and their tables show DESIGN section 5's Fig. 2 lines 1, 2, 3, 4 and 6 in order in
# the status columns, with line 5 as an environment row; the environment's rows never change the status;
# each task is sent once per activation. The output fits 100 columns, names the stages and milestones
# as the model does (no abbreviation, no figure's line numbers), and labels the agent's rows with their
# iterations. A demo whose workflow cannot finish exits non-zero with a message.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
source_dir=$(cd "$(dirname "$0")/../.." && pwd)

expected="inactive inactive f f
active inactive f f
inactive active T f
inactive inactive f T
active inactive f f"

# rows TABLE: one line per table row that has status columns: "ITER|WHO|SFA CD m1 m2b", WHO env or agent,
# a completed stage as inactive (Fig. 2 shows states only), a milestone achieved as T, else f;
# continuation lines are skipped.
rows() {
  awk -F' [|] ' 'NF >= 6 && $1 ~ /^ *[0-9]* *$/ && $3 ~ /[a-z-]/ {
    for (i = 1; i <= 6; i++) { gsub(/^ +| +$/, "", $i); sub(/^completed$/, "inactive", $i) }
    for (i = 5; i <= 6; i++) $i = $i == "yes" ? "T" : "f"
    who = ($2 ~ /^env: /) ? "env" : "agent"
    print $1 "|" who "|" $3 " " $4 " " $5 " " $6
  }' "$1"
}

check "--help describes the command" grep -q -- '--late-sensor' <(bounded "$ldgsm" demo --help)
bounded "$ldgsm" demo --no-such-option > /dev/null 2>&1
check "an unknown option is a usage error (exit 2)" [ $? = 2 ]

for variant in together late; do
  args=(-n 0 -v)
  [ $variant = late ] && args+=(--late-sensor)
  bounded "$ldgsm" demo "${args[@]}" > "$work/out" 2> "$work/err"
  status=$?
  what="door sensor $([ $variant = late ] && echo 'one poll late' || echo 'read together')"
  check "$what: exit 0" [ $status = 0 ]
  check "$what: the scenario ended with the workflow complete" grep -q 'the workflow is complete\.$' "$work/out"
  rows "$work/out" > "$work/rows"
  cut -d'|' -f3 "$work/rows" | uniq > "$work/lines"
  check "$what: the status columns show Fig. 2 lines 1, 2, 3, 4, 6 in order" subsequence "$work/lines" "$expected"
  # line 5 changes only the environment: the first agent row in line 4's state is followed by an
  # environment row in the same state
  check "$what: line 5, an environment row, follows line 4 with no agent row between" \
    [ "$(grep -A1 -m1 '^[0-9]*|agent|inactive inactive f T$' "$work/rows" | tail -n 1)" = "|env|inactive inactive f T" ]
  check "$what: every agent row labelled with its iteration, in order; no environment row labelled" \
    awk -F'|' '$2 == "agent" && ($1 !~ /^[0-9]+$/ || $1 + 0 <= last) { bad = 1 } $2 == "agent" { last = $1 + 0 }
      $2 == "env" && $1 != "" { bad = 1 } END { exit bad }' "$work/rows"
  check "$what: the output fits 100 columns" [ "$(awk 'length > 100' "$work/out" | wc -l)" = 0 ]
  check "$what: the columns named as the model names the stages and milestones" \
    grep -qE '^iter [|] what happened +[|] Start Fire Alarm [|] Close Doors [|] alarm on [|] all doors closed$' \
      "$work/out"
  check "$what: no figure's line, no abbreviation" ! grep -qE 'Fig\.|\<(line|SFA|CD|m1|m2b)\>' "$work/out"
  check "$what: environment rows never change the status columns" \
    awk -F'|' '$2 == "env" && NR > 1 && $3 != previous { bad = 1 } { previous = $3 } END { exit bad }' "$work/rows"
  # every task once per activation: the agent's log lines (-v) count the device commands it sent
  sfa_opened=$(grep -c 'Start Fire Alarm opens' "$work/out"); cd_opened=$(grep -c 'Close Doors opens' "$work/out")
  check "$what: SFA and CD each opened twice (lines 2 and 6, and the second round)" [ "$sfa_opened $cd_opened" = "2 2" ]
  check "$what: the alarm was told to ring once per SFA activation" \
    [ "$(grep -c 'PUT .*/devices/alarm 20' "$work/err")" = "$sfa_opened" ]
  check "$what: the doors were closed once per CD activation" \
    [ "$(grep -c 'PUT .*/devices/doors 20' "$work/err")" = "$cd_opened" ]
  if [ $variant = late ]; then
    check "$what: the sensor is seen lagging" grep -q 'the door sensor lags' "$work/out"
  else
    check "$what: the sensor never lags" ! grep -q 'the door sensor lags' "$work/out"
  fi
  check "$what: the server's access log stays out of the output" ! grep -qE '^(GET|PUT) /' "$work/out" "$work/err"
  if [ $failures -gt 0 ]; then echo "--- output:"; cat "$work/out"; echo "--- errors:"; head -n 40 "$work/err"; fi
done

# Without -v, no agent log line comes with the table.
bounded "$ldgsm" demo -n 0 > "$work/out" 2> "$work/err"
status=$?
check "without --verbose: exit 0" [ $status = 0 ]
check "without --verbose: nothing on standard error" [ ! -s "$work/err" ]

# A workflow that cannot go on: the demo stops at its iteration cap, or at the end of the scenario when
# a Fig. 2 line is missing, with a message and a non-zero status.
home="$work/home"
mkdir -p "$home/ldp-fixtures"
cp -r "$source_dir/rules" "$source_dir/ontology" "$home/"
cp -r "$source_dir/ldp-fixtures/fire-alarm" "$home/ldp-fixtures/"
model="$home/ldp-fixtures/fire-alarm/models/fire-alarm"
cp "$model" "$work/model.orig"
# SFA without its task: the alarm never rings, m1 is never achieved, line 3 never comes.
grep -v 'gsm:hasHttpRequest <#ring-the-alarm>' "$work/model.orig" |
  sed 's/gsm:hasMilestone <#m1> ;/gsm:hasMilestone <#m1> ./' > "$model"
LDGSM_HOME="$home" bounded "$ldgsm" demo -n 0 > "$work/out" 2> "$work/err"
status=$?
check "a missing Fig. 2 line: non-zero exit" [ $status != 0 ]
check "a missing Fig. 2 line: named by its state" grep -q "before showing the state of its step 3 of 6 (Start Fire \
Alarm inactive, Close Doors active, alarm on achieved, all doors closed not achieved)" "$work/err"
# A sentry that does not parse holds the artifact's writes: the workflow never rests, the demo stalls.
sed 's/dev:ringing true }"""/dev:ringing true """/' "$work/model.orig" > "$model"
LDGSM_HOME="$home" bounded "$ldgsm" demo -n 0 > "$work/out" 2> "$work/err"
status=$?
check "a stall: non-zero exit" [ $status != 0 ]
check "a stall: reported with what the scenario waits for" \
  grep -q 'stalled: .* it waits for the workflow to rest' "$work/err"
finish
