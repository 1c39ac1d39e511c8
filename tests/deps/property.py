#!/usr/bin/env python3
"""property.py: random dependency sets over up to four events, `ldgsm deps` against tests/deps/oracle.py.

For every set (1 to 3 dependencies; in one case of three the events get random attributes):
  guards   every printed guard is G_b over alpha of the dependencies that mention the event, at i = 0;
  alpha    every printed alpha has the paths of Definition 21;
  sound    the scheduler, run (--trace) by random environments that attempt each event or its
           complement in a random order (and, when one is rejected, its complement), never leaves a
           history that cannot be completed to a trace satisfying every dependency, and a complete one
           satisfies them all (Theorem 13 and Lemma 12 by enumeration);
  complete when the events are normal: attempting, in its order, the events of a trace that satisfies
           every dependency, none is rejected and every one happens.

Usage: property.py LDGSM [CASES [SEED]]   (exit 1 and the failing case, with its seed, on a violation)
"""
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402

EVENTS = ("a", "b", "c", "d")


def random_dependency(rng, events, depth):
    if depth == 0 or rng.random() < 0.3:
        name = rng.choice(events)
        return ("~" if rng.random() < 0.5 else "") + name
    op = rng.choice((".", ".", "|", "|", "&"))
    left, right = random_dependency(rng, events, depth - 1), random_dependency(rng, events, depth - 1)
    return "(%s %s %s)" % (left, op, right)


def random_set(rng, with_attributes):
    events = EVENTS[: rng.randint(2, 4)]
    lines = ["D%d: %s" % (i, random_dependency(rng, events, rng.randint(1, 3))) for i in range(rng.randint(1, 3))]
    if with_attributes:
        # an attribute of an event no dependency mentions is refused (a misspelt name): drawn as before,
        # so the seeds keep their sets, and left out
        used = oracle.workflow_symbols(oracle.parse_workflow("\n".join(lines) + "\n"))
        for word in ("inevitable", "immediate", "triggerable"):
            chosen = [("~" if rng.random() < 0.3 else "") + e for e in events if rng.random() < 0.2]
            chosen = [l for l in chosen if l.lstrip("~") in used]
            # an event is inevitable or immediate, not both: immediate wins
            if word == "inevitable":
                inevitable = chosen
            elif word == "immediate":
                chosen = [l for l in chosen if l not in inevitable]
            if chosen:
                lines.append("%s %s" % (word, " ".join(chosen)))
    return "\n".join(lines) + "\n"


def deps(ldgsm, path, *args):
    done = subprocess.run([ldgsm, "deps", *args, path], capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


def trace(ldgsm, path, attempts):
    rc, out, err = deps(ldgsm, path, "--trace", " ".join(oracle.lit_str(l) for l in attempts))
    if rc != 0:
        raise AssertionError("--trace %s: exit %d: %s" % (attempts, rc, err))
    steps = re.findall(r"^  (\w+) ([^\s:]+)", out, re.M)
    history = [oracle.parse_literal(l) for l in re.search(r"^history:(.*)$", out, re.M).group(1).split()]
    rejected = [oracle.parse_literal(l) for kind, l in steps if kind == "reject"]
    return history, rejected, out


def completable(history, wf_deps, syms):
    """some maximal trace over syms that begins with history satisfies every dependency"""
    return any(tuple(u[: len(history)]) == tuple(history) and oracle.satisfies_all(u, wf_deps)
               for u in oracle.maximal_traces(syms))


def check_case(ldgsm, text, rng, path):
    with open(path, "w") as f:
        f.write(text)
    wf = oracle.parse_workflow(text)
    wf_deps = list(wf.deps.values())
    syms = oracle.workflow_symbols(wf)
    rc, out, err = deps(ldgsm, path)
    unenforceable = any(not oracle.alpha(d, wf.inevitable, wf.immediate) for d in wf_deps)
    if unenforceable and rc != 1:
        return "a dependency is unenforceable (empty alpha) and ldgsm deps exits %d" % rc
    if rc not in (0, 1):
        return "exit %d: %s" % (rc, err)
    # guards and alpha
    for m in re.finditer(r"^G\((\S+)\) = (.*?)(?:   \[.*\])?$", out, re.M):
        lit = oracle.parse_literal(m.group(1))
        mentioning = [d for d in wf_deps if lit[0] in oracle.symbols(d)]
        want = oracle.guard(mentioning, lit, wf.inevitable, wf.immediate)
        counter = oracle.counterexample(oracle.parse(m.group(2)), want, from_zero_only=True, extra_symbols=syms)
        if counter:
            return "G(%s) printed %s, Definition 11 gives %s; they differ at %s" % (
                m.group(1), m.group(2), oracle.to_text(want), counter)
    for m in re.finditer(r"^(\S+): .*\n  alpha: (.*?)(?:   .*)?$", out, re.M):
        want = sorted(oracle.alpha(wf.deps[m.group(1)], wf.inevitable, wf.immediate))
        printed = oracle.parse(m.group(2))
        got = sorted(u for u in oracle.maximal_traces(oracle.symbols(wf.deps[m.group(1)]))
                     if oracle.satisfies(u, printed))
        if got != want:
            return "alpha(%s) printed %s: paths %s, Definition 21 gives %s" % (m.group(1), m.group(2), got, want)
    if rc != 0:
        return None  # unenforceable: nothing to schedule
    # sound: random environments
    for _ in range(3):
        order = list(syms)
        rng.shuffle(order)
        attempts = [(s, rng.random() < 0.6) for s in order]
        for _ in range(2 * len(order) + 1):
            history, rejected, tout = trace(ldgsm, path, attempts)
            decided = {l[0] for l in history}
            retry = [oracle.complement(l) for l in rejected
                     if l[0] not in decided and oracle.complement(l) not in attempts]
            if not retry:
                break
            attempts += retry
        if not completable(history, wf_deps, syms):
            return "attempts %s left history %s, which no trace satisfying every dependency begins with:\n%s" % (
                " ".join(map(oracle.lit_str, attempts)), " ".join(map(oracle.lit_str, history)), tout)
    # complete: normal events only
    if wf.inevitable or wf.immediate or wf.attrs["triggerable"]:
        return None
    satisfying = [u for u in oracle.maximal_traces(syms) if oracle.satisfies_all(u, wf_deps)]
    for u in rng.sample(satisfying, min(4, len(satisfying))):
        history, rejected, tout = trace(ldgsm, path, list(u))
        if rejected or sorted(history) != sorted(u) or not oracle.satisfies_all(tuple(history), wf_deps):
            return "the satisfying trace %s, attempted in order, was refused (history %s):\n%s" % (
                oracle.trace_str(u), oracle.trace_str(history), tout)
    return None


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    ldgsm = argv[1]
    cases = int(argv[2]) if len(argv) > 2 else 150
    seed = int(argv[3]) if len(argv) > 3 else random.randrange(1 << 30)
    print("property.py: %d dependency sets, seed %d (replay: property.py LDGSM %d %d)" % (cases, seed, cases, seed))
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for n in range(cases):
            rng = random.Random(seed * 100003 + n)
            text = random_set(rng, with_attributes=n % 3 == 2)
            problem = check_case(ldgsm, text, rng, os.path.join(work, "case.deps"))
            if problem:
                failures += 1
                print("FAIL case %d:\n%s%s\n" % (n, text, problem))
                if failures >= 5:
                    break
    print("property.py: %d cases, %d failed" % (cases, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
