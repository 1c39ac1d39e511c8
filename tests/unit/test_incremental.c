/* test_incremental.c: which instances an iteration leaves out (src/agent/incremental.h), without a server:
 * the revalidations' answers are given by hand. An instance is left out only when it was quiet, its wake
 * time has not come, and every document it read answered "unchanged" in the state it saw; a document
 * another instance saw change makes the older readers be evaluated whatever the server answers; an
 * instance that left the run is forgotten. A document a channel watches is not asked for until its safety
 * poll, which asks for it by GET (spread over the last quarter of the period) without evaluating its
 * readers unless it changed; the next iteration is due at once while any document of a quiet instance has
 * no channel, else at its wake time or the earliest safety poll. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agent/incremental.h"

#define MODEL "http://127.0.0.1:3000/models/m"
#define DOC_A "http://127.0.0.1:3000/status/a"
#define DOC_B "http://127.0.0.1:3000/status/b"
#define SENSOR "http://127.0.0.1:3000/data/sensor"
#define A DOC_A "#it"
#define B DOC_B "#it"
#define SAFETY 60000
#define NEVER INT64_MAX

static const bool by_get[] = {true, true, true};

/* Begins an iteration at now and answers each revalidation: unchanged unless its resource is in changed. */
static size_t iterate(incremental *inc, int64_t now, const char *const *changed, size_t changed_count,
                      size_t *asked) {
    size_t count;
    const revalidation *r = incremental_begin(inc, now, &count);
    for (size_t i = 0; i < count; i++) {
        bool is_changed = false;
        for (size_t k = 0; k < changed_count; k++)
            is_changed |= strcmp(r[i].resource, changed[k]) == 0;
        incremental_revalidated(inc, r[i].resource, !is_changed);
    }
    if (asked)
        *asked = count;
    return incremental_decide(inc);
}

static void note_a(incremental *inc, bool quiet, int64_t wake, const char *doc_etag) {
    const char *names[] = {DOC_A, MODEL, SENSOR};
    const char *etags[] = {doc_etag, "\"m1\"", NULL};
    incremental_note(inc, A, quiet, wake, names, etags, by_get, 3);
}

/* B read its status document, the model in state model_etag, and (when with_sensor) the absent sensor. */
static void note_b(incremental *inc, const char *model_etag, bool with_sensor) {
    const char *names[] = {DOC_B, MODEL, SENSOR};
    const char *etags[] = {"\"b1\"", model_etag, NULL};
    incremental_note(inc, B, true, NEVER, names, etags, by_get, with_sensor ? 3 : 2);
}

/* A table after a first iteration at 1000 that evaluated A, quiet, with the given wake time. */
static incremental *with_a_noted(int64_t wake) {
    incremental *inc = incremental_new(SAFETY);
    iterate(inc, 1000, NULL, 0, NULL);
    note_a(inc, true, wake, "\"a1\"");
    return inc;
}

static void first_iteration_evaluates_everything_then_unchanged_is_left_out(void **state) {
    (void)state;
    incremental *inc = incremental_new(SAFETY);
    size_t asked;
    assert_int_equal(iterate(inc, 1000, NULL, 0, &asked), 0);
    assert_int_equal(asked, 0);
    note_a(inc, true, NEVER, "\"a1\"");
    assert_int_equal(iterate(inc, 2000, NULL, 0, &asked), 1);
    assert_int_equal(asked, 3); /* its status document, the model and the absent sensor */
    assert_true(incremental_skips(inc, A));
    assert_false(incremental_skips(inc, B)); /* never noted: evaluated */
    size_t evaluated;
    incremental_evaluated(inc, &evaluated);
    assert_int_equal(evaluated, 0); /* B is not among the noted ones */
    incremental_free(inc);
}

static void a_changed_document_brings_its_reader_back(void **state) {
    (void)state;
    incremental *inc = with_a_noted(NEVER);
    const char *changed[] = {SENSOR};
    assert_int_equal(iterate(inc, 2000, changed, 1, NULL), 0);
    assert_false(incremental_skips(inc, A));
    size_t evaluated;
    const char *const *list = incremental_evaluated(inc, &evaluated);
    assert_int_equal(evaluated, 1);
    assert_string_equal(list[0], A);
    incremental_free(inc);
}

static void an_instance_that_was_not_quiet_is_evaluated_and_not_revalidated(void **state) {
    (void)state;
    incremental *inc = incremental_new(SAFETY);
    size_t asked;
    iterate(inc, 1000, NULL, 0, NULL);
    note_a(inc, false, NEVER, "\"a1\"");
    assert_int_equal(iterate(inc, 2000, NULL, 0, &asked), 0);
    assert_int_equal(asked, 0);
    assert_false(incremental_skips(inc, A));
    incremental_free(inc);
}

