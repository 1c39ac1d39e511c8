#!/usr/bin/env python3
"""page_browser.py: headless Chromium on one page, driven through the DevTools protocol on a pipe
(--remote-debugging-pipe: no port, no WebSocket of our own), for tests/gsm/run_page.sh and
run_page_live.sh (through page_browser_lib.sh).

usage: page_browser.py CHROMIUM SECONDS PROFILE-DIR

Says "ready" once Chromium answers, then answers commands read from standard input, one a line, with one
line each on standard output. Every wait is bounded by SECONDS. A command Chromium refuses is answered
"error: " and why, and the next command is read (a wait across a reload is not refused).

  open URL         loads URL, the page the other commands are about: "ok"
  wait EXPRESSION  until the page's EXPRESSION is truthy: "ok", or "timeout: " and its last value
  eval EXPRESSION  its value, as JSON
  fetches N        until the page made N requests for URL itself (its loads included): their count
  frames N         until the page received N WebSocket messages in all: their count
  hold [PATTERN]   holds the page's later requests for URL (or those matching PATTERN, '*' any text),
                   unsent: "ok"
  held N           until N are held: "ok", or "timeout: " and the count
  release          sends them and holds no more: "ok"
  timers MS        after the page's timers due within MS milliseconds have fired (a timer of its own): "ok"
  violations       the console's Content-Security-Policy reports, as a JSON list
  dom FILE         writes the page's DOM as HTML (document.documentElement.outerHTML) to FILE: "ok"
  screenshot FILE WIDTH HEIGHT
                   renders the page at WIDTH x HEIGHT pixels and writes it to FILE as PNG: "ok"
"""
import base64
import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time


