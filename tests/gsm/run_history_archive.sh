#!/usr/bin/env bash
# `ldgsm run --archive-history` (src/agent/archive.h): the evaluation workflow run to completion moves every
# history entry from its status document to the archive the document links to; the archive holds each
# transition once, the same transitions as a run without the archive (what changed, from what to what), and
# `ldgsm status` shows them. An agent that fails between the two writes of a move (the archive's PATCH
# answered, the document's write not: as if it died there) loses no entry and writes none twice.
set -u
# The agents run at -v: the checks read their request and iteration lines (-v's, not the default log's).
. "$(dirname "$0")/evaluation_lib.sh"
. "$(dirname "$0")/one_stage_lib.sh"
ntriples() { get "$1"; }
# transitions PATH: one line per entry of the document or archive PATH, "sequence changed property from... -> to...",
# sorted; with "nosequence", the sequence left out (to compare two runs whose sequences differ)
transitions() {
  ntriples "$1" | python3 -c '
import re, sys
entries = {}
for line in sys.stdin:
    m = re.match(r"(<[^>]*#t-\d+>) <https://w3id.org/ldgsm#(\w+)> (.*) \.$", line.strip())
    if m:
        entries.setdefault(m.group(1), {}).setdefault(m.group(2), []).append(m.group(3))
rows = []
for node, e in entries.items():
    # fragment names are the instance'"'"'s own (#s-<hash>, #m-<hash>): compared by kind
    name = lambda v: re.sub(r"<#([sm])-[0-9a-f]+>", r"<#\1>", re.sub(r"<[^>]*#", "<#", v))
    row = "%s %s %s %s -> %s ats=%d" % (e.get("sequence", ["?"])[0].split("\"")[1] if "sequence" in e else "?",
        name(e.get("changed", ["?"])[0]), name(e.get("property", ["?"])[0]),
        ",".join(sorted(map(name, e.get("from", [])))), ",".join(sorted(map(name, e.get("to", [])))), len(e.get("at", [])))
    rows.append(row if sys.argv[1] != "nosequence" else row.split(" ", 1)[1])
print("\n".join(sorted(rows)))
' "${2:-sequence}"
}
# numbered PATH N: the entries of PATH are numbered 1 to N, each once, each with one time
numbered() {
  local rows; rows=$(transitions "$1")
  [ "$(cut -d' ' -f1 <<< "$rows" | sort -n | uniq | tr '\n' ' ')" = "$(seq 1 "$2" | tr '\n' ' ')" ] &&
    [ "$(wc -l <<< "$rows")" = "$2" ] && ! grep -q "ats=[02-9]" <<< "$rows"
}

put status/plain "$instance_doc" > /dev/null
put status/moved "$instance_doc" > /dev/null
bounded "$ldgsm" run -v --instance "${base}status/plain#it" -n 0 --until complete --iterations 60 > /dev/null 2> "$work/plain.log"
check "without the archive the instance completes" [ $? = 0 ]
bounded "$ldgsm" run -v --instance "${base}status/moved#it" -n 0 --until complete --iterations 60 --archive-history \
  > /dev/null 2> "$work/moved.log"
check "with --archive-history it completes" [ $? = 0 ]
recorded=$(transitions status/plain | wc -l)
check "the plain run recorded its transitions in the document ($recorded)" [ "$recorded" -gt 20 ]
check "the moved instance's document holds none" [ -z "$(transitions status/moved)" ]
check "it links to its archive" \
  grep -qF "<${base}status/moved> <https://w3id.org/ldgsm#historyArchive> <${base}status/moved.history>" <<< "$(ntriples status/moved)"
check "and says up to which sequence it moved" \
  grep -qF "<${base}status/moved> <https://w3id.org/ldgsm#archivedThrough> \"$recorded\"" <<< "$(ntriples status/moved)"
check "the archive holds the same transitions as the plain document" \
  [ "$(transitions status/moved.history nosequence)" = "$(transitions status/plain nosequence)" ]
check "numbered 1 to $recorded, each once, each with one time" numbered status/moved.history "$recorded"
plain_bytes=$(request GET "${base}status/plain" "" 'Accept: text/turtle'; printf '%s' "$http_body" | wc -c)
moved_bytes=$(request GET "${base}status/moved" "" 'Accept: text/turtle'; printf '%s' "$http_body" | wc -c)
check "what is polled shrinks: $moved_bytes bytes against $plain_bytes" [ "$moved_bytes" -lt $((plain_bytes / 2)) ]
bounded "$ldgsm" status "${base}status/moved#it" --history 100 > "$work/status.out" 2>&1
bounded "$ldgsm" status "${base}status/plain#it" --history 100 > "$work/plain-status.out" 2>&1
shown=$(sed -n 's/^last transitions (\([0-9]*\) of .*/\1/p' "$work/plain-status.out")
check "ldgsm status shows the archived transitions, as many as the plain document's (${shown:-none})" \
  grep -qF "last transitions ($shown of $shown):" "$work/status.out"

