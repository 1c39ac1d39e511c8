/* ldp_notify.c: the notification channels of the LDP server (ldp_notify.h): subscriptions read with
 * jansson, the channel tables (by id, by topic, per client), the queues of activities each socket has yet
 * to send, and the expiry of channels. */
#include "ldp/ldp_notify.h"

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
#define WS_TYPE LDP_NOTIFY_NS "WebSocketChannel2023"
#define UUID_LEN 36

typedef struct message {
    struct message *next;
    size_t len;
    char data[];
} message;

struct ldp_notify_channel {
    char uuid[UUID_LEN + 1];
    char *topic;             /* the store path */
    char *client;            /* the subscriber's address */
    char *state;             /* the subscription's state until a socket connected; else NULL */
    int64_t end_at, start_at, rate, last_emit; /* ms: since the epoch (rate: a duration); 0 none */
    int64_t idle_since;      /* monotonic ms since which it has had no socket */
    void *socket;            /* the WebSocket thread's connection, or NULL */
    message *head, *tail;    /* unsent notifications */
    size_t queued;           /* their bytes */
    bool retired;            /* out of the tables: unsubscribed, expired or slow; freed once socketless */
    bool slow;
    bool dirty;              /* on the dirty list */
    ldp_notify_channel *prev, *next;        /* every channel */
    ldp_notify_channel *id_next, *topic_next; /* hash chains */
    ldp_notify_channel *dirty_next;
};

typedef struct client {
    char *address;
    unsigned channels;
    struct client *next;
} client;

