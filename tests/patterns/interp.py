"""Reference interpreter of the workflow-pattern terms (seed 004, ontology/README.md "Workflow patterns").

A test oracle written from the semantics alone, independent of `ldgsm compile`: parse(text) gives a
term tree, Interp(term).settle(env) reduces it to quiescence under an environment, and tokens(),
status(), started() and waiting() tell what the compiled GSM model should show.

Scheduling (the seed leaves it to "the scheduler"): settle runs rounds until a round changes nothing.
A round reads one snapshot of env and has two passes over the tree:
  1. the end pass (children before parents): a cancel term first checks its trigger; tasks started in
     an earlier round read their outcome; each term then ends (done / failed) if its rule says so,
     stopping its children still running;
  2. the start pass (tree order): each active term starts what its rule now enables (the next seq
     child, a new loop iteration, a defer branch, mi copies); terms ended at entry end at once.
So what ends in a snapshot ends before anything starts in it (a join won in a round starts nothing
more), and tasks started in one round are listed in started() in path order.
"""
import re

IDLE, ACTIVE, DONE, FAILED, CANCELLED, STOPPED = "idle", "active", "done", "failed", "cancelled", "stopped"
ENDED = (DONE, CANCELLED)  # CANCELLED: a cancel term whose trigger fired; it lets its successor go on


# ---------------------------------------------------------------- terms and parser

class Term:
    """kind: task seq par join xor loop defer cancel mi. children: sub-terms in path order.
    name: task name, loop condition, cancel trigger or mi list. conds: xor/defer condition per branch
    (None for else). mode: loop while|until|count, cancel activity|region|case, mi fixed|dynamic.
    policy: ("all",) ("sync_merge",) ("first_complete",) ("first_n", K) ("n_of_m", K, M).
    nums: loop count (N,), mi fixed (N,), mi dynamic (MIN, MAX)."""

    def __init__(self, kind, children=(), name=None, conds=(), mode=None, policy=None, nums=()):
        self.kind, self.children, self.name = kind, list(children), name
        self.conds, self.mode, self.policy, self.nums = list(conds), mode, policy, tuple(nums)

    def __repr__(self):
        fields = ("%s=%r" % kv for kv in vars(self).items() if kv[1] not in (None, [], ()))
        return "Term(%s)" % ", ".join(fields)


_TOKEN = re.compile(r"(?P<skip>\s+|#[^\n]*)|(?P<name>[A-Za-z_][A-Za-z0-9_-]*)|(?P<num>[0-9]+)"
                    r"|(?P<punct>[(),])")


def _tokenize(text):
    tokens, pos, line, line_start = [], 0, 1, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("%d:%d: unexpected character %r" % (line, pos - line_start + 1, text[pos]))
        if m.lastgroup != "skip":
            tokens.append((m.lastgroup, m.group(), line, pos - line_start + 1))
        for i, ch in enumerate(m.group()):
            if ch == "\n":
                line, line_start = line + 1, pos + i + 1
        pos = m.end()
    tokens.append(("end", "end of input", line, pos - line_start + 1))
    return tokens


