"""Tests of the reference pattern interpreter (interp.py): seed 004's examples 6.1-6.4, one test per
reduction rule, and parse errors. Run: python3 tests/patterns/test_interp.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from interp import Interp, parse  # noqa: E402


def env(outcomes=None, default="ok", conds=(), items=None):
    """outcomes: path or (path, activation) -> ok/fail/pending, else default; conds: names that hold."""
    outcomes = outcomes or {}

    def outcome(path, activation):
        return outcomes.get((path, activation), outcomes.get(path, default))
    return {"conds": {c: True for c in conds}, "items": items or {}, "outcome": outcome}


def run(text, *envs):
    it = Interp(parse(text))
    for e in envs:
        it.settle(e)
    return it


PENDING = env(default="pending")


class SeedExamples(unittest.TestCase):
    def test_6_1_seq(self):
        it = run("seq(task(a), task(b))", env())
        self.assertEqual(it.started(), [("1.1", 1), ("1.2", 1)])
        self.assertEqual((it.status(), it.tokens()), ("done", set()))

    def test_6_2_par(self):
        it = run("par(task(a), task(b))", PENDING)
        self.assertEqual(it.tokens(), {"1.1", "1.2"})
        it.settle(env())
        self.assertEqual((it.status(), it.tokens()), ("done", set()))

    def test_6_3_loop_count(self):
        it = run("loop(count(3), task(a))", env())
        self.assertEqual(it.started(), [("1.1", 1), ("1.2", 1), ("1.3", 1)])
        self.assertEqual(it.status(), "done")

    def test_6_4_cancel(self):
        it = run("cancel(region(stop), par(task(a), task(b)))", PENDING)
        self.assertEqual(it.tokens(), {"1.1.1", "1.1.2"})
        it.settle(env(default="pending", conds=["stop"]))
        self.assertEqual((it.status(), it.tokens()), ("done", set()))


class Rules(unittest.TestCase):
    def test_task_exec(self):
        it = run("task(a)", env())
        self.assertEqual((it.started(), it.status()), ([("1", 1)], "done"))

    def test_task_effect(self):
        it = run("task(a)", PENDING, PENDING)
        self.assertEqual((it.tokens(), it.status(), it.waiting()), ({"1"}, "running", "task 1"))
        self.assertEqual(it.started(), [("1", 1)])

    def test_task_error(self):
        it = run("seq(task(a), task(b))", env({"1.1": "fail"}))
        self.assertEqual((it.status(), it.tokens(), it.started()), ("failed", set(), [("1.1", 1)]))

    def test_seq_enter(self):
        it = run("seq(task(a), task(b))", PENDING)
        self.assertEqual((it.tokens(), it.started()), ({"1.1"}, [("1.1", 1)]))

    def test_seq_next(self):
        it = run("seq(task(a), task(b))", env({"1.2": "pending"}))
        self.assertEqual((it.tokens(), it.status()), ({"1.2"}, "running"))

    def test_seq_done(self):
        it = run("seq(seq(task(a), task(b)), task(c))", env({"1.2": "pending"}))
        self.assertEqual(it.started(), [("1.1.1", 1), ("1.1.2", 1), ("1.2", 1)])
        self.assertEqual(it.tokens(), {"1.2"})

    def test_par_fork(self):
        it = run("par(task(a), seq(task(b), task(c)), task(d))", PENDING)
        self.assertEqual(it.started(), [("1.1", 1), ("1.2.1", 1), ("1.3", 1)])

    def test_par_complete(self):
        it = run("par(task(a), task(b))", env({"1.2": "pending"}))
        self.assertEqual((it.tokens(), it.status()), ({"1.2"}, "running"))

    def test_par_join(self):
        it = run("seq(par(task(a), task(b)), task(c))", env({"1.1.2": "pending", "1.2": "pending"}))
        self.assertEqual(it.tokens(), {"1.1.2"})
        it.settle(env({"1.2": "pending"}))
        self.assertEqual(it.tokens(), {"1.2"})

    def test_xor_choose(self):
        text = "xor(when(x, task(a)), when(y, task(b)), else(task(c)))"
        self.assertEqual(run(text, env(conds=["y"])).started(), [("1.2", 1)])
        self.assertEqual(run(text, env(conds=["x", "y"])).started(), [("1.1", 1)])
        self.assertEqual(run(text, env()).started(), [("1.3", 1)])
        it = run("xor(when(x, task(a)))", env())
        self.assertEqual((it.status(), it.started()), ("failed", []))

    def test_join_all(self):
        it = run("join(all, task(a), task(b))", env({"1.1": "fail", "1.2": "pending"}))
        self.assertEqual((it.status(), it.tokens()), ("failed", set()))

    def test_join_first_n(self):
        text = "join(first_n(2), task(a), task(b), task(c))"
        it = run(text, env({"1.2": "pending", "1.3": "pending"}))
        self.assertEqual((it.status(), it.tokens()), ("running", {"1.2", "1.3"}))
        it.settle(env({"1.2": "pending"}))
        self.assertEqual((it.status(), it.tokens()), ("done", set()))

    def test_join_first_complete(self):
        it = run("join(first_complete, task(a), task(b))", env({"1.1": "pending"}))
        self.assertEqual((it.status(), it.tokens()), ("done", set()))
        it = run("join(first_complete, task(a), task(b))", env({"1.1": "fail"}))  # b, same round, wins
        self.assertEqual(it.status(), "done")

    def test_join_n_of_m(self):
        text = "join(n_of_m(2, 3), task(a), task(b), task(c))"
        it = run(text, env({"1.1": "fail", "1.2": "pending", "1.3": "pending"}))
        self.assertEqual(it.status(), "running")
        it.settle(env({"1.1": "fail", "1.2": "fail", "1.3": "pending"}))  # M-K+1 = 2 failed
        self.assertEqual((it.status(), it.tokens()), ("failed", set()))

    def test_join_sync_merge(self):
        it = run("join(sync_merge, task(a), task(b))", env({"1.2": "pending"}))
        self.assertEqual(it.status(), "running")
        it.settle(env())
        self.assertEqual(it.status(), "done")

    def test_loop_while(self):
        self.assertEqual(run("loop(while(c), task(a))", env()).started(), [])
        it = run("loop(while(c), task(a))", env({("1.1.1", 2): "pending"}, conds=["c"]))
        self.assertEqual((it.started(), it.tokens()), ([("1.1.1", 1), ("1.1.1", 2)], {"1.1.1"}))
        it.settle(env())
        self.assertEqual((it.status(), len(it.started())), ("done", 2))

    def test_loop_until(self):
        it = run("loop(until(c), task(a))", env(conds=["c"]))
        self.assertEqual((it.status(), it.started()), ("done", [("1.1.1", 1)]))
        it = run("loop(until(c), task(a))", env({("1.1.1", 3): "pending"}))
        self.assertEqual(it.started(), [("1.1.1", 1), ("1.1.1", 2), ("1.1.1", 3)])

    def test_loop_count(self):
        it = run("seq(loop(count(0), task(a)), task(b))", env())
        self.assertEqual(it.started(), [("1.2", 1)])
        it = run("loop(count(2), task(a))", env({"1.1": "fail"}))
        self.assertEqual((it.status(), it.started()), ("failed", [("1.1", 1)]))

    def test_defer_wait(self):
        it = run("defer(on(e1, task(a)), on(e2, task(b)))", env(), env())
        self.assertEqual((it.status(), it.tokens(), it.started()), ("running", set(), []))
        self.assertEqual(it.waiting(), "events e1, e2 (defer 1)")

    def test_defer_select(self):
        it = run("defer(on(e1, task(a)), on(e2, task(b)))", env(default="pending", conds=["e1", "e2"]))
        self.assertEqual(it.started(), [("1.1", 1)])
        it.settle(env(conds=["e2"]))  # a later event does not start a second branch
        self.assertEqual((it.status(), it.started()), ("done", [("1.1", 1)]))

    def test_cancel_enter(self):
        it = run("cancel(region(stop), task(a))", PENDING)
        self.assertEqual(it.tokens(), {"1.1"})
        it = run("seq(cancel(region(stop), task(a)), task(b))", env(default="pending", conds=["stop"]))
        self.assertEqual((it.started(), it.tokens()), ([("1.2", 1)], {"1.2"}))

    def test_cancel_propagate(self):
        it = run("seq(cancel(case(stop), par(task(a), task(b))), task(c))", PENDING)
        it.settle(env(default="pending", conds=["stop"]))
        self.assertEqual((it.status(), it.tokens()), ("cancelled", set()))

    def test_cancel_nested(self):
        text = "cancel(region(outer), par(task(a), cancel(region(inner), par(task(b), task(c)))))"
        it = run(text, PENDING)
        self.assertEqual(it.tokens(), {"1.1.1", "1.1.2.1.1", "1.1.2.1.2"})
        it.settle(env(default="pending", conds=["inner"]))
        self.assertEqual(it.tokens(), {"1.1.1"})
        it.settle(env(default="pending", conds=["outer"]))
        self.assertEqual((it.tokens(), it.status()), (set(), "done"))

    def test_cancel_exit(self):
        it = run("seq(cancel(region(stop), task(a)), task(b))", env({"1.2": "pending"}))
        it.settle(env(default="pending", conds=["stop"]))  # the scope has exited: no effect
        self.assertEqual((it.tokens(), it.status()), ({"1.2"}, "running"))

    def test_cancel_effect(self):
        it = run("seq(cancel(activity(stop), task(a)), task(b))", PENDING)
        it.settle(env(default="pending", conds=["stop"]))
        self.assertEqual(it.tokens(), {"1.2"})
        it.settle(env())  # the cancelled call's answer is not used, nor is it sent again
        self.assertEqual((it.status(), it.started()), ("done", [("1.1.1", 1), ("1.2", 1)]))

    def test_mi_spawn_fixed(self):
        it = run("mi(fixed(3), all, task(a))", PENDING)
        self.assertEqual(it.started(), [("1.1", 1), ("1.2", 1), ("1.3", 1)])

    def test_mi_spawn_dynamic(self):
        text = "mi(dynamic(L, 1, 4), all, task(a))"
        it = run(text, env(default="pending", items={"L": 2}))
        self.assertEqual(it.tokens(), {"1.1", "1.2"})
        # N is computed once, at the spawn: a list that grows later spawns nothing more
        it.settle(env(default="pending", items={"L": 3}))
        self.assertEqual(it.tokens(), {"1.1", "1.2"})
        self.assertEqual(run(text, env(default="pending", items={"L": 5})).status(), "failed")
        self.assertEqual(run(text, env(items={"L": 0})).status(), "failed")
        self.assertEqual(run("mi(dynamic(L, 0, 4), all, task(a))", env()).status(), "done")

    def test_case_cancel_on_entry_stops_the_forked_branches(self):
        """PAR-FORK starts every branch at once: b is started with the fork (the model sends it in that
        poll), then stopped by the case cancel; the cancel's own body never starts."""
        it = run("par(cancel(case(x), task(a)), task(b))", env(conds={"x": True}, default="pending"))
        self.assertEqual((it.status(), it.tokens(), it.started()), ("cancelled", set(), [("1.2", 1)]))

    def test_mi_collect(self):
        it = run("mi(fixed(3), all, task(a))", env({"1.1": "pending", "1.3": "pending"}))
        self.assertEqual((it.tokens(), it.status()), ({"1.1", "1.3"}, "running"))

    def test_mi_join(self):
        it = run("mi(fixed(3), first_n(2), task(a))", env({"1.2": "pending"}))
        self.assertEqual((it.tokens(), it.status()), (set(), "done"))
        # one instance cannot meet first_n(2): the mi fails at its spawn
        self.assertEqual(run("mi(dynamic(L, 0, 3), first_n(2), task(a))", env(items={"L": 1})).status(), "failed")
        self.assertEqual(run("mi(dynamic(L, 0, 3), first_n(2), task(a))", env(items={"L": 2})).status(), "done")


