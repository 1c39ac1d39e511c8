#!/usr/bin/env bash
# README.md's walkthrough "A first workflow" runs as written: its shell block is taken from the README,
# pointed at a fresh `ldgsm serve` (S=...) and at this build's binary, and run; then the instance is set
# up, `ldgsm status` named its stages, the smoke the block reports rang the alarm and opened "Close Doors"
# (as the text after the block says), and `ldgsm draw` made the picture.
set -u
. "$(dirname "$0")/../agent/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
binary=$(cd "$(dirname "$ldgsm")" && pwd)/$(basename "$ldgsm")
start_server
awk '/^## A first workflow/ { inside = 1 } inside && /^```sh$/ { code = 1; next }
     code && /^```$/ { exit } code' "$root/README.md" > "$work/walkthrough.sh"
check "the README has the walkthrough" grep -q 'curl -X PUT' "$work/walkthrough.sh"
sed -i "s|^S=.*|S=${base%/}|; s|build/ldgsm|\"$binary\"|g" "$work/walkthrough.sh"
ln -s "$root/ldp-fixtures" "$work/ldp-fixtures" # the block runs from the top of a checkout
(cd "$work" && bounded bash -e "$work/walkthrough.sh") > "$work/out.txt" 2> "$work/err.txt"
check "the walkthrough runs to its end (exit 0)" [ $? = 0 ]
check "the instance is set up" grep -q 'vocab#active' <(get status/alarm1)
check "status names the workflow by its label" grep -q 'stage "Fire alarm": active' "$work/out.txt"
check "status names a stage" grep -q 'stage "Start Fire Alarm"' "$work/out.txt"
check "the smoke rang the alarm" grep -q 'devices#ringing> "true"' <(get devices/alarm)
check "status shows \"Close Doors\" open after the smoke" grep -q 'stage "Close Doors": active' "$work/out.txt"
check "draw made an SVG" grep -q '<svg' "$work/alarm1.svg"
finish
