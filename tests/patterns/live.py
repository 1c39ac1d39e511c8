#!/usr/bin/env python3
"""live.py: same outcome, live, for compiled patterns (DESIGN section 9, "Same outcome"; issue 35). Random pattern
terms as the pattern property test makes them (tests/patterns/property.py: every kernel and policy over a run),
compiled with `ldgsm compile`, one instance each, run by two agents left to run by themselves side by side, each
with a server and a task service of its own (tests/gsm/property/live_runs.py): `ldgsm run -n 50` (polling) and
`ldgsm run --notifications -n 60000 --safety-poll 600000`. Per instance both must make the same status writes
(the status document's history, write by write), have the same task requests received (method, body, answer; in
order, those of one iteration as a set), have got as far at every rest, and end in the same status.

Tasks answer at once: 204 (ok), or 403 (fail: the call is not re-sent, exhausted in the next iteration) for
about one in seven, the stop shapes' as the generator fixes them. Some terms (about a third, and at least one)
have a timed task, one the workflow waits for at its first rest, started after every other task (so that no
cascade of steps races its deadline), outside every loop and mi (so that no two deadlines of one instance race): its service answers 500, it is re-sent once 1.5 s later (a deadline, ldgsm:wakeAt), then
exhausted (a failure). Terms that wait for the environment are preferred (with tasks that answer at once, the
others end at their start). The environment acts at rest,
in some instances each round (at least one), with one change each: a condition, event or cancel trigger
flipped, or an item list grown, chosen with the reference interpreter (tests/patterns/interp.py) among those
after which the workflow comes to rest (a loop whose condition stays true with tasks that answer at once
never would). Each run also checks that no write was withheld, refused or in conflict, and that no request
failed but those meant to.

usage: live.py LDGSM [--seed N] [--terms 4] [--rounds 8] [--time 600] [--quiet 0.5]
                     [--against notifications|incremental] [--keep]
The seed is printed first (and on failure, with how to reproduce); PATTERN_PROPERTY_SEED sets it too.
"""
import copy
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gsm", "property"))
sys.path.insert(0, os.path.join(HERE, "..", "gsm"))
import gsm_status as gs  # noqa: E402
import live_runs as live  # noqa: E402  (tests/gsm/property/live_runs.py: two agents side by side)
import property as prop  # noqa: E402  (the pattern property test: its terms, names and environment)
from interp import Interp, parse  # noqa: E402

FAIL_SHARE = 0.15  # of the tasks the generator leaves free: these answer 403
TIMED_SHARE = 0.35  # of the terms: one task answers 500, re-sent once at a deadline


def untimed_places(term, inside=False):
    """The tasks of term outside every loop and mi: a timed task there has one call at a time."""
    if term.kind == "task":
        return [] if inside else [term.name]
    inside = inside or term.kind in ("loop", "mi")
    return [n for c in term.children for n in untimed_places(c, inside)]


