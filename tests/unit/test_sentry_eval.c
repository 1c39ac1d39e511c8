/* test_sentry_eval.c: sentries compiled to single-pass rules and evaluated by the engine per artifact
 * instance: plain patterns with gsm:thisArtifactInstance, FILTER comparisons (numbers, dateTimes, strings,
 * errors), OPTIONAL with !bound, UNION, a head variable left unbound by the WHERE clause, and views (each
 * instance's patterns match only the triples its view holds, nested ones included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdf/rdfio.h"
#include "reason/reasoner.h"
#include "reason/sentry.h"

#define EX "http://ex.org/"
#define GSM "http://purl.org/gsm/vocab#"

typedef struct world {
    terms *t;
    store *st;
    rdfio *io;
    rule_set rules;
    term_id this_term, this_var, holds;
    bool viewed; /* evaluate() restricts the sentry to each instance's view: graph doc-<instance>, or shared */
} world;

static int setup(void **state) {
    world *w = xcalloc(1, sizeof *w);
    w->t = terms_new();
    w->st = store_new();
    w->io = rdfio_new(w->t);
    w->this_term = terms_iri_cstr(w->t, GSM "thisArtifactInstance");
    w->this_var = terms_var(w->t, "this", 4);
    w->holds = terms_iri_cstr(w->t, EX "holdsFor");
    *state = w;
    return 0;
}

static int teardown(void **state) {
    world *w = *state;
    rule_set_free(&w->rules);
    rdfio_free(w->io);
    store_free(w->st);
    terms_free(w->t);
    free(w);
    return 0;
}

static term_id iri(world *w, const char *local) {
    char full[256];
    snprintf(full, sizeof full, EX "%s", local);
    return terms_iri_cstr(w->t, full);
}

/* Parses turtle into graph EX<graph> (none when NULL). */
static void data_in(world *w, const char *graph, const char *turtle) {
    char doc[4096];
    snprintf(doc, sizeof doc, "@prefix : <" EX "> . @prefix gsm: <" GSM "> . "
             "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n%s", turtle);
    rdf_error err;
    if (rdf_parse(w->io, w->st, RDF_TURTLE, doc, strlen(doc), NULL, graph ? iri(w, graph) : 0, "data", &err) != 0)
        fail_msg("%s", err.message);
}

static void data(world *w, const char *turtle) { data_in(w, NULL, turtle); }

/* The views of the tests: an instance EX<name> sees graph EX"doc-"<name> and the graph EX"shared". */
static bool in_view(void *user, term_id viewer, uint32_t n) {
    world *w = user;
    char doc[64];
    snprintf(doc, sizeof doc, "doc-%.32s", terms_lex(w->t, viewer, NULL) + strlen(EX));
    return store_in_graph(w->st, n, iri(w, doc)) || store_in_graph(w->st, n, iri(w, "shared"));
}

static term_id var(world *w, const char *name) { return terms_var(w->t, name, strlen(name)); }

static sq_node *node(enum sq_kind kind) { return sq_node_new(kind); }

static sq_node *add(sq_node *parent, sq_node *child) {
    sq_node_add(parent, child);
    return parent;
}

static sq_node *pattern(term_id s, term_id p, term_id o) {
    sq_node *n = sq_node_new(SQ_PATTERN);
    n->pattern = (triple){s, p, o};
    return n;
}

static sq_expr *expr(enum sq_op op, sq_expr *a, sq_expr *b) {
    sq_expr *e = sq_expr_new(op);
    if (a)
        sq_expr_add(e, a);
    if (b)
        sq_expr_add(e, b);
    return e;
}

static sq_expr *term(term_id id) { return sq_expr_term(id); }

static sq_node *filter(sq_expr *e) {
    sq_node *n = sq_node_new(SQ_FILTER);
    n->filter = e;
    return n;
}

