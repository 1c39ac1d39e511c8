/* test_n3_reader.c: the N3 reader: every construct of the W3C N3 grammar (the ones rule programs use and
 * the rest the N3 suite's syntax tests hold: inverse verbs, paths, quantifiers, iriPropertyList, the
 * undeclared default prefix), the normalizations of rules and bare formulas, statement positions, base
 * resolution, blank node scoping, and one exact file:line:col message per error kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "n3/n3_reader.h"
#include "rdf/buf.h"
#include "rdf/nesting.h"
#include "rdf/term_rules.h"
#include "rdf/term.h"

#define EX "http://ex.org/"
#define BASE "http://ex.org/dir/doc"
#define PREAMBLE "@prefix : <" EX "> .\n"
#define ESCAPE_HELP "an escape sequence (\\t \\b \\n \\r \\f \\\" \\' \\\\ \\uXXXX \\UXXXXXXXX)"

typedef struct fixture {
    terms *t;
    n3_doc doc;
} fixture;

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    f->t = terms_new();
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    n3_doc_free(&f->doc);
    terms_free(f->t);
    free(f);
    return 0;
}

/* Parses text (with base BASE), failing the test with the reader's message on error. */
static n3_doc *parse_ok(fixture *f, const char *text) {
    n3_error err;
    n3_doc_free(&f->doc);
    int rc = n3_parse(f->t, text, strlen(text), "t.n3", BASE, &f->doc, &err);
    if (rc != 0)
        fail_msg("unexpected parse error: %s", err.message);
    return &f->doc;
}

static void assert_parse_error(fixture *f, const char *text, const char *message) {
    n3_error err;
    n3_doc_free(&f->doc);
    assert_int_equal(n3_parse(f->t, text, strlen(text), "t.n3", BASE, &f->doc, &err), -1);
    assert_string_equal(err.message, message);
    assert_int_equal(f->doc.count, 0);
    assert_null(f->doc.statements);
}

static term_id iri(fixture *f, const char *s) { return terms_iri_cstr(f->t, s); }
static term_id ex(fixture *f, const char *local) {
    char s[256];
    snprintf(s, sizeof s, EX "%s", local);
    return iri(f, s);
}
static term_id var(fixture *f, const char *name) { return terms_var(f->t, name, strlen(name)); }
static term_id typed(fixture *f, const char *lex, term_id datatype) {
    return terms_literal(f->t, lex, strlen(lex), datatype, NULL, 0);
}

static void assert_triple(triple tr, term_id s, term_id p, term_id o) {
    assert_int_equal(tr.s, s);
    assert_int_equal(tr.p, p);
    assert_int_equal(tr.o, o);
}

/* True when the formula holds the triple. */
static bool formula_has(fixture *f, term_id formula, term_id s, term_id p, term_id o) {
    size_t n;
    const triple *ts = terms_formula_triples(f->t, formula, &n);
    for (size_t i = 0; i < n; i++)
        if (ts[i].s == s && ts[i].p == p && ts[i].o == o)
            return true;
    return false;
}

static size_t formula_size(fixture *f, term_id formula) {
    size_t n;
    assert_int_equal(terms_kind(f->t, formula), TERM_FORMULA);
    terms_formula_triples(f->t, formula, &n);
    return n;
}

/* ---- directives, abbreviations, positions ---- */

static void test_prefixes_and_abbreviations(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, "@prefix : <" EX "> .\n"
                            "PREFIX ex: <" EX "x/>\n"
                            "prefix Ex2: <" EX "y/>\n"
                            ":s a ex:C ; :p :o1 , :o2 ; ;\n"
                            "   Ex2:q :o3 ; .\n");
    assert_int_equal(d->count, 4);
    assert_triple(d->statements[0].t, ex(f, "s"), T_RDF_TYPE, ex(f, "x/C"));
    assert_triple(d->statements[1].t, ex(f, "s"), ex(f, "p"), ex(f, "o1"));
    assert_triple(d->statements[2].t, ex(f, "s"), ex(f, "p"), ex(f, "o2"));
    assert_triple(d->statements[3].t, ex(f, "s"), ex(f, "y/q"), ex(f, "o3"));
}

static void test_prefix_redefinition_and_empty_prefix(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, "@prefix : <" EX "a/> .\n:x :p :y .\n@prefix : <" EX "b/> .\n:x :p :y .\n");
    assert_int_equal(d->count, 2);
    assert_triple(d->statements[0].t, ex(f, "a/x"), ex(f, "a/p"), ex(f, "a/y"));
    assert_triple(d->statements[1].t, ex(f, "b/x"), ex(f, "b/p"), ex(f, "b/y"));
}

static void test_statement_positions(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "# comment\n"
                                     ":a :b :c .  :d :e :f ;\n"
                                     "   :g :h .\n"
                                     "\t{ :x :y :z } => { :z :y :x } .\n"
                                     "  \"\u00e9\" :p :o. :q :r :s .\n");
    assert_int_equal(d->count, 6);
    unsigned expected[][2] = {{3, 1}, {3, 13}, {3, 13}, {5, 2}, {6, 3}, {6, 14}};
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(d->statements[i].line, expected[i][0]);
        assert_int_equal(d->statements[i].col, expected[i][1]);
    }
}

static void test_comments_and_hash_in_iris(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, "# leading\n<http://a/#s> <http://a/#p> \"# not a comment\" . # trailing\n# end");
    assert_int_equal(d->count, 1);
    assert_triple(d->statements[0].t, iri(f, "http://a/#s"), iri(f, "http://a/#p"),
                  terms_string(f->t, "# not a comment"));
}

