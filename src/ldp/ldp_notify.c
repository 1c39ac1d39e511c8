/* ldp_notify.c: the notification channels of the LDP server (ldp_notify.h): subscriptions read with
 * jansson, the channel tables (by id, by topic, per client, by end time), the queues of activities each
 * channel has yet to deliver, and the expiry of channels. */
#include "ldp/ldp_notify.h"

#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "ldp/ldp_media.h"
#include "ldp/ldp_path.h"
#include "rdf/hashmap.h"

#define CONTEXT_AS "https://www.w3.org/ns/activitystreams"
#define CONTEXT_NOTIFY "https://www.w3.org/ns/solid/notification/v1"
#define UUID_LEN 36

enum kind { WS, WEBHOOK, STREAM, KINDS };

static const struct {
    const char *path; /* the service's (none for streams: design note 8) */
    const char *type;
    const char *name;
} kinds[KINDS] = {
    {LDP_NOTIFY_WS_PATH, LDP_NOTIFY_NS "WebSocketChannel2023", "WebSocketChannel2023"},
    {LDP_NOTIFY_WEBHOOK_PATH, LDP_NOTIFY_NS "WebhookChannel2023", "WebhookChannel2023"},
    {NULL, LDP_NOTIFY_NS "StreamingHTTPChannel2023", "StreamingHTTPChannel2023"},
};

typedef struct message {
    struct message *next;
    size_t len;
    char data[];
} message;

/* The lists a channel may be on, each doubly linked through the channel so that leaving it costs O(1). */
enum list { ALL, DIRTY, WAITING, LISTS };

typedef struct chain {
    ldp_notify_channel *prev, *next;
    bool on;
} chain;

struct ldp_notify_channel {
    enum kind kind;
    char uuid[UUID_LEN + 1]; /* "" for a stream */
    char *topic;             /* the store path */
    char *client;            /* the subscriber's address */
    char *state;             /* WebSocket: the subscription's state until a socket connected; else NULL */
    char *send_to;           /* webhook: where activities are POSTed */
    int64_t end_at, start_at, rate, last_emit; /* ms: since the epoch (rate: a duration); 0 none */
    int64_t idle_since;      /* WebSocket: monotonic ms since which it has had no socket */
    int64_t retry_at;        /* webhook: monotonic ms of the next attempt after a failure; 0 none */
    void *socket;            /* WebSocket: the WebSocket thread's connection; stream: the HTTP connection */
    message *head, *tail;    /* undelivered notifications */
    size_t queued;           /* their bytes */
    unsigned failures;       /* webhook: failed deliveries in a row */
    size_t heap_index;       /* in the end time heap; SIZE_MAX once retired */
    bool retired;            /* out of the tables: unsubscribed, expired or dropped; freed once idle */
    bool slow;               /* dropped for max_queued (design note 5) */
    bool in_flight;          /* webhook: a delivery is under way */
    bool suspended;          /* stream: its connection waits for a notification */
    chain chains[LISTS];
    ldp_notify_channel *id_next, *topic_next; /* hash chains */
};

typedef struct client {
    char *address;
    unsigned channels[KINDS];
    struct client *next;
} client;

struct ldp_notify {
    char *base_url;
    char *receive_base;
    unsigned max[KINDS], max_per_client[KINDS], lifetime, connect_timeout;
    size_t max_queued;
    const log_sink *log;
    ldp_store *store;
    void (*wake[KINDS])(void *user); /* WebSocket and webhook threads; unused for streams */
    void *wake_user[KINDS];
    void (*suspend)(void *connection), (*resume)(void *connection); /* streams' */
    bool (*gone)(void *connection);
    pthread_mutex_t lock; /* everything below */
    bool closing;         /* streams: the HTTP server stops; none may wait */
    ldp_notify_channel *all[KINDS], *dirty[KINDS], *waiting;
    unsigned count[KINDS];
    size_t bucket_count; /* a power of two */
    ldp_notify_channel **by_id, **by_topic;
    client **clients;
    ldp_notify_channel **heap; /* live channels, a binary min-heap on end_at (design note 9) */
    size_t heap_len, heap_cap;
};

/* ---------------------------------------------------------------- time and text */

static int64_t clock_ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* xsd:dateTime in UTC with milliseconds, as JavaScript's toISOString writes it. */
static void format_datetime(int64_t ms, char out[64]) {
    time_t seconds = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&seconds, &tm);
    snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

/* An xsd:dateTime (a missing time zone read as UTC) in ms since the epoch; false when it is none. */
static bool parse_datetime(const char *text, int64_t *ms) {
    struct tm tm = {0};
    int end = 0;
    if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
               &tm.tm_sec, &end) != 6 || end != 19 || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
        tm.tm_mday > 31 || tm.tm_hour > 24 || tm.tm_min > 59 || tm.tm_sec > 60)
        return false;
    const char *p = text + end;
    int64_t fraction = 0;
    if (*p == '.') {
        int64_t scale = 100;
        if (!(p[1] >= '0' && p[1] <= '9'))
            return false;
        for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
            fraction += (*p - '0') * scale;
    }
    int64_t offset = 0;
    if (*p == 'Z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int hours, minutes, n = 0;
        if (sscanf(p + 1, "%2d:%2d%n", &hours, &minutes, &n) != 2 || n != 5 || hours > 14 || minutes > 59)
            return false;
        offset = (*p == '+' ? 1 : -1) * (int64_t)(hours * 60 + minutes) * 60000;
        p += 6;
    }
    if (*p)
        return false;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    *ms = (int64_t)timegm(&tm) * 1000 + fraction - offset;
    return true;
}