/* Compiles `where` as the sentry evaluated for each active artifact instance and runs it. */
static void evaluate(world *w, sq_node *where) {
    term_id active_type = terms_iri_cstr(w->t, GSM "ArtifactInstance");
    triple prefix[] = {{w->this_var, T_RDF_TYPE, active_type},
                       {w->this_var, terms_iri_cstr(w->t, GSM "hasState"), terms_iri_cstr(w->t, GSM "active")}};
    triple head[] = {{iri(w, "sentry"), w->holds, w->this_var}};
    char error[256];
    sentry_constant constant = {w->this_term, w->this_var};
    rule *r = sentry_rule_new(w->t, where, prefix, 2, head, 1, &constant, 1, "test-sentry", error, sizeof error);
    if (!r)
        fail_msg("%s", error);
    if (w->viewed)
        assert_true(sentry_rule_view(r, w->this_var, 2));
    rule_set_add(&w->rules, r);
    reasoner_options opt = {.derived_graph = iri(w, "derived"), .visible = w->viewed ? in_view : NULL,
                            .visible_user = w};
    reasoner *R = reasoner_new(w->t, w->st, &opt);
    assert_int_equal(reasoner_run(R, &w->rules, 0), 0);
    reasoner_free(R);
}

static bool holds_for(world *w, const char *artifact) {
    return store_find(w->st, iri(w, "sentry"), w->holds, iri(w, artifact)) != UINT32_MAX;
}

static const char artifacts[] = ":a1 a gsm:ArtifactInstance ; gsm:hasState gsm:active .\n"
                                ":a2 a gsm:ArtifactInstance ; gsm:hasState gsm:active .\n"
                                ":a3 a gsm:ArtifactInstance ; gsm:hasState gsm:inactive .\n";

static void patterns_bind_this_artifact(void **state) {
    world *w = *state;
    data(w, artifacts);
    data(w, ":m1 gsm:inArtifactInstance :a1 ; gsm:isAchieved true .\n"
            ":m2 gsm:inArtifactInstance :a2 ; gsm:isAchieved false .\n"
            ":m3 gsm:inArtifactInstance :a3 ; gsm:isAchieved true .\n");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "m"), terms_iri_cstr(w->t, GSM "inArtifactInstance"), w->this_term));
    add(where, pattern(var(w, "m"), terms_iri_cstr(w->t, GSM "isAchieved"), T_TRUE));
    evaluate(w, where);
    assert_true(holds_for(w, "a1"));
    assert_false(holds_for(w, "a2"));
    assert_false(holds_for(w, "a3")); /* not active: never evaluated */
}

static void filters_compare_values(void **state) {
    world *w = *state;
    data(w, artifacts);
    data(w, ":sensor :temp 31.5 ; :seen \"2026-11-25T10:00:00.000Z\"^^xsd:dateTime ; :name \"hall\" .\n");
    /* 31.5 > 30 (decimal against integer), the dateTime after 09:59, the name after "a" */
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(iri(w, "sensor"), iri(w, "temp"), var(w, "v")));
    add(where, pattern(iri(w, "sensor"), iri(w, "seen"), var(w, "when")));
    add(where, pattern(iri(w, "sensor"), iri(w, "name"), var(w, "n")));
    add(where, filter(expr(SQ_GT, term(var(w, "v")), term(terms_literal(w->t, "30", 2, T_XSD_INTEGER, NULL, 0)))));
    add(where, filter(expr(SQ_GT, term(var(w, "when")),
                           term(terms_literal(w->t, "2026-11-25T09:59:00Z", 20, T_XSD_DATETIME, NULL, 0)))));
    add(where, filter(expr(SQ_GT, term(var(w, "n")), term(terms_string(w->t, "a")))));
    evaluate(w, where);
    assert_true(holds_for(w, "a1"));
    assert_true(holds_for(w, "a2"));
}

