/* test_ldp_idempotency.c: the LDP server's Idempotency-Key table without HTTP: key parsing, fingerprints,
 * replay, 422 for another request, 409 while in flight (also under racing threads), 5xx not kept, expiry
 * on a test clock, eviction of the oldest, records written to and read back from a data directory, and
 * the store's walk passing over that directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ldp/ldp_disk.h"
#include "ldp/ldp_idempotency.h"
#include "ldp/ldp_store.h"

static int64_t test_now = 1000000;

static int64_t test_clock(void) { return test_now; }

typedef struct fixture {
    char dir[64];
    char data_dir[80];
    char records[120];
    unsigned warnings;
    log_sink log;
    ldp_idem *table;
} fixture;

static void count_warning(void *user, enum log_level level, const char *message) {
    (void)message;
    if (level <= LOG_WARN)
        ((fixture *)user)->warnings++;
}

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    strcpy(f->dir, "/tmp/test_ldp_idempotency.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->data_dir, sizeof f->data_dir, "%s/data", f->dir);
    snprintf(f->records, sizeof f->records, "%s/" LDP_DISK_IDEMPOTENCY_DIR, f->data_dir);
    f->log = (log_sink){.write = count_warning, .user = f, .threshold = LOG_WARN};
    test_now = 1000000;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    ldp_idem_free(f->table);
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", f->dir);
    assert_int_equal(system(command), 0);
    free(f);
    return 0;
}

static ldp_idem *open_table(fixture *f, bool durable, int64_t ttl, size_t max_keys) {
    ldp_idem_config config = {durable ? f->data_dir : NULL, ttl, max_keys, &f->log, test_clock};
    char message[512] = "";
    ldp_idem *table = ldp_idem_open(&config, message, sizeof message);
    if (!table)
        fail_msg("cannot open the table: %s", message);
    return table;
}

static void reopen(fixture *f, int64_t ttl, size_t max_keys) {
    ldp_idem_free(f->table);
    f->table = open_table(f, true, ttl, max_keys);
}

/* The fingerprint of a PUT of body to path. */
static void put_print(const char *path, const char *body, uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE]) {
    ldp_idem_fingerprint("PUT", path, "text/turtle", body, strlen(body), fingerprint);
}

/* A 201's answer as the server gives it, naming member. */
static void created(ldp_idem_answer *answer, const char *member) {
    *answer = (ldp_idem_answer){.status = 201};
    ldp_idem_answer_add_header(answer, "ETag", "\"0123\"");
    ldp_idem_answer_add_header(answer, "Location", member);
    ldp_idem_answer_add_header(answer, "Link", "<http://www.w3.org/ns/ldp#RDFSource>; rel=\"type\"");
    buf_puts(&answer->body, "created\n");
}

/* Executes a PUT under key: asserts the key was new, and stores answer (status, member). */
static void execute_put(ldp_idem *t, const char *key, const char *body, int status, const char *member) {
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", body, fingerprint);
    ldp_idem_record *reserved = NULL;
    ldp_idem_answer stored = {0};
    assert_int_equal(ldp_idem_begin(t, key, fingerprint, &reserved, &stored), LDP_IDEM_EXECUTE);
    assert_non_null(reserved);
    ldp_idem_answer answer;
    created(&answer, member);
    answer.status = status;
    ldp_idem_finish(t, reserved, &answer);
    assert_int_equal(answer.body.len, 0); /* taken over */
}

/* What the table says to a PUT of body under key; a replayed answer's Location into member (or ""). */
static enum ldp_idem_verdict look_up(ldp_idem *t, const char *key, const char *body, char *member, size_t size) {
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", body, fingerprint);
    ldp_idem_record *reserved = NULL;
    ldp_idem_answer stored = {0};
    enum ldp_idem_verdict verdict = ldp_idem_begin(t, key, fingerprint, &reserved, &stored);
    if (member)
        member[0] = '\0';
    size_t offset = 0;
    const char *name, *value;
    while (ldp_idem_answer_next_header(&stored, &offset, &name, &value))
        if (member && strcmp(name, "Location") == 0)
            snprintf(member, size, "%s", value);
    if (verdict == LDP_IDEM_EXECUTE) { /* give the key back, as a 5xx would */
        ldp_idem_answer failed = {.status = 500};
        ldp_idem_finish(t, reserved, &failed);
    }
    ldp_idem_answer_clear(&stored);
    return verdict;
}

