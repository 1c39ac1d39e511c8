#!/usr/bin/env python3
"""property.py: the property test of `ldgsm compile` (seed 004) against the reference interpreter
(interp.py). For each of N random pattern terms (nesting depth up to 4; over a run every kernel and
policy appears: task, seq, par, join all/sync_merge/first_complete/first_n/n_of_m, xor with when/else,
loop while/until/count, defer, cancel activity/region/case, mi fixed/dynamic with each policy, and two
shapes whose tasks answer at once, so that what stops branches happens while they run: a failure some
seqs deep in one branch beside a long seq, a join whose K-th winner ends while its losers have tasks left) it
compiles the term, serves the model with `ldgsm serve --memory` and drives one stepped agent
(`ldgsm run --step`) under a random environment script. Tasks are answered by an in-process task
service: each send's outcome (ok: 204; fail: 403, which a call does not retry; held: 202 whose result
answers 404 until the script releases it) is a function of the task's path and activation, or fixed for
every send of a task of those shapes. The script
changes one thing at a time (a condition or event flips, a held task is released, an item list grows),
then steps the agent until quiescence (the status document, minus clock-derived values, unchanged for 3
iterations) and checks:

  TOKEN     the active task stages equal the interpreter's tokens() after settle() under the same
            environment;
  STATUS    the root's done/failed/cancelled milestones agree with status();
  ORDER     the (path, activation) pairs the service saw sent since the last quiescent point equal the
            interpreter's new started() entries, but for the one deviation ontology/README.md names
            ("Entering a term costs a poll": a start the model makes a step later than the
            interpreter, or never; see Run.lagging_starts; counted in a note line). A task the
            interpreter never starts is a failure, whether or not the model closed it again;
  PROGRESS  each change settles within MAX_SETTLE iterations; when the interpreter says the workflow is
            blocked at the end, `ldgsm status` shows each wait (the agent's log has no waiting: line for
            a call still calling or an event not yet true: those are no stalls);
  GSM-1/2   after every iteration, GSM-1, GSM-2 and the rule table (tests/gsm/property/gsm_status.py);
  DETERM    the same term and script on a fresh server give the same status documents at the quiescent
            points (fragments named by model terms, clock-derived values and keys dropped).

usage: property.py LDGSM [--terms N] [--seed N] [--determ-every K] [--term T [--init N=V,...]] [--keep]
                        [--verbose]
  --terms N          how many terms (default 40); a longer campaign: --terms 300
  --determ-every K   the DETERM rerun for every K-th term (default 1: all)
  --term T           run term T (its names as the generator makes them: tasks tN, conditions cN,
                     events eN, cancel triggers xN, item lists LN) instead of random ones
  --init N=V,...     its initial environment: a condition true|false, a list's number of items, a
                     task's outcome on every send ok|fail|held
  --verbose          print every term's script and quiescent points, not only failing ones
The seed is printed first; PATTERN_PROPERTY_SEED=N (or --seed N) reruns one campaign. A failure prints
the term, the script up to the failing step and both sides.
"""
import collections
import copy
import hashlib
import json
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
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gsm", "property"))
sys.path.insert(0, os.path.join(HERE, "..", "gsm"))
import gsm_status as gs  # noqa: E402
import idempotency  # noqa: E402  (tests/gsm/idempotency.py: the test services' HTTP server)
from gsm_property import Agent, Server  # noqa: E402  (the GSM property test's stepped agent and server)
from interp import Interp, Term, parse  # noqa: E402

ENV = "https://example.org/env#"
WAIT = int(os.environ.get("LDGSM_TEST_WAIT", "30"))
# Options the stepped agents run with beside their own (e.g. --incremental: tests/patterns/run_property_incremental.sh)
AGENT_OPTIONS = os.environ.get("PATTERN_PROPERTY_AGENT_OPTIONS", "").split()
LEFT_OUT = [0]  # instance-iterations the agents left out (--incremental), over the run
QUIET = 3            # iterations without a status change that make a quiescent point
MAX_SETTLE = 150     # iterations one change may take to settle (PROGRESS)
OUTCOMES = (("held", 0.75), ("ok", 0.18), ("fail", 0.07))
# the stop: shapes early, so that the suite's 12 terms want them (a term wants two features in turn)
FEATURES = ["seq", "par", "stop:deep-failure", "join:all", "stop:join-losers", "join:sync_merge",
            "join:first_complete", "join:first_n", "join:n_of_m", "xor:when", "xor:else", "loop:while",
            "loop:until", "loop:count", "defer", "cancel:activity",
            "cancel:region", "cancel:case"] + \
    ["mi:%s:%s" % (m, p) for m in ("fixed", "dynamic") for p in ("all", "sync_merge", "first_complete",
                                                                  "first_n", "n_of_m")]


# --- terms ----------------------------------------------------------------------------------------------

