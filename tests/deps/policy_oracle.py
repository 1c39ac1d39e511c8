#!/usr/bin/env python3
"""policy_oracle.py: a reference implementation (test oracle) of the dependency policy that
`ldgsm deps --gsm` compiles into a GSM model, written from the specification in
src/deps/dep_policy.h alone (not from its implementation), by brute-force enumeration.

Dependencies are tests/deps/oracle.py expressions. Events related by dependencies form a group; a
group's history is a sequence of its distinct positive events, one a step; complements happen only
when the instance completes. For a group, over the sets S of events it can reach:
  allowed[e](S)  every reachable history h with set S has a viable h + e, and (order "delay", the
                 default) e does not wait after h;
  trigger[e](S)  e is triggerable, allowed[e](S) and not final(S);
  final(S)       every reachable history with set S, followed by the complements of the rest (in
                 some order), satisfies every dependency of the group.
A history h is viable when some completion satisfies every dependency of the group: h, then every
remaining inevitable event and some of the remaining triggerable ones (in some order; by order "delay",
none of them waiting where it comes), then the complements of the rest (in some order). Sets are bit
masks over the group's events (bit i: events[i]).
The order "delay" is the paper's (Example 4): e waits after h when some other event y is possible after h,
not after h + e, and e comes after y on some such completion of h (not only right after: y may need
others first); possible after h are the events that happen on some completion of h satisfying every
dependency where any remaining events happen, in any order (every inevitable one among them), before the
complements of the rest. An inevitable e waits only for an inevitable or triggerable y (a wait for
another could last until completion, which would reject e). The order "first-come" never waits. A
group is refused only when no history is viable in any order (the first-come viability of the empty one).
Related events beyond EVENTS_MAX are split: a group per dependency, over its own events; an event in
several groups is allowed where all of them allow it, triggered where all allow it and one of them may not
complete yet, and the instance completes where every group may.
"""

import functools
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import oracle  # noqa: E402

EVENTS_MAX = 6
DEPENDENCY_EVENTS_MAX = 5  # the text syntax's limit (src/deps/dep_guard.h)


class Refused(ValueError):
    """The set has no policy; the message says why, as `ldgsm deps --gsm` would refuse it."""


class Group:
    def __init__(self, events, deps):
        self.events = events          # sorted names; bit i of a set is events[i]
        self.deps = deps              # the dependencies mentioning the group's events
        self.reachable = set()        # masks
        self.allowed = {}             # event -> {mask: bool} over reachable masks
        self.trigger = {}             # triggerable event -> {mask: bool}
        self.final = {}               # mask -> bool
        self.allows = None            # (history, event) -> bool: allowed after that one history
        self.waits_for = None         # (history, event) -> the events it waits for there

    def mask(self, occurred):
        """The group's part of a set of occurred event names."""
        return sum(1 << i for i, e in enumerate(self.events) if e in occurred)


def groups_of(deps):
    """Events sharing a dependency, transitively: a union-find over the symbols."""
    parent = {}

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for dep in deps:
        syms = sorted(oracle.symbols(dep))
        for s in syms:
            parent.setdefault(s, s)
        for s in syms[1:]:
            parent[root(s)] = root(syms[0])
    members = {}
    for s in parent:
        members.setdefault(root(s), []).append(s)
    return [Group(sorted(m), [d for d in deps if oracle.symbols(d) & set(m)])
            for m in sorted(members.values(), key=min)]


