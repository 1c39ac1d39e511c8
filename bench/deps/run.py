#!/usr/bin/env python3
"""bench/deps/run.py: guard compilation and residuation in `ldgsm deps` (issue 16) for dependency sets of
growing size, against an automaton construction of the same constraints, Declare's approach.

Workflows (N dependencies each):
  chain   D_i: ~e_i | ~e_i+1 | e_i . e_i+1  (if both happen, e_i first), N+1 events
  travel  N/3 copies of Example 15's three dependencies, each over its own events, starts triggerable
          and aborts immediate

Measured, medians of RUNS (default 3) runs:
  compile     `ldgsm deps FILE`: alpha of every dependency, every event's guard simplified, printed
  residuate   `ldgsm deps FILE --trace ...` minus compile, per attempted event: every event attempted,
              in order (chain: forward, each accepted at once; reverse, each waiting for the one before)
  gsm         `ldgsm deps --gsm MODEL FILE -o OUT` (chain only: travel's immediate aborts have no GSM
              meaning): a model with a stage per event, every guard compiled in, linted, written
  automaton   Declare compiles the conjunction of its LTL constraints into one automaton; no Declare
              implementation is packaged in Debian or on npm, so Debian's lbt (LTL to generalised Buchi
              automaton, the same exponential construction) translates the conjunction of the dependencies
              as LTL (e: F e; a . b: F(a & X F b); ~e its own proposition), with a TIMEOUT (default 20 s)
Usage: bench/deps/run.py [LDGSM]   (SIZES="4 8 16 ..." and RUNS override)
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "deps"))
from policy_property import model as gsm_model  # noqa: E402  (a stage per event)


def chain(n):
    return ["D%d: ~e%d | ~e%d | e%d . e%d" % (i, i, i + 1, i, i + 1) for i in range(1, n + 1)], \
        ["e%d" % i for i in range(1, n + 2)]


def travel(n):
    lines, events, attrs = [], [], {"immediate": [], "triggerable": []}
    for c in range(1, max(1, n // 3) + 1):
        lines += ["T%d_1: ~s_buy%d | s_book%d" % (c, c, c),
                  "T%d_2: ~c_book%d | ~c_buy%d | c_book%d . c_buy%d" % (c, c, c, c, c),
                  "T%d_3: ~c_book%d | c_buy%d | s_cancel%d" % (c, c, c, c)]
        attrs["immediate"] += ["~c_book%d" % c, "~c_buy%d" % c]
        attrs["triggerable"] += ["s_buy%d" % c, "s_book%d" % c, "s_cancel%d" % c]
        events += ["s_buy%d" % c, "c_book%d" % c, "~c_buy%d" % c]
    lines += ["%s %s" % (k, " ".join(v)) for k, v in attrs.items()]
    return lines, events


def ltl(dep, props):
    """a dependency of the chain or travel sets as LBT prefix LTL; props numbers the propositions (LBT
    names them p0, p1, ...)"""
    def term(t):
        t = t.strip()
        if "." in t:
            a, b = [x.strip() for x in t.split(".")]
            return "F & %s X F %s" % (prop(a), prop(b))
        return "F %s" % prop(t)

    def prop(lit):
        return "p%d" % props.setdefault(lit, len(props))

    parts = [term(t) for t in dep.split(":", 1)[1].split("|")]
    out = parts[-1]
    for p in reversed(parts[:-1]):
        out = "| %s %s" % (p, out)
    return out


def timed(cmd, timeout=None, stdin=None):
    start = time.perf_counter()
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    return time.perf_counter() - start, done


def main(argv):
    ldgsm = argv[1] if len(argv) > 1 else os.path.join(ROOT, "build", "ldgsm")
    runs = int(os.environ.get("RUNS", "3"))
    sizes = [int(x) for x in os.environ.get("SIZES", "3 6 12 24 48 96 192 384 768").split()]
    timeout = float(os.environ.get("TIMEOUT", "20"))
    lbt = shutil.which("lbt")
    print("%-7s %5s %7s | %11s %13s %13s %9s | %13s %9s" % (
        "set", "deps", "events", "compile ms", "resid. us/ev", "(reverse)", "gsm ms", "lbt ms", "states"))
    with tempfile.TemporaryDirectory() as work:
        for name, make in (("chain", chain), ("travel", travel)):
            lbt_gave_up = False
            for n in sizes:
                lines, attempts = make(n)
                deps = [l for l in lines if ":" in l]
                path = os.path.join(work, "%s-%d.deps" % (name, n))
                with open(path, "w") as f:
                    f.write("\n".join(lines) + "\n")
                compile_s, resid, resid_rev, gsm_s = [], [], [], []
                if name == "chain":
                    model = os.path.join(work, "chain-%d.ttl" % n)
                    with open(model, "w") as f:
                        f.write(gsm_model(attempts))
                for _ in range(runs):
                    t, done = timed([ldgsm, "deps", path])
                    if done.returncode != 0:
                        sys.exit("ldgsm deps %s: exit %d: %s" % (path, done.returncode, done.stderr))
                    compile_s.append(t)
                    t2, done = timed([ldgsm, "deps", path, "--trace", " ".join(attempts)])
                    if done.returncode != 0:
                        sys.exit("ldgsm deps --trace: exit %d: %s" % (done.returncode, done.stderr))
                    resid.append(max(t2 - t, 0) / len(attempts))
                    if name == "chain":
                        t3, _ = timed([ldgsm, "deps", path, "--trace", " ".join(reversed(attempts))])
                        resid_rev.append(max(t3 - t, 0) / len(attempts))
                        t4, done = timed([ldgsm, "deps", "--gsm", model, path, "-o", model + ".out"])
                        if done.returncode != 0:
                            sys.exit("ldgsm deps --gsm: exit %d: %s" % (done.returncode, done.stderr))
                        gsm_s.append(t4)
                lbt_ms, states = "-", "-"
                if lbt and not lbt_gave_up:
                    props = {}
                    formula = ltl(deps[0], props)
                    for d in deps[1:]:
                        formula = "& %s %s" % (ltl(d, props), formula)
                    samples = []
                    for _ in range(runs):
                        try:
                            t, done = timed([lbt], timeout=timeout, stdin=formula + "\n")
                        except subprocess.TimeoutExpired:
                            lbt_gave_up = True
                            lbt_ms, states = "> %d s" % timeout, "-"
                            break
                        samples.append(t)
                        states = done.stdout.split()[0] if done.stdout else "?"
                    if samples and not lbt_gave_up:
                        lbt_ms = "%.1f" % (statistics.median(samples) * 1000)
                elif lbt_gave_up:
                    lbt_ms = "(gave up)"
                elif not lbt:
                    lbt_ms = "(no lbt)"
                print("%-7s %5d %7d | %11.1f %13.1f %13s %9s | %13s %9s" % (
                    name, len(deps), len(attempts) if name == "travel" else n + 1,
                    statistics.median(compile_s) * 1000, statistics.median(resid) * 1e6,
                    "%.1f" % (statistics.median(resid_rev) * 1e6) if resid_rev else "-",
                    "%.1f" % (statistics.median(gsm_s) * 1000) if gsm_s else "-", lbt_ms, states), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
