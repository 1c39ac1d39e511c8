/* test_sentry_table.c: the agent's sentry table (src/agent/sentries.h) across iterations, without a server:
 * each iteration parses its documents into a new working memory, as the agent does. A sentry is compiled
 * when first met and again only when its document's ETag changes (or there is none), a blank-node sentry
 * included, although every parse labels it anew (it is kept under a strong ETag only); the results are
 * those of the sentry now in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agent/sentries.h"
#include "agent/vocab.h"
#include "rdf/rdfio.h"

#define EX "http://ex.org/"
#define MODEL EX "model"
#define OTHER EX "other"

typedef struct document {
    const char *iri, *etag, *turtle;
} document;

typedef struct world {
    terms *t;
    agent_vocab v;
    log_sink quiet;
    rdfio *io;
    sentry_table *table;
    store *wm;
    const document *docs;
    size_t doc_count;
} world;

static void drop_log(void *user, enum log_level level, const char *message) {
    (void)user, (void)level, (void)message;
}

static const char *etag_of(void *user, term_id graph) {
    world *w = user;
    for (size_t i = 0; i < w->doc_count; i++)
        if (strcmp(terms_lex(w->t, graph, NULL), w->docs[i].iri) == 0)
            return w->docs[i].etag;
    return NULL;
}

static int setup(void **state) {
    world *w = xcalloc(1, sizeof *w);
    w->t = terms_new();
    agent_vocab_init(&w->v, w->t);
    w->quiet = (log_sink){.write = drop_log};
    w->io = rdfio_new(w->t);
    w->table = sentry_table_new(w->t, &w->v, &w->quiet);
    *state = w;
    return 0;
}

static int teardown(void **state) {
    world *w = *state;
    sentry_table_free(w->table);
    store_free(w->wm);
    rdfio_free(w->io);
    terms_free(w->t);
    free(w);
    return 0;
}

/* One iteration over the documents, read in the order given: parsed, their sentries taken in and
 * evaluated for the active instance <a1>. */
static void iterate(world *w, const document *docs, size_t count) {
    store_free(w->wm);
    w->wm = store_new();
    w->docs = docs;
    w->doc_count = count;
    sentry_table_begin(w->table);
    store_add(w->wm, terms_iri_cstr(w->t, EX "a1"), T_RDF_TYPE, w->v.artifact_instance, 0);
    store_add(w->wm, terms_iri_cstr(w->t, EX "a1"), w->v.has_state, w->v.active, 0);
    store_add(w->wm, terms_iri_cstr(w->t, EX "flags"), terms_iri_cstr(w->t, EX "on"), terms_iri_cstr(w->t, EX "yes"), 0);
    for (size_t i = 0; i < count; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "@prefix : <" EX "> . @prefix sp: <" NS_SP "> .\n%s", docs[i].turtle);
        rdf_error err;
        uint32_t from = store_size(w->wm);
        if (rdf_parse(w->io, w->wm, RDF_TURTLE, text, strlen(text), docs[i].iri, terms_iri_cstr(w->t, docs[i].iri),
                      docs[i].iri, &err) != 0)
            fail_msg("%s", err.message);
        sentry_table_scan(w->table, w->wm, from, etag_of, w);
    }
    reasoner_options options = {.derived_graph = w->v.derived_graph, .log = &w->quiet};
    reasoner *r = reasoner_new(w->t, w->wm, &options);
    assert_int_equal(sentry_table_evaluate(w->table, r), 0);
    reasoner_free(r);
}

/* Whether the sentry labelled `label` (:label) holds for <a1> now. */
static bool holds(world *w, const char *label) {
    store_iter it;
    store_match(w->wm, 0, terms_iri_cstr(w->t, EX "label"), terms_string(w->t, label), 0, store_size(w->wm), &it);
    uint32_t n;
    const triple *named = store_next(&it, &n);
    if (!named)
        fail_msg("no sentry labelled %s", label);
    return store_find(w->wm, named->s, w->v.holds_for, terms_iri_cstr(w->t, EX "a1")) != UINT32_MAX;
}

#define TRUE_TEXT "\"ASK { <" EX "flags> <" EX "on> <" EX "yes> }\""
#define FALSE_TEXT "\"ASK { <" EX "flags> <" EX "on> <" EX "no> }\""

static const char model_v1[] =
    ":named a sp:Ask ; :label \"named\" ; sp:text " TRUE_TEXT " .\n"
    "[] a sp:Ask ; :label \"first\" ; sp:text " TRUE_TEXT " .\n"
    "[] a sp:Ask ; :label \"second\" ; sp:text " FALSE_TEXT " .\n";
/* the blank sentries' texts swapped */
static const char model_v2[] =
    ":named a sp:Ask ; :label \"named\" ; sp:text " TRUE_TEXT " .\n"
    "[] a sp:Ask ; :label \"first\" ; sp:text " FALSE_TEXT " .\n"
    "[] a sp:Ask ; :label \"second\" ; sp:text " TRUE_TEXT " .\n";
