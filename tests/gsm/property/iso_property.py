#!/usr/bin/env python3
"""iso_property.py: the isolation property of DESIGN section 8 as a property test: any set of instances
run by one agent makes, for each instance, the same writes and requests as that instance run alone.

For each case (seed S + case number) it generates
  - a model whose stages read each instance's own data through gsm:thisArtifactInstance: guards and
    milestones are alternatives of conjunctions of atoms: FILTERs over the instance's values (ex:level,
    ex:tag), over documents reached through links from it (its item's ex:size, 1 hop; the item's
    supplier's ex:rating, 2 hops), over what earlier tasks' answers bound on it (ex:price_Sj, ex:status_Sj),
    and earlier stages' milestones; stages nest up to depth 2 and a root milestone may end the workflow;
  - tasks (most stages have one): an ldgsm:Call to tests/gsm/property/iso_service.py, GET, POST or PUT,
    with ldgsm:arguments (a SELECT of the instance's id, level, tag, item and at times an earlier task's
    bound price or Location) filling an RFC 6570 URI template (path and query), header templates and an N3
    body template, and ldgsm:results binding the answer's price (a SELECT over its RDF), status code,
    Location and X-Ticket header as ex:price_Si, ex:status_Si, ex:loc_Si, ex:ticket_Si. The service's
    answer is a function of the request, so instances with other data get other answers;
  - "leak" sentries reading answer data without gsm:thisArtifactInstance (`?q ex:price ?p FILTER(?p > k)`):
    guard alternatives of some stages, and the only condition of a stage L1 with a task. The answers' RDF
    is kept in the call record as text, so no sentry matches it and such a condition never holds; where
    it was added to the status document as triples (fafc3d1 and before), one instance's answer opened
    another's stage;
  - M instances (3 to 6) with random data: items and suppliers shared by several instances, levels and
    tags often equal, at times two instances with exactly the same data (their requests must not merge);
    ids and tags with spaces, '/', '&', '%', '?' and non-ASCII letters.

The M instances run under one agent (`ldgsm run --instance ... -n 0 --until quiescent --iterations N
--trace`) on a fresh `ldgsm serve --memory`; then each instance alone on a fresh server with the same
fixture. Each run must become quiescent (exit 0, or 6 with an instance waiting: a stage whose arguments
have no solution), every service request of a run must carry the Idempotency-Key of exactly one
instance's call record, no key may be refused (409, 422), no write or task withheld (but for two instances'
PUTs to one URI taking turns), conflicting, refused or failed, and ldgsm serve must exit 0 on SIGTERM. Per instance, the text compared (joint against alone) is
  - its status document, normalised by tests/gsm/orders_check.py status_lines (server address, the
    agent's hashed fragment names, times, Idempotency-Keys, the order of one write's transitions);
  - the writes and tasks its --trace lists (orders_check.request_lines), each iteration's sorted;
  - what the service received under its keys: method, path, headers (but Host, Connection, Content-Length,
    whose number of digits follows the server's port, and the key's value), body with the LDP server's
    address as BASE/, outcome and status; sorted;
  - the held: and waiting: lines the agent's log says of it.
Every difference fails, printing the seed, the case and a diff; ISOLATION_SEED=S replays the run (S+c
being case c: ISOLATION_SEED=S+c ISOLATION_CASES=1 replays it alone). Every generated model must pass
`ldgsm lint` without an error (the leak sentries are warnings: nothing the crawl reads binds them). The
run must have made requests, and some case must have instances taking different paths (opening other
stages), else it proves little.

Guards also read a bound result without gsm:thisArtifactInstance (`?q ex:price_Sj ?p FILTER(?p > k)`):
results are written into each instance's status document, and an agent that evaluated each instance's
sentries over every instance's documents let one instance's result open another's stage (--no-result-leak
leaves that shape out, for runs against such agents). PUT tasks may use values their URI does not hold
in their headers and body, so two instances may PUT one URI with other bytes in one iteration: their
writes take turns (an agent that withheld both as conflicting writes did so in every iteration, a
livelock; --no-put-conflict leaves that shape out).

--methods POST,PUT leaves GET tasks out (an agent before a71fc98 did not send a GET task: "a stratification
error"), --no-lint the lint check, for runs against older agents.

usage: iso_property.py LDGSM [--seed N] [--cases 16] [--instances MIN-MAX] [--methods GET,POST,PUT]
                       [--no-result-leak] [--no-put-conflict] [--no-lint] [--keep]
"""
import difflib
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import orders_check  # noqa: E402  (tests/gsm/orders_check.py: the normalisation of status documents)