class Gen:
    """A random term whose names are fresh per use: tasks t1.., conditions c1.., events e1.., cancel
    triggers x1.., item lists L1..; `wanted` features are placed first, near the top."""

    def __init__(self, rng, wanted):
        self.rng, self.wanted = rng, list(wanted)
        self.counts = {"t": 0, "c": 0, "e": 0, "x": 0, "L": 0}
        self.features, self.lists, self.outcomes = set(), {}, {}

    def name(self, kind):
        self.counts[kind] += 1
        return "%s%d" % (kind, self.counts[kind])

    def term(self, depth=1, weight=1):
        """depth: the term's nesting level (4 is the deepest); weight: copies it will be compiled into."""
        if depth >= 4 or weight > 6 or (depth > 1 and self.rng.random() < 0.2):
            return self.task()
        feature = self.wanted.pop(0) if self.wanted else self.rng.choice(FEATURES)
        self.features.add(feature)
        kind, _, rest = feature.partition(":")
        r = self.rng
        if kind == "seq":
            return "seq(%s)" % ", ".join(self.term(depth + 1, weight) for _ in range(r.randint(1, 3)))
        if kind == "par":
            return "par(%s)" % ", ".join(self.term(depth + 1, weight) for _ in range(r.randint(2, 3)))
        if kind == "join":
            n = r.randint(2, 3)
            return "join(%s, %s)" % (self.policy(rest, n), ", ".join(self.term(depth + 1, weight) for _ in range(n)))
        if kind == "xor":  # ldgsm compile wants two branches at least (an else counts)
            n = r.randint(1, 2) if rest == "else" else r.randint(2, 3)
            branches = ["when(%s, %s)" % (self.name("c"), self.term(depth + 1, weight)) for _ in range(n)]
            if rest == "else":
                branches.append("else(%s)" % self.term(depth + 1, weight))
            return "xor(%s)" % ", ".join(branches)
        if kind == "loop":
            if rest == "count":
                n = r.randint(0, 2)
                return "loop(count(%d), %s)" % (n, self.term(depth + 1, weight * max(n, 1)))
            return "loop(%s(%s), %s)" % (rest, self.name("c"), self.term(depth + 1, weight))
        if kind == "defer":
            return "defer(%s)" % ", ".join("on(%s, %s)" % (self.name("e"), self.term(depth + 1, weight))
                                           for _ in range(r.randint(2, 3)))
        if kind == "cancel":
            body = self.task() if rest == "activity" else self.term(depth + 1, weight)
            return "cancel(%s(%s), %s)" % (rest, self.name("x"), body)
        if kind == "stop":
            return self.stopping(rest, depth, weight)
        mode, policy = rest.split(":")
        if mode == "fixed":
            n = r.randint(1, 3)
            return "mi(fixed(%d), %s, %s)" % (n, self.policy(policy, n), self.term(depth + 1, weight * n))
        low, high = r.randint(0, 1), r.randint(1, 3)
        high = max(high, low)
        lst = self.name("L")
        self.lists[lst] = high
        pol = self.policy(policy, high)
        return "mi(dynamic(%s, %d, %d), %s, %s)" % (lst, low, high, pol, self.term(depth + 1, weight * high))

    def task(self, outcome=None):
        """outcome: ok or fail on every activation, instead of the service's draw."""
        name = self.name("t")
        if outcome:
            self.outcomes[name] = outcome
        return "task(%s)" % name

    def stopping(self, rest, depth, weight):
        """What stops running branches while they run (issue 32), their tasks answering at once:
        deep-failure, a failure some seqs deep in one branch of a par (or a join of all) beside a long
        seq; join-losers, a join whose K-th winner ends while its losers have tasks left. Every branch
        reaches its first task as deep as the others: entering a term costs the model a poll
        (ontology/README.md), so a shallower sibling would run ahead of the interpreter's. Half the time
        a third branch, as deep, takes the term's other features."""
        r = self.rng
        levels = r.randint(1, 3) if rest == "deep-failure" else 1

        def nest(text, n):
            return "seq(" * n + text + ")" * n
        if rest == "deep-failure":
            chain = ", ".join([self.task("ok") for _ in range(r.randint(0, 2))] + [self.task("fail")])
            branches = [nest(", ".join(self.task("ok") for _ in range(r.randint(4, 6))), levels), nest(chain, levels)]
        else:
            sizes = [r.randint(1, 2) for _ in range(3)]
            sizes[r.randrange(3)] = 3  # a loser with tasks left: some branch is longer than the winners
            branches = [nest(", ".join(self.task("ok") for _ in range(n)), 1) for n in sizes]
        r.shuffle(branches)
        if depth + levels < 4 and r.random() < 0.5:
            branches.append(nest(self.term(depth + levels + 1, weight), levels))
        if rest == "deep-failure":
            return ("par(%s)" if r.random() < 0.5 else "join(all, %s)") % ", ".join(branches)
        k = r.randint(1, 2)
        policy = r.choice(["first_n(%d)" % k, "n_of_m(%d, %d)" % (k, len(branches)), "first_complete"])
        return "join(%s, %s)" % (policy, ", ".join(branches))

    def policy(self, name, n):
        if name == "first_n":
            return "first_n(%d)" % self.rng.randint(1, n)
        if name == "n_of_m":
            return "n_of_m(%d, %d)" % (self.rng.randint(1, n), n)
        return name


