/* builtins_harness.c: what the test_builtins*.c tests share: a builtin evaluated as the engine calls it
 * (each position a ground term or 0) with its solutions collected, the terms the tests write, the
 * assertions they make on solutions, and a fixture of one term table per test.
 *
 * Included directly by each test (CMake makes a test of every tests/unit/test_*.c only), after cmocka.
 * A test naming builtins by their local names defines BUILTIN_NAMESPACE before including it; one naming
 * them by full IRI leaves it undefined. The functions are external, as agent_test_harness.c's are, so a
 * test need not use all of them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rdf/term.h"
#include "reason/builtins.h"

#ifndef BUILTIN_NAMESPACE
#define BUILTIN_NAMESPACE ""
#endif

#define MAX_SOLUTIONS 16

typedef struct solutions {
    size_t n, stop_after; /* stop_after 0: take every solution */
    term_id subject[MAX_SOLUTIONS], object[MAX_SOLUTIONS];
} solutions;

/* The builtin_emit of every evaluation here: records the solution; false (stop) after stop_after. */
bool collect(void *user, term_id subject, term_id object) {
    solutions *sol = user;
    assert_true(sol->n < MAX_SOLUTIONS);
    sol->subject[sol->n] = subject;
    sol->object[sol->n] = object;
    sol->n++;
    return sol->stop_after == 0 || sol->n < sol->stop_after;
}

/* The solutions of builtin BUILTIN_NAMESPACE name, the enumeration stopped after stop_after (0: all). */
solutions run_stopping(terms *t, const char *name, term_id subject, term_id object, size_t stop_after) {
    char iri[256];
    snprintf(iri, sizeof iri, "%s%s", BUILTIN_NAMESPACE, name);
    const builtin *b = builtin_lookup(iri);
    assert_non_null(b);
    solutions sol = {.stop_after = stop_after};
    b->eval(t, subject, object, collect, &sol);
    return sol;
}

solutions run(terms *t, const char *name, term_id subject, term_id object) {
    return run_stopping(t, name, subject, object, 0);
}

/* ---- terms ---- */

term_id str(terms *t, const char *s) { return terms_string(t, s); }
term_id iri(terms *t, const char *s) { return terms_iri_cstr(t, s); }
term_id typed(terms *t, const char *lex, term_id datatype) {
    return terms_literal(t, lex, strlen(lex), datatype, NULL, 0);
}
term_id integer(terms *t, const char *lex) { return typed(t, lex, T_XSD_INTEGER); }
term_id decimal(terms *t, const char *lex) { return typed(t, lex, T_XSD_DECIMAL); }
term_id dbl(terms *t, const char *lex) { return typed(t, lex, T_XSD_DOUBLE); }

/* The list of the n terms that follow. */
term_id list(terms *t, size_t n, ...) {
    term_id items[MAX_SOLUTIONS];
    assert_true(n <= MAX_SOLUTIONS);
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        items[i] = va_arg(ap, term_id);
    va_end(ap);
    return terms_list(t, items, n);
}

/* ---- assertions ---- */

void assert_none(solutions sol) { assert_int_equal(sol.n, 0); }

/* Exactly one solution, (subject, object). */
void assert_one(solutions sol, term_id subject, term_id object) {
    assert_int_equal(sol.n, 1);
    assert_int_equal(sol.subject[0], subject);
    assert_int_equal(sol.object[0], object);
}

/* With both positions bound: the relation holds (one solution, the inputs) or has no solution. */
void assert_holds(terms *t, const char *name, term_id subject, term_id object, bool holds) {
    solutions sol = run(t, name, subject, object);
    if (holds)
        assert_one(sol, subject, object);
    else
        assert_none(sol);
}

/* A function with the object unbound gives exactly one object for the subject: a literal with this
 * lexical form and datatype (0: a simple literal), no language tag. Returns it. */
term_id assert_function(terms *t, const char *name, term_id subject, const char *lex, term_id datatype) {
    solutions sol = run(t, name, subject, 0);
    assert_int_equal(sol.n, 1);
    assert_int_equal(sol.subject[0], subject);
    term_id o = sol.object[0];
    assert_int_equal(terms_kind(t, o), TERM_LITERAL);
    assert_string_equal(terms_lex(t, o, NULL), lex);
    assert_int_equal(terms_datatype(t, o), datatype);
    assert_null(terms_lang(t, o));
    return o;
}

/* A function whose results are compared as terms: with the object unbound it computes `expected`; bound
 * to it, it holds; bound to `other`, it does not. */
void assert_computes(terms *t, const char *name, term_id subject, term_id expected, term_id other) {
    assert_one(run(t, name, subject, 0), subject, expected);
    assert_one(run(t, name, subject, expected), subject, expected);
    assert_none(run(t, name, subject, other));
}

/* ---- fixture: a term table per test ---- */

int setup(void **state) {
    *state = terms_new();
    return 0;
}

int teardown(void **state) {
    terms_free(*state);
    return 0;
}
