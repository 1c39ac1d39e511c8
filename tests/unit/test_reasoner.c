/* test_reasoner.c: the rule compiler and the semi-naive engine: fixpoints, existentials and their
 * Skolemization, caps, request rules, strata, unification details, reports of rules that cannot fire. */
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
#include "reason/reasoner.h"

typedef struct world {
    terms *t;
    store *st;
    rule_set rules;
    buf log_text;
    log_sink log;
    term_id derived;
} world;

static void capture_log(void *user, enum log_level level, const char *message) {
    (void)level;
    buf *b = user;
    buf_puts(b, message);
    buf_putc(b, '\n');
}

static int setup(void **state) {
    world *w = xcalloc(1, sizeof *w);
    w->t = terms_new();
    w->st = store_new();
    w->log = (log_sink){.write = capture_log, .user = &w->log_text, .threshold = LOG_DEBUG};
    w->derived = terms_iri_cstr(w->t, "urn:ldgsm:derived");
    *state = w;
    return 0;
}

static int teardown(void **state) {
    world *w = *state;
    rule_set_free(&w->rules);
    store_free(w->st);
    terms_free(w->t);
    buf_free(&w->log_text);
    free(w);
    return 0;
}

/* Loads an N3 program: rules compiled, other statements as data of graph <urn:input>. */
static void load(world *w, const char *program) {
    n3_doc doc = {0};
    n3_error err;
    int rc = n3_parse(w->t, program, strlen(program), "test.n3", "http://ex.org/", &doc, &err);
    if (rc != 0)
        fail_msg("%s", err.message);
    rule_set_add_program(&w->rules, w->t, &doc, "test.n3", &w->log);
    term_id g = terms_iri_cstr(w->t, "urn:input");
    for (size_t i = 0; i < doc.count; i++)
        if (!rule_statement(w->t, &doc.statements[i].t))
            store_add(w->st, doc.statements[i].t.s, doc.statements[i].t.p, doc.statements[i].t.o, g);
    n3_doc_free(&doc);
}

static reasoner *run(world *w, const reasoner_options *extra, int expected_rc) {
    reasoner_options opt = extra ? *extra : (reasoner_options){0};
    opt.derived_graph = w->derived;
    opt.log = &w->log;
    reasoner *r = reasoner_new(w->t, w->st, &opt);
    assert_int_equal(reasoner_run(r, &w->rules, 0), expected_rc);
    return r;
}

static term_id iri(world *w, const char *local) {
    char full[256];
    snprintf(full, sizeof full, "http://ex.org/%s", local);
    return terms_iri_cstr(w->t, full);
}

static bool holds(world *w, const char *s, const char *p, const char *o) {
    return store_find(w->st, iri(w, s), iri(w, p), iri(w, o)) != UINT32_MAX;
}

static void transitive_closure_reaches_fixpoint(void **state) {
    world *w = *state;
    buf program = {0};
    buf_puts(&program, "@prefix : <http://ex.org/> .\n{ ?a :next ?b . ?b :next ?c . } => { ?a :next ?c . } .\n");
    for (int i = 0; i < 60; i++)
        buf_printf(&program, ":n%d :next :n%d .\n", i, i + 1);
    load(w, buf_cstr(&program));
    buf_free(&program);
    reasoner *r = run(w, NULL, 0);
    /* 61 nodes in a chain: 61*60/2 pairs in the closure, 60 of them given. */
    assert_int_equal(store_size(w->st), 61 * 60 / 2);
    assert_int_equal(reasoner_get_stats(r)->derived, 61 * 60 / 2 - 60);
    assert_true(holds(w, "n0", "next", "n60"));
    assert_false(holds(w, "n60", "next", "n0"));
    /* Derived triples carry the derived graph, given ones keep theirs. */
    uint32_t n = store_find(w->st, iri(w, "n0"), iri(w, "next"), iri(w, "n60"));
    assert_true(store_in_graph(w->st, n, w->derived));
    assert_false(store_in_graph(w->st, 0, w->derived));
    reasoner_free(r);
}

static void repeated_variable_must_agree(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n:a :p :a . :a :p :b .\n{ ?x :p ?x . } => { ?x a :Loop . } .\n");
    reasoner_free(run(w, NULL, 0));
    assert_int_not_equal(store_find(w->st, iri(w, "a"), T_RDF_TYPE, iri(w, "Loop")), UINT32_MAX);
    assert_int_equal(store_find(w->st, iri(w, "b"), T_RDF_TYPE, iri(w, "Loop")), UINT32_MAX);
    assert_int_equal(store_size(w->st), 3);
}

static void existentials_are_per_head_binding(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n:a :tag 1, 2, 3 . :b :tag 4 .\n"
            "{ ?x :tag ?t . } => { ?x :box _:n . _:n a :Box . } .\n");
    reasoner *r = run(w, NULL, 0);
    assert_int_equal(reasoner_get_stats(r)->fresh_nodes, 2);
    /* a second run over the same store with the same reasoner finds the same nodes: nothing new */
    uint32_t size = store_size(w->st);
    assert_int_equal(reasoner_run(r, &w->rules, 0), 0);
    assert_int_equal(store_size(w->st), size);
    reasoner_free(r);
}

