/* test_builtins_list.c: the list: builtins evaluated as the engine calls them (each position a ground
 * term or 0): results, tests that hold and fail, enumerations in order and stopped early, empty lists
 * written () and as rdf:nil, out-of-range and non-integer indexes, repeats, nested lists, non-lists, and
 * list:sort's order over mixed kinds of terms. Expected values are written by hand; where EYE was asked
 * (tests/reason/cases/list-*), they are EYE's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define BUILTIN_NAMESPACE NS_LIST
#include "builtins_harness.c"

#define EX "http://example.org/"

/* ---- terms ---- */

/* A list of integers written as numbers: ints(t, 3, 1, 2, 3) is (1 2 3). */
static term_id ints(terms *t, size_t n, ...) {
    term_id items[12];
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++) {
        char lex[24];
        snprintf(lex, sizeof lex, "%d", va_arg(ap, int));
        items[i] = integer(t, lex);
    }
    va_end(ap);
    return terms_list(t, items, n);
}

static term_id empty(terms *t) {
    static const term_id none[1];
    return terms_list(t, none, 0);
}

/* ---- tests ---- */

static void append_concatenates(void **state) {
    terms *t = *state;
    term_id l12 = ints(t, 2, 1, 2), l34 = ints(t, 2, 3, 4), l1234 = ints(t, 4, 1, 2, 3, 4);
    assert_computes(t, "append", list(t, 2, l12, l34), l1234, ints(t, 3, 1, 2, 3));
    assert_computes(t, "append", list(t, 3, ints(t, 1, 1), ints(t, 2, 2, 3), ints(t, 1, 4)), l1234, l12);
    /* empty lists, written () or rdf:nil, add nothing; no lists at all make () */
    assert_computes(t, "append", list(t, 3, empty(t), l12, T_RDF_NIL), l12, l34);
    assert_computes(t, "append", empty(t), empty(t), l12);
    assert_computes(t, "append", T_RDF_NIL, empty(t), l12);
    /* a bound empty result may be rdf:nil */
    assert_one(run(t, "append", list(t, 2, empty(t), empty(t)), T_RDF_NIL), list(t, 2, empty(t), empty(t)), T_RDF_NIL);
    /* nested lists stay items */
    term_id nested = list(t, 2, list(t, 1, l12), list(t, 1, l34));
    assert_computes(t, "append", nested, list(t, 2, l12, l34), l1234);
    /* an item that is not a list: no solution */
    assert_none(run(t, "append", list(t, 2, l12, integer(t, "3")), 0));
    assert_none(run(t, "append", integer(t, "3"), 0));
}

static void append_splits_a_bound_object(void **state) {
    terms *t = *state;
    term_id l123 = ints(t, 3, 1, 2, 3);
    solutions sol = run(t, "append", 0, l123);
    assert_int_equal(sol.n, 4);
    assert_int_equal(sol.subject[0], list(t, 2, empty(t), l123));
    assert_int_equal(sol.subject[1], list(t, 2, ints(t, 1, 1), ints(t, 2, 2, 3)));
    assert_int_equal(sol.subject[2], list(t, 2, ints(t, 2, 1, 2), ints(t, 1, 3)));
    assert_int_equal(sol.subject[3], list(t, 2, l123, empty(t)));
    for (size_t i = 0; i < sol.n; i++)
        assert_int_equal(sol.object[i], l123);
    assert_int_equal(run_stopping(t, "append", 0, l123, 2).n, 2);
    sol = run(t, "append", 0, T_RDF_NIL);
    assert_int_equal(sol.n, 1);
    assert_int_equal(sol.subject[0], list(t, 2, empty(t), empty(t)));
    assert_none(run(t, "append", 0, str(t, "abc")));
}

