#!/usr/bin/env python3
"""exactly_once.py: the helper of tests/wsm/run_exactly_once.sh, on the publishing workflow of
ldp-fixtures/state-machine (documents doc1 and doc2, inboxes inbox/doc1/ and inbox/doc2/, notices POSTed to
/notify/ when a document is published from review). An events file records what was POSTed, one event
per line: DOC SLUG EVENT ACTOR.

  post BASE EVENTS N SEED      POST N more events to each inbox (zero-padded Slugs after the last ones
                               in EVENTS), appended to EVENTS. Most events (85%) are ones the document's
                               expected state takes (by an actor who may or may not have the role), the
                               rest any event by anyone: a mix that fires, is rejected and publishes.
  pending BASE                 exit 0 (saying what) while work is left: an inbox member, a published
                               transition whose actions are not both answered (and none failed);
                               exit 1 when none is
  writer BASE DIR SEED         the second writer, until DIR/stop exists: GETs an instance document and
                               PUTs it back with If-Match of what it read, either equal or with an
                               unrelated triple changed (<doc#touched>); now and then re-lists an event
                               the document's history shows consumed (a PUT with If-None-Match: *, as
                               an agent killed between its write and its DELETE leaves it). Writes
                               DIR/ready after its first PUT of a document, DIR/report (counts by
                               kind and status) and DIR/touched-DOC (the last touch written)
  verify BASE SERVE_LOG EVENTS KILLED [TOUCHED_DIR]
                               every posted event has exactly one history entry, as tests/wsm/interp.py
                               takes it (sequence, event, states before and after, outcome, fired
                               transition, failed conditions); sequences 1..N, each entry's fromState the
                               previous toState, the last toState the current state, the variable as the
                               interpreter has it, the inboxes empty; every published transition's two
                               actions answered, each POSTed to /notify/ under its call record's
                               Idempotency-Key and executed exactly once (action 1 before action 2), or,
                               for the first KILLED events of an inbox (those the killed agents took),
                               failed with its call exhausted by the kills and executed at most once;
                               replays only of keys already executed; /notify/ holds a notice per key
                               executed (one to the editors, one to the readers); the second writer's
                               last touch survives. Prints a line per instance; VIOLATION lines and
                               exit 1 when something does not hold.
"""
import collections
import http.client
import os
import random
import re
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
import interp  # noqa: E402

WSM = "https://w3id.org/ldgsm/wsm#"
LDGSM = "https://w3id.org/ldgsm#"
TOUCH = "https://example.org/chaos#touch"
DOCS = ("doc1", "doc2")
ACTORS = ("alice", "bob", "carol", "dave")  # editors: alice, carol; reviewers: bob, carol; dave: neither
TRIPLE = re.compile(r'^(<[^>]*>) <([^>]*)> (<[^>]*>|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@\S+)?) \.$')
NOTIFY_LOG = re.compile(r'^POST /notify/ (\d+) .*?( idempotency-key="([^"]*)" (\S+))?$')

# ldp-fixtures/state-machine/schemas/publishing, for the reference interpreter: the role conditions read
# the event's actor (carried as the interpreter's event flag), not-live the variable.
Role = collections.namedtuple("Role", "members")
SCHEMA = interp.Schema("authoring", [
    interp.Transition("t-edit", "edit", "authoring", "authoring", ("by-editor",), ()),
    interp.Transition("t-submit", "submit", "authoring", "review", ("by-editor",), ()),
    interp.Transition("t-reject", "reject", "review", "authoring", ("by-reviewer",), ()),
    interp.Transition("t-publish-review", "publish", "review", "live", ("by-reviewer",), (("is_live", True),)),
    interp.Transition("t-publish-authoring", "publish", "authoring", "live", ("by-reviewer",), (("is_live", True),)),
    interp.Transition("t-deactivate", "deactivate", "live", "authoring", ("by-reviewer",), (("is_live", False),)),
    interp.Transition("t-delete", "delete", "authoring", "trash", ("by-editor", "not-live"), ()),
    interp.Transition("t-restore", "restore", "trash", "authoring", ("by-editor",), ()),
], variables={"is_live": False}, conditions={
    "by-editor": Role({"alice", "carol"}), "by-reviewer": Role({"bob", "carol"}), "not-live": interp.VarIs("is_live", False)})