class Case:
    """One term: its text, environment (prop.Env: conditions, lists, every task's fixed outcome), timed task
    (or None) and the interpreter at rest under the environment so far."""

    def __init__(self, maker, rng, idx, timed):
        """timed: whether to have a timed task (its deadline comes at rest, see waits_for)."""
        for attempt in range(200):
            # the generator wants two features by the index: drawn, so that any may come first
            text, init, self.lists_max, _ = maker.term(rng, rng.randrange(len(prop.FEATURES)))
            tasks, _, _ = prop.names_of(text)
            outcomes = {t: init["outcomes"].get(t) or ("fail" if rng.random() < FAIL_SHARE else "ok") for t in tasks}
            self.timed = None
            if timed:  # one still running at rest were it never answered: its deadline comes while all else rests
                places = [t for t in untimed_places(parse(text)) if self.waits_for(text, init, outcomes, t)]
                if not places:
                    continue
                self.timed = rng.choice(places)
                outcomes[self.timed] = "fail"
            self.interp = self.settled(text, init, outcomes)
            if self.interp is None:
                continue  # a loop that never ends under these outcomes: never at rest
            if self.interp.status() != "running" and attempt < 160:
                continue  # tasks answer at once: a term that does not wait for the environment ends at its start
            self.text = text
            return
        raise RuntimeError("no term of seed's index %d comes to rest" % idx)

    def waits_for(self, text, init, outcomes, task):
        """Whether the workflow, at rest under the initial environment, waits for task when it is never answered,
        having started no task after it: no cascade of steps runs on beside its deadline (the two would race)."""
        interp = self.settled(text, init, dict(outcomes, **{task: "held"}))
        if interp is None or not interp.started():
            return False
        last = interp.started()[-1][0]
        return last in interp.tokens() and prop.task_name(parse(text), last) == task

    def settled(self, text, init, outcomes):
        """The interpreter at rest under the initial environment (and self.env that environment), or None."""
        self.env = prop.Env(0, dict(init, outcomes=outcomes), parse(text))
        interp = Interp(parse(text))
        try:
            interp.settle(self.env.for_interp(), max_rounds=2000)
        except RuntimeError:
            return None
        return interp

    def choose(self, rng):
        """A change after which the interpreter comes to rest, applied to it; None when none is."""
        _, conds, lists = prop.names_of(self.text)
        # a cancel trigger's flip usually ends the run: offered a third of the time
        changes = [("flip", c, not self.env.conds.get(c, False)) for c in conds if c[0] != "x" or rng.random() < 0.3]
        changes += [("grow", lst, self.env.items[lst] + 1) for lst in lists
                    if self.env.items[lst] <= self.lists_max[lst]]
        rng.shuffle(changes)
        for change in changes:
            trial, env = copy.deepcopy(self.interp), copy.deepcopy(self.env)
            env.apply(change)
            try:
                trial.settle(env.for_interp(), max_rounds=2000)
            except RuntimeError:
                continue
            self.interp, self.env = trial, env
            return change
        return None


def make_cases(rng, seed, n_terms):
    """The terms of a seed; the last has a timed task when none before it has: a deadline in every run."""
    maker, cases = prop.Property(None, seed, False), []
    for idx in range(n_terms):
        timed = rng.random() < TIMED_SHARE or (idx == n_terms - 1 and not any(c.timed for c in cases))
        cases.append(Case(maker, rng, idx, timed))
    return cases