/* An xsd:duration in ms (a year 365 days, a month 30); false when it is none or negative. */
static bool parse_duration(const char *text, int64_t *ms) {
    static const struct {
        char unit;
        bool in_time;
        double ms;
    } units[] = {{'Y', false, 365 * 86400e3}, {'M', false, 30 * 86400e3}, {'W', false, 7 * 86400e3},
                 {'D', false, 86400e3},       {'H', true, 3600e3},        {'M', true, 60e3},
                 {'S', true, 1e3}};
    if (*text != 'P')
        return false;
    const char *p = text + 1;
    bool in_time = false, any = false;
    double total = 0;
    size_t next_unit = 0;
    while (*p) {
        if (*p == 'T' && !in_time) {
            in_time = true;
            p++;
            if (!*p)
                return false;
            continue;
        }
        char *end;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        double value = strtod(p, &end);
        size_t u = next_unit;
        while (u < sizeof units / sizeof *units && (units[u].unit != *end || units[u].in_time != in_time))
            u++;
        if (u == sizeof units / sizeof *units)
            return false;
        total += value * units[u].ms;
        next_unit = u + 1;
        any = true;
        p = end + 1;
    }
    if (!any || total > 1e15)
        return false;
    *ms = (int64_t)total;
    return true;
}

static uint64_t key_hash(const char *key) { return hash_bytes(key, strlen(key), 0x6e6f74); }

/* The IRI of a store path. */
static void uri_of(const ldp_notify *n, const char *path, buf *out) {
    buf_puts(out, n->base_url);
    ldp_path_encode(path, strlen(path), out);
}

/* A version 4 UUID from the kernel's random source; false when there is none to be had. */
static bool new_uuid(char out[UUID_LEN + 1]) {
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
        return false;
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, UUID_LEN + 1, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return true;
}

/* ---------------------------------------------------------------- tables (under n->lock) */

static void list_add(ldp_notify_channel **head, ldp_notify_channel *c, enum list l) {
    if (c->chains[l].on)
        return;
    c->chains[l] = (chain){NULL, *head, true};
    if (*head)
        (*head)->chains[l].prev = c;
    *head = c;
}

static void list_remove(ldp_notify_channel **head, ldp_notify_channel *c, enum list l) {
    if (!c->chains[l].on)
        return;
    chain *k = &c->chains[l];
    if (k->prev)
        k->prev->chains[l].next = k->next;
    else
        *head = k->next;
    if (k->next)
        k->next->chains[l].prev = k->prev;
    *k = (chain){0};
}

/* The end time heap: sift the channel at i up or down to its place. */
static void heap_set(ldp_notify *n, size_t i, ldp_notify_channel *c) {
    n->heap[i] = c;
    c->heap_index = i;
}

static void heap_fix(ldp_notify *n, size_t i) {
    ldp_notify_channel *c = n->heap[i];
    while (i > 0 && n->heap[(i - 1) / 2]->end_at > c->end_at) {
        heap_set(n, i, n->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n->heap_len)
            break;
        if (child + 1 < n->heap_len && n->heap[child + 1]->end_at < n->heap[child]->end_at)
            child++;
        if (n->heap[child]->end_at >= c->end_at)
            break;
        heap_set(n, i, n->heap[child]);
        i = child;
    }
    heap_set(n, i, c);
}

static void heap_add(ldp_notify *n, ldp_notify_channel *c) {
    if (n->heap_len == n->heap_cap) {
        n->heap_cap = n->heap_cap ? 2 * n->heap_cap : 64;
        n->heap = xrealloc(n->heap, n->heap_cap * sizeof *n->heap);
    }
    heap_set(n, n->heap_len++, c);
    heap_fix(n, c->heap_index);
}

static void heap_remove(ldp_notify *n, ldp_notify_channel *c) {
    size_t i = c->heap_index;
    c->heap_index = SIZE_MAX;
    if (i == SIZE_MAX)
        return;
    ldp_notify_channel *last = n->heap[--n->heap_len];
    if (last != c) {
        heap_set(n, i, last);
        heap_fix(n, i);
    }
}

static ldp_notify_channel **id_bucket(ldp_notify *n, const char *uuid) {
    return &n->by_id[key_hash(uuid) & (n->bucket_count - 1)];
}

static ldp_notify_channel **topic_bucket(ldp_notify *n, const char *topic) {
    return &n->by_topic[key_hash(topic) & (n->bucket_count - 1)];
}

static client **client_slot(ldp_notify *n, const char *address) {
    client **slot = &n->clients[key_hash(address) & (n->bucket_count - 1)];
    while (*slot && strcmp((*slot)->address, address) != 0)
        slot = &(*slot)->next;
    return slot;
}

/* The kind of channel whose ids path is under (a WebSocket or webhook channel's), or KINDS. */
static enum kind kind_of_id(const char *path) {
    for (int k = 0; k < KINDS; k++)
        if (kinds[k].path && strncmp(path, kinds[k].path, strlen(kinds[k].path)) == 0)
            return (enum kind)k;
    return KINDS;
}

/* The channel an id (or WebSocket receive) path names ("/.notifications/TYPE/UUID"), or NULL. */
static ldp_notify_channel *find_channel(ldp_notify *n, const char *path) {
    enum kind kind = kind_of_id(path);
    if (kind == KINDS)
        return NULL;
    const char *uuid = path + strlen(kinds[kind].path);
    if (strlen(uuid) != UUID_LEN)
        return NULL;
    for (ldp_notify_channel *c = *id_bucket(n, uuid); c; c = c->id_next)
        if (c->kind == kind && strcmp(c->uuid, uuid) == 0)
            return c;
    return NULL;
}

/* Tells the thread serving c's kind that c has something to do. */
static void mark_dirty(ldp_notify *n, ldp_notify_channel *c) { list_add(&n->dirty[c->kind], c, DIRTY); }

