/* test_discover.c: `ldgsm run --instances-from` (src/agent/discover.h) without a server: the crawl's reads
 * are played by a table, the documents' triples put into the working memory by hand. An instance joins
 * when its listed document is read; a member no longer listed leaves with its instances, whose text stays
 * valid until the next iteration starts (lists handed out before stay readable); a container that cannot
 * be read keeps the known instances; a member describing no instance is not read again; an instance run
 * before (the root its own gsm:inArtifactInstance) joins, its stages do not; a container known
 * unchanged (a channel watches it) is not read and keeps its members; who joined and whether some left is
 * told per iteration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agent/discover.h"
#include "agent/vocab.h"

#define POOL "http://127.0.0.1:3000/pool/"
#define LDP_CONTAINS "http://www.w3.org/ns/ldp#contains"

typedef struct world {
    terms *t;
    agent_vocab v;
    log_sink quiet;
    discovery *d;
    store *wm;
    long container_status;  /* what the container's GET answered */
    const char *reads[8];   /* the documents read in this iteration (the container included) */
    size_t read_count;
    size_t reads_asked;     /* how many times a document other than the container was asked for */
    bool read_all;          /* every document asked for was read (describing nothing but the reads listed) */
} world;

static void drop_log(void *user, enum log_level level, const char *message) {
    (void)user, (void)level, (void)message;
}

static bool read_table(void *user, const char *iri, agent_read *out) {
    world *w = user;
    if (strcmp(iri, POOL) != 0)
        w->reads_asked++;
    for (size_t i = 0; i < w->read_count; i++)
        if (strcmp(w->reads[i], iri) == 0) {
            *out = (agent_read){.status = strcmp(iri, POOL) == 0 ? w->container_status : 200};
            return true;
        }
    *out = (agent_read){.status = 200};
    return w->read_all;
}

static void world_init(world *w) {
    memset(w, 0, sizeof *w);
    w->t = terms_new();
    agent_vocab_init(&w->v, w->t);
    w->quiet = (log_sink){.write = drop_log};
    char *containers[] = {POOL};
    w->d = discovery_new(containers, 1, 0, 0, w->t, &w->v, &w->quiet);
}

static void world_free(world *w) {
    discovery_free(w->d);
    store_free(w->wm);
    terms_free(w->t);
}

static term_id iri(world *w, const char *text) { return terms_iri_cstr(w->t, text); }

/* A new iteration: a fresh working memory whose container lists the documents given (NULL ends). */
static void begin(world *w, const char *const *listed) {
    store_free(w->wm);
    w->wm = store_new();
    w->container_status = 200;
    w->read_count = 0;
    w->reads[w->read_count++] = POOL;
    discovery_begin(w->d, w->wm, true, NULL);
    for (size_t i = 0; listed && listed[i]; i++)
        store_add(w->wm, iri(w, POOL), iri(w, LDP_CONTAINS), iri(w, listed[i]), iri(w, POOL));
}

/* The document doc, read in this iteration, describes the instance doc#it (or nothing when bare). */
static void read_document(world *w, const char *doc, bool bare) {
    w->reads[w->read_count++] = doc;
    if (bare)
        return;
    char instance[128];
    snprintf(instance, sizeof instance, "%s#it", doc);
    store_add(w->wm, iri(w, instance), w->v.is_instance_of, iri(w, "http://127.0.0.1:3000/models/m#root"),
              iri(w, doc));
}

static size_t instance_count(world *w) {
    size_t count;
    discovery_instances(w->d, &count);
    return count;
}

static void test_join_and_leave(void **state) {
    (void)state;
    world w;
    world_init(&w);
    const char *both[] = {POOL "a", POOL "b", NULL};
    begin(&w, both);
    read_document(&w, POOL "a", false);
    read_document(&w, POOL "b", false);
    assert_true(discovery_scan(w.d, w.wm, read_table, &w) > 0);
    size_t count;
    const char *const *list = discovery_instances(w.d, &count);
    assert_int_equal(count, 2);
    const char *a_instance = strcmp(list[0], POOL "a#it") == 0 ? list[0] : list[1];
    assert_string_equal(a_instance, POOL "a#it");

    /* b's container lists a no more: a leaves, and the text handed out stays readable in this iteration */
    const char *only_b[] = {POOL "b", NULL};
    begin(&w, only_b);
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_string_equal(a_instance, POOL "a#it");
    list = discovery_instances(w.d, &count);
    assert_int_equal(count, 1);
    assert_string_equal(list[0], POOL "b#it");
    begin(&w, only_b); /* the text of what left is freed here (LeakSanitizer sees it not leak) */
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(instance_count(&w), 1);
    world_free(&w);
}

/* A container a channel vouches for is not asked for, and its members stay; the instances known are not
 * asserted when the caller asserts those it evaluates. */
static void test_unchanged_container_is_not_read(void **state) {
    (void)state;
    world w;
    world_init(&w);
    const char *both[] = {POOL "a", POOL "b", NULL};
    begin(&w, both);
    read_document(&w, POOL "a", false);
    read_document(&w, POOL "b", false);
    discovery_scan(w.d, w.wm, read_table, &w);
    size_t joined;
    discovery_joined(w.d, &joined);
    assert_int_equal(joined, 2);
    assert_false(discovery_some_left(w.d));

    store_free(w.wm);
    w.wm = store_new();
    w.read_count = 0;
    const bool unchanged[] = {true};
    discovery_begin(w.d, w.wm, false, unchanged);
    assert_int_equal(store_size(w.wm), 0); /* neither the container to read nor an instance */
    assert_int_equal(discovery_scan(w.d, w.wm, read_table, &w), 0);
    assert_int_equal(instance_count(&w), 2);
    discovery_joined(w.d, &joined);
    assert_int_equal(joined, 0);
    assert_false(discovery_some_left(w.d));

    const char *only_b[] = {POOL "b", NULL}; /* read again once it changed: a leaves */
    begin(&w, only_b);
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(instance_count(&w), 1);
    assert_true(discovery_some_left(w.d));
    world_free(&w);
}

