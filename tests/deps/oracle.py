#!/usr/bin/env python3
"""Reference implementation (test oracle) of the temporal algebra of Singh (1997),
"Formal Aspects of Workflow Management Part 2: Distributed Scheduling".

Everything here follows the paper's definitions by brute-force enumeration, so that the
C implementation in src/deps/ can be checked against it; nothing is optimised on purpose.

Expressions are nested tuples:
  ('lit', name, positive)   an event literal; positive=False is the complement ~name
  ('T',) ('0',)             top and zero
  ('seq', a, b) ('and', a, b) ('or', a, b)
  ('box', a) ('dia', a) ('not', a)
A literal as a plain value is (name, positive); a trace or path is a tuple of literals.

Trace order (used by `guard`, `alpha` and `psi` output): the symbols are sorted by Python
string order; the orders of symbols come in itertools.permutations order over that sorted
list; for each order the polarities come in itertools.product((True, False), ...) order,
i.e. all positive first and the first position of the trace varying slowest.

CLI (results one per line, exit 0; exit 2 and a message on stderr for bad input):
  oracle.py eval 'EXPR' 'TRACE'         `k 0|1` for k = 0..n  (u |=_k EXPR)
  oracle.py equiv [--from-0] 'E1' 'E2'  `equivalent` or `not equivalent: trace ..., i=.., k=..`
  oracle.py guard FILE LIT              `TRACE: BITS`, BITS = truth of u |=_k G_b(W, LIT), k = 0..n
  oracle.py alpha FILE NAME             the paths of alpha(NAME), or `unenforceable`
  oracle.py psi FILE NAME               the paths of Psi(NAME)
  oracle.py residuate [--simplify] 'GUARD' 'MSG'
"""

import collections
import itertools
import re
import sys

TOP = ('T',)
ZERO = ('0',)


class SyntaxErr(ValueError):
    pass


# ---------------------------------------------------------------- parsing

_TOKEN = re.compile(r'\s*(?:(\[\])|(<>)|([A-Za-z_][A-Za-z0-9_]*)|(0)(?![0-9A-Za-z_])|([!~.&|()]))')


def _tokenize(text):
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise SyntaxErr('unexpected character at %d: %r' % (pos, text[pos:pos + 10]))
        tokens.append(next(g for g in m.groups() if g is not None))
        pos = m.end()
    return tokens


class _Parser:
    """Precedence, tightest first: ! ~ ; . ; [] <> ; & ; |.  Binary operators are
    left-associative.  The operand of ! is a unary term, so `![]e` must be written `!([]e)`."""

    def __init__(self, text):
        self.toks = _tokenize(text)
        self.pos = 0

    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise SyntaxErr('expected %s, found %s' % (want or 'a term', tok or 'end of input'))
        self.pos += 1
        return tok

    def parse(self):
        expr = self.disjunction()
        if self.peek() is not None:
            raise SyntaxErr('unexpected %r' % self.peek())
        return expr

    def disjunction(self):
        expr = self.conjunction()
        while self.peek() == '|':
            self.take()
            expr = ('or', expr, self.conjunction())
        return expr

    def conjunction(self):
        expr = self.modal()
        while self.peek() == '&':
            self.take()
            expr = ('and', expr, self.modal())
        return expr

    def modal(self):
        tok = self.peek()
        if tok == '[]':
            self.take()
            return ('box', self.modal())
        if tok == '<>':
            self.take()
            return ('dia', self.modal())
        return self.sequence()

    def sequence(self):
        expr = self.unary()
        while self.peek() == '.':
            self.take()
            expr = ('seq', expr, self.unary())
        return expr

    def unary(self):
        tok = self.take()
        if tok == '!':
            return ('not', self.unary())
        if tok == '~':
            name = self.take()
            if not _is_name(name):
                raise SyntaxErr('~ applies to an event name, found %r' % name)
            return ('lit', name, False)
        if tok == '(':
            expr = self.disjunction()
            self.take(')')
            return expr
        if tok == '0':
            return ZERO
        if tok == 'T':
            return TOP
        if _is_name(tok):
            return ('lit', tok, True)
        raise SyntaxErr('unexpected %r' % tok)


def _is_name(tok):
    return tok is not None and tok != 'T' and re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', tok) is not None


def parse(text):
    return _Parser(text).parse()


def parse_literal(text):
    expr = parse(text)
    if expr[0] != 'lit':
        raise SyntaxErr('not a literal: %r' % text)
    return (expr[1], expr[2])


def parse_trace(text):
    trace = tuple(parse_literal(word) for word in text.split())
    names = [name for name, _ in trace]
    if len(set(names)) != len(names):
        raise SyntaxErr('an event occurs twice in trace %r' % text)
    return trace