class _Parser:
    def __init__(self, text):
        self.tokens, self.i = _tokenize(text), 0

    def peek(self):
        return self.tokens[self.i]

    def fail(self, what, tok=None):
        tok = tok or self.peek()
        raise ValueError("%d:%d: %s" % (tok[2], tok[3], what))

    def take(self, kind, text=None, what=None):
        tok = self.peek()
        if tok[0] != kind or (text is not None and tok[1] != text):
            self.fail("expected %s, found %r" % (what or repr(text), tok[1]))
        self.i += 1
        return tok

    def at(self, text):
        return self.peek()[1] == text and self.peek()[0] != "end"

    def name(self):
        return self.take("name", what="a name")[1]

    def number(self, low, high):
        tok = self.take("num", what="a number")
        if not low <= int(tok[1]) <= high:
            self.fail("number %s out of range %d..%d" % (tok[1], low, high), tok)
        return int(tok[1])

    def open(self, keyword):
        return self.take("name", keyword, "'%s'" % keyword)

    def comma(self):
        self.take("punct", ",", "','")

    def lparen(self):
        self.take("punct", "(", "'('")

    def rparen(self):
        self.take("punct", ")", "')'")

    def terms_until_close(self):
        """one or more terms separated by commas, then ')'."""
        terms = [self.term()]
        while self.at(","):
            self.comma()
            terms.append(self.term())
        self.rparen()
        return terms

    def policy(self):
        tok = self.take("name", what="a join policy")
        word = tok[1]
        if word in ("all", "sync_merge", "first_complete"):
            return (word,), tok
        if word == "first_n":
            self.lparen()
            k = self.number(1, 1000)
            self.rparen()
            return ("first_n", k), tok
        if word == "n_of_m":
            self.lparen()
            k = self.number(1, 1000)
            self.comma()
            m = self.number(1, 1000)
            self.rparen()
            return ("n_of_m", k, m), tok
        self.fail("unknown join policy %r" % word, tok)

    def check_policy(self, policy, tok, branches):
        if policy[0] in ("first_n", "n_of_m") and policy[1] > branches:
            self.fail("%s needs %d of only %d branches" % (policy[0], policy[1], branches), tok)
        if policy[0] == "n_of_m" and policy[2] != branches:
            self.fail("n_of_m M is %d but there are %d branches" % (policy[2], branches), tok)

    def term(self):
        tok = self.take("name", what="a term")
        kind = tok[1]
        self.lparen()
        if kind == "task":
            t = Term("task", name=self.name())
            self.rparen()
        elif kind == "seq":
            t = Term("seq", self.terms_until_close())
        elif kind == "par":
            t = Term("par", self.terms_until_close(), policy=("all",))
        elif kind == "join":
            policy, ptok = self.policy()
            self.comma()
            t = Term("join", self.terms_until_close(), policy=policy)
            self.check_policy(policy, ptok, len(t.children))
        elif kind == "xor":
            t = self.branches("when", allow_else=True)
        elif kind == "defer":
            t = self.branches("on", allow_else=False)
        elif kind == "loop":
            t = self.loop()
        elif kind == "cancel":
            t = self.cancel()
        elif kind == "mi":
            t = self.mi()
        else:
            self.fail("unknown term %r" % kind, tok)
        return t

    def branches(self, keyword, allow_else):
        kind = "xor" if keyword == "when" else "defer"
        children, conds = [], []
        while True:
            if allow_else and children and self.at("else"):
                self.open("else")
                self.lparen()
                children.append(self.term())
                conds.append(None)
                self.rparen()
                break
            self.open(keyword)
            self.lparen()
            conds.append(self.name())
            self.comma()
            children.append(self.term())
            self.rparen()
            if not self.at(","):
                break
            self.comma()
        self.rparen()
        return Term(kind, children, conds=conds)

    def loop(self):
        tok = self.take("name", what="while, until or count")
        self.lparen()
        if tok[1] in ("while", "until"):
            cond = self.name()
            self.rparen()
            self.comma()
            t = Term("loop", [self.term()], name=cond, mode=tok[1])
        elif tok[1] == "count":
            n = self.number(0, 1000)
            self.rparen()
            self.comma()
            t = Term("loop", [self.term()], mode="count", nums=(n,))
        else:
            self.fail("expected while, until or count, found %r" % tok[1], tok)
        self.rparen()
        return t

    def cancel(self):
        tok = self.take("name", what="activity, region or case")
        if tok[1] not in ("activity", "region", "case"):
            self.fail("expected activity, region or case, found %r" % tok[1], tok)
        self.lparen()
        trigger = self.name()
        self.rparen()
        self.comma()
        body_tok = self.peek()
        body = self.term()
        if tok[1] == "activity" and body.kind != "task":
            self.fail("cancel(activity(...)) takes a task", body_tok)
        self.rparen()
        return Term("cancel", [body], name=trigger, mode=tok[1])

    def mi(self):
        tok = self.take("name", what="fixed or dynamic")
        self.lparen()
        if tok[1] == "fixed":
            nums, name = (self.number(1, 1000),), None
            branches = nums[0]
        elif tok[1] == "dynamic":
            name = self.name()
            self.comma()
            low = self.number(0, 1000)
            self.comma()
            high = self.number(max(low, 1), 1000)
            nums, branches = (low, high), high
        else:
            self.fail("expected fixed or dynamic, found %r" % tok[1], tok)
        self.rparen()
        self.comma()
        policy, ptok = self.policy()
        self.check_policy(policy, ptok, branches)
        self.comma()
        body = self.term()
        self.rparen()
        return Term("mi", [body], name=name, mode=tok[1], policy=policy, nums=nums)


