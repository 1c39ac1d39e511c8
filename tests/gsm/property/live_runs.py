#!/usr/bin/env python3
"""live_runs.py: the machinery of the live same-outcome tests (DESIGN section 9, "Same outcome"; issue 35): two
agents left to run by themselves over the same instances under the same environment, side by side, each with
an `ldgsm serve --memory` (and, for workflows whose tasks call out, a task service, tests/gsm/data_service.py)
of its own: `ldgsm run -n 50` (polling) and the agent under test (`--notifications -n 60000 --safety-poll
600000` by default: whatever it does within a minute, notifications brought). A stepped run cannot compare
them: a notification arrives when it arrives, so the change-driven agent may see the environment's last write
one iteration later than polling does, which is no fault. What must be the same is what each instance goes
through: its history, write by write, the requests it made as they were received, and its final state. So
the environment acts only when the workflow rests (LiveRun.rest), with one change per instance at most, and
each run sees each change at the same point of each instance's progress.

A test subclasses LiveRun (what it publishes, reads, changes and checks; tests/gsm/property/gsm_property.py
--live for random GSM models, tests/patterns/live.py for compiled patterns, tests/wsm/live.py for state
machines) and calls run_pair. Standard library only.
"""
import datetime
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request

HERE = os.path.dirname(os.path.realpath(__file__))
GSM_TESTS = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(1, GSM_TESTS)
import data_service  # noqa: E402 (tests/gsm/data_service.py: the task service, and its log's reader)
import gsm_status as gs  # noqa: E402

# Seconds any one wait may take (a server's start or stop, a request, a rest, the agent's exit): a regression
# that hangs fails with a message instead of stalling the run. LDGSM_TEST_WAIT overrides.
WAIT = int(os.environ.get("LDGSM_TEST_WAIT", "30"))
TIMED_DELAY = 1.5  # s: a timed task's retry delay, longer than a cascade of steps, so that none races it
POLLING = ["-n", "50"]
AGAINST = {  # the agents compared with polling
    "notifications": ["--notifications", "-n", "60000", "--safety-poll", "600000"],
    "incremental": ["--incremental", "-n", "50", "--safety-poll", "600000"],
}
LDGSM = "https://w3id.org/ldgsm#"
ITERATION = re.compile(r"^iteration: .* unsafe (\d+): \d+ sent, (\d+) withheld, (\d+) conflicting, \d+ yielded, "
                       r"(\d+) refused")
REQUEST = re.compile(r"^(PUT|POST|PATCH|DELETE) (\S+) (\S+)")


