#!/usr/bin/env python3
"""chaos_check.py: the checks of the call fault campaign (tests/gsm/run_call_chaos.sh, scripts/chaos.sh),
on GSM instances whose tasks are calls to tests/gsm/call_service.py.

  watch DIR INSTANCE...   polls the instances' status documents (If-None-Match, about every 10 ms) until
                          DIR/stop exists, and checks GSM-1 and GSM-2 on every new snapshot (gsm_status.py):
                          a violation is a line of DIR/violations; DIR/finished is written once every
                          instance's root is completed; DIR/snapshots counts the snapshots checked.
  verify LOG INSTANCE...  after the run, from the final status documents, their models and the call
                          service's LOG: every instance ended complete (root milestone `done`) or visibly
                          failed (`failed`, with an exhausted call); every opened stage has a call record
                          whose current alternative was sent under the record's Idempotency-Key, and each
                          alternative it reached under exactly one key; no key was executed more than once
                          (a 2xx execution; 500s and resets are not stored by the service, so a re-send
                          runs again) and an answered call's key exactly once; no request went to a stage
                          that never opened or to an alternative not reached; no key was reused with
                          another request. Prints one line per failure and a summary; exit 1 on failure.
  ending INSTANCE         "running", or the root milestones the instance ended with ("done", "failed").

Each stage of these models activates at most once per instance (guards in sequence, no invalidation), so
the stage's call record in the final document names its only activation.
"""
import collections
import http.client
import os
import re
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "property"))
import gsm_status  # noqa: E402  (the GSM-1/GSM-2 checks and the N-Triples reader)

GSM, LDGSM, RDF = gsm_status.GSM, gsm_status.LDGSM, "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
HTTP = gsm_status.HTTP
WATCH_LIMIT_SECONDS = 900  # a watcher whose test died without writing DIR/stop ends by itself


class Reader:
    """GETs status documents over one kept-alive connection per origin, with If-None-Match."""

    def __init__(self):
        self.connections = {}

    def get_if_changed(self, url, etag):
        """(etag, triples) of a document, or (etag, None) when it is unchanged since etag."""
        parts = urllib.parse.urlsplit(url)
        headers = {"Accept": "application/n-triples"}
        if etag:
            headers["If-None-Match"] = etag
        conn = self.connections.get(parts.netloc)
        if conn is None:
            conn = self.connections[parts.netloc] = http.client.HTTPConnection(parts.netloc, timeout=10)
        try:
            conn.request("GET", parts.path, headers=headers)
            resp = conn.getresponse()
            body = resp.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            del self.connections[parts.netloc]
            raise
        if resp.status == 304:
            return etag, None
        if resp.status != 200:
            raise ValueError("GET %s: %d" % (url, resp.status))
        return resp.getheader("ETag"), gsm_status.parse_ntriples(body.decode("utf-8"))


def finished(model, snap):
    return snap.state(model.root) == "inactive" and snap.completed(model.root) is True


def ending(model, snap):
    """How an instance stands: running, or the root milestones it ended with ("done", "failed")."""
    if not finished(model, snap):
        return "running"
    return " ".join(gsm_status.local(m) for m in model.milestones[model.root] if snap.achieved(model.root, m))