def parse(text):
    """The term tree of `text`; ValueError("line:col: what") on a syntax error."""
    p = _Parser(text)
    t = p.term()
    if p.peek()[0] != "end":
        p.fail("unexpected %r after the term" % p.peek()[1])
    return t


def _need(policy, branches):
    """How many branches must end for the policy to be met."""
    if policy[0] == "first_complete":
        return 1
    return policy[1] if policy[0] in ("first_n", "n_of_m") else branches


# ---------------------------------------------------------------- runtime nodes

class Node:
    """A term at a path. Subclasses define on_enter (entry), advance (start pass) and check_end."""

    def __init__(self, it, term, path):
        self.it, self.term, self.path, self.state, self.kids = it, term, path, IDLE, []

    def child(self, term, i):
        return _make(self.it, term, "%s.%d" % (self.path, i))

    def enter(self):
        self.state = ACTIVE
        self.it.changes += 1
        self.on_enter()
        if self.state == ACTIVE:
            self.advance()
        if self.state == ACTIVE:
            self.check_end()

    def end(self, state):
        self.state = state
        self.it.changes += 1
        for k in self.kids:
            k.stop()

    def stop(self):
        """Closed from above (a join won, a sibling failed, a cancel fired): CANCEL-PROPAGATE."""
        if self.state == ACTIVE:
            self.end(STOPPED)

    def end_pass(self):
        if self.state != ACTIVE:
            return
        for k in self.kids:
            k.end_pass()
        if self.state == ACTIVE:
            self.check_end()

    def start_pass(self):
        if self.state != ACTIVE:
            return
        for k in list(self.kids):
            k.start_pass()
        if self.state == ACTIVE:
            self.advance()
        if self.state == ACTIVE:
            self.check_end()

    def on_enter(self):
        pass

    def advance(self):
        pass

    def check_end(self):
        pass

    def waits(self):
        """What this node itself waits for (waiting())."""
        return []


class Task(Node):
    def on_enter(self):
        self.activation = self.it.activate(self.path)

    def end_pass(self):
        """Only the start pass starts tasks, so a task reads its outcome from the round after its start."""
        if self.state != ACTIVE:
            return
        outcome = self.it.env["outcome"](self.path, self.activation)
        if outcome == "ok":
            self.end(DONE)                         # TASK-EXEC
        elif outcome == "fail":
            self.end(FAILED)                       # TASK-ERROR
        elif outcome != "pending":                 # pending: TASK-EFFECT, the task stays a token
            raise ValueError("outcome(%s, %d) = %r" % (self.path, self.activation, outcome))

    def waits(self):
        return ["task %s" % self.path]


class Seq(Node):
    """seq(T1..Tn), and loop(count(N), T) as N copies; SEQ-ENTER, SEQ-NEXT, SEQ-DONE."""

    def on_enter(self):
        terms = self.term.children
        if self.term.kind == "loop":               # LOOP-COUNT: unrolled into N copies
            terms = terms * self.term.nums[0]
        self.kids = [self.child(t, i + 1) for i, t in enumerate(terms)]
        if self.kids:
            self.kids[0].enter()

    def advance(self):
        started = [k for k in self.kids if k.state != IDLE]
        while started and started[-1].state in ENDED and len(started) < len(self.kids):
            nxt = self.kids[len(started)]
            nxt.enter()
            started.append(nxt)

    def check_end(self):
        if any(k.state == FAILED for k in self.kids):
            self.end(FAILED)
        elif all(k.state in ENDED for k in self.kids):
            self.end(DONE)


