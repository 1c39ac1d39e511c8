/* test_terms.c: interning, literal normalization, formulas and lists as terms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "rdf/term.h"

static void iri_interned_once(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id a = terms_iri_cstr(t, "http://example.org/a");
    term_id b = terms_iri_cstr(t, "http://example.org/b");
    assert_int_not_equal(a, b);
    assert_int_equal(a, terms_iri_cstr(t, "http://example.org/a"));
    assert_int_equal(terms_kind(t, a), TERM_IRI);
    size_t len;
    assert_string_equal(terms_lex(t, a, &len), "http://example.org/a");
    assert_int_equal(len, 20);
    terms_free(t);
}

static void well_known_ids_are_fixed(void **state) {
    (void)state;
    terms *t = terms_new();
    assert_int_equal(terms_iri_cstr(t, NS_RDF "type"), T_RDF_TYPE);
    assert_int_equal(terms_iri_cstr(t, NS_LOG "implies"), T_LOG_IMPLIES);
    assert_int_equal(terms_literal(t, "true", 4, T_XSD_BOOLEAN, NULL, 0), T_TRUE);
    terms_free(t);
}

static void kinds_do_not_mix(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id iri = terms_iri_cstr(t, "x");
    term_id bnode = terms_bnode(t, "x", 1);
    term_id lit = terms_string(t, "x");
    term_id var = terms_var(t, "x", 1);
    assert_int_not_equal(iri, bnode);
    assert_int_not_equal(iri, lit);
    assert_int_not_equal(lit, var);
    assert_int_not_equal(bnode, var);
    assert_true(terms_is_ground(t, lit));
    assert_false(terms_is_ground(t, var));
    terms_free(t);
}

static void literals_follow_rdf11(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id simple = terms_string(t, "chat");
    term_id typed_string = terms_literal(t, "chat", 4, T_XSD_STRING, NULL, 0);
    assert_int_equal(simple, typed_string);
    assert_int_equal(terms_datatype(t, simple), 0);
    term_id en = terms_literal(t, "chat", 4, 0, "EN", 2);
    term_id en2 = terms_literal(t, "chat", 4, 0, "en", 2);
    term_id fr = terms_literal(t, "chat", 4, 0, "fr", 2);
    assert_int_equal(en, en2);
    assert_int_not_equal(en, fr);
    assert_int_not_equal(en, simple);
    assert_string_equal(terms_lang(t, en), "en");
    assert_int_equal(terms_datatype(t, en), T_RDF_LANGSTRING);
    term_id one = terms_literal(t, "1", 1, T_XSD_INTEGER, NULL, 0);
    term_id one_str = terms_string(t, "1");
    assert_int_not_equal(one, one_str);
    assert_int_equal(terms_datatype(t, one), T_XSD_INTEGER);
    terms_free(t);
}

static void formulas_are_canonical(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id a = terms_iri_cstr(t, "a"), b = terms_iri_cstr(t, "b"), c = terms_iri_cstr(t, "c");
    triple one[] = {{a, b, c}, {c, b, a}, {a, b, c}};
    triple two[] = {{c, b, a}, {a, b, c}};
    term_id f1 = terms_formula(t, one, 3);
    term_id f2 = terms_formula(t, two, 2);
    assert_int_equal(f1, f2);
    size_t n;
    terms_formula_triples(t, f1, &n);
    assert_int_equal(n, 2);
    triple other[] = {{a, b, a}};
    assert_int_not_equal(f1, terms_formula(t, other, 1));
    term_id empty = terms_formula(t, NULL, 0);
    terms_formula_triples(t, empty, &n);
    assert_int_equal(n, 0);
    assert_int_equal(terms_kind(t, empty), TERM_FORMULA);
    triple with_var[] = {{terms_var(t, "x", 1), b, c}};
    assert_false(terms_is_ground(t, terms_formula(t, with_var, 1)));
    terms_free(t);
}

static void lists_keep_order(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id a = terms_iri_cstr(t, "a"), b = terms_iri_cstr(t, "b");
    term_id ab[] = {a, b}, ba[] = {b, a};
    term_id l1 = terms_list(t, ab, 2), l2 = terms_list(t, ba, 2);
    assert_int_not_equal(l1, l2);
    assert_int_equal(l1, terms_list(t, ab, 2));
    size_t n;
    const term_id *items = terms_list_items(t, l1, &n);
    assert_int_equal(n, 2);
    assert_int_equal(items[0], a);
    assert_int_equal(items[1], b);
    term_id nested[] = {l1, terms_var(t, "v", 1)};
    assert_false(terms_is_ground(t, terms_list(t, nested, 2)));
    terms_free(t);
}

static void fresh_bnodes_are_distinct(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id x = terms_fresh_bnode(t), y = terms_fresh_bnode(t);
    assert_int_not_equal(x, y);
    assert_int_equal(terms_kind(t, x), TERM_BNODE);
    terms_free(t);
}

static void many_terms_survive_growth(void **state) {
    (void)state;
    terms *t = terms_new();
    char name[32];
    term_id first = terms_iri_cstr(t, "urn:x:0");
    for (int i = 1; i < 100000; i++) {
        snprintf(name, sizeof name, "urn:x:%d", i);
        terms_iri_cstr(t, name);
    }
    assert_int_equal(terms_iri_cstr(t, "urn:x:0"), first);
    assert_string_equal(terms_lex(t, first, NULL), "urn:x:0");
    assert_string_equal(terms_lex(t, terms_iri_cstr(t, "urn:x:99999"), NULL), "urn:x:99999");
    terms_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(iri_interned_once),        cmocka_unit_test(well_known_ids_are_fixed),
        cmocka_unit_test(kinds_do_not_mix),         cmocka_unit_test(literals_follow_rdf11),
        cmocka_unit_test(formulas_are_canonical),   cmocka_unit_test(lists_keep_order),
        cmocka_unit_test(fresh_bnodes_are_distinct), cmocka_unit_test(many_terms_survive_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
