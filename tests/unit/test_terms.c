/* test_terms.c: interning, literal normalization, formulas and lists as terms; releasing the terms
 * interned after a mark, keeping some. */
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

/* What stands before a mark is untouched by a release; what came after is gone (interned again it is new,
 * and with the same content found again); a kept formula comes back whole, with its list, its typed and
 * tagged literals and its blank node, at its new id. */
static void release_keeps_what_it_is_told(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id lasting = terms_iri_cstr(t, "urn:lasting");
    term_id lasting_literal = terms_literal(t, "7", 1, T_XSD_INTEGER, NULL, 0);
    terms_mark mark = terms_mark_now(t);
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "urn:scratch:%d", i);
        terms_iri_cstr(t, name);
    }
    term_id datatype = terms_iri_cstr(t, "urn:type:celsius");
    term_id items[3] = {terms_literal(t, "21.5", 4, datatype, NULL, 0), terms_literal(t, "hallo", 5, 0, "de", 2),
                        lasting};
    term_id bnode = terms_fresh_bnode(t);
    triple ts[2] = {{bnode, terms_iri_cstr(t, "urn:p"), terms_list(t, items, 3)},
                    {lasting, terms_iri_cstr(t, "urn:q"), lasting_literal}};
    term_id keep[3] = {terms_formula(t, ts, 2), lasting, 0};
    size_t released = terms_release(t, &mark, keep, 3);
    assert_true(released >= 5000);
    assert_int_equal(keep[1], lasting);
    assert_int_equal(keep[2], 0);
    assert_string_equal(terms_lex(t, lasting, NULL), "urn:lasting");
    assert_int_equal(terms_literal(t, "7", 1, T_XSD_INTEGER, NULL, 0), lasting_literal);
    /* the kept formula, whole */
    size_t n;
    const triple *back = terms_formula_triples(t, keep[0], &n);
    assert_int_equal(n, 2);
    size_t with_bnode = back[0].s == lasting ? 1 : 0, with_lasting = 1 - with_bnode;
    assert_int_equal(terms_kind(t, back[with_bnode].s), TERM_BNODE);
    assert_string_equal(terms_lex(t, back[with_bnode].p, NULL), "urn:p");
    const term_id *list = terms_list_items(t, back[with_bnode].o, &n);
    assert_int_equal(n, 3);
    assert_string_equal(terms_lex(t, list[0], NULL), "21.5");
    assert_string_equal(terms_lex(t, terms_datatype(t, list[0]), NULL), "urn:type:celsius");
    assert_string_equal(terms_lang(t, list[1]), "de");
    assert_int_equal(list[2], lasting);
    assert_int_equal(back[with_lasting].o, lasting_literal);
    /* what is kept is found again by its content; what was released is interned anew */
    term_id celsius = terms_iri_cstr(t, "urn:type:celsius");
    assert_int_equal(terms_literal(t, "21.5", 4, celsius, NULL, 0), list[0]);
    assert_int_equal(terms_formula(t, back, 2), keep[0]);
    term_id again = terms_iri_cstr(t, "urn:scratch:17");
    assert_string_equal(terms_lex(t, again, NULL), "urn:scratch:17");
    assert_int_equal(terms_iri_cstr(t, "urn:scratch:17"), again);
    terms_free(t);
}

/* Released round after round, the table stays the size of one round (AddressSanitizer builds hand out
 * new ids instead, to catch a term held across a release: there only the live terms stay few). */
static void rounds_of_release_stay_small(void **state) {
    (void)state;
    terms *t = terms_new();
    terms_iri_cstr(t, "urn:lasting");
    terms_mark mark = terms_mark_now(t);
    char name[48];
    size_t after_first = 0;
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 2000; i++) {
            snprintf(name, sizeof name, "urn:round:%d:%d", round, i);
            terms_literal(t, name, strlen(name), 0, NULL, 0);
            terms_fresh_bnode(t);
        }
        if (round == 0)
            after_first = terms_count(t);
        terms_release(t, &mark, NULL, 0);
        /* every lasting term is still found */
        assert_int_equal(terms_iri_cstr(t, "urn:lasting"), T_WELL_KNOWN_END);
    }
    assert_int_equal(terms_live(t), mark.count);
    assert_true(after_first > mark.count + 3999);