static void drop_queue(ldp_notify_channel *c) {
    for (message *m = c->head, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    c->head = c->tail = NULL;
    c->queued = 0;
}

/* Takes c out of the id, topic and end time tables: no request finds it, no change reaches it. */
static void retire(ldp_notify *n, ldp_notify_channel *c) {
    if (c->retired)
        return;
    c->retired = true;
    ldp_notify_channel **link;
    if (c->kind != STREAM) {
        link = id_bucket(n, c->uuid);
        while (*link != c)
            link = &(*link)->id_next;
        *link = c->id_next;
    }
    link = topic_bucket(n, c->topic);
    while (*link != c)
        link = &(*link)->topic_next;
    *link = c->topic_next;
    heap_remove(n, c);
}

/* Frees a channel nothing else holds (no socket, no delivery in flight, no stream reading it). */
static void destroy(ldp_notify *n, ldp_notify_channel *c) {
    retire(n, c);
    list_remove(&n->dirty[c->kind], c, DIRTY);
    list_remove(&n->waiting, c, WAITING);
    list_remove(&n->all[c->kind], c, ALL);
    n->count[c->kind]--;
    client **slot = client_slot(n, c->client);
    if (*slot && --(*slot)->channels[c->kind] == 0) {
        client *gone = *slot;
        bool any = false;
        for (int k = 0; k < KINDS; k++)
            any = any || gone->channels[k];
        if (!any) {
            *slot = gone->next;
            free(gone->address);
            free(gone);
        }
    }
    drop_queue(c);
    free(c->topic);
    free(c->client);
    free(c->state);
    free(c->send_to);
    free(c);
}

/* Ends a channel (unsubscribed, expired, or dropped): freed now when nothing holds it, else retired and
 * left to whatever holds it, which frees it when done. */
static void end_channel(ldp_notify *n, ldp_notify_channel *c) {
    if (c->kind == WS && c->socket) {
        retire(n, c);
        mark_dirty(n, c); /* the WebSocket thread closes its socket */
    } else if (c->kind == WEBHOOK && c->in_flight) {
        retire(n, c); /* freed when its POST is done */
    } else if (c->kind == STREAM) {
        retire(n, c);
        if (c->suspended) {
            c->suspended = false;
            n->resume(c->socket);
        }
    } else {
        destroy(n, c);
    }
}

/* Queues text on c and tells whoever delivers it; past max_queued undelivered bytes the channel is
 * dropped (design note 5). */
static void enqueue(ldp_notify *n, ldp_notify_channel *c, const char *text) {
    size_t len = strlen(text);
    if (c->queued + len > n->max_queued) {
        if (!c->slow)
            log_msg(n->log, LOG_WARN, "notifications: %s does not read its channel on %s (%s, %zu bytes behind): "
                    "dropping it", c->client, c->topic, kinds[c->kind].name, c->queued);
        c->slow = true;
        drop_queue(c);
        end_channel(n, c);
        return;
    }
    message *m = xmalloc(sizeof *m + len + 1);
    m->next = NULL;
    m->len = len;
    memcpy(m->data, text, len + 1);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->queued += len;
    if (c->kind == STREAM && c->suspended) {
        c->suspended = false;
        n->resume(c->socket);
    } else if (c->kind != STREAM) {
        mark_dirty(n, c); /* a webhook channel with a POST in flight or waiting to retry is passed over */
    }
}

/* Takes c's first notification into out. */
static void take_message(ldp_notify_channel *c, buf *out) {
    message *m = c->head;
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    c->queued -= m->len;
    out->len = 0;
    buf_append(out, m->data, m->len);
    free(m);
}

/* ---------------------------------------------------------------- activities */

static const char *const activity_names[] = {"Create", "Update", "Delete", "Add", "Remove"};

/* One activity (ldp_notify.h), as JSON-LD or, for streams, as Turtle: topic is the channel's; object
 * differs from it for Add and Remove (then topic is the target); state NULL or "" leaves it out. Caller
 * frees. */
static char *activity_text(const ldp_notify *n, enum ldp_activity activity, const char *topic, const char *object,
                           const char *state, int64_t now, bool turtle) {
    buf topic_uri = {0}, object_uri = {0};
    uri_of(n, topic, &topic_uri);
    uri_of(n, object ? object : topic, &object_uri);
    buf id = {0};
    buf_printf(&id, "urn:%lld:%s", (long long)now, buf_cstr(&topic_uri));
    char published[64];
    format_datetime(now, published);
    bool targeted = activity == LDP_ACTIVITY_ADD || activity == LDP_ACTIVITY_REMOVE;
    char *text;
    if (turtle) {
        /* As CSS writes it: full IRIs, the type last. IRIs made by uri_of and urn: ids hold no character
         * Turtle would need escaped. */
        buf t = {0};
        buf_printf(&t, "<%s> <" CONTEXT_AS "#object> <%s>", buf_cstr(&id), buf_cstr(&object_uri));
        if (targeted)
            buf_printf(&t, ";\n    <" CONTEXT_AS "#target> <%s>", buf_cstr(&topic_uri));
        if (state && *state) {
            buf_puts(&t, ";\n    <" LDP_NOTIFY_NS "state> ");
            buf_json_string(&t, state); /* JSON's escapes are Turtle's */
        }
        buf_printf(&t,
                   ";\n    <" CONTEXT_AS "#published> \"%s\"^^<http://www.w3.org/2001/XMLSchema#dateTime>;\n"
                   "    a <" CONTEXT_AS "#%s>.\n",
                   published, activity_names[activity]);
        text = xstrndup(buf_cstr(&t), t.len);
        buf_free(&t);
    } else {
        json_t *a = json_object();
        json_object_set_new(a, "@context", json_pack("[ss]", CONTEXT_AS, CONTEXT_NOTIFY));
        json_object_set_new(a, "id", json_string(buf_cstr(&id)));
        json_object_set_new(a, "type", json_string(activity_names[activity]));
        json_object_set_new(a, "object", json_string(buf_cstr(&object_uri)));
        if (targeted)
            json_object_set_new(a, "target", json_string(buf_cstr(&topic_uri)));
        if (state && *state)
            json_object_set_new(a, "state", json_string(state));
        json_object_set_new(a, "published", json_string(published));
        text = json_dumps(a, JSON_COMPACT);
        json_decref(a);
    }
    buf_free(&topic_uri);
    buf_free(&object_uri);
    buf_free(&id);
    return text;
}

void ldp_notify_changed(void *user, const ldp_store_change *changes, size_t count) {
    ldp_notify *n = user;
    int64_t now = clock_ms(CLOCK_REALTIME);
    pthread_mutex_lock(&n->lock);
    bool woken[KINDS] = {0};
    for (size_t i = 0; i < count; i++) {
        const ldp_store_change *change = &changes[i];
        char *text[2] = {NULL, NULL}; /* JSON-LD, Turtle */
        ldp_doc *state = NULL;       /* looked up once a channel takes the change (ldp_store.h note 7) */
        for (ldp_notify_channel *c = *topic_bucket(n, change->path), *next; c; c = next) {
            next = c->topic_next; /* enqueue may drop c */
            if (strcmp(c->topic, change->path) != 0 || (c->kind == WS && !c->socket) ||
                (c->start_at && now < c->start_at) || (c->rate && c->last_emit && now - c->last_emit < c->rate))
                continue;
            bool turtle = c->kind == STREAM;
            if (!state && change->activity != LDP_ACTIVITY_DELETE)
                state = ldp_store_get(n->store, change->path);
            if (!text[turtle])
                text[turtle] = activity_text(n, change->activity, change->path, change->object,
                                             state ? state->etag[LDP_MEDIA_TURTLE] : NULL, now, turtle);
            c->last_emit = now;
            woken[c->kind] = true;
            enqueue(n, c, text[turtle]);
        }
        free(text[0]);
        free(text[1]);
        ldp_doc_release(state);
    }
    pthread_mutex_unlock(&n->lock);
    for (int k = 0; k < KINDS; k++)
        if (woken[k] && n->wake[k])
            n->wake[k](n->wake_user[k]);
}

/* Design note 4: queues the topic's state on c, when it differs from state (NULL: always, as a stream's
 * first notification). */
static void queue_state(ldp_notify *n, ldp_notify_channel *c, const char *state) {
    ldp_doc *doc = ldp_store_get(n->store, c->topic);
    bool same = false;
    for (int m = 0; state && doc && m < LDP_MEDIA_COUNT; m++)
        same = same || strcmp(doc->etag[m], state) == 0;
    if (!same) {
        int64_t now = clock_ms(CLOCK_REALTIME);
        char *text = activity_text(n, doc ? LDP_ACTIVITY_UPDATE : LDP_ACTIVITY_DELETE, c->topic, NULL,
                                   doc ? doc->etag[LDP_MEDIA_TURTLE] : NULL, now, c->kind == STREAM);
        enqueue(n, c, text);
        free(text);
    }
    ldp_doc_release(doc);
}

/* Retires the channels whose end time passed (design note 9: the heap's top only). */
static void expire(ldp_notify *n) {
    int64_t now = clock_ms(CLOCK_REALTIME);
    while (n->heap_len && n->heap[0]->end_at <= now)
        end_channel(n, n->heap[0]); /* takes it off the heap */
}

/* ---------------------------------------------------------------- the WebSocket thread's side */

bool ldp_notify_can_connect(ldp_notify *n, const char *path) {
    pthread_mutex_lock(&n->lock);
    ldp_notify_channel *c = find_channel(n, path);
    bool can = c && c->kind == WS && !c->socket;
    pthread_mutex_unlock(&n->lock);
    return can;
}

ldp_notify_channel *ldp_notify_connect(ldp_notify *n, const char *path, void *socket) {
    pthread_mutex_lock(&n->lock);
    ldp_notify_channel *c = find_channel(n, path);
    if (c && c->kind == WS && !c->socket) {
        c->socket = socket;
        if (c->state) {
            queue_state(n, c, c->state);
            free(c->state); /* told once, as CSS: a later socket of the channel is not */
            c->state = NULL;
        }
    } else {
        c = NULL;
    }
    pthread_mutex_unlock(&n->lock);
    return c;
}

void ldp_notify_disconnect(ldp_notify *n, ldp_notify_channel *c) {
    pthread_mutex_lock(&n->lock);
    c->socket = NULL;
    drop_queue(c);
    if (c->retired)
        destroy(n, c);
    else
        c->idle_since = clock_ms(CLOCK_MONOTONIC);
    pthread_mutex_unlock(&n->lock);
}

enum ldp_notify_next ldp_notify_next(ldp_notify *n, ldp_notify_channel *c, buf *out, bool *more) {
    enum ldp_notify_next next = LDP_NOTIFY_IDLE;
    pthread_mutex_lock(&n->lock);
    if (c->slow) {
        next = LDP_NOTIFY_SLOW;
    } else if (c->retired) {
        next = LDP_NOTIFY_EXPIRED;
    } else if (c->head) {
        take_message(c, out);
        *more = c->head != NULL;
        next = LDP_NOTIFY_SEND;
    }
    pthread_mutex_unlock(&n->lock);
    return next;
}

void ldp_notify_poll(ldp_notify *n, bool expiry, void (*visit)(void *user, void *socket, bool closing), void *user) {
    pthread_mutex_lock(&n->lock);
    if (expiry) {
        expire(n);
        /* Only WebSocket channels wait for a socket, and streams for a client that may have gone; both are
         * bounded by the connections they hold. */
        int64_t mono = clock_ms(CLOCK_MONOTONIC);
        for (ldp_notify_channel *c = n->all[WS], *next; c; c = next) {
            next = c->chains[ALL].next;
            if (!c->socket && mono - c->idle_since >= (int64_t)n->connect_timeout * 1000)
                destroy(n, c);
        }
        for (ldp_notify_channel *c = n->all[STREAM]; c; c = c->chains[ALL].next)
            if (c->suspended && n->gone(c->socket))
                end_channel(n, c);
    }
    while (n->dirty[WS]) {
        ldp_notify_channel *c = n->dirty[WS];
        list_remove(&n->dirty[WS], c, DIRTY);
        if (c->socket)
            visit(user, c->socket, c->retired);
    }
    pthread_mutex_unlock(&n->lock);
}

/* ---------------------------------------------------------------- the webhook thread's side */

bool ldp_notify_webhook_take(ldp_notify *n, ldp_notify_channel **channel, buf *send_to, buf *body) {
    pthread_mutex_lock(&n->lock);
    ldp_notify_channel *c;
    while ((c = n->dirty[WEBHOOK])) {
        list_remove(&n->dirty[WEBHOOK], c, DIRTY);
        if (!c->retired && !c->in_flight && !c->chains[WAITING].on && c->head) {
            send_to->len = 0;
            buf_puts(send_to, c->send_to);
            body->len = 0;
            buf_append(body, c->head->data, c->head->len);
            c->in_flight = true;
            break;
        }
    }
    pthread_mutex_unlock(&n->lock);
    *channel = c;
    return c != NULL;
}

void ldp_notify_webhook_done(ldp_notify *n, ldp_notify_channel *c, enum ldp_notify_delivery outcome,
                             const char *why) {
    pthread_mutex_lock(&n->lock);
    c->in_flight = false;
    if (c->retired) {
        destroy(n, c);
    } else if (outcome == LDP_NOTIFY_DELIVERED) {
        buf sent = {0};
        take_message(c, &sent);
        buf_free(&sent);
        c->failures = 0;
        if (c->head)
            mark_dirty(n, c);
    } else if (outcome == LDP_NOTIFY_GONE || ++c->failures >= LDP_NOTIFY_WEBHOOK_MAX_FAILURES) {
        log_msg(n->log, LOG_WARN, "notifications: dropping %s's webhook channel on %s: %s %s", c->client, c->topic,
                c->send_to, why);
        destroy(n, c);
    } else {
        c->retry_at = clock_ms(CLOCK_MONOTONIC) + LDP_NOTIFY_WEBHOOK_RETRY_MS;
        list_add(&n->waiting, c, WAITING);
    }
    pthread_mutex_unlock(&n->lock);
}

int ldp_notify_webhook_retry(ldp_notify *n) {
    pthread_mutex_lock(&n->lock);
    int64_t mono = clock_ms(CLOCK_MONOTONIC), wait = -1;
    for (ldp_notify_channel *c = n->waiting, *next; c; c = next) {
        next = c->chains[WAITING].next;
        if (c->retry_at <= mono) {
            list_remove(&n->waiting, c, WAITING);
            c->retry_at = 0;
            mark_dirty(n, c);
        } else if (wait < 0 || c->retry_at - mono < wait) {
            wait = c->retry_at - mono;
        }
    }
    pthread_mutex_unlock(&n->lock);
    return (int)wait;
}

/* ---------------------------------------------------------------- streams */

enum ldp_notify_next ldp_notify_stream_next(ldp_notify *n, ldp_notify_channel *c, buf *out) {
    enum ldp_notify_next next = LDP_NOTIFY_IDLE;
    pthread_mutex_lock(&n->lock);
    if (c->slow) {
        next = LDP_NOTIFY_SLOW;
    } else if (c->retired || n->closing) {
        next = LDP_NOTIFY_EXPIRED;
    } else if (c->head) {
        take_message(c, out);
        next = LDP_NOTIFY_SEND;
    } else {
        /* Under the lock that enqueue resumes under: no notification comes between. */
        c->suspended = true;
        n->suspend(c->socket);
    }
    pthread_mutex_unlock(&n->lock);
    return next;
}

void ldp_notify_stream_close(ldp_notify *n, ldp_notify_channel *c) {
    pthread_mutex_lock(&n->lock);
    destroy(n, c);
    pthread_mutex_unlock(&n->lock);
}

void ldp_notify_end_streams(ldp_notify *n) {
    pthread_mutex_lock(&n->lock);
    n->closing = true;
    for (ldp_notify_channel *c = n->all[STREAM]; c; c = c->chains[ALL].next)
        end_channel(n, c);
    pthread_mutex_unlock(&n->lock);
}

void ldp_notify_set_stream_control(ldp_notify *n, void (*suspend)(void *connection), void (*resume)(void *connection),
                                   bool (*gone)(void *connection)) {
    n->suspend = suspend;
    n->resume = resume;
    n->gone = gone;
}
/* ---------------------------------------------------------------- HTTP: the service */

static void answer_text(ldp_notify_answer *a, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void answer_text(ldp_notify_answer *a, int status, const char *fmt, ...) {
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    a->status = status;
    a->body.len = 0;
    buf_puts(&a->body, text);
    buf_putc(&a->body, '\n');
    a->content_type = "text/plain; charset=utf-8";
}

static void answer_json(ldp_notify_answer *a, int status, json_t *json, size_t flags) {
    char *text = json_dumps(json, flags);
    a->status = status;
    buf_puts(&a->body, text);
    a->content_type = "application/ld+json";
    free(text);
    json_decref(json);
}

static const char *const features[] = {"endAt", "rate", "startAt", "state"};

void ldp_notify_describe(const ldp_notify *n, const char *root, buf *turtle) {
    for (int k = 0; k < KINDS; k++) {
        if (!kinds[k].path)
            continue;
        buf_printf(turtle, "\n<%s> notify:subscription <%s%s> .\n", root, n->base_url, kinds[k].path);
        buf_printf(turtle, "<%s%s> notify:channelType notify:%s ;\n    notify:feature", n->base_url, kinds[k].path,
                   kinds[k].name);
        for (size_t i = 0; i < sizeof features / sizeof *features; i++)
            buf_printf(turtle, "%s notify:%s", i ? "," : "", features[i]);
        buf_puts(turtle, " .\n");
    }
}

/* GET of a service: its description as JSON-LD (as CSS, indented). */
static void describe_service(const ldp_notify *n, enum kind kind, ldp_notify_answer *a) {
    buf id = {0};
    buf_printf(&id, "%s%s", n->base_url, kinds[kind].path);
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof features / sizeof *features; i++)
        json_array_append_new(list, json_string(features[i]));
    json_t *d = json_object();
    json_object_set_new(d, "@context", json_pack("[s]", CONTEXT_NOTIFY));
    json_object_set_new(d, "id", json_string(buf_cstr(&id)));
    json_object_set_new(d, "channelType", json_string(kinds[kind].type));
    json_object_set_new(d, "feature", list);
    answer_json(a, 200, d, JSON_INDENT(2));
    buf_free(&id);
}

/* A subscription request as read (design note 2). */
typedef struct subscription {
    const char *topic_iri;
    char *topic; /* decoded store path */
    const char *state, *end_at_text, *start_at_text, *rate_text, *send_to;
    int64_t end_at, start_at, rate;
} subscription;

/* Whether the @context value names the notification context. */
static bool has_context(json_t *context) {
    if (json_is_string(context))
        return strcmp(json_string_value(context), CONTEXT_NOTIFY) == 0;
    size_t i;
    json_t *entry;
    json_array_foreach(context, i, entry) {
        if (json_is_string(entry) && strcmp(json_string_value(entry), CONTEXT_NOTIFY) == 0)
            return true;
    }
    return false;
}

/* Whether sendTo is an http or https URL with a host (design note 5). */
static bool good_send_to(const char *url) {
    CURLU *u = curl_url();
    char *scheme = NULL, *host = NULL;
    bool good = u && strlen(url) <= LDP_PATH_MAX && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
                curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
                curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
                (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0);
    curl_free(scheme);
    curl_free(host);
    curl_url_cleanup(u);
    return good;
}

/* Reads a request for a channel of kind into s; returns 0, or -1 with a 422 (or 500) answer. */
static int read_subscription(const ldp_notify *n, enum kind kind, const char *body, size_t len, subscription *s, json_t **root,
                             ldp_notify_answer *a) {
    json_error_t error;
    json_t *r = *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &error);
    if (!r) {
        answer_text(a, 422, "Unprocessable Content: the subscription is not JSON: %s (line %d, column %d)", error.text,
                    error.line, error.column);
        return -1;
    }
    if (!json_is_object(r)) {
        answer_text(a, 422, "Unprocessable Content: the subscription must be a JSON-LD object");
        return -1;
    }
    const char *key;
    json_t *value;
    const char *type = NULL;
    bool context = false;
    json_object_foreach(r, key, value) {
        const char **text = NULL;
        if (strcmp(key, "@context") == 0)
            context = has_context(value);
        else if (strcmp(key, "type") == 0 || strcmp(key, "@type") == 0)
            text = &type;
        else if (strcmp(key, "topic") == 0)
            text = &s->topic_iri;
        else if (strcmp(key, "state") == 0)
            text = &s->state;
        else if (strcmp(key, "endAt") == 0)
            text = &s->end_at_text;
        else if (strcmp(key, "startAt") == 0)
            text = &s->start_at_text;
        else if (strcmp(key, "rate") == 0)
            text = &s->rate_text;
        else if (kind == WEBHOOK && strcmp(key, "sendTo") == 0)
            text = &s->send_to;
        else if (strcmp(key, "id") != 0 && strcmp(key, "@id") != 0) {
            answer_text(a, 422,
                        "Unprocessable Content: this service does not take '%.100s' (it takes @context, type, topic, "
                        "state, endAt, startAt%s and rate)",
                        key, kind == WEBHOOK ? ", sendTo" : "");
            return -1;
        }
        if (text && !json_is_string(value)) {
            answer_text(a, 422, "Unprocessable Content: '%s' must be one string", key);
            return -1;
        }
        if (text && *text) {
            answer_text(a, 422, "Unprocessable Content: give either type or @type, once");
            return -1;
        }
        if (text)
            *text = json_string_value(value);
    }
    if (!context) {
        answer_text(a, 422, "Unprocessable Content: the @context must include \"" CONTEXT_NOTIFY "\"");
        return -1;
    }
    if (!type || (strcmp(type, kinds[kind].type) != 0 &&
                  !(strncmp(type, "notify:", 7) == 0 && strcmp(type + 7, kinds[kind].name) == 0))) {
        answer_text(a, 422,
                    "Unprocessable Content: the type must be \"%s\" (the channel type this service makes), "
                    "not %s%.200s%s",
                    kinds[kind].type, type ? "\"" : "", type ? type : "none", type ? "\"" : "");
        return -1;
    }
    if (kind == WEBHOOK && (!s->send_to || !good_send_to(s->send_to))) {
        answer_text(a, 422, "Unprocessable Content: %s%.300s%s: a webhook subscription needs sendTo, an http or https "
                    "URL to POST the notifications to",
                    s->send_to ? "sendTo <" : "no sendTo", s->send_to ? s->send_to : "", s->send_to ? ">" : "");
        return -1;
    }
    if (!s->topic_iri) {
        answer_text(a, 422, "Unprocessable Content: the subscription has no topic");
        return -1;
    }
    size_t base_len = strlen(n->base_url);
    const char *why = "it is not a resource of this server";
    if (strncmp(s->topic_iri, n->base_url, base_len) != 0 || s->topic_iri[base_len] != '/' ||
        strpbrk(s->topic_iri, "?#") || ldp_path_decode(s->topic_iri + base_len, &s->topic, &why) != 0) {
        answer_text(a, 422, "Unprocessable Content: topic <%.300s>: %s (under %s/)", s->topic_iri, why, n->base_url);
        return -1;
    }
    if (s->end_at_text && !parse_datetime(s->end_at_text, &s->end_at)) {
        answer_text(a, 422, "Unprocessable Content: endAt must be an xsd:dateTime such as 2030-01-01T00:00:00Z");
        return -1;
    }
    if (s->start_at_text && !parse_datetime(s->start_at_text, &s->start_at)) {
        answer_text(a, 422, "Unprocessable Content: startAt must be an xsd:dateTime such as 2030-01-01T00:00:00Z");
        return -1;
    }
    if (s->rate_text && !parse_duration(s->rate_text, &s->rate)) {
        answer_text(a, 422, "Unprocessable Content: rate must be an xsd:duration such as PT10S");
        return -1;
    }
    if (s->end_at_text && s->end_at <= clock_ms(CLOCK_REALTIME)) {
        answer_text(a, 422, "Unprocessable Content: endAt is in the past");
        return -1;
    }
    return 0;
}

