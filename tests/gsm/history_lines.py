#!/usr/bin/env python3
"""history_lines.py MODEL-PREFIX NAME...: reads a status document in N-Triples on standard input and prints,
for each write its history records (the entries of one iteration share their ldgsm:at), the line of the
named stages' states and milestones' achievements after it ("SFA CD m1 m2b" in fire_alarm_lib.sh's form:
a stage's state, a milestone's T or f; before its first entry a stage is inactive, as set-up makes it), when
it differs from the line before. Where an agent runs by itself, a status read now and then misses
the states it passes through within milliseconds; its history has every one."""
import re
import sys

L = "https://w3id.org/ldgsm#"
GSM = "http://purl.org/gsm/vocab#"
prefix, names = sys.argv[1], sys.argv[2:]
triples = []
for line in sys.stdin:
    m = re.match(r"(\S+) <([^>]*)> (.*) \.$", line.strip())
    if m:
        triples.append(m.groups())
of = {s: o[1:-1][len(prefix):] for s, p, o in triples if p == GSM + "isInstanceOf" and o.startswith("<" + prefix)}
milestones = {of[s] for s, p, o in triples if p == GSM + "isAchieved" and s in of}
entries = {}
for s, p, o in triples:
    if "#t-" in s:
        entries.setdefault(s, {}).setdefault(p, []).append(o)
local = lambda o: o.split('"')[1] if o.startswith('"') else o.strip("<>").split("#")[-1]
by_at = {}
for e in entries.values():
    if L + "sequence" not in e:
        continue
    seq = int(local(e[L + "sequence"][0]))
    by_at.setdefault(e[L + "at"][0], []).append((seq, e))
state = {n: "" for n in names}
last = None
for at in sorted(by_at, key=lambda a: min(seq for seq, _ in by_at[a])):
    for _, e in sorted(by_at[at], key=lambda x: x[0]):
        name = of.get(e[L + "changed"][0])
        prop = e[L + "property"][0].strip("<>")
        if name not in state or not e.get(L + "to"):
            continue
        to = local(e[L + "to"][0])
        if prop == GSM + "isAchieved":
            state[name] = "T" if to == "true" else "f"
        elif prop == GSM + "hasState":
            state[name] = to
    line = " ".join(state[n] or ("f" if n in milestones else "inactive") for n in names)
    if line != last:
        print(line)
    last = line
