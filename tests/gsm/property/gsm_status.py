#!/usr/bin/env python3
"""gsm_status.py: reads a GSM workflow instance's status document and its model from an LDP server and
checks them against DESIGN.md section 5, for the GSM shell tests and the property test.

  invariants   GSM-1 (an active stage has no achieved milestone) and GSM-2 (an inactive stage has no
               active descendant) on one status snapshot;
  transition   every change between two consecutive snapshots is one the rule table allows (set-up,
               set-up repair, FCR-1 with TASK and FCR-4a/4b, FCR-2a with FCR-2b, FCR-3, a task marked
               sent), whatever the sentries said, and every rule that fired made its whole update
               (the composed write is atomic);
  track        both, against the snapshot a state file keeps from the previous call; counts the
               activations of every stage (inactive -> active) in the same file.

CLI (the shell tests):
  gsm_status.py track STATE.json INSTANCE-IRI [--invariants-only]   exit 1 and one line per violation
  gsm_status.py activations STATE.json STAGE                         activations seen (STAGE: fragment)
  gsm_status.py show STATE.json [STAGE-OR-MILESTONE ...]             the last snapshot, compactly
  gsm_status.py task STATE.json STAGE                                its last ldgsm:taskState
  gsm_status.py fragment STATE.json STAGE                            the IRI of its stage instance
  gsm_status.py serve        the same commands, one per line on standard input (arguments separated by
                             tabs), each answered by its output and a line "\x1e" + its exit status: the
                             shell tests step hundreds of times, and a Python start costs more than a step

A snapshot is keyed by model terms: stage instances by their stage model, milestone instances by
(stage model, milestone model), so two snapshots compare whatever the fragments are named.
"""
import collections
import hashlib
import json
import re
import sys
import urllib.request

GSM = "http://purl.org/gsm/vocab#"
LDGSM = "https://w3id.org/ldgsm#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDF_TYPE = RDF + "type"
HTTP = "http://www.w3.org/2011/http#"

_TERM = r'(<[^>]*>|_:[^\s]+|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@[A-Za-z0-9-]+)?)'
_TRIPLE = re.compile(r"^\s*" + _TERM + r"\s+" + _TERM + r"\s+" + _TERM + r"\s*\.\s*$")


def parse_ntriples(text):
    """Triples of an N-Triples document as (s, p, o) strings: IRIs without brackets, blank nodes as
    '_:x', literals as their lexical form (datatypes dropped: the status vocabulary needs none)."""
    triples = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _TRIPLE.match(line)
        if not m:
            raise ValueError("not an N-Triples line: %r" % line)
        triples.append(tuple(_term(t) for t in m.groups()))
    return triples


def _term(t):
    if t.startswith("<"):
        return t[1:-1]
    if t.startswith('"'):
        end = t.rindex('"')
        return _UNESCAPE.sub(_unescape_one, t[1:end])
    return t


_UNESCAPE = re.compile(r'\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)')
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def _unescape_one(m):
    e = m.group(1)
    return chr(int(e[1:], 16)) if e[0] in "uU" else _ESCAPES.get(e, e)


# URL -> (ETag, triples) of the documents read: a test steps hundreds of times, reading the instance and
# its model's documents at each step, and the model's documents do not change between steps.
_documents = {}


def fetch(url):
    """The N-Triples of a resource (its fragment dropped), [] when it is missing. A document read before
    is asked for with If-None-Match: when it is unchanged (304) its triples are those read then."""
    doc = url.split("#")[0]
    headers = {"Accept": "application/n-triples"}
    known = _documents.get(doc)
    if known:
        headers["If-None-Match"] = known[0]
    try:
        with urllib.request.urlopen(urllib.request.Request(doc, headers=headers), timeout=10) as resp:
            triples = parse_ntriples(resp.read().decode("utf-8"))
            etag = resp.headers.get("ETag")
    except urllib.error.HTTPError as e:
        if e.code == 304 and known:
            return list(known[1])
        _documents.pop(doc, None)
        if e.code in (404, 410):
            return []
        raise
    if etag:
        _documents[doc] = (etag, triples)
    else:
        _documents.pop(doc, None)
    return list(triples)


def read_model(root):
    """The Model of stage model `root`, from its document and those its descendant stages are
    described in."""
    triples, read, todo = [], set(), [root]
    while todo:
        doc = todo.pop().split("#")[0]
        if doc in read:
            continue
        read.add(doc)
        got = fetch(doc)
        triples.extend(got)
        todo.extend(o for (_, p, o) in got if p == GSM + "hasChildStage")
    return Model(triples, root)