/* ---- rules and formulas ---- */

static void test_rules_are_log_implies(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "{ ?x :p ?y } => { ?y :q ?x } .\n"
                                     "{ ?y :q ?x } <= { ?x :p ?y } .\n"
                                     ":a <= :b .\n"
                                     "?h <= :c .\n");
    assert_int_equal(d->count, 4);
    triple rule = d->statements[0].t;
    assert_int_equal(rule.p, T_LOG_IMPLIES);
    assert_int_equal(formula_size(f, rule.s), 1);
    assert_true(formula_has(f, rule.s, var(f, "x"), ex(f, "p"), var(f, "y")));
    assert_true(formula_has(f, rule.o, var(f, "y"), ex(f, "q"), var(f, "x")));
    /* `<=` is the same statement with body and head in place, marked as written backward */
    assert_triple(d->statements[1].t, rule.s, T_LOG_IMPLIES, rule.o);
    assert_false(d->statements[0].backward);
    assert_true(d->statements[1].backward);
    /* between terms that cannot make a rule, `<=` is log:isImpliedBy as the spec reads it */
    assert_triple(d->statements[2].t, ex(f, "a"), iri(f, "http://www.w3.org/2000/10/swap/log#isImpliedBy"), ex(f, "b"));
    assert_false(d->statements[2].backward);
    assert_triple(d->statements[3].t, ex(f, "c"), T_LOG_IMPLIES, var(f, "h"));
    assert_true(d->statements[3].backward);
}

static void test_true_and_bare_formulas(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "true => { :a :b :c } .\n"
                                     "{ :d :e :f } .\n"
                                     "{ :g :h :i }\n"
                                     "{ :j :k :l }\n"
                                     "@prefix x: <" EX "> .\n"
                                     "{ } => { :m :n :o } .\n");
    assert_int_equal(d->count, 5);
    term_id empty = d->statements[0].t.s;
    assert_int_equal(formula_size(f, empty), 0);
    const char *heads[] = {"a", "d", "g", "j", "m"};
    for (size_t i = 0; i < 5; i++) {
        triple tr = d->statements[i].t;
        assert_int_equal(tr.s, empty);
        assert_int_equal(tr.p, T_LOG_IMPLIES);
        assert_int_equal(formula_size(f, tr.o), 1);
        size_t n;
        assert_int_equal(terms_formula_triples(f->t, tr.o, &n)[0].s, ex(f, heads[i]));
    }
    assert_int_equal(d->statements[2].line, 4);
    assert_int_equal(d->statements[3].line, 5);
}

static void test_nested_formulas_in_heads(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, "@prefix http: <http://www.w3.org/2011/http#> .\n"
                            "@prefix httpm: <http://www.w3.org/2011/http-methods#> .\n" PREAMBLE
                            "{ ?x :p ?y } => {\n"
                            "  [] http:mthd httpm:PUT ; http:requestURI ?x ;\n"
                            "     http:body { ?x :state :done . ?x :q { :deep :er ?y } } .\n"
                            "} .\n");
    assert_int_equal(d->count, 1);
    term_id head = d->statements[0].t.o;
    assert_int_equal(formula_size(f, head), 3);
    size_t n;
    const triple *ts = terms_formula_triples(f->t, head, &n);
    term_id request = ts[0].s, body = 0;
    assert_int_equal(terms_kind(f->t, request), TERM_BNODE);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ts[i].s, request);
        if (ts[i].p == iri(f, "http://www.w3.org/2011/http#body"))
            body = ts[i].o;
    }
    assert_true(formula_has(f, head, request, iri(f, "http://www.w3.org/2011/http#mthd"),
                            iri(f, "http://www.w3.org/2011/http-methods#PUT")));
    assert_int_equal(formula_size(f, body), 2);
    assert_true(formula_has(f, body, var(f, "x"), ex(f, "state"), ex(f, "done")));
    const triple *inner = terms_formula_triples(f->t, body, &n);
    term_id deep = inner[0].p == ex(f, "q") ? inner[0].o : inner[1].o;
    assert_int_equal(formula_size(f, deep), 1);
    assert_true(formula_has(f, deep, ex(f, "deep"), ex(f, "er"), var(f, "y")));
}

static void test_formula_statements_and_directives_inside(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "{ :a :b :c . :d :e :f . } => { @prefix y: <" EX "y/> . y:g y:h y:i } .\n"
                                     "{ { :a :b :c } => { :d :e :f } } => { } .\n");
    assert_int_equal(d->count, 2);
    assert_int_equal(formula_size(f, d->statements[0].t.s), 2);
    assert_true(formula_has(f, d->statements[0].t.o, ex(f, "y/g"), ex(f, "y/h"), ex(f, "y/i")));
    term_id outer = d->statements[1].t.s;
    assert_int_equal(formula_size(f, outer), 1);
    size_t n;
    assert_int_equal(terms_formula_triples(f->t, outer, &n)[0].p, T_LOG_IMPLIES);
}

static void test_same_as_and_variables(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "{ ?a_1 ?p ?x-y } => { ?a_1 = ?x-y } .\n:a = :b .\n");
    assert_int_equal(d->count, 2);
    term_id same_as = iri(f, "http://www.w3.org/2002/07/owl#sameAs");
    assert_true(formula_has(f, d->statements[0].t.s, var(f, "a_1"), var(f, "p"), var(f, "x-y")));
    assert_true(formula_has(f, d->statements[0].t.o, var(f, "a_1"), same_as, var(f, "x-y")));
    assert_triple(d->statements[1].t, ex(f, "a"), same_as, ex(f, "b"));
}

