#!/usr/bin/env python3
"""gsm_property.py: the property test of the GSM rules (DESIGN section 5). It generates random workflow
models from a seed, serves them with `ldgsm serve --memory`, and runs them all with one agent, one
iteration at a time, flipping a random environment between iterations. After every iteration, for every
instance, it checks:

  1. GSM-1 and GSM-2 on the status document (gsm_status.invariant_violations);
  2. that the change is one the rule table allows whatever the sentries said
     (gsm_status.transition_violations);
  3. that the change is exactly the table's step for the sentry values this environment gives (a small
     simulator of the table with close wins: the generator knows every sentry, so it evaluates them);
  4. that a finished workflow (the root inactive and completed, a root milestone achieved) stays so,
     even when the invalidating sentry of its milestone comes true;
and, at the end, that every task was sent once per activation (the server's log against the
activations seen) and that no write was withheld, refused, in conflict or failed. Well-formed models
must also pass `ldgsm lint` (exit 0).

Models: a root (a milestone or none; half the root milestones get an invalidating sentry, which the rules
must ignore, and finish sooner so that it comes true afterwards) with 2 to 7 stages nested up to depth 3, each with 1 or 2
guards of 1 or 2 conditions and 1 or 2 milestones, most with a task (a PUT). Sentries are conjunctions of
atoms over environment resources (integers 0..3 compared with >=, <, =, != in a FILTER; booleans as
constant patterns) and over other stages' milestones in this workflow (gsm:thisArtifactInstance),
written in SPIN RDF or as SPARQL text at random. Well-formed models (--models) make the paper's 4.3
conditions hold for every environment: a milestone's invalidating sentry is the complement of an atom of
its achieving sentry (4.3.1), and a stage's guards require false the "closing" boolean that every
achieving sentry of each of its ancestors requires true (Eq. (2) of 6.1). Free models (--free) drop both:
DESIGN says GSM-1 and GSM-2 hold without them, so every check but liveness still applies.

With --incremental the agent runs `ldgsm run --incremental` (agent/incremental.h): an instance whose
documents did not change is left out of an iteration, and every check holds as in polling, each step
being exactly the table's step for the environment (what a polling agent must take); the run must have
left some instance out at least once.

--dump FILE writes what the run did, for comparing two runs of one seed (tests/gsm/run_gsm_same_outcome.sh):
every instance's state after every iteration, and every write the server took (method, path, status), sorted.

--live compares two agents left to run by themselves (DESIGN section 9, "Same outcome";
tests/gsm/run_gsm_same_outcome_live.sh; the machinery is live_runs.py's): `ldgsm run -n 50` and --against's (notifications: `--notifications
-n 60000 --safety-poll 600000`; incremental: `--incremental -n 50`), each over every instance with a server
and a task service (tests/gsm/data_service.py) of its own, side by side. The environment writes one variable
of some instances per round, only when the workflow rests (no write, request or change-driven log line for
--quiet seconds, and after the last write an iteration that derived nothing), never one whose table steps
would cycle. A quarter of the models (at least one) have a timed stage, open after set-up where they can: its
task's service fails, and it is re-sent once 1.5 s later (a deadline, ldgsm:wakeAt), then exhausted. Per instance the two runs must make the
same status writes (the status document's history, write by write: property, from, to), have the same task
requests received (method, body, answer; in order, those of one iteration as a set), have got as far at every
rest, and end in the same status. Each run also checks every write as above (1 to 4, the table's step under
the environment of its time), each task sent once per activation under its own Idempotency-Key (a timed
one re-sent once at most), no write withheld, in conflict or refused, and at every rest that the table has
no step left and no call is calling past its deadline. Rounds end at --rounds or after --time seconds, for
both runs at the same round.

usage: gsm_property.py LDGSM [--seed N] [--models 14] [--free 6] [--iterations 30] [--incremental] [--keep]
       [--dump FILE]
       gsm_property.py LDGSM --live [--seed N] [--models 4] [--free 2] [--rounds 12] [--time 600] [--quiet 0.5]
       [--against notifications|incremental] [--keep]
The seed is printed first (and on failure, with how to reproduce); GSM_PROPERTY_SEED sets it too.
"""
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import gsm_status as gs  # noqa: E402
import live_runs as live  # noqa: E402 (the live same-outcome tests' machinery: --live)
from live_runs import WAIT, Server  # noqa: E402,F401 (Server: also the pattern property test's)

