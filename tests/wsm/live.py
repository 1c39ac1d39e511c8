#!/usr/bin/env python3
"""live.py: same outcome, live, for state machines (DESIGN section 9, "Same outcome"; issue 35). Random schemas and
inboxes as the state machine property test makes them (tests/wsm/property.py: 2-5 states, 2-4 events, variables,
conditions on a variable or the event's flag; members naming an event of the schema, with or without a flag, an
event it does not know, none, or several), one instance each, run by two agents left to run by themselves side
by side, each with a server of its own (tests/gsm/property/live_runs.py): `ldgsm run --machine ... -n 50` (polling)
and `... --notifications -n 60000 --safety-poll 600000`. The environment posts one or two members to some
inboxes (at least one) at each rest, in the order the property test made them. Per instance both must write the
same history (entry by entry: sequence, event resource, event, states before and after, outcome, fired
transition, failed conditions, whether a reason is given), the agent must have made the same writes (method,
path, status: the instance document's conditional PUTs and the members' DELETEs; in order, those of one
iteration as a set), each received by the server,
both must have got as far at every rest, and end in the same state (current state, wsm:taken, variables, the
inbox empty). Each run also checks that no write was withheld, refused or in conflict, and no request failed.
(The property test's members that are not RDF need its proxy, and are left out here.)

usage: live.py LDGSM [--seed N] [--schemas 4] [--rounds 8] [--time 600] [--quiet 0.5]
                     [--against notifications|incremental] [--keep]
The seed is printed first (and on failure, with how to reproduce); WSM_PROPERTY_SEED sets it too.
"""
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gsm", "property"))
sys.path.insert(0, os.path.join(HERE, "..", "gsm"))
import live_runs as live  # noqa: E402  (tests/gsm/property/live_runs.py: two agents side by side)
import property as prop  # noqa: E402  (the state machine property test: its schemas, members and readers)

CONTAINER = {"Link": '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"'}