/* ---- lists and blank nodes ---- */

static void test_lists(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":s :p ( 1 :x ( \"a\" ) () ) .\n( :a ) :q () .\n");
    assert_int_equal(d->count, 2);
    term_id list = d->statements[0].t.o;
    assert_int_equal(terms_kind(f->t, list), TERM_LIST);
    size_t n;
    const term_id *items = terms_list_items(f->t, list, &n);
    assert_int_equal(n, 4);
    assert_int_equal(items[0], typed(f, "1", T_XSD_INTEGER));
    assert_int_equal(items[1], ex(f, "x"));
    term_id inner_items[] = {terms_string(f->t, "a")};
    assert_int_equal(items[2], terms_list(f->t, inner_items, 1));
    term_id empty = items[3];
    assert_int_equal(terms_kind(f->t, empty), TERM_LIST);
    assert_int_equal(d->statements[1].t.o, empty);
    assert_int_equal(terms_kind(f->t, d->statements[1].t.s), TERM_LIST);
}

static void test_blank_node_property_lists(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":s :p [ :q :r ; :t [ :u :v ] ] , [] .\n[ :only :this ] .\n[] :w :x .\n");
    assert_int_equal(d->count, 7);
    /* a bracket's triples come before the triple using it */
    term_id outer = d->statements[0].t.s, inner = d->statements[1].t.s;
    assert_int_equal(terms_kind(f->t, outer), TERM_BNODE);
    assert_int_not_equal(outer, inner);
    assert_triple(d->statements[0].t, outer, ex(f, "q"), ex(f, "r"));
    assert_triple(d->statements[1].t, inner, ex(f, "u"), ex(f, "v"));
    assert_triple(d->statements[2].t, outer, ex(f, "t"), inner);
    assert_triple(d->statements[3].t, ex(f, "s"), ex(f, "p"), outer);
    term_id anon = d->statements[4].t.o;
    assert_int_equal(terms_kind(f->t, anon), TERM_BNODE);
    assert_int_not_equal(anon, outer);
    assert_int_not_equal(anon, inner);
    assert_triple(d->statements[5].t, d->statements[5].t.s, ex(f, "only"), ex(f, "this"));
    assert_int_equal(d->statements[5].line, 3);
    assert_int_equal(terms_kind(f->t, d->statements[6].t.s), TERM_BNODE);
    assert_int_not_equal(d->statements[6].t.s, anon);
}

static void test_blank_node_labels_scoped_to_document(void **state) {
    fixture *f = *state;
    const char *text = PREAMBLE "_:x :p _:y .\n_:x :q _:x .\n{ _:x :r ?v } => { _:y :s ?v } .\n";
    n3_doc *d = parse_ok(f, text);
    assert_int_equal(d->count, 3);
    term_id x = d->statements[0].t.s, y = d->statements[0].t.o;
    assert_int_equal(terms_kind(f->t, x), TERM_BNODE);
    assert_int_not_equal(x, y);
    assert_triple(d->statements[1].t, x, ex(f, "q"), x);
    assert_true(formula_has(f, d->statements[2].t.s, x, ex(f, "r"), var(f, "v")));
    assert_true(formula_has(f, d->statements[2].t.o, y, ex(f, "s"), var(f, "v")));
    /* the label is not the node's name, and another parse gets other nodes */
    assert_int_not_equal(x, terms_bnode(f->t, "x", 1));
    d = parse_ok(f, text);
    assert_int_not_equal(d->statements[0].t.s, x);
    assert_int_not_equal(d->statements[0].t.o, y);
    assert_int_equal(d->statements[1].t.s, d->statements[0].t.s);
}

/* ---- literals ---- */

static void test_string_forms_and_escapes(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":s :p \"a\\\"b\" , 'c\\'d' , \"\"\"long \"quoted\" \"\"\n text\"\"\" ,\n"
                                     "  '''it's\n''' , \"\\t\\b\\n\\r\\f\\\\\" , \"\\u00E9\\U0001F600\\u20AC\" ,"
                                     " \"\" , '' , \"caf\xC3\xA9\" .\n");
    const char *expected[] = {"a\"b", "c'd", "long \"quoted\" \"\"\n text", "it's\n", "\t\b\n\r\f\\",
                              "\xC3\xA9\xF0\x9F\x98\x80\xE2\x82\xAC", "", "", "caf\xC3\xA9"};
    assert_int_equal(d->count, 9);
    for (size_t i = 0; i < 9; i++)
        assert_int_equal(d->statements[i].t.o, terms_string(f->t, expected[i]));
}

static void test_language_and_datatypes(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
                                     ":s :p \"chat\"@fr , \"x\"@en-GB , \"1\"^^xsd:int , \"2\"^^<http://t/dt> ,"
                                     " \"s\"^^xsd:string , \"r\"^^<rel> .\n");
    assert_int_equal(d->count, 6);
    term_id fr = d->statements[0].t.o;
    assert_int_equal(fr, terms_literal(f->t, "chat", 4, 0, "fr", 2));
    assert_string_equal(terms_lang(f->t, d->statements[1].t.o), "en-gb");
    assert_int_equal(d->statements[2].t.o, typed(f, "1", iri(f, "http://www.w3.org/2001/XMLSchema#int")));
    assert_int_equal(d->statements[3].t.o, typed(f, "2", iri(f, "http://t/dt")));
    assert_int_equal(d->statements[4].t.o, terms_string(f->t, "s"));
    assert_int_equal(d->statements[5].t.o, typed(f, "r", iri(f, "http://ex.org/dir/rel")));
}