class Join(Node):
    """par, join(policy, ...), mi(fixed(N), policy, T); PAR-FORK, PAR-COMPLETE/MI-COLLECT, JOIN-*."""

    def on_enter(self):
        if self.term.kind == "mi":                 # MI-SPAWN-FIXED
            self.kids = [self.child(self.term.children[0], i + 1) for i in range(self.term.nums[0])]
        else:
            self.kids = [self.child(t, i + 1) for i, t in enumerate(self.term.children)]
        # PAR-FORK starts every branch at once: a case cancel whose event holds when its branch is forked
        # stops the case after the fork, its siblings started (the model sends them in that poll, and a
        # sent request is never withdrawn)
        self.it.forking += 1
        for k in self.kids:
            if self.state != ACTIVE:
                break
            k.enter()
        self.it.forking -= 1
        if self.it.forking == 0 and self.it.case_cancel_pending:
            self.it.cancel_case()

    def check_end(self):
        need = _need(self.term.policy, len(self.kids))
        if sum(k.state in ENDED for k in self.kids) >= need:
            self.end(DONE)                         # the branches still running are cancelled
        elif sum(k.state == FAILED for k in self.kids) >= len(self.kids) - need + 1:
            self.end(FAILED)


class DynamicMi(Node):
    """mi(dynamic(L, MIN, MAX), policy, T): N, the length of L when the mi starts, must lie in [MIN, MAX];
    N copies start at once (MI-SPAWN-DYNAMIC: the count is computed once, at the spawn; a list that
    changes later spawns nothing more), joined by the policy over those N (MI-COLLECT, MI-JOIN)."""

    def on_enter(self):
        low, high = self.term.nums
        n = self.it.env.get("items", {}).get(self.term.name, 0)
        if not low <= n <= high:
            self.end(FAILED)
            return
        self.kids = [self.child(self.term.children[0], i + 1) for i in range(n)]
        for k in self.kids:
            if self.state != ACTIVE:
                break
            k.enter()

    def check_end(self):
        n = len(self.kids)
        need = _need(self.term.policy, n)
        if need > n:
            self.end(FAILED)                       # fewer instances than the policy needs
        elif sum(k.state in ENDED for k in self.kids) >= need:
            self.end(DONE)                         # MI-JOIN
        elif sum(k.state == FAILED for k in self.kids) >= n - need + 1:
            self.end(FAILED)


class Choice(Node):
    """xor and defer: one branch runs; the others are never created (XOR-CHOOSE, DEFER-SELECT)."""

    def pick(self):
        conds = self.it.env.get("conds", {})
        for i, c in enumerate(self.term.conds):
            if c is None or conds.get(c, False):
                self.kids = [self.child(self.term.children[i], i + 1)]
                self.kids[0].enter()
                return True
        return False

    def on_enter(self):
        if self.term.kind == "xor" and not self.pick():
            self.end(FAILED)                       # no condition holds and no else: a xor does not wait

    def advance(self):
        if not self.kids:                          # DEFER-WAIT until an event holds
            self.pick()

    def check_end(self):
        if self.kids and self.kids[0].state in ENDED:
            self.end(DONE)
        elif self.kids and self.kids[0].state == FAILED:
            self.end(FAILED)

    def waits(self):
        if self.kids:
            return []
        return ["events %s (defer %s)" % (", ".join(self.term.conds), self.path)]