class Browser:
    def __init__(self, chromium, profile, limit):
        self.limit = limit
        commands_r, commands_w = os.pipe()
        answers_r, answers_w = os.pipe()
        # Chromium reads commands on fd 3 and writes on fd 4; moved above them first so that dup2 cannot
        # overwrite one of the pipes.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands_r, answers_w)]

        def into_3_and_4():
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(profile, "chromium.log"), "w"),
            preexec_fn=into_3_and_4, pass_fds=(3, 4))
        for fd in high + [commands_r, answers_w]:
            os.close(fd)
        self.out = os.fdopen(commands_w, "wb")
        self.answers = {}
        self.events = []
        self.next_id = 0
        self.session = None
        self.changed = threading.Condition()
        threading.Thread(target=self.read, args=(os.fdopen(answers_r, "rb"),), daemon=True).start()

    def read(self, pipe):
        pending = b""
        while True:
            block = pipe.read1(65536)
            if not block:
                break
            pending += block
            *messages, pending = pending.split(b"\0")
            with self.changed:
                for message in messages:
                    m = json.loads(message)
                    if "id" in m:
                        self.answers[m["id"]] = m
                    else:
                        self.events.append(m)
                self.changed.notify_all()
        with self.changed:
            self.answers[None] = {"error": {"message": "Chromium closed the pipe"}}
            self.changed.notify_all()

    def call(self, method, **params):
        with self.changed:
            self.next_id += 1
            ident = self.next_id
        message = {"id": ident, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        self.out.write(json.dumps(message).encode() + b"\0")
        self.out.flush()
        deadline = time.monotonic() + self.limit
        with self.changed:
            while ident not in self.answers and None not in self.answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(method + ": no answer from Chromium")
                self.changed.wait(left)
            answer = self.answers.pop(ident, None) or self.answers[None]
        if "error" in answer:
            raise RuntimeError(method + ": " + answer["error"]["message"])
        return answer["result"]

    def count(self, method, test=lambda params: True):
        with self.changed:
            return sum(1 for e in self.events if e["method"] == method and test(e["params"]))

    def until(self, probe):
        """Calls probe until it returns (True, _), at most the limit; returns its last value."""
        deadline = time.monotonic() + self.limit
        while True:
            done, value = probe()
            if done or time.monotonic() >= deadline:
                return done, value
            with self.changed:  # woken by any message from Chromium, else polls every 50 ms
                self.changed.wait(0.05)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def evaluate_across_loads(self, expression):
        """evaluate, None while a reload replaces the document it ran in."""
        try:
            return self.evaluate(expression)
        except RuntimeError as e:
            # the document this ran in was replaced: "...context..." or, when the reload wins the race,
            # "Inspected target navigated or closed"
            if "context" not in str(e) and "navigated" not in str(e):
                raise
            return None


def main():
    chromium, limit, profile = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    b = Browser(chromium, profile, limit)
    signal.signal(signal.SIGTERM, lambda *_: (b.process.kill(), sys.exit(1)))  # the test stopped us
    target = b.call("Target.createTarget", url="about:blank")["targetId"]
    b.session = b.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    for domain in ("Network", "Page", "Runtime", "Log"):
        b.call(domain + ".enable")
    print("ready", flush=True)  # the browser answers: page_browser_lib.sh waits for this line
    url = None
    held_before = 0

    def answer(text):
        print(text, flush=True)

    for line in sys.stdin:
        verb, _, argument = line.rstrip("\n").partition(" ")
        try:  # a command Chromium refuses is answered, saying why; the driver goes on
            if verb == "open":
                url = argument
                b.call("Page.navigate", url=url)
                answer("ok")
            elif verb == "wait":
                done, value = b.until(lambda: (bool(v := b.evaluate_across_loads(argument)), v))
                answer("ok" if done else "timeout: " + json.dumps(value))
            elif verb == "eval":
                answer(json.dumps(b.evaluate(argument)))
            elif verb == "fetches":
                ours = lambda p: p["request"]["url"] == url
                answer(str(b.until(lambda: ((n := b.count("Network.requestWillBeSent", ours)) >= int(argument), n))[1]))
            elif verb == "frames":
                answer(str(b.until(lambda: ((n := b.count("Network.webSocketFrameReceived")) >= int(argument), n))[1]))
            elif verb == "hold":
                held_before = b.count("Fetch.requestPaused")
                b.call("Fetch.enable", patterns=[{"urlPattern": argument or url, "requestStage": "Request"}])
                answer("ok")
            elif verb == "held":
                done, n = b.until(lambda: ((n := b.count("Fetch.requestPaused") - held_before) >= int(argument), n))
                answer("ok" if done else "timeout: %d" % n)
            elif verb == "release":
                with b.changed:
                    held = [e["params"]["requestId"] for e in b.events if e["method"] == "Fetch.requestPaused"]
                for ident in held[held_before:]:
                    b.call("Fetch.continueRequest", requestId=ident)
                b.call("Fetch.disable")
                answer("ok")
            elif verb == "timers":
                b.call("Runtime.evaluate", expression="new Promise(done => setTimeout(done, %d))" % int(argument),
                       awaitPromise=True)
                answer("ok")
            elif verb == "dom":
                with open(argument, "w", encoding="utf-8") as out:
                    out.write(b.evaluate("document.documentElement.outerHTML"))
                answer("ok")
            elif verb == "screenshot":
                path, width, height = argument.split(" ")
                b.call("Emulation.setDeviceMetricsOverride", width=int(width), height=int(height),
                       deviceScaleFactor=1, mobile=False)
                with open(path, "wb") as out:
                    out.write(base64.b64decode(b.call("Page.captureScreenshot", format="png")["data"]))
                answer("ok")
            elif verb == "violations":
                with b.changed:
                    texts = [e["params"]["entry"].get("text", "") for e in b.events if e["method"] == "Log.entryAdded"]
                answer(json.dumps([t for t in texts if "Content Security Policy" in t]))
            else:
                answer("unknown command: " + verb)
        except RuntimeError as e:
            answer("error: " + str(e))
    try:
        b.call("Browser.close")
    except RuntimeError:
        pass
    try:
        b.process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        b.process.kill()
        b.process.wait()


if __name__ == "__main__":
    main()