def local(iri):
    return iri.rsplit("#", 1)[-1]


class Model:
    """The stage tree of one root stage model: children, milestones, guard conditions, sentries, tasks."""

    def __init__(self, triples, root):
        by_subject_predicate = collections.defaultdict(list)  # (s, p) -> its objects, in document order
        for s2, p2, o in triples:
            by_subject_predicate[(s2, p2)].append(o)

        def objs(s, p):  # a list of its own: the callers extend some
            return list(by_subject_predicate.get((s, p), ()))

        def rdf_list(node):
            items = []
            while node and node != RDF + "nil" and len(items) < 1000:
                items += objs(node, RDF + "first")
                rest = objs(node, RDF + "rest")
                node = rest[0] if rest else None
            return items

        def part(stage, name):
            """A synthetic part rules/gsm-alternatives.n3 gives a stage with alternatives or an alternative."""
            h = hashlib.sha1(stage.encode()).hexdigest()[:12]
            return stage.split("#", 1)[0] + "#ldgsm-" + name + "-" + h

        self.root = root
        self.children, self.parent, self.milestones = {}, {}, {}
        self.conditions, self.achieving, self.invalidating, self.task = {}, {}, {}, {}
        alternative_parts = {}  # alternative stage -> (its "gave way" milestone, its sentry, its turn condition)
        todo = [root]
        while todo:
            s = todo.pop()
            if s in self.children:
                continue
            alternatives = [a for l in objs(s, LDGSM + "alternativeStages") for a in rdf_list(l)]
            self.children[s] = objs(s, GSM + "hasChildStage") + [a for a in alternatives
                                                                 if a not in objs(s, GSM + "hasChildStage")]
            for c in self.children[s]:
                self.parent[c] = s
                todo.append(c)
            self.milestones[s] = objs(s, GSM + "hasMilestone")
            self.conditions[s] = [c for g in objs(s, GSM + "hasGuard") for c in objs(g, GSM + "hasCondition")]
            if alternatives:
                failed = part(s, "all-failed")
                self.milestones[s].append(failed)
                self.achieving[failed], self.invalidating[failed] = [part(s, "last-gave-way")], []
            for a in alternatives:
                alternative_parts[a] = (part(a, "gave-way"), part(a, "stuck"), part(a, "its-turn"))
            requests = objs(s, GSM + "hasHttpRequest")
            self.task[s] = requests[0] if requests else None
            if s in alternative_parts:
                gave_way, stuck, turn = alternative_parts[s]
                self.milestones[s].append(gave_way)
                self.achieving[gave_way], self.invalidating[gave_way] = [stuck], []
                self.conditions[s].append(turn)
            for m in self.milestones[s]:
                if m not in self.achieving:
                    self.achieving[m] = objs(m, GSM + "hasAchievingSentry")
                    self.invalidating[m] = objs(m, GSM + "hasInvalidatingSentry")
        self.stages = sorted(self.children)

    def ancestors(self, s):
        out = []
        while s in self.parent:
            s = self.parent[s]
            out.append(s)
        return out

    def descendants(self, s):
        out = []
        for c in self.children.get(s, []):
            out.append(c)
            out.extend(self.descendants(c))
        return out