class Other(unittest.TestCase):
    def test_failure_cancels_siblings(self):
        it = run("seq(par(task(a), task(b)), task(c))", env({"1.1.1": "fail", "1.1.2": "pending"}))
        self.assertEqual((it.status(), it.tokens()), ("failed", set()))

    def test_deterministic(self):
        text = "par(loop(until(c), task(a)), mi(dynamic(L, 0, 5), first_n(2), seq(task(b), task(c))))"
        envs = [env({("1.1.1.1", 2): "pending"}, items={"L": 1}), env(default="pending", items={"L": 3})]
        a, b = run(text, *envs), run(text, *envs)
        self.assertEqual((a.started(), a.tokens(), a.status()), (b.started(), b.tokens(), b.status()))

    def test_parse_errors(self):
        cases = {"seq(task(a)": "1:12: expected ')'",
                 "task(a))": "1:8: unexpected ')'",
                 "seq(task(a), # c\n  tsk(b))": "2:3: unknown term 'tsk'",
                 "task(1)": "1:6: expected a name",
                 "join(n_of_m(2, 3), task(a), task(b))": "1:6: n_of_m M is 3 but there are 2 branches",
                 "cancel(activity(s), seq(task(a)))": "1:21: cancel(activity(...)) takes a task",
                 "task($)": "1:6: unexpected character"}
        for text, msg in cases.items():
            with self.assertRaises(ValueError, msg=text) as cm:
                parse(text)
            self.assertTrue(str(cm.exception).startswith(msg), (text, str(cm.exception)))
        self.assertEqual(parse("task(a-1_b) # name\n").name, "a-1_b")


if __name__ == "__main__":
    unittest.main()