# ---------------------------------------------------------------- printing

_LEVEL = {'or': 1, 'and': 2, 'box': 3, 'dia': 3, 'seq': 4, 'not': 5, 'lit': 5, 'T': 5, '0': 5}


def lit_str(lit):
    return lit[0] if lit[1] else '~' + lit[0]


def trace_str(trace):
    return ' '.join(lit_str(l) for l in trace) if trace else '(empty)'


def to_text(expr, level=0):
    """Prints with the fewest parentheses that parse back to the same tree."""
    kind = expr[0]
    if kind == 'lit':
        text = lit_str((expr[1], expr[2]))
    elif kind in ('T', '0'):
        text = kind
    elif kind == 'not':
        text = '!' + to_text(expr[1], 5)
    elif kind in ('box', 'dia'):
        text = ('[]' if kind == 'box' else '<>') + to_text(expr[1], 3)
    else:
        op = {'or': ' | ', 'and': ' & ', 'seq': '.'}[kind]
        own = _LEVEL[kind]
        text = to_text(expr[1], own) + op + to_text(expr[2], own + 1)
    return '(' + text + ')' if _LEVEL[kind] < level else text


# ---------------------------------------------------------------- basics

def complement(lit):
    return (lit[0], not lit[1])


def symbols(expr):
    if expr[0] == 'lit':
        return {expr[1]}
    return set().union(*[symbols(sub) for sub in expr[1:] if isinstance(sub, tuple)])


def is_dependency(expr):
    """A dependency of the language E: no box, diamond or not."""
    if expr[0] in ('box', 'dia', 'not'):
        return False
    return all(is_dependency(sub) for sub in expr[1:] if isinstance(sub, tuple))


def maximal_traces(syms):
    """Every maximal trace over syms, in the documented trace order."""
    for order in itertools.permutations(sorted(syms)):
        for signs in itertools.product((True, False), repeat=len(order)):
            yield tuple(zip(order, signs))


def sequence_of(lits):
    """e1 . e2 . ... . en, left-associated; T for no literals."""
    expr = None
    for lit in lits:
        node = ('lit', lit[0], lit[1])
        expr = node if expr is None else ('seq', expr, node)
    return TOP if expr is None else expr


def _fold(kind, exprs, empty):
    expr = None
    for sub in exprs:
        expr = sub if expr is None else (kind, expr, sub)
    return empty if expr is None else expr


def disjunction_of(exprs):
    return _fold('or', exprs, ZERO)


def conjunction_of(exprs):
    return _fold('and', exprs, TOP)


# ---------------------------------------------------------------- semantics 1-9

def holds(expr, trace, i, k):
    """u |=_{i,k} E, Semantics 2-9 read literally.  Indexes past n = len(trace) count as n;
    an interval with i > k (the second half of a sequence split at j = k) contains no event."""
    n = len(trace)
    k = min(k, n)
    kind = expr[0]
    if kind == 'lit':
        # some j in i..k, j >= 1, has trace[j - 1] == the literal: a slice test, as the checks ask millions
        return (expr[1], expr[2]) in trace[max(i, 1) - 1:k]
    if kind == 'T':
        return True
    if kind == '0':
        return False
    if kind == 'or':
        return holds(expr[1], trace, i, k) or holds(expr[2], trace, i, k)
    if kind == 'and':
        return holds(expr[1], trace, i, k) and holds(expr[2], trace, i, k)
    if kind == 'seq':
        return any(holds(expr[1], trace, i, j) and holds(expr[2], trace, j + 1, k)
                   for j in range(i, k + 1))
    if kind == 'not':
        return not holds(expr[1], trace, i, k)
    if kind == 'box':
        return all(holds(expr[1], trace, i, j) for j in range(k, n + 1))
    if kind == 'dia':
        return any(holds(expr[1], trace, i, j) for j in range(k, n + 1))
    raise ValueError('not an expression: %r' % (expr,))


def satisfies(trace, dep):
    """u |= D for a dependency: u |=_{0,n} D."""
    return holds(dep, trace, 0, len(trace))


def satisfies_all(trace, deps):
    return all(satisfies(trace, dep) for dep in deps)


# ---------------------------------------------------------------- equivalence (Definition 3)