ENV = "https://example.org/env#"
OPS = {"ge": ">=", "lt": "<", "eq": "=", "ne": "!="}
COMPLEMENT = {"ge": "lt", "lt": "ge", "eq": "ne", "ne": "eq"}
TEST = {"ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


# --- generation -----------------------------------------------------------------------------------------

class GenModel:
    """A generated workflow. stages: name -> {"parent", "depth", "guards": [[sentry]], "milestones":
    [name], "task": bool}; milestones: name -> {"stage", "achieving": sentry, "invalidating": sentry or
    None}; a sentry is a list of atoms: ("b", var, bool), ("i", var, op, k), ("m", milestone, bool).
    env: var -> initial value; flip: var -> probability of a new random value per iteration."""

    def __init__(self, rng, well_formed):
        self.well_formed = well_formed
        self.timed = None  # --live: the stage whose task is a call to a failing service (live_models)
        self.stages = {"root": {"parent": None, "depth": 0, "guards": [], "milestones": [], "task": False}}
        self.milestones = {}
        self.env, self.flip = {}, {}
        pool = ["v%d" % i for i in range(rng.randint(2, 4))]
        for v in pool:
            self.env[v], self.flip[v] = rng.randint(0, 3), 0.3
        for i in range(rng.randint(2, 7)):
            parents = [s for s, st in self.stages.items() if st["depth"] < 3]
            parent = rng.choice(parents)
            self.stages["s%d" % i] = {"parent": parent, "depth": self.stages[parent]["depth"] + 1,
                                      "guards": [], "milestones": [], "task": rng.random() < 0.7}
        for s in self.stages:
            count = (1 if rng.random() < 0.5 else 0) if s == "root" else rng.randint(1, 2)
            # A root milestone is final (DESIGN section 5): half the roots get an invalidating sentry,
            # which the rules must ignore, and finish early enough for it to come true afterwards.
            final_test = s == "root" and rng.random() < 0.5
            if count:
                # a root milestone ends the workflow: its closing boolean rarely comes true
                self.env["c_" + s] = False
                self.flip["c_" + s] = 0.3 if s != "root" or final_test else 0.05
            for j in range(count):
                m = "%s-m%d" % (s, j)
                self.stages[s]["milestones"].append(m)
                atom = self.int_atom(rng, pool)
                achieving = [("b", "c_" + s, True), atom]
                if s == "root":
                    invalidating = [("i", atom[1], COMPLEMENT[atom[2]], atom[3])] if final_test else None
                elif well_formed:
                    invalidating = [("i", atom[1], COMPLEMENT[atom[2]], atom[3])] if rng.random() < 0.7 else None
                else:
                    invalidating = [self.int_atom(rng, pool)] if rng.random() < 0.7 else None
                self.milestones[m] = {"stage": s, "achieving": achieving, "invalidating": invalidating}
        for s, st in self.stages.items():
            if s == "root":
                continue
            eq2 = [("b", "c_" + a, False) for a in self.ancestors(s) if self.stages[a]["milestones"]] \
                if well_formed else []
            others = [m for m, mi in self.milestones.items() if mi["stage"] != s and mi["stage"] not in self.ancestors(s)]
            for _ in range(rng.randint(1, 2)):
                guard = []
                for _ in range(rng.randint(1, 2)):
                    atoms = list(eq2)
                    for _ in range(rng.randint(1, 2)):
                        if others and rng.random() < 0.35:
                            atoms.append(("m", rng.choice(others), rng.random() < 0.5))
                        else:
                            atoms.append(self.int_atom(rng, pool))
                    guard.append(atoms)
                st["guards"].append(guard)

    @staticmethod
    def int_atom(rng, pool):
        return ("i", rng.choice(pool), rng.choice(sorted(OPS)), rng.randint(0, 3))

    def ancestors(self, s):
        out = []
        while self.stages[s]["parent"]:
            s = self.stages[s]["parent"]
            out.append(s)
        return out

    def descendants(self, s):
        return [d for d in self.stages if s in self.ancestors(d)]

    def turtle(self, rng, task_uri=None):
        """The model document, relative IRIs against <.../pN/model>; sentries in SPIN or text at random.
        task_uri(stage): where its task goes (default <tasks/STAGE>, on the model's server)."""
        out = ["@prefix gsm: <http://purl.org/gsm/vocab#> .", "@prefix sp: <http://spinrdf.org/sp#> .",
               "@prefix http: <http://www.w3.org/2011/http#> .",
               "@prefix httpm: <http://www.w3.org/2011/http-methods#> .", "@prefix env: <%s> ." % ENV, ""]
        if self.timed:
            out[-1:-1] = ["@prefix ldgsm: <https://w3id.org/ldgsm#> .",
                          "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> ."]
        sentries = []

        def sentry(atoms):
            name = "q%d" % len(sentries)
            sentries.append(render_spin(name, atoms) if rng.random() < 0.5 else render_text(name, atoms))
            return "<#%s>" % name

        for s, st in self.stages.items():
            props = ["a gsm:Stage"]
            children = [c for c, ct in self.stages.items() if ct["parent"] == s]
            if children:
                props.append("gsm:hasChildStage " + ", ".join("<#%s>" % c for c in children))
            for gi, guard in enumerate(st["guards"]):
                g = "%s-g%d" % (s, gi)
                props.append("gsm:hasGuard <#%s>" % g)
                out.append("<#%s> a gsm:Guard ; gsm:hasCondition %s ." % (g, ", ".join(sentry(c) for c in guard)))
            for m in st["milestones"]:
                props.append("gsm:hasMilestone <#%s>" % m)
                mi = self.milestones[m]
                line = "<#%s> a gsm:Milestone ; gsm:hasAchievingSentry %s" % (m, sentry(mi["achieving"]))
                if mi["invalidating"]:
                    line += " ; gsm:hasInvalidatingSentry %s" % sentry(mi["invalidating"])
                out.append(line + " .")
            if st["task"]:
                props.append("gsm:hasHttpRequest <#%s-task>" % s)
                request = "<#%s-%s> a http:Request ; http:mthd httpm:PUT ; http:requestURI <%s> ;\n" \
                    '    http:headers ( [ http:fieldName "Content-Type" ; http:fieldValue "text/turtle" ] ) ;\n' \
                    '    http:body "%s" .' % (s, "req" if s == self.timed else "task",
                                              "tasks/" + s if task_uri is None else task_uri(s), task_body(s))
                if s == self.timed:  # one re-send TIMED_DELAY after the first send fails, then exhausted
                    out.append('<#%s-task> a ldgsm:Call ; ldgsm:retries 1 ;\n'
                               '    ldgsm:retryDelay "PT%gS"^^xsd:dayTimeDuration ; ldgsm:alternatives ( <#%s-req> ) .'
                               % (s, live.TIMED_DELAY, s))
                out.append(request)
            out.append("<#%s> %s ." % (s, " ;\n    ".join(props)))
        return "\n".join(out + sentries) + "\n"


def task_body(stage):
    return "<#it> <https://example.org/env#ran> <../model#%s> ." % stage


def render_spin(name, atoms):
    els, extra = [], []
    for k, atom in enumerate(atoms):
        if atom[0] == "b":
            els.append("[ sp:subject <env/%s#it> ; sp:predicate env:value ; sp:object %s ]"
                       % (atom[1], "true" if atom[2] else "false"))
        elif atom[0] == "i":
            var = "_:%s_x%d" % (name, k)
            extra.append('%s sp:varName "x%d" .' % (var, k))
            els.append("[ sp:subject <env/%s#it> ; sp:predicate env:value ; sp:object %s ]" % (atom[1], var))
            els.append("[ a sp:Filter ; sp:expression [ a sp:%s ; sp:arg1 %s ; sp:arg2 %d ] ]" % (atom[2], var, atom[3]))
        else:
            var = "_:%s_m%d" % (name, k)
            extra.append('%s sp:varName "m%d" .' % (var, k))
            els.append("[ sp:subject %s ; sp:predicate gsm:inArtifactInstance ; sp:object gsm:thisArtifactInstance ]" % var)
            els.append("[ sp:subject %s ; sp:predicate gsm:isInstanceOf ; sp:object <#%s> ]" % (var, atom[1]))
            els.append("[ sp:subject %s ; sp:predicate gsm:isAchieved ; sp:object %s ]"
                       % (var, "true" if atom[2] else "false"))
    return "<#%s> a sp:Ask ; sp:where (\n    %s ) .\n%s" % (name, "\n    ".join(els), "\n".join(extra))


def render_text(name, atoms):
    parts = []
    for k, atom in enumerate(atoms):
        if atom[0] == "b":
            parts.append("<env/%s#it> env:value %s ." % (atom[1], "true" if atom[2] else "false"))
        elif atom[0] == "i":
            parts.append("<env/%s#it> env:value ?x%d . FILTER(?x%d %s %d)" % (atom[1], k, k, OPS[atom[2]], atom[3]))
        else:
            parts.append("?m%d gsm:inArtifactInstance gsm:thisArtifactInstance ; gsm:isInstanceOf <#%s> ; "
                         "gsm:isAchieved %s ." % (k, atom[1], "true" if atom[2] else "false"))
    return ('<#%s> a sp:Ask ; sp:text """PREFIX env: <%s>\nPREFIX gsm: <http://purl.org/gsm/vocab#>\n'
            'ASK { %s }""" .' % (name, ENV, "\n  ".join(parts)))


# --- the table, for known sentry values -----------------------------------------------------------------

def holds(atoms, env, snap, iri):
    for atom in atoms:
        if atom[0] == "b" and env[atom[1]] != atom[2]:
            return False
        if atom[0] == "i" and not TEST[atom[2]](env[atom[1]], atom[3]):
            return False
        if atom[0] == "m":
            stage = gen_stage_of(atom[1])
            if snap.achieved(iri(stage), iri(atom[1])) is not atom[2]:
                return False
    return True


def gen_stage_of(milestone):
    return milestone.rsplit("-m", 1)[0]


def simulate(gm, env, snap, iri):
    """The status the table makes of snap in one step under env: {stage: (state, completed)},
    {milestone: achieved}, and the stages that open (their task pending)."""
    state = {s: (snap.state(iri(s)), snap.completed(iri(s))) for s in gm.stages}
    achieved = {m: snap.achieved(iri(mi["stage"]), iri(m)) for m, mi in gm.milestones.items()}
    if state["root"][0] in (None, "uninitialized"):
        return ({s: ("active" if s == "root" else "inactive", False) for s in gm.stages},
                {m: False for m in gm.milestones}, set())
    if state["root"][0] != "active":
        return state, achieved, set()
    new_state, new_achieved = dict(state), dict(achieved)
    closes = {(mi["stage"], m) for m, mi in gm.milestones.items()
              if state[mi["stage"]][0] == "active" and holds(mi["achieving"], env, snap, iri)}
    closing = {s for s, _ in closes}
    opens = {s for s, st in gm.stages.items()
             if s != "root" and state[s] == ("inactive", False)
             and all(state[a][0] == "active" for a in gm.ancestors(s))
             and any(holds(c, env, snap, iri) for g in st["guards"] for c in g)}
    opens -= {s for s in opens if any(a in closing for a in gm.ancestors(s))}  # close wins: they yield
    for s, m in closes:  # FCR-2a, FCR-2b
        new_achieved[m] = True
        new_state[s] = ("inactive", True)
        for d in gm.descendants(s):
            new_state[d] = ("inactive", new_state[d][1])
    for m, mi in gm.milestones.items():  # FCR-3
        s = mi["stage"]
        if achieved[m] and s != "root" and mi["invalidating"] and holds(mi["invalidating"], env, snap, iri):
            new_achieved[m] = False
            new_state[s] = (new_state[s][0], False)
    for s in opens:  # FCR-1, FCR-4a, FCR-4b
        new_state[s] = ("active", False)
        for m in gm.stages[s]["milestones"]:
            new_achieved[m] = False
        for d in gm.descendants(s):
            new_state[d] = (new_state[d][0], False)
            for m in gm.stages[d]["milestones"]:
                new_achieved[m] = False
    return new_state, new_achieved, opens


def step_differences(gm, expected, snap, iri):
    want_state, want_achieved, opens = expected
    out = []
    for s in gm.stages:
        got = (snap.state(iri(s)), snap.completed(iri(s)))
        if got != want_state[s]:
            out.append("%s is %s, completed %s; the table says %s, completed %s" % (s, got[0], got[1], *want_state[s]))
        if s in opens and gm.stages[s]["task"] and snap.task(iri(s)) != "pending":
            out.append("%s opened but its taskState is %s" % (s, snap.task(iri(s))))
    for m, mi in gm.milestones.items():
        got = snap.achieved(iri(mi["stage"]), iri(m))
        if got != want_achieved[m]:
            out.append("milestone %s is %s; the table says %s" % (m, got, want_achieved[m]))
    return out


def root_final(gm, snap, iri):
    """The root stage is inactive and completed with a milestone achieved: the workflow is finished."""
    return (snap.state(iri("root")), snap.completed(iri("root"))) == ("inactive", True) and \
        any(snap.achieved(iri("root"), iri(m)) for m in gm.stages["root"]["milestones"])


def root_finality(gm, before, after, iri):
    """A finished workflow stays finished whatever its sentries say (a root milestone is final)."""
    if not root_final(gm, before, iri):
        return []
    lost = [m for m in gm.stages["root"]["milestones"]
            if before.achieved(iri("root"), iri(m)) and not after.achieved(iri("root"), iri(m))]
    if lost or (after.state(iri("root")), after.completed(iri("root"))) != ("inactive", True):
        return ["the finished root changed: it is %s, completed %s; milestones unachieved: %s"
                % (after.state(iri("root")), after.completed(iri("root")), ", ".join(lost) or "none")]
    return []


# --- self-test of the checks ------------------------------------------------------------------------------

def self_test():
    """The checks must catch what they are there to catch: known-bad steps are flagged, good ones not."""
    M = "urn:m#"
    triples = [(M + "R", gs.GSM + "hasChildStage", M + "P"), (M + "P", gs.GSM + "hasChildStage", M + "C"),
               (M + "P", gs.GSM + "hasGuard", M + "gP"), (M + "gP", gs.GSM + "hasCondition", M + "qP"),
               (M + "C", gs.GSM + "hasGuard", M + "gC"), (M + "gC", gs.GSM + "hasCondition", M + "qC"),
               (M + "P", gs.GSM + "hasMilestone", M + "mP"), (M + "mP", gs.GSM + "hasAchievingSentry", M + "aP"),
               (M + "C", gs.GSM + "hasMilestone", M + "mC"), (M + "mC", gs.GSM + "hasAchievingSentry", M + "aC"),
               (M + "C", gs.GSM + "hasHttpRequest", M + "tC")]
    model = gs.Model(triples, M + "R")

    def snap(P, C, mP=False, mC=False, Pc=False, Cc=False, Ct=None):
        j = {"root_model": M + "R", "milestones": [[[M + "P", M + "mP"], {"frag": "p", "achieved": mP}],
                                                   [[M + "C", M + "mC"], {"frag": "c", "achieved": mC}]],
             "stages": {M + "R": {"frag": "r", "state": "active", "completed": False, "task": None},
                        M + "P": {"frag": "p", "state": P, "completed": Pc, "task": None},
                        M + "C": {"frag": "c", "state": C, "completed": Cc, "task": Ct}}}
        return gs.Snapshot.from_json(j)

    bad = {
        "C opens under an inactive P": (snap("inactive", "inactive"), snap("inactive", "active", Ct="pending")),
        "C opens while P closes": (snap("active", "inactive"),
                                   snap("inactive", "active", mP=True, Pc=True, Ct="pending")),
        "P closes, C stays active": (snap("active", "active"), snap("inactive", "active", mP=True, Pc=True)),
        "mP achieved, P stays active": (snap("active", "inactive"), snap("active", "inactive", mP=True)),
        "mC unachieved by no rule": (snap("active", "inactive", mC=True, Cc=True), snap("active", "inactive", Cc=True)),
        "a completed stage opens": (snap("active", "inactive", Cc=True, mC=True),
                                    snap("active", "active", Cc=False, Ct="pending")),
        "C opens, its task not pending": (snap("active", "inactive"), snap("active", "active")),
        "P closes without a milestone": (snap("active", "inactive"), snap("inactive", "inactive")),
        "P completed without FCR-2a": (snap("inactive", "inactive"), snap("inactive", "inactive", Pc=True)),
        "P reopens, FCR-4b skipped": (snap("inactive", "inactive", mC=True, Cc=True),
                                      snap("active", "inactive", mC=True, Cc=True)),
    }
    good = {
        "C opens": (snap("active", "inactive"), snap("active", "active", Ct="pending")),
        "P closes with C (FCR-2b)": (snap("active", "active", Ct="sent"),
                                     snap("inactive", "inactive", mP=True, Pc=True, Ct="sent")),
        "P reopens, resetting C": (snap("inactive", "inactive", mC=True, Cc=True),
                                   snap("active", "inactive")),
        "nothing happens": (snap("active", "active"), snap("active", "active")),
        "task marked sent": (snap("active", "active", Ct="pending"), snap("active", "active", Ct="sent")),
    }
    errors = []
    for name, (a, b) in bad.items():
        if not gs.transition_violations(model, a, b):
            errors.append("the rule-table check accepts a bad step: " + name)
    for name, (a, b) in good.items():
        v = gs.transition_violations(model, a, b)
        if v:
            errors.append("the rule-table check refuses a good step: %s: %s" % (name, v))
    if not gs.invariant_violations(model, snap("active", "inactive", mP=True)):
        errors.append("GSM-1 check misses an active stage with an achieved milestone")
    if not gs.invariant_violations(model, snap("inactive", "active")):
        errors.append("GSM-2 check misses an inactive stage with an active child")
    if gs.invariant_violations(model, snap("active", "active")):
        errors.append("the invariant checks refuse a good status")
    return errors


# --- the run ----------------------------------------------------------------------------------------------

class Agent:
    """One `ldgsm run --step` process: an iteration per line on its input, its log in a file."""

    def __init__(self, args, log_path):
        self.log_path = log_path
        self.log = open(log_path, "w")
        if args[1:2] == ["run"] and "-v" not in args:
            args = args[:2] + ["-v"] + args[2:]  # its iteration lines end each step
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=self.log)
        self.done, self.offset = 0, 0

    def iterate(self):
        """Runs one iteration; its log, or None when the agent did not finish it within WAIT seconds."""
        self.proc.stdin.write(b"\n")
        self.proc.stdin.flush()
        self.done += 1
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                text = f.read()
            if text.count("\niteration:") + text.startswith("iteration:") >= self.done:
                out, self.offset = text[self.offset:], len(text)
                return out
            if self.proc.poll() is not None:
                return None
            time.sleep(0.01)
        return None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode


