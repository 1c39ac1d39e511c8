/* test_builtins_log.c: the log: builtins that are functions of terms (log:conjunction, log:rawType,
 * log:langlit, log:skolem, log:uuid, log:localName, log:namespace, log:racine) evaluated as the engine
 * calls them: results, bound objects that hold or not, both directions of log:langlit, and arguments of
 * the wrong kind giving no solution. The skolem and UUID values were computed independently (Python's
 * hashlib and uuid.uuid5) from the forms builtins_log.c documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define BUILTIN_NAMESPACE NS_LOG
#include "builtins_harness.c"

#define EX "http://example.org/"
#define GENID "http://www.w3.org/2000/10/swap/genid#"

static term_id tagged(terms *t, const char *lex, const char *tag) {
    return terms_literal(t, lex, strlen(lex), 0, tag, strlen(tag));
}

static term_id formula(terms *t, size_t n, const triple *ts) { return terms_formula(t, ts, n); }

static void conjunction_merges_formulas(void **state) {
    terms *t = *state;
    term_id a = iri(t, EX "a"), p = iri(t, EX "p"), b = iri(t, EX "b"), c = iri(t, EX "c");
    triple ab = {a, p, b}, bc = {b, p, c}, both[2] = {bc, ab};
    term_id f_ab = formula(t, 1, &ab), f_bc = formula(t, 1, &bc), f_both = formula(t, 2, both);
    assert_computes(t, "conjunction", list(t, 2, f_ab, f_bc), f_both, f_ab);
    /* repeated triples once; the result is the canonical formula whatever the order */
    assert_computes(t, "conjunction", list(t, 3, f_bc, f_ab, f_bc), f_both, f_bc);
    assert_computes(t, "conjunction", list(t, 1, f_ab), f_ab, f_both);
    /* no formulas: the empty formula (EYE derives nothing here) */
    assert_computes(t, "conjunction", T_RDF_NIL, formula(t, 0, NULL), f_ab);
    assert_computes(t, "conjunction", list(t, 1, formula(t, 0, NULL)), formula(t, 0, NULL), f_ab);
    /* a member that is not a formula, or a subject that is not a list */
    assert_none(run(t, "conjunction", list(t, 2, f_ab, integer(t, "1")), 0));
    assert_none(run(t, "conjunction", f_ab, 0));
}

static void raw_type_of_each_kind(void **state) {
    terms *t = *state;
    triple abc = {iri(t, EX "a"), iri(t, EX "b"), iri(t, EX "c")};
    term_id list_type = iri(t, NS_RDF "List"), formula_type = iri(t, NS_LOG "Formula");
    term_id literal_type = iri(t, NS_LOG "Literal"), other = iri(t, NS_LOG "Other");
    assert_computes(t, "rawType", list(t, 2, integer(t, "1"), integer(t, "2")), list_type, other);
    assert_computes(t, "rawType", list(t, 0), list_type, other);
    assert_computes(t, "rawType", T_RDF_NIL, list_type, other);
    assert_computes(t, "rawType", formula(t, 1, &abc), formula_type, list_type);
    assert_computes(t, "rawType", str(t, "Hello"), literal_type, other);
    assert_computes(t, "rawType", integer(t, "42"), literal_type, other);
    assert_computes(t, "rawType", T_TRUE, literal_type, other);
    assert_computes(t, "rawType", tagged(t, "chat", "fr"), literal_type, other);
    assert_computes(t, "rawType", iri(t, "http://www.w3c.org"), other, literal_type);
    assert_computes(t, "rawType", terms_bnode(t, "b", 1), iri(t, NS_LOG "LabeledBlankNode"), other);
}

static void langlit_both_directions(void **state) {
    terms *t = *state;
    term_id parts = list(t, 2, str(t, "hello"), str(t, "en"));
    term_id hello_en = tagged(t, "hello", "en");
    assert_computes(t, "langlit", parts, hello_en, str(t, "hello"));
    assert_one(run(t, "langlit", 0, hello_en), parts, hello_en);
    /* tags are lower-cased; subtags may hold digits */
    term_id upper = list(t, 2, str(t, "hi"), str(t, "EN-US"));
    assert_one(run(t, "langlit", upper, 0), upper, tagged(t, "hi", "en-us"));
    assert_one(run(t, "langlit", 0, tagged(t, "x", "es-419")), list(t, 2, str(t, "x"), str(t, "es-419")),
               tagged(t, "x", "es-419"));
    /* malformed tags and wrong kinds */
    const char *bad_tags[] = {"", "-en", "en-", "en--us", "1en", "en us", "en_US"};
    for (size_t i = 0; i < sizeof bad_tags / sizeof bad_tags[0]; i++)
        assert_none(run(t, "langlit", list(t, 2, str(t, "x"), str(t, bad_tags[i])), 0));
    assert_none(run(t, "langlit", list(t, 2, integer(t, "1"), str(t, "en")), 0));
    assert_none(run(t, "langlit", list(t, 2, str(t, "x"), iri(t, EX "en")), 0));
    assert_none(run(t, "langlit", list(t, 2, str(t, "x"), tagged(t, "en", "en")), 0));
    assert_none(run(t, "langlit", list(t, 1, str(t, "x")), 0));
    assert_none(run(t, "langlit", 0, str(t, "hello")));
    assert_none(run(t, "langlit", 0, integer(t, "1")));
}