def names_of(text):
    """Tasks, conditions (conds, events, triggers) and lists a term names, from its text."""
    tasks = re.findall(r"task\((\w+)\)", text)
    conds = re.findall(r"(?:when|on)\((\w+),", text) + \
        re.findall(r"(?:while|until|activity|region|case)\((\w+)\)", text)
    lists = re.findall(r"dynamic\((\w+),", text)
    return tasks, conds, lists


def names_turtle(text, service, run_id, timed=(), delay=0):
    """The names a term's model uses. Tasks at service/RUN_ID/tasks/NAME; those in timed (tests/patterns/live.py)
    re-sent once `delay` seconds after a failed answer, where the others are not re-sent."""
    tasks, conds, lists = names_of(text)
    out = ["@prefix http: <http://www.w3.org/2011/http#> .",
           "@prefix httpm: <http://www.w3.org/2011/http-methods#> .",
           "@prefix sp: <http://spinrdf.org/sp#> .", "@prefix ldgsm: <https://w3id.org/ldgsm#> .",
           "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
           "@prefix pat: <https://w3id.org/ldgsm/patterns#> .", ""]
    for t in tasks:
        # no retries and an hour's deadline: a held task waits for its release, a 403 fails it at once
        retries = ('ldgsm:retries 1 ; ldgsm:retryDelay "PT%gS"^^xsd:dayTimeDuration' % delay) if t in timed \
            else "ldgsm:retries 0"
        out.append('<#%s> a http:Request ; http:mthd httpm:PUT ; http:requestURI <%s/%s/tasks/%s> ;\n'
                   '  http:headers ( [ http:fieldName "Content-Type" ; http:fieldValue "text/turtle" ] ) ;\n'
                   '  http:body "<#it> <%sran> true ." ;\n'
                   '  ldgsm:timeout "PT1H"^^xsd:dayTimeDuration ; %s .' % (t, service, run_id, t, ENV, retries))
    for c in conds:
        out.append('<#%s> a sp:Ask ; sp:text "ASK { <../env/%s#it> <%svalue> true }" .' % (c, c, ENV))
    for lst in lists:
        out.append("<#%s> a pat:ItemList ; pat:listOf <../env/%s#it> ; pat:listProperty <%sitems> ." % (lst, lst, ENV))
    return "\n".join(out) + "\n"


def outcome_of(seed, path, activation):
    """What the task service answers the activation-th send of the task at path: held, ok or fail."""
    h = int(hashlib.sha1(("%d %s %d" % (seed, path, activation)).encode()).hexdigest()[:8], 16) / 2.0 ** 32
    for name, p in OUTCOMES:
        if h < p:
            return name
        h -= p
    return OUTCOMES[-1][0]


def task_name(tree, path):
    """The name of the task at path ("1.2.1") in the term tree, as interp.py numbers its nodes."""
    t = tree
    for i in (int(k) for k in path.split(".")[1:]):
        if t.kind == "loop" and t.mode != "count":
            t = Term("seq", t.children)    # the iteration, at index 1, holds the body
        elif t.kind in ("mi", "cancel", "loop"):
            t = t.children[0]
        else:
            t = t.children[i - 1]
    return t.name


# --- the environment ------------------------------------------------------------------------------------

class Env:
    """The script's world: condition values, list lengths, released (path, activation) pairs, and the
    tasks (by name) whose every send has a fixed outcome."""

    def __init__(self, seed, init, tree):
        self.seed, self.tree, self.fixed = seed, tree, dict(init["outcomes"])
        self.conds, self.items, self.released = dict(init["conds"]), dict(init["items"]), set()

    def planned(self, path, activation):
        """What the service answers that send: held, ok or fail."""
        return self.fixed.get(task_name(self.tree, path)) or outcome_of(self.seed, path, activation)

    def outcome(self, path, activation):
        o = self.planned(path, activation)
        if o == "held":
            return "ok" if (path, activation) in self.released else "pending"
        return o

    def for_interp(self):
        return {"conds": dict(self.conds), "items": dict(self.items), "outcome": self.outcome}

    def apply(self, change):
        kind, what, value = change
        if kind == "flip":
            self.conds[what] = value
        elif kind == "grow":
            self.items[what] = value
        else:
            self.released.add(what)


# --- the task service -----------------------------------------------------------------------------------