class Snapshot:
    """One status document as the rules see it, for the artifact instance `root_iri`.
    stages: stage model -> {"frag", "state", "completed", "task"}; milestones: (stage model, milestone
    model) -> {"frag", "achieved"}; values are None when the triple is missing."""

    def __init__(self, triples, root_iri):
        by_subject = {}
        for s, p, o in triples:
            by_subject.setdefault(s, {}).setdefault(p, []).append(o)

        def one(props, p):
            vals = props.get(p, [])
            return vals[0] if len(vals) == 1 else (None if not vals else tuple(sorted(vals)))

        def name(v):
            return local(v) if isinstance(v, str) else v

        def boolean(v):
            return None if v is None else (v in ("true", "1") if isinstance(v, str) else v)

        root_props = by_subject.get(root_iri, {})
        self.root_model = one(root_props, GSM + "isInstanceOf")
        self.stages, self.milestones = {}, {}
        frag_model = {}
        for s, props in by_subject.items():
            mine = s == root_iri or root_iri in props.get(GSM + "inArtifactInstance", [])
            if not mine or GSM + "isInstanceOf" not in props:
                continue
            if LDGSM + "ofStage" in props or GSM + "MilestoneInstance" in props.get(RDF_TYPE, []):
                continue
            model = one(props, GSM + "isInstanceOf")
            frag_model[s] = model
            self.stages[model] = {
                "frag": s,
                "state": name(one(props, GSM + "hasState")),
                "completed": boolean(one(props, LDGSM + "isCompleted")),
                "task": name(one(props, LDGSM + "taskState")),
            }
        for s, props in by_subject.items():
            if root_iri not in props.get(GSM + "inArtifactInstance", []) or LDGSM + "ofStage" not in props:
                continue
            stage_frag = one(props, LDGSM + "ofStage")
            key = (frag_model.get(stage_frag, "?" + str(stage_frag)), one(props, GSM + "isInstanceOf"))
            self.milestones[key] = {"frag": s, "achieved": boolean(one(props, GSM + "isAchieved"))}

    def to_json(self):
        return {"root_model": self.root_model, "stages": self.stages,
                "milestones": [[list(k), v] for k, v in self.milestones.items()]}

    @classmethod
    def from_json(cls, j):
        snap = cls.__new__(cls)
        snap.root_model = j["root_model"]
        snap.stages = j["stages"]
        snap.milestones = {tuple(k): v for k, v in j["milestones"]}
        return snap

    def state(self, s):
        return self.stages.get(s, {}).get("state")

    def completed(self, s):
        return self.stages.get(s, {}).get("completed")

    def task(self, s):
        return self.stages.get(s, {}).get("task")

    def achieved(self, s, m):
        return self.milestones.get((s, m), {}).get("achieved")


def read_instance(instance_iri, model_cache=None):
    """(Model, Snapshot) of a workflow instance, read from its server."""
    snap = Snapshot(fetch(instance_iri), instance_iri)
    if snap.root_model is None:
        raise ValueError("%s has no gsm:isInstanceOf" % instance_iri)
    doc = snap.root_model.split("#")[0]
    if model_cache is not None and doc in model_cache:
        model = model_cache[doc]
    else:
        model = read_model(snap.root_model)
        if model_cache is not None:
            model_cache[doc] = model
    return model, snap


def invariant_violations(model, snap):
    """GSM-1 and GSM-2 on one snapshot, as messages."""
    out = []
    for s in model.stages:
        if snap.state(s) == "active":
            for m in model.milestones[s]:
                if snap.achieved(s, m):
                    out.append("GSM-1: %s is active with milestone %s achieved" % (local(s), local(m)))
        if snap.state(s) in ("inactive", "uninitialized"):
            for d in model.descendants(s):
                if snap.state(d) == "active":
                    out.append("GSM-2: %s is %s with descendant %s active" % (local(s), snap.state(s), local(d)))
    return out


