#!/usr/bin/env python3
"""gsm_run.py: random environments for a GSM model with compiled intertask dependencies, and the verdict.

  gsm_run.py BASE ROUNDS SEED DEPS EVENT...

Round K runs the instance /status/tripK of the model /models/tripK, whose sentries read /env/tripK#it
(tests/deps/run_gsm.sh publishes them). The rounds run at once: in a random order each round's environment
asks for stages (env:wantX true), sometimes several in one write, and says stages are done (env:XDone true),
then ends the trip (env:finish true). Every odd round asks for buy before book (Example 4: buy waits for
book and follows it; the round waits for buy before it goes on) and for cancel and ship in one write once
the ticket is paid for (the two would open in one step but for the event slot, rules/gsm-events.n3);
every round 2 modulo 4 books, ships and, once ship is recorded, ends the trip: the agent must open notify
(never asked for) before the trip may end. Once every instance is complete, the verdict reads each status
document: the events it recorded (ldgsm:occurred) and their order (the history of ldgsm:lastEvent, one event
a write); each event happened at most once, and the trace (the events in order, then the complements of the
others) satisfies every dependency of DEPS (tests/deps/oracle.py), and in every odd round book and buy
both happened. EVENT names the events (stage or milestone fragments). Exit 1 with the round, its trace and
the dependency broken (or the event missing) on a violation.
"""
import os
import random
import re
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402

LDGSM = "https://w3id.org/ldgsm#"
GSM = "http://purl.org/gsm/vocab#"
STAGES = ("Book", "Buy", "Cancel", "Ship")
WAIT_SECONDS = 60