EX = "https://example.org/iso#"
GSM = "http://purl.org/gsm/vocab#"
LDGSM = "https://w3id.org/ldgsm#"
WAIT = int(os.environ.get("LDGSM_TEST_WAIT", "30"))
OPS = [">", ">=", "<", "<=", "=", "!="]
IDS = ["a1", "b 2", "c/3", "\u00e94", "d&5", "x%20", "q?1", "z9"]
TAGS = ["red", "green blue", "\u00fcn\u00ef", "a&b", "50%", "red"]
PREFIXES = "PREFIX gsm: <%s>\nPREFIX ldgsm: <%s>\nPREFIX ex: <%s>\n" % (GSM, LDGSM, EX)
STALL = re.compile(r"^(?:warning: )?(held|waiting): <([^>]*)>: (.*)$")


# --- generation -----------------------------------------------------------------------------------------

class Case:
    """One generated case: the model (stages S1..Sn under root), the linked documents and M instances."""

    def __init__(self, rng, n_min, n_max, result_leak, put_conflict, methods):
        self.rng, self.methods = rng, methods
        self.result_leak, self.put_conflict = result_leak, put_conflict
        self.suppliers = {"p%d" % i: rng.randint(0, 4) for i in range(rng.randint(1, 3))}
        m = rng.randint(n_min, n_max)
        self.items = {}
        for i in range(rng.randint(2, max(2, m - 1))):
            self.items["i%d" % i] = {"id": rng.choice(IDS), "size": rng.randint(0, 5),
                                     "supplier": rng.choice(sorted(self.suppliers))}
        self.instances = []
        for k in range(m):
            if self.instances and rng.random() < 0.15:  # exactly another's data
                self.instances.append(dict(rng.choice(self.instances)))
                continue
            other = rng.choice(self.instances) if self.instances else None
            self.instances.append({
                "item": rng.choice(sorted(self.items)),
                "level": other["level"] if other and rng.random() < 0.3 else rng.randint(0, 5),
                "tag": other["tag"] if other and rng.random() < 0.3 else rng.choice(TAGS)})
        self.stages = []  # dicts: name, parent, depth, guard (list of conditions), milestone, task
        for i in range(1, rng.randint(2, 6) + 1):
            name = "S%d" % i
            parents = [s for s in self.stages if s["depth"] < 2]
            parent = rng.choice(parents) if parents and rng.random() < 0.25 else None
            stage = {"name": name, "parent": parent["name"] if parent else "root",
                     "depth": parent["depth"] + 1 if parent else 1}
            earlier = list(self.stages)
            stage["task"] = self.task(name, earlier) if rng.random() < 0.8 else None
            stage["guard"] = [self.conjunction(earlier, rng.randint(1, 2)) for _ in range(rng.randint(1, 2))]
            if rng.random() < 0.4:
                stage["guard"].append([("leak", rng.choice(OPS[:2]), rng.randint(0, 240))])
            if result_leak and rng.random() < 0.5 and [s for s in earlier if s["task"]]:
                j = rng.choice([s for s in earlier if s["task"]])["name"]
                stage["guard"].append([("result-leak", j, rng.randint(0, 240))])
            # a stage with a task completes when its call is answered (and at times more); one without
            # when a condition on the instance's own data holds
            if stage["task"]:
                achieving = [("answered", name)]
                if rng.random() < 0.3:
                    achieving.append(("price", name, rng.choice(OPS[:4]), rng.randint(40, 210)))
                stage["milestone"] = [achieving]
            else:
                stage["milestone"] = [self.conjunction(earlier, 1)]
            self.stages.append(stage)
        # A stage whose only condition is a leak, with a task: where answers were triples in the status
        # documents, it opened for an instance whose own answers never said a price over k as soon as
        # another's did (prices are uniform in 0..249: some are over k, most of one instance's are not).
        self.stages.append({"name": "L1", "parent": "root", "depth": 1, "task": self.task("L1", []),
                            "guard": [[("leak", ">", rng.randint(180, 235))]], "milestone": [[("answered", "L1")]]})
        done = [s["name"] for s in self.stages if s["name"] != "L1"]
        self.root_milestone = [[("done", rng.choice(done))] + ([self.value_atom(rng.choice(self.instances))]
                                                               if rng.random() < 0.5 else [])] \
            if rng.random() < 0.6 else [[("never",)]]

    def value_of(self, kind, inst):
        item = self.items[inst["item"]]
        return {"level": inst["level"], "tag": inst["tag"], "size": item["size"],
                "rating": self.suppliers[item["supplier"]]}[kind]

    def value_atom(self, inst):
        """An atom over the instance's own data (or its links) that holds for inst: the others may or may
        not satisfy it, so the guards part the instances."""
        rng = self.rng
        kind = rng.choice(["level", "level", "size", "rating", "tag"])
        v = self.value_of(kind, inst)
        if kind == "tag":
            others = [t for t in TAGS if t != v]
            return ("tag", "=", v) if rng.random() < 0.6 else ("tag", "!=", rng.choice(others))
        op = rng.choice(OPS)
        k = {">": v - rng.randint(1, 2), ">=": v - rng.randint(0, 1), "<": v + rng.randint(1, 2),
             "<=": v + rng.randint(0, 1), "=": v, "!=": v + rng.choice([-1, 1])}[op]
        return (kind, op, k)

    def conjunction(self, earlier, n):
        """n atoms: over the data of one instance picked at random (they all hold for it), earlier stages'
        milestones and what earlier tasks bound (price, status)."""
        rng = self.rng
        inst = rng.choice(self.instances)
        atoms = []
        for _ in range(n):
            r = rng.random()
            with_task = [s for s in earlier if s["task"]]
            if earlier and r < 0.25:
                atoms.append(("done", rng.choice(earlier)["name"]))
            elif with_task and r < 0.5:
                j = rng.choice(with_task)["name"]
                if rng.random() < 0.7:
                    atoms.append(("price", j, rng.choice(OPS[:4]), rng.randint(60, 190)))
                else:
                    atoms.append(("status", j, rng.choice([200, 201])))
            else:
                atoms.append(self.value_atom(inst))
        return atoms

    def task(self, name, earlier):
        rng = self.rng
        method = rng.choice([m for m in ["GET", "GET", "POST", "POST", "PUT"] if m in self.methods])
        uri, in_uri = rng.choice([("{svc}/%s/{id}{?level,tag}", {"id", "level", "tag"}),
                                  ("{svc}/%s/{level}/{id}", {"id", "level"}), ("{svc}/%s/t{?tag}", {"tag"}),
                                  ("{svc}/%s{/id,level}", {"id", "level"})])
        uri %= name
        variables = ["id", "level", "tag", "item"]
        where = ["gsm:thisArtifactInstance ex:item ?item ; ex:level ?level ; ex:tag ?tag .", "?item ex:id ?id ."]
        prev = [s for s in earlier if s["task"]]
        uses = None
        if prev and rng.random() < 0.4:
            j = rng.choice(prev)["name"]
            uses = (rng.choice(["price", "loc"]), j)
            variables.append("prev")
            where.append("gsm:thisArtifactInstance ex:%s_%s ?prev ." % uses)
            if uses[0] == "price" and rng.random() < 0.5:
                uri += "{&prev}" if "{?" in uri else "{?prev}"
                in_uri.add("prev")
        # Two instances whose PUTs name one URI in one iteration with other bytes take turns; with
        # --no-put-conflict a PUT's headers and body use only what its URI holds, so that one URI is one
        # request.
        same = method == "PUT" and not self.put_conflict
        headers = []
        if method != "GET":
            headers.append(("Content-Type", "text/turtle"))
        if rng.random() < 0.6:
            header = rng.choice(["{tag}-{level}", "{id}", "level {level}"])
            if not same or set(re.findall(r"{(\w+)}", header)) <= in_uri:
                headers.append(("X-Iso", header))
        if uses and uses[0] == "price" and rng.random() < 0.5 and (not same or "prev" in in_uri):
            headers.append(("X-Prev", "{prev}"))
        body = None
        if method != "GET":
            props = ["ex:item ?item", "ex:level ?level", "ex:tag ?tag"]
            rng.shuffle(props)
            props = props[:rng.randint(1, 3)]
            if uses:
                props.append("ex:prev ?prev")
            if same:
                props = [p for p in props if p.split("?")[1] in in_uri]
            body = "@prefix ex: <%s> .\n<> a ex:Request%s ." % (EX, "".join(" ; " + p for p in props))
        results = [("price", "select")]
        for what in ("status", "loc", "ticket"):
            if rng.random() < 0.7:
                results.append((what, {"status": "status", "loc": "location", "ticket": "header"}[what]))
        return {"method": method, "uri": uri, "select": variables, "where": where, "headers": headers,
                "body": body, "results": results}

    # --- rendering ----------------------------------------------------------------------------------

    def atom_text(self, atom, k):
        kind = atom[0]
        if kind == "level":
            return "gsm:thisArtifactInstance ex:level ?v%d . FILTER(?v%d %s %d)" % (k, k, atom[1], atom[2])
        if kind == "tag":
            return "gsm:thisArtifactInstance ex:tag ?v%d . FILTER(?v%d %s %s)" % (k, k, atom[1], literal(atom[2]))
        if kind == "size":
            return "gsm:thisArtifactInstance ex:item ?i%d . ?i%d ex:size ?v%d . FILTER(?v%d %s %d)" % (
                k, k, k, k, atom[1], atom[2])
        if kind == "rating":
            return ("gsm:thisArtifactInstance ex:item ?i%d . ?i%d ex:supplier ?s%d . ?s%d ex:rating ?v%d . "
                    "FILTER(?v%d %s %d)" % (k, k, k, k, k, k, atom[1], atom[2]))
        if kind == "done":
            return ("?m%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf <#%s-done> ; "
                    "gsm:isAchieved true ." % (k, atom[1]))
        if kind == "answered":
            return ("?c%d ldgsm:ofStage ?t%d ; ldgsm:callState ldgsm:answered ; gsm:inArtifactInstance "
                    "gsm:thisArtifactInstance . ?t%d gsm:isInstanceOf <#%s> ." % (k, k, k, atom[1]))
        if kind == "price":
            return "gsm:thisArtifactInstance ex:price_%s ?v%d . FILTER(?v%d %s %d)" % (atom[1], k, k, atom[2], atom[3])
        if kind == "status":
            return "gsm:thisArtifactInstance ex:status_%s %d ." % (atom[1], atom[2])
        if kind == "leak":  # answer data, read without the instance
            return "?q%d ex:price ?v%d . FILTER(?v%d %s %d)" % (k, k, k, atom[1], atom[2])
        if kind == "result-leak":  # a bound result, read without the instance
            return "?q%d ex:price_%s ?v%d . FILTER(?v%d > %d)" % (k, atom[1], k, k, atom[2])
        if kind == "never":
            return "gsm:thisArtifactInstance ex:never true ."
        raise ValueError(kind)

    def model(self, svc):
        out = ["@prefix gsm: <%s> ." % GSM, "@prefix sp: <http://spinrdf.org/sp#> .",
               "@prefix http: <http://www.w3.org/2011/http#> .",
               "@prefix httpm: <http://www.w3.org/2011/http-methods#> .", "@prefix ldgsm: <%s> ." % LDGSM,
               "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .", "@prefix ex: <%s> ." % EX, ""]
        sentries = []

        def sentry(conjunction):
            name = "q%d" % len(sentries)
            body = "\n      ".join(self.atom_text(a, k) for k, a in enumerate(conjunction))
            sentries.append('<#%s> a sp:Ask ; sp:text """%sASK { %s }""" .' % (name, PREFIXES, body))
            return "<#%s>" % name

        children = {}
        for s in self.stages:
            children.setdefault(s["parent"], []).append(s["name"])
        out.append("<#root> a gsm:Stage ; gsm:hasChildStage %s ;\n    gsm:hasMilestone <#root-done> ." %
                   ", ".join("<#%s>" % c for c in children["root"]))
        out.append("<#root-done> a gsm:Milestone ; gsm:hasAchievingSentry %s ." %
                   ", ".join(sentry(c) for c in self.root_milestone))
        for s in self.stages:
            n = s["name"]
            props = ["a gsm:Stage", "gsm:hasGuard [ a gsm:Guard ; gsm:hasCondition %s ]" %
                     ", ".join(sentry(c) for c in s["guard"]), "gsm:hasMilestone <#%s-done>" % n]
            if n in children:
                props.append("gsm:hasChildStage " + ", ".join("<#%s>" % c for c in children[n]))
            if s["task"]:
                props.append("gsm:hasHttpRequest <#%s-call>" % n)
                out.append(self.task_text(n, s["task"], svc))
            out.append("<#%s> %s ." % (n, " ;\n    ".join(props)))
            out.append("<#%s-done> a gsm:Milestone ; gsm:hasAchievingSentry %s ." %
                       (n, ", ".join(sentry(c) for c in s["milestone"])))
        return "\n".join(out + [""] + sentries) + "\n"

    def task_text(self, n, t, svc):
        results = []
        for what, source in t["results"]:
            if source == "select":
                src = '[ a sp:Select ; sp:text "SELECT ?p WHERE { ?q <%sprice> ?p }" ]' % EX
            elif source == "header":
                src = '[ ldgsm:header "X-Ticket" ]'
            else:
                src = "ldgsm:" + source
            results.append("[ ldgsm:property ex:%s_%s ; ldgsm:from %s ]" % (what, n, src))
        lines = ['<#%s-call> a ldgsm:Call ; ldgsm:timeout "PT60S"^^xsd:dayTimeDuration ; ldgsm:alternatives ( <#%s-request> ) ;'
                 % (n, n), "    ldgsm:results ( %s ) ." % "\n        ".join(results)]
        req = ["<#%s-request> a http:Request ; http:mthd httpm:%s ;" % (n, t["method"]),
               "    http:requestURI %s ;" % literal(t["uri"].replace("{svc}", svc)),
               '    ldgsm:arguments [ a sp:Select ; sp:text """%sSELECT %s WHERE { %s }""" ]' % (
                   PREFIXES, " ".join("?" + v for v in t["select"]), "\n    ".join(t["where"]))]
        if t["headers"]:
            req[-1] += " ;"
            req.append("    http:headers ( %s )" % " ".join(
                "[ http:fieldName %s ; http:fieldValue %s ]" % (literal(k), literal(v)) for k, v in t["headers"]))
        if t["body"]:
            req[-1] += " ;"
            req.append('    http:body """%s"""' % t["body"])
        return "\n".join(lines + req) + " ."

    def fixture(self, root, svc):
        """Writes the fixture (model, items, suppliers, instances) under root, for ldgsm serve --fixtures."""
        for d in ("models", "items", "suppliers", "status"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        write(os.path.join(root, "models", "m"), self.model(svc))
        for name, rating in self.suppliers.items():
            write(os.path.join(root, "suppliers", name), "<#it> <%srating> %d .\n" % (EX, rating))
        for name, item in self.items.items():
            write(os.path.join(root, "items", name), "@prefix ex: <%s> .\n<#it> ex:id %s ; ex:size %d ;\n"
                  "    ex:supplier <../suppliers/%s#it> .\n" % (EX, literal(item["id"]), item["size"], item["supplier"]))
        for k, inst in enumerate(self.instances):
            write(os.path.join(root, "status", "i%d" % k), (
                "@prefix gsm: <%s> .\n@prefix ex: <%s> .\n<#it> a gsm:StageInstance ; gsm:isInstanceOf "
                "<../models/m#root> ;\n    gsm:hasState gsm:uninitialized ;\n    ex:item <../items/%s#it> ; "
                "ex:level %d ; ex:tag %s .\n") % (GSM, EX, inst["item"], inst["level"], literal(inst["tag"])))

    def iterations(self):
        """A bound on the iterations a run takes to become quiescent, with room to spare: set-up takes 1,
        a stage at most 3 (open and send, answered, milestone)."""
        return 10 + 3 * len(self.stages)


def literal(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# --- processes --------------------------------------------------------------------------------------------

def first_line(proc, err_path, what):
    ready, _, _ = select.select([proc.stdout], [], [], WAIT)
    line = proc.stdout.readline().strip() if ready else ""
    if not line:
        proc.kill()
        proc.wait()
        raise RuntimeError("%s did not start: %s" % (what, open(err_path).read()))
    return line


def stop(proc):
    """SIGTERM to the process we started, by its PID; killed when it does not end within WAIT."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Server:
    def __init__(self, ldgsm, fixture, work, name):
        self.err = os.path.join(work, name + ".serve.log")
        self.proc = subprocess.Popen([ldgsm, "serve", "--memory", "--port", "0", "--fixtures", fixture],
                                     stdout=subprocess.PIPE, stderr=open(self.err, "w"), text=True)
        self.base = first_line(self.proc, self.err, "ldgsm serve")


# --- one run and what it did for each instance --------------------------------------------------------------

class Run:
    """One agent run of some instances of a case on a fresh server, and per instance its normalised text."""

    def __init__(self, ldgsm, case, fixture, work, name, which, svc_log):
        self.name, self.problems, self.texts, self.stats = name, [], {}, {}
        server = Server(ldgsm, fixture, work, name)
        base = server.base
        try:
            start = os.path.getsize(svc_log)
            trace = os.path.join(work, name + ".jsonl")
            log = os.path.join(work, name + ".log")
            # --read-wait 0: a GET answered late under load (2 s, the default wait) would hold an instance's
            # writes in one run and not in the other, a difference of timing the comparison is not about
            args = [ldgsm, "run", "-n", "0", "--until", "quiescent", "--iterations", str(case.iterations()),
                    "--read-wait", "0", "--trace", trace]
            for k in which:
                args += ["--instance", "%sstatus/i%d#it" % (base, k)]
            try:
                rc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=open(log, "w"), timeout=WAIT * 4).returncode
            except subprocess.TimeoutExpired:
                rc = "killed after %d s" % (WAIT * 4)
            # 0: quiescent; 6: quiescent with an instance waiting (a stage whose arguments have no
            # solution) or held; 3 (requests withheld) or 4 (a call still calling) when --iterations ended
            # first. The held: and waiting: lines the agent said of an instance, at the end or on the way
            # (a stage waiting for a result that a later answer binds), are compared as its own.
            stalls = {}
            with open(log, errors="replace") as f:
                for line in f:
                    m = STALL.match(line.rstrip("\n"))
                    if m:
                        said = re.sub(r"#([scmt])-[0-9a-f]+\b", r"#\1-<hash>", m.group(3).replace(base, "BASE/"))
                        stalls.setdefault(m.group(2), set()).add("%s: %s" % (m.group(1), said))
            if rc not in (0, 6):
                self.problems.append("%s: the agent exits %s: %s" % (name, rc, tail(log)))
            self.check_trace(trace)
            with open(svc_log, encoding="utf-8") as f:
                f.seek(start)
                received = [json.loads(line) for line in f if line.strip()]
            keys = {}
            for k in which:
                doc = "%sstatus/i%d" % (base, k)
                ts = orders_check.get(doc)
                lines, norm = orders_check.status_lines(base, doc, ts)
                requests = orders_check.request_lines(doc, trace, norm)
                self.texts[k] = lines + sorted_by_iteration(requests, doc, trace) + \
                    sorted("said " + line for line in stalls.get(doc + "#it", ()))
                mine = {o[1:-1] for (s, p, o) in ts if p == "<%sidempotencyKey>" % LDGSM}
                for key in mine:
                    keys.setdefault(key, []).append(k)
                self.stats[k] = {"calls": len(mine)}
            per = {k: [] for k in which}
            for rec in received:
                owners = keys.get(rec["key"], [])
                if len(owners) != 1:
                    self.problems.append("%s: the service received %s %s under key %s, which %d instances' call "
                                         "records name" % (name, rec["method"], rec["path"], rec["key"], len(owners)))
                    continue
                if rec["outcome"] in ("mismatch", "conflict"):
                    self.problems.append("%s: the service refused %s %s of i%d: %s %s"
                                         % (name, rec["method"], rec["path"], owners[0], rec["outcome"], rec["status"]))
                per[owners[0]].append(received_line(rec, base))
            for k in which:
                self.texts[k] += sorted(per[k])
                self.stats[k]["received"] = len(per[k])
        finally:
            stop(server.proc)
            if server.proc.returncode != 0:  # a sanitizer's report, or killed
                self.problems.append("%s: ldgsm serve exits %s on SIGTERM: %s" % (name, server.proc.returncode,
                                                                                 tail(server.err)))

    def check_trace(self, trace):
        records = []
        try:
            with open(trace) as f:
                records = [json.loads(line) for line in f if line.strip()]
        except OSError as e:
            self.problems.append("%s: no trace: %s" % (self.name, e))
            return
        last = [r for r in records if r.get("kind") == "iteration"][-1:]
        if not last or any(r.get("sent") or r.get("calling") or r.get("unsafe") for r in last):
            self.problems.append("%s: the run did not become quiescent: its last iteration: %s" % (
                self.name, [{k: r.get(k) for k in ("iteration", "unsafe", "sent", "calling")} for r in last]))
        # yielded (close wins over an opening, DESIGN section 5) and unchanged are the rules' own doing; a
        # PUT withheld while another instance's PUT to its URI goes first, with the status write waiting
        # on it and that write's other tasks, is their turn-taking (agent/plan.h invariant 2): their step
        # comes an iteration later
        turns = {r.get("iteration") for r in records if r.get("kind") == "request" and r.get("outcome") == "withheld"
                 and (r.get("reason") or "").startswith(TURN_TAKEN)}
        waiting = (TURN_TAKEN, "a task waiting on this write is withheld", "the write it waits for is withheld")
        bad = [r for r in records if r.get("kind") == "request" and r.get("outcome") not in ("sent", "yielded", "unchanged")
               and not (r.get("outcome") == "withheld" and r.get("iteration") in turns
                        and (r.get("reason") or "").startswith(waiting))]
        bad += [r for r in records if r.get("kind") == "request" and r.get("outcome") == "sent"
                and not (200 <= (r.get("status") or 0) < 300)]
        bad += [r for r in records if r.get("kind") == "get" and r.get("outcome") not in ("read", "absent")]
        for r in bad[:5]:
            self.problems.append("%s: iteration %s: %s %s %s %s %s" % (
                self.name, r.get("iteration"), r.get("kind"), r.get("method", "GET"), r.get("uri"), r.get("outcome"),
                r.get("reason") or r.get("status")))


TURN_TAKEN = "another instance's write to the same resource goes first"


def sorted_by_iteration(lines, doc, trace):
    """request_lines's lines, those of one iteration sorted: the tasks one write sends go out in the
    order the agent's plan lists them, which follows its term numbering, which other instances change."""
    iteration_of = []
    with open(trace) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("kind") == "request" and rec.get("outcome") == "sent" and \
                    (rec.get("uri") == doc or rec.get("after") == doc):
                iteration_of.append(rec["iteration"])
    groups = {}
    for it, line in zip(iteration_of, lines):
        groups.setdefault(it, []).append(line)
    out = []
    for n, it in enumerate(sorted(groups)):
        out += ["%s (step %d)" % (line, n + 1) for line in sorted(groups[it])]
    return out


HOP = {"host", "connection", "keep-alive", "content-length"}


def received_line(rec, base):
    headers = []
    for name, value in rec["headers"]:
        if name.lower() in HOP:
            continue
        headers.append("%s: %s" % (name, "<key>" if name.lower() == "idempotency-key" else value))
    return "received %s %s | %s | %s | %s %s" % (rec["method"], rec["path"], " | ".join(headers),
                                                  json.dumps(rec["body"].replace(base, "BASE/"), ensure_ascii=False),
                                                  rec["outcome"], rec["status"])


def tail(path, n=5):
    try:
        with open(path) as f:
            return " / ".join(f.read().splitlines()[-n:])
    except OSError:
        return ""


# --- the property ----------------------------------------------------------------------------------------

def run_case(ldgsm, seed, n_min, n_max, known, lint, work, svc, svc_log):
    rng = random.Random(seed)
    case = Case(rng, n_min, n_max, not known["--no-result-leak"], not known["--no-put-conflict"], known["--methods"].split(","))
    fixture = os.path.join(work, "fixture")
    case.fixture(fixture, svc)
    problems = []
    if lint:
        res = subprocess.run([ldgsm, "lint", os.path.join(fixture, "models", "m")], capture_output=True, text=True)
        if res.returncode != 0 or re.search(r"\berror:", res.stdout + res.stderr):
            problems.append("ldgsm lint exits %d: %s" % (res.returncode, (res.stdout + res.stderr).strip()))
    m = len(case.instances)
    joint = Run(ldgsm, case, fixture, work, "joint", range(m), svc_log)
    problems += joint.problems
    alone = {}
    for k in range(m):
        alone[k] = Run(ldgsm, case, fixture, work, "alone-%d" % k, [k], svc_log)
        problems += alone[k].problems
    diffs = []
    for k in range(m):
        a, b = joint.texts.get(k, []), alone[k].texts.get(k, [])
        write(os.path.join(work, "joint-%d.txt" % k), "\n".join(a) + "\n")
        write(os.path.join(work, "alone-%d.txt" % k), "\n".join(b) + "\n")
        if a != b:
            diffs.append((k, list(difflib.unified_diff(a, b, "i%d beside the others" % k, "i%d alone" % k,
                                                       lineterm="", n=0))))
    stats = {"instances": m, "stages": len(case.stages),
             "calls": sum(alone[k].stats.get(k, {}).get("calls", 0) for k in range(m)),
             "received": sum(alone[k].stats.get(k, {}).get("received", 0) for k in range(m)),
             "paths": len({path(alone[k].texts.get(k, [])) for k in range(m)}),
             "leaks": sum(1 for s in case.stages for c in s["guard"] for a in c if a[0] in ("leak", "result-leak"))}
    return problems, diffs, stats


def path(text):
    """The stages an instance opened or closed (those its history names, set-up aside)."""
    return tuple(sorted({m.group(1) for line in text for m in [re.match(r"\[history write \d+: stage (\S+) ", line)] if m}))


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    ldgsm = os.path.abspath(argv[0])
    defaults = {"--seed": None, "--cases": "16", "--instances": "3-6", "--methods": "GET,POST,PUT"}
    opts = dict(defaults)
    flags = {"--no-result-leak": False, "--no-put-conflict": False, "--no-lint": False, "--keep": False}
    rest = argv[1:]
    i = 0
    while i < len(rest):
        if rest[i] in flags:
            flags[rest[i]] = True
            i += 1
        elif rest[i] in opts and i + 1 < len(rest):
            opts[rest[i]] = rest[i + 1]
            i += 2
        else:
            print("unknown option " + rest[i], file=sys.stderr)
            return 2
    seed = int(opts["--seed"] or os.environ.get("ISOLATION_SEED") or random.SystemRandom().randrange(1 << 31))
    cases = int(opts["--cases"])
    n_min, n_max = (int(x) for x in opts["--instances"].split("-"))
    print("iso_property: seed %d, %d cases%s" % (seed, cases, "".join(
        ", " + f[2:] for f in ("--no-result-leak", "--no-put-conflict") if flags[f])), flush=True)
    work = tempfile.mkdtemp(prefix="ldgsm-isolation.")
    svc_log = os.path.join(work, "service.log")
    open(svc_log, "w").close()
    svc_err = os.path.join(work, "service.err")
    service = subprocess.Popen([sys.executable, os.path.join(HERE, "iso_service.py"), "0", svc_log],
                               stdout=subprocess.PIPE, stderr=open(svc_err, "w"), text=True)
    failed = False
    totals = {"instances": 0, "stages": 0, "calls": 0, "received": 0, "leaks": 0, "separated": 0}
    try:
        svc = "http://127.0.0.1:" + first_line(service, svc_err, "iso_service.py")
        for c in range(cases):
            case_work = os.path.join(work, "case%d" % c)
            os.makedirs(case_work)
            problems, diffs, stats = run_case(ldgsm, seed + c, n_min, n_max, dict(flags, **opts),
                                              not flags["--no-lint"], case_work, svc, svc_log)
            for k in totals:
                totals[k] += stats.get(k, 0)
            totals["separated"] += stats["paths"] > 1
            print("case %d (seed %d): %d instances, %d stages (%d leak conditions), %d calls, %d requests received, "
                  "%d paths: %s" % (c, seed + c, stats["instances"], stats["stages"], stats["leaks"],
                                    stats["calls"], stats["received"], stats["paths"],
                                                     "FAIL" if problems or diffs else "ok"), flush=True)
            if problems or diffs:
                failed = True
                for p in problems[:15]:
                    print("  " + p)
                for k, d in diffs:
                    print("  i%d makes other writes or requests beside the others than alone:" % k)
                    for line in d[:40]:
                        print("    " + line)
                    if len(d) > 40:
                        print("    ... %d more lines" % (len(d) - 40))
                print("  model and texts: %s (model: fixture/models/m, joint-K.txt, alone-K.txt)" % case_work)
                extra = [f for f in ("--no-result-leak", "--no-put-conflict", "--no-lint") if flags[f]]
                extra += ["--%s %s" % (o[2:], opts[o]) for o in ("--instances", "--methods") if opts[o] != defaults[o]]
                print("reproduce: python3 tests/gsm/property/iso_property.py LDGSM --seed %d --cases 1%s (the whole "
                      "run: --seed %d --cases %d)" % (seed + c, "".join(" " + e for e in extra), seed, cases))
                if not extra:
                    print("  or: ISOLATION_SEED=%d ISOLATION_CASES=1 tests/gsm/run_gsm_isolation.sh LDGSM" % (seed + c))
                break
        if not failed:
            # what the comparison held: calls made, and instances of one model taking different paths
            if totals["received"] == 0 or totals["separated"] == 0:
                print("FAIL: seed %d: the cases made %d requests, %d of them had instances taking different paths: "
                      "the comparison held too little" % (seed, totals["received"], totals["separated"]))
                failed = True
            else:
                print("iso_property: seed %d: %d cases (%d with instances taking different paths), %d instances, %d "
                      "stages (%d leak conditions), %d calls, %d requests: each instance alone made the same writes "
                      "and requests as beside the others" % (seed, cases, totals["separated"], totals["instances"],
                                                             totals["stages"], totals["leaks"], totals["calls"],
                                                             totals["received"]))
    finally:
        stop(service)
        if failed or flags["--keep"]:
            print("work kept in " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