def counterexample(a, b, from_zero_only=False, extra_symbols=()):
    """First (trace, i, k) on which a and b differ, over maximal traces of the union of their
    symbols; None when they agree everywhere.  Definition 3 quantifies every 0 <= i <= k <= n;
    from_zero_only restricts to i = 0, the index at which guards are evaluated
    (Semantics 1, Definition 13)."""
    syms = symbols(a) | symbols(b) | set(extra_symbols)
    for trace in maximal_traces(syms):
        n = len(trace)
        for i in ([0] if from_zero_only else range(n + 1)):
            for k in range(i, n + 1):
                if holds(a, trace, i, k) != holds(b, trace, i, k):
                    return trace, i, k
    return None


def equivalent(a, b, from_zero_only=False):
    return counterexample(a, b, from_zero_only) is None


# ---------------------------------------------------------------- paths and guards

def psi(dep):
    """Psi(D) (Definition 17, Lemma 7): the maximal traces over D's symbols satisfying D."""
    return [trace for trace in maximal_traces(symbols(dep)) if satisfies(trace, dep)]


def path_guard(path, lit):
    """G_b(w, e) = pre(w, e) & post(w, e) (Definitions 9-11); None when e is not on w."""
    if lit not in path:
        return None
    at = path.index(lit)
    before, after = path[:at], path[at + 1:]
    pre = ('box', sequence_of(before)) if before else TOP
    if not after:
        return ('and', pre, TOP)
    nots = conjunction_of([('not', ('lit', l[0], l[1])) for l in after])
    post = ('and', nots, ('dia', sequence_of(after)))
    return ('and', pre, post)


def guard_from_paths(paths, lit):
    """OR over the paths that contain lit of G_b(w, lit); 0 when none does."""
    return disjunction_of([g for g in (path_guard(w, lit) for w in paths) if g is not None])


def paths_expression(paths):
    """The disjunction of the paths as sequences (Lemma 16, Definition 23)."""
    return disjunction_of([sequence_of(w) for w in paths])


def dependency_guard(dep, lit, inevitable=(), immediate=()):
    """G_b(D, e): Lemma 17 when e's symbol is in D, Theorem 18 (<>D) otherwise.  With event
    attributes the paths are Phi(D) (the guards of alpha(D), as in Figure 2 and Example 15)."""
    paths = alpha(dep, inevitable, immediate)
    if lit[0] in symbols(dep):
        return guard_from_paths(paths, lit)
    if paths == psi(dep):
        return ('dia', dep)
    return ('dia', paths_expression(paths))


def guard(deps, lit, inevitable=(), immediate=()):
    """G_b(W, e) = AND over D in W of G_b(D, e) (Definition 11)."""
    return conjunction_of([dependency_guard(d, lit, inevitable, immediate) for d in deps])


# ---------------------------------------------------------------- event attributes (4.3)

def _beta(path, starting_with, inevitable, immediate, syms):
    """beta(w, P) of Definition 21, checked for every split w = w1 w2; starting_with maps each prefix w1
    to the paths of P that start with it."""
    for cut in range(len(path) + 1):
        w1 = path[:cut]
        starting = starting_with[w1]
        for e in inevitable:
            if e[0] in syms and e not in w1 and complement(e) not in w1:
                if not any(e in p[cut:] for p in starting):
                    return False
        for e in immediate:
            if e[0] in syms and e not in w1 and complement(e) not in w1:
                if not any(len(p) > cut and p[cut] == e for p in starting):
                    return False
    return True


def sigma_step(pool, inevitable, immediate, syms):
    # the paths by prefix, once per step: scanning the pool at every split of every path was quadratic
    starting_with = collections.defaultdict(list)
    for p in pool:
        for cut in range(len(p) + 1):
            starting_with[p[:cut]].append(p)
    return [w for w in pool if _beta(w, starting_with, inevitable, immediate, syms)]


def sigma_series(dep, inevitable=(), immediate=()):
    """sigma^0(D), sigma^1(D), ... up to and including the first repeated set."""
    syms = symbols(dep)
    series = [psi(dep)]
    while True:
        nxt = sigma_step(series[-1], inevitable, immediate, syms)
        series.append(nxt)
        if nxt == series[-2]:
            return series


def phi(dep, inevitable=(), immediate=()):
    """Phi(D) = sigma^ceil(|Gamma_D|/2)(D) (Definition 22); Gamma_D holds both literals of
    each symbol, so that is one iteration per symbol of D."""
    syms = symbols(dep)
    pool = psi(dep)
    for _ in range(len(syms)):
        pool = sigma_step(pool, inevitable, immediate, syms)
    return pool


def phi_fixpoint(dep, inevitable=(), immediate=()):
    return sigma_series(dep, inevitable, immediate)[-1]


def alpha(dep, inevitable=(), immediate=()):
    """alpha(D) as its set of paths Phi(D) (Definition 23); empty means unenforceable."""
    return phi(dep, inevitable, immediate)