class Loop(Node):
    """loop(while(c), T) and loop(until(c), T): the iteration at p.1 holds T at p.1.1."""

    def cond(self):
        return self.it.env.get("conds", {}).get(self.term.name, False)

    def iterate(self):
        self.kids = [Seq(self.it, Term("seq", self.term.children), self.path + ".1")]
        self.kids[0].enter()

    def on_enter(self):
        if self.term.mode == "until" or self.cond():
            self.iterate()
        else:
            self.end(DONE)                         # LOOP-WHILE, condition false at entry

    def advance(self):
        if self.kids[0].state in ENDED and self.cond() != (self.term.mode == "until"):
            self.iterate()                         # LOOP-WHILE: c holds; LOOP-UNTIL: c does not

    def check_end(self):
        it = self.kids[0]
        if it.state == FAILED:
            self.end(FAILED)
        elif it.state in ENDED and self.cond() == (self.term.mode == "until"):
            self.end(DONE)                         # LOOP-WHILE: c false; LOOP-UNTIL: c true


class Cancel(Node):
    """cancel(activity|region|case(e), T); CANCEL-ENTER, CANCEL-PROPAGATE/NESTED/EFFECT, CANCEL-EXIT."""

    def triggered(self):
        if not self.it.env.get("conds", {}).get(self.term.name, False):
            return False
        if self.term.mode == "case":
            self.it.cancel_case()
        else:
            self.end(CANCELLED)                    # stops T and everything under it
        return True

    def on_enter(self):
        if not self.triggered():
            self.kids = [self.child(self.term.children[0], 1)]
            self.kids[0].enter()

    def end_pass(self):
        if self.state == ACTIVE and not self.triggered():
            Node.end_pass(self)

    def check_end(self):
        if self.kids and self.kids[0].state in ENDED:
            self.end(DONE)                         # CANCEL-EXIT
        elif self.kids and self.kids[0].state == FAILED:
            self.end(FAILED)


def _make(it, term, path):
    if term.kind == "task":
        return Task(it, term, path)
    if term.kind == "seq" or (term.kind == "loop" and term.mode == "count"):
        return Seq(it, term, path)
    if term.kind in ("par", "join") or (term.kind == "mi" and term.mode == "fixed"):
        return Join(it, term, path)
    if term.kind == "mi":
        return DynamicMi(it, term, path)
    if term.kind in ("xor", "defer"):
        return Choice(it, term, path)
    if term.kind == "loop":
        return Loop(it, term, path)
    return Cancel(it, term, path)


# ---------------------------------------------------------------- the interpreter

class Interp:
    def __init__(self, term):
        self.root = _make(self, term, "1")
        self.changes, self.case_cancelled = 0, False
        self.forking, self.case_cancel_pending = 0, False
        self.env, self._started, self._activations = {}, [], {}

    def activate(self, path):
        self._activations[path] = self._activations.get(path, 0) + 1
        self._started.append((path, self._activations[path]))
        return self._activations[path]

    def cancel_case(self):
        if self.forking:
            self.case_cancel_pending = True        # after the fork (Join.on_enter)
            return
        self.case_cancel_pending = False
        self.case_cancelled = True
        self.root.stop()

    def settle(self, env, max_rounds=10000):
        """Run rounds under env until one changes nothing; RuntimeError if that takes max_rounds."""
        self.env = env
        for _ in range(max_rounds):
            before = self.changes
            self.root.end_pass()
            if self.root.state == IDLE and not self.case_cancelled:
                self.root.enter()
            else:
                self.root.start_pass()
            if self.changes == before:
                return
        raise RuntimeError("no quiescence after %d rounds (a loop that never exits?)" % max_rounds)

    def _nodes(self, node=None):
        node = node or self.root
        yield node
        for k in node.kids:
            yield from self._nodes(k)

    def tokens(self):
        """Paths of the tasks started and not ended nor cancelled."""
        return {n.path for n in self._nodes() if isinstance(n, Task) and n.state == ACTIVE}

    def status(self):
        if self.case_cancelled:
            return "cancelled"
        return {DONE: "done", CANCELLED: "done", FAILED: "failed"}.get(self.root.state, "running")

    def started(self):
        """(path, activation) of every task start, in order; a round's starts are in path order."""
        return list(self._started)

    def waiting(self):
        """What a running workflow waits for: "task 1.1; events go, stop (defer 1.2); items of L (mi 1.3)"."""
        if self.status() != "running":
            return ""
        return "; ".join(w for n in self._nodes() if n.state == ACTIVE for w in n.waits())