static void its_wake_time_brings_it_back(void **state) {
    (void)state;
    incremental *inc = with_a_noted(5000);
    assert_int_equal(iterate(inc, 4999, NULL, 0, NULL), 1);
    assert_int_equal(iterate(inc, 5000, NULL, 0, NULL), 0);
    assert_false(incremental_skips(inc, A));
    incremental_free(inc);
}

/* A's documents, all three watched by a channel. */
static incremental *with_a_watched(void) {
    incremental *inc = with_a_noted(NEVER);
    incremental_watch(inc, DOC_A, true);
    incremental_watch(inc, MODEL, true);
    incremental_watch(inc, SENSOR, true);
    return inc;
}

/* The safety poll reads a watched document by GET within the last quarter of the period after its last GET,
 * those due within the gathering window together; finding it unchanged, its reader stays left out. */
static void the_safety_poll_reads_by_get_and_evaluates_only_a_change(void **state) {
    (void)state;
    incremental *inc = with_a_watched();
    size_t asked;
    assert_int_equal(iterate(inc, 2000, NULL, 0, &asked), 1);
    assert_int_equal(asked, 0);
    bool poll;
    int64_t due = incremental_next_due(inc, &poll);
    assert_false(poll);
    assert_true(due >= 1000 + SAFETY * 3 / 4 && due <= 1000 + SAFETY);
    assert_int_equal(iterate(inc, due - 1000 - 1, NULL, 0, &asked), 1); /* before the window */
    assert_int_equal(asked, 0);
    assert_int_equal(iterate(inc, due, NULL, 0, &asked), 1);
    size_t asked_first = asked;
    assert_true(asked_first >= 1);
    int64_t next = incremental_next_due(inc, &poll);
    if (asked_first < 3) /* the others' come by 1000 + SAFETY, after the window */
        assert_true(next > due + 1000 && next <= 1000 + SAFETY);
    /* every document is read by GET by then, each once: those asked before are a period away */
    assert_int_equal(iterate(inc, 1000 + SAFETY, NULL, 0, &asked), 1);
    assert_int_equal(asked_first + asked, 3);
    next = incremental_next_due(inc, &poll);
    assert_true(next > 1000 + SAFETY + SAFETY / 2);
    /* a change the safety poll finds brings A back */
    const char *changed[] = {DOC_A, MODEL, SENSOR};
    assert_int_equal(iterate(inc, 1000 + 3 * SAFETY, changed, 3, &asked), 0);
    assert_int_equal(asked, 3);
    assert_false(incremental_skips(inc, A));
    incremental_free(inc);
}

/* A watched document stands in for its GET only in the state noted, and only until its safety poll; a
 * newer state noted unwatches it (the channel vouched for the older one). */
static void a_channel_vouches_for_the_state_noted_until_its_safety_poll(void **state) {
    (void)state;
    incremental *inc = with_a_watched();
    size_t count;
    incremental_begin(inc, 2000, &count);
    assert_true(incremental_vouches(inc, DOC_A, "\"a1\""));
    assert_false(incremental_vouches(inc, DOC_A, "\"a2\""));
    assert_true(incremental_vouches(inc, SENSOR, NULL));
    assert_false(incremental_vouches(inc, SENSOR, "\"s1\""));
    assert_false(incremental_vouches(inc, DOC_B, "\"b1\"")); /* not noted */
    incremental_begin(inc, 1000 + SAFETY, &count);
    assert_false(incremental_vouches(inc, DOC_A, "\"a1\""));
    note_a(inc, true, NEVER, "\"a2\"");
    incremental_begin(inc, 1000 + SAFETY + 1, &count);
    assert_false(incremental_vouches(inc, DOC_A, "\"a2\""));
    assert_true(incremental_vouches(inc, MODEL, "\"m1\""));
    incremental_free(inc);
}

/* A read B's evaluation saw the model in a newer state than A did: A is evaluated although the server says
 * the model is unchanged since that newer state. */
static void a_reader_of_an_older_state_is_evaluated(void **state) {
    (void)state;
    incremental *inc = with_a_noted(NEVER);
    note_b(inc, "\"m2\"", false);
    assert_int_equal(iterate(inc, 2000, NULL, 0, NULL), 1);
    assert_false(incremental_skips(inc, A));
    assert_true(incremental_skips(inc, B));
    /* once evaluated again with what is there now, A is left out too */
    const char *names_a[] = {DOC_A, MODEL};
    const char *etags_a[] = {"\"a1\"", "\"m2\""};
    incremental_note(inc, A, true, NEVER, names_a, etags_a, by_get, 2);
    assert_int_equal(iterate(inc, 3000, NULL, 0, NULL), 2);
    incremental_free(inc);
}