static size_t count_files(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.' || strncmp(e->d_name, LDP_DISK_TMP_PREFIX, strlen(LDP_DISK_TMP_PREFIX)) == 0;
    closedir(d);
    return n;
}

/* ---------------------------------------------------------------- keys and fingerprints */

static void keys_are_sf_strings_or_tokens(void **state) {
    (void)state;
    char key[LDP_IDEM_KEY_MAX + 1];
    const char *why = NULL;
    assert_int_equal(ldp_idem_parse_key("\"abc\"", key, &why), 0);
    assert_string_equal(key, "abc");
    assert_int_equal(ldp_idem_parse_key("abc", key, &why), 0);
    assert_string_equal(key, "abc");
    assert_int_equal(ldp_idem_parse_key("  \"8e03978e-40d5 x\"  ", key, &why), 0);
    assert_string_equal(key, "8e03978e-40d5 x");
    assert_int_equal(ldp_idem_parse_key("\"a\\\"b\\\\c\"", key, &why), 0);
    assert_string_equal(key, "a\"b\\c");
    assert_int_equal(ldp_idem_parse_key("urn:uuid:8e03978e/1", key, &why), 0);
    assert_string_equal(key, "urn:uuid:8e03978e/1");

    char longest[LDP_IDEM_KEY_MAX + 3];
    memset(longest, 'k', sizeof longest);
    longest[LDP_IDEM_KEY_MAX] = '\0';
    assert_int_equal(ldp_idem_parse_key(longest, key, &why), 0);
    assert_int_equal(strlen(key), LDP_IDEM_KEY_MAX);
    longest[LDP_IDEM_KEY_MAX] = 'k';
    longest[LDP_IDEM_KEY_MAX + 1] = '\0';
    assert_int_equal(ldp_idem_parse_key(longest, key, &why), -1);
    assert_string_equal(why, "longer than 255 characters");
    char quoted[LDP_IDEM_KEY_MAX + 4] = "\"";
    memset(quoted + 1, 'k', LDP_IDEM_KEY_MAX);
    strcpy(quoted + 1 + LDP_IDEM_KEY_MAX, "\"");
    assert_int_equal(ldp_idem_parse_key(quoted, key, &why), 0);
    strcpy(quoted + 1 + LDP_IDEM_KEY_MAX, "k\"");
    assert_int_equal(ldp_idem_parse_key(quoted, key, &why), -1);
    assert_string_equal(why, "longer than 255 characters");

    static const struct {
        const char *value, *why;
    } bad[] = {
        {"", "empty"},
        {"\"\"", "empty"},
        {"   ", "empty"},
        {"\"abc", "the string has no closing '\"'"},
        {"\"a\\nb\"", "a string escapes only '\"' and '\\'"},
        {"\"caf\xc3\xa9\"", "a string holds printable ASCII characters only"},
        {"\"a\tb\"", "a string holds printable ASCII characters only"},
        {"\"abc\";p=1", "parameters are not accepted"},
        {"abc, def", "one key only"},
        {"\"abc\"x", "not a string (\"...\") or a run of token characters"},
        {"a b", "not a string (\"...\") or a run of token characters"},
        {"a\"b\"", "not a string (\"...\") or a run of token characters"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        why = NULL;
        if (ldp_idem_parse_key(bad[i].value, key, &why) != -1)
            fail_msg("'%s' was accepted as '%s'", bad[i].value, key);
        assert_string_equal(why, bad[i].why);
    }
}

static void fingerprints_cover_method_path_type_and_body(void **state) {
    (void)state;
    uint8_t a[LDP_IDEM_FINGERPRINT_SIZE], b[LDP_IDEM_FINGERPRINT_SIZE];
    ldp_idem_fingerprint("PUT", "/c/x", "text/turtle", "<a> <b> <c> .", 13, a);
    ldp_idem_fingerprint("PUT", "/c/x", "text/turtle", "<a> <b> <c> .", 13, b);
    assert_memory_equal(a, b, sizeof a);
    ldp_idem_fingerprint("POST", "/c/x", "text/turtle", "<a> <b> <c> .", 13, b);
    assert_memory_not_equal(a, b, sizeof a);
    ldp_idem_fingerprint("PUT", "/c/y", "text/turtle", "<a> <b> <c> .", 13, b);
    assert_memory_not_equal(a, b, sizeof a);
    ldp_idem_fingerprint("PUT", "/c/x", "application/n-triples", "<a> <b> <c> .", 13, b);
    assert_memory_not_equal(a, b, sizeof a);
    ldp_idem_fingerprint("PUT", "/c/x", "text/turtle", "<a> <b> <d> .", 13, b);
    assert_memory_not_equal(a, b, sizeof a);
    ldp_idem_fingerprint("PUT", "/c/x", "text/turtle", "<a> <b> <c> .", 12, b);
    assert_memory_not_equal(a, b, sizeof a);
    /* The parts do not run into each other. */
    ldp_idem_fingerprint("PUT", "/c/xtext/turtle", "", "<a> <b> <c> .", 13, b);
    assert_memory_not_equal(a, b, sizeof a);
    /* No Content-Type and no body are a request too. */
    ldp_idem_fingerprint("DELETE", "/c/x", NULL, NULL, 0, a);
    ldp_idem_fingerprint("DELETE", "/c/x", NULL, "", 0, b);
    assert_memory_equal(a, b, sizeof a);
}

/* ---------------------------------------------------------------- the table */

static void a_repeat_is_replayed_whole(void **state) {
    fixture *f = *state;
    f->table = open_table(f, false, 0, 0);
    execute_put(f->table, "k1", "<a> <b> <c> .", 201, "/c/m1");
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", "<a> <b> <c> .", fingerprint);
    ldp_idem_record *reserved = NULL;
    ldp_idem_answer stored = {0}, expected;
    assert_int_equal(ldp_idem_begin(f->table, "k1", fingerprint, &reserved, &stored), LDP_IDEM_REPLAY);
    assert_null(reserved);
    created(&expected, "/c/m1");
    assert_int_equal(stored.status, 201);
    assert_int_equal(stored.headers.len, expected.headers.len);
    assert_memory_equal(stored.headers.data, expected.headers.data, expected.headers.len);
    assert_int_equal(stored.body.len, expected.body.len);
    assert_memory_equal(stored.body.data, expected.body.data, expected.body.len);
    ldp_idem_answer_clear(&stored);
    ldp_idem_answer_clear(&expected);
    /* Another key is another call. */
    assert_int_equal(look_up(f->table, "k2", "<a> <b> <c> .", NULL, 0), LDP_IDEM_EXECUTE);
    assert_int_equal(f->warnings, 0);
}

static void another_request_under_the_key_is_a_mismatch(void **state) {
    fixture *f = *state;
    f->table = open_table(f, false, 0, 0);
    uint8_t first[LDP_IDEM_FINGERPRINT_SIZE], other[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", "<a> <b> <c> .", first);
    put_print("/c/x", "<a> <b> <d> .", other);
    ldp_idem_record *reserved = NULL, *second = NULL;
    ldp_idem_answer stored = {0};
    assert_int_equal(ldp_idem_begin(f->table, "k", first, &reserved, &stored), LDP_IDEM_EXECUTE);
    assert_int_equal(ldp_idem_begin(f->table, "k", other, &second, &stored), LDP_IDEM_MISMATCH);
    ldp_idem_answer answer;
    created(&answer, "/c/m");
    ldp_idem_finish(f->table, reserved, &answer);
    assert_int_equal(ldp_idem_begin(f->table, "k", other, &second, &stored), LDP_IDEM_MISMATCH);
    assert_null(second);
    assert_int_equal(stored.headers.len, 0);
    assert_int_equal(look_up(f->table, "k", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
}

static void a_repeat_in_flight_is_told_so(void **state) {
    fixture *f = *state;
    f->table = open_table(f, false, 0, 0);
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", "<a> <b> <c> .", fingerprint);
    ldp_idem_record *reserved = NULL, *second = NULL;
    ldp_idem_answer stored = {0};
    assert_int_equal(ldp_idem_begin(f->table, "k", fingerprint, &reserved, &stored), LDP_IDEM_EXECUTE);
    assert_int_equal(ldp_idem_begin(f->table, "k", fingerprint, &second, &stored), LDP_IDEM_IN_FLIGHT);
    assert_null(second);
    ldp_idem_answer answer;
    created(&answer, "/c/m");
    ldp_idem_finish(f->table, reserved, &answer);
    assert_int_equal(ldp_idem_begin(f->table, "k", fingerprint, &second, &stored), LDP_IDEM_REPLAY);
    ldp_idem_answer_clear(&stored);
}

enum { RACERS = 8 };

typedef struct racer {
    ldp_idem *table;
    pthread_barrier_t *start;
    enum ldp_idem_verdict verdict;
    ldp_idem_record *reserved;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", "<a> <b> <c> .", fingerprint);
    ldp_idem_answer stored = {0};
    pthread_barrier_wait(r->start);
    r->verdict = ldp_idem_begin(r->table, "raced", fingerprint, &r->reserved, &stored);
    ldp_idem_answer_clear(&stored);
    return NULL;
}

static void racing_repeats_execute_once(void **state) {
    fixture *f = *state;
    f->table = open_table(f, false, 0, 0);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, RACERS);
    racer racers[RACERS];
    pthread_t threads[RACERS];
    for (int i = 0; i < RACERS; i++) {
        racers[i] = (racer){f->table, &start, LDP_IDEM_REPLAY, NULL};
        pthread_create(&threads[i], NULL, race, &racers[i]);
    }
    int executing = -1, in_flight = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        if (racers[i].verdict == LDP_IDEM_EXECUTE) {
            assert_int_equal(executing, -1);
            executing = i;
        }
        in_flight += racers[i].verdict == LDP_IDEM_IN_FLIGHT;
    }
    pthread_barrier_destroy(&start);
    assert_int_not_equal(executing, -1);
    assert_int_equal(in_flight, RACERS - 1);
    ldp_idem_answer answer;
    created(&answer, "/c/m");
    ldp_idem_finish(f->table, racers[executing].reserved, &answer);
    assert_int_equal(look_up(f->table, "raced", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
}

static void server_errors_are_not_kept(void **state) {
    fixture *f = *state;
    f->table = open_table(f, true, 0, 0);
    execute_put(f->table, "k", "<a> <b> <c> .", 503, "/c/m");
    assert_int_equal(count_files(f->records), 0);
    execute_put(f->table, "k", "<a> <b> <c> .", 201, "/c/m");
    assert_int_equal(look_up(f->table, "k", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    /* Client errors are that call's answer and are kept. */
    execute_put(f->table, "k4", "<a> <b> <c> .", 412, "/c/m");
    assert_int_equal(look_up(f->table, "k4", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    assert_int_equal(count_files(f->records), 2);
}

static void answers_expire_after_the_ttl(void **state) {
    fixture *f = *state;
    f->table = open_table(f, false, 60, 0);
    execute_put(f->table, "k", "<a> <b> <c> .", 201, "/c/m");
    test_now += 30;
    execute_put(f->table, "later", "<a> <b> <c> .", 201, "/c/n");
    test_now += 29;
    assert_int_equal(look_up(f->table, "k", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    test_now += 1;
    assert_int_equal(look_up(f->table, "later", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    assert_int_equal(look_up(f->table, "k", "<a> <b> <c> .", NULL, 0), LDP_IDEM_EXECUTE);
    /* An expired key is free for another request too. */
    test_now += 30;
    assert_int_equal(look_up(f->table, "later", "<x> <y> <z> .", NULL, 0), LDP_IDEM_EXECUTE);
    /* After the clock was set back, an answer is not kept past its time behind a younger one. */
    execute_put(f->table, "early", "<a> <b> <c> .", 201, "/c/e");
    test_now -= 1000;
    execute_put(f->table, "back", "<a> <b> <c> .", 201, "/c/b");
    test_now += 60;
    assert_int_equal(look_up(f->table, "back", "<a> <b> <c> .", NULL, 0), LDP_IDEM_EXECUTE);
    assert_int_equal(look_up(f->table, "early", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
}

static void the_oldest_keys_go_first(void **state) {
    fixture *f = *state;
    f->table = open_table(f, true, 0, 2);
    execute_put(f->table, "a", "<a> <b> <c> .", 201, "/c/a");
    execute_put(f->table, "b", "<a> <b> <c> .", 201, "/c/b");
    assert_int_equal(look_up(f->table, "a", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    execute_put(f->table, "c", "<a> <b> <c> .", 201, "/c/c");
    assert_int_equal(count_files(f->records), 2);
    assert_int_equal(look_up(f->table, "b", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    assert_int_equal(look_up(f->table, "c", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    assert_int_equal(look_up(f->table, "a", "<a> <b> <c> .", NULL, 0), LDP_IDEM_EXECUTE);
    /* A reservation in flight does not count against the limit. */
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", "<a> <b> <c> .", fingerprint);
    ldp_idem_record *reserved = NULL;
    ldp_idem_answer stored = {0};
    assert_int_equal(ldp_idem_begin(f->table, "d", fingerprint, &reserved, &stored), LDP_IDEM_EXECUTE);
    assert_int_equal(look_up(f->table, "b", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
    ldp_idem_answer answer;
    created(&answer, "/c/d");
    ldp_idem_finish(f->table, reserved, &answer);
    assert_int_equal(look_up(f->table, "b", "<a> <b> <c> .", NULL, 0), LDP_IDEM_EXECUTE);
}

/* ---------------------------------------------------------------- records on disk */

static void records_survive_a_restart(void **state) {
    fixture *f = *state;
    f->table = open_table(f, true, 60, 0);
    execute_put(f->table, "k1", "<a> <b> <c> .", 201, "/c/m1");
    test_now += 10;
    execute_put(f->table, "\"odd\\/key\" with spaces", "<a> <b> <c> .", 412, "/c/m2");
    assert_int_equal(count_files(f->records), 2);
    /* What a crash leaves of a write, and a file that is not a record. */
    char path[256];
    snprintf(path, sizeof path, "%s/" LDP_DISK_TMP_PREFIX "0123456789abcdef", f->records);
    FILE *file = fopen(path, "w");
    fputs("half a rec", file);
    fclose(file);
    snprintf(path, sizeof path, "%s/0000000000000000000000000000000000000000000000000000000000000000", f->records);
    file = fopen(path, "w");
    fputs("ldgsm Idempotency-Key record 1\nstored 12", file);
    fclose(file);

    reopen(f, 60, 0);
    assert_int_equal(f->warnings, 1); /* the foreign file, left alone */
    assert_int_equal(count_files(f->records), 3);
    char member[64];
    assert_int_equal(look_up(f->table, "k1", "<a> <b> <c> .", member, sizeof member), LDP_IDEM_REPLAY);
    assert_string_equal(member, "/c/m1");
    assert_int_equal(look_up(f->table, "\"odd\\/key\" with spaces", "<a> <b> <c> .", member, sizeof member),
                     LDP_IDEM_REPLAY);
    assert_string_equal(member, "/c/m2");
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    put_print("/c/x", "<a> <b> <c> .", fingerprint);
    ldp_idem_record *reserved = NULL;
    ldp_idem_answer stored = {0}, expected;
    assert_int_equal(ldp_idem_begin(f->table, "k1", fingerprint, &reserved, &stored), LDP_IDEM_REPLAY);
    created(&expected, "/c/m1");
    assert_int_equal(stored.status, 201);
    assert_int_equal(stored.headers.len, expected.headers.len);
    assert_memory_equal(stored.headers.data, expected.headers.data, expected.headers.len);
    assert_int_equal(stored.body.len, expected.body.len);
    assert_memory_equal(stored.body.data, expected.body.data, expected.body.len);
    ldp_idem_answer_clear(&stored);
    ldp_idem_answer_clear(&expected);
    assert_int_equal(look_up(f->table, "k1", "<x> <y> <z> .", NULL, 0), LDP_IDEM_MISMATCH);

    /* Read back, the expired record is removed; at most max_keys are kept, the oldest dropped. */
    test_now += 55;
    reopen(f, 60, 0);
    assert_int_equal(count_files(f->records), 2);
    assert_int_equal(look_up(f->table, "k1", "<a> <b> <c> .", NULL, 0), LDP_IDEM_EXECUTE);
    execute_put(f->table, "k3", "<a> <b> <c> .", 201, "/c/m3");
    reopen(f, 60, 1);
    assert_int_equal(count_files(f->records), 2);
    assert_int_equal(look_up(f->table, "\"odd\\/key\" with spaces", "<a> <b> <c> .", NULL, 0), LDP_IDEM_EXECUTE);
    assert_int_equal(look_up(f->table, "k3", "<a> <b> <c> .", NULL, 0), LDP_IDEM_REPLAY);
}

static void memory_tables_write_nothing(void **state) {
    fixture *f = *state;
    assert_int_equal(mkdir(f->data_dir, 0755), 0);
    f->table = open_table(f, false, 0, 0);
    execute_put(f->table, "k", "<a> <b> <c> .", 201, "/c/m");
    struct stat st;
    assert_int_not_equal(stat(f->records, &st), 0);
}

/* The store's walk of the data directory passes over the records: no warning, nothing served. */
static void the_store_does_not_serve_the_records(void **state) {
    fixture *f = *state;
    f->table = open_table(f, true, 0, 0);
    execute_put(f->table, "k", "<a> <b> <c> .", 201, "/c/m");
    ldp_store_config config = {f->data_dir, "http://127.0.0.1:9", free, &f->log, NULL, NULL, NULL};
    char message[512] = "";
    ldp_store *store = ldp_store_open(&config, message, sizeof message);
    assert_non_null(store);
    assert_int_equal(f->warnings, 0);
    ldp_doc *root = ldp_store_get(store, "/");
    assert_null(strstr(root->turtle->data, "contains"));
    ldp_doc_release(root);
    assert_null(ldp_store_get(store, "/" LDP_DISK_IDEMPOTENCY_DIR "/"));
    ldp_store_free(store);
    assert_int_equal(count_files(f->records), 1);
}

static void an_unusable_directory_is_an_error(void **state) {
    fixture *f = *state;
    assert_int_equal(mkdir(f->data_dir, 0755), 0);
    FILE *file = fopen(f->records, "w"); /* a file where the directory should be */
    fclose(file);
    ldp_idem_config config = {f->data_dir, 0, 0, &f->log, test_clock};
    char message[512] = "";
    assert_null(ldp_idem_open(&config, message, sizeof message));
    assert_non_null(strstr(message, LDP_DISK_IDEMPOTENCY_DIR));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_are_sf_strings_or_tokens),
        cmocka_unit_test(fingerprints_cover_method_path_type_and_body),
        cmocka_unit_test_setup_teardown(a_repeat_is_replayed_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(another_request_under_the_key_is_a_mismatch, setup, teardown),
        cmocka_unit_test_setup_teardown(a_repeat_in_flight_is_told_so, setup, teardown),
        cmocka_unit_test_setup_teardown(racing_repeats_execute_once, setup, teardown),
        cmocka_unit_test_setup_teardown(server_errors_are_not_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(answers_expire_after_the_ttl, setup, teardown),
        cmocka_unit_test_setup_teardown(the_oldest_keys_go_first, setup, teardown),
        cmocka_unit_test_setup_teardown(records_survive_a_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(memory_tables_write_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(the_store_does_not_serve_the_records, setup, teardown),
        cmocka_unit_test_setup_teardown(an_unusable_directory_is_an_error, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
