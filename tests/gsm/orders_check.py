#!/usr/bin/env python3
"""orders_check.py: what tests/gsm/run_orders.sh checks after the order workflow (ldp-fixtures/orders) ran,
read over HTTP (N-Triples) from the server at BASE (ending in '/').

  outcome BASE N
      one line per property of the run of instances status/o1..oN: "ok: NAME", or "bad NAME: why" for
      each violation (then no "ok: NAME"). NAME is one of
        classes        the quotes hold prices below, above and exactly 100 (else the run proves little)
        complete       every instance is complete
        prices         every instance's shop:price is exactly its own quote's price
        shipments      shipments/ holds exactly one shipment per order, naming it (shop:order) and its id
                       (shop:orderId, the order's shop:id); nothing else
        instance-shipment  every instance's shop:shipment is one member of shipments/, the one naming
                       the instance's own order
        approvals      approvals/ holds one approval per order quoted over 100 and none other, each naming
                       its order and that order's quoted price
        notifications  notifications/ holds one notification per order, naming the order and exactly
                       the Location of the order's own shipment (the instance's shop:shipment)

  describe BASE DOC [TRACE]
      the status document DOC (a path, e.g. status/o2) of one instance and what the servers received from
      it, normalised so that the same instance run by another agent on another server gives the same text
      when it made the same requests and writes:
        - BASE (the server's address, in every absolute IRI the agent wrote) becomes "BASE/";
        - the fragment names the agent gives stage, milestone and call nodes (#s-..., #m-..., #c-...,
          hashes of the instance's IRI, which holds the server's address) become what they are: "stage
          Quote", "milestone quoted", "call Quote";
        - a history entry (#t-N) becomes the write that made it (the rank of its time among the
          document's) and the slot it changed, "history write 3: [stage Quote] hasState", its sequence
          number left out: the order of one write's transitions follows the order the agent interned
          terms in, which the other instances it runs change;
        - the instance's own shipment (the server chose its name: the POST's Location) becomes
          <SHIPMENT>, and the member of approvals/, shipments/ or notifications/ that the instance created
          <MEMBER>: another instance's shipment would stay as it is, and differ;
        - times (calledAt, activatedAt, deadline, a transition's at) and the Idempotency-Key (a hash of the
          request, whose URI holds the server's address) are left out.
      With TRACE (its agent's --trace file): the unsafe requests sent for the instance, in order: the
      writes of DOC and the tasks sent after them (method, normalised URI, outcome, status). One withheld
      for an iteration (a read that failed, under load) is sent later, the same. GETs are not
      listed: an agent reads every instance's documents in every iteration until all of them are done, so
      how often it read one depends on the others by design (run_orders.sh bounds the reads per iteration
      instead)."""
import json
import os
import re
import sys
import urllib.request

TERM = r'(<[^>]*>|_:[A-Za-z0-9_.-]+|"(?:[^"\\]|\\.)*"(?:@[A-Za-z0-9-]+|\^\^<[^>]*>)?)'
LINE = re.compile(r'^' + TERM + r' ' + TERM + r' ' + TERM + r' \.$')
SHOP = "https://example.org/shop#"
GSM = "http://purl.org/gsm/vocab#"
LDGSM = "https://w3id.org/ldgsm#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
LDP_CONTAINS = "<http://www.w3.org/ns/ldp#contains>"


def get(url):
    headers = {"Accept": "application/n-triples"}
    if os.environ.get("LDGSM_TEST_AUTHORIZATION"):  # a pod that wants its owner's token (tests/auth/css_auth.sh)
        headers["Authorization"] = os.environ["LDGSM_TEST_AUTHORIZATION"]
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read().decode("utf-8")
    triples = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            raise ValueError("%s: not an N-Triples line: %s" % (url, line))
        triples.append(m.groups())
    return triples


def objects(triples, s, p):
    return [o for (ts, tp, o) in triples if ts == s and tp == p]


def iri(t):
    return t[1:-1] if t.startswith("<") else None