static void a_failing_or_erroneous_filter_is_false(void **state) {
    world *w = *state;
    data(w, artifacts);
    data(w, ":sensor :temp 12 ; :name \"hall\" .\n");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(iri(w, "sensor"), iri(w, "temp"), var(w, "v")));
    add(where, pattern(iri(w, "sensor"), iri(w, "name"), var(w, "n")));
    /* 12 > 30 is false; ?n < 5 compares a string with a number: an error, so false, and
     * false || error is an error too: the sentry does not hold */
    add(where, filter(expr(SQ_OR, expr(SQ_GT, term(var(w, "v")), term(terms_literal(w->t, "30", 2, T_XSD_INTEGER, NULL, 0))),
                           expr(SQ_LT, term(var(w, "n")), term(terms_literal(w->t, "5", 1, T_XSD_INTEGER, NULL, 0))))));
    evaluate(w, where);
    assert_false(holds_for(w, "a1"));
}

static void optional_with_not_bound_is_negation(void **state) {
    world *w = *state;
    data(w, artifacts);
    data(w, ":front a :Door ; :isOpen false . :back a :Door .\n");
    /* "some door has no known state" */
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "d"), T_RDF_TYPE, iri(w, "Door")));
    sq_node *optional = node(SQ_OPTIONAL);
    add(optional, pattern(var(w, "d"), iri(w, "isOpen"), var(w, "o")));
    add(where, optional);
    add(where, filter(expr(SQ_NOT, expr(SQ_BOUND, term(var(w, "o")), NULL), NULL)));
    evaluate(w, where);
    assert_true(holds_for(w, "a1"));
}

static void optional_that_always_matches_negates_to_false(void **state) {
    world *w = *state;
    data(w, artifacts);
    data(w, ":front a :Door ; :isOpen false . :back a :Door ; :isOpen true .\n");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "d"), T_RDF_TYPE, iri(w, "Door")));
    sq_node *optional = node(SQ_OPTIONAL);
    add(optional, pattern(var(w, "d"), iri(w, "isOpen"), var(w, "o")));
    add(where, optional);
    add(where, filter(expr(SQ_NOT, expr(SQ_BOUND, term(var(w, "o")), NULL), NULL)));
    evaluate(w, where);
    assert_false(holds_for(w, "a1"));
}

static void union_takes_either_branch(void **state) {
    world *w = *state;
    data(w, artifacts);
    data(w, ":alarm :rings true .\n");
    sq_node *where = node(SQ_GROUP);
    sq_node *either = node(SQ_UNION);
    sq_node *left = node(SQ_GROUP), *right = node(SQ_GROUP);
    add(left, pattern(iri(w, "smoke"), iri(w, "detected"), T_TRUE));
    add(right, pattern(iri(w, "alarm"), iri(w, "rings"), T_TRUE));
    add(either, left);
    add(either, right);
    add(where, either);
    evaluate(w, where);
    assert_true(holds_for(w, "a1"));
    assert_true(holds_for(w, "a2"));
}

static void pre_marked_true_element_holds(void **state) {
    world *w = *state;
    data(w, artifacts);
    sq_node *where = node(SQ_GROUP);
    add(where, node(SQ_TRUE));
    evaluate(w, where);
    assert_true(holds_for(w, "a1"));
}

static void head_needs_top_level_variables(void **state) {
    world *w = *state;
    sq_node *where = node(SQ_GROUP);
    sq_node *optional = node(SQ_OPTIONAL);
    add(optional, pattern(var(w, "x"), iri(w, "p"), var(w, "y")));
    add(where, optional);
    triple head[] = {{iri(w, "sentry"), w->holds, var(w, "y")}};
    char error[256];
    sentry_constant constant = {w->this_term, w->this_var};
    rule *r = sentry_rule_new(w->t, where, NULL, 0, head, 1, &constant, 1, "s", error, sizeof error);
    assert_null(r);
    assert_non_null(strstr(error, "?y"));
}

