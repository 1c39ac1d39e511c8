/* webhook_listener.c: the WebhookChannel2023 receiver on libmicrohttpd (webhook_listener.h).
 *
 * A registration's URL is http://ADDR:PORT/ID SECRET: ID the owner's id in 16 hex digits (its low 32 bits
 * index the table, as in ws_channels), SECRET 16 random bytes in hex. The table holds each path whole; a
 * POST's path is compared with its slot's in constant time. */
#include "http/webhook_listener.h"

#include <inttypes.h>
#include <nettle/base16.h>
#include <nettle/memops.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "http/listen_address.h"
#include "http/listener.h"
#include "rdf/buf.h"

enum { ID_HEX = 16, SECRET_BYTES = 16, PATH_LEN = 1 + ID_HEX + 2 * SECRET_BYTES };

typedef struct registration {
    uint64_t id;
    bool used;
    char path[PATH_LEN + 1];
} registration;

struct webhook_listener {
    struct MHD_Daemon *daemon;
    webhook_deliver_fn deliver;
    void *user;
    char base[80];
    pthread_mutex_t lock; /* the table */
    registration *table;  /* by the id's low 32 bits */
    size_t table_cap;
};

/* One POST being received: its registration's id once the path matched, and how much body came. */
typedef struct upload {
    uint64_t id;
    size_t received;
} upload;

/* The id a path names while it is registered (false: none). Called with the lock not held. */
static bool registered(webhook_listener *l, const char *path, uint64_t *id) {
    if (strlen(path) != PATH_LEN || path[0] != '/')
        return false;
    uint32_t slot = 0;
    for (size_t i = 1 + ID_HEX - 8; i < 1 + ID_HEX; i++) { /* the id's low 32 bits: its last 8 digits */
        const char *digits = "0123456789abcdef", *at = strchr(digits, path[i]);
        if (!path[i] || !at)
            return false;
        slot = slot << 4 | (uint32_t)(at - digits);
    }
    pthread_mutex_lock(&l->lock);
    bool found = slot < l->table_cap && l->table[slot].used && memeql_sec(l->table[slot].path, path, PATH_LEN);
    if (found)
        *id = l->table[slot].id;
    pthread_mutex_unlock(&l->lock);
    return found;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_size, void **state) {
    (void)version;
    (void)upload_data;
    webhook_listener *l = cls;
    upload *u = *state;
    if (!u) {
        if (strcmp(method, "POST") != 0)
            return listener_answer_text(c, 405, "only POST\n");
        const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (length && strtoull(length, NULL, 10) > WEBHOOK_MAX_BODY)
            return listener_answer_text(c, 413, "the body is larger than the limit\n");
        uint64_t id;
        if (!registered(l, url, &id))
            return listener_answer_text(c, 404, "no such channel\n");
        u = xcalloc(1, sizeof *u);
        u->id = id;
        *state = u;
        return MHD_YES;
    }
    if (*upload_size) { /* the body is read and dropped: a notification is never trusted for its content */
        u->received += *upload_size;
        *upload_size = 0;
        return u->received > WEBHOOK_MAX_BODY ? listener_answer_text(c, 413, "the body is larger than the limit\n") : MHD_YES;
    }
    uint64_t id;
    if (!registered(l, url, &id) || id != u->id) /* removed while its body came */
        return listener_answer_text(c, 404, "no such channel\n");
    return l->deliver(l->user, id) ? listener_answer_text(c, 200, "") : listener_answer_text(c, 503, "too many notifications waiting\n");
}

static void on_completed(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode why) {
    (void)cls;
    (void)c;
    (void)why;
    free(*state);
    *state = NULL;
}

webhook_listener *webhook_listener_new(const char *address, webhook_deliver_fn deliver, void *user, char *error,
                                       size_t error_len) {
    struct sockaddr_storage sa;
    socklen_t sa_len;
    if (!listen_address_parse(address, &sa, &sa_len)) {
        snprintf(error, error_len, "--webhook wants ADDR:PORT (a numeric address, [ADDR] for IPv6; port 0: any "
                 "free one), not '%s'", address);
        return NULL;
    }
    char host[INET6_ADDRSTRLEN];
    listener_host(&sa, host);
    if (strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0) {
        snprintf(error, error_len, "--webhook %s: give the address servers reach the agent at (it is the "
                 "subscriptions' sendTo), not the unspecified one", address);
        return NULL;
    }
    webhook_listener *l = xcalloc(1, sizeof *l);
    l->deliver = deliver;
    l->user = user;
    pthread_mutex_init(&l->lock, NULL);
    listener_config config = {on_request, on_completed, l, WEBHOOK_MAX_CONNECTIONS, WEBHOOK_IDLE_SECS};
    l->daemon = listener_start(&sa, &config, l->base, sizeof l->base);
    if (!l->daemon) {
        snprintf(error, error_len, "--webhook %s: cannot listen there (in use, or not an address of this machine)",
                 address);
        webhook_listener_free(l);
        return NULL;
    }
    return l;
}

void webhook_listener_free(webhook_listener *l) {
    if (!l)
        return;
    if (l->daemon)
        MHD_stop_daemon(l->daemon);
    pthread_mutex_destroy(&l->lock);
    free(l->table);
    free(l);
}

const char *webhook_listener_base(const webhook_listener *l) {
    return l->base;
}

char *webhook_listener_add(webhook_listener *l, uint64_t id) {
    uint8_t secret[SECRET_BYTES];
    if (getrandom(secret, sizeof secret, 0) != (ssize_t)sizeof secret)
        return NULL;
    registration r = {.id = id, .used = true};
    snprintf(r.path, sizeof r.path, "/%016" PRIx64, id);
    base16_encode_update(r.path + 1 + ID_HEX, sizeof secret, secret); /* lower case, as registered() reads */
    uint32_t slot = (uint32_t)id;
    pthread_mutex_lock(&l->lock);
    l->table = xgrow_zeroed(l->table, &l->table_cap, slot, sizeof *l->table);
    l->table[slot] = r;
    pthread_mutex_unlock(&l->lock);
    buf url = {0};
    buf_printf(&url, "%s%s", l->base, r.path);
    return url.data;
}

void webhook_listener_remove(webhook_listener *l, uint64_t id) {
    uint32_t slot = (uint32_t)id;
    pthread_mutex_lock(&l->lock);
    if (slot < l->table_cap && l->table[slot].id == id)
        l->table[slot].used = false;
    pthread_mutex_unlock(&l->lock);
}