def env_text(value):
    return "<#it> <%svalue> %s ." % (ENV, ("true" if value else "false") if isinstance(value, bool) else value)


def dump_run(path, history, served):
    """What --dump writes: the states, model by model, then the writes served, sorted (the server logs a
    batch's parallel writes in the order they end)."""
    writes = sorted(" ".join(line.split()[:3]) for line in served.splitlines()
                    if line.split()[:1] and line.split()[0] in ("PUT", "POST", "PATCH", "DELETE"))
    with open(path, "w") as f:
        for i, lines in enumerate(history):
            f.writelines("p%d %s\n" % (i, line) for line in lines)
        f.writelines(w + "\n" for w in writes)


def run(ldgsm, seed, n_models, n_free, iterations, keep, incremental, dump):
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="ldgsm-property.")
    models = [GenModel(rng, i < n_models) for i in range(n_models + n_free)]
    server = Server(ldgsm, work)
    agent = None
    failures = []
    try:
        for i, gm in enumerate(models):
            text = gm.turtle(rng)
            with open(os.path.join(work, "p%d.ttl" % i), "w") as f:
                f.write(text)
            server.put("p%d/model" % i, text)
            if gm.well_formed:  # lint must not reject what satisfies the 4.3 conditions by construction
                lint = subprocess.run([ldgsm, "lint", "p%d.ttl" % i], cwd=work, capture_output=True, text=True)
                if lint.returncode != 0:
                    failures.append("model p%d: ldgsm lint exits %d: %s" % (i, lint.returncode, lint.stdout + lint.stderr))
            for v, value in gm.env.items():
                server.put("p%d/env/%s" % (i, v), env_text(value))
            server.put("p%d/status" % i, "<#it> a <%sStageInstance> ; <%sisInstanceOf> <model#root> ; "
                       "<%shasState> <%suninitialized> ." % (gs.GSM, gs.GSM, gs.GSM, gs.GSM))
        instances = ["%sp%d/status#it" % (server.base, i) for i in range(len(models))]
        iris = [(lambda i: lambda name: "%sp%d/model#%s" % (server.base, i, name))(i) for i in range(len(models))]
        args = [ldgsm, "run", "-v", "--step", "-n", "0"] + (["--incremental"] if incremental else [])
        left_out = 0
        for inst in instances:
            args += ["--instance", inst]
        cache = {}
        final_steps = challenged = 0  # steps from a completed root; of those, with its invalidating sentry true
        prev = [gs.read_instance(inst, cache)[1] for inst in instances]  # uninitialized: set-up is checked
        history = [[] for _ in models]
        activations = [dict.fromkeys(gm.stages, 0) for gm in models]
        agent = Agent(args, os.path.join(work, "agent.log"))
        for it in range(iterations):
            log = agent.iterate()
            if log is None:
                failures.append("iteration %d: the agent did not finish it (exit status %s)" % (it, agent.proc.poll()))
                break
            summary = [line for line in log.splitlines() if line.startswith("iteration:")]
            left_out += sum(int(n) for n in re.findall(r"(\d+) left out", " ".join(summary)))
            bad_counts = re.findall(r"(\d+) (withheld|conflicting|refused|failed)", " ".join(summary))
            if any(int(n) for n, _ in bad_counts):
                failures.append("iteration %d: %s" % (it, " | ".join(summary)))
            for i, gm in enumerate(models):
                model, snap = gs.read_instance(instances[i], cache)
                problems = gs.invariant_violations(model, snap)
                problems += gs.transition_violations(model, prev[i], snap)
                problems += step_differences(gm, simulate(gm, gm.env, prev[i], iris[i]), snap, iris[i])
                problems += root_finality(gm, prev[i], snap, iris[i])
                if root_final(gm, prev[i], iris[i]):
                    final_steps += 1
                    challenged += any(holds(gm.milestones[m]["invalidating"], gm.env, prev[i], iris[i])
                                      for m in gm.stages["root"]["milestones"] if gm.milestones[m]["invalidating"])
                for s in gm.stages:
                    if prev[i].state(iris[i](s)) == "inactive" and snap.state(iris[i](s)) == "active":
                        activations[i][s] += 1
                history[i].append("iteration %d, env %s: %s" % (it, sorted(gm.env.items()), gs.compact(model, snap)))
                for p in problems:
                    failures.append("model p%d%s, iteration %d: %s" % (i, "" if gm.well_formed else " (free)", it, p))
                prev[i] = snap
            if failures:
                break
            for i, gm in enumerate(models):  # the environment changes between iterations
                for v in gm.env:
                    if rng.random() < gm.flip[v]:
                        gm.env[v] = (rng.random() < 0.5) if isinstance(gm.env[v], bool) else rng.randint(0, 3)
                        server.put("p%d/env/%s" % (i, v), env_text(gm.env[v]))
        if agent.stop() != 0:
            failures.append("the agent exits %s at the end of its input" % agent.proc.returncode)
        if not server.stop():
            failures.append("the server did not stop within %d s of SIGTERM" % WAIT)
        served = open(server.log_path).read()
        if dump:
            dump_run(dump, history, served)
        total_activations = 0
        for i, gm in enumerate(models):
            for s, st in gm.stages.items():
                total_activations += activations[i][s]
                if not st["task"]:
                    continue
                sent = len(re.findall(r"^PUT /p%d/tasks/%s \d+ " % (i, s), served, re.M))
                if sent != activations[i][s]:
                    failures.append("model p%d: %s's task was sent %d times for %d activations"
                                    % (i, s, sent, activations[i][s]))
        if incremental and not left_out:
            failures.append("--incremental left no instance out in %d iterations: nothing was tested" % iterations)
        stats = "%d models (%d free) x %d iterations, %d activations, %d steps from a completed root (%d with " \
            "an invalidating sentry of its milestone true)" % (
                len(models), n_free, iterations, total_activations, final_steps, challenged)
        if incremental:
            stats += ", %d instance-iterations left out" % left_out
        if failures:
            shown = sorted({int(m) for m in re.findall(r"model p(\d+)", " ".join(failures))})[:3]
            print("FAIL: seed %d: %s" % (seed, stats))
            for f in failures[:20]:
                print("  " + f)
            for i in shown:
                print("history of p%d (model in %s):" % (i, os.path.join(work, "p%d.ttl" % i)))
                for line in history[i]:
                    print("  " + line)
            print("reproduce: GSM_PROPERTY_SEED=%d tests/gsm/run_gsm_property.sh LDGSM (work kept in %s)" % (seed, work))
            return 1
        print("gsm_property: seed %d: %s: every check held" % (seed, stats))
        if keep:
            print("work kept in " + work)
        return 0
    finally:
        if agent is not None and agent.proc.poll() is None:
            agent.stop()
        if server.proc.poll() is None:
            server.stop()
        if not failures and not keep:
            shutil.rmtree(work, ignore_errors=True)


