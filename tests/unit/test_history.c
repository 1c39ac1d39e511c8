/* test_history.c: the bounded history a composed update appends (src/agent/history.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agent/history.h"
#include "rdf/buf.h"

#define DOC "http://h/status/a"

typedef struct fixture {
    terms *t;
    agent_vocab v;
    u64map tracked;
    term_id state, active, inactive, deadline, s1, s2, clock;
} fixture;

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    f->t = terms_new();
    agent_vocab_init(&f->v, f->t);
    f->state = terms_iri_cstr(f->t, NS_GSM "hasState");
    f->active = terms_iri_cstr(f->t, NS_GSM "active");
    f->inactive = terms_iri_cstr(f->t, NS_GSM "inactive");
    f->deadline = terms_iri_cstr(f->t, NS_LDGSM "deadline");
    f->s1 = terms_iri_cstr(f->t, DOC "#s-1");
    f->s2 = terms_iri_cstr(f->t, DOC "#s-2");
    f->clock = terms_string(f->t, "2026-11-26T12:00:00.000Z");
    u64map_put(&f->tracked, f->state, 1, NULL);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    u64map_free(&f->tracked);
    terms_free(f->t);
    free(f);
    return 0;
}

static history_input input(fixture *f, unsigned limit) {
    return (history_input){.t = f->t, .v = &f->v, .doc_url = DOC, .clock = f->clock, .limit = limit,
                           .tracked = &f->tracked};
}

static size_t count_pred(const triple *ts, size_t n, term_id p, term_id o) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += ts[i].p == p && (!o || ts[i].o == o);
    return k;
}

static bool has(const triple *ts, size_t n, const char *s, term_id p, term_id o, fixture *f) {
    term_id subject = terms_iri_cstr(f->t, s);
    for (size_t i = 0; i < n; i++)
        if (ts[i].s == subject && ts[i].p == p && ts[i].o == o)
            return true;
    return false;
}

/* s1 goes inactive -> active: one entry t-1 with from, to, at, changed, property. */
static void test_a_change_is_one_entry(void **state) {
    fixture *f = *state;
    triple before[] = {{f->s1, f->state, f->inactive}};
    size_t n = 1;
    triple *next = malloc(4 * sizeof *next);
    next[0] = (triple){f->s1, f->state, f->active};
    history_slot slots[] = {{f->s1, f->state}, {f->s1, f->state}};
    history_input in = input(f, 100);
    history_record(&in, before, 1, slots, 2, &next, &n);
    assert_int_equal(count_pred(next, n, f->v.sequence, 0), 1);
    assert_true(has(next, n, DOC "#t-1", f->v.from, f->inactive, f));
    assert_true(has(next, n, DOC "#t-1", f->v.to, f->active, f));
    assert_true(has(next, n, DOC "#t-1", f->v.changed, f->s1, f));
    assert_true(has(next, n, DOC "#t-1", f->v.property, f->state, f));
    assert_true(has(next, n, DOC "#t-1", f->v.at, f->clock, f));
    free(next);
}

/* No change, an untracked predicate, a limit of 0: no entry. */
static void test_no_entry_without_a_tracked_change(void **state) {
    fixture *f = *state;
    triple before[] = {{f->s1, f->state, f->active}, {f->s1, f->deadline, f->clock}};
    triple *next = malloc(4 * sizeof *next);
    next[0] = (triple){f->s1, f->state, f->active};
    next[1] = (triple){f->s1, f->deadline, f->inactive};
    size_t n = 2;
    history_slot slots[] = {{f->s1, f->state}, {f->s1, f->deadline}};
    history_input in = input(f, 100);
    history_record(&in, before, 2, slots, 2, &next, &n);
    assert_int_equal(n, 2);
    next[0].o = f->inactive;
    in.limit = 0;
    history_record(&in, before, 2, slots, 2, &next, &n);
    assert_int_equal(n, 2);
    free(next);
}

/* Entries count on from the highest held; beyond the limit the oldest go. */
static void test_the_oldest_go_beyond_the_limit(void **state) {
    fixture *f = *state;
    triple *doc = NULL;
    size_t n = 0;
    term_id values[2] = {f->inactive, f->active};
    for (int round = 0; round < 5; round++) {
        triple *before = malloc((n + 1) * sizeof *before);
        if (n)
            memcpy(before, doc, n * sizeof *before);
        size_t before_n = n;
        for (size_t i = 0; i < n; i++)
            if (doc[i].s == f->s2 && doc[i].p == f->state)
                doc[i].o = values[round % 2];
        if (round == 0) {
            doc = realloc(doc, (n + 1) * sizeof *doc);
            doc[n++] = (triple){f->s2, f->state, values[0]};
        }
        history_slot slots[] = {{f->s2, f->state}};
        history_input in = input(f, 2);
        history_record(&in, before, before_n, slots, 1, &doc, &n);
        free(before);
    }
    assert_int_equal(count_pred(doc, n, f->v.sequence, 0), 2);
    assert_true(has(doc, n, DOC "#t-4", f->v.at, f->clock, f));
    assert_true(has(doc, n, DOC "#t-5", f->v.at, f->clock, f));
    assert_false(has(doc, n, DOC "#t-3", f->v.at, f->clock, f));
    assert_int_equal(count_pred(doc, n, f->state, 0), 1); /* the state itself stays */
    free(doc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_change_is_one_entry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_entry_without_a_tracked_change, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_oldest_go_beyond_the_limit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