class TaskService:
    """PUT /RUN/tasks/NAME answers by the run's script; GET /RUN/results/KEY answers 404 until released.
    A repeated Idempotency-Key replays its answer. Each first send is resolved to its stage's path through
    the call record the agent wrote before sending (ldgsm:idempotencyKey), and logged as (path, act)."""

    def __init__(self):
        self.runs, self.lock = {}, threading.Lock()
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def reply(self, status, headers=(), body=b""):
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_PUT(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                m = re.match(r"^/(r\d+)/tasks/(\w+)$", self.path)
                key = (self.headers.get("Idempotency-Key") or "").strip('"')
                run = service.runs.get(m.group(1)) if m else None
                if not run or not key:
                    return self.reply(400)
                status, headers = service.answer(run, m.group(2), key)
                return self.reply(status, headers)

            def do_GET(self):
                m = re.match(r"^/(r\d+)/results/(\w+)$", self.path)
                run = service.runs.get(m.group(1)) if m else None
                with service.lock:
                    done = run is not None and run.key_pair.get(m.group(2)) in run.env.released
                if not done:
                    return self.reply(404)
                return self.reply(200, [("Content-Type", "text/turtle")], b"<#it> <%sresult> true ." % ENV.encode())

            def log_message(self, *args):
                pass

        self.server = idempotency.Server(("127.0.0.1", 0), Handler)
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, run, name, key):
        with self.lock:
            if key in run.answers:
                return run.answers[key]
        path = run.path_of_key(key)
        with self.lock:
            if key in run.answers:
                return run.answers[key]
            if path is None:
                run.problems.append("a send of task %s under key %s that no call record names" % (name, key))
                return 400, []
            act = run.activations[path] = run.activations.get(path, 0) + 1
            run.sent.append((path, act))
            run.key_pair[key] = (path, act)
            o = run.env.planned(path, act)
            ans = {"ok": (204, []), "fail": (403, []),
                   "held": (202, [("Location", "%s/%s/results/%s" % (self.base, run.id, key))])}[o]
            run.answers[key] = ans
            return ans

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


# --- one run: a term and a script, on a fresh server ------------------------------------------------------

CLOCKED = {gs.LDGSM + p for p in ("activatedAt", "calledAt", "deadline", "idempotencyKey", "resultKey", "resultIn",
                                  "failedAttempt", "at", "answerKey")}


def normalize(triples, instance):
    """The status document with fragments named by model terms (stage S, milestone S/M, call record C:S,
    transitions by sequence), the server's base dropped, clock-derived values and keys left out."""
    by = {}
    for s, p, o in triples:
        by.setdefault(s, {}).setdefault(p, []).append(o)
    names = {instance: "it"}
    for s, props in by.items():
        model = props.get(gs.GSM + "isInstanceOf", [None])[0]
        if model and gs.LDGSM + "ofStage" not in props:
            names[s] = "S:" + gs.local(model)
    for s, props in by.items():
        stage = props.get(gs.LDGSM + "ofStage", [None])[0]
        if stage is None:
            continue
        model = props.get(gs.GSM + "isInstanceOf", [None])[0]
        names[s] = ("M:%s/%s" % (names.get(stage, stage), gs.local(model))) if model else "C:" + names.get(stage, stage)
    for s, props in by.items():
        if gs.LDGSM + "sequence" in props:
            names[s] = "T:" + props[gs.LDGSM + "sequence"][0]
    base = instance.split("#")[0].rsplit("/", 2)[0]
    out = set()
    for s, p, o in triples:
        if p in CLOCKED:
            continue
        out.add((names.get(s, s).replace(base, ""), gs.local(p), names.get(o, o).replace(base, "")))
    return sorted(out)


