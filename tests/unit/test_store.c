/* test_store.c: de-duplication, source graphs, indexed lookups with ranges (built again after a drop), iteration under insertion,
 * batched iteration, subject- and object-with-predicate lookups of predicates first asked for late, and
 * the lookups readers of documents make (first object, any match, all objects or subjects). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rdf/store.h"

static uint32_t count_matches(store *st, term_id s, term_id p, term_id o, uint32_t lo, uint32_t hi) {
    store_iter it;
    store_match(st, s, p, o, lo, hi, &it);
    uint32_t n, count = 0;
    const triple *found;
    while ((found = store_next(&it, &n))) {
        const triple *t = store_triple(st, n);
        assert_memory_equal(found, t, sizeof *t); /* the iterator's copy is the stored triple */
        assert_true(!s || t->s == s);
        assert_true(!p || t->p == p);
        assert_true(!o || t->o == o);
        assert_true(n >= lo && n < hi);
        count++;
    }
    return count;
}

/* A store of (1, 2, o) for o in [100, 100 + n), numbered 0 .. n - 1. */
static store *store_of_objects(term_id n) {
    store *st = store_new();
    for (term_id o = 100; o < 100 + n; o++)
        store_add(st, 1, 2, o, 1);
    return st;
}

static void add_deduplicates(void **state) {
    (void)state;
    store *st = store_new();
    assert_true(store_add(st, 1, 2, 3, 100));
    assert_false(store_add(st, 1, 2, 3, 100));
    assert_false(store_add(st, 1, 2, 3, 101));
    assert_true(store_add(st, 1, 2, 4, 100));
    assert_int_equal(store_size(st), 2);
    assert_int_equal(store_find(st, 1, 2, 3), 0);
    assert_int_equal(store_find(st, 1, 2, 4), 1);
    assert_int_equal(store_find(st, 9, 9, 9), UINT32_MAX);
    store_free(st);
}

static void graphs_are_recorded(void **state) {
    (void)state;
    store *st = store_new();
    store_add(st, 1, 2, 3, 100);
    store_add(st, 4, 5, 6, 101);
    store_add(st, 1, 2, 3, 101);
    assert_true(store_in_graph(st, 0, 100));
    assert_true(store_in_graph(st, 0, 101));
    assert_false(store_in_graph(st, 1, 100));
    assert_int_equal(store_first_graph(st, 0), 100);
    uint32_t count;
    const uint32_t *list = store_graph_triples(st, 101, &count);
    assert_int_equal(count, 2);
    assert_int_equal(list[0], 0); /* ascending even though triple 0 joined graph 101 last */
    assert_int_equal(list[1], 1);
    assert_null(store_graph_triples(st, 999, &count));
    assert_int_equal(count, 0);
    store_free(st);
}

/* A second source, a third and a fourth, each recorded once, for a triple added before the store grew
 * and one added after: the others keep one source. */
static void sources_beyond_the_first(void **state) {
    (void)state;
    store *st = store_new();
    store_add(st, 1, 2, 3, 100);
    for (term_id g = 101; g <= 103; g++) {
        store_add(st, 1, 2, 3, g);
        store_add(st, 1, 2, 3, g);
    }
    for (term_id o = 1000; o < 4000; o++) /* past the first capacities */
        store_add(st, 1, 2, o, 100);
    store_add(st, 1, 2, 3999, 101);
    for (term_id g = 100; g <= 103; g++)
        assert_true(store_in_graph(st, 0, g));
    assert_false(store_in_graph(st, 0, 104));
    assert_true(store_has_more_graphs(st, 0));
    assert_true(store_has_more_graphs(st, 3000));
    assert_true(store_in_graph(st, 3000, 101));
    assert_false(store_in_graph(st, 3000, 102));
    for (uint32_t n = 1; n < 3000; n++)
        assert_false(store_has_more_graphs(st, n));
    uint32_t count;
    const uint32_t *list = store_graph_triples(st, 102, &count);
    assert_int_equal(count, 1);
    assert_int_equal(list[0], 0);
    list = store_graph_triples(st, 101, &count);
    assert_int_equal(count, 2);
    assert_int_equal(list[1], 3000);
    store_free(st);
}

/* A batch (derivation) adds its graph as a second source of a triple a document stated, once: the triple
 * then has more graphs than its first; a triple first derived stays single-sourced when derived again. */
static void batches_record_a_second_source(void **state) {
    (void)state;
    store *st = store_new();
    store_add(st, 1, 2, 3, 100); /* a document's */
    triple ts[2] = {{1, 2, 3}, {7, 8, 9}};
    uint64_t hashes[2] = {store_hash(1, 2, 3), store_hash(7, 8, 9)};
    assert_int_equal(store_add_batch(st, ts, hashes, 2, 200), 1);
    assert_true(store_has_more_graphs(st, 0));
    assert_true(store_in_graph(st, 0, 200));
    assert_true(store_in_graph(st, 0, 100));
    assert_false(store_has_more_graphs(st, 1));
    assert_int_equal(store_add_batch(st, ts, hashes, 2, 200), 0);
    assert_false(store_has_more_graphs(st, 1));
    assert_int_equal(store_graph_count(st), 2);
    assert_int_equal(store_graph_at(st, 0), 100);
    assert_int_equal(store_graph_at(st, 1), 200);
    store_free(st);
}