/* The path a model's sentry takes: text parsed by the rasqal front end, compiled, evaluated. */
static void text_sentry_end_to_end(void **state) {
    world *w = *state;
    data(w, artifacts);
    data(w, ":m1 gsm:inArtifactInstance :a2 ; gsm:isInstanceOf :milestone1 ; gsm:isAchieved true .\n");
    sentry_text_parser *parser = sentry_text_parser_new(w->t);
    sq_node *where = NULL;
    char error[512];
    int rc = sentry_from_text(parser, iri(w, "sentry"),
                              "PREFIX gsm: <" GSM "> ASK { ?m gsm:inArtifactInstance gsm:thisArtifactInstance ; "
                              "gsm:isInstanceOf <" EX "milestone1> ; gsm:isAchieved true }",
                              EX, &where, error, sizeof error);
    if (rc != 0)
        fail_msg("%s", error);
    sentry_text_parser_free(parser);
    evaluate(w, where);
    assert_false(holds_for(w, "a1"));
    assert_true(holds_for(w, "a2"));
}

/* `?d :flag true`, connected to nothing: each instance sees the flags of its own documents and the shared
 * ones, not another instance's, whatever order the join would choose (the flag pattern is the cheapest). */
static void views_hide_other_instances_documents(void **state) {
    world *w = *state;
    data(w, artifacts);
    data_in(w, "doc-a1", ":x :flag true .\n");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "d"), iri(w, "flag"), T_TRUE));
    w->viewed = true;
    evaluate(w, where);
    assert_true(holds_for(w, "a1"));
    assert_false(holds_for(w, "a2"));
}

/* Without a view the same sentry sees every document: the test above depends on the view. */
static void without_a_view_every_document_is_seen(void **state) {
    world *w = *state;
    data(w, artifacts);
    data_in(w, "doc-a1", ":x :flag true .\n");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "d"), iri(w, "flag"), T_TRUE));
    evaluate(w, where);
    assert_true(holds_for(w, "a1"));
    assert_true(holds_for(w, "a2"));
}

/* A pattern all of whose positions are known when it is joined (one probe of the triple set, engine.c's
 * shortest path) sees only the view too: :x's flag is in a1's document, its colour in a2's, so neither
 * instance sees both; without views each does (the control below). */
static void probe_across_documents(world *w, bool viewed) {
    data(w, artifacts);
    data_in(w, "doc-a1", ":x :flag true .\n");
    data_in(w, "doc-a2", ":x :colour :red .\n");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "d"), iri(w, "flag"), T_TRUE));
    add(where, pattern(var(w, "d"), iri(w, "colour"), iri(w, "red")));
    w->viewed = viewed;
    evaluate(w, where);
}

static void a_probe_sees_only_the_view(void **state) {
    world *w = *state;
    probe_across_documents(w, true);
    assert_false(holds_for(w, "a1"));
    assert_false(holds_for(w, "a2"));
}

static void without_a_view_a_probe_sees_every_document(void **state) {
    world *w = *state;
    probe_across_documents(w, false);
    assert_true(holds_for(w, "a1"));
    assert_true(holds_for(w, "a2"));
}

/* A triple from several documents is seen by each of their instances (only its first source is kept in
 * its record); a shared document by all; patterns inside OPTIONAL match in the view too, so a2's "no
 * door of mine is locked" holds though a1's door is. */
static void views_reach_every_source_and_nested_groups(void **state) {
    world *w = *state;
    data(w, artifacts);
    data_in(w, "doc-a1", ":y :flag true . :front a :Door ; :locked true .\n");
    data_in(w, "doc-a2", ":y :flag true . :back a :Door .\n");
    data_in(w, "shared", ":z :colour :red .\n");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "y"), iri(w, "flag"), T_TRUE));
    add(where, pattern(var(w, "z"), iri(w, "colour"), iri(w, "red")));
    add(where, pattern(var(w, "d"), T_RDF_TYPE, iri(w, "Door")));
    sq_node *optional = node(SQ_OPTIONAL);
    add(optional, pattern(var(w, "e"), iri(w, "locked"), T_TRUE));
    add(where, optional);
    add(where, filter(expr(SQ_NOT, expr(SQ_BOUND, term(var(w, "e")), NULL), NULL)));
    w->viewed = true;
    evaluate(w, where);
    assert_false(holds_for(w, "a1"));
    assert_true(holds_for(w, "a2"));
}