# The events a state takes, weighted towards review and publishing from it (the transition with actions).
EVENTS_FROM = {"authoring": ("edit", "submit", "submit", "submit", "publish", "delete"),
               "review": ("publish", "publish", "reject"), "live": ("deactivate",), "trash": ("restore",)}
ALL_EVENTS = ("edit", "submit", "reject", "publish", "deactivate", "delete", "restore")
PUBLISH_WITH_ACTIONS = "t-publish-review"
ACTIONS = 2
MAX_SHOWN = 25  # violations printed: one double take puts every later entry out of step

reference_complied = interp.complied


def complied(schema, condition, instance, event):
    c = schema.conditions[condition]
    if isinstance(c, Role):
        return event.flag in c.members
    return reference_complied(schema, condition, instance, event)


interp.complied = complied


# --- HTTP ------------------------------------------------------------------------------------------------

def request(base, method, path, body=None, headers=None):
    """(status, headers dict lower-cased, body text); a connection per request, bounded."""
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=int(os.environ.get("LDGSM_TEST_WAIT", "30")))
    try:
        conn.request(method, path, body=body.encode() if isinstance(body, str) else body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read().decode("utf-8", "replace")
    finally:
        conn.close()


def triples(base, path):
    """The N-Triples of path as (s, p, o) tuples and its ETag; ([], None) when it is not there."""
    status, headers, body = request(base, "GET", path, headers={"Accept": "application/n-triples"})
    if status != 200:
        return [], None
    out = []
    for line in body.splitlines():
        m = TRIPLE.match(line.strip())
        if m:
            out.append(m.groups())
    return out, headers.get("etag")


def members(base, doc):
    got, _ = triples(base, "/inbox/%s/" % doc)
    return sorted(o[1:-1] for s, p, o in got if p == "http://www.w3.org/ns/ldp#contains")


def last(iri):
    return re.split(r"[#/]", iri.strip("<>").rstrip("/"))[-1]


class Doc:
    """An instance document read from the server: its triples by subject."""

    def __init__(self, base, doc):
        self.doc = doc
        self.iri = "%sdocuments/%s" % (base, doc)
        got, _ = triples(base, "/documents/" + doc)
        self.by_subject = collections.defaultdict(list)
        for s, p, o in got:
            self.by_subject[s[1:-1]].append((p, o))

    def values(self, s, p):
        return [o for q, o in self.by_subject.get(s, []) if q == p]

    def entries(self):
        it = "<%s#it>" % self.iri
        return [s for s, po in self.by_subject.items() if ("%sentryOf" % WSM, it) in po]

    def actions_of(self, entry):
        return [s for s, po in self.by_subject.items() if ("%sactionOf" % WSM, "<%s>" % entry) in po]


# --- the events ----------------------------------------------------------------------------------------

def read_events(path):
    events = collections.defaultdict(list)  # doc -> [(slug, event, actor)]
    if os.path.exists(path):
        for line in open(path):
            doc, slug, event, actor = line.split()
            events[doc].append((slug, event, actor))
    return events


def reference(base, doc, posted):
    """The interpreter's run of the events posted to doc's inbox."""
    members_ = [interp.Member("%sinbox/%s/%s" % (base, doc, slug), True, [event], actor) for slug, event, actor in posted]
    return interp.Machine(SCHEMA).run(members_)


def cmd_post(base, events_path, n, seed):
    events = read_events(events_path)
    rng = random.Random(seed)
    with open(events_path, "a") as out:
        for doc in DOCS:
            machine = reference(base, doc, events[doc])
            first = len(events[doc]) + 1
            for i in range(first, first + n):
                if rng.random() < 0.85:
                    event = rng.choice(EVENTS_FROM[machine.instance.state])
                else:
                    event = rng.choice(ALL_EVENTS)
                actor = rng.choice(ACTORS)
                slug = "%04d" % i
                body = ("@prefix wsm: <%s> . <> wsm:event <../../schemas/publishing#%s> ; "
                        "wsm:actor <../../roles#%s> ." % (WSM, event, actor))
                status, _, text = request(base, "POST", "/inbox/%s/" % doc, body,
                                          {"Content-Type": "text/turtle", "Slug": slug})
                if status != 201:
                    sys.exit("POST of %s/%s: %d %s" % (doc, slug, status, text))
                out.write("%s %s %s %s\n" % (doc, slug, event, actor))
                machine.take(interp.Member("%sinbox/%s/%s" % (base, doc, slug), True, [event], actor))
    return 0


# --- work left ---------------------------------------------------------------------------------------------

def work_left(base):
    left = []
    for doc in DOCS:
        listed = members(base, doc)
        if listed:
            left.append("%s: %d events listed" % (doc, len(listed)))
        d = Doc(base, doc)
        for e in d.entries():
            if d.values(e, WSM + "firedTransition") != ["<%s>" % (base + "schemas/publishing#" + PUBLISH_WITH_ACTIONS)]:
                continue
            states = [d.values(x, LDGSM + "taskState") for x in d.actions_of(e)]
            answered = states.count(["<%ssent>" % LDGSM])
            if ["<%sfailed>" % LDGSM] in states:
                continue  # its call is exhausted: nothing more happens (verify says so)
            if answered < ACTIONS:
                left.append("%s: %s has %d of its actions answered" % (doc, last(e), answered))
    return left


def cmd_pending(base):
    left = work_left(base)
    print("; ".join(left) if left else "nothing left")
    return 0 if left else 1


# --- the second writer -------------------------------------------------------------------------------------

def cmd_writer(base, directory, seed):
    rng = random.Random(seed)
    report = collections.Counter()
    touches = 0
    while not os.path.exists(os.path.join(directory, "stop")):
        doc = rng.choice(DOCS)
        status, headers, body = request(base, "GET", "/documents/" + doc, headers={"Accept": "application/n-triples"})
        etag = headers.get("etag")
        if status != 200 or not etag:
            report["read-%d" % status] += 1
            continue
        roll = rng.random()
        if roll < 0.15:
            # re-list a consumed event: its entry names it; created only where nothing is (If-None-Match: *)
            consumed = re.findall(r"<%seventResource> <%sinbox/%s/([^>]*)>" % (re.escape(WSM), re.escape(base), doc), body)
            if consumed:
                slug = rng.choice(consumed)
                status, _, _ = request(base, "PUT", "/inbox/%s/%s" % (doc, slug),
                                       "@prefix wsm: <%s> . <> wsm:event <../../schemas/publishing#edit> ; "
                                       "wsm:actor <../../roles#alice> ." % WSM,
                                       {"Content-Type": "text/turtle", "If-None-Match": "*"})
                report["relist-%d" % status] += 1
        else:
            kind = "equal" if roll < 0.55 else "touch"
            if kind == "touch":
                touches += 1
                subject = "<%sdocuments/%s#touched>" % (base, doc)
                lines = [l for l in body.splitlines() if not l.startswith(subject + " ")]
                body = "\n".join(lines + ['%s <%s> "%d" .' % (subject, TOUCH, touches)]) + "\n"
            status, _, _ = request(base, "PUT", "/documents/" + doc, body,
                                   {"Content-Type": "application/n-triples", "If-Match": etag})
            report["%s-%d" % (kind, status)] += 1
            if not os.path.exists(os.path.join(directory, "ready")):
                open(os.path.join(directory, "ready"), "w").close()
            if kind == "touch" and 200 <= status < 300:
                with open(os.path.join(directory, "touched-" + doc), "w") as f:
                    f.write("%d\n" % touches)
        time.sleep(rng.uniform(0, 0.006))
    with open(os.path.join(directory, "report"), "w") as f:
        f.write(" ".join("%s:%d" % kv for kv in sorted(report.items())) + "\n")
    return 0


# --- the verdict ------------------------------------------------------------------------------------------

def cmd_verify(base, serve_log, events_path, killed, touched_dir=None):
    events = read_events(events_path)
    violations = []
    bad = violations.append
    keys_recorded = {}  # Idempotency-Key -> (doc, entry, action index)
    failed_actions = set()  # (doc, entry, action index) whose call is exhausted
    publications = 0
    schema_ns = base + "schemas/publishing#"
    for doc in DOCS:
        posted = events[doc]
        d = Doc(base, doc)
        it = d.iri + "#it"
        machine = reference(base, doc, posted)
        one = lambda s, p: d.values(s, p)[0] if len(d.values(s, p)) == 1 else None
        entries = d.entries()
        # one value per property of an entry: an event taken twice writes the same <doc#e-H> twice
        for e in entries:
            for p in ("sequence", "eventResource", "fromState", "toState", "outcome", "event"):
                if len(d.values(e, WSM + p)) > 1:
                    bad("%s %s: %d values of wsm:%s %s" % (doc, last(e), len(d.values(e, WSM + p)), p, d.values(e, WSM + p)))
        by_resource = collections.Counter(one(e, WSM + "eventResource") for e in entries)
        for slug, _, _ in posted:
            n = by_resource.pop("<%sinbox/%s/%s>" % (base, doc, slug), 0)
            if n != 1:
                bad("%s: event %s has %d history entries" % (doc, slug, n))
        for resource, n in by_resource.items():
            bad("%s: %d history entries for %s, which was not posted" % (doc, n, resource))
        seq_of = lambda e: int(one(e, WSM + "sequence").split('"')[1]) if one(e, WSM + "sequence") else 0
        seqs = sorted(seq_of(e) for e in entries)
        if seqs != list(range(1, len(posted) + 1)):
            gaps = sorted(set(range(1, len(posted) + 1)) ^ set(seqs))
            bad("%s: sequences are not 1..%d (%d entries; missing or extra: %s)" % (doc, len(posted), len(seqs), gaps[:10]))
        taken = d.values(it, WSM + "taken")
        if taken != ['"%d"^^<http://www.w3.org/2001/XMLSchema#integer>' % len(posted)]:
            bad("%s: wsm:taken is %s, %d events were posted" % (doc, taken, len(posted)))
        ordered = sorted(entries, key=seq_of)
        state = d.values(it, WSM + "currentState")
        previous = "authoring"
        for e in ordered:
            got_from, got_to = one(e, WSM + "fromState"), one(e, WSM + "toState")
            if got_from is None or last(got_from) != previous:
                bad("%s: entry %d's fromState %s is not the previous toState %s" % (doc, seq_of(e), got_from, previous))
            previous = last(got_to) if got_to else "?"
        if len(state) != 1 or last(state[0]) != previous:
            bad("%s: the current state %s is not the last entry's toState %s" % (doc, state, previous))
        # as the reference interpreter takes the same events
        for want, e in zip(machine.history, ordered):
            fired = one(e, WSM + "firedTransition")
            got = (seq_of(e), last(one(e, WSM + "eventResource") or "-"), last(one(e, WSM + "event") or "-"),
                   last(one(e, WSM + "fromState") or "-"), last(one(e, WSM + "toState") or "-"),
                   last(one(e, WSM + "outcome") or "-"), last(fired) if fired else None,
                   frozenset(last(c) for c in d.values(e, WSM + "failedCondition")))
            expected = (want.sequence, last(want.resource), want.event, want.source, want.target, want.outcome,
                        want.transition, want.failed)
            if got != expected:
                bad("%s: entry %d is %s, the interpreter says %s" % (doc, seq_of(e), got, expected))
        if len(state) == 1 and last(state[0]) != machine.instance.state:
            bad("%s: current state %s, the interpreter's %s" % (doc, last(state[0]), machine.instance.state))
        live = d.values(it, schema_ns + "is_live")
        want_live = '"%s"^^<http://www.w3.org/2001/XMLSchema#boolean>' % str(machine.instance.values["is_live"]).lower()
        if live != [want_live]:
            bad("%s: is_live is %s, the interpreter's %s" % (doc, live, want_live))
        listed = members(base, doc)
        if listed:
            bad("%s: the inbox still lists %s" % (doc, " ".join(last(m) for m in listed)))
        # actions: two per published transition, none elsewhere, each with one answered call record; the
        # actions run in order, so one whose call is exhausted is the last
        fired_publications = 0
        for e in ordered:
            actions = d.actions_of(e)
            with_actions = one(e, WSM + "firedTransition") == "<%s%s>" % (schema_ns, PUBLISH_WITH_ACTIONS)
            fired_publications += with_actions
            indexes = sorted(int(v.split('"')[1]) for x in actions for v in d.values(x, WSM + "actionIndex"))
            cut_short = indexes and indexes == list(range(1, len(indexes) + 1)) and seq_of(e) <= killed and any(
                d.values(x, LDGSM + "taskState") == ["<%sfailed>" % LDGSM] and d.values(x, WSM + "actionIndex") ==
                ['"%d"^^<http://www.w3.org/2001/XMLSchema#integer>' % len(indexes)] for x in actions)
            if indexes != (list(range(1, ACTIONS + 1)) if with_actions else []) and not (with_actions and cut_short):
                bad("%s: entry %d has actions %s" % (doc, seq_of(e), indexes))
            for x in actions:
                k = int(one(x, WSM + "actionIndex").split('"')[1]) if one(x, WSM + "actionIndex") else 0
                # an action is sent and its call answered, or (DESIGN 6.1's "unless the call is
                # exhausted", judged below against the service's log) failed and its call exhausted
                exhausted = d.values(x, LDGSM + "taskState") == ["<%sfailed>" % LDGSM] and seq_of(e) <= killed
                if exhausted:
                    failed_actions.add((doc, seq_of(e), k))
                elif d.values(x, LDGSM + "taskState") != ["<%ssent>" % LDGSM]:
                    bad("%s: action %d of entry %d is %s" % (doc, k, seq_of(e), d.values(x, LDGSM + "taskState")))
                records = [c for c, po in d.by_subject.items() if (LDGSM + "ofStage", "<%s>" % x) in po]
                keys = [v for c in records for v in d.values(c, LDGSM + "idempotencyKey")]
                states = [v for c in records for v in d.values(c, LDGSM + "callState")]
                want = "<%s%s>" % (LDGSM, "exhausted" if exhausted else "answered")
                if len(records) != 1 or len(keys) != 1 or states != [want]:
                    bad("%s: action %d of entry %d: records %s, keys %s, states %s" % (doc, k, seq_of(e), records, keys, states))
                for key in keys:
                    keys_recorded[key.split('"')[1]] = (doc, seq_of(e), k)
        publications += fired_publications
        if fired_publications != sum(1 for h in machine.history if h.transition == PUBLISH_WITH_ACTIONS):
            bad("%s: %d publications with actions, the interpreter has %d" % (
                doc, fired_publications, sum(1 for h in machine.history if h.transition == PUBLISH_WITH_ACTIONS)))
        if touched_dir and os.path.exists(os.path.join(touched_dir, "touched-" + doc)):
            want = open(os.path.join(touched_dir, "touched-" + doc)).read().strip()
            got = d.values(d.iri + "#touched", TOUCH)
            if got != ['"%s"' % want]:
                bad("%s: the second writer's last touch %s is lost (the document has %s)" % (doc, want, got))
        outcomes = collections.Counter(h.outcome for h in machine.history)
        print("%s: %d events, %d entries, state %s, %s, %d publications with actions" % (
            doc, len(posted), len(entries), last(state[0]) if len(state) == 1 else state,
            ", ".join("%d %s" % (n, o) for o, n in sorted(outcomes.items())), fired_publications))

    # the server's log of the notices: one execution per key, the keys the records hold
    executed, order = collections.Counter(), {}
    replays, in_flight, unkeyed = 0, 0, 0
    for n, line in enumerate(open(serve_log)):
        m = NOTIFY_LOG.match(line.rstrip("\n"))
        if not m:
            continue
        status, key, outcome = int(m.group(1)), m.group(3), m.group(4)
        if key is None:
            unkeyed += 1
        elif outcome == "executed":
            executed[key] += 1
            order.setdefault(key, n)
            if status != 201:
                bad("the notice under key %s was executed with status %d" % (key, status))
        elif outcome == "replayed":
            replays += 1
            if key not in executed:
                bad("key %s replayed before it was executed" % key)
        elif outcome == "in-flight":
            in_flight += 1
        else:
            bad("a notice under key %s: %s (%d)" % (key, outcome, status))
    if unkeyed:
        bad("%d notices POSTed without an Idempotency-Key" % unkeyed)
    for key, n in executed.items():
        if n != 1:
            bad("the notice under key %s was executed %d times" % (key, n))
    for key in set(executed) - set(keys_recorded):
        bad("a notice executed under key %s, which no call record holds" % key)
    for key, where in keys_recorded.items():
        if where in failed_actions:
            # DESIGN 6.1's guarantee is "at most once per activation, at least once unless the call is
            # exhausted": an agent killed after every send and before it records the answer spends the
            # retry budget (and the deadline) whether or not the service executed a send. At most once
            # is checked above with every key.
            print("note: %s entry %d action %d: its call is exhausted by the kills; the notice under its key %s "
                  "was executed %d times" % (where + (key, executed.get(key, 0))))
        elif key not in executed:
            bad("%s entry %d action %d: its key %s was never executed" % (where + (key,)))
    by_action = {where: key for key, where in keys_recorded.items()}
    for (doc, seq, k), key in by_action.items():
        before = by_action.get((doc, seq, k - 1))
        if before and key in order and before in order and order[before] > order[key]:
            bad("%s entry %d: action %d was executed before action %d" % (doc, seq, k, k - 1))
    notices, _ = triples(base, "/notify/")
    listed = [o[1:-1] for s, p, o in notices if p == "http://www.w3.org/ns/ldp#contains"]
    to = collections.Counter()
    for member in listed:
        got, _ = triples(base, urllib.parse.urlsplit(member).path)
        to.update(o.strip('"') for s, p, o in got if p == "https://example.org/notice#to")
    # a notice per key executed: action 1 notifies the editors, action 2 the readers
    want_to = collections.Counter(("editors", "readers")[k - 1] for key, (_, _, k) in keys_recorded.items()
                                  if key in executed)
    if len(listed) != len(executed) or to != want_to:
        bad("/notify/ holds %d notices (%s), %d keys were executed (%s)" % (
            len(listed), dict(to), len(executed), dict(want_to)))
    print("notices: %d publications, %d notices, %d keys executed once each, %d replayed, %d in flight (409)" % (
        publications, len(listed), len(executed), replays, in_flight))
    for v in violations[:MAX_SHOWN]:
        print("VIOLATION: " + v)
    if len(violations) > MAX_SHOWN:
        print("VIOLATION: ... and %d more" % (len(violations) - MAX_SHOWN))
    return 1 if violations else 0


def main(argv):
    commands = {"post": (cmd_post, 4), "pending": (cmd_pending, 1), "writer": (cmd_writer, 3), "verify": (cmd_verify, 4)}
    if not argv or argv[0] not in commands or len(argv) - 1 < commands[argv[0]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    fn, n = commands[argv[0]]
    args = argv[1:]
    if argv[0] == "post":
        return fn(args[0], args[1], int(args[2]), int(args[3]))
    if argv[0] == "writer":
        return fn(args[0], args[1], int(args[2]))
    if argv[0] == "verify":
        return fn(args[0], args[1], args[2], int(args[3]), *args[4:])
    return fn(*args)


sys.exit(main(sys.argv[1:]))