/* An instance an agent has run before names itself its gsm:inArtifactInstance (the root's): it joins; a stage
 * of it, naming the root, does not. */
static void test_an_instance_run_before_joins(void **state) {
    (void)state;
    world w;
    world_init(&w);
    const char *a[] = {POOL "a", NULL};
    begin(&w, a);
    read_document(&w, POOL "a", false);
    term_id root = iri(&w, POOL "a#it"), stage = iri(&w, POOL "a#s1"), doc = iri(&w, POOL "a");
    store_add(w.wm, root, w.v.in_artifact_instance, root, doc);
    store_add(w.wm, stage, w.v.is_instance_of, iri(&w, "http://127.0.0.1:3000/models/m#s1"), doc);
    store_add(w.wm, stage, w.v.in_artifact_instance, root, doc);
    discovery_scan(w.d, w.wm, read_table, &w);
    size_t count;
    const char *const *list = discovery_instances(w.d, &count);
    assert_int_equal(count, 1);
    assert_string_equal(list[0], POOL "a#it");
    world_free(&w);
}

static size_t count_of(world *w, term_id predicate) { /* triples with that predicate in working memory */
    store_iter it;
    store_match(w->wm, 0, predicate, 0, 0, store_size(w->wm), &it);
    uint32_t n;
    size_t count = 0;
    while (store_next(&it, &n))
        count++;
    return count;
}

/* At most DISCOVERY_CANDIDATES_PER_ITERATION members are read as candidates in an iteration; the others in
 * the next, which is due at once; members not read yet keep the listings read. */
static void test_candidates_in_batches(void **state) {
    (void)state;
    world w;
    world_init(&w);
    w.read_all = true;
    enum { N = DISCOVERY_CANDIDATES_PER_ITERATION + 2 };
    static char names[N][48];
    const char *listed[N + 1];
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], POOL "m%zu", i);
        listed[i] = names[i];
    }
    listed[N] = NULL;
    term_id candidate = iri(&w, "https://w3id.org/ldgsm#instanceCandidate");
    begin(&w, listed);
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(count_of(&w, candidate), DISCOVERY_CANDIDATES_PER_ITERATION);
    assert_true(discovery_more(w.d));
    assert_true(discovery_unread(w.d));
    begin(&w, listed);
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(count_of(&w, candidate), 2); /* the rest, the others read (describing none) */
    assert_false(discovery_more(w.d));
    assert_false(discovery_unread(w.d));
    world_free(&w);
}

static void test_unreadable_container_keeps_instances(void **state) {
    (void)state;
    world w;
    world_init(&w);
    const char *a[] = {POOL "a", NULL};
    begin(&w, a);
    read_document(&w, POOL "a", false);
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(instance_count(&w), 1);
    begin(&w, NULL);
    w.container_status = 500; /* listed nothing, but answered 500: its listing is not taken */
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(instance_count(&w), 1);
    begin(&w, NULL); /* read, and empty: a leaves */
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(instance_count(&w), 0);
    world_free(&w);
}

static void test_bare_member_read_once(void **state) {
    (void)state;
    world w;
    world_init(&w);
    const char *bare[] = {POOL "notes", NULL};
    begin(&w, bare);
    read_document(&w, POOL "notes", true);
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(instance_count(&w), 0);
    size_t asked = w.reads_asked;
    assert_true(asked > 0);
    for (int i = 0; i < 3; i++) {
        begin(&w, bare);
        discovery_scan(w.d, w.wm, read_table, &w);
    }
    assert_int_equal(w.reads_asked, asked);
    world_free(&w);
}

/* The bookkeeping follows the changes (discovery_work): with 500 members known, an iteration whose listing
 * names them all and one new member walks over none of them; one in which a member is missing walks over
 * them all, once. */
static void test_cost_follows_the_changes(void **state) {
    (void)state;
    world w;
    world_init(&w);
    w.read_all = true;
    static char names[502][64];
    static const char *listed[503];
    for (int i = 0; i < 501; i++) {
        snprintf(names[i], sizeof names[i], POOL "m%d", i);
        listed[i] = names[i];
    }
    listed[500] = NULL;
    begin(&w, listed);
    discovery_scan(w.d, w.wm, read_table, &w);
    discovery_instances(w.d, &(size_t){0});
    begin(&w, listed); /* the members read: each described nothing */
    discovery_scan(w.d, w.wm, read_table, &w);
    listed[500] = names[500];
    listed[501] = NULL;
    begin(&w, listed);
    discovery_scan(w.d, w.wm, read_table, &w);
    discovery_instances(w.d, &(size_t){0});
    assert_false(discovery_some_left(w.d));
    assert_int_equal(discovery_work(w.d), 0);
    listed[7] = names[500];
    listed[500] = NULL;
    begin(&w, listed);
    discovery_scan(w.d, w.wm, read_table, &w);
    assert_int_equal(discovery_work(w.d), 501);
    world_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_and_leave),
        cmocka_unit_test(test_unchanged_container_is_not_read),
        cmocka_unit_test(test_an_instance_run_before_joins),
        cmocka_unit_test(test_candidates_in_batches),
        cmocka_unit_test(test_unreadable_container_keeps_instances),
        cmocka_unit_test(test_bare_member_read_once),
        cmocka_unit_test(test_cost_follows_the_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
