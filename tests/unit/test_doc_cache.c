/* test_doc_cache.c: the parsed documents held per strong ETag (agent/doc_cache.h): taken back only under
 * their tag and base, a written document's blank nodes renamed and a list never held, idle entries
 * dropped, and the terms held surviving a release of the term table with their text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agent/doc_cache.h"
#include "rdf/buf.h"

static triple *one_triple(terms *t, const char *object) {
    triple *ts = xmalloc(sizeof *ts);
    ts[0] = (triple){terms_iri_cstr(t, "http://x.test/d#it"), terms_iri_cstr(t, "http://ex.org/state"),
                     terms_string(t, object)};
    return ts;
}

static void taken_only_under_its_tag_and_base(void **state) {
    (void)state;
    terms *t = terms_new();
    doc_cache *c = doc_cache_new();
    doc_cache_begin_iteration(c, 1);
    doc_cache_keep(c, "http://x.test/d", "\"e1\"", "http://x.test/d", true, one_triple(t, "on"), 1);
    assert_string_equal(doc_cache_etag(c, "http://x.test/d"), "\"e1\"");
    assert_null(doc_cache_etag(c, "http://x.test/other"));
    size_t n = 0;
    bool patch = false;
    const triple *held = doc_cache_take(c, "http://x.test/d", "\"e1\"", "http://x.test/d", &n, &patch);
    assert_non_null(held);
    assert_int_equal(n, 1);
    assert_true(patch);
    assert_string_equal(terms_lex(t, held[0].o, NULL), "on");
    assert_null(doc_cache_take(c, "http://x.test/d", "\"e2\"", "http://x.test/d", &n, &patch));
    assert_null(doc_cache_take(c, "http://x.test/d", "\"e1\"", "http://x.test/moved", &n, &patch));
    assert_null(doc_cache_take(c, "http://x.test/d", NULL, "http://x.test/d", &n, &patch));
    /* a new tag replaces the old one */
    doc_cache_keep(c, "http://x.test/d", "\"e2\"", "http://x.test/d", false, one_triple(t, "off"), 1);
    assert_null(doc_cache_take(c, "http://x.test/d", "\"e1\"", "http://x.test/d", &n, &patch));
    held = doc_cache_take(c, "http://x.test/d", "\"e2\"", "http://x.test/d", &n, &patch);
    assert_string_equal(terms_lex(t, held[0].o, NULL), "off");
    assert_false(patch);
    size_t triples;
    assert_int_equal(doc_cache_entries(c, &triples), 1);
    assert_int_equal(triples, 1);
    doc_cache_free(c);
    terms_free(t);
}

static void written_blank_nodes_are_renamed_and_lists_not_held(void **state) {
    (void)state;
    terms *t = terms_new();
    doc_cache *c = doc_cache_new();
    doc_cache_begin_iteration(c, 1);
    term_id it = terms_iri_cstr(t, "http://x.test/d#it"), part = terms_iri_cstr(t, "http://ex.org/part"),
            n7 = terms_iri_cstr(t, "http://ex.org/n"), b = terms_fresh_bnode(t);
    const triple written[] = {{it, part, b}, {b, n7, terms_string(t, "7")}};
    doc_cache_keep_written(c, t, "http://x.test/d", "\"w\"", "http://x.test/d", false, written, 2);
    size_t n;
    bool patch;
    const triple *held = doc_cache_take(c, "http://x.test/d", "\"w\"", "http://x.test/d", &n, &patch);
    assert_non_null(held);
    assert_int_equal(n, 2);
    assert_int_equal(terms_kind(t, held[0].o), TERM_BNODE);
    assert_int_not_equal(held[0].o, b);      /* a fresh node, as a parse would give */
    assert_int_equal(held[1].s, held[0].o);  /* the same one in both triples */
    assert_int_equal(held[0].s, it);
    /* a list is written as a collection, which reads back as other triples: nothing is held */
    term_id items[] = {n7, part};
    const triple with_list[] = {{it, part, terms_list(t, items, 2)}};
    doc_cache_keep_written(c, t, "http://x.test/d", "\"w2\"", "http://x.test/d", false, with_list, 1);
    assert_null(doc_cache_etag(c, "http://x.test/d"));
    doc_cache_free(c);
    terms_free(t);
}

static void idle_entries_are_dropped(void **state) {
    (void)state;
    terms *t = terms_new();
    doc_cache *c = doc_cache_new();
    doc_cache_begin_iteration(c, 1);
    doc_cache_keep(c, "http://x.test/used", "\"u\"", "http://x.test/used", false, one_triple(t, "a"), 1);
    doc_cache_keep(c, "http://x.test/idle", "\"i\"", "http://x.test/idle", false, one_triple(t, "b"), 1);
    size_t n;
    bool patch;
    for (unsigned long i = 2; i <= 2 + DOC_CACHE_IDLE_ITERATIONS; i++) {
        doc_cache_begin_iteration(c, i);
        assert_non_null(doc_cache_take(c, "http://x.test/used", "\"u\"", "http://x.test/used", &n, &patch));
    }
    assert_non_null(doc_cache_etag(c, "http://x.test/used"));
    assert_null(doc_cache_etag(c, "http://x.test/idle"));
    doc_cache_free(c);
    terms_free(t);
}

static void held_terms_survive_a_release(void **state) {
    (void)state;
    terms *t = terms_new();
    terms_mark lasting = terms_mark_now(t);
    doc_cache *c = doc_cache_new();
    doc_cache_begin_iteration(c, 1);
    doc_cache_keep(c, "http://x.test/d", "\"e\"", "http://x.test/d", false, one_triple(t, "kept text"), 1);
    for (int i = 0; i < 100; i++) { /* scratch terms that go */
        char iri[64];
        snprintf(iri, sizeof iri, "http://x.test/scratch/%d", i);
        terms_iri_cstr(t, iri);
    }
    term_id **held;
    size_t count = doc_cache_held_terms(c, &held);
    assert_int_equal(count, 3);
    term_id keep[3];
    for (size_t i = 0; i < count; i++)
        keep[i] = *held[i];
    terms_release(t, &lasting, keep, count);
    for (size_t i = 0; i < count; i++)
        *held[i] = keep[i];
    free(held);
    size_t n;
    bool patch;
    const triple *ts = doc_cache_take(c, "http://x.test/d", "\"e\"", "http://x.test/d", &n, &patch);
    assert_string_equal(terms_lex(t, ts[0].s, NULL), "http://x.test/d#it");
    assert_string_equal(terms_lex(t, ts[0].o, NULL), "kept text");
    doc_cache_free(c);
    terms_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(taken_only_under_its_tag_and_base),
        cmocka_unit_test(written_blank_nodes_are_renamed_and_lists_not_held),
        cmocka_unit_test(idle_entries_are_dropped),
        cmocka_unit_test(held_terms_survive_a_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