/* One revalidation per document, however many instances read it; an absent document is asked without a
 * tag. */
static void a_document_is_revalidated_once(void **state) {
    (void)state;
    incremental *inc = with_a_noted(NEVER);
    note_b(inc, "\"m1\"", true);
    size_t count;
    const revalidation *r = incremental_begin(inc, 2000, &count);
    assert_int_equal(count, 4);
    size_t sensors = 0;
    for (size_t i = 0; i < count; i++)
        if (strcmp(r[i].resource, SENSOR) == 0) {
            sensors++;
            assert_null(r[i].etag);
        } else {
            assert_non_null(r[i].etag);
        }
    assert_int_equal(sensors, 1);
    incremental_free(inc);
}

/* An instance that left the run is forgotten, with the documents only it read: back in the run, it is
 * evaluated; the one kept is still left out. */
static void instances_that_left_are_forgotten(void **state) {
    (void)state;
    incremental *inc = with_a_noted(NEVER);
    note_b(inc, "\"m1\"", false);
    const char *listed[] = {B, B, "http://127.0.0.1:3000/status/never-noted#it"}; /* B listed twice */
    incremental_retain(inc, listed, 3);
    size_t asked;
    assert_int_equal(iterate(inc, 2000, NULL, 0, &asked), 1);
    assert_int_equal(asked, 2); /* B's status document and the model: A's and the sensor are gone */
    assert_true(incremental_skips(inc, B));
    assert_false(incremental_skips(inc, A));
    /* back in the run, A is evaluated until noted again */
    const char *both[] = {A, B};
    incremental_retain(inc, both, 2);
    assert_int_equal(iterate(inc, 3000, NULL, 0, NULL), 1);
    assert_false(incremental_skips(inc, A));
    incremental_free(inc);
}

static void a_watched_document_is_not_asked_for(void **state) {
    (void)state;
    incremental *inc = with_a_noted(NEVER);
    incremental_watch(inc, DOC_A, true);
    incremental_watch(inc, MODEL, true);
    incremental_watch(inc, "http://127.0.0.1:3000/never-noted", true); /* nothing */
    size_t count;
    const revalidation *r = incremental_begin(inc, 2000, &count);
    assert_int_equal(count, 1);
    assert_string_equal(r[0].resource, SENSOR);
    incremental_revalidated(inc, SENSOR, true);
    assert_int_equal(incremental_decide(inc), 1); /* the watched ones count as unchanged */
    incremental_watch(inc, MODEL, false); /* a notification came */
    r = incremental_begin(inc, 3000, &count);
    assert_int_equal(count, 2);
    incremental_free(inc);
}

/* When the next iteration is due (a change-driven agent sleeps until then): the earliest wake time or safety
 * poll, and besides whether something is to be polled at --interval (a document no channel watches, a busy
 * instance): a minute in `ldgsm run --notifications -n 60000`, which a wake time must not wait for. A wake
 * time that passed while the last iteration ran is returned as it is: at once. */
static void the_next_iteration_is_due_when_a_document_is_not_watched(void **state) {
    (void)state;
    incremental *inc = with_a_noted(5000);
    bool poll;
    assert_int_equal(incremental_next_due(inc, &poll), 5000);
    assert_true(poll);
    incremental_watch(inc, DOC_A, true);
    incremental_watch(inc, MODEL, true);
    assert_int_equal(incremental_next_due(inc, &poll), 5000);
    assert_true(poll); /* the sensor */
    incremental_watch(inc, SENSOR, true);
    assert_int_equal(incremental_next_due(inc, &poll), 5000); /* its wake time */
    assert_false(poll);
    incremental_note(inc, B, false, NEVER, (const char *[]){DOC_B}, (const char *[]){"\"b1\""}, by_get, 1);
    assert_int_equal(incremental_next_due(inc, &poll), 5000); /* B busy: A's wake time still */
    assert_true(poll);
    incremental_retain(inc, (const char *[]){A}, 1);
    note_a(inc, true, NEVER, "\"a1\"");
    int64_t due = incremental_next_due(inc, &poll); /* the earliest safety poll */
    assert_true(due >= 1000 + SAFETY * 3 / 4 && due <= 1000 + SAFETY);
    assert_false(poll);
    note_a(inc, false, NEVER, "\"a1\"");
    assert_int_equal(incremental_next_due(inc, &poll), due); /* not quiet */
    assert_true(poll);
    incremental_free(inc);
}