static void test_numbers_keep_their_lexical_form(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":s :p 42 , -7 , +01 , 1.50 , -.5 , 3.0e-2 , 1E3 , 1.e5 , .5E1 ,\n"
                                     "  true , false .\n"
                                     ":s :q 1.\n");
    struct {
        const char *lex;
        term_id datatype;
    } expected[] = {{"42", T_XSD_INTEGER},  {"-7", T_XSD_INTEGER},  {"+01", T_XSD_INTEGER},
                    {"1.50", T_XSD_DECIMAL}, {"-.5", T_XSD_DECIMAL}, {"3.0e-2", T_XSD_DOUBLE},
                    {"1E3", T_XSD_DOUBLE},  {"1.e5", T_XSD_DOUBLE}, {".5E1", T_XSD_DOUBLE}};
    assert_int_equal(d->count, 12);
    for (size_t i = 0; i < 9; i++)
        assert_int_equal(d->statements[i].t.o, typed(f, expected[i].lex, expected[i].datatype));
    assert_int_equal(d->statements[9].t.o, T_TRUE);
    assert_int_equal(d->statements[10].t.o, T_FALSE);
    /* "1." is the integer 1 ending the statement */
    assert_int_equal(d->statements[11].t.o, typed(f, "1", T_XSD_INTEGER));
}

/* ---- names and IRIs ---- */

static void test_prefixed_name_locals(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":a.b :p :c.\n:1x :p :a\\-b\\.c\\~ .\n:s :p :x%20y , :k:v , :_u , :e\\. .\n");
    assert_int_equal(d->count, 6);
    assert_triple(d->statements[0].t, ex(f, "a.b"), ex(f, "p"), ex(f, "c"));
    assert_triple(d->statements[1].t, ex(f, "1x"), ex(f, "p"), ex(f, "a-b.c~"));
    assert_int_equal(d->statements[2].t.o, ex(f, "x%20y"));
    assert_int_equal(d->statements[3].t.o, ex(f, "k:v"));
    assert_int_equal(d->statements[4].t.o, ex(f, "_u"));
    assert_int_equal(d->statements[5].t.o, ex(f, "e."));
}

static void test_base_resolution(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, "<> <#p> <x> .\n"
                            "<../up> <?q> <//host/y> .\n"
                            "<./a/../b> <http://abs/z/../w> <#> .\n"
                            "@base <sub/> .\n"
                            "<c> <../d> <http://other/e> .\n"
                            "BASE <http://h>\n"
                            "<f> <#g> <?q> .\n"
                            "@prefix p: <rel/> .\n"
                            "p:x p:y p:z .\n");
    assert_int_equal(d->count, 6);
    assert_triple(d->statements[0].t, iri(f, BASE), iri(f, BASE "#p"), iri(f, "http://ex.org/dir/x"));
    assert_triple(d->statements[1].t, iri(f, "http://ex.org/up"), iri(f, "http://ex.org/dir/doc?q"),
                  iri(f, "http://host/y"));
    assert_triple(d->statements[2].t, iri(f, "http://ex.org/dir/b"), iri(f, "http://abs/w"), iri(f, BASE "#"));
    assert_triple(d->statements[3].t, iri(f, "http://ex.org/dir/sub/c"), iri(f, "http://ex.org/dir/d"),
                  iri(f, "http://other/e"));
    /* a base without a path: RFC 3986 5.2.3 merges with "/" */
    assert_triple(d->statements[4].t, iri(f, "http://h/f"), iri(f, "http://h#g"), iri(f, "http://h?q"));
    assert_triple(d->statements[5].t, iri(f, "http://h/rel/x"), iri(f, "http://h/rel/y"), iri(f, "http://h/rel/z"));
}

static void test_prefix_iri_resolved_against_base(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, "@prefix p: <rel/> .\np:x p:y <=x> .\n{ p:a p:b p:c }<={ p:c p:b p:a } .\n");
    assert_int_equal(d->count, 2);
    assert_triple(d->statements[0].t, iri(f, "http://ex.org/dir/rel/x"), iri(f, "http://ex.org/dir/rel/y"),
                  iri(f, "http://ex.org/dir/=x"));
    assert_int_equal(d->statements[1].t.p, T_LOG_IMPLIES);
    assert_true(formula_has(f, d->statements[1].t.o, iri(f, "http://ex.org/dir/rel/a"),
                            iri(f, "http://ex.org/dir/rel/b"), iri(f, "http://ex.org/dir/rel/c")));
}

static void test_no_base_keeps_relative_iris(void **state) {
    fixture *f = *state;
    const char *text = "<a> <#b> <../c> .";
    n3_error err;
    assert_int_equal(n3_parse(f->t, text, strlen(text), "t.n3", NULL, &f->doc, &err), 0);
    assert_int_equal(f->doc.count, 1);
    assert_triple(f->doc.statements[0].t, iri(f, "a"), iri(f, "#b"), iri(f, "../c"));
}