def transition_violations(model, a, b):
    """Every change from snapshot a to snapshot b must be made by the rules of DESIGN section 5's table in
    one step (one composed write, or none), whatever the sentries said; messages otherwise."""
    out = []
    R = model.root
    st_a, st_b = a.state(R), b.state(R)
    if st_a in (None, "uninitialized"):
        if st_b in (None, "uninitialized"):
            if a.stages != b.stages or a.milestones != b.milestones:
                out.append("status changed before set-up: %s -> %s" % (a.to_json(), b.to_json()))
            return out
        return setup_violations(model, b)

    def justified_by_opening(s):  # FCR-4a/4b: s or one of its ancestors opened in this step
        return s in opened or any(p in opened for p in model.ancestors(s))

    opened = {s for s in model.stages if a.state(s) == "inactive" and b.state(s) == "active"}
    closed = {s for s in model.stages if a.state(s) == "active" and b.state(s) == "inactive"}
    newly_achieved = {(s, m) for s in model.stages for m in model.milestones[s]
                      if a.achieved(s, m) is False and b.achieved(s, m) is True}
    fired_2a = {s for (s, m) in newly_achieved}
    root_active = st_a == "active"

    for s in model.stages:
        sa, sb = a.stages.get(s), b.stages.get(s)
        if sa is not None and sb is None:
            out.append("%s: its fragment disappeared" % local(s))
            continue
        if sa is None:
            if sb is not None and (sb["state"] != "inactive" or sb["completed"] is not False or sb["task"] is not None):
                out.append("%s: set-up repair made a fragment that is not inactive and uncompleted: %s" % (local(s), sb))
            continue
        if sb["state"] not in ("active", "inactive"):
            out.append("%s: state %s after set-up" % (local(s), sb["state"]))
        if sa["state"] != sb["state"] and s not in opened and s not in closed:
            out.append("%s: %s -> %s is no rule's" % (local(s), sa["state"], sb["state"]))

    for s in opened:  # FCR-1, with TASK and FCR-4a/4b
        why = []
        if s == R:
            why.append("the root opens only by set-up")
        if not root_active:
            why.append("the artifact is not active")
        if a.completed(s) is not False:
            why.append("it was completed")
        inactive_ancestors = [p for p in model.ancestors(s) if a.state(p) != "active"]
        if inactive_ancestors:
            why.append("not allAncestorsActive (%s)" % ", ".join(local(p) for p in inactive_ancestors))
        if not model.conditions.get(s):
            why.append("it has no guard condition")
        closing = [p for p in model.ancestors(s) if p in fired_2a]
        if closing:
            why.append("ancestor %s closed in the same step (close wins: it should have yielded)" % local(closing[0]))
        for m in model.milestones[s]:
            if a.achieved(s, m) and b.achieved(s, m) is not False:
                why.append("FCR-4a did not unachieve its milestone %s" % local(m))
        for d in model.descendants(s):
            if b.completed(d) is not False:
                why.append("FCR-4b left descendant %s completed" % local(d))
            for m in model.milestones[d]:
                if a.achieved(d, m) and b.achieved(d, m) is not False:
                    why.append("FCR-4b did not unachieve %s of %s" % (local(m), local(d)))
        if model.task.get(s) and b.task(s) != "pending":
            why.append("its task is not pending after the activating write (taskState %s)" % b.task(s))
        for w in why:
            out.append("FCR-1 %s: %s" % (local(s), w))

    for (s, m) in newly_achieved:  # FCR-2a with FCR-2b
        why = []
        if a.state(s) != "active":
            why.append("its stage was %s" % a.state(s))
        if not root_active:
            why.append("the artifact is not active")
        if not model.achieving.get(m):
            why.append("it has no achieving sentry")
        if b.state(s) != "inactive" or b.completed(s) is not True:
            why.append("its stage is not closed and completed in the same write (%s, completed %s)"
                       % (b.state(s), b.completed(s)))
        for d in model.descendants(s):
            if b.state(d) != "inactive":
                why.append("FCR-2b left descendant %s %s" % (local(d), b.state(d)))
        for w in why:
            out.append("FCR-2a %s of %s: %s" % (local(m), local(s), w))

    for s in closed:
        if s not in fired_2a and not any(p in fired_2a for p in model.ancestors(s)):
            out.append("%s closed without a milestone of its own or of an ancestor achieved" % local(s))

    for s in model.stages:
        for m in model.milestones[s]:
            ma, mb = a.achieved(s, m), b.achieved(s, m)
            if (s, m) in a.milestones and (s, m) not in b.milestones:
                out.append("milestone %s of %s: its fragment disappeared" % (local(m), local(s)))
            elif (s, m) not in a.milestones and (s, m) in b.milestones and mb is not False:
                out.append("milestone %s of %s: set-up repair made it achieved" % (local(m), local(s)))
            elif ma is True and mb is False:
                fcr3 = s != R and root_active and model.invalidating.get(m) and b.completed(s) is False
                if not fcr3 and not justified_by_opening(s):
                    out.append("milestone %s of %s unachieved by no rule (FCR-3 needs a non-root stage, an active "
                               "artifact, an invalidating sentry, and the stage uncompleted in the same write; "
                               "FCR-4a/4b an opening of the stage or an ancestor)" % (local(m), local(s)))
            elif ma is not None and mb is not None and ma != mb and not (ma is False and mb is True):
                out.append("milestone %s of %s: %s -> %s" % (local(m), local(s), ma, mb))

        ca, cb = a.completed(s), b.completed(s)
        if s in a.stages and ca != cb:
            if ca is True and cb is False:
                by_fcr3 = s != R and root_active and any(
                    a.achieved(s, m) is True and b.achieved(s, m) is False and model.invalidating.get(m)
                    for m in model.milestones[s])
                if not by_fcr3 and not any(p in opened for p in model.ancestors(s)):
                    out.append("%s uncompleted by no rule (FCR-3 of its milestone or FCR-4b of an opening ancestor)"
                               % local(s))
            elif ca is False and cb is True:
                if s not in fired_2a:
                    out.append("%s completed without FCR-2a" % local(s))
            else:
                out.append("%s: isCompleted %s -> %s" % (local(s), ca, cb))

        ta, tb = a.task(s), b.task(s)
        if s in a.stages and ta != tb:
            if tb == "pending" and s not in opened:
                out.append("%s: taskState %s -> pending without an activation" % (local(s), ta))
            elif tb in ("sent", "failed") and ta != "pending":
                out.append("%s: taskState %s -> %s" % (local(s), ta, tb))
            elif tb not in ("pending", "sent", "failed"):
                out.append("%s: taskState %s -> %s" % (local(s), ta, tb))
    return out


