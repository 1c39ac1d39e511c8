#!/usr/bin/env python3
"""trace_check.py TRACE AGENT_LOG: checks a `ldgsm run --trace` file against the run's own log.

Every line is a JSON object with kind, iteration and now; each iteration's records come before its
iteration record and carry its number and clock; there is one iteration record per `iteration:` log
line, numbered 1, 2, ...; the GETs and requests the trace says were made are exactly the log's
`METHOD URL STATUS ms` lines (as a multiset); each iteration record's counts agree with its records.
Prints what is wrong and exits 1, or exits 0."""
import collections
import json
import re
import sys

KINDS = {"get", "request", "iteration"}
REQUEST_OUTCOMES = {"sent", "failed", "withheld", "conflicting", "yielded", "refused", "unchanged", "dry-run"}
NOT_SENT = {"not sent (stopping)", "invalid request"}
LOG_LINE = re.compile(r"^([A-Z]+) (\S+) (\d+|failed \(([^)]*)\)) [0-9.]+ ms( \(rule .*\))?$")

problems = []


def problem(text):
    problems.append(text)


def made(record):
    """the log line's "METHOD URL OUTCOME" of a GET or request the agent made, or None"""
    if record["kind"] == "get":
        method = "GET"
    elif record["kind"] == "request" and record["outcome"] in ("sent", "failed"):
        method = record["method"]
    else:
        return None
    what = str(record["status"]) if record["status"] is not None else "failed (%s)" % record["failure"]
    return "%s %s %s" % (method, record["uri"], what)


def main(trace_path, log_path):
    records = []
    with open(trace_path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                record = json.loads(line)
            except ValueError as e:
                problem("line %d does not parse: %s: %r" % (number, e, line[:200]))
                continue
            if not isinstance(record, dict) or record.get("kind") not in KINDS or \
                    not isinstance(record.get("iteration"), int) or not isinstance(record.get("now"), str):
                problem("line %d: not a record with kind, iteration and now: %r" % (number, line[:200]))
                continue
            if record["kind"] == "request" and record.get("outcome") not in REQUEST_OUTCOMES:
                problem("line %d: unknown outcome %r" % (number, record.get("outcome")))
                continue
            records.append(record)

    with open(log_path, encoding="utf-8", errors="replace") as f:
        log = f.read().splitlines()
    iterations_logged = sum(1 for line in log if line.startswith("iteration:"))
    iterations = [r for r in records if r["kind"] == "iteration"]
    if len(iterations) != iterations_logged:
        problem("%d iteration records, %d iterations logged" % (len(iterations), iterations_logged))
    if [r["iteration"] for r in iterations] != list(range(1, len(iterations) + 1)):
        problem("iteration records not numbered 1..n: %s" % [r["iteration"] for r in iterations])

    # each iteration's records, then its iteration record with the same number and clock
    pending = []
    for record in records:
        if record["kind"] != "iteration":
            pending.append(record)
            continue
        for r in pending:
            if r["iteration"] != record["iteration"] or r["now"] != record["now"]:
                problem("a %s record of iteration %s (%s) before iteration record %s (%s)" %
                        (r["kind"], r["iteration"], r["now"], record["iteration"], record["now"]))
        check_counts(record, pending)
        pending = []
    for r in pending:  # a run that ended inside an iteration (killed) leaves records without their iteration
        if r["iteration"] != len(iterations) + 1:
            problem("a %s record of iteration %s after the last iteration record" % (r["kind"], r["iteration"]))

    in_log = collections.Counter(" ".join(m.group(1, 2, 3)) for m in map(LOG_LINE.match, log) if m)
    in_trace = collections.Counter(filter(None, map(made, records)))
    for line in sorted((in_log - in_trace).elements()):
        problem("logged but not traced: %s" % line)
    for line in sorted((in_trace - in_log).elements()):
        problem("traced but not logged: %s" % line)

    for text in problems[:40]:
        print("trace_check: " + text)
    return 1 if problems else 0


def check_counts(it, records):
    gets = [r for r in records if r["kind"] == "get"]
    requests = [r for r in records if r["kind"] == "request"]
    outcomes = collections.Counter(r["outcome"] for r in requests)
    answered_badly = sum(1 for r in requests if r["outcome"] == "sent" and not 200 <= r["status"] < 300)
    sent = sum(1 for r in requests if r["outcome"] in ("sent", "failed") and r["failure"] not in NOT_SENT)
    # a task withheld because its write failed is decided when sending, not counted among the plan's withheld
    withheld = sum(1 for r in requests if r["outcome"] == "withheld" and
                   not (r["task"] and r["reason"].startswith("the write to ")))
    want = {"gets": len(gets), "gets_failed": sum(1 for r in gets if r["outcome"] == "failed"),
            "sent": sent, "failed": outcomes["failed"] + answered_badly, "withheld": withheld,
            "conflicting": outcomes["conflicting"], "yielded": outcomes["yielded"], "refused": outcomes["refused"]}
    for name, count in want.items():
        if it.get(name) != count:
            problem("iteration %s: %s is %s, its records say %d" % (it["iteration"], name, it.get(name), count))
    for name in ("crawl_ms", "sentries_ms", "later_rules_ms", "plan_ms", "send_ms", "total_ms", "bytes",
                 "triples_read", "derived", "unsafe", "calling"):
        if not isinstance(it.get(name), (int, float)) or it[name] < 0:
            problem("iteration %s: %s is %r" % (it["iteration"], name, it.get(name)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