static void skolem_is_a_function_of_content(void **state) {
    terms *t = *state;
    term_id subject = list(t, 3, iri(t, EX "abc"), integer(t, "77"), str(t, "xyz"));
    assert_computes(t, "skolem", subject, iri(t, GENID "dGvfzi8CK7nDN9JE1WYCSQ"), iri(t, EX "abc"));
    assert_computes(t, "skolem", iri(t, EX "a"), iri(t, GENID "r4uIK43fBAZm5Zzp5LFstQ"), subject);
    /* the same content gives the same IRI in another table (another run) */
    terms *other = terms_new();
    term_id again = list(other, 3, iri(other, EX "abc"), integer(other, "77"), str(other, "xyz"));
    assert_one(run(other, "skolem", again, 0), again, iri(other, GENID "dGvfzi8CK7nDN9JE1WYCSQ"));
    terms_free(other);
    /* terms that differ only in kind or type differ */
    solutions as_string = run(t, "skolem", str(t, "77"), 0), as_integer = run(t, "skolem", integer(t, "77"), 0);
    solutions as_iri = run(t, "skolem", iri(t, "77"), 0), as_list = run(t, "skolem", list(t, 1, str(t, "77")), 0);
    assert_int_not_equal(as_string.object[0], as_integer.object[0]);
    assert_int_not_equal(as_string.object[0], as_iri.object[0]);
    assert_int_not_equal(as_string.object[0], as_list.object[0]);
    assert_int_not_equal(run(t, "skolem", tagged(t, "a", "en"), 0).object[0],
                         run(t, "skolem", tagged(t, "a", "de"), 0).object[0]);
    assert_int_not_equal(run(t, "skolem", list(t, 2, str(t, "a"), str(t, "bc")), 0).object[0],
                         run(t, "skolem", list(t, 2, str(t, "ab"), str(t, "c")), 0).object[0]);
}

static void uuid_is_name_based(void **state) {
    terms *t = *state;
    assert_computes(t, "uuid", iri(t, EX "a"), str(t, "5f8a26f2-91ce-506a-97bc-f098f056e21f"), str(t, "x"));
    assert_none(run(t, "uuid", str(t, EX "a"), 0));
    assert_none(run(t, "uuid", list(t, 0), 0));
}

static void iri_parts(void **state) {
    terms *t = *state;
    term_id hash_iri = iri(t, "http://ex.org/a/b#c"), slash_iri = iri(t, "http://ex.org/a/b/c");
    term_id urn = iri(t, "urn:isbn:123");
    assert_computes(t, "localName", hash_iri, str(t, "c"), str(t, "b#c"));
    assert_computes(t, "namespace", hash_iri, str(t, "http://ex.org/a/b#"), str(t, "http://ex.org/a/"));
    assert_computes(t, "localName", slash_iri, str(t, "c"), str(t, "b/c"));
    assert_computes(t, "namespace", slash_iri, str(t, "http://ex.org/a/b/"), str(t, "http://ex.org/a/"));
    assert_computes(t, "localName", urn, str(t, "123"), str(t, "isbn:123"));
    assert_computes(t, "namespace", urn, str(t, "urn:isbn:"), str(t, "urn:"));
    /* a '#' wins over a later '/' */
    assert_computes(t, "localName", iri(t, "http://ex.org/a#b/c"), str(t, "b/c"), str(t, "c"));
    assert_computes(t, "localName", iri(t, "http://ex.org/a#"), str(t, ""), str(t, "a#"));
    assert_none(run(t, "localName", iri(t, "nothing"), 0));
    assert_none(run(t, "namespace", str(t, "http://ex.org/a#b"), 0));
    assert_computes(t, "racine", hash_iri, iri(t, "http://ex.org/a/b"), hash_iri);
    assert_none(run(t, "racine", slash_iri, 0));
    assert_none(run(t, "racine", str(t, "http://ex.org/a#b"), 0));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(conjunction_merges_formulas, setup, teardown),
        cmocka_unit_test_setup_teardown(raw_type_of_each_kind, setup, teardown),
        cmocka_unit_test_setup_teardown(langlit_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(skolem_is_a_function_of_content, setup, teardown),
        cmocka_unit_test_setup_teardown(uuid_is_name_based, setup, teardown),
        cmocka_unit_test_setup_teardown(iri_parts, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