static const char other_doc[] = "[] a sp:Ask ; :label \"other\" ; sp:text " FALSE_TEXT " .\n";

static void blank_sentries_compiled_once_per_version(void **state) {
    world *w = *state;
    const document v1[] = {{MODEL, "\"v1\"", model_v1}, {OTHER, "\"o1\"", other_doc}};
    iterate(w, v1, 2);
    assert_int_equal(sentry_table_compiles(w->table), 4);
    assert_true(holds(w, "named") && holds(w, "first") && !holds(w, "second") && !holds(w, "other"));

    /* the same versions, read in the other order: nothing compiled, each blank sentry its own result */
    const document v1_again[] = {{OTHER, "\"o1\"", other_doc}, {MODEL, "\"v1\"", model_v1}};
    for (int i = 0; i < 3; i++) {
        iterate(w, v1_again, 2);
        assert_int_equal(sentry_table_compiles(w->table), 4);
        assert_true(holds(w, "named") && holds(w, "first") && !holds(w, "second") && !holds(w, "other"));
    }

    /* a new version of the model: its three sentries compiled again, the blank ones' results swap */
    const document v2[] = {{MODEL, "\"v2\"", model_v2}, {OTHER, "\"o1\"", other_doc}};
    iterate(w, v2, 2);
    assert_int_equal(sentry_table_compiles(w->table), 7);
    assert_true(holds(w, "named") && !holds(w, "first") && holds(w, "second") && !holds(w, "other"));

    /* served without an ETag: a change cannot be told, so its sentries are compiled every time */
    const document untagged[] = {{MODEL, NULL, model_v1}};
    iterate(w, untagged, 1);
    iterate(w, untagged, 1);
    assert_int_equal(sentry_table_compiles(w->table), 13);
    assert_true(holds(w, "named") && holds(w, "first") && !holds(w, "second"));
}

/* A weak ETag promises the same triples, not the same bytes: a server may list them in another order,
 * so a blank sentry's place may hold another sentry, and is compiled again. So is one whose text changed
 * under a strong ETag that did not (a server that fails to change it). */
static void blank_sentries_under_weak_etags_and_stale_strong_ones(void **state) {
    world *w = *state;
    /* in SPIN RDF: no text tells them apart */
#define SPIN_FIRST "[] a sp:Ask ; :label \"first\" ; sp:where ( [ sp:subject :flags ; sp:predicate :on ; sp:object :yes ] ) .\n"
#define SPIN_SECOND "[] a sp:Ask ; :label \"second\" ; sp:where ( [ sp:subject :flags ; sp:predicate :on ; sp:object :no ] ) .\n"
    static const char spin[] = ":named a sp:Ask ; :label \"named\" ; sp:text " TRUE_TEXT " .\n" SPIN_FIRST SPIN_SECOND;
    static const char reordered[] = SPIN_SECOND ":named a sp:Ask ; :label \"named\" ; sp:text " TRUE_TEXT " .\n" SPIN_FIRST;
    const document weak[] = {{MODEL, "W/\"v1\"", spin}};
    iterate(w, weak, 1);
    const document weak_reordered[] = {{MODEL, "W/\"v1\"", reordered}};
    iterate(w, weak_reordered, 1);
    assert_int_equal(sentry_table_compiles(w->table), 5); /* the named one kept */
    assert_true(holds(w, "named") && holds(w, "first") && !holds(w, "second"));

    const document strong[] = {{MODEL, "\"v1\"", model_v1}};
    iterate(w, strong, 1);
    const document stale[] = {{MODEL, "\"v1\"", model_v2}};
    iterate(w, stale, 1);
    assert_int_equal(sentry_table_compiles(w->table), 10);
    assert_true(!holds(w, "first") && holds(w, "second"));
}

/* A document gone from an iteration: its sentries are not evaluated; back with the same version, they are
 * again, without being compiled. */
static void blank_sentry_of_a_document_not_read(void **state) {
    world *w = *state;
    const document both[] = {{MODEL, "\"v2\"", model_v2}, {OTHER, "\"o1\"", other_doc}};
    iterate(w, both, 2);
    const document model_only[] = {{MODEL, "\"v2\"", model_v2}};
    iterate(w, model_only, 1);
    assert_true(holds(w, "second") && !holds(w, "first"));
    store_iter it;
    store_match(w->wm, 0, w->v.holds_for, 0, 0, store_size(w->wm), &it);
    uint32_t n, holding = 0;
    while (store_next(&it, &n))
        holding++;
    assert_int_equal(holding, 2); /* named and second: nothing of the document not read */
    iterate(w, both, 2);
    assert_int_equal(sentry_table_compiles(w->table), 4);
    assert_true(holds(w, "second") && !holds(w, "other"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(blank_sentries_compiled_once_per_version, setup, teardown),
        cmocka_unit_test_setup_teardown(blank_sentries_under_weak_etags_and_stale_strong_ones, setup, teardown),
        cmocka_unit_test_setup_teardown(blank_sentry_of_a_document_not_read, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