static void non_terminating_chase_hits_cap(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n:a a :P .\n{ ?x a :P . } => { ?x :parent [ a :P ] . } .\n");
    reasoner_options opt = {.max_fresh_nodes = 50};
    reasoner *r = run(w, &opt, -1);
    assert_non_null(strstr(reasoner_error(r), "test.n3:3:1"));
    assert_non_null(strstr(reasoner_error(r), "fresh blank nodes"));
    assert_int_equal(reasoner_get_stats(r)->fresh_nodes, 50);
    reasoner_free(r);
}

static void derived_cap_names_rule(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n@prefix math: <http://www.w3.org/2000/10/swap/math#> .\n:c :n 0 .\n"
            "{ :c :n ?n . (?n 1) math:sum ?m . } => { :c :n ?m . } .\n");
    reasoner_options opt = {.max_derived = 100};
    reasoner *r = run(w, &opt, -1);
    assert_non_null(strstr(reasoner_error(r), "test.n3:4:1"));
    assert_non_null(strstr(reasoner_error(r), "more than 100"));
    reasoner_free(r);
}

typedef struct sink_record {
    world *w;
    term_id heads[8];
    int count;
} sink_record;

static void record_request(void *user, const rule *r, const triple *head, size_t n) {
    (void)r;
    sink_record *rec = user;
    if (rec->count < 8)
        rec->heads[rec->count] = terms_formula(rec->w->t, head, n);
    rec->count++;
}

static void request_rules_go_to_the_sink(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n@prefix http: <http://www.w3.org/2011/http#> .\n"
            ":lamp :state \"on\" .\n"
            "{ ?l :state \"on\" . } => { [] http:mthd :PUT ; http:requestURI ?l ; http:body { ?l :state \"off\" . } . } .\n");
    w->rules.rules[0]->is_request = true;
    sink_record rec = {.w = w};
    reasoner_options opt = {.request_sink = record_request, .request_sink_user = &rec};
    reasoner_free(run(w, &opt, 0));
    assert_int_equal(rec.count, 1);
    assert_int_equal(store_size(w->st), 1); /* nothing of the head entered the store */
    size_t n;
    const triple *ts = terms_formula_triples(w->t, rec.heads[0], &n);
    assert_int_equal(n, 3);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(terms_kind(w->t, ts[i].s), TERM_BNODE); /* the Skolemized request node */
        assert_int_equal(ts[i].s, ts[0].s);
        assert_true(terms_is_ground(w->t, ts[i].o));
    }
}

static void strata_run_separately(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n:a a :A .\n"
            "{ ?x a :A . } => { ?x a :B . } .\n{ ?x a :B . } => { ?x a :C . } .\n");
    w->rules.rules[1]->stratum = 1;
    reasoner_options opt = {.derived_graph = w->derived, .log = &w->log};
    reasoner *r = reasoner_new(w->t, w->st, &opt);
    assert_int_equal(reasoner_run(r, &w->rules, 0), 0);
    assert_int_not_equal(store_find(w->st, iri(w, "a"), T_RDF_TYPE, iri(w, "B")), UINT32_MAX);
    assert_int_equal(store_find(w->st, iri(w, "a"), T_RDF_TYPE, iri(w, "C")), UINT32_MAX);
    assert_int_equal(reasoner_run(r, &w->rules, 1), 0);
    assert_int_not_equal(store_find(w->st, iri(w, "a"), T_RDF_TYPE, iri(w, "C")), UINT32_MAX);
    reasoner_free(r);
}

static void list_patterns_unify(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n:a :pair (:x :y) . :b :pair (:z) .\n"
            "{ ?s :pair (?first ?second) . } => { ?s :first ?first ; :second ?second . } .\n");
    reasoner_free(run(w, NULL, 0));
    assert_true(holds(w, "a", "first", "x"));
    assert_true(holds(w, "a", "second", "y"));
    assert_int_equal(store_find(w->st, iri(w, "b"), iri(w, "first"), iri(w, "z")), UINT32_MAX);
}

/* A list bound by earlier atoms is looked up by index, not by a scan of every triple of its predicate: the
 * join of n instances with n list-keyed facts looks at O(n) triples, not n * n (a GSM set-up rule joining
 * (?A ?S) gx:stageFragment ?F made an agent of 10,000 instances quadratic). A collection written as
 * rdf:first/rdf:rest triples is still the same list. */
static void bound_lists_are_looked_up_by_index(void **state) {
    world *w = *state;
    enum { N = 400 };
    buf program = {0};
    buf_puts(&program, "@prefix : <http://ex.org/> .\n{ ?s :p ?o . (?s ?o) :q ?v . } => { ?s :r ?v . } .\n"
                       ":c :p :d . _:h <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> :c ; "
                       "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:t . "
                       "_:t <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> :d ; "
                       "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> . "
                       "_:h :q :fromCollection .\n");
    for (int i = 0; i < N; i++)
        buf_printf(&program, ":s%d :p :o%d . (:s%d :o%d) :q :v%d .\n", i, i, i, i, i);
    load(w, buf_cstr(&program));
    buf_free(&program);
    reasoner_free(run(w, NULL, 0));
    for (int i = 0; i < N; i += 97) {
        char s[16], v[16];
        snprintf(s, sizeof s, "s%d", i);
        snprintf(v, sizeof v, "v%d", i);
        assert_true(holds(w, s, "r", v));
    }
    assert_true(holds(w, "c", "r", "fromCollection"));
    assert_int_equal(store_count(w->st, 0, iri(w, "r"), 0, 0, store_size(w->st)), N + 1);
    const rule *r = w->rules.rules[0];
    assert_true(r->probed < 10 * N);
}

