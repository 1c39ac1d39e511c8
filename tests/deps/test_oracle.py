#!/usr/bin/env python3
"""Checks tests/deps/oracle.py against the facts stated in Singh (1997), "Formal Aspects of
Workflow Management Part 2: Distributed Scheduling".  Each test is named after the paper's item.

Where the paper as printed disagrees with its own definitions, the test asserts what the
definitions give and its docstring says so.  Run: python3 -m unittest tests/deps/test_oracle.py
"""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)

import oracle  # noqa: E402
from oracle import (alpha, counterexample, equivalent, guard, guard_from_paths, holds,  # noqa: E402
                    maximal_traces, parse, parse_literal, parse_trace, phi_fixpoint, psi,
                    residuate, satisfies, satisfies_all, symbols, to_text)

ORACLE = os.path.join(HERE, 'oracle.py')
D_LT = '~e | ~f | e.f'          # D_<, the paper's running example
D_TO = '~e | f'                 # D_->
D_6 = '~e | ~f.e'               # Figure 3, Figure 4, Example 10
D_7 = '~f | ~e'                 # Example 11


def lit(text):
    return parse_literal(text)


def lits(*texts):
    return [parse_literal(t) for t in texts]


def paths(*texts):
    return {parse_trace(t) for t in texts}


def workflow_guard(deps, event, inevitable=(), immediate=()):
    return guard([parse(d) for d in deps], lit(event), lits(*inevitable), lits(*immediate))


class Checks(unittest.TestCase):
    def assertEquiv(self, a, b):
        a, b = (parse(x) if isinstance(x, str) else x for x in (a, b))
        self.assertIsNone(counterexample(a, b), '%s vs %s' % (to_text(a), to_text(b)))

    def assertNotEquiv(self, a, b):
        self.assertFalse(equivalent(parse(a), parse(b)), '%s vs %s' % (a, b))

    def assertGuard(self, deps, event, expected, inevitable=(), immediate=()):
        """The guard equals `expected` by Definition 3 over their own symbols, and at index 0
        (where guards are evaluated) over every maximal trace of the workflow's alphabet."""
        g = workflow_guard(deps, event, inevitable, immediate)
        self.assertEquiv(g, expected)
        alphabet = set().union(*[symbols(parse(d)) for d in deps])
        self.assertIsNone(counterexample(g, parse(expected), True, alphabet))


class Parsing(Checks):
    def test_precedence_of_section_2_1(self):
        self.assertEqual(parse('[]e.f'), ('box', parse('(e.f)')))
        self.assertEqual(parse('<>e.f'), ('dia', parse('(e.f)')))
        self.assertEqual(parse('!e.f'), ('seq', ('not', parse('e')), parse('f')))
        self.assertEqual(parse('[]e & f'), ('and', parse('[]e'), parse('f')))
        self.assertEqual(parse('a | b & c'), ('or', parse('a'), parse('b & c')))
        self.assertEqual(parse('~ e . T'), ('seq', ('lit', 'e', False), ('T',)))

    def test_printing_parses_back(self):
        for text in ['[](e.f) & !f | <>~e', '(a | b).c', 'a.(b.c)', '!(a.b)', '([]a).b',
                     '[](a | b) & (c | d)', '!!e', '<>[]e', '0 | T']:
            expr = parse(text)
            self.assertEqual(parse(to_text(expr)), expr, text)

    def test_syntax_errors(self):
        for text in ['', 'e .', '~(e)', '~T', '![]e', 'e f', '(e', '1e', 'e$']:
            with self.assertRaises(oracle.SyntaxErr, msg=text):
                parse(text)