def members(base, container):
    c = "<%s%s>" % (base, container)
    return sorted(iri(o) for o in objects(get(base + container), c, LDP_CONTAINS))


def literal_value(t):
    """A numeric literal's value, for comparing 250 with "250"^^xsd:integer; else the term."""
    m = re.match(r'^"([^"]*)"(\^\^<http://www.w3.org/2001/XMLSchema#(integer|decimal|double)>)?$', t)
    if m and m.group(3):
        try:
            return float(m.group(1))
        except ValueError:
            pass
    return t


class Report:
    def __init__(self):
        self.bad = {}

    def fail(self, name, why):
        self.bad.setdefault(name, []).append(why)

    def done(self, names):
        for name in names:
            if name in self.bad:
                for why in self.bad[name][:10]:
                    print("bad %s: %s" % (name, why))
                if len(self.bad[name]) > 10:
                    print("bad %s: ... %d more" % (name, len(self.bad[name]) - 10))
            else:
                print("ok: %s" % name)


def outcome(base, n):
    r = Report()
    instances = {}  # k -> (instance IRI term, its triples)
    for k in range(1, n + 1):
        doc = "%sstatus/o%d" % (base, k)
        instances[k] = ("<%s#it>" % doc, get(doc))
    order_of, price_of, quote_of, id_of = {}, {}, {}, {}
    for k, (it, ts) in instances.items():
        orders = objects(ts, it, "<%sorder>" % SHOP)
        if len(orders) != 1:
            r.fail("complete", "o%d names %d orders" % (k, len(orders)))
            continue
        order_of[k] = orders[0]
        odoc = iri(orders[0]).split("#")[0]
        ids = objects(get(odoc), orders[0], "<%sid>" % SHOP)
        id_of[k] = ids[0] if len(ids) == 1 else None
        # the quote the order's id names (the model GETs ../quotes/{id})
        qid = ids[0][1:-1] if ids else "?"
        qdoc = "%squotes/%s" % (base, qid)
        quotes = objects(get(qdoc), "<%s#it>" % qdoc, "<%sprice>" % SHOP)
        quote_of[k] = quotes[0] if len(quotes) == 1 else None
        prices = objects(ts, it, "<%sprice>" % SHOP)
        price_of[k] = prices
        if objects(ts, it, "<%sisCompleted>" % LDGSM) != ['"true"^^<http://www.w3.org/2001/XMLSchema#boolean>']:
            r.fail("complete", "o%d is not complete" % k)

    values = [literal_value(q) for q in quote_of.values() if q is not None]
    for what, test in (("below 100", lambda v: v < 100), ("above 100", lambda v: v > 100),
                       ("exactly 100", lambda v: v == 100)):
        if not any(isinstance(v, float) and test(v) for v in values):
            r.fail("classes", "no quote " + what)

    for k in instances:
        if quote_of.get(k) is None:
            r.fail("prices", "o%d: its quote has no single price" % k)
        elif len(price_of[k]) != 1 or literal_value(price_of[k][0]) != literal_value(quote_of[k]):
            r.fail("prices", "o%d: shop:price %s, its quote says %s" % (k, price_of[k], quote_of[k]))

    # shipments: one per order, naming it
    shipment_docs = {}
    for m in members(base, "shipments/"):
        shipment_docs[m] = get(m)
    shipped = {}
    for m, ts in shipment_docs.items():
        s = "<%s>" % m
        os_, ids = objects(ts, s, "<%sorder>" % SHOP), objects(ts, s, "<%sorderId>" % SHOP)
        if len(os_) != 1 or len(ids) != 1:
            r.fail("shipments", "%s names %d orders and %d ids" % (m, len(os_), len(ids)))
            continue
        shipped.setdefault(os_[0], []).append((m, ids[0]))
    for k, o in order_of.items():
        got = shipped.get(o, [])
        if len(got) != 1:
            r.fail("shipments", "order %s of o%d has %d shipments" % (o, k, len(got)))
        elif got[0][1] != id_of[k]:
            r.fail("shipments", "the shipment of order %s says orderId %s, the order's id is %s" % (o, got[0][1], id_of[k]))
    for o in shipped:
        if o not in order_of.values():
            r.fail("shipments", "a shipment names %s, no instance's order" % o)

    for k, (it, ts) in instances.items():
        mine = objects(ts, it, "<%sshipment>" % SHOP)
        if len(mine) != 1:
            r.fail("instance-shipment", "o%d has %d shop:shipment" % (k, len(mine)))
            continue
        m = iri(mine[0])
        if m not in shipment_docs:
            r.fail("instance-shipment", "o%d's shipment %s is not in shipments/" % (k, m))
        elif objects(shipment_docs[m], mine[0], "<%sorder>" % SHOP) != [order_of.get(k)]:
            r.fail("instance-shipment", "o%d's shipment %s names another order" % (k, m))

    # approvals: exactly for the orders quoted over 100
    approved = {}
    for m in members(base, "approvals/"):
        ts, s = get(m), "<%s>" % m
        os_, ps = objects(ts, s, "<%sorder>" % SHOP), objects(ts, s, "<%sprice>" % SHOP)
        if len(os_) != 1 or len(ps) != 1:
            r.fail("approvals", "%s names %d orders and %d prices" % (m, len(os_), len(ps)))
            continue
        approved.setdefault(os_[0], []).append(ps[0])
    for k, o in order_of.items():
        q = quote_of.get(k)
        over = q is not None and isinstance(literal_value(q), float) and literal_value(q) > 100
        got = approved.get(o, [])
        if over and len(got) != 1:
            r.fail("approvals", "o%d is quoted %s: %d approvals" % (k, q, len(got)))
        elif not over and got:
            r.fail("approvals", "o%d is quoted %s, not over 100, yet has %d approvals" % (k, q, len(got)))
        elif over and literal_value(got[0]) != literal_value(q):
            r.fail("approvals", "o%d is quoted %s, its approval says %s" % (k, q, got[0]))
    for o in approved:
        if o not in order_of.values():
            r.fail("approvals", "an approval names %s, no instance's order" % o)

    # notifications: one per order, naming the Location of that order's own shipment
    notified = {}
    for m in members(base, "notifications/"):
        ts, s = get(m), "<%s>" % m
        os_, ss = objects(ts, s, "<%sorder>" % SHOP), objects(ts, s, "<%sshipment>" % SHOP)
        if len(os_) != 1 or len(ss) != 1:
            r.fail("notifications", "%s names %d orders and %d shipments" % (m, len(os_), len(ss)))
            continue
        notified.setdefault(os_[0], []).append(ss[0])
    for k, o in order_of.items():
        got = notified.get(o, [])
        it, ts = instances[k]
        mine = objects(ts, it, "<%sshipment>" % SHOP)
        theirs = [("<%s>" % m) for (m, _) in shipped.get(o, [])]
        if len(got) != 1:
            r.fail("notifications", "order %s of o%d has %d notifications" % (o, k, len(got)))
        elif [got[0]] != mine or [got[0]] != theirs:
            r.fail("notifications", "the notification of o%d names %s; its shop:shipment is %s, the shipment "
                   "naming its order %s" % (k, got[0], mine, theirs))
    for o in notified:
        if o not in order_of.values():
            r.fail("notifications", "a notification names %s, no instance's order" % o)

    r.done(["classes", "complete", "prices", "shipments", "instance-shipment", "approvals", "notifications"])
    return 0


