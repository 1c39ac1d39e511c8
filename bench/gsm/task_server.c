/* task_server.c: the task service of bench/gsm/run.sh's call comparison. One server for both runs, so
 * that they pay the same for their tasks; the path decides how a task fares:
 *   /ok/...     every execution answers 204;
 *   /flaky/...  the first execution under each Idempotency-Key answers 500 (not stored, as the IETF draft
 *               says of 5xx), the re-send under the key executes again and answers 204.
 * A request under a key already answered 204 is not executed again: it gets 204 with
 * Idempotent-Replayed (a bench needs no fingerprint check, so a different request under the key is not
 * told apart). GET /stats answers "executed N failed N replayed N unkeyed N" (text/plain), so run.sh can
 * check that every task failed exactly once. Built by run.sh with cc and libmicrohttpd, which ldgsm serve
 * uses too; one event-loop thread, so a task costs the agent little more than its round trip.
 *
 * usage: task_server PORT   (0: a free port; the port is the first line on stdout). Listens on
 * 127.0.0.1; SIGTERM or SIGINT stops it. */
#define _POSIX_C_SOURCE 200809L
#include <microhttpd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum key_state { KEY_FAILED = 1, KEY_ANSWERED = 2 };

/* Keys seen, open addressing with linear probing; grows at half full. */
typedef struct {
    char **keys;
    unsigned char *states;
    size_t capacity, count;
} key_table;

static struct {
    key_table seen;
    unsigned long executed, failed, replayed, unkeyed;
} service;

static uint64_t hash_key(const char *s) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static size_t slot_of(const key_table *t, const char *key) {
    size_t i = hash_key(key) & (t->capacity - 1);
    while (t->keys[i] && strcmp(t->keys[i], key) != 0) i = (i + 1) & (t->capacity - 1);
    return i;
}

static int table_grow(key_table *t) {
    key_table bigger = {calloc(t->capacity * 2, sizeof(char *)), calloc(t->capacity * 2, 1), t->capacity * 2, t->count};
    if (!bigger.keys || !bigger.states) {
        free(bigger.keys);
        free(bigger.states);
        return -1;
    }
    for (size_t i = 0; i < t->capacity; i++) {
        if (!t->keys[i]) continue;
        size_t j = slot_of(&bigger, t->keys[i]);
        bigger.keys[j] = t->keys[i];
        bigger.states[j] = t->states[i];
    }
    free(t->keys);
    free(t->states);
    *t = bigger;
    return 0;
}

/* The state of KEY (0: never seen), and its slot in *SLOT for key_set. */
static unsigned char key_get(const char *key, size_t *slot) {
    *slot = slot_of(&service.seen, key);
    return service.seen.keys[*slot] ? service.seen.states[*slot] : 0;
}

static int key_set(const char *key, size_t slot, unsigned char state) {
    key_table *t = &service.seen;
    if (!t->keys[slot]) {
        if (2 * (t->count + 1) > t->capacity) {
            if (table_grow(t) != 0) return -1;
            slot = slot_of(t, key);
        }
        if (!(t->keys[slot] = strdup(key))) return -1;
        t->count++;
    }
    t->states[slot] = state;
    return 0;
}

static enum MHD_Result respond(struct MHD_Connection *conn, unsigned status, const char *text, bool replayed) {
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    if (*text) MHD_add_response_header(r, "Content-Type", "text/plain");
    if (replayed) MHD_add_response_header(r, "Idempotent-Replayed", "true");
    enum MHD_Result ok = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return ok;
}

/* The key without the quotes of an sf-string; empty when absent or too long (the draft's limit is 255). */
static void key_of(struct MHD_Connection *conn, char out[256]) {
    const char *v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Idempotency-Key");
    size_t n = v ? strlen(v) : 0;
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        v++;
        n -= 2;
    }
    if (n > 255) n = 0;
    memcpy(out, v ? v : "", n);
    out[n] = '\0';
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **request_state) {
    (void)cls, (void)version, (void)upload_data;
    static int started;
    if (!*request_state) { /* headers only so far: the body follows in later calls */
        *request_state = &started;
        return MHD_YES;
    }
    if (*upload_data_size) { /* the task's body is not looked at */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "GET") == 0) {
        if (strcmp(url, "/stats") != 0) return respond(conn, 404, "", false);
        char text[160];
        snprintf(text, sizeof text, "executed %lu failed %lu replayed %lu unkeyed %lu\n", service.executed,
                 service.failed, service.replayed, service.unkeyed);
        return respond(conn, 200, text, false);
    }
    bool flaky = strncmp(url, "/flaky/", 7) == 0;
    if (!flaky && strncmp(url, "/ok/", 4) != 0) return respond(conn, 404, "", false);
    char key[256];
    key_of(conn, key);
    if (!*key) {
        service.unkeyed++;
        service.executed++;
        return respond(conn, 204, "", false);
    }
    size_t slot;
    unsigned char state = key_get(key, &slot);
    if (state == KEY_ANSWERED) {
        service.replayed++;
        return respond(conn, 204, "", true);
    }
    service.executed++;
    bool fails = flaky && state != KEY_FAILED;
    if (key_set(key, slot, fails ? KEY_FAILED : KEY_ANSWERED) != 0) return respond(conn, 503, "out of memory\n", false);
    if (fails) service.failed++;
    return respond(conn, fails ? 500 : 204, "", false);
}

int main(int argc, char **argv) {
    char *end = NULL;
    long port = argc == 2 ? strtol(argv[1], &end, 10) : -1;
    if (argc != 2 || *end || port < 0 || port > 65535) {
        fprintf(stderr, "usage: task_server PORT   (0: a free port, printed on stdout)\n");
        return 2;
    }
    service.seen.capacity = 1024;
    service.seen.keys = calloc(service.seen.capacity, sizeof(char *));
    service.seen.states = calloc(service.seen.capacity, 1);
    if (!service.seen.keys || !service.seen.states) return 1;

    /* SIGTERM and SIGINT are taken by sigwait below; the daemon's thread inherits the blocked mask. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);

    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0,
                                            NULL, NULL, handle, NULL, MHD_OPTION_SOCK_ADDR, &addr,
                                            MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "task_server: cannot listen on 127.0.0.1:%ld\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    printf("%u\n", info ? info->port : (unsigned)port);
    fflush(stdout);
    int sig;
    sigwait(&stop, &sig);
    MHD_stop_daemon(d);
    for (size_t i = 0; i < service.seen.capacity; i++) free(service.seen.keys[i]);
    free(service.seen.keys);
    free(service.seen.states);
    return 0;
}
