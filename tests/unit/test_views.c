/* test_views.c: each instance's view of working memory (agent/views.h): a fetched document is seen by the
 * instances whose group asked for it, by all when some request asked without a group; what no fetched
 * document holds (derived triples, the agent's facts) by all; a triple from several documents by the
 * instances of any of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

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
    term_id model_groups[] = {w->a, w->b}, a_groups[] = {w->a};
    doc_state docs[] = {{.graph = doc_a, .groups = a_groups, .group_count = 1},
                        {.graph = model, .groups = model_groups, .group_count = 2},
                        {.graph = feed, .asked_ungrouped = true}};
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
    term_id both[] = {w->a, w->b};
    docs[0].groups = both;
    docs[0].group_count = 2;
    views_begin(v, w->st, docs, 3);
    assert_true(views_visible(v, w->b, in_a));
    views_free(v);
}

static void a_triple_of_several_documents_is_seen_through_any(void **state) {
    world *w = *state;
    term_id doc_a = terms_iri_cstr(w->t, "http://x/status/a"), doc_b = terms_iri_cstr(w->t, "http://x/status/b"),
            derived = terms_iri_cstr(w->t, "urn:derived");
    term_id a_groups[] = {w->a}, b_groups[] = {w->b};
    doc_state docs[] = {{.graph = doc_a, .groups = a_groups, .group_count = 1},
                        {.graph = doc_b, .groups = b_groups, .group_count = 1}};
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
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(documents_are_seen_by_the_groups_that_asked, setup, teardown),
        cmocka_unit_test_setup_teardown(a_triple_of_several_documents_is_seen_through_any, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