def put(url, text):
    req = urllib.request.Request(url, data=text.encode(), method="PUT", headers={"Content-Type": "text/turtle"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        answer.read()


def get_triples(url):
    req = urllib.request.Request(url, headers={"Accept": "application/n-triples"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        text = answer.read().decode()
    triples = []
    for line in text.splitlines():
        m = re.match(r'(<[^>]*>|_:\S+) <([^>]*)> (.*) \.$', line.strip())
        if m:
            triples.append((m.group(1).strip("<>"), m.group(2), m.group(3)))
    return triples


def environment(flags):
    body = " ; ".join("env:%s %s" % (name, "true" if value else "false") for name, value in sorted(flags.items()))
    return "@prefix env: <https://example.org/env#> .\n<#it> %s .\n" % body


def drive(base, rounds, rng):
    """Every round's environment, changed a few flags at a time, rounds interleaved."""
    envs = {}
    plans = {}
    for k in range(1, rounds + 1):
        flags = {"want" + s: False for s in STAGES}
        flags.update({s.lower() + "Done": False for s in STAGES})
        flags["finish"] = False
        envs[k] = flags
        put("%senv/trip%d" % (base, k), environment(flags))
        if k % 4 in (1, 3):  # buy waits for book; then a race: paid for, cancel and ship asked for in one write
            steps = [["wantBuy"], ["buyDone"], ["wantBook"], ["await buy"], ["wantCancel", "wantShip"]]
            dones = ["bookDone", "cancelDone", "shipDone"]
            for done in dones:
                steps.insert(rng.randint(3, len(steps)), [done])
        elif k % 4 == 2:  # shipped, and the trip ends at once: it must wait for the agent to open notify
            steps = [["wantBook"], ["wantBuy"], ["buyDone"], ["wantShip"], ["await ship"], ["finish"]]
        else:
            asks = [s for s in STAGES if rng.random() < 0.85]
            rng.shuffle(asks)
            steps = []
            while asks:  # one to three asks in one write
                take = rng.choice((1, 1, 2, 3))
                steps.append(["want" + s for s in asks[:take]])
                asks = asks[take:]
            for done in [s.lower() + "Done" for s in STAGES]:  # each done somewhere after the start
                steps.insert(rng.randint(1, len(steps)), [done])
        steps.append(["finish"])
        plans[k] = steps
    while any(plans.values()):
        k = rng.choice([k for k in plans if plans[k]])
        step = plans[k].pop(0)
        if step[0].startswith("await "):
            await_event(base, k, step[0].split()[1])
            continue
        for name in step:
            envs[k][name] = True
        put("%senv/trip%d" % (base, k), environment(envs[k]))
        time.sleep(rng.uniform(0, 0.15))


def await_event(base, k, name):
    """Until round k's status records the event (at most 10 s)."""
    instance = "%sstatus/trip%d#it" % (base, k)
    for _ in range(200):
        if any(s == instance and p == LDGSM + "occurred" and o.endswith("#%s>" % name)
               for s, p, o in get_triples("%sstatus/trip%d" % (base, k))):
            return
        time.sleep(0.05)


def complete(base, k):
    instance = "%sstatus/trip%d#it" % (base, k)
    return any(s == instance and p == LDGSM + "isCompleted" and o.startswith('"true"')
               for s, p, o in get_triples("%sstatus/trip%d" % (base, k)))


def verdict(base, k, deps, events):
    """The events round k's instance recorded, in order, and what is wrong with them."""
    doc = "%sstatus/trip%d" % (base, k)
    triples = get_triples(doc)
    instance = doc + "#it"
    occurred = [o.strip("<>") for s, p, o in triples if s == instance and p == LDGSM + "occurred"]
    entries = {}
    for s, p, o in triples:
        entries.setdefault(s, {}).setdefault(p, []).append(o)
    order = []
    for subject, props in entries.items():
        if props.get(LDGSM + "property") == ["<%slastEvent>" % LDGSM]:
            sequence = int(re.match(r'"(\d+)"', props[LDGSM + "sequence"][0]).group(1))
            order.append((sequence, props[LDGSM + "to"][0].strip("<>")))
    happened = [iri.rsplit("#", 1)[1] for _, iri in sorted(order)]
    problems = []
    if len(set(happened)) != len(happened):
        problems.append("an event happened twice: %s" % happened)
    if sorted(iri.rsplit("#", 1)[1] for iri in occurred) != sorted(happened):
        problems.append("recorded events %s differ from the history's %s" % (sorted(occurred), happened))
    trace = tuple((e, True) for e in happened) + tuple((e, False) for e in events if e not in happened)
    for name, dep in deps:
        if not oracle.satisfies(trace, dep):
            problems.append("dependency %s broken by %s" % (name, oracle.trace_str(trace)))
    if k % 2 and not {"book", "buy"} <= set(happened):
        problems.append("buy, asked for before book, should wait for book and follow it: %s" % happened)
    return happened, problems


def main():
    base, rounds, seed, deps_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    events = sys.argv[5:]
    deps = []
    for line in open(deps_path):
        line = line.split("#", 1)[0].strip()
        if ":" in line:
            name, text = line.split(":", 1)
            deps.append((name.strip(), oracle.parse(text)))
    rng = random.Random(seed)
    drive(base, rounds, rng)
    deadline = time.time() + WAIT_SECONDS
    pending = set(range(1, rounds + 1))
    while pending and time.time() < deadline:
        pending = {k for k in pending if not complete(base, k)}
        time.sleep(0.1)
    failed = 0
    for k in sorted(pending):
        print("FAIL: round %d: the instance did not complete within %d s" % (k, WAIT_SECONDS))
        failed += 1
    seen = {}
    for k in range(1, rounds + 1):
        if k in pending:
            continue
        happened, problems = verdict(base, k, deps, events)
        print("round %d: %s" % (k, " ".join(happened) or "(no event)"))
        for e in happened:
            seen[e] = seen.get(e, 0) + 1
        for problem in problems:
            print("FAIL: round %d (seed %d): %s" % (k, seed, problem))
            failed += 1
    print("events seen over %d rounds: %s" % (rounds, ", ".join("%s %d" % kv for kv in sorted(seen.items()))))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