def status_lines(base, doc, ts, own=()):
    """The status document DOC (an absolute IRI; ts its triples, as get gives them) normalised as describe
    says, one sorted line a triple, history entries last; and the function that normalises a term.
    own: (term, NAME) pairs, names that differ between runs for reasons of their own (a member name a
    server chose): the term itself becomes <NAME>, its IRI inside another term NAME. The agent's own
    fragment names, times and keys are handled here. Reused by tests/gsm/property/iso_property.py."""
    it = "<%s#it>" % doc

    def local(t):
        return t[1:-1].rsplit("#", 1)[-1] if t.startswith("<") else t

    # what each node of the document is
    label = {it: "instance"}
    milestones = {s for (s, p, o) in ts if p == "<%s>" % RDF_TYPE and o == "<%sMilestoneInstance>" % GSM}
    for (s, p, o) in ts:
        if s != it and p == "<%sisInstanceOf>" % GSM:
            label[s] = "%s %s" % ("milestone" if s in milestones else "stage", local(o))
    for (s, p, o) in ts:
        if p == "<%sofStage>" % LDGSM and (s, "<%s>" % RDF_TYPE, "<%sCallRecord>" % LDGSM) in ts and o in label:
            label[s] = "call " + label[o].split(" ", 1)[1]
    # A transition is named by the write that made it (the rank of its time among the document's) and the
    # slot it changed: the order of the transitions of one write follows the order the agent interned terms
    # in, which other instances change.
    history = [s for (s, p, o) in ts if p == "<%ssequence>" % LDGSM]
    at = {s: objects(ts, s, "<%sat>" % LDGSM) for s in history}
    writes = sorted({t for ats in at.values() for t in ats})
    for s in history:
        changed = objects(ts, s, "<%schanged>" % LDGSM)
        prop = objects(ts, s, "<%sproperty>" % LDGSM)
        label[s] = "history write %s: %s %s" % (",".join(str(writes.index(t) + 1) for t in at[s]),
                                                 ",".join(label.get(c, c) for c in changed), ",".join(prop))

    def norm(t):
        if t in label:
            return "[%s]" % label[t]
        for term, name in own:
            if t == term:
                return "<%s>" % name
        t = t.replace(base, "BASE/")
        for term, name in own:
            t = t.replace(term[1:-1].replace(base, "BASE/"), name)
        return t

    dropped = {"calledAt", "activatedAt", "deadline", "at", "idempotencyKey"}
    lines = []
    for (s, p, o) in ts:
        if local(p) in dropped or (s in history and local(p) in ("sequence", "changed", "property")):
            continue
        if s not in label and s != "<%s>" % doc:
            lines.append("unlabelled %s %s %s" % (norm(s), norm(p), norm(o)))
            continue
        lines.append("%s %s %s" % (norm(s), norm(p), norm(o)))
    return sorted(lines, key=lambda line: (line.startswith("[history"), line)), norm