#if !defined(__SANITIZE_ADDRESS__)
    assert_int_equal(terms_count(t), mark.count);
#endif
    snprintf(name, sizeof name, "urn:round:%d:%d", 3, 5);
    term_id x = terms_literal(t, name, strlen(name), 0, NULL, 0);
    assert_string_equal(terms_lex(t, x, NULL), name);
    terms_free(t);
}

/* A release of fewer terms than stay takes each out of the index (more are released by building the
 * index again): both ways, what stays is found and what went is interned anew. */
static void small_release_after_many_lasting(void **state) {
    (void)state;
    terms *t = terms_new();
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "urn:lasting:%d", i);
        terms_iri_cstr(t, name);
    }
    term_id lasting = terms_iri_cstr(t, "urn:lasting:4321");
    terms_mark mark = terms_mark_now(t);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 100; i++) {
            snprintf(name, sizeof name, "urn:scratch:%d", i);
            terms_iri_cstr(t, name);
        }
        assert_int_equal(terms_release(t, &mark, NULL, 0), 100);
        assert_int_equal(terms_iri_cstr(t, "urn:lasting:4321"), lasting);
        assert_int_equal(terms_live(t), mark.count);
    }
    term_id again = terms_iri_cstr(t, "urn:scratch:7");
    assert_string_equal(terms_lex(t, again, NULL), "urn:scratch:7");
    assert_int_equal(terms_iri_cstr(t, "urn:scratch:7"), again);
    terms_free(t);
}

/* A large round, small ones, a large one again: what the small rounds do not need (record chunks, the
 * larger hash index) is given back and taken again, and every term of a round is found by its content;
 * a language tag (kept after its literal's text) tells literals apart. */
static void rounds_grow_and_shrink(void **state) {
    (void)state;
    terms *t = terms_new();
    term_id lasting = terms_iri_cstr(t, "urn:lasting");
    terms_mark mark = terms_mark_now(t);
    char name[48];
    static const int sizes[] = {50000, 100, 100, 60000, 10};
    for (int round = 0; round < 5; round++) {
        term_id first = 0;
        for (int i = 0; i < sizes[round]; i++) {
            snprintf(name, sizeof name, "urn:round:%d:%d", round, i);
            term_id id = terms_iri_cstr(t, name);
            if (!i)
                first = id;
        }
        term_id tagged = terms_literal(t, "chat", 4, 0, "fr", 2);
        assert_int_not_equal(tagged, terms_literal(t, "chat", 4, 0, "en", 2));
        assert_int_not_equal(tagged, terms_literal(t, "chat", 4, 0, NULL, 0));
        assert_int_equal(terms_literal(t, "chat", 4, 0, "FR", 2), tagged);
        assert_string_equal(terms_lang(t, tagged), "fr");
        assert_string_equal(terms_lex(t, tagged, NULL), "chat");
        snprintf(name, sizeof name, "urn:round:%d:0", round);
        assert_int_equal(terms_iri_cstr(t, name), first);
        snprintf(name, sizeof name, "urn:round:%d:%d", round, sizes[round] - 1);
        assert_string_equal(terms_lex(t, terms_iri_cstr(t, name), NULL), name);
        terms_release(t, &mark, NULL, 0);
        assert_int_equal(terms_iri_cstr(t, "urn:lasting"), lasting);
        assert_int_equal(terms_live(t), mark.count);
    }
    terms_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(iri_interned_once),        cmocka_unit_test(well_known_ids_are_fixed),
        cmocka_unit_test(kinds_do_not_mix),         cmocka_unit_test(literals_follow_rdf11),
        cmocka_unit_test(formulas_are_canonical),   cmocka_unit_test(lists_keep_order),
        cmocka_unit_test(fresh_bnodes_are_distinct), cmocka_unit_test(many_terms_survive_growth),
        cmocka_unit_test(release_keeps_what_it_is_told), cmocka_unit_test(rounds_of_release_stay_small),
        cmocka_unit_test(small_release_after_many_lasting), cmocka_unit_test(rounds_grow_and_shrink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