static void first_rest_and_last(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), b = iri(t, EX "b"), c = iri(t, EX "c");
    term_id abc = list(t, 3, a, b, c);
    assert_computes(t, "rest", abc, list(t, 2, b, c), list(t, 1, c));
    assert_computes(t, "rest", list(t, 1, a), empty(t), abc);
    assert_none(run(t, "rest", empty(t), 0));
    assert_none(run(t, "rest", T_RDF_NIL, 0));
    assert_none(run(t, "rest", a, 0));
    assert_computes(t, "first", abc, a, b);
    assert_computes(t, "last", abc, c, b);
    assert_none(run(t, "last", T_RDF_NIL, 0));
    /* firstRest both ways */
    term_id split = list(t, 2, a, list(t, 2, b, c));
    assert_computes(t, "firstRest", abc, split, list(t, 2, b, list(t, 1, c)));
    assert_one(run(t, "firstRest", 0, split), abc, split);
    assert_one(run(t, "firstRest", 0, list(t, 2, a, T_RDF_NIL)), list(t, 1, a), list(t, 2, a, T_RDF_NIL));
    assert_one(run(t, "firstRest", list(t, 1, a), list(t, 2, a, T_RDF_NIL)), list(t, 1, a), list(t, 2, a, T_RDF_NIL));
    assert_none(run(t, "firstRest", empty(t), 0));
    assert_none(run(t, "firstRest", 0, list(t, 2, a, b)));
}

static void length_of_lists_and_formulas(void **state) {
    terms *t = *state;
    assert_computes(t, "length", ints(t, 3, 7, 7, 7), integer(t, "3"), integer(t, "2"));
    assert_computes(t, "length", T_RDF_NIL, integer(t, "0"), integer(t, "1"));
    /* a number of equal value also holds, as math: compares */
    assert_holds(t, "length", ints(t, 2, 1, 2), decimal(t, "2.0"), true);
    triple ts[2] = {{iri(t, EX "a"), iri(t, EX "p"), iri(t, EX "b")}, {iri(t, EX "b"), iri(t, EX "p"), iri(t, EX "c")}};
    assert_computes(t, "length", terms_formula(t, ts, 2), integer(t, "2"), integer(t, "3"));
    assert_none(run(t, "length", str(t, "abc"), 0));
}

static void membership_tests(void **state) {
    terms *t = *state;
    term_id l = list(t, 3, str(t, "dog"), str(t, "cat"), str(t, "dog"));
    assert_holds(t, "notMember", l, str(t, "cow"), true);
    assert_holds(t, "notMember", l, str(t, "cat"), false);
    assert_holds(t, "notMember", T_RDF_NIL, str(t, "cat"), true);
    assert_none(run(t, "notMember", str(t, "dog"), str(t, "cat")));
    /* member and in give each distinct item once */
    solutions sol = run(t, "member", l, 0);
    assert_int_equal(sol.n, 2);
    assert_int_equal(sol.object[0], str(t, "dog"));
    assert_int_equal(sol.object[1], str(t, "cat"));
    /* items are compared as terms: 1 is not 1.0 */
    assert_holds(t, "member", ints(t, 1, 1), decimal(t, "1.0"), false);
}

static void iterate_pairs(void **state) {
    terms *t = *state;
    term_id a = str(t, "a"), b = str(t, "b");
    term_id l = list(t, 3, a, b, a);
    solutions sol = run(t, "iterate", l, 0);
    assert_int_equal(sol.n, 3);
    assert_int_equal(sol.object[0], list(t, 2, integer(t, "0"), a));
    assert_int_equal(sol.object[1], list(t, 2, integer(t, "1"), b));
    assert_int_equal(sol.object[2], list(t, 2, integer(t, "2"), a));
    assert_int_equal(run_stopping(t, "iterate", l, 0, 1).n, 1);
    assert_holds(t, "iterate", l, list(t, 2, integer(t, "2"), a), true);
    assert_holds(t, "iterate", l, list(t, 2, integer(t, "1"), a), false);
    assert_holds(t, "iterate", l, list(t, 2, integer(t, "3"), a), false);
    assert_holds(t, "iterate", l, list(t, 2, integer(t, "-1"), a), false);
    assert_holds(t, "iterate", l, list(t, 2, decimal(t, "2.0"), a), false);
    assert_holds(t, "iterate", l, list(t, 1, integer(t, "0")), false);
    assert_none(run(t, "iterate", T_RDF_NIL, 0));
}