class Run:
    """A term run under a script. The first run makes the script (choosing each change with the
    interpreter, so that no change leads to an unending loop); a replay follows a given script."""

    def __init__(self, prop, idx, text, init, lists_max, script=None):
        self.prop, self.idx, self.text = prop, idx, text
        self.id = "r%d" % prop.next_run()
        self.lists_max = lists_max
        self.replay = script is not None
        self.script = list(script) if script else []
        self.env = Env(prop.outcome_seed(idx), init, parse(text))
        self.answers, self.activations, self.sent, self.key_pair, self.problems = {}, {}, [], {}, []
        self.failures, self.quiescent_docs, self.history, self.lagging = [], [], [], []
        self.iterations = 0

    def path_of_key(self, key):
        for _ in range(20):
            triples = gs.fetch(self.instance)
            by = {}
            for s, p, o in triples:
                by.setdefault(s, {}).setdefault(p, []).append(o)
            for s, props in by.items():
                if key in props.get(gs.LDGSM + "idempotencyKey", []):
                    stage = props.get(gs.LDGSM + "ofStage", [None])[0]
                    model = by.get(stage, {}).get(gs.GSM + "isInstanceOf", [None])[0]
                    if model:
                        return stage_path(model)
            time.sleep(0.05)
        return None

    def fail(self, what):
        self.failures.append(what)

    def start(self, work):
        ldgsm = self.prop.ldgsm
        self.work = os.path.join(work, self.id)
        os.makedirs(self.work)
        self.server = Server(ldgsm, self.work)
        model_uri = "%smodels/m%d" % (self.server.base, self.idx)
        with open(os.path.join(self.work, "names.ttl"), "w") as f:
            f.write(names_turtle(self.text, self.prop.service.base, self.id))
        comp = subprocess.run([ldgsm, "compile", "--term", self.text, "--base", model_uri, "-o",
                               os.path.join(self.work, "model.ttl"), os.path.join(self.work, "names.ttl")],
                              capture_output=True, text=True)
        if comp.returncode != 0:
            raise RuntimeError("ldgsm compile of %s exits %d: %s" % (self.text, comp.returncode, comp.stderr + comp.stdout))
        with open(os.path.join(self.work, "model.ttl")) as f:
            if self.server.put("models/m%d" % self.idx, f.read()) != 201:
                raise RuntimeError("cannot PUT the model")
        for c, v in self.env.conds.items():
            self.put_cond(c, v)
        for lst, n in self.env.items.items():
            self.put_list(lst, n)
        self.server.put("status/m%d" % self.idx, "@prefix gsm: <http://purl.org/gsm/vocab#> .\n"
                        "<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m%d#root> ; "
                        "gsm:hasState gsm:uninitialized ." % self.idx)
        self.instance = "%sstatus/m%d#it" % (self.server.base, self.idx)
        self.prop.service.runs[self.id] = self
        self.agent = Agent([ldgsm, "run", "--instance", self.instance, "--step", "-n", "0"] + AGENT_OPTIONS,
                           os.path.join(self.work, "agent.log"))
        self.model, self.snap = None, None
        self.interp = Interp(parse(self.text))

    def put_cond(self, name, value):
        self.server.put("env/" + name, "<#it> <%svalue> %s ." % (ENV, "true" if value else "false"))

    def put_list(self, name, n):
        self.server.put("env/" + name, "<#it> <%sitems> (%s) ." % (ENV, " ".join(str(i + 1) for i in range(n))))

    def stop(self):
        if not hasattr(self, "agent"):
            if hasattr(self, "server"):
                self.server.stop()
            return
        rc = self.agent.stop()
        if rc != 0:
            self.fail("the agent exits %s at the end of its input" % rc)
        self.server.stop()
        self.prop.service.runs.pop(self.id, None)

    def iterate(self):
        """One agent iteration and the checks after it; the normalized status document."""
        log = self.agent.iterate()
        self.iterations += 1
        if log is None:
            self.fail("iteration %d: the agent did not finish it (exit %s)" % (self.iterations, self.agent.proc.poll()))
            return None
        summary = " ".join(line for line in log.splitlines() if line.startswith("iteration:"))
        LEFT_OUT[0] += sum(int(n) for n in re.findall(r"(\d+) left out", summary))
        if any(int(n) for n in re.findall(r"(\d+) (?:withheld|conflicting|refused)", summary)):
            self.fail("iteration %d: %s" % (self.iterations, summary))
        for code in re.findall(r"^(?:PUT|PATCH) \S+/status/m\d+ (\d+) ", log, re.M):
            if not code.startswith("2"):
                self.fail("iteration %d: a write of the status document answered %s" % (self.iterations, code))
        triples = gs.fetch(self.instance)
        snap = gs.Snapshot(triples, self.instance)
        if self.model is None:
            self.model = gs.read_model(snap.root_model)
        problems = gs.invariant_violations(self.model, snap)
        if self.snap is not None:
            problems += gs.transition_violations(self.model, self.snap, snap)
        for p in problems:
            self.fail("GSM after iteration %d: %s" % (self.iterations, p))
        self.snap = snap
        return normalize(triples, self.instance)

    def settle_agent(self):
        """Steps to quiescence: the normalized document unchanged for QUIET iterations."""
        last, same = None, 0
        for _ in range(MAX_SETTLE):
            doc = self.iterate()
            if doc is None or self.failures:
                return None
            same = same + 1 if doc == last else 0
            last = doc
            if same >= QUIET:
                return doc
        self.fail("PROGRESS: no quiescence within %d iterations" % MAX_SETTLE)
        return None

    def gsm_tokens(self):
        return {stage_path(s) for s in self.model.stages
                if self.model.task.get(s) and self.snap.state(s) == "active"}

    def gsm_status(self):
        root = self.model.root
        got = [m for m in self.model.milestones[root] if self.snap.achieved(root, m)]
        names = sorted(gs.local(m).replace("root-", "") for m in got)
        if len(names) > 1:
            self.fail("STATUS: root milestones %s are achieved together" % names)
        return names[0] if names else "running"

    def check_point(self, step, started_before, sent_before):
        """TOKEN, STATUS and ORDER at a quiescent point."""
        want_tokens, got_tokens = self.interp.tokens(), self.gsm_tokens()
        want_status, got_status = self.interp.status(), self.gsm_status()
        want_new = set(self.interp.started()[started_before:])
        got_new = set(self.sent[sent_before:])
        where = "step %d (%s)" % (step, describe(self.script[step - 1]) if step else "start")
        if want_tokens != got_tokens:
            self.fail("TOKEN at %s: interp %s, model %s" % (where, sorted(want_tokens), sorted(got_tokens)))
        if want_status != got_status:
            self.fail("STATUS at %s: interp %s, model %s" % (where, want_status, got_status))
        if want_new != got_new:
            lagging = self.lagging_starts(want_new, got_new, want_tokens | got_tokens)
            if lagging:
                self.prop.note("ORDER: steps where tasks the interpreter started were started a step later or "
                               "never by the model (entering costs a poll)")
                self.lagging.append("%s: %s" % (where, lagging))
            else:
                self.fail("ORDER at %s: interp started %s, the service saw %s"
                          % (where, sorted(want_new), sorted(got_new)))
        self.history.append("%s: interp %s tokens %s new %s | model %s tokens %s sent %s" % (
            where, want_status, sorted(want_tokens), sorted(want_new), got_status, sorted(got_tokens), sorted(got_new)))

    def lagging_starts(self, want_new, got_new, tokens):
        """ontology/README.md: "Entering a term costs a poll": the compiled model opens one level per poll
        where the interpreter enters a whole subtree in one round. So when a join is won, or a term fails,
        in the step that enters a sibling subtree, the interpreter starts (and ends or stops) tasks whose
        stages the model never opened. That lag, and only that, is allowed: no differing start is of a
        task that is a token at this point on either side, and every task the model started the
        interpreter started too, at this point or an earlier one. A task the interpreter never starts
        is a stop the model saw late (issue 32: a failure, or a join's K-th end, is seen in the poll it
        happens), whatever became of it. Returns the differing starts, or None when some is not a lag."""
        started = set(self.interp.started())
        differing = want_new ^ got_new
        if any(path in tokens for path, _ in differing) or any(pa not in started for pa in got_new - want_new):
            return None
        return sorted(differing)

    def candidates(self, rng, draining):
        """Changes the script may make now: releases of held tasks that are still tokens, condition
        flips, list growth. Draining prefers what lets the workflow end."""
        held = sorted(pa for pa in self.sent if self.env.planned(*pa) == "held" and pa not in self.env.released
                      and pa[0] in self.interp.tokens())
        releases = [("release", pa, True) for pa in held]
        tasks, conds, lists = names_of(self.text)
        if draining:
            ends = []
            for m in re.finditer(r"(while|until|on|case|region|activity)\((\w+)", self.text):
                want = m.group(1) != "while"
                if self.env.conds.get(m.group(2)) != want:
                    ends.append(("flip", m.group(2), want))
            return releases or ends
        # a cancel trigger's flip usually ends the run: offered a third of the time
        flips = [("flip", c, not self.env.conds.get(c, False)) for c in conds if c[0] != "x" or rng.random() < 0.3]
        grows = [("grow", lst, self.env.items[lst] + 1) for lst in lists if self.env.items[lst] <= self.lists_max[lst]]
        out = releases * 2 + flips + grows
        rng.shuffle(out)
        return out

    def choose(self, rng, draining):
        """A change after which the interpreter reaches quiescence (a loop does not run forever)."""
        for change in self.candidates(rng, draining):
            trial = copy.deepcopy(self.interp)
            env = copy.deepcopy(self.env)
            env.apply(change)
            try:
                trial.settle(env.for_interp(), max_rounds=2000)
            except RuntimeError:
                continue
            return change
        return None

    def apply(self, change):
        self.env.apply(change)
        kind, what, value = change
        if kind == "flip":
            self.put_cond(what, value)
        elif kind == "grow":
            self.put_list(what, value)

    def point(self, step):
        started_before, sent_before = len(self.interp.started()), len(self.sent)
        self.interp.settle(self.env.for_interp())
        doc = self.settle_agent()
        if doc is None:
            return False
        with self.prop.service.lock:
            self.check_point(step, started_before, sent_before)
        self.quiescent_docs.append(doc)
        return not self.failures

    def go(self, rng, steps, drain):
        """The script (made or replayed), a quiescent point after each change; then PROGRESS."""
        if not self.point(0):
            return
        made = 0
        while True:
            if self.replay:
                if made >= len(self.script):
                    break
                change = self.script[made]
            else:
                if self.interp.status() != "running" or made >= steps + drain:
                    break
                change = self.choose(rng, made >= steps)
                if change is None:
                    break
                self.script.append(change)
            made += 1
            self.apply(change)
            if not self.point(made):
                return
        self.progress()

    def progress(self):
        """The run ended: a workflow the interpreter finished is checked by STATUS; one it says is blocked
        must show what it waits for. The agent's log says nothing of a call still calling or an event not
        yet true (those are no stalls); ontology/README.md names `ldgsm status` as where a wait is shown,
        so every wait of waiting() is looked up there: a task's call calling, a defer's branches or an
        mi's copies not opening because their guards read the event's or the list's resource."""
        if self.interp.status() != "running":
            return
        st = subprocess.run([self.prop.ldgsm, "status", "--json", "--history", "0", self.instance],
                            capture_output=True, text=True, timeout=WAIT)
        try:
            tree = json.loads(st.stdout.splitlines()[0])["root"]
        except (ValueError, IndexError, KeyError):
            self.fail("PROGRESS: ldgsm status --json exits %d: %s" % (st.returncode, st.stdout + st.stderr))
            return
        stages = {}

        def walk(node):
            stages[stage_path(node["model"])] = node
            for child in node.get("children", []):
                walk(child)
        walk(tree)
        for wait in self.interp.waiting().split("; "):
            m = re.match(r"^task (\S+)$|^(?:events|items of) (.+) \((?:defer|mi) (\S+)\)$", wait)
            if m and m.group(1):
                node = stages.get(m.group(1), {})
                calling = [c for c in node.get("calls", []) if c.get("state") == "calling"]
                shown = node.get("state") == "active" and bool(calling)
            elif m:
                node = stages.get(m.group(3), {})
                closed = [c["whyNot"] for c in node.get("children", [])
                          if (c.get("whyNot") or {}).get("reason") == "no guard holds"]
                reads = {r["resource"].split("#")[0].rsplit("/", 1)[-1] for w in closed for g in w.get("guards", [])
                         for q in g.get("conditions", []) for r in q.get("reads", [])}
                shown = node.get("state") == "active" and set(m.group(2).split(", ")) <= reads
            else:
                shown = False
            if not shown:
                self.fail("PROGRESS: the interpreter waits for %s; ldgsm status does not show that wait" % wait)