def watch(out_dir, instances):
    models, etags, done, reader = {}, {}, set(), Reader()
    snapshots = 0
    started = time.monotonic()
    stop = os.path.join(out_dir, "stop")
    with open(os.path.join(out_dir, "violations"), "a") as violations:
        while not os.path.exists(stop) and time.monotonic() - started < WATCH_LIMIT_SECONDS:
            for inst in instances:
                try:
                    etag, triples = reader.get_if_changed(inst, etags.get(inst))
                except (OSError, ValueError, http.client.HTTPException) as e:  # the server went away
                    print("watch: %s: %s" % (inst, e), file=sys.stderr)
                    continue
                if triples is None:
                    continue
                etags[inst] = etag
                snap = gsm_status.Snapshot(triples, inst)
                if snap.root_model is None:
                    continue
                if inst not in models:
                    try:
                        models[inst] = gsm_status.read_model(snap.root_model)
                    except (OSError, ValueError, http.client.HTTPException) as e:
                        # a connection the server refused beyond its per-client limit: the next round reads it
                        print("watch: %s: %s" % (snap.root_model, e), file=sys.stderr)
                        etags.pop(inst, None)
                        continue
                snapshots += 1
                for v in gsm_status.invariant_violations(models[inst], snap):
                    violations.write("%s (ETag %s): %s\n" % (inst, etag, v))
                    violations.flush()
                if finished(models[inst], snap):
                    done.add(inst)
            if len(done) == len(instances):
                open(os.path.join(out_dir, "finished"), "w").close()
            with open(os.path.join(out_dir, "snapshots"), "w") as f:
                f.write("%d\n" % snapshots)
            time.sleep(0.01)
    return 0


_LOG_LINE = re.compile(r"^([A-Z]+) (\S+) key=(\S*) (executed|replayed|conflict|mismatch) (\S+)$")


def read_service_log(path):
    """path -> list of (key, outcome, status) in order."""
    by_path = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            m = _LOG_LINE.match(line.strip())
            if not m:
                raise ValueError("not a call service log line: %r" % line)
            by_path[m.group(2)].append((m.group(3), m.group(4), m.group(5)))
    return by_path


def executed_ok(entry):
    """A request the service executed and whose answer it stored (2xx): its effect happened once."""
    key, outcome, status = entry
    return outcome == "executed" and status.isdigit() and 200 <= int(status) < 300


def alternatives(model_triples, stage):
    """The request URIs of a stage's task, in order: an ldgsm:Call's alternatives or a plain request."""
    def obj(s, p):
        return next((o for (s2, p2, o) in model_triples if s2 == s and p2 == p), None)
    task = obj(stage, GSM + "hasHttpRequest")
    if task is None:
        return []
    if obj(task, HTTP + "requestURI"):
        return [obj(task, HTTP + "requestURI")]
    uris, cell = [], obj(task, LDGSM + "alternatives")
    while cell and cell != RDF + "nil":
        uris.append(obj(obj(cell, RDF + "first"), HTTP + "requestURI"))
        cell = obj(cell, RDF + "rest")
    return uris