# ---------------------------------------------------------------- residuation (Table 1)

def _literal_chain(expr):
    """The literals of a sequence made only of literals (any association), else None."""
    if expr[0] == 'lit':
        return [(expr[1], expr[2])]
    if expr[0] == 'seq':
        left, right = _literal_chain(expr[1]), _literal_chain(expr[2])
        if left is not None and right is not None:
            return left + right
    return None


def normalise_chains(expr):
    """Normalisation, not a Table 1 row: the table (relying on two-sequence form) only knows
    [](e1.e2) and <>(e1.e2), so [](a.b.c) becomes [](a.b) & [](b.c), and likewise for <>.
    Each event occurs once on a trace, so this is an equivalence."""
    kind = expr[0]
    if kind in ('box', 'dia'):
        chain = _literal_chain(expr[1])
        if chain is not None and len(chain) > 2:
            return conjunction_of([(kind, sequence_of(chain[x:x + 2]))
                                   for x in range(len(chain) - 1)])
        return (kind, normalise_chains(expr[1]))
    if kind in ('or', 'and', 'seq'):
        return (kind, normalise_chains(expr[1]), normalise_chains(expr[2]))
    if kind == 'not':
        return ('not', normalise_chains(expr[1]))
    return expr


def _message(msg):
    """(kind, literals) of a message []e, <>e, [](e1.e2) or <>(e1.e2)."""
    if msg[0] in ('box', 'dia'):
        chain = _literal_chain(msg[1])
        if chain is not None and len(chain) <= 2:
            return msg[0], chain
    raise SyntaxErr('a message is []e, <>e, [](e1.e2) or <>(e1.e2), not %s' % to_text(msg))


def _table_row(g, m_kind, m_lits):
    """One guard node against the message; exactly the rows of Table 1."""
    single = m_lits[0] if len(m_lits) == 1 else None
    if g[0] in ('box', 'dia'):
        chain = _literal_chain(g[1])
        if chain is not None and len(chain) == 1:
            x = chain[0]
            if single is not None:
                if g[0] == 'box' and m_kind == 'box' and x == single:
                    return TOP                       # []e / []e
                if x == complement(single):
                    return ZERO                      # []~e, <>~e / []e or <>e
                if g[0] == 'dia' and x == single:
                    return TOP                       # <>e / []e or <>e
        elif chain is not None and len(chain) == 2:
            pair_msg = len(m_lits) == 2 and (g[0] == 'dia' or m_kind == 'box')
            if pair_msg and m_lits == chain:
                return TOP                           # [](e1.e2) / [](e1.e2); <>(e1.e2) / both
            if pair_msg and m_lits == chain[::-1]:
                return ZERO                          # reversed order
            if single is not None and complement(single) in chain:
                return ZERO                          # /  []~ei or <>~ei
    if g[0] == 'not' and g[1][0] == 'lit' and single is not None:
        x = (g[1][1], g[1][2])
        if m_kind == 'box' and x == single:
            return ZERO                              # !e / []e
        if x == complement(single):
            return TOP                               # !~e / []e or <>e
    return g


def _residuate(g, m_kind, m_lits):
    if g[0] in ('or', 'and'):
        return (g[0], _residuate(g[1], m_kind, m_lits), _residuate(g[2], m_kind, m_lits))
    return _table_row(g, m_kind, m_lits)


def residuate(guard_expr, msg):
    """G / M by Table 1, on the syntax tree of the normalised guard; no simplification."""
    m_kind, m_lits = _message(msg)
    return _residuate(normalise_chains(guard_expr), m_kind, m_lits)


def simplify_constants(expr):
    """Only T/0 absorption in & and |, for readable residuation output."""
    kind = expr[0]
    if kind in ('and', 'or'):
        a, b = simplify_constants(expr[1]), simplify_constants(expr[2])
        unit, zero = (TOP, ZERO) if kind == 'and' else (ZERO, TOP)
        if zero in (a, b):
            return zero
        if a == unit:
            return b
        if b == unit:
            return a
        return (kind, a, b)
    return expr


# ---------------------------------------------------------------- dependency files

ATTRIBUTES = ('inevitable', 'immediate', 'triggerable')


class Workflow:
    def __init__(self):
        self.deps = {}                       # name -> expression, in file order
        self.attrs = {a: set() for a in ATTRIBUTES}

    @property
    def inevitable(self):
        return self.attrs['inevitable']

    @property
    def immediate(self):
        return self.attrs['immediate']