/* Every lookup shape on subjects 10..19, predicates 20..22, objects 30..34 (150 triples). */
static void check_every_pattern_shape(store *st) {
    uint32_t all = store_size(st);
    assert_int_equal(all, 150);
    assert_int_equal(count_matches(st, 0, 0, 0, 0, all), 150);
    assert_int_equal(count_matches(st, 12, 0, 0, 0, all), 15);
    assert_int_equal(count_matches(st, 0, 21, 0, 0, all), 50);
    assert_int_equal(count_matches(st, 0, 0, 33, 0, all), 30);
    assert_int_equal(count_matches(st, 12, 21, 0, 0, all), 5);
    assert_int_equal(count_matches(st, 12, 0, 33, 0, all), 3);
    assert_int_equal(count_matches(st, 0, 21, 33, 0, all), 10);
    assert_int_equal(count_matches(st, 12, 21, 33, 0, all), 1);
    assert_int_equal(count_matches(st, 12, 21, 99, 0, all), 0);
    assert_int_equal(count_matches(st, 99, 0, 0, 0, all), 0);
    assert_int_equal(store_estimate(st, 0, 21, 0), 50);
}

static void every_pattern_shape_matches(void **state) {
    (void)state;
    store *st = store_new();
    for (term_id s = 10; s < 20; s++)
        for (term_id p = 20; p < 23; p++)
            for (term_id o = 30; o < 35; o++)
                store_add(st, s, p, o, 1);
    check_every_pattern_shape(st);
    /* the lookup indexes dropped (an agent composing its writes) are built again on demand, whole */
    store_drop_lookup_indexes(st);
    check_every_pattern_shape(st);
    store_drop_lookup_indexes(st);
    store_add(st, 12, 21, 33, 1); /* a duplicate still found as one: the set was kept */
    assert_int_equal(count_matches(st, 12, 21, 33, 0, store_size(st)), 1);
    check_every_pattern_shape(st);
    store_free(st);
}

static void ranges_restrict_matches(void **state) {
    (void)state;
    store *st = store_of_objects(100);
    assert_int_equal(count_matches(st, 1, 2, 0, 10, 20), 10);
    assert_int_equal(count_matches(st, 0, 2, 0, 95, 100), 5);
    assert_int_equal(count_matches(st, 0, 0, 0, 50, 60), 10);
    assert_int_equal(count_matches(st, 1, 2, 140, 0, 50), 1);
    assert_int_equal(count_matches(st, 1, 2, 140, 51, 100), 0);
    assert_int_equal(count_matches(st, 1, 2, 0, 0, 0), 0);
    store_free(st);
}

static void iteration_survives_insertion(void **state) {
    (void)state;
    store *st = store_of_objects(10);
    store_iter it;
    store_match(st, 1, 2, 0, 0, store_size(st), &it);
    uint32_t n, seen = 0;
    while (store_next(&it, &n)) {
        /* grows the very bucket being iterated, forcing reallocation */
        for (term_id o = 1000 + seen * 100; o < 1100 + seen * 100; o++)
            store_add(st, 1, 2, o, 1);
        seen++;
    }
    assert_int_equal(seen, 10);
    assert_int_equal(store_size(st), 1010);
    store_free(st);
}

/* A triple handed out by store_next stays valid while matches made inside the loop build indexes (they
 * move index entries): nested loops over working memory (the watcher, status, lint) rely on it. ASan
 * reports a read of a moved entry; the values are checked too. */
static void triples_survive_nested_matches(void **state) {
    (void)state;
    store *st = store_new();
    for (term_id s = 1; s <= 300; s++)
        for (term_id p = 10; p < 14; p++)
            store_add(st, s, p, 1000 + s * 10 + p, 1);
    for (term_id s = 1; s <= 300; s += 7) {
        store_iter outer; /* one triple: its index entry is held in the bucket itself */
        store_match(st, s, 10, 0, 0, store_size(st), &outer);
        uint32_t n;
        const triple *tr = store_next(&outer, &n);
        assert_non_null(tr);
        for (term_id p = 11; p < 14; p++) /* each predicate's first lookups add buckets to the same index */
            for (term_id other = 1; other <= 300; other++) {
                store_iter inner;
                store_match(st, other, p, 0, 0, store_size(st), &inner);
                uint32_t m;
                const triple *x = store_next(&inner, &m);
                assert_non_null(x);
                assert_int_equal(x->o, 1000 + other * 10 + p);
            }
        assert_int_equal(tr->s, s);
        assert_int_equal(tr->p, 10);
        assert_int_equal(tr->o, 1000 + s * 10 + 10);
    }
    store_free(st);
}

