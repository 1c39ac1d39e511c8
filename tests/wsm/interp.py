"""interp.py: a reference interpreter of seed 002 (the workflow state machine), written from the seed's
text, for the property test of `ldgsm run --machine` (tests/wsm/property.py).

The seed, section by section:

  1   a schema W = (S, T, E, C, A, V, s0): Schema; T a set of transitions t = (e, s, s', cs, as):
      Transition (actions A are not modelled: the property test's schemas have none);
  2   an instance I = (W, s, i): Instance; successor(I, e) is rule 2(a) (a transition from s on e whose
      conditions are all complied: the new state s' and i' = i but for the assignments of as) or 2(b) (I);
  3   invoke(I, e): the algorithm of "Invoking a Transition" (determine s_current, the transition t from
      it on e, an exception when t is not exactly defined, validate the conditions, fire).

What the seed leaves open, as ldgsm chooses it (ontology/wsm.ttl, rules/wsm.n3), is Machine:

  - an instance starts in s0 with every variable at its initial value (wsm:initialValue, default false);
  - events are resources in an inbox, taken one at a time in the lexical order of their IRIs, each once;
  - a member that is not RDF that parses, or that names no event or several, is set aside;
  - no transition from the current state on the event: rejected (section 3 says "not exactly defined"
    for it and for two transitions; ldgsm rejects the event for the first and refuses the schema for the
    second, so Machine raises NotExactlyDefined only then);
  - a transition with a condition that does not hold: rejected, the instance unchanged (2(b));
  - every event taken gets a history entry: its sequence number (1, 2, ...), the member, the event it
    names, the states before and after, the outcome, the fired transition, the failed conditions.

Conditions are the two kinds the property test generates, each evaluated against the instance before
the event (its variables) and the event resource (its flag):

  VarIs(v, b)   ASK { wsm:thisInstance <v> b }: the instance's variable v has the value b;
  FlagIs(b)     ASK { wsm:thisEvent <https://example.org/ev#flag> b }: the event resource says flag b
                (an event that says nothing about its flag complies with neither).
"""
import collections

Transition = collections.namedtuple("Transition", "name event source target conditions assignments")
Transition.__doc__ = """t = (e, s, s', cs, as): conditions a tuple of condition names, assignments a
tuple of (variable, bool)."""
VarIs = collections.namedtuple("VarIs", "variable value")
FlagIs = collections.namedtuple("FlagIs", "value")
Event = collections.namedtuple("Event", "name flag")
Event.__doc__ = "An event as a condition sees it: the event e of E it names, and its flag (True, False or None)."

FIRED, REJECTED, SET_ASIDE = "fired", "rejected", "setAside"


class NotExactlyDefined(Exception):
    """Section 3: "If t is not exactly defined, an exception is thrown"."""


class Schema:
    """W = (S, T, E, C, A, V, s0). variables: v -> its initial value (None: not given, so false);
    conditions: name -> VarIs or FlagIs. S and E are the states and events the transitions and s0 name,
    with any others given."""

    def __init__(self, initial, transitions, variables=None, conditions=None, states=(), events=()):
        self.initial = initial
        self.transitions = list(transitions)
        self.variables = dict(variables or {})
        self.conditions = dict(conditions or {})
        self.states = {initial} | set(states) | {t.source for t in self.transitions} | \
            {t.target for t in self.transitions}
        self.events = set(events) | {t.event for t in self.transitions}
        for t in self.transitions:
            for c in t.conditions:
                if c not in self.conditions:
                    raise ValueError("transition %s names the unknown condition %s" % (t.name, c))
            for v, _ in t.assignments:
                if v not in self.variables:
                    raise ValueError("transition %s assigns the unknown variable %s" % (t.name, v))

    def transitions_from(self, state, event):
        return [t for t in self.transitions if t.source == state and t.event == event]


