#!/usr/bin/env python3
"""property.py: the property test of `ldgsm run --machine` (seed 002) against the reference interpreter
(interp.py). For each of N random schemas (2-5 states, 2-4 events, 0-3 variables with random initial
values, random transitions never two from one state on one event, each with 0-2 conditions and 0-3
assignments; conditions are a variable's value, ASK { wsm:thisInstance <#v> true|false }, and the event's
flag, ASK { wsm:thisEvent <https://example.org/ev#flag> true|false }) and a random inbox of 5-15 members
(an event of the schema, with or without a flag; an event the schema does not know; no event; several
events; a member that is not RDF), it checks:

  RUN     the schema and an instance are published on the server at BASE, the members POSTed with
          zero-padded Slugs in a random order, `ldgsm run --machine ... -n 0 --until quiescent --iterations 200` exits 0,
          and the instance document equals the interpreter's run: the current state, every variable
          (one value each), wsm:taken, and per history entry its sequence, event resource, event, states
          before and after, outcome, fired transition, failed conditions and whether it gives a reason;
          the inbox is empty (every member deleted after its write);
  DETERM  the same schema and members on a second instance, each member POSTed while one stepped agent
          (`ldgsm run --step`) runs a random number of iterations (0-2) between the POSTs, give the same;
  DELETE  after every iteration of the stepped agent, no member it took is still listed (the DELETE
          follows the write that takes it, in the same iteration).

A member that is not RDF: the LDP server refuses a body that does not parse, so the test talks to it
through a proxy (Garbler) that serves every member whose name ends in "-garbled" as Turtle that does
not parse; its stored body names an event, so a proxy that did not garble it would show in the entry.
The proxy also answers 503 to the first DELETE of some members (as if the agent had stopped between the
write that takes an event and its DELETE): a consumed member still listed is never taken again.

usage: property.py LDGSM BASE [--schemas N] [--seed N] [--only K] [--verbose]
  BASE         an `ldgsm serve --memory` to use (tests/wsm/run_property.sh starts one)
  --schemas N  how many schemas (default 25); --only K runs the K-th (0-based) of a seed's only
The seed is printed first; WSM_PROPERTY_SEED=N (or --seed N) reruns a campaign. A failure prints the
seed, the schema's number, its Turtle, its members and the difference.
"""
import difflib
import http.client
import http.server
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gsm", "property"))
sys.path.insert(0, os.path.join(HERE, "..", "gsm"))
from gsm_property import Agent  # noqa: E402  (the GSM property test's stepped agent)
import idempotency  # noqa: E402  (tests/gsm/idempotency.py: the test services' HTTP server)
from interp import FlagIs, Machine, Member, Schema, Transition, VarIs  # noqa: E402

WAIT = int(os.environ.get("LDGSM_TEST_WAIT", "30"))
WSM = "https://w3id.org/ldgsm/wsm#"
EV = "https://example.org/ev#"
XSD = "http://www.w3.org/2001/XMLSchema#"
GARBLED = "-garbled"
GARBAGE = b"this is not Turtle { <\n"
PREFIXES = "@prefix wsm: <%s> .\n@prefix sp: <http://spinrdf.org/sp#> .\n@prefix ev: <%s> .\n" % (WSM, EV)
MAX_STEPS = 200


# --- a proxy that serves some members as Turtle that does not parse ------------------------------------