class Section2(Checks):
    U = parse_trace('e f g')

    def test_example_1a(self):
        self.assertTrue(holds(parse('<>g'), self.U, 0, 0))

    def test_example_1b(self):
        self.assertFalse(holds(parse('<>(g.f)'), self.U, 0, 0))

    def test_example_1c(self):
        self.assertTrue(holds(parse('[]e & !f & !g'), self.U, 0, 1))

    def test_example_1d(self):
        self.assertFalse(holds(parse('e.g'), self.U, 0, 1))

    def test_example_1e(self):
        self.assertTrue(holds(parse('e.g'), self.U, 0, 3))

    def test_semantics_5(self):
        """The halves of a sequence split at j are [i, j] and [j+1, k]; they never share an event,
        and the second may be empty (only T and negative forms hold there)."""
        u = parse_trace('e f')
        self.assertEqual([holds(parse('e.e'), u, 0, k) for k in range(3)], [False] * 3)
        self.assertEqual([holds(parse('e.!e'), u, 0, k) for k in range(3)], [False, True, True])
        self.assertEqual([holds(parse('e.T'), u, 0, k) for k in range(3)], [False, True, True])
        self.assertEqual([holds(parse('e.f'), u, 1, k) for k in range(1, 3)], [False, True])
        self.assertEqual([holds(parse('e.f'), u, 2, k) for k in range(2, 3)], [False])

    def test_observation_1(self):
        self.assertNotEquiv('T', 'e | ~e')
        self.assertEquiv('0', 'e & ~e')
        self.assertEquiv('T', '<>e | <>~e')

    def test_observation_1_and_example_2_larger_alphabet(self):
        """The paper says Example 2's results "hold" for larger alphabets.  By Definition 3
        (every i) T ~ <>e | <>~e fails once another event exists: on <e g> with i = k = 2
        the interval [2, n] no longer sees e.  At i = 0, where guards are used, it holds."""
        found = counterexample(parse('T'), parse('<>e | <>~e'), False, {'g'})
        self.assertEqual(found, (parse_trace('e g'), 2, 2))
        self.assertIsNone(counterexample(parse('T'), parse('<>e | <>~e'), True, {'g'}))

    def test_observation_3(self):
        self.assertEquiv('[]e', 'e')

    def test_observation_4(self):
        self.assertNotEquiv('[]!e', '!e')

    def test_observation_5(self):
        self.assertEquiv('<>(e.f) & []f', '[](e.f)')

    def test_observation_6(self):
        self.assertEquiv('<>(e.f) & !e', '<>(e.f) & !e & !f')

    def test_example_2_traces(self):
        self.assertEqual(list(maximal_traces({'e'})), [parse_trace('e'), parse_trace('~e')])
        for trace in maximal_traces({'e'}):
            self.assertTrue(holds(parse('!e & !~e'), trace, 0, 0))
        self.assertTrue(holds(parse('<>e'), parse_trace('e'), 0, 0))
        self.assertTrue(holds(parse('<>~e'), parse_trace('~e'), 0, 0))
        after_e = [holds(parse(x), parse_trace('e'), 0, 1) for x in ('[]e', '!e', '<>e', '!~e')]
        self.assertEqual(after_e, [True, False, True, True])

    def test_example_2_bullets(self):
        self.assertNotEquiv('[]e | []~e', 'T')
        self.assertEquiv('<>e | <>~e', 'T')
        self.assertEquiv('<>e & <>~e', '0')
        self.assertNotEquiv('<>e | []~e', 'T')
        self.assertEquiv('!e | []e', 'T')
        self.assertEquiv('!e & []e', '0')
        self.assertEquiv('!e | []~e', '!e')


