#!/usr/bin/env bash
# `ldgsm demo` (README command 1): both variants (the door sensor read together with the doors, and one
# poll late) exit 0, and their tables show DESIGN section 5's Fig. 2 lines 1, 2, 3, 4 and 6 in order in
# the status columns, with line 5 as an environment row; the environment's rows never change the status;
# each task is sent once per activation. A demo whose workflow cannot finish exits non-zero with a message.
set -u
. "$(dirname "$0")/../agent/lib.sh"
. "$(dirname "$0")/fire_alarm_lib.sh"
source_dir=$(cd "$(dirname "$0")/../.." && pwd)

expected="inactive inactive f f
active inactive f f
inactive active T f
inactive inactive f T
active inactive f f"

# rows TABLE: one line per table row that has status columns: "LINE|WHO|SFA CD m1 m2b", WHO env or agent,
# a stage's "(completed)" dropped (Fig. 2 shows states only); continuation lines are skipped.
rows() {
  awk -F' [|] ' 'NF >= 6 && $1 ~ /^ *[0-9]* *$/ && $3 ~ /[a-z-]/ {
    for (i = 1; i <= 6; i++) { gsub(/^ +| +$/, "", $i); sub(/ \(completed\)$/, "", $i) }
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
  check "$what: the rows labelled with Fig. 2's lines are 1 to 6, line 5 an environment row" \
    [ "$(grep -v '^|' "$work/rows")" = "1|agent|inactive inactive f f
2|agent|active inactive f f
3|agent|inactive active T f
4|agent|inactive inactive f T
5|env|inactive inactive f T
6|agent|active inactive f f" ]
  # line 5 changes only the environment: no agent row between the rows of lines 4 and 5
  check "$what: line 5 follows line 4 with no agent row between" \
    [ "$(sed -n '/^4|/,/^5|/p' "$work/rows" | grep -c '|agent|')" = 1 ]
  check "$what: environment rows never change the status columns" \
    awk -F'|' '$2 == "env" && NR > 1 && $3 != previous { bad = 1 } { previous = $3 } END { exit bad }' "$work/rows"
  # every task once per activation: the agent's log lines (-v) count the device commands it sent
  sfa_opened=$(grep -c 'SFA opens' "$work/out"); cd_opened=$(grep -c 'CD opens' "$work/out")
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
check "a missing Fig. 2 line: named" grep -q "without showing Fig. 2's line 3" "$work/err"
# A sentry that does not parse holds the artifact's writes: the workflow never rests, the demo stalls.
sed 's/dev:ringing true }"""/dev:ringing true """/' "$work/model.orig" > "$model"
LDGSM_HOME="$home" bounded "$ldgsm" demo -n 0 > "$work/out" 2> "$work/err"
status=$?
check "a stall: non-zero exit" [ $status != 0 ]
check "a stall: reported with what the scenario waits for" \
  grep -q 'stalled: .* it waits for the workflow to rest' "$work/err"
finish