class Garbler:
    HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "content-length",
                  "host"}

    def __init__(self, target):
        target = urllib.parse.urlsplit(target)
        hop = self.HOP_BY_HOP
        self.refuse_delete = set()  # paths whose next DELETE answers 503
        refuse_delete, lock = self.refuse_delete, threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            def forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                if self.command == "DELETE":
                    with lock:
                        refused = self.path in refuse_delete
                        refuse_delete.discard(self.path)
                    if refused:
                        self.send_response(503)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                conn = http.client.HTTPConnection(target.hostname, target.port, timeout=WAIT)
                try:
                    conn.request(self.command, self.path, body=body,
                                 headers={k: v for k, v in self.headers.items() if k.lower() not in hop})
                    resp = conn.getresponse()
                    data = resp.read()
                    headers = [(k, v) for k, v in resp.getheaders() if k.lower() not in hop]
                    status = resp.status
                finally:
                    conn.close()
                if self.command == "GET" and status == 200 and self.path.endswith(GARBLED):
                    data = GARBAGE
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_HEAD = do_PUT = do_POST = do_PATCH = do_DELETE = do_OPTIONS = forward

            def log_message(self, *args):
                pass

        self.httpd = idempotency.Server(("127.0.0.1", 0), Handler)
        self.base = "http://127.0.0.1:%d/" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def request(base, method, path, body=None, headers=None):
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=WAIT)
    try:
        conn.request(method, "/" + path, body=body.encode() if body is not None else None, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, dict((k.lower(), v) for k, v in resp.getheaders()), resp.read().decode("utf-8", "replace")
    finally:
        conn.close()


# --- random schemas and inboxes -------------------------------------------------------------------------

def tb(b):
    """A bool as a Turtle literal."""
    return "true" if b else "false"


class Case:
    """One schema, its Turtle, and an inbox: members as (slug, Turtle body, then what the interpreter sees
    of it: the events it names, its flag, whether it parses)."""

    def __init__(self, rng):
        states = ["s%d" % i for i in range(1, rng.randint(2, 5) + 1)]
        events = ["e%d" % i for i in range(1, rng.randint(2, 4) + 1)]
        variables = {"v%d" % i: rng.choice([True, False, None]) for i in range(1, rng.randint(0, 3) + 1)}
        conditions, condition_names = {}, {}

        def condition(c):
            if c not in condition_names:
                condition_names[c] = "c%d" % (len(condition_names) + 1)
                conditions[condition_names[c]] = c
            return condition_names[c]

        pool = [FlagIs(True), FlagIs(False)] + [VarIs(v, b) for v in variables for b in (True, False)]
        pairs = [(s, e) for s in states for e in events]
        chosen = [p for p in pairs if rng.random() < 0.5] or [rng.choice(pairs)]
        # Mostly no sink states: in one every later event is rejected for want of a transition.
        chosen += [(s, rng.choice(events)) for s in states
                   if all(p[0] != s for p in chosen) and rng.random() < 0.8]
        transitions = []
        for i, (s, e) in enumerate(chosen, 1):
            cs = sorted({condition(c) for c in rng.sample(pool, rng.choice([0, 0, 1, 1, 2]))})
            assigned = rng.sample(sorted(variables), rng.randint(0, len(variables)))
            transitions.append(Transition("t%d" % i, e, s, rng.choice(states), tuple(cs),
                                          tuple((v, rng.random() < 0.5) for v in assigned)))
        self.schema = Schema(states[0], transitions, variables, conditions, states, events)
        self.turtle = self.render()
        self.members = []
        machine = Machine(self.schema)
        for i in range(1, rng.randint(5, 15) + 1):
            self.members.append(self.member(rng, i, machine.instance.state))
            slug, _, names, flag, parses = self.members[-1]
            machine.take(Member(slug, parses, names, flag))
        # Members whose first DELETE fails (as if the agent stopped between the write and the DELETE):
        # still listed, consumed, never taken again.
        self.refused = {m[0] for m in self.members if rng.random() < 0.25}

    def render(self):
        w = self.schema
        lines = [PREFIXES, "<#W> a wsm:Schema ; wsm:initialState <#%s>" % w.initial]
        if w.variables:
            lines.append("    ; wsm:variable %s" % ", ".join("<#%s>" % v for v in sorted(w.variables)))
        lines.append("    ; wsm:transition %s ." % ", ".join("<#%s>" % t.name for t in w.transitions))
        for v, b in sorted(w.variables.items()):
            lines.append("<#%s> a wsm:Variable%s ." % (v, "" if b is None else " ; wsm:initialValue " + tb(b)))
        for name, c in sorted(w.conditions.items()):
            ask = "wsm:thisInstance <#%s> %s" % (c.variable, tb(c.value)) if isinstance(c, VarIs) \
                else "wsm:thisEvent <%sflag> %s" % (EV, tb(c.value))
            lines.append('<#%s> a sp:Ask ; sp:text "PREFIX wsm: <%s> ASK { %s }" .' % (name, WSM, ask))
        for t in w.transitions:
            parts = ["<#%s> a wsm:Transition ; wsm:from <#%s> ; wsm:on <#%s> ; wsm:to <#%s>"
                     % (t.name, t.source, t.event, t.target)]
            parts += [" ; wsm:condition <#%s>" % c for c in t.conditions]
            parts += [" ; wsm:assigns [ wsm:variable <#%s> ; wsm:value %s ]" % (v, tb(b)) for v, b in t.assignments]
            lines.append("".join(parts) + " .")
        return "\n".join(lines) + "\n"

    def member(self, rng, i, state):
        """(slug, body, names, flag, parses): names are the events the interpreter sees it name. Most
        events have a transition from the state the instance will be in (state), so that runs go far."""
        kind = rng.choices(["event", "unknown", "none", "several", "garbled"], [70, 6, 8, 8, 8])[0]
        flag = rng.choice([True, False, None])
        flag_text = "" if flag is None else " ; ev:flag %s" % tb(flag)
        events = sorted(self.schema.events)
        slug = "%04d" % i
        if kind == "event":
            enabled = [t for t in self.schema.transitions if t.source == state]
            if enabled and rng.random() < 0.8:
                t = rng.choice(enabled)
                e = t.event
                wanted = [c.value for c in map(self.schema.conditions.get, t.conditions) if isinstance(c, FlagIs)]
                if wanted and rng.random() < 0.7:
                    flag = wanted[0]
                    flag_text = " ; ev:flag %s" % tb(flag)
            else:
                e = rng.choice(events)
            named = "<../schema#%s>" % e if rng.random() < 0.9 else "<../schema#%s>, <../schema#%s>" % (e, e)
            return slug, "<> wsm:event %s%s ." % (named, flag_text), [e], flag, True
        if kind == "unknown":
            return slug, "<> wsm:event <../schema#nowhere>%s ." % flag_text, ["nowhere"], flag, True
        if kind == "none":
            body = rng.choice(['<> ev:note "no event"%s .' % flag_text,
                               "<#other> wsm:event <../schema#%s> .%s" % (rng.choice(events), "" if flag is None
                                                                          else " <> ev:flag %s ." % tb(flag))])
            return slug, body, [], flag, True
        if kind == "several":
            e, f = rng.sample(events, 2)
            return slug, "<> wsm:event <../schema#%s>, <../schema#%s>%s ." % (e, f, flag_text), [e, f], flag, True
        return slug + GARBLED, "<> wsm:event <../schema#%s>%s ." % (rng.choice(events), flag_text), [], None, False

    def expected(self, prefix):
        """The interpreter's run of the members in the inbox at prefix, as lines like actual()'s."""
        members = [Member(prefix + "inbox/" + slug, parses, names, flag)
                   for slug, _, names, flag, parses in self.members]
        m = Machine(self.schema).run(members)
        inst = m.instance
        out = ["state %s" % inst.state, "taken %d" % len(m.history)]
        out += ["variable %s %s" % (v, tb(b)) for v, b in sorted(inst.values.items())]
        for e in m.history:
            out.append(entry_line(e.sequence, e.resource[len(prefix):], e.event, e.source, e.target, e.outcome,
                                  e.transition, sorted(e.failed), e.outcome != "fired"))
        return out

    def describe(self):
        return self.turtle + "\n".join("member %s%s: %s" % (slug, " (its first DELETE fails)" if slug in self.refused
                                                            else "", body) for slug, body, *_ in self.members)


def entry_line(seq, resource, event, source, target, outcome, transition, failed, reason):
    return "entry %d %s event=%s %s->%s %s transition=%s failed=%s reason=%s" % (
        seq, resource, event, source, target, outcome, transition, ",".join(failed) or "-", "yes" if reason else "no")


# --- what the agent wrote -------------------------------------------------------------------------------

NT = re.compile(r'^(<[^>]*>|_:\S+) <([^>]*)> (<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@\S+)?) \.$')


def path_of(iri):
    """An IRI of the server or the proxy as its path (the two differ only in the port)."""
    return re.sub(r"^http://127\.0\.0\.1:[0-9]+/", "", iri)


def triples(text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        m = NT.match(line)
        if not m:
            raise ValueError("not N-Triples: " + line)
        s, p, o = m.groups()
        out.append((path_of(s.strip("<>")), path_of(p), path_of(o[1:-1]) if o.startswith("<") else o))
    return out


def literal(o):
    m = re.match(r'^"(.*)"\^\^<%s(boolean|integer)>$' % re.escape(XSD), o)
    return m.group(1) if m else "?" + o


def actual(case, prefix, doc_text):
    """The instance document as lines: one line per value, so that two values of a functional property
    (two states, a variable both true and false) show in the difference."""
    ts = triples(doc_text)
    it = prefix + "doc#it"
    schema = prefix + "schema#"

    def local(o):
        return o[len(schema):] if o.startswith(schema) else o

    def values(s, p):
        return sorted(o for s2, p2, o in ts if s2 == s and p2 == p)

    def one(s, p, conv):
        vs = values(s, p)
        return conv(vs[0]) if len(vs) == 1 else "|".join(conv(v) for v in vs) or None

    out = ["state %s" % one(it, WSM + "currentState", local)]
    out += ["taken %s" % literal(v) for v in values(it, WSM + "taken")]
    for v in sorted(case.schema.variables):
        out += ["variable %s %s" % (v, literal(o)) for o in values(it, schema + v)] or ["variable %s (none)" % v]
    entries = sorted({s for s, p, o in ts if p == WSM + "entryOf" and o == it})
    lines = []
    for h in entries:
        seq = one(h, WSM + "sequence", literal)
        n = int(seq) if seq and seq.isdigit() else 0  # none or several: entry 0, which no entry expects
        lines.append((n, entry_line(
            n, str(one(h, WSM + "eventResource", lambda o: o[len(prefix):])),
            one(h, WSM + "event", local), one(h, WSM + "fromState", local), one(h, WSM + "toState", local),
            one(h, WSM + "outcome", lambda o: o[len(WSM):] if o.startswith(WSM) else o),
            one(h, WSM + "firedTransition", local), [local(c) for c in values(h, WSM + "failedCondition")],
            bool(values(h, WSM + "reason")))))
    return out + [line for _, line in sorted(lines)]


# --- one schema -----------------------------------------------------------------------------------------

class Failure(Exception):
    pass


class Run:
    def __init__(self, ldgsm, garbler, work):
        self.ldgsm, self.garbler, self.base, self.work = ldgsm, garbler, garbler.base, work
        # The server never makes a name again, even after a DELETE: a rerun on it takes fresh paths.
        self.campaign = "wsm-property-%d-%d" % (os.getpid(), time.time())

    def publish(self, case, prefix):
        self.garbler.refuse_delete.update("/%sinbox/%s" % (prefix, slug) for slug in case.refused)
        for path, body, headers in [
                (prefix + "schema", case.turtle, {}),
                (prefix + "doc", PREFIXES + "<#it> a wsm:MachineInstance ; wsm:instanceOf <schema#W> ; "
                                            "wsm:inbox <inbox/> .\n", {}),
                (prefix + "inbox/", "", {"Link": '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"'})]:
            status, _, text = request(self.base, "PUT", path, body, dict(headers, **{"Content-Type": "text/turtle"}))
            if status not in (201, 204):
                raise Failure("PUT %s answers %d: %s" % (path, status, text))

    def post(self, prefix, member):
        slug, body = member[0], member[1]
        status, headers, text = request(self.base, "POST", prefix + "inbox/", PREFIXES + body,
                                        {"Content-Type": "text/turtle", "Slug": slug})
        if status != 201 or not headers.get("location", "").endswith("/" + prefix + "inbox/" + slug):
            raise Failure("POST %s (Slug %s) answers %d at %s: %s" % (prefix + "inbox/", slug, status,
                                                                     headers.get("location"), text))

    def outcome(self, case, prefix):
        status, _, doc = request(self.base, "GET", prefix + "doc", headers={"Accept": "application/n-triples"})
        if status != 200:
            raise Failure("GET %sdoc answers %d" % (prefix, status))
        got = actual(case, prefix, doc)
        _, _, inbox = request(self.base, "GET", prefix + "inbox/", headers={"Accept": "application/n-triples"})
        got += ["left in the inbox: %s" % path_of(o.strip("<>"))[len(prefix):]
                for s, p, o in triples(inbox) if p == "http://www.w3.org/ns/ldp#contains"]
        return got

    def lingering(self, case, prefix):
        """The members with a history entry still listed, but for those whose DELETE the proxy refuses:
        the DELETE follows the write that takes the event, in the same iteration."""
        _, _, doc = request(self.base, "GET", prefix + "doc", headers={"Accept": "application/n-triples"})
        _, _, inbox = request(self.base, "GET", prefix + "inbox/", headers={"Accept": "application/n-triples"})
        taken = {o for s, p, o in triples(doc) if p == WSM + "eventResource"}
        return sorted(o[len(prefix + "inbox/"):] for s, p, o in triples(inbox)
                      if p == "http://www.w3.org/ns/ldp#contains" and o in taken
                      and o[len(prefix + "inbox/"):] not in case.refused)

    def compare(self, what, case, prefix):
        want, got = case.expected(prefix), self.outcome(case, prefix)
        if want != got:
            raise Failure("%s: the agent (+) differs from the interpreter (-):\n%s" % (what, "\n".join(
                difflib.unified_diff(want, got, "interpreter", "agent", lineterm="", n=99))))

    def batch(self, case, k, rng):
        """RUN: the members POSTed in a random order first (the agent takes them in the order of their
        IRIs, not of their arrival), then one agent run."""
        prefix = "%s/w%d/" % (self.campaign, k)
        self.publish(case, prefix)
        for m in rng.sample(case.members, len(case.members)):
            self.post(prefix, m)
        log = os.path.join(self.work, "run-%d.log" % k)
        with open(log, "w") as f:
            try:
                rc = subprocess.run([self.ldgsm, "run", "--machine", self.base + prefix + "doc#it", "-n", "0",
                                     "--until", "quiescent", "--iterations", str(MAX_STEPS)],
                                    stdout=subprocess.DEVNULL, stderr=f, timeout=WAIT * 4).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
        if rc != 0:
            raise Failure("RUN: ldgsm run --machine exits %s; its log ends:\n%s" % (rc, tail(log)))
        self.compare("RUN", case, prefix)

    def determ(self, case, k, rng):
        """DETERM and DELETE: the members POSTed in their order, 0-2 iterations of a stepped agent after
        each, then iterations until one sends nothing."""
        prefix = "%s/w%dd/" % (self.campaign, k)
        self.publish(case, prefix)
        log = os.path.join(self.work, "step-%d.log" % k)
        agent = Agent([self.ldgsm, "run", "--machine", self.base + prefix + "doc#it", "-n", "0", "--step"], log)
        schedule = []

        def iterate():
            out = agent.iterate()
            if out is None:
                raise Failure("DETERM: the stepped agent did not finish an iteration; its log ends:\n" + tail(log))
            lingering = self.lingering(case, prefix)
            if lingering:
                raise Failure("DELETE: after the iteration that took them, %s still listed (posted as: %s); the "
                              "stepped agent's log ends:\n%s" % (", ".join(lingering), ", ".join(schedule), tail(log)))
            return out
        try:
            for m in case.members:
                self.post(prefix, m)
                steps = rng.randint(0, 2)
                schedule.append("%s then %d iteration(s)" % (m[0], steps))
                for _ in range(steps):
                    iterate()
            for _ in range(MAX_STEPS):
                if re.search(r"unsafe 0:", iterate()):
                    break
            else:
                raise Failure("DETERM: not quiescent after %d iterations" % MAX_STEPS)
        finally:
            rc = agent.stop()
        if rc != 0:
            raise Failure("DETERM: the stepped agent exits %s; its log ends:\n%s" % (rc, tail(log)))
        try:
            self.compare("DETERM (posted as: %s)" % ", ".join(schedule), case, prefix)
        except Failure as f:
            raise Failure("%s\nthe stepped agent's log ends:\n%s" % (f, tail(log)))


def tail(path, n=30):
    with open(path) as f:
        return "".join(f.readlines()[-n:])


def main(argv):
    args = list(argv)
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    ldgsm, base = args[0], args[1].rstrip("/") + "/"
    opts = {"--schemas": "25", "--seed": os.environ.get("WSM_PROPERTY_SEED") or str(random.randrange(10 ** 9)),
            "--only": None}
    verbose = "--verbose" in args
    rest = [a for a in args[2:] if a != "--verbose"]
    while rest:
        if rest[0] not in opts or len(rest) < 2:
            print(__doc__, file=sys.stderr)
            return 2
        opts[rest[0]], rest = rest[1], rest[2:]
    seed, n = int(opts["--seed"]), int(opts["--schemas"])
    print("wsm property: seed %d (rerun: WSM_PROPERTY_SEED=%d), %d schemas" % (seed, seed, n), flush=True)
    garbler = Garbler(base)
    work = tempfile.mkdtemp(prefix="ldgsm-wsm-property.")
    run = Run(ldgsm, garbler, work)
    failures = members = 0
    outcomes = {}
    started = time.monotonic()
    try:
        for k in range(n) if opts["--only"] is None else [int(opts["--only"])]:
            rng = random.Random("%d/%d" % (seed, k))
            case = Case(rng)
            members += len(case.members)
            for line in case.expected(""):
                if line.startswith("entry"):
                    o = line.split()[5] + (" (a condition)" if "failed=-" not in line else "")
                    outcomes[o] = outcomes.get(o, 0) + 1
            if verbose:
                print("schema %d:\n%s" % (k, case.describe()), flush=True)
            for what, check in (("RUN", lambda: run.batch(case, k, rng)), ("DETERM", lambda: run.determ(case, k, rng))):
                try:
                    check()
                except Failure as f:
                    failures += 1
                    print("FAIL %s: seed %d, schema %d (rerun: property.py LDGSM BASE --seed %d --only %d)\n%s\n%s\n"
                          % (what, seed, k, seed, k, case.describe(), f), flush=True)
    finally:
        garbler.stop()
    print("wsm property: %d schemas, %d members (%s), %d failures, %.1f s" % (
        n if opts["--only"] is None else 1, members,
        ", ".join("%s %d" % kv for kv in sorted(outcomes.items())), failures, time.monotonic() - started))
    if not failures:
        shutil.rmtree(work)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
