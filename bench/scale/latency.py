#!/usr/bin/env python3
"""latency.py LDGSM [--changes K] [--modes polling,notifications]: the time from a sensor's change to the
agent's write it causes (issue 35: at most 20 ms median on loopback with notifications; about 500 ms when
polling every second), per agent mode, in one run.

`ldgsm serve --memory` on 127.0.0.1 holds K instances, each of a model of its own whose stage S closes (and
the instance completes) once the instance's own sensor reads true. One `ldgsm run` over the K instances per mode
(polling: `-n 1000`; notifications: `--notifications -n 60000 --safety-poll 600000`, so nothing it does in
time is a poll). Once every instance is set up and the agent has been idle for a second, the sensors are
turned true one at a time, each at a random moment (0.05-1.05 s after the last change was acted on, so
that the changes fall anywhere in a polling agent's interval): the latency is from just before the PUT of the
sensor to the first GET of the instance's status document (polled every millisecond) that shows it
complete. Prints each mode's median, 90th percentile, mean and count."""
import argparse
import http.client
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

MODEL = """@prefix gsm: <http://purl.org/gsm/vocab#> . @prefix sp: <http://spinrdf.org/sp#> .
<#root> a gsm:Stage ; gsm:hasChildStage <#S> ; gsm:hasMilestone <#done> .
<#S> a gsm:Stage ; gsm:hasGuard <#g> ; gsm:hasMilestone <#S-done> .
<#g> a gsm:Guard ; gsm:hasCondition <#guard> .
<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#milestone> .
<#S-done> a gsm:Milestone ; gsm:hasAchievingSentry <#milestone> .
<#guard> a sp:Ask ; sp:text \"\"\"PREFIX gsm: <http://purl.org/gsm/vocab#>
  ASK { gsm:thisArtifactInstance gsm:hasState gsm:active }\"\"\" .
<#milestone> a sp:Ask ; sp:text \"\"\"ASK { <../env/sSENSOR#it> <https://example.org/env#value> true }\"\"\" .
"""


class Server:
    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        self.base, self.host, self.port = base, u.hostname, u.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def request(self, method, path, body=None, headers=None):
        for attempt in (1, 2):  # a kept connection the server closed is opened again once
            try:
                self.conn.request(method, self.base + path, body=body, headers=headers or {})
                res = self.conn.getresponse()
                return res.status, res.read().decode()
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt == 2:
                    raise

    def put(self, path, turtle):
        status, _ = self.request("PUT", path, turtle.encode(), {"Content-Type": "text/turtle"})
        assert status // 100 == 2, (path, status)

    def get(self, path):
        return self.request("GET", path, headers={"Accept": "application/n-triples"})[1]


def instance_doc(k):
    return ("@prefix gsm: <http://purl.org/gsm/vocab#> .\n"
            f"<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m{k}#root> ; gsm:hasState gsm:uninitialized .\n")


def sensor_doc(value):
    return f"<#it> <https://example.org/env#value> {'true' if value else 'false'} .\n"


def completed(server, k):
    return 'isCompleted> "true"' in server.get(f"s/i{k}")


def wait_until(predicate, limit_s, what):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.01)
    sys.exit(f"latency.py: {what} within {limit_s} s")


def measure(ldgsm, mode, changes, rng, work):
    serve = subprocess.Popen([ldgsm, "serve", "--memory", "--port", "0"], stdout=subprocess.PIPE,
                             stderr=open(os.path.join(work, f"serve-{mode}.log"), "w"), text=True)
    base = serve.stdout.readline().strip()
    server = Server(base)
    agent = None
    try:
        for k in range(changes):
            server.put(f"models/m{k}", MODEL.replace("SENSOR", str(k)))
            server.put(f"env/s{k}", sensor_doc(False))
            server.put(f"s/i{k}", instance_doc(k))
        options = (["-n", "1000"] if mode == "polling"
                   else ["--notifications", "-n", "60000", "--safety-poll", "600000"])
        log_path = os.path.join(work, f"agent-{mode}.log")
        agent = subprocess.Popen([ldgsm, "run", *options] + [a for k in range(changes)
                                                              for a in ("--instance", f"{base}s/i{k}#it")],
                                 stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))
        wait_until(lambda: all("hasState> <http://purl.org/gsm/vocab#active>" in server.get(f"s/i{k}")
                               for k in range(changes)), 60, "the instances were not set up")
        time.sleep(2)  # the agent's channels open and it settles (a polling agent polls meanwhile)
        latencies = []
        for k in range(changes):
            time.sleep(rng.uniform(0.05, 1.05))
            start = time.monotonic()
            server.put(f"env/s{k}", sensor_doc(True))
            while not completed(server, k):
                if time.monotonic() - start > 30:
                    sys.exit(f"latency.py: {mode}: instance {k} did not complete within 30 s")
                time.sleep(0.001)
            latencies.append((time.monotonic() - start) * 1000)
        return latencies
    finally:
        for p in (agent, serve):
            if p:
                p.terminate()
                p.wait(timeout=30)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ldgsm")
    ap.add_argument("--changes", type=int, default=30)
    ap.add_argument("--modes", default="polling,notifications")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="ldgsm-latency.")
    print(f"latency.py: {args.changes} sensor changes per mode, logs in {work}")
    for mode in args.modes.split(","):
        ms = sorted(measure(os.path.abspath(args.ldgsm), mode, args.changes, rng, work))
        p90 = ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]
        print(f"{mode:14s} median {statistics.median(ms):8.1f} ms   p90 {p90:8.1f} ms   mean "
              f"{statistics.mean(ms):8.1f} ms   min {ms[0]:7.1f}   max {ms[-1]:7.1f}   n {len(ms)}")


if __name__ == "__main__":
    main()