/* SP and PO keep a predicate's triples from the first lookup on: one asked for late must still see every
 * triple, in ascending number (ranges rely on it), and later triples of both kinds of predicate. */
static void predicates_asked_late_see_every_triple(void **state) {
    (void)state;
    store *st = store_new();
    for (term_id s = 10; s < 20; s++) {
        store_add(st, s, 20, 30, 1);
        store_add(st, s, 21, 30, 1);
    }
    assert_int_equal(count_matches(st, 12, 20, 0, 0, store_size(st)), 1);
    assert_int_equal(count_matches(st, 0, 20, 30, 0, store_size(st)), 10);
    for (term_id s = 10; s < 20; s++) {
        store_add(st, s, 20, 31, 1);
        store_add(st, s, 21, 31, 1);
    }
    uint32_t all = store_size(st);
    assert_int_equal(count_matches(st, 12, 20, 0, 0, all), 2);
    assert_int_equal(count_matches(st, 12, 21, 0, 0, all), 2); /* 21 first asked for now */
    assert_int_equal(count_matches(st, 0, 21, 30, 0, all), 10);
    assert_int_equal(count_matches(st, 0, 21, 31, 0, all), 10);
    assert_int_equal(count_matches(st, 12, 21, 0, 20, all), 1); /* only the second one is in range */
    assert_int_equal(store_count(st, 0, 21, 31, 0, 20), 0);
    assert_int_equal(store_count(st, 0, 21, 31, 20, all), 10);
    assert_int_equal(store_estimate(st, 13, 21, 0), 2);
    store_iter it;
    store_match(st, 0, 21, 30, 0, all, &it);
    uint32_t n, last = 0, seen = 0;
    while (store_next(&it, &n)) {
        assert_true(seen == 0 || n > last);
        last = n;
        seen++;
    }
    assert_int_equal(seen, 10);
    store_add(st, 12, 21, 32, 1);
    assert_int_equal(count_matches(st, 12, 21, 0, 0, store_size(st)), 3);
    store_free(st);
}

/* Batches hold what single steps would yield, also when the bucket grows between two batches. */
static void batches_match_single_steps(void **state) {
    (void)state;
    store *st = store_of_objects(100);
    store_iter it;
    store_match(st, 1, 2, 0, 10, 90, &it);
    store_entry batch[16];
    uint32_t got, seen = 0;
    while ((got = store_next_batch(&it, batch, 16)) > 0) {
        for (uint32_t i = 0; i < got; i++) {
            assert_int_equal(batch[i].n, 10 + seen);
            assert_memory_equal(&batch[i].t, store_triple(st, batch[i].n), sizeof(triple));
            seen++;
        }
        for (term_id o = 1000 + seen * 10; o < 1010 + seen * 10; o++)
            store_add(st, 1, 2, o, 1);
    }
    assert_int_equal(seen, 80);
    store_match(st, 0, 0, 0, 5, 8, &it);
    assert_int_equal(store_next_batch(&it, batch, 16), 3);
    assert_int_equal(batch[2].n, 7);
    assert_int_equal(store_next_batch(&it, batch, 16), 0);
    store_free(st);
}

/* The readers' lookups: the first object, whether a pattern matches, all objects or subjects in the order
 * added (a vector's earlier contents replaced). */
static void reader_lookups(void **state) {
    (void)state;
    store *st = store_new();
    store_add(st, 1, 2, 30, 1);
    store_add(st, 1, 2, 10, 1);
    store_add(st, 5, 2, 10, 1);
    store_add(st, 1, 3, 20, 1);
    assert_int_equal(store_first_object(st, 1, 2), 30);
    assert_int_equal(store_first_object(st, 1, 4), 0);
    assert_true(store_any(st, 1, 0, 0));
    assert_true(store_any(st, 0, 2, 10));
    assert_false(store_any(st, 10, 0, 0));
    assert_false(store_any(st, 0, 3, 10));
    u32vec found = {0};
    u32vec_push(&found, 99);
    store_objects(st, 1, 2, &found);
    assert_int_equal(found.len, 2);
    assert_int_equal(found.data[0], 30);
    assert_int_equal(found.data[1], 10);
    store_subjects(st, 2, 10, &found);
    assert_int_equal(found.len, 2);
    assert_int_equal(found.data[0], 1);
    assert_int_equal(found.data[1], 5);
    store_objects(st, 7, 2, &found);
    assert_int_equal(found.len, 0);
    u32vec_free(&found);
    store_free(st);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(add_deduplicates),          cmocka_unit_test(graphs_are_recorded),
        cmocka_unit_test(batches_record_a_second_source), cmocka_unit_test(sources_beyond_the_first),
        cmocka_unit_test(every_pattern_shape_matches), cmocka_unit_test(ranges_restrict_matches),
        cmocka_unit_test(iteration_survives_insertion), cmocka_unit_test(predicates_asked_late_see_every_triple),
        cmocka_unit_test(batches_match_single_steps), cmocka_unit_test(triples_survive_nested_matches),
        cmocka_unit_test(reader_lookups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