# --- live runs (--live) -------------------------------------------------------------------------------------
#
# DESIGN section 9's same outcome, for random models; the machinery, and why the environment acts only at
# rest, are live_runs.py's.

class Table:
    """A status as simulate() reads it, keyed by model names: {stage: (state, completed)}, {milestone:
    achieved}; with the identity for iri, simulate() runs on its own results."""

    def __init__(self, states, achieveds):
        self.states, self.achieveds = states, achieveds

    @classmethod
    def of(cls, gm, snap, iri):
        return cls({s: (snap.state(iri(s)), snap.completed(iri(s))) for s in gm.stages},
                   {m: snap.achieved(iri(mi["stage"]), iri(m)) for m, mi in gm.milestones.items()})

    def state(self, s):
        return self.states.get(s, (None, None))[0]

    def completed(self, s):
        return self.states.get(s, (None, None))[1]

    def achieved(self, _stage, m):
        return self.achieveds.get(m)

    def key(self):
        return tuple(sorted(self.states.items())), tuple(sorted(self.achieveds.items()))


def table_step(gm, env, table):
    states, achieveds, _ = simulate(gm, env, table, lambda n: n)
    return Table(states, achieveds)


def settles(gm, env, table, limit=64):
    """The table's steps from table under env come to a fixpoint: the workflow would rest (a free model's
    stage may cycle for ever, and a run that never rests cannot be compared)."""
    seen = {table.key()}
    for _ in range(limit):
        nxt = table_step(gm, env, table)
        if nxt.key() == table.key():
            return True
        if nxt.key() in seen:
            return False
        seen.add(nxt.key())
        table = nxt
    return False