class Guards(Checks):
    def test_example_3(self):
        self.assertGuard([D_LT], 'e', '!f')
        self.assertGuard([D_LT], '~e', 'T')
        self.assertGuard([D_LT], '~f', 'T')
        self.assertGuard([D_LT], 'f', '<>~e | []e')

    def test_example_3_needs_index_0_over_the_workflow_alphabet(self):
        """Example 3 writes G_b(D<, e) ~ !f.  That is Definition 3 over the guards' own symbols
        ({f}); over D<'s alphabet it holds only at i = 0: on <f e> with i = k = 2, !f holds
        but no disjunct of G_b(D<, e) can see the f at index 1."""
        g = workflow_guard([D_LT], 'e')
        self.assertEqual(counterexample(g, parse('!f'), False, {'e', 'f'}),
                         (parse_trace('f e'), 2, 2))

    def test_example_6(self):
        self.assertGuard([D_LT, D_TO], 'e', '<>f & !f')
        self.assertGuard([D_LT, D_TO], 'f', '[]e | <>~e')

    def test_theorem_18(self):
        """G_b(D, e) by Definition 11 over the paths of D extended with e's symbol (enough by
        Lemma 33) is <>D.  Checked at i = 0: for D = f | ~g Definition 3's every-i version
        fails (trace <f ~g>, i = k = 2), as events before i are invisible to the guard."""
        event = lit('e')
        for text in ['f.g', 'f | ~g', 'f.g | ~h', '(f | g).h', 'f & ~g']:
            dep = parse(text)
            extended = [t for t in maximal_traces(symbols(dep) | {'e'}) if satisfies(t, dep)]
            self.assertIsNone(counterexample(guard_from_paths(extended, event), ('dia', dep), True),
                              text)
            self.assertEqual(guard([dep], event), ('dia', dep))
        dep = parse('f | ~g')
        extended = [t for t in maximal_traces({'e', 'f', 'g'}) if satisfies(t, dep)]
        self.assertEqual(counterexample(guard_from_paths(extended, event), ('dia', dep)),
                         (parse_trace('f ~g'), 2, 2))

    def test_lemma_17(self):
        """Paths over a larger alphabet (Pi(D)) give the same guard as Psi(D), at i = 0."""
        dep = parse('e.f | ~e')
        extended = [t for t in maximal_traces({'e', 'f', 'g'}) if satisfies(t, dep)]
        for event in lits('e', '~e', 'f', '~f'):
            self.assertIsNone(counterexample(guard_from_paths(extended, event), guard([dep], event),
                                             True, {'e', 'f', 'g'}), event)

    def test_theorem_11(self):
        """Guards generate u (Observation 10) iff u satisfies every dependency."""
        for texts in [[D_LT, D_TO], [D_6], ['e.f.g | ~e', 'f | g'], ['(e | f).g', D_TO, D_7]]:
            deps = [parse(t) for t in texts]
            for u in maximal_traces(set().union(*map(symbols, deps))):
                generated = all(holds(guard(deps, u[j - 1]), u, 0, j - 1)
                                for j in range(1, len(u) + 1))
                self.assertEqual(generated, satisfies_all(u, deps), (texts, u))

    def test_lemma_16(self):
        """D and the disjunction of Psi(D) have the same denotation (maximal traces)."""
        for text in [D_LT, D_6, 'e.f.g | ~e & f', '(e | f).g']:
            dep = parse(text)
            union = oracle.paths_expression(psi(dep))
            for u in maximal_traces(symbols(dep) | {'z'}):
                self.assertEqual(satisfies(u, dep), satisfies(u, union), (text, u))

    def test_example_11(self):
        """The paper writes G_b(D<, e) & G_b(D7, e) = <>f & <>~f; the <>f shows D-> is meant
        (with D< the conjunction is !f & <>~f, which is not 0).  Likewise "if e is inevitable,
        then D6 and D7 are jointly unenforceable" holds for D-> and D7 but not for D6 and D7:
        alpha(D6 & D7) keeps ~f e."""
        self.assertGuard([D_TO, D_7], 'e', '<>f & <>~f')
        self.assertGuard([D_TO, D_7], 'e', '0')
        self.assertGuard([D_LT, D_7], 'e', '!f & <>~f')
        self.assertNotEquiv('!f & <>~f', '0')
        both = parse('(%s) & (%s)' % (D_TO, D_7))
        self.assertNotEqual(alpha(both), [])
        self.assertEqual(alpha(both, lits('e')), [])
        self.assertIn(parse_trace('~f e'), alpha(parse('(%s) & (%s)' % (D_6, D_7)), lits('e')))