/* The channel's JSON-LD, in CSS's order: id, type, topic, the features given, receiveFrom (WebSocket) or
 * sendTo (webhook), then endAt when the subscription did not give it (CSS's webhook sender is left out:
 * design note 7). */
static json_t *channel_json(const ldp_notify *n, const ldp_notify_channel *c, const subscription *s) {
    buf id = {0}, receive = {0};
    buf_printf(&id, "%s%s%s", n->base_url, kinds[c->kind].path, c->uuid);
    buf_printf(&receive, "%s%s%s", n->receive_base, kinds[c->kind].path, c->uuid);
    char end_at[64], start_at[64];
    format_datetime(c->end_at, end_at);
    format_datetime(c->start_at, start_at);
    json_t *j = json_object();
    json_object_set_new(j, "@context", json_pack("[s]", CONTEXT_NOTIFY));
    json_object_set_new(j, "id", json_string(buf_cstr(&id)));
    json_object_set_new(j, "type", json_string(kinds[c->kind].type));
    json_object_set_new(j, "topic", json_string(s->topic_iri));
    if (s->end_at_text)
        json_object_set_new(j, "endAt", json_string(end_at));
    if (s->rate_text)
        json_object_set_new(j, "rate", json_string(s->rate_text));
    if (s->start_at_text)
        json_object_set_new(j, "startAt", json_string(start_at));
    if (s->state)
        json_object_set_new(j, "state", json_string(s->state));
    if (c->kind == WS)
        json_object_set_new(j, "receiveFrom", json_string(buf_cstr(&receive)));
    else
        json_object_set_new(j, "sendTo", json_string(c->send_to));
    if (!s->end_at_text)
        json_object_set_new(j, "endAt", json_string(end_at));
    buf_free(&id);
    buf_free(&receive);
    return j;
}

