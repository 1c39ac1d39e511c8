#!/usr/bin/env python3
"""logs_metrics_check.py: the checks of tests/gsm/run_logs_metrics.sh on what `ldgsm run` and `ldgsm serve`
logged and exposed. Each subcommand prints one line per finding, "ok: NAME" or "bad NAME: why".

  waits LOG...              the held:, waiting:, incident: and stuck: lines of each text log, one per line
                            (sorted, distinct, the server's address as BASE): the test compares the
                            default log's with the -v log's
  json LOG TEXTLOG          every line of LOG (--log-format json) is one JSON object with the documented
                            keys; its held/waiting/incident/stuck events are TEXTLOG's lines; no request event
  requests LOG TRACE        the -v log's request lines are the trace's GETs and sent requests, one each
  server BEFORE AFTER ACCESS  /metrics of `ldgsm serve` scraped before and after (Prometheus' parser): every
                            counter went up by what the access log ACCESS (the lines from the first scrape's
                            on) says was answered, by method and status, and its bytes; the Idempotency-Key
                            answers held are the keys it executed (not 5xx); the scrape's connection is open
  agent TRACE LOG BASE SCRAPE...  the agent's /metrics after each step: counters never go down; the last
                            one's iterations, requests by method and outcome, phases, held and waiting
                            instances are the trace's and the log's; its instances and calls by state are
                            what the status documents at BASE status/ say

The Prometheus text parser is prometheus_client's (Debian's python3-prometheus-client): run with the
system's /usr/bin/python3, not the tests' venv."""
import collections
import json
import re
import sys
import urllib.request

WAIT = re.compile(r"^(?:warning: )?((held|waiting|incident): <([^>]*)>: (.*)|stuck: .*)$")
REQUEST = re.compile(r"^(GET|HEAD|PUT|POST|PATCH|DELETE|[A-Z]+) (\S+) ([0-9]{3}|failed \([^)]*\))"
                     r"( \(sent in an earlier iteration\))? [0-9.]+ ms( \(rule .*\))?$")
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
LEVELS = {"error", "warning", "info", "debug"}


SERVER = re.compile(r"http://127\.0\.0\.1:[0-9]+/(?=status/|models/)")


def same_server(line):
    """The line with its LDP server's address as BASE/: each run of the test has a server (and port) of its
    own; the failing helpers' addresses stay."""
    return SERVER.sub("BASE/", line)


def waits(path):
    found = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = WAIT.match(line.rstrip("\n"))
            if m:
                found.add(same_server(m.group(1)))
    return found


def cmd_waits(paths):
    for path in paths:
        for line in sorted(waits(path)):
            print(line)
    return 0


def cmd_json(path, text_path):
    bad = 0
    seen = set()
    events = collections.Counter()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                record = json.loads(line)
            except ValueError as e:
                print(f"bad json: line {number} is no JSON object: {e}: {line[:200]!r}")
                bad += 1
                continue
            keys = list(record)
            if keys[:3] != ["time", "level", "event"] or "message" not in record \
                    or not TIME.match(str(record["time"])) or record["level"] not in LEVELS:
                print(f"bad keys: line {number}: {keys[:5]} {record.get('time')!r} {record.get('level')!r}")
                bad += 1
                continue
            events[record["event"]] += 1
            if record["event"] in ("held", "waiting", "incident"):
                text = f"{record['event']}: <{record.get('instance')}>: {record.get('cause')}"
                if record["message"] != text:
                    print(f"bad fields: line {number}: instance and cause do not make its message: {text!r}")
                    bad += 1
                seen.add(same_server(text))
            elif record["event"] == "stuck":
                seen.add(same_server(record["message"]))
    want = waits(text_path)
    if seen != want:
        print(f"bad waits: the JSON log's differ from the text log's: only JSON {sorted(seen - want)[:3]}, "
              f"only text {sorted(want - seen)[:3]}")
        bad += 1
    for needed in ("start", "stop"):
        if events[needed] != 1:
            print(f"bad {needed}: {events[needed]} {needed} events")
            bad += 1
    if events["request"] or events["iteration"]:
        print(f"bad quiet: {events['request']} request and {events['iteration']} iteration events without -v")
        bad += 1
    if not bad:
        print(f"ok: json ({sum(events.values())} lines: {dict(sorted(events.items()))})")
    return 1 if bad else 0