def draw_value(rng, old):
    return (not old) if isinstance(old, bool) else rng.choice([v for v in range(4) if v != old])


def live_models(rng, n_models, n_free):
    """The models as the stepped run makes them, an initial environment whose table steps would cycle
    redrawn; then a quarter of those with a task get a timed stage, and at least one does whose stage is open
    once the initial steps are done (a deadline in every run): its task is a call to a service that always
    fails (500), re-sent once TIMED_DELAY later (a deadline: ldgsm:wakeAt), then exhausted. One per model, so
    that no two deadlines of one instance race."""
    models = [GenModel(rng, i < n_models) for i in range(n_models + n_free)]
    for gm in models:
        for _ in range(50):
            if settles(gm, gm.env, Table({"root": ("uninitialized", None)}, {})):
                break
            for v in sorted(gm.env):
                if rng.random() < 0.5:
                    gm.env[v] = draw_value(rng, gm.env[v])
    opened = {}  # model index -> its task stages open once the initial steps are done
    for i, gm in enumerate(models):
        table = Table({"root": ("uninitialized", None)}, {})
        for _ in range(64):
            table = table_step(gm, gm.env, table)
        opened[i] = sorted(s for s, st in gm.stages.items() if st["task"] and table.state(s) == "active")
    for i, gm in enumerate(models):
        tasks = sorted(s for s, st in gm.stages.items() if st["task"])
        if tasks and rng.random() < 0.25:
            gm.timed = rng.choice(opened[i] or tasks)
    if not any(gm.timed in opened[i] for i, gm in enumerate(models)):
        i = next((i for i in range(len(models)) if opened[i]), None)
        if i is not None:
            models[i].timed = rng.choice(opened[i])
    return models