static void test_iri_escapes_and_unicode(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, "<http://a/\\u00E9> <http://a/p> <http://a/\xE2\x82\xAC\\U0001F600> .");
    assert_int_equal(d->count, 1);
    assert_int_equal(d->statements[0].t.s, iri(f, "http://a/\xC3\xA9"));
    assert_int_equal(d->statements[0].t.o, iri(f, "http://a/\xE2\x82\xAC\xF0\x9F\x98\x80"));
}

static void test_empty_input_and_byte_order_mark(void **state) {
    fixture *f = *state;
    assert_int_equal(parse_ok(f, "")->count, 0);
    assert_int_equal(parse_ok(f, "  # only a comment\n")->count, 0);
    n3_doc *d = parse_ok(f, "\xEF\xBB\xBF<http://a/s> <http://a/p> <http://a/o> .");
    assert_int_equal(d->count, 1);
    assert_int_equal(d->statements[0].col, 1);
}

static void test_many_statements(void **state) {
    fixture *f = *state;
    buf text = {0};
    buf_puts(&text, PREAMBLE);
    for (int i = 0; i < 20000; i++)
        buf_printf(&text, ":s%d :p \"v%d\" ; :q [ :r %d ] .\n", i, i, i);
    n3_doc *d = parse_ok(f, buf_cstr(&text));
    buf_free(&text);
    assert_int_equal(d->count, 60000);
    assert_int_equal(d->statements[59999].line, 20001);
    assert_int_equal(d->statements[59999].t.s, ex(f, "s19999"));
}

/* ---- the rest of the N3 grammar ---- */

static void test_inverse_verbs(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":a is :p of :b , :c ; :q :d .\n"
                                     ":e @is :p @of :f .\n"
                                     ":g <- :p :h ; <-:q :i .\n"
                                     "<-s> <- <-p> <-o> .\n"
                                     "<-s> <-<-p> <-o> .\n");
    assert_int_equal(d->count, 8);
    assert_triple(d->statements[0].t, ex(f, "b"), ex(f, "p"), ex(f, "a"));
    assert_triple(d->statements[1].t, ex(f, "c"), ex(f, "p"), ex(f, "a"));
    assert_triple(d->statements[2].t, ex(f, "a"), ex(f, "q"), ex(f, "d"));
    assert_triple(d->statements[3].t, ex(f, "f"), ex(f, "p"), ex(f, "e"));
    assert_triple(d->statements[4].t, ex(f, "h"), ex(f, "p"), ex(f, "g"));
    assert_triple(d->statements[5].t, ex(f, "i"), ex(f, "q"), ex(f, "g"));
    /* `<-` followed by an IRI's '>' is an IRI; before a space or '<' it is the operator */
    term_id s = iri(f, "http://ex.org/dir/-s"), p = iri(f, "http://ex.org/dir/-p"), o = iri(f, "http://ex.org/dir/-o");
    assert_triple(d->statements[6].t, o, p, s);
    assert_triple(d->statements[7].t, o, p, s);
    for (size_t i = 0; i < d->count; i++)
        assert_false(d->statements[i].backward);
}

static void test_has_and_at_keywords(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":a has :p :b ; @has :q :c ; @a :C .\n");
    assert_int_equal(d->count, 3);
    assert_triple(d->statements[0].t, ex(f, "a"), ex(f, "p"), ex(f, "b"));
    assert_triple(d->statements[1].t, ex(f, "a"), ex(f, "q"), ex(f, "c"));
    assert_triple(d->statements[2].t, ex(f, "a"), T_RDF_TYPE, ex(f, "C"));
}

static void test_paths(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":joe!:mother!:office :in :x .\n"
                                     ":y :p \"v\"^:q .\n"
                                     ":z :r!:s :t .\n"
                                     ":u :v ( :w^:k ) .\n");
    assert_int_equal(d->count, 9);
    /* left to right: joe's mother's office */
    term_id mother = d->statements[0].t.o, office = d->statements[1].t.o;
    assert_int_equal(terms_kind(f->t, mother), TERM_BNODE);
    assert_int_equal(terms_kind(f->t, office), TERM_BNODE);
    assert_int_not_equal(mother, office);
    assert_triple(d->statements[0].t, ex(f, "joe"), ex(f, "mother"), mother);
    assert_triple(d->statements[1].t, mother, ex(f, "office"), office);
    assert_triple(d->statements[2].t, office, ex(f, "in"), ex(f, "x"));
    /* `^` goes backward: what has "v" as its :q */
    term_id back = d->statements[3].t.s;
    assert_int_equal(terms_kind(f->t, back), TERM_BNODE);
    assert_triple(d->statements[3].t, back, ex(f, "q"), terms_string(f->t, "v"));
    assert_triple(d->statements[4].t, ex(f, "y"), ex(f, "p"), back);
    /* a path as predicate and inside a list */
    term_id predicate = d->statements[5].t.o;
    assert_triple(d->statements[5].t, ex(f, "r"), ex(f, "s"), predicate);
    assert_triple(d->statements[6].t, ex(f, "z"), predicate, ex(f, "t"));
    term_id item = d->statements[7].t.s;
    assert_triple(d->statements[7].t, item, ex(f, "k"), ex(f, "w"));
    assert_triple(d->statements[8].t, ex(f, "u"), ex(f, "v"), terms_list(f->t, &item, 1));
}

