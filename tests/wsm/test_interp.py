"""Tests of the reference interpreter of seed 002 (interp.py): one test per rule of the seed (sections 1,
2(a), 2(b), 3) and per choice ldgsm makes where the seed is silent. Run: python3 tests/wsm/test_interp.py"""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from interp import (FIRED, REJECTED, SET_ASIDE, Event, FlagIs, Instance, Machine, Member,  # noqa: E402
                    NotExactlyDefined, Schema, Transition, VarIs, invoke, successor)


def t(name, event, source, target, conditions=(), assignments=()):
    return Transition(name, event, source, target, tuple(conditions), tuple(assignments))


# Lenya's publishing workflow, trimmed: the seed's example.
PUBLISHING = Schema(
    "authoring",
    [t("t-submit", "submit", "authoring", "review"),
     t("t-publish", "publish", "review", "live", ["by-reviewer"], [("is_live", True)]),
     t("t-deactivate", "deactivate", "live", "authoring", [], [("is_live", False)]),
     t("t-delete", "delete", "authoring", "trash", ["not-live", "by-reviewer"])],
    variables={"is_live": None, "archived": True},
    conditions={"not-live": VarIs("is_live", False), "by-reviewer": FlagIs(True)})


def at(state, **values):
    i = Instance.initial(PUBLISHING)
    i.state = state
    i.values.update(values)
    return i


def member(iri, *events, flag=None, parses=True):
    return Member(iri, parses, list(events), flag)


class Section1Syntax(unittest.TestCase):
    def test_states_and_events_are_those_named(self):
        self.assertEqual(PUBLISHING.states, {"authoring", "review", "live", "trash"})
        self.assertEqual(PUBLISHING.events, {"submit", "publish", "deactivate", "delete"})

    def test_assignments_range_over_v(self):
        with self.assertRaises(ValueError):
            Schema("a", [t("t", "e", "a", "b", assignments=[("nowhere", True)])])

    def test_conditions_range_over_c(self):
        with self.assertRaises(ValueError):
            Schema("a", [t("t", "e", "a", "b", conditions=["nowhere"])])


class Section2Semantics(unittest.TestCase):
    def test_an_instance_starts_in_s0_with_initial_values_default_false(self):
        i = Instance.initial(PUBLISHING)
        self.assertEqual((i.state, i.values), ("authoring", {"is_live": False, "archived": True}))

    def test_2a_the_transition_moves_to_its_target(self):
        self.assertEqual(successor(at("authoring"), Event("submit", None)).state, "review")

    def test_2a_assigned_variables_take_their_values(self):
        self.assertEqual(successor(at("review"), Event("publish", True)).values["is_live"], True)

    def test_2a_other_variables_keep_theirs(self):
        after = successor(at("review", archived=False), Event("publish", True))
        self.assertEqual(after.values["archived"], False)
        after = successor(at("review", archived=True), Event("publish", True))
        self.assertEqual(after.values["archived"], True)

    def test_2a_needs_every_condition_complied(self):
        self.assertEqual(successor(at("authoring"), Event("delete", True)).state, "trash")
        self.assertEqual(successor(at("authoring", is_live=True), Event("delete", True)).state, "authoring")
        self.assertEqual(successor(at("authoring"), Event("delete", False)).state, "authoring")

    def test_2b_no_transition_leaves_the_instance(self):
        before = at("live", is_live=True)
        self.assertEqual(successor(before, Event("submit", None)), before)

    def test_2b_a_condition_not_complied_leaves_the_instance(self):
        before = at("review")
        self.assertEqual(successor(before, Event("publish", None)), before)

    def test_conditions_see_the_instance_before_the_assignments(self):
        w = Schema("a", [t("t", "e", "a", "b", ["off"], [("v", True)])], {"v": False}, {"off": VarIs("v", False)})
        self.assertEqual(successor(Instance.initial(w), Event("e", None)).state, "b")