def setup_violations(model, b):
    """Set-up: the root active and uncompleted, every stage below it inactive and uncompleted, every
    (stage, milestone) unachieved, all in one write."""
    out = []
    R = model.root
    if b.state(R) != "active" or b.completed(R) is not False:
        out.append("set-up: the root is %s, completed %s" % (b.state(R), b.completed(R)))
    for s in model.stages:
        if s != R and (b.state(s) != "inactive" or b.completed(s) is not False or b.task(s) is not None):
            out.append("set-up: %s is %s, completed %s, task %s" % (local(s), b.state(s), b.completed(s), b.task(s)))
        for m in model.milestones[s]:
            if b.achieved(s, m) is not False:
                out.append("set-up: milestone %s of %s is %s" % (local(m), local(s), b.achieved(s, m)))
    return out


def compact(model, snap, names=None, tasks=True):
    """'S=active T=inactive/c m1=T ...': stage states (/c completed, /p task pending unless tasks is
    False), milestones T or f, all of them in model order, or those named in the order given."""
    parts = {}
    for s in model.stages:
        st = snap.stages.get(s)
        flags = "" if st is None else ("/c" if st["completed"] else "") + ("/p" if tasks and st["task"] == "pending" else "")
        parts[local(s)] = "%s=%s%s" % (local(s), "-" if st is None else st["state"], flags)
    for s in model.stages:
        for m in model.milestones[s]:
            v = snap.achieved(s, m)
            parts[local(m)] = "%s=%s" % (local(m), "T" if v else ("f" if v is False else "-"))
    return " ".join(parts.get(n, n + "=?") for n in names) if names else " ".join(parts.values())


def _load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return {"prev": None, "activations": {}, "steps": 0}


def cmd_track(state_path, instance, invariants_only):
    state = _load(state_path)
    model, snap = read_instance(instance)
    problems = invariant_violations(model, snap)
    if state["prev"] is not None:
        prev = Snapshot.from_json(state["prev"])
        if not invariants_only:
            problems += transition_violations(model, prev, snap)
        for s in model.stages:
            if prev.state(s) == "inactive" and snap.state(s) == "active":
                state["activations"][local(s)] = state["activations"].get(local(s), 0) + 1
    state["steps"] += 1
    state["prev"] = snap.to_json()
    with open(state_path, "w") as f:
        json.dump(state, f)
    print("step %d: %s" % (state["steps"], compact(model, snap)))
    for p in problems:
        print("VIOLATION step %d: %s" % (state["steps"], p))
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "track":
        return cmd_track(argv[1], argv[2], "--invariants-only" in argv[3:])
    if len(argv) == 3 and argv[0] == "activations":
        print(_load(argv[1])["activations"].get(argv[2], 0))
        return 0
    if len(argv) >= 2 and argv[0] == "show":
        state = _load(argv[1])
        snap = Snapshot.from_json(state["prev"])
        model = read_model(snap.root_model)
        print(compact(model, snap, argv[2:], tasks=False))
        return 0
    if len(argv) == 3 and argv[0] in ("task", "fragment"):
        snap = Snapshot.from_json(_load(argv[1])["prev"])
        field = "task" if argv[0] == "task" else "frag"
        print(next((st[field] for s, st in snap.stages.items() if local(s) == argv[2]), None))
        return 0
    print(__doc__.split("CLI (the shell tests):")[1].split("A snapshot")[0], file=sys.stderr)
    return 2


def serve():
    for line in sys.stdin:
        args = line.rstrip("\n").split("\t")
        try:
            rc = main(args)
        except Exception as e:  # one bad request must not end the session the whole test relies on
            print("gsm_status.py %s: %s: %s" % (args[0], type(e).__name__, e))
            rc = 2
        print("\x1e%d" % rc, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(serve() if sys.argv[1:] == ["serve"] else main(sys.argv[1:]))