class Attributes(Checks):
    def test_figure_2(self):
        self.assertEqual(set(psi(parse(D_LT))) - set(alpha(parse(D_LT), lits('e'))), paths('f ~e'))
        self.assertGuard([D_LT], 'f', '[]e | []~e', inevitable=['e'])
        self.assertGuard([D_LT], 'e', '!f', inevitable=['e'])

    def test_example_7(self):
        self.assertEqual(alpha(parse(D_LT), immediate=lits('e')), alpha(parse(D_LT), lits('e')))

    def test_example_14(self):
        """The printed disjunction is garbled; the stated fact is that alpha(~e | f) with e
        inevitable is slightly stronger than ~e | f: it loses exactly the path ~f ~e."""
        dep = parse(D_TO)
        self.assertEqual(set(psi(dep)) - set(alpha(dep, lits('e'))), paths('~f ~e'))
        self.assertLess(set(alpha(dep, lits('e'))), set(psi(dep)))

    def test_figure_3_example_8(self):
        dep = parse(D_6)
        self.assertEqual(alpha(dep, immediate=lits('e')), [])
        kept = alpha(dep, lits('e'))
        self.assertEqual(set(kept), paths('~e f', '~e ~f', '~f e', '~f ~e'))
        for event in ('e', '~e', 'f', '~f'):
            g = guard([dep], lit(event), lits('e'))
            self.assertFalse(equivalent(g, parse('0')), event)

    def test_example_9(self):
        dep = parse(D_LT)
        self.assertNotEqual(alpha(dep, inevitable=lits('f'), immediate=lits('e')), [])
        self.assertEqual(alpha(dep, inevitable=lits('e'), immediate=lits('f')), [])

    def test_example_10(self):
        """The paper calls D6 = ~e | ~f.e unenforceable with e and f inevitable "because there
        is no path on which they both occur".  Definition 21 only asks that e or ~e (f or ~f)
        stay reachable, so Phi(D6) keeps ~e f, ~e ~f, ~f e and ~f ~e; only f ~e goes."""
        dep = parse(D_6)
        kept = alpha(dep, lits('e', 'f'))
        self.assertEqual(set(kept), paths('~e f', '~e ~f', '~f e', '~f ~e'))
        self.assertEqual(kept, phi_fixpoint(dep, lits('e', 'f')))

    def test_example_18(self):
        dep = parse('b2.b1 | ~b1 | ~b2 | e1.b2')
        self.assertEqual(alpha(dep, immediate=lits('e1', 'e2')), psi(dep))

    def test_definition_22_iterations(self):
        """Example 9's unenforceable case needs the second iteration: sigma^1 only drops f ~e."""
        series = oracle.sigma_series(parse(D_LT), lits('e'), lits('f'))
        self.assertEqual(len(series[1]), len(series[0]) - 1)
        self.assertEqual(series[2], [])

    def test_complement_attributes(self):
        """Attributes name literals: ~c immediate asks for ~c to stay possible, not c."""
        dep = parse('c.d')
        self.assertEqual(alpha(dep, immediate=lits('~c')), [])
        self.assertNotEqual(alpha(dep, immediate=lits('c')), [])


class Table1(Checks):
    def row(self, guard_text, message_text, expected):
        result = residuate(parse(guard_text), parse(message_text))
        self.assertEqual(result, parse(expected), '%s / %s' % (guard_text, message_text))
        self.assertLemma12(guard_text, message_text)

    def assertLemma12(self, guard_text, message_text):
        g, m = parse(guard_text), parse(message_text)
        reduced = residuate(g, m)
        for u in maximal_traces(symbols(g) | symbols(m) | {'z'}):
            for j in range(len(u) + 1):
                if holds(reduced, u, 0, j) and any(holds(m, u, 0, k) for k in range(j + 1)):
                    self.assertTrue(holds(g, u, 0, j), (guard_text, message_text, u, j))

    def test_row_or(self):
        self.row('[]e | <>f', '[]e', 'T | <>f')

    def test_row_and(self):
        self.row('!e & <>~e', '[]e', '0 & 0')

    def test_row_box_e(self):
        self.row('[]e', '[]e', 'T')
        self.row('[]~e', '[]~e', 'T')

    def test_row_box_complement(self):
        self.row('[]~e', '[]e', '0')
        self.row('[]~e', '<>e', '0')
        self.row('[]e', '<>~e', '0')

    def test_row_diamond_e(self):
        self.row('<>e', '[]e', 'T')
        self.row('<>e', '<>e', 'T')

    def test_row_diamond_complement(self):
        self.row('<>~e', '[]e', '0')
        self.row('<>~e', '<>e', '0')

    def test_row_box_sequence_same(self):
        self.row('[](e.f)', '[](e.f)', 'T')

    def test_row_box_sequence_reversed(self):
        self.row('[](e.f)', '[](f.e)', '0')

    def test_row_box_sequence_complement(self):
        for message in ('[]~e', '<>~e', '[]~f', '<>~f'):
            self.row('[](e.f)', message, '0')

    def test_row_diamond_sequence_same(self):
        self.row('<>(e.f)', '[](e.f)', 'T')
        self.row('<>(e.f)', '<>(e.f)', 'T')

    def test_row_diamond_sequence_reversed(self):
        self.row('<>(e.f)', '[](f.e)', '0')
        self.row('<>(e.f)', '<>(f.e)', '0')

    def test_row_diamond_sequence_complement(self):
        for message in ('[]~e', '<>~e', '[]~f', '<>~f'):
            self.row('<>(e.f)', message, '0')

    def test_row_not_e(self):
        self.row('!e', '[]e', '0')

    def test_row_not_complement(self):
        self.row('!~e', '[]e', 'T')
        self.row('!~e', '<>e', 'T')

    def test_row_otherwise(self):
        for guard_text, message_text in [('[]e', '<>e'), ('!e', '<>e'), ('[](e.f)', '<>(e.f)'),
                                         ('[](e.f)', '[]e'), ('<>(e.f)', '<>f'), ('!e', '[]f'),
                                         ('e', '[]e'), ('<>(e | f)', '<>e'), ('[]e', '[]f')]:
            self.row(guard_text, message_text, guard_text)

    def test_longer_sequences_are_split_first(self):
        self.row('[](a.b.c)', '[](b.c)', '[](a.b) & T')
        self.row('<>(a.b.c)', '<>~c', '<>(a.b) & 0')
        self.row('!a & [](a.b.c)', '[]z', '!a & ([](a.b) & [](b.c))')
        self.assertEquiv('[](a.b.c)', '[](a.b) & [](b.c)')
        self.assertEquiv('<>(a.b.c)', '<>(a.b) & <>(b.c)')

    def test_messages_are_table_forms(self):
        for message in ('e', '!e', '[](a.b.c)', '<>(e | f)'):
            with self.assertRaises(oracle.SyntaxErr, msg=message):
                residuate(parse('[]e'), parse(message))