static void test_undeclared_default_prefix_is_document_hash(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, ":a :b :c .\n@base <http://other/x> .\n:d :e :f .\n@prefix : <" EX "> .\n:g :h :i .\n");
    assert_int_equal(d->count, 3);
    assert_triple(d->statements[0].t, iri(f, BASE "#a"), iri(f, BASE "#b"), iri(f, BASE "#c"));
    assert_triple(d->statements[1].t, iri(f, "http://other/x#d"), iri(f, "http://other/x#e"),
                  iri(f, "http://other/x#f"));
    assert_triple(d->statements[2].t, ex(f, "g"), ex(f, "h"), ex(f, "i"));
    /* without a base it stays relative, as IRIs do */
    const char *text = ":a :b :c .";
    n3_doc_free(&f->doc);
    assert_int_equal(n3_parse(f->t, text, strlen(text), "t.n3", NULL, &f->doc, NULL), 0);
    assert_triple(f->doc.statements[0].t, iri(f, "#a"), iri(f, "#b"), iri(f, "#c"));
}

static void test_iri_property_lists(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "[ id :s :p :o ; :q :r ] .\n"
                                     ":a :b [\n  id <n>\n  :c \"1\" ] .\n");
    assert_int_equal(d->count, 4);
    assert_triple(d->statements[0].t, ex(f, "s"), ex(f, "p"), ex(f, "o"));
    assert_triple(d->statements[1].t, ex(f, "s"), ex(f, "q"), ex(f, "r"));
    term_id node = iri(f, "http://ex.org/dir/n");
    assert_triple(d->statements[2].t, node, ex(f, "c"), terms_string(f->t, "1"));
    assert_triple(d->statements[3].t, ex(f, "a"), ex(f, "b"), node);
}

static void test_any_expression_as_predicate_and_subject_alone(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE ":a \"hello\" :c .\n"
                                     ":d { :e :f :g } :h .\n"
                                     ":i .\n"
                                     "( 1 ) .\n"
                                     "{ :j } => { :k :l :m } .\n");
    assert_int_equal(d->count, 3);
    assert_triple(d->statements[0].t, ex(f, "a"), terms_string(f->t, "hello"), ex(f, "c"));
    assert_true(formula_has(f, d->statements[1].t.p, ex(f, "e"), ex(f, "f"), ex(f, "g")));
    assert_int_equal(formula_size(f, d->statements[2].t.s), 0);
    assert_int_equal(d->statements[2].t.p, T_LOG_IMPLIES);
}

static void test_quantifiers(void **state) {
    fixture *f = *state;
    n3_doc *d = parse_ok(f, PREAMBLE "@forAll :x , <#y> .\n"
                                     "{ :x :p <#y> } => { <#y> :q :x } .\n"
                                     ":s :t { @forSome :x . :x :u :v . { :x :w :z } :in :s } .\n"
                                     ":x :after :s .\n");
    assert_int_equal(d->count, 3);
    term_id x = var(f, EX "x"), y = var(f, BASE "#y");
    assert_true(formula_has(f, d->statements[0].t.s, x, ex(f, "p"), y));
    assert_true(formula_has(f, d->statements[0].t.o, y, ex(f, "q"), x));
    /* @forSome inside a formula: a blank node there, nested formulas included */
    term_id quoted = d->statements[1].t.o;
    assert_int_equal(formula_size(f, quoted), 2);
    size_t n;
    const triple *ts = terms_formula_triples(f->t, quoted, &n);
    term_id some = ts[0].p == ex(f, "u") ? ts[0].s : ts[1].s;
    term_id inner = ts[0].p == ex(f, "u") ? ts[1].s : ts[0].s;
    assert_int_equal(terms_kind(f->t, some), TERM_BNODE);
    assert_true(formula_has(f, quoted, some, ex(f, "u"), ex(f, "v")));
    assert_true(formula_has(f, inner, some, ex(f, "w"), ex(f, "z")));
    /* after the formula closes, the document's @forAll holds again */
    assert_triple(d->statements[2].t, x, ex(f, "after"), ex(f, "s"));
    /* in another document :x is an IRI again */
    d = parse_ok(f, PREAMBLE ":x :p :o .");
    assert_triple(d->statements[0].t, ex(f, "x"), ex(f, "p"), ex(f, "o"));
}

/* tests/n3suite/N3Tests/cwm_syntax/too-nested.n3 (1080 nested formulas) passes the one nesting bound of
 * every reader (rdf/nesting.h): refused where it does, not parsed. */
static void test_deep_nesting_of_the_n3_suite(void **state) {
    fixture *f = *state;
    buf deep = {0};
    for (int i = 0; i < 1080; i++)
        buf_puts(&deep, "{");
    buf_puts(&deep, ":a");
    for (int i = 0; i < 1080; i++)
        buf_puts(&deep, "}");
    buf_puts(&deep, ".");
    char message[120];
    snprintf(message, sizeof message, "t.n3:1:%d: " NESTING_ERROR " ('{', '(' and '[')", MAX_NESTING + 1);
    assert_parse_error(f, buf_cstr(&deep), message);
    buf_free(&deep);
}

