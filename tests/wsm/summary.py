#!/usr/bin/env python3
"""summary.py: a state machine instance document (N-Triples on stdin) as lines a test can compare:

    state S                       the current state
    var V VALUE                   each variable (a predicate of the instance from the schema's namespace)
    entry N RESOURCE EVENT FROM TO OUTCOME [FAILED-CONDITIONS]   each history entry, by wsm:sequence
    action N K STATE              each action of entry N: its position and ldgsm:taskState

Names are the IRIs' last segment (after '#' or the last '/'); EVENT is '-' when the entry names none.
Usage: summary.py INSTANCE-IRI"""
import re
import sys

WSM = "https://w3id.org/ldgsm/wsm#"
LDGSM = "https://w3id.org/ldgsm#"
TRIPLE = re.compile(r'^(<[^>]*>|_:\S+) <([^>]*)> (<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@\S+)?) \.$')


def name(term):
    if term.startswith("<"):
        iri = term[1:-1]
        return re.split(r"[#/]", iri.rstrip("/"))[-1]
    if term.startswith('"'):
        return re.match(r'"((?:[^"\\]|\\.)*)"', term).group(1)
    return term


def main():
    instance = "<" + sys.argv[1] + ">"
    props = {}
    for line in sys.stdin:
        m = TRIPLE.match(line.strip())
        if m:
            props.setdefault(m.group(1), []).append((m.group(2), m.group(3)))
    one = lambda s, p: next((o for q, o in props.get(s, []) if q == p), None)
    every = lambda s, p: sorted(o for q, o in props.get(s, []) if q == p)
    out = []
    state = one(instance, WSM + "currentState")
    out.append("state " + (name(state) if state else "-"))
    schema = one(instance, WSM + "instanceOf")
    if schema:
        ns = schema[1:-1].split("#")[0] + "#"
        for p, o in sorted(props.get(instance, [])):
            if p.startswith(ns):
                out.append("var %s %s" % (name("<" + p + ">"), name(o)))
    entries = {s: int(name(one(s, WSM + "sequence"))) for s in props if one(s, WSM + "entryOf") == instance}
    for s, n in sorted(entries.items(), key=lambda e: e[1]):
        failed = " ".join(name(c) for c in every(s, WSM + "failedCondition"))
        event = one(s, WSM + "event")
        fields = [str(n), name(one(s, WSM + "eventResource")), name(event) if event else "-",
                  name(one(s, WSM + "fromState")), name(one(s, WSM + "toState")), name(one(s, WSM + "outcome"))]
        out.append(("entry " + " ".join(fields) + (" " + failed if failed else "")))
    for s in props:
        entry = one(s, WSM + "actionOf")
        if entry in entries:
            task_state = one(s, LDGSM + "taskState")
            out.append("action %d %s %s" % (entries[entry], name(one(s, WSM + "actionIndex")),
                                             name(task_state) if task_state else "-"))
    order = {"state": 0, "var": 1, "entry": 2, "action": 3}
    key = lambda l: (order[l.split()[0]],) + tuple(int(w) if w.isdigit() else 0 for w in l.split()[1:3]) + (l,)
    print("\n".join(sorted(out, key=key)))


main()