def _compute(group, inevitable, triggerable, order):
    # the same maximal trace is reached from many histories: judge it once
    good = functools.lru_cache(maxsize=None)(lambda trace: oracle.satisfies_all(trace, group.deps))

    def closes(prefix, rest):
        """prefix, then the complements of rest in some order, satisfies every dependency."""
        return any(good(prefix + tuple((e, False) for e in order)) for order in itertools.permutations(rest))

    @functools.lru_cache(maxsize=None)
    def possible(h):
        """The events not in h that happen on some satisfying completion of h, whatever the policy."""
        rest = [e for e in group.events if e not in h]
        must = {e for e in rest if e in inevitable}
        found = set()
        for k in range(len(rest) + 1):
            for chosen in itertools.permutations(rest, k):
                if must <= set(chosen) and not set(chosen) <= found and \
                        closes(_positive(h + chosen), [e for e in rest if e not in chosen]):
                    found |= set(chosen)
        return frozenset(found)

    @functools.lru_cache(maxsize=None)
    def follows(h):
        """The pairs (y, e) of events not in h with e after y on some satisfying completion of h."""
        rest = [e for e in group.events if e not in h]
        must = {e for e in rest if e in inevitable}
        pairs = set()
        for k in range(2, len(rest) + 1):
            for chosen in itertools.permutations(rest, k):
                if must <= set(chosen) and closes(_positive(h + chosen), [e for e in rest if e not in chosen]):
                    pairs |= {(chosen[i], chosen[j]) for i in range(k) for j in range(i + 1, k)}
        return frozenset(pairs)

    @functools.lru_cache(maxsize=None)
    def waits_for(h, e):
        """The events e waits for after h."""
        if order != "delay":
            return frozenset()
        awaited = [y for y in group.events if e not in inevitable or y in inevitable or y in triggerable]
        return frozenset(y for y in awaited if y != e and y not in h and y in possible(h) and
                         y not in possible(h + (e,)) and (y, e) in follows(h))

    def waits(h, e):
        return bool(waits_for(h, e))

    @functools.lru_cache(maxsize=None)
    def viable(h, in_order=True):
        """Some completion of the history h (event names) satisfies every dependency (in_order: none of
        its inevitable or triggerable events waiting where it comes)."""
        rest = [e for e in group.events if e not in h]
        must = [e for e in rest if e in inevitable]
        may = [e for e in rest if e in triggerable and e not in inevitable]
        for k in range(len(may) + 1):
            for extra in itertools.combinations(may, k):
                chosen = must + list(extra)
                others = [e for e in rest if e not in chosen]
                for ordering in itertools.permutations(chosen):
                    if in_order and any(waits(h + ordering[:i], ordering[i]) for i in range(len(ordering))):
                        continue
                    if closes(_positive(h + ordering), others):
                        return True
        return False

    def allows(h, e):
        """e may happen after the one history h (allowed[e] asks it of every history reaching the set)."""
        return viable(h + (e,)) and not waits(h, e)

    if not viable((), in_order=False):
        raise Refused('%s: no run of the instance satisfies them' % ' '.join(group.events))
    group.allows, group.waits_for = allows, waits_for
    # Level by level: allowed at a set needs every reachable history reaching it, and those are
    # exactly the extensions, by allowed events, of the histories one level down.
    level = {0: [()]}
    for e in group.events:
        group.allowed[e] = {}
        if e in triggerable:
            group.trigger[e] = {}
    while level:
        following = {}
        for s, histories in level.items():
            group.reachable.add(s)
            rest = [e for e in group.events if e not in histories[0]]
            group.final[s] = all(closes(_positive(h), rest) for h in histories)
            for i, e in enumerate(group.events):
                ok = not s >> i & 1 and all(allows(h, e) for h in histories)
                group.allowed[e][s] = ok
                if e in triggerable:
                    group.trigger[e][s] = ok and not group.final[s]
                if ok:
                    following.setdefault(s | 1 << i, []).extend(h + (e,) for h in histories)
        level = following
    return group


def _positive(names):
    """The trace of a history: its events, all positive."""
    return tuple((e, True) for e in names)


def policy(wf, order="delay"):
    """The groups of an oracle.Workflow with their functions (order "delay" or "first-come"), or Refused."""
    if wf.immediate:
        raise Refused('%s is immediate' % oracle.lit_str(min(wf.immediate)))
    for word in ('inevitable', 'triggerable'):
        for lit in wf.attrs[word]:
            if not lit[1]:
                raise Refused('%s has an attribute' % oracle.lit_str(lit))
    inevitable = {name for name, _ in wf.inevitable}
    triggerable = {name for name, _ in wf.attrs['triggerable']}
    deps = list(wf.deps.values())
    for dep in deps:
        if len(oracle.symbols(dep)) > DEPENDENCY_EVENTS_MAX:
            raise Refused('a dependency relates more than %d events' % DEPENDENCY_EVENTS_MAX)
    groups = []
    for g in groups_of(deps):
        if len(g.events) <= EVENTS_MAX:
            groups.append(g)
        else:  # one group per dependency: each kept on its own
            groups += [Group(sorted(oracle.symbols(d)), [d]) for d in g.deps]
    return [_compute(g, inevitable, triggerable, order) for g in groups]