static void builtins_bind_and_filter(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n@prefix math: <http://www.w3.org/2000/10/swap/math#> .\n"
            ":a :v 2 . :b :v 7 .\n"
            "{ ?x :v ?v . ?v math:greaterThan 5 . (?v 10) math:product ?p . } => { ?x :big ?p . } .\n");
    reasoner_free(run(w, NULL, 0));
    term_id seventy = terms_literal(w->t, "70", 2, T_XSD_INTEGER, NULL, 0);
    assert_int_not_equal(store_find(w->st, iri(w, "b"), iri(w, "big"), seventy), UINT32_MAX);
    assert_int_equal(store_size(w->st), 3);
}

static void rules_that_cannot_fire_are_reported(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n@prefix math: <http://www.w3.org/2000/10/swap/math#> .\n"
            "@prefix log: <http://www.w3.org/2000/10/swap/log#> .\n:a :v 1 .\n"
            "{ ?x :v ?v . } => { ?x :w ?unbound . } .\n"
            "{ ?x :v ?v . (?v ?free) math:sum ?s . } => { ?x :s ?s . } .\n"
            "{ ?x :v ?v . ?v log:noSuchBuiltin ?y . } => { ?x :t ?y . } .\n");
    assert_true(w->rules.rules[0]->disabled);
    assert_true(w->rules.rules[1]->disabled);
    assert_true(w->rules.rules[2]->disabled);
    const char *log = buf_cstr(&w->log_text);
    assert_non_null(strstr(log, "test.n3:5:1"));
    assert_non_null(strstr(log, "?unbound"));
    assert_non_null(strstr(log, "test.n3:6:1"));
    assert_non_null(strstr(log, "never bound"));
    assert_non_null(strstr(log, "test.n3:7:1"));
    assert_non_null(strstr(log, "noSuchBuiltin"));
    reasoner_free(run(w, NULL, 0));
    assert_int_equal(store_size(w->st), 1);
}

static void empty_body_fires_once(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n{ } => { :a :b :c . } .\ntrue => { :d :e :f . } .\n");
    reasoner_free(run(w, NULL, 0));
    assert_true(holds(w, "a", "b", "c"));
    assert_true(holds(w, "d", "e", "f"));
}

static void continuing_after_new_data_completes_closure(void **state) {
    world *w = *state;
    load(w, "@prefix : <http://ex.org/> .\n:a :next :b .\n{ ?a :next ?b . ?b :next ?c . } => { ?a :next ?c . } .\n");
    reasoner_options opt = {.derived_graph = w->derived, .log = &w->log};
    reasoner *r = reasoner_new(w->t, w->st, &opt);
    assert_int_equal(reasoner_run(r, &w->rules, 0), 0);
    assert_int_equal(store_size(w->st), 1);
    /* a crawl brings two more links: only they are new, yet the closure over all of it follows */
    uint32_t from = store_size(w->st);
    store_add(w->st, iri(w, "b"), iri(w, "next"), iri(w, "c"), 0);
    store_add(w->st, iri(w, "c"), iri(w, "next"), iri(w, "d"), 0);
    assert_int_equal(reasoner_run_from(r, &w->rules, 0, from), 0);
    assert_true(holds(w, "a", "next", "d"));
    assert_true(holds(w, "a", "next", "c"));
    assert_true(holds(w, "b", "next", "d"));
    assert_int_equal(store_size(w->st), 6);
    reasoner_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(transitive_closure_reaches_fixpoint, setup, teardown),
        cmocka_unit_test_setup_teardown(repeated_variable_must_agree, setup, teardown),
        cmocka_unit_test_setup_teardown(existentials_are_per_head_binding, setup, teardown),
        cmocka_unit_test_setup_teardown(non_terminating_chase_hits_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(derived_cap_names_rule, setup, teardown),
        cmocka_unit_test_setup_teardown(request_rules_go_to_the_sink, setup, teardown),
        cmocka_unit_test_setup_teardown(strata_run_separately, setup, teardown),
        cmocka_unit_test_setup_teardown(list_patterns_unify, setup, teardown),
        cmocka_unit_test_setup_teardown(bound_lists_are_looked_up_by_index, setup, teardown),
        cmocka_unit_test_setup_teardown(builtins_bind_and_filter, setup, teardown),
        cmocka_unit_test_setup_teardown(rules_that_cannot_fire_are_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(empty_body_fires_once, setup, teardown),
        cmocka_unit_test_setup_teardown(continuing_after_new_data_completes_closure, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