/* Puts c, made for client_address, in the tables; or, when a bound of its kind is reached, answers 429
 * and returns false (c is then the caller's to free). */
static bool admit(ldp_notify *n, ldp_notify_channel *c, ldp_notify_answer *a) {
    client **slot = client_slot(n, c->client);
    unsigned held = *slot ? (*slot)->channels[c->kind] : 0;
    const char *name = kinds[c->kind].name;
    if (n->count[c->kind] >= n->max[c->kind]) {
        answer_text(a, 429, "Too Many Requests: this server holds its most notification channels of type %s (%u); "
                    "subscribe again later, or poll", name, n->max[c->kind]);
        return false;
    }
    if (held >= n->max_per_client[c->kind]) {
        answer_text(a, 429, "Too Many Requests: %s holds %u %s channels, the most one client may hold; %s first",
                    c->client, held, name,
                    c->kind == STREAM ? "close one" : "unsubscribe (DELETE a channel's id) or let some expire");
        return false;
    }
    if (!*slot) {
        *slot = xcalloc(1, sizeof **slot);
        (*slot)->address = xstrndup(c->client, strlen(c->client));
    }
    (*slot)->channels[c->kind]++;
    n->count[c->kind]++;
    list_add(&n->all[c->kind], c, ALL);
    ldp_notify_channel **bucket;
    if (c->kind != STREAM) {
        bucket = id_bucket(n, c->uuid);
        c->id_next = *bucket;
        *bucket = c;
    }
    bucket = topic_bucket(n, c->topic);
    c->topic_next = *bucket;
    *bucket = c;
    heap_add(n, c);
    return true;
}