def trace_records(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def outcome_of(status, failure):
    if failure or not status:
        return "failed"
    return f"{status // 100}xx"


def trace_requests(records):
    """(method, outcome) of every request the trace says was made."""
    made = collections.Counter()
    for r in records:
        if r["kind"] == "get":
            made["GET", outcome_of(r.get("status"), r.get("failure"))] += 1
        elif r["kind"] == "request" and r["outcome"] in ("sent", "failed"):
            made[r["method"], outcome_of(r.get("status"), r.get("failure"))] += 1
    return made


def cmd_requests(log_path, trace_path):
    logged = collections.Counter()
    with open(log_path, encoding="utf-8") as f:
        for line in f:
            m = REQUEST.match(line.rstrip("\n"))
            if m:
                status = m.group(3)
                logged[m.group(1), "failed" if status.startswith("failed") else status[0] + "xx"] += 1
    made = trace_requests(trace_records(trace_path))
    if logged != made or not made:
        print(f"bad requests: the -v log's request lines {dict(logged)} are not the trace's {dict(made)}")
        return 1
    print(f"ok: requests ({sum(made.values())} lines)")
    return 0


def scrape(path):
    from prometheus_client.parser import text_string_to_metric_families
    samples = {}
    types = {}
    with open(path, encoding="utf-8") as f:
        for family in text_string_to_metric_families(f.read()):
            for s in family.samples:
                key = (s.name, tuple(sorted(s.labels.items())))
                samples[key] = s.value
                types[key] = family.type
    return samples, types


def monotone(before, after, types, label):
    bad = 0
    for key, value in before.items():
        if types.get(key) in ("counter", "histogram") and after.get(key, 0) < value:
            print(f"bad monotone: {label}: {key} went from {value} to {after.get(key)}")
            bad += 1
    return bad


def cmd_server(before_path, after_path, access_path):
    before, types = scrape(before_path)
    after, _ = scrape(after_path)
    bad = monotone(before, after, types, "server")
    answered = collections.Counter()
    body_bytes = 0
    started = False
    with open(access_path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 5 or not re.fullmatch(r"[0-9]+us", fields[4]):
                continue  # not an access-log line
            if fields[:2] == ["GET", "/metrics"]:
                if started:
                    break  # the second scrape: not counted in its own answer
                started = True
            if started:
                answered[fields[0], fields[2]] += 1
                body_bytes += int(fields[3])
    counted = collections.Counter()
    for (name, labels), value in after.items():
        if name == "ldgsm_server_requests_total":
            d = dict(labels)
            grew = value - before.get((name, labels), 0)
            if grew:
                counted[d["method"], d["status"]] = int(grew)
    if counted != answered or not answered:
        print(f"bad requests: /metrics counted {dict(counted)}, the access log says {dict(answered)}")
        bad += 1
    key = ("ldgsm_server_response_bytes_total", ())
    if after.get(key, 0) - before.get(key, 0) != body_bytes:
        print(f"bad bytes: /metrics counted {after.get(key, 0) - before.get(key, 0)} bytes sent, the access log "
              f"{body_bytes}")
        bad += 1
    if after.get(("ldgsm_server_open_connections", ()), 0) < 1:
        print("bad connections: the scrape's own connection is not counted open")
        bad += 1
    # the keys whose answers the server keeps: executed, answered 2xx or 4xx (ldp_idempotency.h)
    kept = set()
    with open(access_path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'^\S+ \S+ ([0-9]{3}) .* idempotency-key="((?:[^"\\]|\\.)*)" executed$', line.rstrip("\n"))
            if m and not m.group(1).startswith("5"):
                kept.add(m.group(2))
    if after.get(("ldgsm_server_idempotency_keys", ()), -1) != len(kept) or not kept:
        print(f"bad keys: /metrics holds {after.get(('ldgsm_server_idempotency_keys', ()))} Idempotency-Key answers, "
              f"the access log executed {len(kept)} keys")
        bad += 1
    if not bad:
        print(f"ok: server ({sum(answered.values())} requests, {body_bytes} bytes, {len(kept)} keys)")
    return 1 if bad else 0


def get_text(url):
    request = urllib.request.Request(url, headers={"Accept": "application/n-triples"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.read().decode("utf-8")


def states_at(base):
    """The instances' states and the call records' states the status documents at BASE status/ hold."""
    listing = get_text(base + "status/")
    docs = re.findall(r"<http://www.w3.org/ns/ldp#contains> <([^>]*)>", listing)
    instances, calls = collections.Counter(), collections.Counter()
    for doc in docs:
        text = get_text(doc)
        m = re.search(r"^<" + re.escape(doc) + r"#it> <http://purl.org/gsm/vocab#hasState> <[^>]*#(\w+)>", text,
                      re.M)
        instances[m.group(1) if m else "unread"] += 1
        for state in re.findall(r"<https://w3id.org/ldgsm#callState> <https://w3id.org/ldgsm#(\w+)>", text):
            calls[state] += 1
    return instances, calls


def cmd_agent(trace_path, log_path, base, scrapes):
    bad = 0
    parsed = [scrape(p) for p in scrapes]
    for (before, types), (after, _) in zip(parsed, parsed[1:]):
        bad += monotone(before, after, types, "agent")
    last, _ = parsed[-1]
    records = trace_records(trace_path)
    iterations = sum(1 for r in records if r["kind"] == "iteration" and r["result"] == "done")
    value = lambda name, **labels: last.get((name, tuple(sorted(labels.items()))), 0)
    if value("ldgsm_agent_iterations_total") != iterations or not iterations:
        print(f"bad iterations: {value('ldgsm_agent_iterations_total')}, the trace {iterations}")
        bad += 1
    if value("ldgsm_agent_iteration_seconds_count") != iterations:
        print(f"bad histogram: ldgsm_agent_iteration_seconds_count {value('ldgsm_agent_iteration_seconds_count')}")
        bad += 1
    for phase in ("crawl", "sentries", "later_rules", "plan", "send"):
        if value("ldgsm_agent_iteration_phase_seconds_count", phase=phase) != iterations:
            print(f"bad phase: {phase} observed {value('ldgsm_agent_iteration_phase_seconds_count', phase=phase)}")
            bad += 1
    counted = collections.Counter()
    for (name, labels), v in last.items():
        if name == "ldgsm_agent_requests_total" and v:
            d = dict(labels)
            counted[d["method"], d["outcome"]] = int(v)
    made = trace_requests(records)
    if counted != made or not made:
        print(f"bad requests: /metrics counted {dict(counted)}, the trace says {dict(made)}")
        bad += 1
    if value("ldgsm_agent_precondition_failed_total") != sum(
            1 for r in records if r["kind"] == "request" and r.get("status") == 412):
        print("bad 412: the precondition failures are not the trace's")
        bad += 1
    said = collections.defaultdict(set)
    with open(log_path, encoding="utf-8") as f:
        for line in f:
            m = WAIT.match(line.rstrip("\n"))
            if m and m.group(2):
                said[m.group(2)].add(m.group(3))
    for kind in ("held", "waiting"):
        if value(f"ldgsm_agent_{kind}_instances") != len(said[kind]):
            print(f"bad {kind}: the gauge says {value(f'ldgsm_agent_{kind}_instances')}, the log names "
                  f"{sorted(said[kind])}")
            bad += 1
    instances, calls = states_at(base)
    for state in ("uninitialized", "active", "inactive", "unread", "other"):
        if value("ldgsm_agent_instances", state=state) != instances[state]:
            print(f"bad instances: {state}: the gauge says {value('ldgsm_agent_instances', state=state)}, the "
                  f"status documents {instances[state]}")
            bad += 1
    for state in ("calling", "answered", "exhausted", "cancelled", "other"):
        if value("ldgsm_agent_calls", state=state) != calls[state]:
            print(f"bad calls: {state}: the gauge says {value('ldgsm_agent_calls', state=state)}, the status "
                  f"documents {calls[state]}")
            bad += 1
    if not bad:
        print(f"ok: agent ({iterations} iterations, {sum(made.values())} requests, {len(scrapes)} scrapes, "
              f"instances {dict(instances)}, calls {dict(calls)})")
    return 1 if bad else 0


def main(argv):
    commands = {"waits": (cmd_waits, None), "json": (cmd_json, 2), "requests": (cmd_requests, 2),
                "server": (cmd_server, 3), "agent": (cmd_agent, None)}
    if not argv or argv[0] not in commands or (commands[argv[0]][1] and len(argv) - 1 != commands[argv[0]][1]):
        print(__doc__, file=sys.stderr)
        return 2
    fn, _ = commands[argv[0]]
    if argv[0] == "agent":
        return fn(argv[1], argv[2], argv[3], argv[4:])
    if argv[0] == "waits":
        return fn(argv[1:])
    return fn(*argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