def stage_path(model_iri):
    frag = gs.local(model_iri)
    return frag[1:] if frag.startswith("s") and frag[1:2].isdigit() else frag


def describe(change):
    kind, what, value = change
    if kind == "flip":
        return "%s := %s" % (what, "true" if value else "false")
    if kind == "grow":
        return "%s has %d items" % (what, value)
    return "release task %s activation %d" % what


# --- the campaign ---------------------------------------------------------------------------------------

class Property:
    def __init__(self, ldgsm, seed, verbose, fixed_term=None, fixed_init=""):
        self.ldgsm, self.seed, self.verbose = ldgsm, seed, verbose
        self.fixed_term = fixed_term
        self.fixed_init = dict(kv.split("=", 1) for kv in fixed_init.split(",") if kv)
        self.runs_made, self.notes = 0, collections.Counter()
        self.service = None  # the TaskService its runs use (main's): tests/patterns/live.py makes terms only

    def next_run(self):
        self.runs_made += 1
        return self.runs_made

    def outcome_seed(self, idx):
        return self.seed * 1000 + idx

    def note(self, text):
        self.notes[text] += 1

    def term(self, rng, idx):
        """A random term and its initial environment; --term and --init fix them (to reproduce)."""
        wanted = [FEATURES[(2 * idx + k) % len(FEATURES)] for k in range(2)]
        tries = 0
        while True:
            tries += 1
            g = Gen(rng, wanted)
            text = self.fixed_term or g.term()
            if g.wanted and tries < 50:
                continue  # a wanted feature found no place (the term's children all tasks)
            tasks, conds, lists = names_of(text)
            # a cancel trigger true at the start ends the run there: rarely
            init = {"conds": {c: rng.random() < (0.1 if c[0] == "x" else 0.3) for c in conds},
                    "items": {lst: rng.randint(0, g.lists.get(lst, 3)) for lst in lists},
                    "outcomes": {} if self.fixed_term else dict(g.outcomes)}
            lists_max = {lst: g.lists.get(lst, int(re.search(r"dynamic\(%s, \d+, (\d+)" % lst, text).group(1)))
                         for lst in lists}
            for name, value in self.fixed_init.items():
                if name in init["items"]:
                    init["items"][name] = int(value)
                elif re.match(r"t\d+$", name):
                    init["outcomes"][name] = value
                else:
                    init["conds"][name] = value == "true"
            it = Interp(parse(text))
            try:
                it.settle(Env(self.outcome_seed(idx), init, parse(text)).for_interp(), max_rounds=2000)
            except RuntimeError:
                if self.fixed_term:
                    raise
                continue
            if it.status() != "running" and not self.fixed_term and rng.random() < 0.7:
                continue  # most runs should have a script: few terms that end at their start
            return text, init, lists_max, g.features

    def run_term(self, work, rng, idx, determ):
        text, init, lists_max, features = self.term(rng, idx)
        first = Run(self, idx, text, init, lists_max)
        try:
            first.start(work)
            first.go(rng, steps=rng.randint(3, 7), drain=10)
        except RuntimeError as e:  # the term does not compile: a failure of this term, the campaign goes on
            first.fail(str(e))
        finally:
            first.stop()
        report = {"text": text, "init": init, "script": first.script, "failures": first.failures,
                  "history": first.history, "iterations": first.iterations, "features": features,
                  "problems": first.problems, "lagging": first.lagging}
        if first.failures or first.problems or not determ:
            return report
        again = Run(self, idx, text, init, lists_max, script=first.script)
        try:
            again.start(work)
            again.go(rng, 0, 0)
        finally:
            again.stop()
        report["iterations"] += again.iterations
        report["failures"] += ["replay: " + f for f in again.failures]
        if not again.failures:
            for k, (a, b) in enumerate(zip(first.quiescent_docs, again.quiescent_docs)):
                if a != b:
                    diff = sorted(set(a) ^ set(b))[:8]
                    report["failures"].append("DETERM at quiescent point %d: the documents differ in %s" % (k, diff))
                    break
            if len(first.quiescent_docs) != len(again.quiescent_docs):
                report["failures"].append("DETERM: %d quiescent points, the replay %d" % (
                    len(first.quiescent_docs), len(again.quiescent_docs)))
        return report


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    opts = {"--terms": "40", "--seed": None, "--determ-every": "1", "--term": None, "--init": ""}
    flags = {a for a in argv[1:] if a in ("--keep", "--verbose")}
    rest = [a for a in argv[1:] if a not in flags]
    for k, v in zip(rest[::2], rest[1::2]):
        if k not in opts:
            print("unknown option " + k, file=sys.stderr)
            return 2
        opts[k] = v
    seed = int(opts["--seed"] or os.environ.get("PATTERN_PROPERTY_SEED") or random.SystemRandom().randrange(1 << 31))
    print("pattern property: seed %d" % seed, flush=True)
    prop = Property(os.path.abspath(argv[0]), seed, "--verbose" in flags, opts["--term"], opts["--init"])
    prop.service = TaskService()
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="ldgsm-pattern-property.")
    started, failed, steps, iterations, covered = time.monotonic(), 0, 0, 0, set()
    every = max(1, int(opts["--determ-every"]))
    try:
        for idx in range(int(opts["--terms"])):
            r = prop.run_term(work, rng, idx, idx % every == 0)
            steps += len(r["script"])
            iterations += r["iterations"]
            covered |= r["features"]
            bad = r["failures"] + r["problems"]
            if prop.verbose or bad:
                print("term %d: %s" % (idx, r["text"]))
                print("  initially: %s" % ", ".join("%s=%s" % kv for kv in sorted(r["init"]["conds"].items()))
                      + " " + ", ".join("%s has %d items" % kv for kv in sorted(r["init"]["items"].items()))
                      + " " + ", ".join("%s answers %s" % kv for kv in sorted(r["init"]["outcomes"].items())))
                print("  script: %s" % "; ".join(describe(c) for c in r["script"]))
                for line in r["history"]:
                    print("    " + line)
                for line in r["lagging"]:
                    print("    allowed, started on one side only: " + line)
            for f in bad:
                print("  FAIL: " + f)
            failed += bool(bad)
    finally:
        prop.service.stop()
    for text, n in sorted(prop.notes.items()):
        print("note: %s: %d" % (text, n))
    missing = [f for f in FEATURES if f not in covered]
    if "--incremental" in AGENT_OPTIONS:
        print("pattern property: --incremental left an instance out in %d iterations" % LEFT_OUT[0])
        if not LEFT_OUT[0]:
            print("  FAIL: --incremental left nothing out: nothing was tested")
            failed += 1
    print("pattern property: seed %d: %d terms, %d script steps, %d agent iterations in %.0f s; %d failed%s" % (
        seed, int(opts["--terms"]), steps, iterations, time.monotonic() - started, failed,
        "; not covered: " + ", ".join(missing) if missing and not opts["--term"] else ""))
    if failed:
        again = " ".join("%s '%s'" % (k, opts[k]) for k in ("--term", "--init") if opts[k])
        how = "tests/patterns/property.py LDGSM " + again if again else "tests/patterns/run_property.sh LDGSM"
        print("reproduce: PATTERN_PROPERTY_SEED=%d %s (work in %s)" % (seed, how, work))
        return 1
    if "--keep" in flags:
        print("work kept in " + work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