static void free_unadmitted(ldp_notify_channel *c) {
    free(c->topic);
    free(c->client);
    free(c->state);
    free(c->send_to);
    free(c);
}

static void subscribe(ldp_notify *n, enum kind kind, const char *content_type, const char *body, size_t len,
                      const char *client_address, ldp_notify_answer *a) {
    if (!ldp_media_type_is(content_type, "application/ld+json")) {
        answer_text(a, 415, "Unsupported Media Type: send the subscription as application/ld+json");
        return;
    }
    if (len > LDP_NOTIFY_MAX_REQUEST) {
        answer_text(a, 413, "Content Too Large: a subscription has at most %d bytes", LDP_NOTIFY_MAX_REQUEST);
        return;
    }
    subscription s = {0};
    json_t *root = NULL;
    if (read_subscription(n, kind, body, len, &s, &root, a) != 0) {
        json_decref(root);
        free(s.topic);
        return;
    }
    int64_t now = clock_ms(CLOCK_REALTIME), last = now + (int64_t)n->lifetime * 1000;
    ldp_notify_channel *c = xcalloc(1, sizeof *c);
    c->kind = kind;
    c->heap_index = SIZE_MAX;
    c->topic = s.topic;
    c->client = xstrndup(client_address, strlen(client_address));
    if (!new_uuid(c->uuid)) {
        answer_text(a, 500, "Internal Server Error: no random numbers to name the channel with");
        json_decref(root);
        free_unadmitted(c);
        return;
    }
    c->state = kind == WS && s.state ? xstrndup(s.state, strlen(s.state)) : NULL;
    c->send_to = s.send_to ? xstrndup(s.send_to, strlen(s.send_to)) : NULL;
    c->end_at = s.end_at_text && s.end_at < last ? s.end_at : last;
    c->start_at = s.start_at;
    c->rate = s.rate;
    c->idle_since = clock_ms(CLOCK_MONOTONIC);
    pthread_mutex_lock(&n->lock);
    bool admitted = admit(n, c, a);
    if (admitted) /* only this subscriber knows c's id yet; the answer is made before anyone may drop it */
        answer_json(a, 200, channel_json(n, c, &s), JSON_COMPACT);
    if (admitted && kind == WEBHOOK && s.state)
        queue_state(n, c, s.state); /* design note 4: a webhook has no connection to wait for */
    pthread_mutex_unlock(&n->lock);
    if (!admitted)
        free_unadmitted(c);
    else if (kind == WEBHOOK && n->wake[WEBHOOK])
        n->wake[WEBHOOK](n->wake_user[WEBHOOK]);
    json_decref(root);
}