class Instance:
    """I = (W, s, i): values is the variable instantiation i, V -> {true, false}."""

    def __init__(self, schema, state, values):
        self.schema, self.state, self.values = schema, state, dict(values)

    @classmethod
    def initial(cls, schema):
        return cls(schema, schema.initial, {v: bool(b) for v, b in schema.variables.items()})

    def __eq__(self, other):
        return (self.schema, self.state, self.values) == (other.schema, other.state, other.values)

    def __repr__(self):
        return "Instance(%r, %r)" % (self.state, self.values)


def complied(schema, condition, instance, event):
    c = schema.conditions[condition]
    if isinstance(c, VarIs):
        return instance.values.get(c.variable) is c.value
    return event.flag is c.value


def successor(instance, event):
    """Section 2: the successor of I for the event: 2(a) when a transition from s on e has every condition
    complied, else 2(b), I itself."""
    w = instance.schema
    for t in w.transitions_from(instance.state, event.name):
        if all(complied(w, c, instance, event) for c in t.conditions):
            values = dict(instance.values)
            for v, b in t.assignments:
                values[v] = b
            return Instance(w, t.target, values)
    return instance


Invocation = collections.namedtuple("Invocation", "outcome transition failed instance")


def invoke(instance, event):
    """Section 3: the transition t from s_current on e; NotExactlyDefined when there are two or more, or
    none (`transition` None, which Machine turns into a rejection); its conditions validated; when all are
    complied t fires: the assignments, then the next state. failed: the conditions not complied."""
    w = instance.schema
    s_current = instance.state
    ts = w.transitions_from(s_current, event.name)
    if len(ts) != 1:
        raise NotExactlyDefined("%d transitions from %s on %s" % (len(ts), s_current, event.name))
    t = ts[0]
    failed = frozenset(c for c in t.conditions if not complied(w, c, instance, event))
    if failed:
        return Invocation(REJECTED, t, failed, instance)
    values = dict(instance.values)
    for v, b in t.assignments:
        values[v] = b
    return Invocation(FIRED, t, frozenset(), Instance(w, t.target, values))


Member = collections.namedtuple("Member", "iri parses events flag")
Member.__doc__ = """An inbox member: its IRI, whether it parses as RDF, the events it names (wsm:event of
the member itself) and its flag (True, False or None)."""

Entry = collections.namedtuple("Entry", "sequence resource event source target outcome transition failed")
Entry.__doc__ = """A history entry: event is the one event the member names (None when set aside),
transition the fired one's name (None unless fired), failed the names of the conditions not complied."""


class Machine:
    """An instance run the way ldgsm runs it: take(member) takes one event, next_member(members) is the
    member taken next among those listed, run(members) takes them all."""

    def __init__(self, schema):
        self.instance = Instance.initial(schema)
        self.history = []
        self.consumed = set()

    def next_member(self, members):
        pending = [m for m in members if m.iri not in self.consumed]
        return min(pending, key=lambda m: m.iri) if pending else None

    def take(self, member):
        if member.iri in self.consumed:
            raise ValueError("%s is taken twice" % member.iri)
        self.consumed.add(member.iri)
        before = self.instance
        event, outcome, transition, failed = None, SET_ASIDE, None, frozenset()
        if member.parses and len(set(member.events)) == 1:
            event = member.events[0]
            try:
                inv = invoke(before, Event(event, member.flag))
                outcome, failed, self.instance = inv.outcome, inv.failed, inv.instance
                if outcome == FIRED:
                    transition = inv.transition.name
            except NotExactlyDefined:
                if before.schema.transitions_from(before.state, event):
                    raise  # two transitions: a schema ldgsm refuses, never an outcome
                outcome = REJECTED
        entry = Entry(len(self.history) + 1, member.iri, event, before.state, self.instance.state, outcome,
                      transition, failed)
        self.history.append(entry)
        return entry

    def run(self, members):
        while True:
            m = self.next_member(members)
            if m is None:
                return self
            self.take(m)