# An instance that joins a running agent (--instances-from) has its history moved too: the agent's list of
# archived documents grows with the members that join, without being made again.
joined_doc=${instance_doc//..\/models/..\/..\/models} # one container deeper
put status/joined/first "$joined_doc" > /dev/null
mkfifo "$work/steps"
"$ldgsm" run --instances-from "${base}status/joined/" -n 0 --step --archive-history < "$work/steps" \
  > /dev/null 2> "$work/joined.log" &
joined_agent=$!
exec 7> "$work/steps"
echo >&7
await grep -q "^iteration" "$work/joined.log"
put status/joined/second "$joined_doc" > /dev/null
for _ in $(seq 1 40); do echo >&7; done
exec 7>&-
wait "$joined_agent"
completed_doc() { grep -qF "<${base}$1#it> <https://w3id.org/ldgsm#isCompleted> \"true\"" <<< "$(ntriples "$1")"; }
check "the instance there from the start completed" completed_doc status/joined/first
check "the one that joined later completed" completed_doc status/joined/second
check "its document holds no history entry" [ -z "$(transitions status/joined/second)" ]
check "its archive holds every transition of the plain run" \
  [ "$(transitions status/joined/second.history nosequence)" = "$(transitions status/plain nosequence)" ]

# The move fails half way: the archive's PATCH goes through, the document's write is answered 500.
start_proxy --fail "$work/fail"
put status/died "$instance_doc" > /dev/null
bounded "$ldgsm" run -v --instance "${pbase}status/died#it" -n 0 --iterations 4 --archive-history > /dev/null 2> "$work/died1.log"
echo "PUT /status/died" > "$work/fail"
bounded "$ldgsm" run -v --instance "${pbase}status/died#it" -n 0 --iterations 1 --archive-history > /dev/null 2> "$work/died2.log"
check "the archive's PATCH went through" grep -qE "^PATCH ${pbase}status/died.history 20" "$work/died2.log"
check "the document's write did not" grep -qE "^PUT ${pbase}status/died 500" "$work/died2.log"
both=$(comm -12 <(transitions status/died) <(transitions status/died.history))
check "its entries are in both, for now" [ -n "$both" ]
: > "$work/fail"
bounded "$ldgsm" run -v --instance "${pbase}status/died#it" -n 0 --until complete --iterations 60 --archive-history \
  > /dev/null 2> "$work/died3.log"
check "the next agent completes it" [ $? = 0 ]
check "no entry is left in the document" [ -z "$(transitions status/died)" ]
check "the archive holds every transition of a run that never failed" \
  [ "$(transitions status/died.history nosequence)" = "$(transitions status/plain nosequence)" ]
check "each once, each with one time" numbered status/died.history "$recorded"

# Transitions after a pause: the document held no entry when they came, and they are numbered on from its
# ldgsm:archivedThrough, not from 1 again.
one_stage_model models/w "$started_guard" "$(sensed w)"
put env/w '<#it> <https://example.org/env#value> false .' > /dev/null
put status/w '@prefix gsm: <http://purl.org/gsm/vocab#> .
<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/w#root> ; gsm:hasState gsm:uninitialized .' > /dev/null
bounded "$ldgsm" run -v --instance "${base}status/w#it" -n 0 --iterations 6 --archive-history > /dev/null 2> "$work/w1.log"
paused=$(transitions status/w.history | wc -l)
check "while it waits, every entry is in the archive ($paused)" [ "$paused" -gt 0 ]
check "and none in the document" [ -z "$(transitions status/w)" ]
put env/w '<#it> <https://example.org/env#value> true .' > /dev/null
bounded "$ldgsm" run -v --instance "${base}status/w#it" -n 0 --until complete --iterations 20 --archive-history \
  > /dev/null 2> "$work/w2.log"
total=$(transitions status/w.history | wc -l)
check "the later transitions follow ($total in all)" [ "$total" -gt "$paused" ]
check "numbered $((paused + 1)) on: each once, each with one time" numbered status/w.history "$total"

# The archive's PATCH fails (500) for an iteration: the document keeps its entries (its write waits for the
# archive), and once the archive answers again every transition is there.
put status/held "$instance_doc" > /dev/null
bounded "$ldgsm" run -v --instance "${pbase}status/held#it" -n 0 --iterations 4 --archive-history > /dev/null 2> "$work/held1.log"
echo "PATCH /status/held.history" > "$work/fail"
bounded "$ldgsm" run -v --instance "${pbase}status/held#it" -n 0 --iterations 1 --archive-history > /dev/null 2> "$work/held2.log"
check "with its archive failing, the document's write is withheld" \
  grep -qF "PUT ${pbase}status/held withheld: its history could not be moved to ${pbase}status/held.history" "$work/held2.log"
check "and it keeps its entries" [ -n "$(transitions status/held)" ]
: > "$work/fail"
bounded "$ldgsm" run -v --instance "${pbase}status/held#it" -n 0 --until complete --iterations 60 --archive-history \
  > /dev/null 2> "$work/held3.log"
check "once the archive answers, every transition reaches it" \
  [ "$(transitions status/held.history nosequence)" = "$(transitions status/plain nosequence)" ]
finish