def request_lines(doc, trace, norm):
    """The unsafe requests an agent's --trace file lists for the instance whose status document is DOC, in
    order: the writes of DOC and the tasks sent after them, "request METHOD URI OUTCOME STATUS[ task]", URI
    normalised by norm (status_lines's)."""
    out = []
    with open(trace) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("kind") == "request" and rec.get("outcome") == "sent" and \
                    (rec.get("uri") == doc or rec.get("after") == doc):
                out.append("request %s %s %s %s%s" % (rec["method"], norm("<%s>" % rec["uri"]), rec["outcome"],
                                                      rec.get("status"), " task" if rec.get("task") else ""))
    return out


def describe(base, path, trace=None):
    doc = base + path
    it = "<%s#it>" % doc
    ts = get(doc)
    shipment = objects(ts, it, "<%sshipment>" % SHOP)
    order = objects(ts, it, "<%sorder>" % SHOP)
    out, norm = status_lines(base, doc, ts, [(shipment[0], "SHIPMENT")] if shipment else [])

    # what the servers received from this instance: the members naming its order
    for container in ("approvals/", "shipments/", "notifications/"):
        for m in members(base, container):
            mts = get(m)
            if order and any(o == order[0] for (_, _, o) in mts):
                for (s, p, o) in sorted(mts):
                    s = "<MEMBER>" if s == "<%s>" % m else norm(s)
                    out.append("received %s %s %s %s" % (container, s, norm(p), norm(o)))

    if trace:
        out += request_lines(doc, trace, norm)
    print("\n".join(out))
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "outcome":
        return outcome(argv[1], int(argv[2]))
    if len(argv) in (3, 4) and argv[0] == "describe":
        return describe(argv[1], argv[2], argv[3] if len(argv) == 4 else None)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