class MachineRun(live.LiveRun):
    """The schemas of a seed, one instance each (pI/schema, pI/doc#it, its inbox pI/inbox/)."""

    ENV_WRITE = re.compile(r"^POST /p\d+/inbox/")  # the members the environment posts
    # what publish() writes (the server logs a request once answered: by line numbers, one may come late)
    PUBLISHED = re.compile(r"^PUT /p\d+/(schema|inbox/|doc 201) ")

    def __init__(self, ldgsm, label, agent_options, seed, n_schemas, quiet, work):
        live.LiveRun.__init__(self, ldgsm, label, agent_options, quiet, work)
        self.rng = random.Random(seed)
        self.cases = [prop.Case(random.Random("%d/%d" % (seed, k))) for k in range(n_schemas)]
        self.posted = [0] * n_schemas
        for case in self.cases:
            case.members = [m for m in case.members if m[4]]  # RDF only: no proxy garbles them here

    def publish(self):
        for i, case in enumerate(self.cases):
            self.server.put("p%d/schema" % i, case.turtle)
            self.server.put("p%d/doc" % i, prop.PREFIXES + "<#it> a wsm:MachineInstance ; wsm:instanceOf <schema#W> ; "
                            "wsm:inbox <inbox/> .\n")
            self.server.send("PUT", "p%d/inbox/" % i, "", CONTAINER)
        self.instances = ["%sp%d/doc#it" % (self.server.base, i) for i in range(len(self.cases))]
        return [a for inst in self.instances for a in ("--machine", inst)]

    def read(self, i):
        """(triples, the final state's lines, the history's entries in order, None), as property.actual reads them
        and the inbox's members left."""
        prefix = "p%d/" % i
        _, _, doc = prop.request(self.server.base, "GET", prefix + "doc", headers={"Accept": "application/n-triples"})
        lines = prop.actual(self.cases[i], prefix, doc)
        _, _, inbox = prop.request(self.server.base, "GET", prefix + "inbox/", headers={"Accept": "application/n-triples"})
        left = ["left in the inbox: " + o for s, p, o in prop.triples(inbox) if p == "http://www.w3.org/ns/ldp#contains"]
        return (doc, [line for line in lines if not line.startswith("entry")] + left,
                [line for line in lines if line.startswith("entry")], None)

    def deadlines(self, doc):
        return []

    def act(self, docs):
        """Some instances with members left to post (at least one, while any has) get one or two."""
        left = [i for i, case in enumerate(self.cases) if self.posted[i] < len(case.members)]
        if not left:
            return None
        began = time.time()
        for i in [i for i in left if self.rng.random() < 0.5] or [self.rng.choice(left)]:
            for _ in range(self.rng.randint(1, 2)):
                if self.posted[i] < len(self.cases[i].members):
                    slug, body = self.cases[i].members[self.posted[i]][:2]
                    self.server.send("POST", "p%d/inbox/" % i, prop.PREFIXES + body, {"Slug": slug})
                    self.posted[i] += 1
                    self.actions += 1
        return began

    def agent_writes(self):
        """Per instance, the agent's writes in batches, one per iteration that wrote (its log tells which; those of
        one iteration sorted: the server logs a request once answered, and the DELETE that follows a write may
        be answered before that write's line is logged), each (method, path, status); they must be those the
        server received, which a failure says."""
        iteration, sent, received = 0, {}, {}
        with open(self.agent_log, errors="replace") as f:
            for line in f:
                iteration += line.startswith("iteration:")
                m = live.REQUEST.match(line)
                p = m and re.match(re.escape(self.server.base) + r"(p(\d+)/.*)", m.group(2))
                if p:
                    sent.setdefault(int(p.group(2)), {}).setdefault(iteration, []).append(
                        (m.group(1), "/" + p.group(1), m.group(3)))
        for line in live.Tail(self.server.log_path).lines():
            m = live.REQUEST.match(line)
            ours = m and not self.ENV_WRITE.match(line) and not self.PUBLISHED.match(line)
            p = ours and re.match(r"/p(\d+)/", m.group(2))
            if p:
                received.setdefault(int(p.group(1)), []).append(m.groups())
        out = {}
        for i in sorted(set(sent) | set(received)):
            batches = [tuple(sorted(batch)) for _, batch in sorted(sent.get(i, {}).items())]
            if sorted(r for batch in batches for r in batch) != sorted(received.get(i, [])):
                self.failures.append("p%d: the agent logged the writes %s, the server received %s"
                                     % (i, batches, received.get(i, [])))
            out[i] = batches
        return out

    def result(self, i, doc, requests):
        if not hasattr(self, "writes"):
            self.writes = self.agent_writes()
        return {"entries": doc[2], "writes": self.writes.get(i, []), "final": doc[1]}

    def check(self, docs, requests):
        self.log_problems()


def main(argv):
    parsed = live.parse_args(argv, __doc__, {"--seed": None, "--schemas": "4", "--rounds": "8", "--time": "600",
                                             "--quiet": "0.5"})
    if not parsed:
        return 2
    ldgsm, opts, keep = parsed
    seed = int(opts["--seed"] or os.environ.get("WSM_PROPERTY_SEED") or random.SystemRandom().randrange(1 << 31))
    print("wsm live: seed %d" % seed, flush=True)
    against, n, rounds = opts["--against"], int(opts["--schemas"]), int(opts["--rounds"])
    started = time.monotonic()
    runs, failures, work, done = live.run_pair(
        lambda label, options, work: MachineRun(ldgsm, label, options, seed, n, float(opts["--quiet"]), work),
        against, rounds, float(opts["--time"]), "ldgsm-wsm-live.")
    a = runs[0]
    stats = "%d schemas x %d rounds (%d members posted), %d history entries, %.1f s" % (
        len(a.cases), done, a.actions, sum(len(r["entries"]) for r in a.results or []), time.monotonic() - started)
    return live.report("wsm live", seed, stats, failures, [],
                       "reproduce: WSM_PROPERTY_SEED=%d python3 tests/wsm/live.py LDGSM --schemas %d --rounds %d "
                       "--against %s" % (seed, n, rounds, against),
                       "polling and %s wrote the same histories" % against, keep, work)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