class Cli(unittest.TestCase):
    def run_oracle(self, *args):
        return subprocess.run([sys.executable, ORACLE] + list(args), capture_output=True,
                              text=True, timeout=30)

    def workflow_file(self, text):
        handle = tempfile.NamedTemporaryFile('w', suffix='.deps', delete=False)
        handle.write(text)
        handle.close()
        self.addCleanup(os.unlink, handle.name)
        return handle.name

    def test_eval(self):
        result = self.run_oracle('eval', 'e.g', 'e f g')
        self.assertEqual((result.returncode, result.stdout), (0, '0 0\n1 0\n2 0\n3 1\n'))

    def test_equiv(self):
        self.assertEqual(self.run_oracle('equiv', '[]e', 'e').stdout, 'equivalent\n')
        self.assertEqual(self.run_oracle('equiv', '[]!e', '!e').stdout,
                         'not equivalent: trace e, i=0, k=0\n')
        self.assertEqual(self.run_oracle('equiv', 'T', '<>e | <>~e | []g').stdout,
                         'not equivalent: trace e ~g, i=2, k=2\n')

    def test_guard_and_guard_matches(self):
        path = self.workflow_file('# Example 6\nd_lt: ~e | ~f | e.f\nd_to: ~e | f\n')
        lines = self.run_oracle('guard', path, 'f').stdout.splitlines()
        self.assertEqual(len(lines), 8)
        self.assertEqual(lines[0], 'e f: 011')          # []e | <>~e on <e f>
        self.assertEqual(lines[4], 'f e: 001')
        self.assertTrue(oracle.guard_matches(path, 'e', '<>f & !f'))
        self.assertFalse(oracle.guard_matches(path, 'e', '!f'))

    def test_alpha_and_attribute_lines(self):
        path = self.workflow_file('d6: ~e | ~f.e\nimmediate e  # Figure 3\n')
        self.assertEqual(self.run_oracle('alpha', path, 'd6').stdout, 'unenforceable\n')
        path = self.workflow_file('dto: ~e | f\ninevitable e\ntriggerable f\n')
        self.assertEqual(self.run_oracle('alpha', path, 'dto').stdout,
                         'e f\n~e f\n~e ~f\nf e\nf ~e\n')

    def test_residuate(self):
        self.assertEqual(self.run_oracle('residuate', '[](e.f) & !~e', '<>e').stdout,
                         '[]e.f & T\n')
        self.assertEqual(self.run_oracle('residuate', '--simplify', '[](e.f) & !~e', '<>e').stdout,
                         '[]e.f\n')

    def test_syntax_error_exits_2(self):
        for args in (('eval', 'e..f', 'e f'), ('eval', 'e', 'e e'), ('residuate', '[]e', 'e'),
                     ('alpha', self.workflow_file('d: [](e)\n'), 'd'),
                     ('alpha', self.workflow_file('d e: e\n'), 'd')):
            result = self.run_oracle(*args)
            self.assertEqual(result.returncode, 2, args)
            self.assertTrue(result.stderr.startswith('oracle.py: '), args)


if __name__ == '__main__':
    unittest.main()