class Section3Invoking(unittest.TestCase):
    def test_t_not_exactly_defined_two_transitions(self):
        w = Schema("a", [t("t1", "e", "a", "b"), t("t2", "e", "a", "c")])
        with self.assertRaises(NotExactlyDefined):
            invoke(Instance.initial(w), Event("e", None))

    def test_t_not_exactly_defined_none(self):
        with self.assertRaises(NotExactlyDefined):
            invoke(at("trash"), Event("submit", None))

    def test_fires_when_all_conditions_are_complied(self):
        inv = invoke(at("review"), Event("publish", True))
        self.assertEqual((inv.outcome, inv.transition.name, inv.instance.state, inv.instance.values["is_live"]),
                         (FIRED, "t-publish", "live", True))

    def test_does_not_fire_otherwise_and_names_the_failing_conditions(self):
        inv = invoke(at("authoring", is_live=True), Event("delete", None))
        self.assertEqual((inv.outcome, inv.failed, inv.instance), (REJECTED, {"not-live", "by-reviewer"},
                                                                   at("authoring", is_live=True)))

    def test_invoke_agrees_with_the_successor_rule(self):
        rng = random.Random(2)
        for _ in range(300):
            state = rng.choice(sorted(PUBLISHING.states))
            i = at(state, is_live=rng.random() < 0.5)
            e = Event(rng.choice(sorted(PUBLISHING.events)), rng.choice([True, False, None]))
            try:
                after = invoke(i, e).instance
            except NotExactlyDefined:
                after = i
            self.assertEqual(after, successor(i, e), (state, e))


class LdgsmChoices(unittest.TestCase):
    def test_members_are_taken_in_the_lexical_order_of_their_iris(self):
        m = Machine(PUBLISHING).run([member("x/0002", "deactivate"), member("x/0003", "publish", flag=True),
                                     member("x/0001", "submit")])
        self.assertEqual([e.resource for e in m.history], ["x/0001", "x/0002", "x/0003"])
        self.assertEqual(m.instance.state, "live")

    def test_each_member_is_taken_once_with_sequence_numbers(self):
        m = Machine(PUBLISHING)
        members = [member("x/0001", "submit")]
        m.run(members)
        members.append(member("x/0002", "publish", flag=True))
        m.run(members)
        self.assertEqual([(e.sequence, e.resource) for e in m.history], [(1, "x/0001"), (2, "x/0002")])
        with self.assertRaises(ValueError):
            m.take(members[0])

    def test_not_parsing_is_set_aside(self):
        e = Machine(PUBLISHING).take(member("x/0001", "submit", parses=False))
        self.assertEqual((e.outcome, e.event, e.target), (SET_ASIDE, None, "authoring"))

    def test_naming_no_event_is_set_aside(self):
        self.assertEqual(Machine(PUBLISHING).take(member("x/0001")).outcome, SET_ASIDE)

    def test_naming_several_events_is_set_aside(self):
        e = Machine(PUBLISHING).take(member("x/0001", "submit", "delete", flag=True))
        self.assertEqual((e.outcome, e.event, e.target), (SET_ASIDE, None, "authoring"))

    def test_naming_one_event_twice_names_it(self):
        self.assertEqual(Machine(PUBLISHING).take(member("x/0001", "submit", "submit")).outcome, FIRED)

    def test_no_transition_is_rejected_unchanged(self):
        m = Machine(PUBLISHING)
        e = m.take(member("x/0001", "publish", flag=True))
        self.assertEqual((e.outcome, e.event, e.source, e.target, e.failed), (REJECTED, "publish", "authoring",
                                                                            "authoring", frozenset()))
        self.assertEqual(m.instance, Instance.initial(PUBLISHING))

    def test_an_event_outside_e_is_rejected(self):
        self.assertEqual(Machine(PUBLISHING).take(member("x/0001", "nowhere")).outcome, REJECTED)

    def test_a_failing_condition_is_rejected_unchanged_naming_it(self):
        m = Machine(PUBLISHING)
        e = m.take(member("x/0001", "delete", flag=False))
        self.assertEqual((e.outcome, e.failed, e.transition), (REJECTED, {"by-reviewer"}, None))
        self.assertEqual(m.instance, Instance.initial(PUBLISHING))

    def test_a_flag_not_given_complies_with_neither_value(self):
        w = Schema("a", [t("t1", "e", "a", "b", ["yes"]), t("t2", "f", "a", "b", ["no"])], {},
                   {"yes": FlagIs(True), "no": FlagIs(False)})
        self.assertEqual([Machine(w).take(member("x/1", ev)).outcome for ev in ("e", "f")], [REJECTED, REJECTED])
        self.assertEqual(Machine(w).take(member("x/1", "f", flag=False)).outcome, FIRED)

    def test_fired_entries_name_the_transition(self):
        e = Machine(PUBLISHING).take(member("x/0001", "submit"))
        self.assertEqual((e.outcome, e.transition, e.source, e.target), (FIRED, "t-submit", "authoring", "review"))

    def test_two_transitions_are_a_schema_error_not_an_outcome(self):
        w = Schema("a", [t("t1", "e", "a", "b"), t("t2", "e", "a", "c")])
        with self.assertRaises(NotExactlyDefined):
            Machine(w).take(member("x/1", "e"))


if __name__ == "__main__":
    unittest.main()