class Server:
    """An `ldgsm serve --memory` on a free port, its log in work/serve.log."""

    def __init__(self, ldgsm, work):
        self.log_path = os.path.join(work, "serve.log")
        self.proc = subprocess.Popen([ldgsm, "serve", "--memory", "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=open(self.log_path, "w"), text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], WAIT)
        self.base = self.proc.stdout.readline().strip() if ready else ""
        if not self.base.startswith("http://"):
            raise RuntimeError("ldgsm serve did not start: " + open(self.log_path).read())

    def put(self, path, text):
        return self.send("PUT", path, text)

    def send(self, method, path, text, headers=None):
        """The answer's status; an error status raises (urllib.error.HTTPError)."""
        req = urllib.request.Request(self.base + path, data=text.encode(), method=method,
                                     headers=dict({"Content-Type": "text/turtle"}, **(headers or {})))
        with urllib.request.urlopen(req, timeout=WAIT) as resp:
            resp.read()
            return resp.status

    def stop(self):
        """SIGTERM; False when the server had to be killed."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=WAIT)
            return True
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return False


def read_status(instance):
    """A GSM status document: (triples, names, writes, top): a name for each fragment (its stage's or
    milestone's model name; "call STAGE" for a call record); its history as writes in order (the entries of
    one write share their ldgsm:at), each (its first ldgsm:sequence, a sorted tuple of (name, property, from,
    to)); the highest sequence (0: none). Sequences not 1..top mean that the history lost entries."""
    triples = gs.fetch(instance)
    props = {}
    for s, p, o in triples:
        props.setdefault(s, {}).setdefault(p, []).append(o)
    names = {s: gs.local(ps[gs.GSM + "isInstanceOf"][0]) for s, ps in props.items() if gs.GSM + "isInstanceOf" in ps}
    for s, ps in props.items():
        if LDGSM + "CallRecord" in ps.get(gs.RDF_TYPE, []):
            names[s] = "call " + names.get(ps.get(LDGSM + "ofStage", ["?"])[0], "?")
    writes, seqs = {}, []
    for s, ps in props.items():
        if LDGSM + "sequence" not in ps:
            continue
        seq = int(ps[LDGSM + "sequence"][0])
        seqs.append(seq)
        entry = (names.get(ps.get(LDGSM + "changed", ["?"])[0], "?"), gs.local(ps.get(LDGSM + "property", ["?"])[0]),
                 " ".join(sorted(gs.local(v) for v in ps.get(LDGSM + "from", []))) or "-",
                 " ".join(sorted(gs.local(v) for v in ps.get(LDGSM + "to", []))) or "-")
        first, entries = writes.get(ps.get(LDGSM + "at", [""])[0], (seq, []))
        writes[ps.get(LDGSM + "at", [""])[0]] = (min(first, seq), entries + [entry])
    top = max(seqs, default=0)
    if sorted(seqs) != list(range(1, top + 1)):
        raise ValueError("%s: the history's sequences are not 1..%d: entries were lost" % (instance, top))
    return triples, names, [(first, tuple(sorted(entries))) for first, entries in sorted(writes.values())], top


def clock_seconds(stamp):
    """An xsd:dateTime of the agent's clock ("2026-12-07T17:04:08.902Z") in seconds since the epoch."""
    at = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")
    return at.replace(tzinfo=datetime.timezone.utc).timestamp()


def calls_waiting(triples):
    """The deadlines (seconds since the epoch) of the call records still calling."""
    props = {}
    for s, p, o in triples:
        props.setdefault(s, {}).setdefault(p, []).append(o)
    out = []
    for ps in props.values():
        if LDGSM + "calling" in ps.get(LDGSM + "callState", []) and ps.get(LDGSM + "deadline"):
            out.append(clock_seconds(ps[LDGSM + "deadline"][0]))
    return out


def call_states(doc):
    """A status document's call records as "STAGE-NAME=STATE", sorted (read_status's doc)."""
    return sorted("%s=%s" % (doc[1].get(s, "?"), gs.local(o)) for s, p, o in doc[0] if p == LDGSM + "callState")


class Tail:
    """A file's complete lines, as they are appended."""

    def __init__(self, path):
        self.path, self.offset = path, 0

    def lines(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return []
        end = data.rfind(b"\n") + 1
        self.offset += end
        return data[:end].decode("utf-8", "replace").splitlines()


class Rounds:
    """Both runs take the same rounds of the environment: each waits for the other at every rest, and the
    barrier decides for both whether another round begins (so that a time limit ends them at the same one)."""

    def __init__(self, rounds, seconds):
        self.rounds, self.end, self.done, self.go = rounds, time.monotonic() + seconds, 0, True
        self.barrier = threading.Barrier(2, action=self.decide)

    def decide(self):
        self.go = self.done < self.rounds and time.monotonic() < self.end
        self.done += self.go

    def next(self):
        try:
            self.barrier.wait(timeout=4 * WAIT)
        except threading.BrokenBarrierError:
            return False
        return self.go


class LiveRun:
    """One agent left to run by itself over every instance, with an `ldgsm serve` and (when service_config
    gives one) a task service of its own (tests/gsm/data_service.py: it records every request with its body).
    A subclass gives:
      publish()            PUTs what the instances need; returns the agent's arguments naming them
                           (["--instance", URI, ...]) and sets self.instances (one per instance, in order);
                           task paths on the service are /pI/tasks/NAME, I the instance's index
      service_config()     data_service.py's configuration (a dict), or None for no service
      read(i)              instance i's document as read at rest: a tuple whose [2] is its history's writes
                           in order (read_status's, for GSM instances)
      deadlines(doc)       the deadlines of its calls still calling (calls_waiting)
      act(docs)            one round of the environment, at rest; returns when it began to write (time.time()),
                           None when it wrote nothing
      result(i, doc, requests)   what must be the same in both runs: a dict of lists compared item by item
                           ("writes", "tasks", ...) and "final", compared whole; "rests" is added
      check(docs, requests)      the run's own checks at the end (self.failures)
    and may give at_rest(docs) (checks at each rest, beside that no call is still calling past its deadline)
    and ENV_WRITE (the server's log lines that are the environment's writes, not the agent's)."""

    ENV_WRITE = re.compile(r"^\S+ /p\d+/env/")

    def __init__(self, ldgsm, label, agent_options, quiet, work):
        self.ldgsm, self.label, self.agent_options, self.quiet = ldgsm, label, agent_options, quiet
        self.polling = "--notifications" not in agent_options  # it iterates every -n, logging as it goes
        self.work = os.path.join(work, label)
        os.makedirs(self.work)
        self.failures, self.results, self.instances = [], None, []
        self.rests = self.actions = 0
        self.requested, self.progress = [], []  # per instance: task requests received; at each rest (writes, requests)
        self.server = self.service = self.agent = None
        self.service_base = self.service_log = None

    # --- to give -------------------------------------------------------------------------------------------

    def service_config(self):
        return None

    def at_rest(self, docs):
        pass

    def deadlines(self, doc):
        return calls_waiting(doc[0])

    # --- the run -------------------------------------------------------------------------------------------

    def start(self):
        self.server = Server(self.ldgsm, self.work)
        config = self.service_config()
        if config is not None:
            self.service_log = os.path.join(self.work, "service.log")
            with open(os.path.join(self.work, "service.json"), "w") as f:
                json.dump(config, f)
            self.service = subprocess.Popen(
                [sys.executable, os.path.join(GSM_TESTS, "data_service.py"), "serve", "0",
                 os.path.join(self.work, "service.json"), self.service_log],
                stdout=subprocess.PIPE, stderr=open(os.path.join(self.work, "service.err"), "w"), text=True)
            ready, _, _ = select.select([self.service.stdout], [], [], WAIT)
            port = self.service.stdout.readline().strip() if ready else ""
            if not port.isdigit():
                raise RuntimeError("the task service did not start")
            self.service_base = "http://127.0.0.1:%s/" % port
        targets = self.publish()
        self.requested = [0] * len(self.instances)
        self.progress = [[] for _ in self.instances]
        # -v: its iteration and request lines are what the runs are followed by
        args = [self.ldgsm, "run", "-v", "--history", "100000"] + self.agent_options + targets
        self.agent_log = os.path.join(self.work, "agent.log")
        self.tails = {"serve": Tail(self.server.log_path), "agent": Tail(self.agent_log)}
        if self.service_log:
            self.tails["service"] = Tail(self.service_log)
        if not self.polling:  # its iterations' clocks (polling's trace would be a record per GET)
            args += ["--trace", os.path.join(self.work, "trace.jsonl")]
            self.tails["trace"] = Tail(os.path.join(self.work, "trace.jsonl"))
        self.started = time.time()
        self.agent = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=open(self.agent_log, "w"))

    def stop(self):
        if self.agent is not None and self.agent.poll() is None:
            self.agent.terminate()
            try:
                if self.agent.wait(timeout=WAIT) != 0:
                    self.failures.append("the agent exits %d at SIGTERM" % self.agent.returncode)
            except subprocess.TimeoutExpired:
                self.agent.kill()
                self.agent.wait()
                self.failures.append("the agent did not stop within %d s of SIGTERM" % WAIT)
        if self.service is not None and self.service.poll() is None:
            self.service.terminate()
            self.service.wait()
        if self.server is not None and self.server.proc.poll() is None and not self.server.stop():
            self.failures.append("the server did not stop within %d s of SIGTERM" % WAIT)

    def look(self):
        """Since the last look: whether the server or the task service saw anything but the environment's writes;
        the agent's new log lines; the iterations its trace records (change-driven agents)."""
        busy = any(REQUEST.match(line) and not self.ENV_WRITE.match(line) for line in self.tails["serve"].lines())
        for line in self.tails["service"].lines() if "service" in self.tails else ():
            busy = True
            m = re.match(r'.*"path": "/p(\d+)/', line)
            if m and '"method"' in line:
                self.requested[int(m.group(1))] += 1
        iterations = [json.loads(line) for line in self.tails["trace"].lines() if '"kind":"iteration"' in line] \
            if "trace" in self.tails else []
        return busy, self.tails["agent"].lines(), iterations

    def read_all(self):
        return [self.read(i) for i in range(len(self.instances))]

    def rest(self, after):
        """Waits until the workflows rest, the environment having begun to write at `after` (wall clock): since
        the agent's last request, and since `after`, an iteration that derived none began, and the agent wrote
        or requested nothing, nor the change-driven one logged anything, for the quiet period. Polling tells
        only the order of its log lines (its requests before their iteration's line): after `after`, the
        second iteration logged began after it. The change-driven agent's trace gives each iteration's clock; it
        makes none when it reads none of the documents written (a compiled pattern reads an event's document only
        while a stage that waits for it can open), so for it a longer quiet period (4 times, 2 s at least) with
        no iteration is a rest too.
        A call waiting for a deadline is no rest: its deadline is waited for, and then as after a write.
        Returns the documents as read at rest (read), or None after WAIT seconds: a failure."""
        if self.polling:  # what it logged before now is no iteration after the environment's writes
            self.look()
        need, quiet_iterations, last = (2 if self.polling else 1), 0, time.monotonic()
        floor = handled = after  # change-driven: an iteration must begin after this (wall clock)
        limit = time.monotonic() + WAIT
        while time.monotonic() < limit:
            time.sleep(0.05)
            if self.agent.poll() is not None:
                self.failures.append("the agent exited (status %d)" % self.agent.returncode)
                return None
            busy, lines, iterations = self.look()
            if busy or (lines and not self.polling):
                last = time.monotonic()
            for line in lines if self.polling else ():
                if REQUEST.match(line):
                    need, quiet_iterations, last = 1, 0, time.monotonic()
                elif line.startswith("iteration:") and " unsafe 0:" in line:
                    quiet_iterations += 1
            for it in iterations:  # in order: one after a request began after it
                if it["unsafe"]:
                    quiet_iterations, last = 0, time.monotonic()
                elif clock_seconds(it["now"]) > floor:
                    quiet_iterations += 1
            idle = time.monotonic() - last
            # a change-driven agent that reads none of what changed has no iteration to make: idle for long
            if idle < self.quiet or (quiet_iterations < need and (self.polling or idle < max(2.0, 4 * self.quiet))):
                continue
            docs = self.read_all()
            due = [d for doc in docs for d in self.deadlines(doc) if d > handled]
            if not due:
                return docs
            floor = handled = max(due)
            while time.time() < handled + 0.002 and time.monotonic() < limit:
                time.sleep(min(0.05, handled + 0.002 - time.time()))
            if self.polling:
                self.look()
            need, quiet_iterations, last = (2 if self.polling else 1), 0, time.monotonic()
        late = ["p%d (%.1f s)" % (i, time.time() - d) for i in range(len(self.instances))
                for d in self.deadlines(self.read(i)) if d < time.time()]
        self.failures.append("rest %d: the workflows did not rest within %d s (no write for %.1f s and an iteration "
                             "without requests after the last)%s" % (self.rests + 1, WAIT, self.quiet,
                                                                      "; calls still calling past their deadline: "
                                                                      + ", ".join(late) if late else ""))
        return None

    def play(self, rounds):
        try:
            self.start()
            docs = self.rest(self.started)
            while docs is not None:
                self.rests += 1
                for i, doc in enumerate(docs):  # how far each got: the environment acts at the same point in both
                    self.progress[i].append((len(doc[2]), self.requested[i]))
                    late = [d for d in self.deadlines(doc) if d < time.time() - 0.01]
                    if late:  # the agent did not wake for it
                        self.failures.append("p%d, rest %d: a call is still calling %.1f s past its deadline"
                                             % (i, self.rests, time.time() - min(late)))
                self.at_rest(docs)
                if self.failures or not rounds.next():
                    break
                began = self.act(docs)
                docs = docs if began is None else self.rest(began)  # no change: still at rest
        except Exception as e:  # the harness failing fails the run, with where
            self.failures.append("%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc()))
        if self.failures:
            rounds.barrier.abort()
        self.finish()

    def finish(self):
        """Reads what the run did and stops its processes: per instance, result(); then check()."""
        docs = None
        if self.agent is not None and self.server is not None and self.server.proc.poll() is None:
            try:
                docs = self.read_all()
            except Exception as e:
                self.failures.append("the documents cannot be read at the end: %s" % e)
        self.stop()
        if docs is None:
            return
        requests = self.task_requests() if self.service_log else {}
        self.results = []
        for i, doc in enumerate(docs):
            self.results.append(dict(self.result(i, doc, requests.get(i, [])), rests=self.progress[i]))
        self.check(docs, requests)

    def task_requests(self):
        """Per instance, the task requests its service received, in batches: those the agent sent in one
        iteration (in parallel: their order is none) sorted, each (name, method, body, status, key). The agent's
        log tells the iteration of each (a task's requests follow one another: the n-th the service received
        for a path is the n-th the agent sent there)."""
        iteration, sent = 0, {}
        with open(self.agent_log, errors="replace") as f:
            for line in f:
                if line.startswith("iteration:"):
                    iteration += 1
                m = REQUEST.match(line)
                if m and m.group(2).startswith(self.service_base):
                    sent.setdefault("/" + m.group(2)[len(self.service_base):], []).append(iteration)
        received, order = data_service.read_log(self.service_log)
        by_path = {}
        for n in order:
            by_path.setdefault(received[n]["path"], []).append(received[n])
        out = {}
        for path in sorted(set(sent) | set(by_path)):
            if len(sent.get(path, [])) != len(by_path.get(path, [])):
                self.failures.append("%s: the agent logged %d requests, the service received %d"
                                     % (path, len(sent.get(path, [])), len(by_path.get(path, []))))
                continue
            i, name = re.match(r"/p(\d+)/tasks/(.*)", path).groups()
            for it, r in zip(sent[path], by_path[path]):
                out.setdefault(int(i), {}).setdefault(it, []).append(
                    (name, r["method"], r["body"], r["status"], r["key"]))
        return {i: [tuple(sorted(batch)) for _, batch in sorted(batches.items())] for i, batches in out.items()}

    def log_problems(self, failing=()):
        """The agent's log: no write withheld, refused or in conflict; no request failed but to the URLs
        in failing (tasks meant to fail)."""
        with open(self.agent_log, errors="replace") as f:
            for line in f:
                m = ITERATION.match(line)
                if m and any(int(n) for n in m.groups()[1:]):
                    self.failures.append("the agent: " + line.strip())
                m = REQUEST.match(line)
                if m and not m.group(3).startswith("2") and m.group(2) not in failing:
                    self.failures.append("the agent: " + line.strip())


def differences(a, b, label_a, label_b):
    """Where two runs' results differ, per instance: the first differing item of each list, and "final"."""
    out = []
    for i, (ra, rb) in enumerate(zip(a, b)):
        for what in sorted(ra):
            xa, xb = ra[what], rb[what]
            if xa == xb:
                continue
            if what == "final":
                out.append("p%d: the final state differs:\n    %s: %s\n    %s: %s" % (i, label_a, xa, label_b, xb))
                continue
            k = next((k for k in range(min(len(xa), len(xb))) if xa[k] != xb[k]), min(len(xa), len(xb)))
            out.append("p%d: %s %d (of %d/%d) differs:\n    %s: %s\n    %s: %s\n    (before it: %s)"
                       % (i, what, k + 1, len(xa), len(xb), label_a, xa[k] if k < len(xa) else "none",
                          label_b, xb[k] if k < len(xb) else "none", list(xa[max(0, k - 2):k])))
    return out


def run_pair(make_run, against, rounds, seconds, prefix):
    """Polling and `against` side by side (make_run(label, agent options, work) makes each run), rounds of
    the environment at rest until `rounds` or `seconds`. Returns (the two runs, the failures: each run's own,
    then where their results differ, and the work folder (to keep or remove), and the rounds taken."""
    work = tempfile.mkdtemp(prefix=prefix)
    runs = [make_run("polling", POLLING, work), make_run(against, AGAINST[against], work)]
    turn = Rounds(rounds, seconds)
    threads = [threading.Thread(target=r.play, args=(turn,)) for r in runs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    failures = ["%s run: %s" % (r.label, f) for r in runs for f in r.failures]
    if not failures:
        failures += differences(runs[0].results, runs[1].results, "polling", against)
    return runs, failures, work, turn.done


def parse_args(argv, doc, defaults):
    """LDGSM [--OPTION VALUE]... [--keep] (the options defaults names, and --against): (LDGSM's absolute
    path, the options, whether --keep), or None once the usage or the error is said."""
    if not argv or argv[0].startswith("-"):
        print(doc, file=sys.stderr)
        return None
    opts = dict(defaults, **{"--against": "notifications"})
    rest = [a for a in argv[1:] if a != "--keep"]
    for k, v in zip(rest[::2], rest[1::2]):
        if k not in opts:
            print("unknown option " + k, file=sys.stderr)
            return None
        opts[k] = v
    if opts["--against"] not in AGAINST:
        print("--against: one of " + ", ".join(sorted(AGAINST)), file=sys.stderr)
        return None
    return os.path.abspath(argv[0]), opts, "--keep" in argv


def report(name, seed, stats, failures, details, reproduce, agreed, keep, work):
    """Says how a pair of runs went: on failures (the first 20, after the lines of details) with the command
    that reproduces them, the work kept, 1; else that they agreed, the work removed unless keep, 0."""
    if failures:
        print("FAIL: seed %d: %s" % (seed, stats))
        for line in details + ["  " + f for f in failures[:20]]:
            print(line)
        print(reproduce + " (work kept in %s)" % work)
        return 1
    print("%s: seed %d: %s: %s" % (name, seed, stats, agreed))
    if keep:
        print("work kept in " + work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0