static void member_at_index(void **state) {
    terms *t = *state;
    term_id l = list(t, 3, str(t, "dog"), str(t, "penguin"), str(t, "cat"));
    assert_computes(t, "memberAt", list(t, 2, l, integer(t, "2")), str(t, "cat"), str(t, "dog"));
    assert_computes(t, "memberAt", list(t, 2, l, integer(t, "0")), str(t, "dog"), str(t, "cat"));
    /* an integer written as a simple literal or as a derived type is an index too */
    assert_computes(t, "memberAt", list(t, 2, l, str(t, "1")), str(t, "penguin"), str(t, "cat"));
    assert_computes(t, "memberAt", list(t, 2, l, typed(t, "1", iri(t, NS_XSD "int"))), str(t, "penguin"),
                    str(t, "cat"));
    assert_none(run(t, "memberAt", list(t, 2, l, integer(t, "3")), 0));
    assert_none(run(t, "memberAt", list(t, 2, l, integer(t, "-1")), 0));
    assert_none(run(t, "memberAt", list(t, 2, l, decimal(t, "1.0")), 0));
    assert_none(run(t, "memberAt", list(t, 2, l, str(t, "one")), 0));
    assert_none(run(t, "memberAt", list(t, 2, l, integer(t, "100000000000000000000000000000")), 0));
    assert_none(run(t, "memberAt", list(t, 2, l, integer(t, "-100000000000000000000000000000")), 0));
    assert_none(run(t, "memberAt", list(t, 2, T_RDF_NIL, integer(t, "0")), 0));
    assert_none(run(t, "memberAt", list(t, 3, l, integer(t, "0"), integer(t, "0")), 0));
    assert_none(run(t, "memberAt", l, 0));
}

static void remove_and_remove_at(void **state) {
    terms *t = *state;
    term_id dog = str(t, "dog"), penguin = str(t, "penguin"), cat = str(t, "cat");
    term_id l = list(t, 4, dog, penguin, cat, penguin);
    assert_computes(t, "remove", list(t, 2, l, penguin), list(t, 2, dog, cat), l);
    assert_computes(t, "remove", list(t, 2, l, str(t, "parakeet")), l, list(t, 2, dog, cat));
    assert_computes(t, "remove", list(t, 2, list(t, 2, cat, cat), cat), empty(t), l);
    assert_computes(t, "remove", list(t, 2, T_RDF_NIL, cat), empty(t), l);
    assert_none(run(t, "remove", list(t, 2, cat, cat), 0));
    assert_computes(t, "removeAt", list(t, 2, l, integer(t, "1")), list(t, 3, dog, cat, penguin), l);
    assert_computes(t, "removeAt", list(t, 2, l, integer(t, "3")), list(t, 3, dog, penguin, cat), l);
    assert_computes(t, "removeAt", list(t, 2, list(t, 1, dog), integer(t, "0")), empty(t), l);
    assert_none(run(t, "removeAt", list(t, 2, l, integer(t, "4")), 0));
    assert_none(run(t, "removeAt", list(t, 2, T_RDF_NIL, integer(t, "0")), 0));
}

static void reverse_and_remove_duplicates(void **state) {
    terms *t = *state;
    assert_computes(t, "reverse", ints(t, 3, 1, 2, 3), ints(t, 3, 3, 2, 1), ints(t, 3, 1, 2, 3));
    assert_computes(t, "reverse", T_RDF_NIL, empty(t), ints(t, 1, 1));
    term_id nested = list(t, 2, ints(t, 2, 1, 2), ints(t, 1, 3));
    assert_computes(t, "reverse", nested, list(t, 2, ints(t, 1, 3), ints(t, 2, 1, 2)), ints(t, 3, 3, 1, 2));
    /* the first occurrence of each item stays, in place */
    assert_computes(t, "removeDuplicates", ints(t, 5, 2, 1, 2, 3, 1), ints(t, 3, 2, 1, 3), ints(t, 3, 1, 2, 3));
    assert_computes(t, "unique", ints(t, 5, 2, 1, 2, 3, 1), ints(t, 3, 2, 1, 3), ints(t, 3, 1, 2, 3));
    assert_computes(t, "removeDuplicates", T_RDF_NIL, empty(t), ints(t, 1, 1));
    /* 1 and 1.0 are different terms */
    term_id one = integer(t, "1"), one_point_zero = decimal(t, "1.0");
    assert_computes(t, "removeDuplicates", list(t, 3, one, one_point_zero, one), list(t, 2, one, one_point_zero),
                    ints(t, 1, 1));
    assert_none(run(t, "reverse", one, 0));
}

