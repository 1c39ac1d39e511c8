/* test_views.c: each instance's view of working memory (agent/views.h): a fetched document is seen by the
 * instances whose group asked for it (get_note_asker: ldgsm:group, or each object of an ldgsm:groupsOf
 * relation), by all when some request asked without a group; what no fetched document holds (derived
 * triples, the agent's facts) by all; a triple from several documents by the instances of any of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "agent/get_outcome.h"
#include "agent/views.h"

typedef struct world {
    terms *t;
    store *st;
    term_id a, b, c, p, o;
} world;

static int setup(void **state) {
    world *w = xcalloc(1, sizeof *w);
    w->t = terms_new();
    w->st = store_new();
    w->a = terms_iri_cstr(w->t, "http://x/status/a#it");
    w->b = terms_iri_cstr(w->t, "http://x/status/b#it");
    w->c = terms_iri_cstr(w->t, "http://x/status/c#it");
    w->p = terms_iri_cstr(w->t, "http://x/p");
    w->o = terms_iri_cstr(w->t, "http://x/o");
    *state = w;
    return 0;
}

static int teardown(void **state) {
    world *w = *state;
    store_free(w->st);
    terms_free(w->t);
    free(w);
    return 0;
}

/* Records that group (0: none) asked for d, as the agent does for a GET's request. */
static void asked_by(world *w, doc_state *d, term_id group) {
    request r = {.method = "GET", .group = group};
    get_note_asker(w->t, d, &r);
}

static void forget_askers(doc_state *docs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(docs[i].groups);
        free(docs[i].group_sources);
        u64map_free(&docs[i].group_set);
    }
}

/* Adds <s> p o from graph g; returns its number. */
static uint32_t add(world *w, const char *s, term_id g) {
    term_id subject = terms_iri_cstr(w->t, s);
    store_add(w->st, subject, w->p, w->o, g);
    return store_find(w->st, subject, w->p, w->o);
}

static void documents_are_seen_by_the_groups_that_asked(void **state) {
    world *w = *state;
    term_id doc_a = terms_iri_cstr(w->t, "http://x/status/a"), model = terms_iri_cstr(w->t, "http://x/model"),
            feed = terms_iri_cstr(w->t, "http://x/feed"), derived = terms_iri_cstr(w->t, "urn:derived");
    doc_state docs[] = {{.graph = doc_a}, {.graph = model}, {.graph = feed}};
    asked_by(w, &docs[0], w->a);
    asked_by(w, &docs[1], w->a);
    asked_by(w, &docs[1], w->b);
    asked_by(w, &docs[1], w->b); /* each instance of a model asks for it */
    asked_by(w, &docs[2], 0);
    assert_int_equal(docs[1].group_count, 2);
    uint32_t in_a = add(w, "http://x/1", doc_a), in_model = add(w, "http://x/2", model),
             in_feed = add(w, "http://x/3", feed), in_derived = add(w, "http://x/4", derived),
             in_nothing = add(w, "http://x/5", 0);
    views *v = views_new();
    views_begin(v, w->st, docs, 3);
    assert_true(views_visible(v, w->a, in_a));
    assert_false(views_visible(v, w->b, in_a));
    assert_true(views_visible(v, w->b, in_model));
    assert_false(views_visible(v, w->c, in_model));
    for (int i = 0; i < 3; i++) {
        term_id viewer = i == 0 ? w->a : i == 1 ? w->b : w->c;
        assert_true(views_visible(v, viewer, in_feed));
        assert_true(views_visible(v, viewer, in_derived));
        assert_true(views_visible(v, viewer, in_nothing));
    }
    /* asked again (cached) the same */
    assert_false(views_visible(v, w->b, in_a));
    /* a later evaluation sees who asks now: b asked for a's document too */
    asked_by(w, &docs[0], w->b);
    views_begin(v, w->st, docs, 3);
    assert_true(views_visible(v, w->b, in_a));
    views_free(v);
    forget_askers(docs, 3);
}

static void a_triple_of_several_documents_is_seen_through_any(void **state) {
    world *w = *state;
    term_id doc_a = terms_iri_cstr(w->t, "http://x/status/a"), doc_b = terms_iri_cstr(w->t, "http://x/status/b"),
            derived = terms_iri_cstr(w->t, "urn:derived");
    doc_state docs[] = {{.graph = doc_a}, {.graph = doc_b}};
    asked_by(w, &docs[0], w->a);
    asked_by(w, &docs[1], w->b);
    uint32_t shared = add(w, "http://x/shared", doc_a);
    assert_int_equal(add(w, "http://x/shared", doc_b), shared);
    uint32_t rederived = add(w, "http://x/rederived", doc_a);
    add(w, "http://x/rederived", derived);
    views *v = views_new();
    views_begin(v, w->st, docs, 2);
    assert_true(views_visible(v, w->a, shared));
    assert_true(views_visible(v, w->b, shared));
    assert_false(views_visible(v, w->c, shared));
    /* also from a source that is no fetched document (the agent's facts): everyone's */
    assert_true(views_visible(v, w->c, rederived));
    views_free(v);
    forget_askers(docs, 2);
}

/* One GET for a model term read by many instances: ldgsm:groupsOf (X gx:serves) makes each instance X serves
 * (when the crawl is done) a group that asked, and no other. */
static void groups_of_names_the_groups_by_a_relation(void **state) {
    world *w = *state;
    term_id model = terms_iri_cstr(w->t, "http://x/model"), term = terms_iri_cstr(w->t, "http://x/model#s1"),
            serves = terms_iri_cstr(w->t, "urn:ldgsm:gsm#serves"), derived = terms_iri_cstr(w->t, "urn:derived");
    term_id relation[] = {term, serves};
    request r = {.method = "GET", .groups_of = terms_list(w->t, relation, 2)};
    doc_state docs[] = {{.graph = model}};
    get_note_asker(w->t, &docs[0], &r);
    get_note_asker(w->t, &docs[0], &r); /* asked again in a later round of the crawl: one relation */
    assert_int_equal(docs[0].group_source_count, 1);
    store_add(w->st, term, serves, w->a, derived);
    store_add(w->st, term, serves, w->b, derived);
    uint32_t in_model = add(w, "http://x/2", model);
    get_expand_group_sources(w->st, &docs[0]);
    assert_int_equal(docs[0].group_count, 2);
    assert_false(docs[0].asked_ungrouped);
    views *v = views_new();
    views_begin(v, w->st, docs, 1);
    assert_true(views_visible(v, w->a, in_model));
    assert_true(views_visible(v, w->b, in_model));
    assert_false(views_visible(v, w->c, in_model));
    views_free(v);
    /* a request with both: its ldgsm:group asks too */
    doc_state both = {.graph = model};
    request r2 = {.method = "GET", .groups_of = r.groups_of, .group = w->c};
    get_note_asker(w->t, &both, &r2);
    get_expand_group_sources(w->st, &both);
    assert_int_equal(both.group_count, 3);
    assert_false(both.asked_ungrouped);
    forget_askers(docs, 1);
    forget_askers(&both, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(documents_are_seen_by_the_groups_that_asked, setup, teardown),
        cmocka_unit_test_setup_teardown(a_triple_of_several_documents_is_seen_through_any, setup, teardown),
        cmocka_unit_test_setup_teardown(groups_of_names_the_groups_by_a_relation, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