def verify(log_path, instances):
    log = read_service_log(log_path)
    problems, outcomes, known_paths = [], collections.Counter(), set()
    calls = collections.Counter()

    for inst in instances:
        triples = gsm_status.fetch(inst)
        snap = gsm_status.Snapshot(triples, inst)
        model = gsm_status.read_model(snap.root_model)
        model_triples = gsm_status.fetch(snap.root_model)
        props = collections.defaultdict(lambda: collections.defaultdict(list))
        for s, p, o in triples:
            props[s][p].append(o)
        records = {props[s][LDGSM + "ofStage"][0]: s for s in props
                   if LDGSM + "CallRecord" in props[s].get(RDF + "type", [])}

        def say(what):
            problems.append("%s: %s" % (inst, what))

        exhausted = [c for c in records.values() if props[c][LDGSM + "callState"] == [LDGSM + "exhausted"]]
        if not finished(model, snap):
            say("did not end: root %s, completed %s (%s)" % (snap.state(model.root), snap.completed(model.root),
                                                             gsm_status.compact(model, snap)))
        elif ending(model, snap) == "failed" and exhausted:
            outcomes["visibly failed"] += 1
        elif ending(model, snap) == "done" and not exhausted:
            outcomes["complete"] += 1
        else:
            say("ended with root milestones '%s' and %d exhausted calls" % (ending(model, snap), len(exhausted)))

        for stage in model.stages:
            if stage == model.root:
                continue
            uris = alternatives(model_triples, stage)
            paths = [urllib.parse.urlsplit(u).path for u in uris]
            known_paths.update(paths)
            frag = snap.stages.get(stage, {}).get("frag")
            record = records.get(frag)
            name = gsm_status.local(stage)
            if record is None:
                if snap.state(stage) == "active" or snap.completed(stage) or snap.task(stage) is not None:
                    say("%s opened (%s, completed %s, taskState %s) but has no call record"
                        % (name, snap.state(stage), snap.completed(stage), snap.task(stage)))
                for p in paths:
                    if log.get(p):
                        say("%s never opened, yet %d requests went to %s" % (name, len(log[p]), p))
                continue
            r = props[record]
            state = gsm_status.local(r[LDGSM + "callState"][0]) if r.get(LDGSM + "callState") else None
            reached = int(r[LDGSM + "alternative"][0]) if r.get(LDGSM + "alternative") else 0
            key = r[LDGSM + "idempotencyKey"][0] if r.get(LDGSM + "idempotencyKey") else None
            calls[state] += 1
            if state not in ("answered", "exhausted", "cancelled"):
                say("%s's call ended %s" % (name, state))
            for j, p in enumerate(paths, start=1):
                sent = log.get(p, [])
                keys = sorted({k for (k, _, _) in sent})
                ok = sum(1 for e in sent if executed_ok(e))
                if j > reached:
                    if sent:
                        say("%s: %d requests to alternative %d (%s), never reached" % (name, len(sent), j, p))
                    continue
                if len(keys) > 1 or ok > 1:
                    say("%s, alternative %d (%s): sent under %d keys, executed %d times (one activation: one key, "
                        "at most one execution)" % (name, j, p, len(keys), ok))
                if j < reached and not keys:
                    say("%s: alternative %d (%s) was reached but never sent" % (name, j, p))
                if j == reached:
                    if state in ("answered", "calling") and keys != [key]:
                        say("%s: alternative %d (%s) sent under keys %s, the record's is %s" % (name, j, p, keys, key))
                    elif state in ("exhausted", "cancelled") and any(k != key for k in keys):
                        say("%s: alternative %d (%s) sent under keys %s, the record's is %s" % (name, j, p, keys, key))
                    ok_under_key = sum(1 for e in sent if e[0] == key and executed_ok(e))
                    if state == "answered" and ok_under_key != 1:
                        say("%s: answered, but its request was executed %d times under its key %s"
                            % (name, ok_under_key, key))

    for p, sent in log.items():
        if p not in known_paths:
            problems.append("%d requests to %s, no stage's" % (len(sent), p))
        for (k, outcome, status) in sent:
            if outcome == "mismatch" or not k:
                problems.append("%s: a request under key %r got %s %s" % (p, k, outcome, status))
    key_paths = collections.defaultdict(set)
    for p, sent in log.items():
        for (k, _, _) in sent:
            key_paths[k].add(p)
    for k, ps in key_paths.items():
        if len(ps) > 1:
            problems.append("key %s was sent to %d paths: %s" % (k, len(ps), sorted(ps)))

    lines = collections.Counter(o for sent in log.values() for (_, o, _) in sent)
    executions = collections.Counter(s for sent in log.values() for (_, o, s) in sent if o == "executed")
    for p in problems:
        print("FAIL: " + p)
    print("verify: %d instances (%s); calls %s; service: %s, executions by status %s" % (
        len(instances), ", ".join("%d %s" % (n, o) for o, n in sorted(outcomes.items())),
        dict(sorted(calls.items(), key=str)), dict(sorted(lines.items())), dict(sorted(executions.items()))))
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "watch":
        return watch(argv[1], argv[2:])
    if len(argv) >= 3 and argv[0] == "verify":
        return verify(argv[1], argv[2:])
    if len(argv) == 2 and argv[0] == "ending":
        model, snap = gsm_status.read_instance(argv[1])
        print(ending(model, snap))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