static void unsubscribe(ldp_notify *n, const char *path, ldp_notify_answer *a) {
    pthread_mutex_lock(&n->lock);
    ldp_notify_channel *c = find_channel(n, path);
    enum kind kind = c ? c->kind : KINDS;
    if (c)
        end_channel(n, c);
    pthread_mutex_unlock(&n->lock);
    if (kind != KINDS && n->wake[kind])
        n->wake[kind](n->wake_user[kind]);
    if (kind != KINDS)
        a->status = 205;
    else
        answer_text(a, 404, "Not Found: no such notification channel (unsubscribed, or expired)");
}

ldp_notify_channel *ldp_notify_stream_open(ldp_notify *n, const char *path, const char *client_address,
                                           void *connection, ldp_notify_answer *a) {
    /* Design note 8: the rest of the path is the topic's IRI, percent-encoded as a whole. */
    const char *encoded = path + strlen(LDP_NOTIFY_STREAM_PATH);
    int len = 0;
    char *iri = curl_easy_unescape(NULL, encoded, (int)strnlen(encoded, LDP_PATH_MAX * 3), &len);
    size_t base_len = strlen(n->base_url);
    char *topic = NULL;
    const char *why = "it is not a resource of this server";
    if (!iri || strlen(iri) != (size_t)len || strncmp(iri, n->base_url, base_len) != 0 || iri[base_len] != '/' ||
        strpbrk(iri, "?#") || ldp_path_decode(iri + base_len, &topic, &why) != 0) {
        answer_text(a, 404, "Not Found: the stream of <%.300s>: %s (the path is %s followed by a topic IRI under %s/, "
                    "percent-encoded)", iri ? iri : "", why, LDP_NOTIFY_STREAM_PATH, n->base_url);
        curl_free(iri);
        return NULL;
    }
    curl_free(iri);
    ldp_notify_channel *c = xcalloc(1, sizeof *c);
    c->kind = STREAM;
    c->heap_index = SIZE_MAX;
    c->topic = topic;
    c->client = xstrndup(client_address, strlen(client_address));
    c->end_at = clock_ms(CLOCK_REALTIME) + (int64_t)n->lifetime * 1000;
    c->socket = connection;
    pthread_mutex_lock(&n->lock);
    bool admitted = !n->closing && admit(n, c, a);
    if (admitted)
        queue_state(n, c, NULL); /* as CSS: the topic's state first, whatever it is */
    else if (n->closing)
        answer_text(a, 503, "Service Unavailable: the server is stopping");
    pthread_mutex_unlock(&n->lock);
    if (!admitted) {
        free_unadmitted(c);
        return NULL;
    }
    return c;
}