/* Nothing noted yet: the next iteration is a poll. */
static void with_nothing_noted_it_polls(void **state) {
    (void)state;
    incremental *inc = incremental_new(SAFETY);
    bool poll;
    assert_int_equal(incremental_next_due(inc, &poll), INT64_MAX);
    assert_true(poll);
    incremental_free(inc);
}

/* The iteration's cost follows what is due (incremental.h): 10,000 quiet instances, each with its own status
 * document and the shared model, all watched, nothing due: an iteration looks at none of them; one
 * document a channel no longer vouches for costs its reader, not the table; a safety poll due for one
 * document asks for that one; a new model state makes every reader due. */
#define MANY 10000
static void the_cost_follows_what_is_due(void **state) {
    (void)state;
    incremental *inc = incremental_new(SAFETY);
    iterate(inc, 1000, NULL, 0, NULL);
    static char names[MANY][56], docs[MANY][48];
    for (int i = 0; i < MANY; i++) {
        snprintf(docs[i], sizeof docs[i], "http://127.0.0.1:3000/status/i%d", i);
        snprintf(names[i], sizeof names[i], "http://127.0.0.1:3000/status/i%d#it", i);
        const char *read[] = {docs[i], MODEL};
        const char *etags[] = {"\"s1\"", "\"m1\""};
        incremental_note(inc, names[i], true, NEVER, read, etags, by_get, 2);
    }
    for (int i = 0; i < MANY; i++)
        incremental_watch(inc, docs[i], true);
    incremental_watch(inc, MODEL, true);
    size_t asked;
    assert_int_equal(iterate(inc, 2000, NULL, 0, &asked), MANY);
    assert_int_equal(asked, 0);
    size_t first = incremental_work(inc); /* the unwatched list, emptied */
    assert_int_equal(iterate(inc, 3000, NULL, 0, &asked), MANY);
    assert_int_equal(asked, 0);
    assert_int_equal(incremental_work(inc), 0);
    assert_true(first <= MANY + 1);
    bool poll;
    assert_true(incremental_next_due(inc, &poll) > 3000);
    assert_false(poll);
    /* one document's channel lost: its GET finds a change, its reader alone is evaluated */
    incremental_watch(inc, docs[77], false);
    const char *changed[] = {docs[77]};
    assert_int_equal(iterate(inc, 4000, changed, 1, &asked), MANY - 1);
    assert_int_equal(asked, 1);
    assert_true(incremental_work(inc) < 10);
    size_t evaluated;
    assert_string_equal(incremental_evaluated(inc, &evaluated)[0], names[77]);
    assert_int_equal(evaluated, 1);
    const char *read[] = {docs[77], MODEL};
    const char *etags[] = {"\"s2\"", "\"m1\""};
    incremental_note(inc, names[77], true, NEVER, read, etags, by_get, 2);
    incremental_watch(inc, docs[77], true);
    /* the safety polls come due spread over the last quarter of the period: each asks for its document */
    int64_t due = incremental_next_due(inc, &poll);
    assert_true(due > 4000 && due <= 2000 + SAFETY);
    assert_int_equal(iterate(inc, due, NULL, 0, &asked), MANY);
    assert_true(asked >= 1 && asked < MANY / 10); /* those due within the gathering second of 15 */
    assert_true(incremental_work(inc) < 3 * asked + 10);
    /* a reader sees the model in a new state: the others saw the older one, and all are evaluated next */
    const char *newer[] = {"\"s2\"", "\"m2\""};
    incremental_note(inc, names[77], true, NEVER, read, newer, by_get, 2);
    assert_int_equal(iterate(inc, due + 1, NULL, 0, NULL), 1);
    incremental_evaluated(inc, &evaluated);
    assert_int_equal(evaluated, MANY - 1);
    incremental_free(inc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_iteration_evaluates_everything_then_unchanged_is_left_out),
        cmocka_unit_test(a_changed_document_brings_its_reader_back),
        cmocka_unit_test(an_instance_that_was_not_quiet_is_evaluated_and_not_revalidated),
        cmocka_unit_test(its_wake_time_brings_it_back),
        cmocka_unit_test(the_safety_poll_reads_by_get_and_evaluates_only_a_change),
        cmocka_unit_test(a_channel_vouches_for_the_state_noted_until_its_safety_poll),
        cmocka_unit_test(a_reader_of_an_older_state_is_evaluated),
        cmocka_unit_test(a_document_is_revalidated_once),
        cmocka_unit_test(instances_that_left_are_forgotten),
        cmocka_unit_test(a_watched_document_is_not_asked_for),
        cmocka_unit_test(the_next_iteration_is_due_when_a_document_is_not_watched),
        cmocka_unit_test(with_nothing_noted_it_polls),
        cmocka_unit_test(the_cost_follows_what_is_due),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