/* A viewer bound by the prefix's second pattern (an argument query's context): the join must not match a
 * viewed pattern before it, though that pattern is the cheapest once the context is bound (one flag, two
 * instances named by the context). */
static void a_viewed_pattern_waits_for_its_viewer(void **state) {
    world *w = *state;
    data(w, ":c a :Context ; :instance :a1, :a2 .\n");
    data_in(w, "doc-a1", ":x :flag true .\n");
    term_id ctx = var(w, "ctx");
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "d"), iri(w, "flag"), T_TRUE));
    triple prefix[] = {{ctx, T_RDF_TYPE, iri(w, "Context")}, {ctx, iri(w, "instance"), w->this_var}};
    triple head[] = {{iri(w, "sentry"), w->holds, w->this_var}};
    char error[256];
    sentry_constant constant = {w->this_term, w->this_var};
    rule *r = sentry_rule_new(w->t, where, prefix, 2, head, 1, &constant, 1, "context", error, sizeof error);
    assert_non_null(r);
    assert_true(sentry_rule_view(r, w->this_var, 2));
    rule_set_add(&w->rules, r);
    reasoner_options opt = {.derived_graph = iri(w, "derived"), .visible = in_view, .visible_user = w};
    reasoner *R = reasoner_new(w->t, w->st, &opt);
    assert_int_equal(reasoner_run(R, &w->rules, 0), 0);
    reasoner_free(R);
    assert_true(holds_for(w, "a1"));
    assert_false(holds_for(w, "a2"));
}

/* A view needs its viewer bound by the prefix: a variable the prefix does not bind is refused. */
static void a_view_needs_a_viewer_the_prefix_binds(void **state) {
    world *w = *state;
    sq_node *where = node(SQ_GROUP);
    add(where, pattern(var(w, "d"), iri(w, "flag"), T_TRUE));
    triple prefix[] = {{w->this_var, T_RDF_TYPE, terms_iri_cstr(w->t, GSM "ArtifactInstance")}};
    triple head[] = {{iri(w, "sentry"), w->holds, w->this_var}};
    char error[256];
    rule *r = sentry_rule_new(w->t, where, prefix, 1, head, 1, NULL, 0, "unbound-viewer", error, sizeof error);
    assert_non_null(r);
    assert_false(sentry_rule_view(r, var(w, "d"), 1));
    assert_int_equal(r->viewer, 0);
    rule_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(patterns_bind_this_artifact, setup, teardown),
        cmocka_unit_test_setup_teardown(filters_compare_values, setup, teardown),
        cmocka_unit_test_setup_teardown(a_failing_or_erroneous_filter_is_false, setup, teardown),
        cmocka_unit_test_setup_teardown(optional_with_not_bound_is_negation, setup, teardown),
        cmocka_unit_test_setup_teardown(optional_that_always_matches_negates_to_false, setup, teardown),
        cmocka_unit_test_setup_teardown(union_takes_either_branch, setup, teardown),
        cmocka_unit_test_setup_teardown(pre_marked_true_element_holds, setup, teardown),
        cmocka_unit_test_setup_teardown(head_needs_top_level_variables, setup, teardown),
        cmocka_unit_test_setup_teardown(text_sentry_end_to_end, setup, teardown),
        cmocka_unit_test_setup_teardown(views_hide_other_instances_documents, setup, teardown),
        cmocka_unit_test_setup_teardown(a_probe_sees_only_the_view, setup, teardown),
        cmocka_unit_test_setup_teardown(without_a_view_a_probe_sees_every_document, setup, teardown),
        cmocka_unit_test_setup_teardown(without_a_view_every_document_is_seen, setup, teardown),
        cmocka_unit_test_setup_teardown(views_reach_every_source_and_nested_groups, setup, teardown),
        cmocka_unit_test_setup_teardown(a_view_needs_a_viewer_the_prefix_binds, setup, teardown),
        cmocka_unit_test_setup_teardown(a_viewed_pattern_waits_for_its_viewer, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