struct ldp_notify {
    char *base_url;
    char *receive_base;
    unsigned max_channels, max_per_client, lifetime, connect_timeout;
    const log_sink *log;
    ldp_store *store;
    void (*wake)(void *user);
    void *wake_user;
    pthread_mutex_t lock; /* everything below */
    ldp_notify_channel *all;
    unsigned channel_count;
    size_t bucket_count; /* a power of two */
    ldp_notify_channel **by_id, **by_topic;
    client **clients;
    ldp_notify_channel *dirty;
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

/* The channel a receive or id path names ("/.notifications/WebSocketChannel2023/UUID"), or NULL. */
static ldp_notify_channel *find_channel(ldp_notify *n, const char *path) {
    size_t prefix = strlen(LDP_NOTIFY_WS_PATH);
    if (strncmp(path, LDP_NOTIFY_WS_PATH, prefix) != 0 || strlen(path + prefix) != UUID_LEN)
        return NULL;
    const char *uuid = path + prefix;
    for (ldp_notify_channel *c = *id_bucket(n, uuid); c; c = c->id_next)
        if (strcmp(c->uuid, uuid) == 0)
            return c;
    return NULL;
}

static void mark_dirty(ldp_notify *n, ldp_notify_channel *c) {
    if (c->dirty)
        return;
    c->dirty = true;
    c->dirty_next = n->dirty;
    n->dirty = c;
}

static void drop_queue(ldp_notify_channel *c) {
    for (message *m = c->head, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    c->head = c->tail = NULL;
    c->queued = 0;
}

/* Takes c out of the id and topic tables: no request finds it, no change reaches it. */
static void retire(ldp_notify *n, ldp_notify_channel *c) {
    if (c->retired)
        return;
    c->retired = true;
    ldp_notify_channel **link = id_bucket(n, c->uuid);
    while (*link != c)
        link = &(*link)->id_next;
    *link = c->id_next;
    link = topic_bucket(n, c->topic);
    while (*link != c)
        link = &(*link)->topic_next;
    *link = c->topic_next;
}

/* Frees a channel without a socket. */
static void destroy(ldp_notify *n, ldp_notify_channel *c) {
    retire(n, c);
    if (c->dirty) {
        ldp_notify_channel **link = &n->dirty;
        while (*link != c)
            link = &(*link)->dirty_next;
        *link = c->dirty_next;
    }
    if (c->prev)
        c->prev->next = c->next;
    else
        n->all = c->next;
    if (c->next)
        c->next->prev = c->prev;
    n->channel_count--;
    client **slot = client_slot(n, c->client);
    if (*slot && --(*slot)->channels == 0) {
        client *gone = *slot;
        *slot = gone->next;
        free(gone->address);
        free(gone);
    }
    drop_queue(c);
    free(c->topic);
    free(c->client);
    free(c->state);
    free(c);
}

/* Queues text on c; past LDP_NOTIFY_MAX_QUEUED the channel is given up (design note 5). */
static void enqueue(ldp_notify *n, ldp_notify_channel *c, const char *text) {
    size_t len = strlen(text);
    if (c->queued + len > LDP_NOTIFY_MAX_QUEUED) {
        if (!c->slow)
            log_msg(n->log, LOG_WARN, "notifications: %s does not read its channel on %s: closing it", c->client,
                    c->topic);
        c->slow = true;
        drop_queue(c);
        retire(n, c);
    } else {
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
    }
    mark_dirty(n, c);
}

/* ---------------------------------------------------------------- activities */

static const char *const activity_names[] = {"Create", "Update", "Delete", "Add", "Remove"};

/* The JSON-LD of one activity (ldp_notify.h): topic is the channel's; object differs from it for Add and
 * Remove (then topic is the target); state NULL or "" leaves it out. Caller frees. */
static char *activity_text(const ldp_notify *n, enum ldp_activity activity, const char *topic, const char *object,
                           const char *state, int64_t now) {
    buf topic_uri = {0}, object_uri = {0};
    uri_of(n, topic, &topic_uri);
    uri_of(n, object ? object : topic, &object_uri);
    buf id = {0};
    buf_printf(&id, "urn:%lld:%s", (long long)now, buf_cstr(&topic_uri));
    char published[64];
    format_datetime(now, published);
    json_t *a = json_object();
    json_object_set_new(a, "@context", json_pack("[ss]", CONTEXT_AS, CONTEXT_NOTIFY));
    json_object_set_new(a, "id", json_string(buf_cstr(&id)));
    json_object_set_new(a, "type", json_string(activity_names[activity]));
    json_object_set_new(a, "object", json_string(buf_cstr(&object_uri)));
    if (activity == LDP_ACTIVITY_ADD || activity == LDP_ACTIVITY_REMOVE)
        json_object_set_new(a, "target", json_string(buf_cstr(&topic_uri)));
    if (state && *state)
        json_object_set_new(a, "state", json_string(state));
    json_object_set_new(a, "published", json_string(published));
    char *text = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    buf_free(&topic_uri);
    buf_free(&object_uri);
    buf_free(&id);
    return text;
}

void ldp_notify_changed(void *user, const ldp_store_change *changes, size_t count) {
    ldp_notify *n = user;
    int64_t now = clock_ms(CLOCK_REALTIME);
    pthread_mutex_lock(&n->lock);
    bool woken = false;
    for (size_t i = 0; i < count && n->channel_count; i++) {
        const ldp_store_change *change = &changes[i];
        char *text = NULL;
        for (ldp_notify_channel *c = *topic_bucket(n, change->path); c; c = c->topic_next) {
            if (strcmp(c->topic, change->path) != 0 || !c->socket || (c->start_at && now < c->start_at) ||
                (c->rate && c->last_emit && now - c->last_emit < c->rate))
                continue;
            if (!text)
                text = activity_text(n, change->activity, change->path, change->object, change->etag, now);
            c->last_emit = now;
            enqueue(n, c, text);
            woken = true;
        }
        free(text);
    }
    pthread_mutex_unlock(&n->lock);
    if (woken && n->wake)
        n->wake(n->wake_user);
}

/* ---------------------------------------------------------------- the WebSocket thread's side */

bool ldp_notify_can_connect(ldp_notify *n, const char *path) {
    pthread_mutex_lock(&n->lock);
    ldp_notify_channel *c = find_channel(n, path);
    bool can = c && !c->socket;
    pthread_mutex_unlock(&n->lock);
    return can;
}

/* Design note 4: the topic's state, when the subscription gave one and it is not the current one. */
static void queue_state(ldp_notify *n, ldp_notify_channel *c) {
    ldp_doc *doc = ldp_store_get(n->store, c->topic);
    bool same = false;
    for (int m = 0; doc && m < LDP_MEDIA_COUNT; m++)
        same = same || strcmp(doc->etag[m], c->state) == 0;
    if (!same) {
        int64_t now = clock_ms(CLOCK_REALTIME);
        char *text = activity_text(n, doc ? LDP_ACTIVITY_UPDATE : LDP_ACTIVITY_DELETE, c->topic, NULL,
                                   doc ? doc->etag[LDP_MEDIA_TURTLE] : NULL, now);
        enqueue(n, c, text);
        free(text);
    }
    ldp_doc_release(doc);
}

ldp_notify_channel *ldp_notify_connect(ldp_notify *n, const char *path, void *socket) {
    pthread_mutex_lock(&n->lock);
    ldp_notify_channel *c = find_channel(n, path);
    if (c && !c->socket) {
        c->socket = socket;
        if (c->state) {
            queue_state(n, c);
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
        message *m = c->head;
        c->head = m->next;
        if (!c->head)
            c->tail = NULL;
        c->queued -= m->len;
        out->len = 0;
        buf_append(out, m->data, m->len);
        free(m);
        *more = c->head != NULL;
        next = LDP_NOTIFY_SEND;
    }
    pthread_mutex_unlock(&n->lock);
    return next;
}

void ldp_notify_poll(ldp_notify *n, bool expire, void (*visit)(void *user, void *socket, bool closing), void *user) {
    pthread_mutex_lock(&n->lock);
    if (expire) {
        int64_t now = clock_ms(CLOCK_REALTIME), mono = clock_ms(CLOCK_MONOTONIC);
        for (ldp_notify_channel *c = n->all, *next; c; c = next) {
            next = c->next;
            bool expired = c->end_at <= now;
            bool abandoned = !c->socket && mono - c->idle_since >= (int64_t)n->connect_timeout * 1000;
            if (c->socket && expired && !c->retired) {
                retire(n, c);
                mark_dirty(n, c);
            } else if (!c->socket && (expired || abandoned)) {
                destroy(n, c);
            }
        }
    }
    while (n->dirty) {
        ldp_notify_channel *c = n->dirty;
        n->dirty = c->dirty_next;
        c->dirty = false;
        if (c->socket)
            visit(user, c->socket, c->retired);
    }
    pthread_mutex_unlock(&n->lock);
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
    buf_printf(turtle, "\n<%s> notify:subscription <%s" LDP_NOTIFY_WS_PATH "> .\n", root, n->base_url);
    buf_printf(turtle, "<%s" LDP_NOTIFY_WS_PATH "> notify:channelType notify:WebSocketChannel2023 ;\n    notify:feature",
               n->base_url);
    for (size_t i = 0; i < sizeof features / sizeof *features; i++)
        buf_printf(turtle, "%s notify:%s", i ? "," : "", features[i]);
    buf_puts(turtle, " .\n");
}

/* GET of the service: its description as JSON-LD (as CSS, indented). */
static void describe_service(const ldp_notify *n, ldp_notify_answer *a) {
    buf id = {0};
    buf_printf(&id, "%s" LDP_NOTIFY_WS_PATH, n->base_url);
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof features / sizeof *features; i++)
        json_array_append_new(list, json_string(features[i]));
    json_t *d = json_object();
    json_object_set_new(d, "@context", json_pack("[s]", CONTEXT_NOTIFY));
    json_object_set_new(d, "id", json_string(buf_cstr(&id)));
    json_object_set_new(d, "channelType", json_string(WS_TYPE));
    json_object_set_new(d, "feature", list);
    answer_json(a, 200, d, JSON_INDENT(2));
    buf_free(&id);
}

/* A subscription request as read (design note 2). */
typedef struct subscription {
    const char *topic_iri;
    char *topic; /* decoded store path */
    const char *state, *end_at_text, *start_at_text, *rate_text;
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

/* Reads the request into s; returns 0, or -1 with a 422 (or 500) answer. */
static int read_subscription(const ldp_notify *n, const char *body, size_t len, subscription *s, json_t **root,
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
        else if (strcmp(key, "id") != 0 && strcmp(key, "@id") != 0) {
            answer_text(a, 422,
                        "Unprocessable Content: this service does not take '%.100s' (it takes @context, type, topic, "
                        "state, endAt, startAt and rate)",
                        key);
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
    if (!type || (strcmp(type, WS_TYPE) != 0 && strcmp(type, "notify:WebSocketChannel2023") != 0)) {
        answer_text(a, 422,
                    "Unprocessable Content: the type must be \"" WS_TYPE "\" (the channel type this service makes), "
                    "not %s%.200s%s",
                    type ? "\"" : "", type ? type : "none", type ? "\"" : "");
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

/* The channel's JSON-LD, in CSS's order: id, type, topic, the features given, receiveFrom, then endAt when
 * the subscription did not give it. */
static json_t *channel_json(const ldp_notify *n, const ldp_notify_channel *c, const subscription *s) {
    buf id = {0}, receive = {0};
    buf_printf(&id, "%s" LDP_NOTIFY_WS_PATH "%s", n->base_url, c->uuid);
    buf_printf(&receive, "%s" LDP_NOTIFY_WS_PATH "%s", n->receive_base, c->uuid);
    char end_at[64], start_at[64];
    format_datetime(c->end_at, end_at);
    format_datetime(c->start_at, start_at);
    json_t *j = json_object();
    json_object_set_new(j, "@context", json_pack("[s]", CONTEXT_NOTIFY));
    json_object_set_new(j, "id", json_string(buf_cstr(&id)));
    json_object_set_new(j, "type", json_string(WS_TYPE));
    json_object_set_new(j, "topic", json_string(s->topic_iri));
    if (s->end_at_text)
        json_object_set_new(j, "endAt", json_string(end_at));
    if (s->rate_text)
        json_object_set_new(j, "rate", json_string(s->rate_text));
    if (s->start_at_text)
        json_object_set_new(j, "startAt", json_string(start_at));
    if (s->state)
        json_object_set_new(j, "state", json_string(s->state));
    json_object_set_new(j, "receiveFrom", json_string(buf_cstr(&receive)));
    if (!s->end_at_text)
        json_object_set_new(j, "endAt", json_string(end_at));
    buf_free(&id);
    buf_free(&receive);
    return j;
}

static void subscribe(ldp_notify *n, const char *content_type, const char *body, size_t len, const char *client_address,
                      ldp_notify_answer *a) {
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
    if (read_subscription(n, body, len, &s, &root, a) != 0) {
        json_decref(root);
        free(s.topic);
        return;
    }
    int64_t now = clock_ms(CLOCK_REALTIME), last = now + (int64_t)n->lifetime * 1000;
    ldp_notify_channel *c = xcalloc(1, sizeof *c);
    if (!new_uuid(c->uuid)) {
        answer_text(a, 500, "Internal Server Error: no random numbers to name the channel with");
        json_decref(root);
        free(s.topic);
        free(c);
        return;
    }
    c->topic = s.topic;
    c->client = xstrndup(client_address, strlen(client_address));
    c->state = s.state ? xstrndup(s.state, strlen(s.state)) : NULL;
    c->end_at = s.end_at_text && s.end_at < last ? s.end_at : last;
    c->start_at = s.start_at;
    c->rate = s.rate;
    c->idle_since = clock_ms(CLOCK_MONOTONIC);
    pthread_mutex_lock(&n->lock);
    client **slot = client_slot(n, c->client);
    unsigned held = *slot ? (*slot)->channels : 0;
    bool full = n->channel_count >= n->max_channels, too_many = held >= n->max_per_client;
    if (!full && !too_many) {
        if (!*slot) {
            *slot = xcalloc(1, sizeof **slot);
            (*slot)->address = xstrndup(c->client, strlen(c->client));
        }
        (*slot)->channels++;
        n->channel_count++;
        c->next = n->all;
        if (n->all)
            n->all->prev = c;
        n->all = c;
        ldp_notify_channel **bucket = id_bucket(n, c->uuid);
        c->id_next = *bucket;
        *bucket = c;
        bucket = topic_bucket(n, c->topic);
        c->topic_next = *bucket;
        *bucket = c;
    }
    pthread_mutex_unlock(&n->lock);
    if (full || too_many) {
        if (full)
            answer_text(a, 429, "Too Many Requests: this server holds its most notification channels (%u); subscribe "
                        "again later, or poll", n->max_channels);
        else
            answer_text(a, 429, "Too Many Requests: %s holds %u notification channels, the most one client may hold; "
                        "unsubscribe (DELETE a channel's id) or let some expire first", c->client, held);
        free(c->topic);
        free(c->client);
        free(c->state);
        free(c);
    } else {
        /* c is in the tables now, but only this subscriber knows its id yet. */
        answer_json(a, 200, channel_json(n, c, &s), JSON_COMPACT);
    }
    json_decref(root);
}

static void unsubscribe(ldp_notify *n, const char *path, ldp_notify_answer *a) {
    pthread_mutex_lock(&n->lock);
    ldp_notify_channel *c = find_channel(n, path);
    bool wake = false;
    if (c) {
        retire(n, c);
        if (c->socket) {
            mark_dirty(n, c);
            wake = true;
        } else {
            destroy(n, c);
        }
    }
    pthread_mutex_unlock(&n->lock);
    if (wake && n->wake)
        n->wake(n->wake_user);
    if (c)
        a->status = 205;
    else
        answer_text(a, 404, "Not Found: no such notification channel (unsubscribed, or expired)");
}

void ldp_notify_request(ldp_notify *n, const char *method, const char *path, const char *content_type,
                        const char *body, size_t len, const char *client_address, ldp_notify_answer *a) {
    bool read = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (strcmp(path, LDP_NOTIFY_WS_PATH) == 0) {
        if (read)
            describe_service(n, a);
        else if (strcmp(method, "POST") == 0)
            subscribe(n, content_type, body, len, client_address, a);
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
    n->max_channels = config->max_channels ? config->max_channels : LDP_NOTIFY_DEFAULT_MAX_CHANNELS;
    n->max_per_client = config->max_channels_per_client ? config->max_channels_per_client
                                                        : LDP_NOTIFY_DEFAULT_MAX_CHANNELS_PER_CLIENT;
    n->lifetime = config->lifetime ? config->lifetime : LDP_NOTIFY_DEFAULT_LIFETIME;
    n->connect_timeout = config->connect_timeout ? config->connect_timeout : LDP_NOTIFY_DEFAULT_CONNECT_TIMEOUT;
    n->log = config->log;
    pthread_mutex_init(&n->lock, NULL);
    n->bucket_count = 64;
    while (n->bucket_count < n->max_channels && n->bucket_count < (1u << 20))
        n->bucket_count *= 2;
    n->by_id = xcalloc(n->bucket_count, sizeof *n->by_id);
    n->by_topic = xcalloc(n->bucket_count, sizeof *n->by_topic);
    n->clients = xcalloc(n->bucket_count, sizeof *n->clients);
    return n;
}

void ldp_notify_set_receive_base(ldp_notify *n, const char *ws_base) {
    free(n->receive_base);
    n->receive_base = xstrndup(ws_base, strlen(ws_base));
}

void ldp_notify_set_store(ldp_notify *n, ldp_store *store) { n->store = store; }

void ldp_notify_set_wake(ldp_notify *n, void (*wake)(void *user), void *user) {
    n->wake = wake;
    n->wake_user = user;
}

void ldp_notify_free(ldp_notify *n) {
    if (!n)
        return;
    while (n->all) {
        n->all->socket = NULL;
        destroy(n, n->all);
    }
    pthread_mutex_destroy(&n->lock);
    free(n->by_id);
    free(n->by_topic);
    free(n->clients);
    free(n->base_url);
    free(n->receive_base);
    free(n);
}