static void select_each_position(void **state) {
    terms *t = *state;
    solutions sol = run(t, "select", ints(t, 3, 1, 2, 1), 0);
    assert_int_equal(sol.n, 3);
    assert_int_equal(sol.object[0], list(t, 2, integer(t, "1"), ints(t, 2, 2, 1)));
    assert_int_equal(sol.object[1], list(t, 2, integer(t, "2"), ints(t, 2, 1, 1)));
    assert_int_equal(sol.object[2], list(t, 2, integer(t, "1"), ints(t, 2, 1, 2)));
    assert_int_equal(run_stopping(t, "select", ints(t, 3, 1, 2, 1), 0, 1).n, 1);
    assert_holds(t, "select", ints(t, 3, 1, 2, 1), list(t, 2, integer(t, "2"), ints(t, 2, 1, 1)), true);
    assert_holds(t, "select", ints(t, 3, 1, 2, 1), list(t, 2, integer(t, "2"), ints(t, 2, 1, 2)), false);
    assert_none(run(t, "select", T_RDF_NIL, 0));
}

static void permutations_in_order(void **state) {
    terms *t = *state;
    solutions sol = run(t, "permutation", ints(t, 3, 1, 2, 3), 0);
    assert_int_equal(sol.n, 6);
    const int expected[6][3] = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}};
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(sol.object[i], ints(t, 3, expected[i][0], expected[i][1], expected[i][2]));
    assert_int_equal(run_stopping(t, "permutation", ints(t, 3, 1, 2, 3), 0, 2).n, 2);
    /* the empty list has one permutation, itself; one item, one */
    assert_one(run(t, "permutation", T_RDF_NIL, 0), T_RDF_NIL, empty(t));
    assert_one(run(t, "permutation", ints(t, 1, 7), 0), ints(t, 1, 7), ints(t, 1, 7));
    /* with the object bound: the same items, repeats counted */
    assert_holds(t, "permutation", ints(t, 3, 1, 2, 1), ints(t, 3, 2, 1, 1), true);
    assert_holds(t, "permutation", ints(t, 3, 1, 2, 1), ints(t, 3, 2, 2, 1), false);
    assert_none(run(t, "permutation", integer(t, "1"), 0));
}

static void intersection_and_is_list(void **state) {
    terms *t = *state;
    assert_computes(t, "intersection", list(t, 2, ints(t, 4, 1, 2, 3, 2), ints(t, 3, 2, 4, 3)), ints(t, 3, 2, 3, 2),
                    ints(t, 2, 2, 3));
    assert_computes(t, "intersection", list(t, 2, ints(t, 2, 1, 2), T_RDF_NIL), empty(t), ints(t, 1, 1));
    assert_none(run(t, "intersection", list(t, 2, ints(t, 2, 1, 2), integer(t, "2")), 0));
    assert_computes(t, "isList", ints(t, 1, 1), T_TRUE, T_FALSE);
    assert_computes(t, "isList", T_RDF_NIL, T_TRUE, T_FALSE);
    assert_computes(t, "isList", integer(t, "1"), T_FALSE, T_TRUE);
}

static void set_and_multiset_equality(void **state) {
    terms *t = *state;
    term_id l123 = ints(t, 3, 1, 2, 3), l3211 = ints(t, 4, 3, 2, 1, 1), l321 = ints(t, 3, 3, 2, 1);
    assert_holds(t, "setEqualTo", l123, l3211, true);
    assert_holds(t, "setEqualTo", l123, ints(t, 2, 1, 2), false);
    assert_holds(t, "setEqualTo", T_RDF_NIL, empty(t), true);
    assert_holds(t, "setNotEqualTo", l123, ints(t, 3, 3, 2, 4), true);
    assert_holds(t, "setNotEqualTo", l123, l3211, false);
    assert_holds(t, "multisetEqualTo", l123, l321, true);
    assert_holds(t, "multisetEqualTo", l123, l3211, false);
    assert_holds(t, "multisetNotEqualTo", l123, l3211, true);
    assert_holds(t, "multisetNotEqualTo", l123, l321, false);
    /* a non-list is neither equal nor unequal */
    assert_none(run(t, "setEqualTo", l123, integer(t, "1")));
    assert_none(run(t, "setNotEqualTo", l123, integer(t, "1")));
    assert_none(run(t, "multisetNotEqualTo", integer(t, "1"), l123));
}