def parse_workflow(text):
    wf = Workflow()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split('#', 1)[0].strip()
        if not line:
            continue
        try:
            words = line.split()
            if words[0] in ATTRIBUTES and ':' not in line:
                wf.attrs[words[0]].update(parse_literal(w) for w in words[1:])
                continue
            name, sep, body = line.partition(':')
            name = name.strip()
            if not sep or not name or re.search(r'\s', name):
                raise SyntaxErr('expected NAME: EXPR or an attribute line')
            dep = parse(body)
            if not is_dependency(dep):
                raise SyntaxErr('a dependency has no [] <> or !')
            if name in wf.deps:
                raise SyntaxErr('dependency %s defined twice' % name)
            wf.deps[name] = dep
        except SyntaxErr as err:
            raise SyntaxErr('line %d: %s' % (number, err)) from None
    return wf


def load_workflow(path):
    with open(path, encoding='utf-8') as handle:
        return parse_workflow(handle.read())


def workflow_guard(wf, lit):
    return guard(list(wf.deps.values()), lit, wf.inevitable, wf.immediate)


def workflow_symbols(wf):
    return set().union(*[symbols(d) for d in wf.deps.values()])


def guard_signature(wf, lit):
    """(trace, bits) for every maximal trace over W's symbols; bit k is u |=_k G_b(W, lit)."""
    g = workflow_guard(wf, lit)
    return [(trace, ''.join('1' if holds(g, trace, 0, k) else '0' for k in range(len(trace) + 1)))
            for trace in maximal_traces(workflow_symbols(wf))]


def guard_matches(path, lit, expr, from_zero_only=True):
    """Is expr equivalent to G_b(W, lit) for the workflow in file `path`?  By default only at
    i = 0 (guards are evaluated with u |=_k); from_zero_only=False asks for Definition 3."""
    wf = load_workflow(path)
    lit = parse_literal(lit) if isinstance(lit, str) else lit
    expr = parse(expr) if isinstance(expr, str) else expr
    g = workflow_guard(wf, lit)
    return counterexample(g, expr, from_zero_only, workflow_symbols(wf) | {lit[0]}) is None


# ---------------------------------------------------------------- CLI

def _dependency(wf, name):
    if name not in wf.deps:
        raise SyntaxErr('no dependency named %s' % name)
    return wf.deps[name]


def main(argv):
    args = argv[1:]
    if not args:
        raise SyntaxErr('usage: oracle.py eval|equiv|guard|alpha|psi|residuate ...')
    command, rest = args[0], args[1:]
    flags = {a for a in rest if a.startswith('--')}
    rest = [a for a in rest if not a.startswith('--')]
    known = {'equiv': {'--from-0'}, 'residuate': {'--simplify'}}.get(command, set())
    if flags - known:
        raise SyntaxErr('unknown option %s' % ' '.join(sorted(flags - known)))
    expected = {'eval': 2, 'equiv': 2, 'guard': 2, 'alpha': 2, 'psi': 2, 'residuate': 2}
    if command not in expected or len(rest) != expected[command]:
        raise SyntaxErr('usage: oracle.py eval|equiv|guard|alpha|psi|residuate with two arguments')
    out = []
    if command == 'eval':
        expr, trace = parse(rest[0]), parse_trace(rest[1])
        out = ['%d %d' % (k, holds(expr, trace, 0, k)) for k in range(len(trace) + 1)]
    elif command == 'equiv':
        found = counterexample(parse(rest[0]), parse(rest[1]), '--from-0' in flags)
        out = ['equivalent' if found is None else 'not equivalent: trace %s, i=%d, k=%d'
               % (trace_str(found[0]), found[1], found[2])]
    elif command == 'guard':
        wf = load_workflow(rest[0])
        out = ['%s: %s' % (trace_str(t), bits) for t, bits in guard_signature(wf, parse_literal(rest[1]))]
    elif command in ('alpha', 'psi'):
        wf = load_workflow(rest[0])
        dep = _dependency(wf, rest[1])
        if command == 'psi':
            out = [trace_str(w) for w in psi(dep)]
        else:
            paths = alpha(dep, wf.inevitable, wf.immediate)
            out = [trace_str(w) for w in paths] or ['unenforceable']
            if paths != phi_fixpoint(dep, wf.inevitable, wf.immediate):
                sys.stderr.write('note: the sigma fixpoint is smaller than Phi(%s)\n' % rest[1])
    elif command == 'residuate':
        result = residuate(parse(rest[0]), parse(rest[1]))
        out = [to_text(simplify_constants(result) if '--simplify' in flags else result)]
    sys.stdout.write(''.join(line + '\n' for line in out))
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv))
    except (SyntaxErr, OSError) as err:
        sys.stderr.write('oracle.py: %s\n' % err)
        sys.exit(2)