def replay(gm, iri, writes):
    """The snapshots the history's writes make, from before set-up on (one more than writes), as gs.Snapshot
    keyed by model IRIs. Set-up adds its fragments without entries: inactive, uncompleted, unachieved."""
    stages = {iri("root"): {"frag": "it", "state": "uninitialized", "completed": None, "task": None}}
    milestones = {}
    snaps = [gs.Snapshot.from_json({"root_model": iri("root"), "stages": stages, "milestones": []})]
    fields = {"hasState": "state", "isCompleted": "completed", "taskState": "task"}
    for g, (_, entries) in enumerate(writes):
        stages = {k: dict(v) for k, v in stages.items()}
        milestones = {k: dict(v) for k, v in milestones.items()}
        if g == 0:
            for s in gm.stages:
                if s != "root":
                    stages[iri(s)] = {"frag": s, "state": "inactive", "completed": False, "task": None}
            for m, mi in gm.milestones.items():
                milestones[(iri(mi["stage"]), iri(m))] = {"frag": m, "achieved": False}
        for name, prop, _, to in entries:
            value = None if to == "-" else to
            if name in gm.stages and prop in fields:
                stages[iri(name)][fields[prop]] = (value == "true") if prop == "isCompleted" else value
            elif name in gm.milestones and prop == "isAchieved":
                milestones[(iri(gm.milestones[name]["stage"]), iri(name))]["achieved"] = value == "true"
        snaps.append(gs.Snapshot.from_json({"root_model": iri("root"), "stages": stages,
                                            "milestones": [[list(k), v] for k, v in milestones.items()]}))
    return snaps