static void sort_orders_mixed_terms(void **state) {
    terms *t = *state;
    /* numbers by value (equal values: double, decimal, integer), IRIs, blank nodes, booleans, formulas,
     * lists (a prefix first), then literals by lexical form, a tagged one before a plain one */
    term_id n1 = integer(t, "1"), n1_0 = decimal(t, "1.0"), n2_5 = decimal(t, "2.5"), n3 = integer(t, "3");
    term_id n10 = typed(t, "1.0E1", T_XSD_DOUBLE);
    term_id a = iri(t, EX "a"), z = iri(t, EX "z"), blank = terms_bnode(t, "x", 1);
    triple abc = {a, a, z};
    term_id formula = terms_formula(t, &abc, 1);
    term_id l1 = ints(t, 1, 1), l12 = ints(t, 2, 1, 2), l2 = ints(t, 1, 2);
    term_id s_a = str(t, "a"), s_a_en = terms_literal(t, "a", 1, 0, "en", 2), s_b = str(t, "b"), s_10 = str(t, "10");
    term_id date = typed(t, "2020-01-01", iri(t, NS_XSD "date"));
    term_id input = list(t, 12, s_b, l2, n3, z, date, formula, s_a, T_TRUE, l1, s_a_en, n1, a);
    term_id expected = list(t, 12, n1, n3, a, z, T_TRUE, formula, l1, l2, date, s_a_en, s_a, s_b);
    assert_computes(t, "sort", input, expected, input);
    /* the empty list after the numbers, before the IRIs */
    assert_computes(t, "sort", list(t, 10, l12, blank, n10, a, n1, n2_5, n1_0, s_10, T_FALSE, empty(t)),
                    list(t, 10, n1_0, n1, n2_5, n10, empty(t), a, blank, T_FALSE, l12, s_10),
                    list(t, 10, n1, n1_0, n2_5, n10, empty(t), a, blank, T_FALSE, l12, s_10));
    /* integers beyond 64 bits by value too */
    term_id huge = integer(t, "100000000000000000000000000000"), huge_negative = integer(t, "-99999999999999999999999");
    assert_computes(t, "sort", list(t, 4, huge, n1, huge_negative, n10), list(t, 4, huge_negative, n1, n10, huge),
                    list(t, 4, n1, n10, huge, huge_negative));
    /* repeats are kept */
    assert_computes(t, "sort", ints(t, 4, 2, 1, 2, 1), ints(t, 4, 1, 1, 2, 2), ints(t, 2, 1, 2));
    assert_computes(t, "sort", list(t, 3, l12, l1, T_RDF_NIL), list(t, 3, T_RDF_NIL, l1, l12), l1);
    assert_computes(t, "sort", T_RDF_NIL, empty(t), l1);
    assert_none(run(t, "sort", n1, 0));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(append_concatenates, setup, teardown),
        cmocka_unit_test_setup_teardown(append_splits_a_bound_object, setup, teardown),
        cmocka_unit_test_setup_teardown(first_rest_and_last, setup, teardown),
        cmocka_unit_test_setup_teardown(length_of_lists_and_formulas, setup, teardown),
        cmocka_unit_test_setup_teardown(membership_tests, setup, teardown),
        cmocka_unit_test_setup_teardown(iterate_pairs, setup, teardown),
        cmocka_unit_test_setup_teardown(member_at_index, setup, teardown),
        cmocka_unit_test_setup_teardown(remove_and_remove_at, setup, teardown),
        cmocka_unit_test_setup_teardown(reverse_and_remove_duplicates, setup, teardown),
        cmocka_unit_test_setup_teardown(select_each_position, setup, teardown),
        cmocka_unit_test_setup_teardown(permutations_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(intersection_and_is_list, setup, teardown),
        cmocka_unit_test_setup_teardown(set_and_multiset_equality, setup, teardown),
        cmocka_unit_test_setup_teardown(sort_orders_mixed_terms, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