/* U+0000 in a string, escaped or raw, is refused as every RDF reader refuses it (rdf/term_rules.h). */
static void test_nul_in_strings_is_refused(void **state) {
    fixture *f = *state;
    assert_parse_error(f, "<http://a/s> <http://a/p> \"a\\u0000b\" .", "t.n3:1:29: " RDF_NUL_LITERAL_ERROR);
    assert_parse_error(f, "<http://a/s> <http://a/p> \"\"\"a\\U00000000\"\"\" .", "t.n3:1:31: " RDF_NUL_LITERAL_ERROR);
    static const char raw[] = "<http://a/s> <http://a/p> \"a\0b\" .";
    n3_error err;
    n3_doc_free(&f->doc);
    assert_int_equal(n3_parse(f->t, raw, sizeof raw - 1, "t.n3", NULL, &f->doc, &err), -1);
    assert_string_equal(err.message, "t.n3:1:29: " RDF_NUL_LITERAL_ERROR);
    assert_int_equal(parse_ok(f, "<http://a/s> <http://a/p> \"a\\\\u0000b\" .")->count, 1);
}

/* ---- errors ---- */

static void test_error_messages(void **state) {
    fixture *f = *state;
    static const struct {
        const char *text, *message;
    } cases[] = {
        /* unterminated strings and IRIs point at their start */
        {PREAMBLE ":s :p \"abc", "t.n3:2:7: expected '\"' to close the string, found end of input"},
        {PREAMBLE ":s :p 'ab\n' .", "t.n3:2:7: expected \"'\" to close the string on its line, found end of line"},
        {PREAMBLE ":s :p \"\"\"abc\n\n", "t.n3:2:7: expected '\"\"\"' to close the string, found end of input"},
        {PREAMBLE ":s :p <http://a", "t.n3:2:7: expected '>' to close the IRI, found end of input"},
        /* bad escapes point at the backslash */
        {PREAMBLE ":s :p \"a\\qb\" .",
         "t.n3:2:9: expected " ESCAPE_HELP ", found '\\q'"},
        {PREAMBLE ":s :p \"\\u12G4\" .",
         "t.n3:2:8: expected " ESCAPE_HELP ", found '\\u12G'"},
        {PREAMBLE ":s :p \"\\uD800\" .", "t.n3:2:8: expected a Unicode code point in the escape, found '\\uD800'"},
        {PREAMBLE ":s :p <a\\n> .", "t.n3:2:9: expected an escape \\uXXXX or \\UXXXXXXXX in the IRI, found '\\n'"},
        {PREAMBLE ":a\\qb :p :o .",
         "t.n3:2:3: expected an escaped punctuation character in a prefixed name, found '\\q'"},
        {PREAMBLE ":a :b :c%2 .", "t.n3:2:9: expected two hex digits after '%' in a prefixed name, found '%2 '"},
        /* invalid IRI characters point at the character */
        {PREAMBLE ":s :p <http://a b> .", "t.n3:2:16: expected '>' or a character allowed in IRIs, found ' '"},
        {PREAMBLE ":s :p <a\\u0020b> .", "t.n3:2:9: expected a character allowed in IRIs, found '\\u0020'"},
        {PREAMBLE ":s :p \"\xFF\" .", "t.n3:2:8: expected UTF-8 text, found byte 0xFF"},
        /* undefined prefix */
        {PREAMBLE "foo:bar :p :o .", "t.n3:2:1: expected a declared prefix, found undefined prefix 'foo:'"},
        {PREAMBLE ":s :p \"x\"^^xsd:int .", "t.n3:2:12: expected a declared prefix, found undefined prefix 'xsd:'"},
        /* unexpected end of input */
        {PREAMBLE ":s :p", "t.n3:2:6: expected an object, found end of input"},
        {PREAMBLE ":s :p :o", "t.n3:2:9: expected '.' after statement, found end of input"},
        /* unbalanced braces, brackets, parentheses */
        {PREAMBLE "{ :a :b :c .", "t.n3:2:13: expected '}' to close the '{' opened at 2:1, found end of input"},
        {PREAMBLE "{ :a :b :c ] .", "t.n3:2:12: expected '}' to close the '{' opened at 2:1, found ']'"},
        {PREAMBLE "[ :p :o } .", "t.n3:2:9: expected ']' to close the '[' opened at 2:1, found '}'"},
        {PREAMBLE ":s :p ( 1 2 ] .", "t.n3:2:13: expected ')' to close the '(' opened at 2:7, found ']'"},
        {PREAMBLE "}", "t.n3:2:1: expected a statement, found '}'"},
        {PREAMBLE "{ :a :b } .", "t.n3:2:9: expected an object, found '}'"},
        /* no predicate where one must stand */
        {PREAMBLE ":s ; :o .", "t.n3:2:4: expected a predicate, found ';'"},
        {PREAMBLE ":s @of :o .", "t.n3:2:4: expected a predicate, found '@of'"},
        {PREAMBLE ":s this :o .", "t.n3:2:4: expected a predicate, found 'this'"},
        /* missing '.' */
        {PREAMBLE "\n:a :b :c ; :d \"\xC3\xA9\" }", "t.n3:3:19: expected '.' after statement, found '}'"},
        {PREAMBLE ":a :b :c :d :e .", "t.n3:2:10: expected '.' after statement, found ':d'"},
        {PREAMBLE "@prefix x: <http://x/> :a :b :c .", "t.n3:2:24: expected '.' after @prefix, found ':a'"},
        /* everything else */
        {PREAMBLE "@keywords a .", "t.n3:2:1: expected @prefix, @base, @forAll or @forSome, found '@keywords'"},
        {"@prefix x <a> .", "t.n3:1:9: expected a prefix name ending in ':', found 'x'"},
        {PREAMBLE ":s :p \"x\"^^\"y\" .", "t.n3:2:12: expected a datatype IRI after '^^', found literal \"y\""},
        {PREAMBLE ":s :p ? .", "t.n3:2:8: expected a variable name after '?', found ' '"},
        {PREAMBLE ":s :p _: .", "t.n3:2:9: expected a blank node label after '_:', found ' '"},
        {PREAMBLE ":s :p :o , ! .", "t.n3:2:12: expected an object, found '!'"},
        {PREAMBLE ":s :p \\ .", "t.n3:2:7: expected a term or punctuation, found '\\'"},
        {PREAMBLE ":s :p :o , .", "t.n3:2:12: expected an object, found '.'"},
        {PREAMBLE ":s a :C , a .", "t.n3:2:11: expected an object, found 'a'"},
        {PREAMBLE "is :p :o .", "t.n3:2:1: expected a subject, found 'is'"},
        /* the N3 constructs, misused */
        {PREAMBLE ":a is :p :b .", "t.n3:2:10: expected 'of' after 'is' and its predicate, found ':b'"},
        {PREAMBLE ":a has . ", "t.n3:2:8: expected a predicate after 'has', found '.'"},
        {PREAMBLE ":a <- . ", "t.n3:2:7: expected a predicate after '<-', found '.'"},
        {PREAMBLE ":a :b .", "t.n3:2:7: expected an object, found '.'"},
        {PREAMBLE "^:s :p :o .", "t.n3:2:1: expected a subject, found '^'"},
        {PREAMBLE ":a!", "t.n3:2:4: expected a predicate after '!', found end of input"},
        {PREAMBLE "\"v\"^ . ", "t.n3:2:6: expected a predicate after '^', found '.'"},
        {PREAMBLE "\"v\"^:p :b .", "t.n3:2:11: expected an object, found '.'"},
        {PREAMBLE "[ id _:b :p :o ] .", "t.n3:2:6: expected an IRI after 'id', found '_:b'"},
        {PREAMBLE "[ id :s ; :p :o ] .", "t.n3:2:9: expected a predicate, found ';'"},
        {PREAMBLE "[ id :s , :t :p :o ] .", "t.n3:2:9: expected a predicate, found ','"},
        {PREAMBLE "[ id :s ] .", "t.n3:2:9: expected a predicate, found ']'"},
        {PREAMBLE "@forAll ?x .", "t.n3:2:9: expected an IRI after @forAll, found '?x'"},
        {PREAMBLE "@forSome :x :y .", "t.n3:2:13: expected ',' or '.' after @forSome, found ':y'"},
        {PREAMBLE "this :a :b .", "t.n3:2:1: expected a subject, found 'this'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_parse_error(f, cases[i].text, cases[i].message);
}

static void test_error_fields_and_null_error(void **state) {
    fixture *f = *state;
    const char *text = "\n\n  <a> <b> <c> ;\n }";
    n3_error err;
    assert_int_equal(n3_parse(f->t, text, strlen(text), "rules.n3", NULL, &f->doc, &err), -1);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.col, 2);
    assert_string_equal(err.message, "rules.n3:4:2: expected '.' after statement, found '}'");
    assert_int_equal(n3_parse(f->t, text, strlen(text), "rules.n3", NULL, &f->doc, NULL), -1);
}

static void test_nesting_is_bounded(void **state) {
    fixture *f = *state;
    buf deep = {0};
    for (int i = 0; i < MAX_NESTING; i++)
        buf_puts(&deep, "(");
    for (int i = 0; i < MAX_NESTING; i++)
        buf_puts(&deep, ")");
    buf_puts(&deep, " <http://a/p> <http://a/o> .");
    assert_int_equal(parse_ok(f, buf_cstr(&deep))->count, 1);

    char message[200];
    deep.len = 0;
    for (int i = 0; i < 2 * MAX_NESTING; i++)
        buf_puts(&deep, "{ <http://a/s> <http://a/p> ");
    snprintf(message, sizeof message,
             "t.n3:1:%d: nested deeper than %d levels ('{', '(' and '[')", MAX_NESTING * 28 + 1,
             MAX_NESTING);
    assert_parse_error(f, buf_cstr(&deep), message);

    deep.len = 0;
    for (int i = 0; i < 100000; i++)
        buf_puts(&deep, "[");
    snprintf(message, sizeof message, "t.n3:1:%d: nested deeper than %d levels ('{', '(' and '[')", MAX_NESTING + 1,
             MAX_NESTING);
    assert_parse_error(f, buf_cstr(&deep), message);
    buf_free(&deep);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_prefixes_and_abbreviations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix_redefinition_and_empty_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_statement_positions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_comments_and_hash_in_iris, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rules_are_log_implies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_true_and_bare_formulas, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_formulas_in_heads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_formula_statements_and_directives_inside, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_as_and_variables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blank_node_property_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blank_node_labels_scoped_to_document, setup, teardown),
        cmocka_unit_test_setup_teardown(test_string_forms_and_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_language_and_datatypes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_numbers_keep_their_lexical_form, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefixed_name_locals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_base_resolution, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix_iri_resolved_against_base, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_base_keeps_relative_iris, setup, teardown),
        cmocka_unit_test_setup_teardown(test_iri_escapes_and_unicode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_input_and_byte_order_mark, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_statements, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inverse_verbs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_has_and_at_keywords, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_undeclared_default_prefix_is_document_hash, setup, teardown),
        cmocka_unit_test_setup_teardown(test_iri_property_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_any_expression_as_predicate_and_subject_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quantifiers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting_of_the_n3_suite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nul_in_strings_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_messages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_fields_and_null_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nesting_is_bounded, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