class LiveRun(live.LiveRun):
    """One agent left to run by itself over every model (live.LiveRun), with a task service that fails the
    timed tasks; each run checks every write as the stepped test checks every iteration."""

    def __init__(self, ldgsm, label, agent_options, seed, n_models, n_free, quiet, work):
        live.LiveRun.__init__(self, ldgsm, label, agent_options, quiet, work)
        self.rng = random.Random(seed)
        self.models = live_models(self.rng, n_models, n_free)
        self.env_at = [[(0, dict(gm.env))] for gm in self.models]  # per model: (history's top when set, env)
        self.resent = 0

    def service_config(self):
        return {"/p%d/tasks/%s" % (i, gm.timed): {"fail": 1 << 30} for i, gm in enumerate(self.models) if gm.timed}

    def publish(self):
        for i, gm in enumerate(self.models):
            text = gm.turtle(self.rng, lambda s, i=i: "%sp%d/tasks/%s" % (self.service_base, i, s))
            with open(os.path.join(self.work, "p%d.ttl" % i), "w") as f:
                f.write(text)
            self.server.put("p%d/model" % i, text)
            for v, value in gm.env.items():
                self.server.put("p%d/env/%s" % (i, v), env_text(value))
            self.server.put("p%d/status" % i, "<#it> a <%sStageInstance> ; <%sisInstanceOf> <model#root> ; "
                            "<%shasState> <%suninitialized> ." % (gs.GSM, gs.GSM, gs.GSM, gs.GSM))
        self.instances = ["%sp%d/status#it" % (self.server.base, i) for i in range(len(self.models))]
        self.iris = [(lambda i: lambda name: "%sp%d/model#%s" % (self.server.base, i, name))(i)
                     for i in range(len(self.models))]
        self.gs_models = [gs.read_model(iri("root")) for iri in self.iris]
        return [a for inst in self.instances for a in ("--instance", inst)]

    def read(self, i):
        return live.read_status(self.instances[i])

    def at_rest(self, docs):
        """At rest the table has no step left for any instance (the agent saw every change)."""
        for i, gm in enumerate(self.models):
            snap = gs.Snapshot(docs[i][0], self.instances[i])
            table = Table.of(gm, snap, self.iris[i])
            if table_step(gm, gm.env, table).key() != table.key():
                self.failures.append("model p%d, rest %d: the table still has a step to take from %s"
                                     % (i, self.rests, gs.compact(self.gs_models[i], snap)))

    def act(self, docs):
        """One round of the environment: some models (at least one) get one write each, never one that would
        make their workflow cycle, and rather one that makes it move (of 4 drawn) than one it ignores. Returns
        when it began to write (an iteration that began after, and every one after it, saw the writes, or is
        followed by one that did: a notification that comes while an iteration runs is taken by the next), or
        None when it wrote nothing."""
        began = None
        chosen = [i for i in range(len(self.models)) if self.rng.random() < 0.5] \
            or [self.rng.randrange(len(self.models))]
        for i in chosen:
            gm = self.models[i]
            table = Table.of(gm, gs.Snapshot(docs[i][0], self.instances[i]), self.iris[i])
            pick = None
            for _ in range(4):
                v = self.rng.choice(sorted(gm.env))
                env = dict(gm.env, **{v: draw_value(self.rng, gm.env[v])})
                if settles(gm, env, table):
                    pick = pick or (v, env)
                    if table_step(gm, env, table).key() != table.key():
                        pick = (v, env)
                        break
            if pick:
                v, gm.env = pick
                began = began or time.time()
                self.env_at[i].append((docs[i][3], dict(gm.env)))
                self.server.put("p%d/env/%s" % (i, v), env_text(gm.env[v]))
                self.actions += 1
        return began

    def result(self, i, doc, requests):
        """Its history's writes, the task requests its service received (keys differ between runs), its final
        status with its call records' states."""
        snap = gs.Snapshot(doc[0], self.instances[i])
        return {"writes": [entries for _, entries in doc[2]], "tasks": [tuple(r[:4] for r in batch) for batch in requests],
                "final": " ".join([gs.compact(self.gs_models[i], snap)] + live.call_states(doc))}

    def check(self, docs, requests):
        timed_keys = [r[4] for i, gm in enumerate(self.models) for batch in requests.get(i, []) for r in batch
                      if r[0] == gm.timed]
        self.resent = len(timed_keys) - len(set(timed_keys))  # a re-send repeats its first send's key
        for i, gm in enumerate(self.models):
            self.check_model(i, gm, docs[i][2], requests.get(i, []))
        self.log_problems({"%sp%d/tasks/%s" % (self.service_base, i, gm.timed)
                           for i, gm in enumerate(self.models) if gm.timed})

    def check_model(self, i, gm, writes, batches):
        """The stepped test's checks, on every write of the history: GSM-1 and GSM-2, a step the rule table
        allows, exactly the table's step under the environment of the time, a finished workflow staying so;
        and each task request as its model says, sent once per activation (a timed one: re-sent once at most,
        under the same Idempotency-Key)."""
        iri, model = self.iris[i], self.gs_models[i]
        snaps = replay(gm, iri, writes)
        activations = dict.fromkeys(gm.stages, 0)
        for g, (first, _) in enumerate(writes):
            env = [e for top, e in self.env_at[i] if top < first][-1]
            prev, snap = snaps[g], snaps[g + 1]
            problems = gs.invariant_violations(model, snap) + gs.transition_violations(model, prev, snap)
            problems += step_differences(gm, simulate(gm, env, prev, iri), snap, iri)
            problems += root_finality(gm, prev, snap, iri)
            for p in problems:
                self.failures.append("model p%d%s, write %d: %s" % (i, "" if gm.well_formed else " (free)", g + 1, p))
            for s in gm.stages:
                activations[s] += prev.state(iri(s)) == "inactive" and snap.state(iri(s)) == "active"
        keys = {}
        for stage, method, body, status, key in (r for batch in batches for r in batch):
            keys.setdefault(stage, []).append(key)
            want = 500 if stage == gm.timed else 204
            if (method, body, status) != ("PUT", task_body(stage), want):
                self.failures.append("model p%d: a request of %s's task: %s %r answered %s (expected PUT %r, %d)"
                                     % (i, stage, method, body, status, task_body(stage), want))
        for s, st in gm.stages.items():
            sent = keys.get(s, [])
            distinct = [k for n, k in enumerate(sent) if k not in sent[:n]]
            runs = [len(list(g)) for _, g in itertools.groupby(sent)]
            if st["task"] and (len(distinct) != activations[s] or len(runs) != len(distinct) or ""
                               in distinct or any(n > (2 if s == gm.timed else 1) for n in runs)):
                self.failures.append("model p%d: %s's task: %d activations, requests under the keys %s"
                                     % (i, s, activations[s], sent))