class PatternRun(live.LiveRun):
    """The terms of a seed, one instance each (pI/models/m, pI/status/m, pI/env/NAME)."""

    def __init__(self, ldgsm, label, agent_options, cases, rng, quiet, work):
        live.LiveRun.__init__(self, ldgsm, label, agent_options, quiet, work)
        self.cases, self.rng = copy.deepcopy(cases), rng

    def service_config(self):
        """Every task's answer (each its own entry: data_service.py takes the longest prefix, and t1 is one of
        t13's)."""
        return {"/p%d/tasks/%s" % (i, t): {"fail": 1 << 30} if t == case.timed else {"status": 403 if o == "fail" else 204}
                for i, case in enumerate(self.cases) for t, o in case.env.fixed.items()}

    def publish(self):
        for i, case in enumerate(self.cases):
            model_uri = "%sp%d/models/m" % (self.server.base, i)
            names = os.path.join(self.work, "names-p%d.ttl" % i)
            with open(names, "w") as f:
                f.write(prop.names_turtle(case.text, self.service_base.rstrip("/"), "p%d" % i,
                                          [case.timed] if case.timed else [], live.TIMED_DELAY))
            model = os.path.join(self.work, "p%d.ttl" % i)
            comp = subprocess.run([self.ldgsm, "compile", "--term", case.text, "--base", model_uri, "-o", model, names],
                                  capture_output=True, text=True)
            if comp.returncode != 0:
                raise RuntimeError("ldgsm compile of %s exits %d: %s" % (case.text, comp.returncode,
                                                                         comp.stderr + comp.stdout))
            with open(model) as f:
                self.server.put("p%d/models/m" % i, f.read())
            for c, v in sorted(case.env.conds.items()):
                self.put_cond(i, c, v)
            for lst, n in sorted(case.env.items.items()):
                self.put_list(i, lst, n)
            self.server.put("p%d/status/m" % i, "@prefix gsm: <http://purl.org/gsm/vocab#> .\n"
                            "<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; "
                            "gsm:hasState gsm:uninitialized .")
        self.instances = ["%sp%d/status/m#it" % (self.server.base, i) for i in range(len(self.cases))]
        self.gs_models = [gs.read_model("%sp%d/models/m#root" % (self.server.base, i)) for i in range(len(self.cases))]
        return [a for inst in self.instances for a in ("--instance", inst)]

    def put_cond(self, i, name, value):
        self.server.put("p%d/env/%s" % (i, name), "<#it> <%svalue> %s ." % (prop.ENV, "true" if value else "false"))

    def put_list(self, i, name, n):
        self.server.put("p%d/env/%s" % (i, name),
                        "<#it> <%sitems> (%s) ." % (prop.ENV, " ".join(str(k + 1) for k in range(n))))

    def read(self, i):
        return live.read_status(self.instances[i])

    def act(self, docs):
        """Some instances whose workflow runs (at least one; any when none runs) get one change each."""
        began = None
        running = [i for i, case in enumerate(self.cases) if case.interp.status() == "running"] \
            or list(range(len(self.cases)))
        chosen = [i for i in running if self.rng.random() < 0.5] or [self.rng.choice(running)]
        for i in chosen:
            change = self.cases[i].choose(self.rng)
            if change is None:
                continue
            began = began or time.time()
            kind, what, value = change
            (self.put_cond if kind == "flip" else self.put_list)(i, what, value)
            self.actions += 1
        return began

    def result(self, i, doc, requests):
        snap = gs.Snapshot(doc[0], self.instances[i])
        return {"writes": [entries for _, entries in doc[2]], "tasks": [tuple(r[:4] for r in batch) for batch in requests],
                "final": " ".join([gs.compact(self.gs_models[i], snap)] + live.call_states(doc))}

    def check(self, docs, requests):
        self.log_problems({"%sp%d/tasks/%s" % (self.service_base, i, t) for i, case in enumerate(self.cases)
                           for t, o in case.env.fixed.items() if o == "fail"})


def main(argv):
    parsed = live.parse_args(argv, __doc__, {"--seed": None, "--terms": "4", "--rounds": "8", "--time": "600",
                                             "--quiet": "0.5"})
    if not parsed:
        return 2
    ldgsm, opts, keep = parsed
    seed = int(opts["--seed"] or os.environ.get("PATTERN_PROPERTY_SEED") or random.SystemRandom().randrange(1 << 31))
    print("pattern live: seed %d" % seed, flush=True)
    against, n_terms, rounds = opts["--against"], int(opts["--terms"]), int(opts["--rounds"])
    started = time.monotonic()
    rng = random.Random(seed)
    cases = make_cases(rng, seed, n_terms)  # once: both runs take them, and the environment's draws after them

    def make_run(label, options, work):
        run_rng = random.Random()
        run_rng.setstate(rng.getstate())
        return PatternRun(ldgsm, label, options, cases, run_rng, float(opts["--quiet"]), work)
    runs, failures, work, done = live.run_pair(make_run, against, rounds, float(opts["--time"]), "ldgsm-pattern-live.")
    a = runs[0]
    stats = "%d terms (%d timed) x %d rounds (%d environment changes), %d status writes, %d task requests, %.1f s" % (
        len(a.cases), sum(1 for c in a.cases if c.timed), done, a.actions,
        sum(len(r["writes"]) for r in a.results or []),
        sum(len(batch) for r in a.results or [] for batch in r["tasks"]), time.monotonic() - started)
    details = ["  p%d: %s%s" % (i, case.text, " (timed: %s)" % case.timed if case.timed else "")
               for i, case in enumerate(a.cases)]
    return live.report("pattern live", seed, stats, failures, details,
                       "reproduce: PATTERN_PROPERTY_SEED=%d python3 tests/patterns/live.py LDGSM --terms %d --rounds %d "
                       "--against %s" % (seed, n_terms, rounds, against),
                       "polling and %s made the same writes and requests" % against, keep, work)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