void ldp_notify_request(ldp_notify *n, const char *method, const char *path, const char *content_type,
                        const char *body, size_t len, const char *client_address, ldp_notify_answer *a) {
    bool read = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    enum kind kind = kind_of_id(path);
    if (kind != KINDS && strcmp(path, kinds[kind].path) == 0) {
        if (read)
            describe_service(n, kind, a);
        else if (strcmp(method, "POST") == 0)
            subscribe(n, kind, content_type, body, len, client_address, a);
        else {
            answer_text(a, 405, "Method Not Allowed: POST a subscription here");
            a->allow = "GET, HEAD, POST";
        }
        return;
    }
    pthread_mutex_lock(&n->lock);
    bool exists = find_channel(n, path) != NULL;
    pthread_mutex_unlock(&n->lock);
    if (exists && strcmp(method, "DELETE") == 0) {
        unsubscribe(n, path, a);
    } else if (exists) {
        answer_text(a, 405, "Method Not Allowed: a channel can only be deleted (unsubscribed)");
        a->allow = "DELETE";
    } else {
        answer_text(a, 404, "Not Found");
    }
}

/* ---------------------------------------------------------------- lifecycle */

ldp_notify *ldp_notify_new(const ldp_notify_config *config) {
    ldp_notify *n = xcalloc(1, sizeof *n);
    n->base_url = xstrndup(config->base_url, strlen(config->base_url));
    n->receive_base = xstrndup("", 0);
    const unsigned given[KINDS][2] = {{config->max_channels, config->max_channels_per_client},
                                      {config->max_webhooks, config->max_webhooks_per_client},
                                      {config->max_streams, config->max_streams_per_client}};
    const unsigned defaults[KINDS][2] = {
        {LDP_NOTIFY_DEFAULT_MAX_CHANNELS, LDP_NOTIFY_DEFAULT_MAX_CHANNELS_PER_CLIENT},
        {LDP_NOTIFY_DEFAULT_MAX_WEBHOOKS, LDP_NOTIFY_DEFAULT_MAX_WEBHOOKS_PER_CLIENT},
        {LDP_NOTIFY_DEFAULT_MAX_STREAMS, LDP_NOTIFY_DEFAULT_MAX_STREAMS_PER_CLIENT}};
    size_t total = 0;
    for (int k = 0; k < KINDS; k++) {
        n->max[k] = given[k][0] ? given[k][0] : defaults[k][0];
        n->max_per_client[k] = given[k][1] ? given[k][1] : defaults[k][1];
        total += n->max[k];
    }
    n->lifetime = config->lifetime ? config->lifetime : LDP_NOTIFY_DEFAULT_LIFETIME;
    n->connect_timeout = config->connect_timeout ? config->connect_timeout : LDP_NOTIFY_DEFAULT_CONNECT_TIMEOUT;
    n->max_queued = config->max_queued ? config->max_queued : LDP_NOTIFY_DEFAULT_MAX_QUEUED;
    n->log = config->log;
    pthread_mutex_init(&n->lock, NULL);
    n->bucket_count = 64;
    while (n->bucket_count < total && n->bucket_count < (1u << 20))
        n->bucket_count *= 2;
    n->by_id = xcalloc(n->bucket_count, sizeof *n->by_id);
    n->by_topic = xcalloc(n->bucket_count, sizeof *n->by_topic);
    n->clients = xcalloc(n->bucket_count, sizeof *n->clients);
    return n;
}

void ldp_notify_channel_counts(ldp_notify *n, const char *names[LDP_NOTIFY_CHANNEL_TYPES],
                               unsigned counts[LDP_NOTIFY_CHANNEL_TYPES]) {
    _Static_assert((int)KINDS == (int)LDP_NOTIFY_CHANNEL_TYPES, "one count per channel type");
    pthread_mutex_lock(&n->lock);
    for (size_t k = 0; k < KINDS; k++) {
        names[k] = kinds[k].name;
        counts[k] = n->count[k];
    }
    pthread_mutex_unlock(&n->lock);
}

void ldp_notify_set_receive_base(ldp_notify *n, const char *ws_base) {
    free(n->receive_base);
    n->receive_base = xstrndup(ws_base, strlen(ws_base));
}

void ldp_notify_set_store(ldp_notify *n, ldp_store *store) { n->store = store; }

void ldp_notify_set_wake(ldp_notify *n, void (*wake)(void *user), void *user) {
    n->wake[WS] = wake;
    n->wake_user[WS] = user;
}

void ldp_notify_set_webhook_wake(ldp_notify *n, void (*wake)(void *user), void *user) {
    n->wake[WEBHOOK] = wake;
    n->wake_user[WEBHOOK] = user;
}

void ldp_notify_free(ldp_notify *n) {
    if (!n)
        return;
    for (int k = 0; k < KINDS; k++)
        while (n->all[k])
            destroy(n, n->all[k]);
    pthread_mutex_destroy(&n->lock);
    free(n->by_id);
    free(n->by_topic);
    free(n->clients);
    free(n->heap);
    free(n->base_url);
    free(n->receive_base);
    free(n);
}