def run_live(ldgsm, seed, n_models, n_free, rounds, seconds, quiet, against, keep):
    """Polling and `against` on the same seed, side by side (live.run_pair); each run's own checks, then the
    comparison."""
    started = time.monotonic()
    runs, failures, work, done = live.run_pair(
        lambda label, options, work: LiveRun(ldgsm, label, options, seed, n_models, n_free, quiet, work),
        against, rounds, seconds, "ldgsm-same-live.")
    lint_failures = []
    for i, gm in enumerate(runs[0].models):  # lint must not reject what satisfies the 4.3 conditions
        if gm.well_formed and os.path.exists(os.path.join(runs[0].work, "p%d.ttl" % i)):
            lint = subprocess.run([ldgsm, "lint", "p%d.ttl" % i], cwd=runs[0].work, capture_output=True, text=True)
            if lint.returncode != 0:
                lint_failures.append("model p%d: ldgsm lint exits %d: %s" % (i, lint.returncode, lint.stdout + lint.stderr))
    failures = lint_failures + failures
    a = runs[0]
    writes = sum(len(r["writes"]) for r in a.results or [])
    requests = sum(len(batch) for r in a.results or [] for batch in r["tasks"])
    timed = sum(1 for gm in a.models if gm.timed)
    stats = "%d models (%d free, %d timed) x %d rounds (%d environment writes), %d status writes, %d task requests " \
        "(%d re-sent at a deadline), %.1f s" % (len(a.models), n_free, timed, done, a.actions, writes, requests,
                                                 a.resent, time.monotonic() - started)
    return live.report("gsm_property --live", seed, stats, failures, [],
                       "reproduce: GSM_PROPERTY_SEED=%d python3 tests/gsm/property/gsm_property.py LDGSM --live --models %d "
                       "--free %d --rounds %d --against %s" % (seed, n_models, n_free, rounds, against),
                       "polling and %s made the same writes and requests" % against, keep, work)


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    is_live = "--live" in argv
    opts = {"--seed": None, "--models": "4" if is_live else "14", "--free": "2" if is_live else "6", "--iterations": "30",
            "--dump": None, "--rounds": "12", "--time": "600", "--quiet": "0.5", "--against": "notifications"}
    keep = "--keep" in argv
    incremental = "--incremental" in argv
    rest = [a for a in argv[1:] if a not in ("--keep", "--incremental", "--live")]
    for k, v in zip(rest[::2], rest[1::2]):
        if k not in opts:
            print("unknown option " + k, file=sys.stderr)
            return 2
        opts[k] = v
    seed = opts["--seed"] or os.environ.get("GSM_PROPERTY_SEED") or str(random.SystemRandom().randrange(1 << 31))
    print("gsm_property: seed %s" % seed, flush=True)
    errors = self_test()
    if errors:
        print("FAIL: " + "\nFAIL: ".join(errors))
        return 1
    if is_live:
        if opts["--against"] not in live.AGAINST:
            print("--against: one of " + ", ".join(sorted(live.AGAINST)), file=sys.stderr)
            return 2
        return run_live(os.path.abspath(argv[0]), int(seed), int(opts["--models"]), int(opts["--free"]),
                        int(opts["--rounds"]), float(opts["--time"]), float(opts["--quiet"]), opts["--against"], keep)
    return run(os.path.abspath(argv[0]), int(seed), int(opts["--models"]), int(opts["--free"]),
               int(opts["--iterations"]), keep, incremental, opts["--dump"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
