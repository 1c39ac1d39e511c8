/* notifications.c: the agent's Solid Notifications channels (notifications.h): discovery, subscription,
 * what each channel vouches for, resubscription, unsubscription. A channel is a WebSocketChannel2023 one
 * (its socket in ws_channels) or, with --webhook, a WebhookChannel2023 one (its URL on the webhook
 * listener); both report through ws_channels' events, under the channel's handle. */
#include "agent/notifications.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http/http_url.h"
#include "http/webhook_listener.h"
#include "http/ws_channels.h"
#include "rdf/buf.h"
#include "rdf/due_heap.h"
#include "rdf/hashmap.h"
#include "rdf/strmap.h"
#include "rdf/vocab_ns.h"
#include "reason/xsd_time.h"

#define NOTIFY_NS "http://www.w3.org/ns/solid/notifications#"

enum {
    PING_SECS = 30,               /* an idle socket is pinged this often (ws_channels.h, guarantee 3) */
    RETRY_FIRST_MS = 1000,        /* a lost or refused subscription is made again after this, doubling ... */
    RETRY_MAX_MS = 60000,         /* ... up to this */
    REDISCOVER_MS = 10 * 60000,   /* a storage that offered no channel is asked again after this */
    REFRESH_BEFORE_END_MS = 60000 /* a channel is replaced this long before its endAt */
};

typedef enum channel_state {
    CH_IDLE,    /* no channel; one is wanted again from retry_at on */
    CH_WANTED,  /* to subscribe at the next flush */
    CH_OPENING, /* subscribed; its socket is being opened */
    CH_LIVE,    /* its socket is open; a webhook channel: its subscription was answered 200 */
} channel_state;

/* The channel types the agent subscribes with, the one it prefers first. */
typedef enum channel_kind { KIND_WEBHOOK, KIND_WEBSOCKET, KIND_COUNT } channel_kind;

static const char *const kind_names[KIND_COUNT] = {"WebhookChannel2023", "WebSocketChannel2023"};

typedef struct channel {
    channel_state state;
    bool changed;  /* not read since a notification, or since its socket opened */
    bool has_read; /* a state was read (etag below) */
    char *etag;    /* the state last read (NULL: absent) */
    channel_kind kind; /* while CH_OPENING or CH_LIVE */
    char *id;          /* a webhook channel's id, unsubscribed by DELETE (NULL: none given) */
    uint32_t storage;  /* its storage (UINT32_MAX: not known yet) */
    uint64_t socket; /* its ws_channels (or webhook listener) id while CH_OPENING or CH_LIVE */
    int64_t retry_at, refresh_at;
    unsigned failures;
} channel;

typedef enum storage_state { STORAGE_UNKNOWN, STORAGE_SERVICE, STORAGE_NONE } storage_state;

/* A storage (Solid Protocol section 4.1), known by its description's URL: the one a document's answer
 * links to (rel solid#storageDescription; a pod on a server of many has its own), else its origin's
 * /.well-known/solid. Its description lists the subscription services. */
typedef struct storage {
    storage_state state;
    channel_kind kind; /* STORAGE_SERVICE: the type subscribed with */
    char *service;     /* STORAGE_SERVICE: where its subscriptions are posted */
    char *root;        /* what its description says is a pim:Storage (NULL: not read, or none said) */
    int64_t retry_at;
} storage;

struct notifications {
    http_client *http;
    rdfio *io;
    terms *t;
    const log_sink *log;
    ws_channels *ws;
    webhook_listener *webhooks; /* --webhook, or NULL */
    unsigned long received;     /* notifications taken in (notifications_received) */
    char **unsubscribe;         /* webhook channels to DELETE at the next flush */
    size_t unsubscribe_count, unsubscribe_cap;
    strmap index; /* document -> channel */
    channel *channels;
    size_t channel_cap;
    strmap storage_index; /* storage description URL -> storage */
    storage *storages;
    size_t storage_cap;
    uint32_t *slot_channel; /* socket slot (an id's low 32 bits) -> 1 + channel, 0: free */
    uint32_t slot_count, slot_cap;
    uint32_t *free_slots;
    size_t free_count;
    uint32_t generation;
    size_t live;
    int64_t now_ms;
    /* What is due is found without a walk over every channel (100,000 at rest cost nothing): the channels
     * to subscribe at the next flush, and heaps of retry and renewal times (rdf/due_heap.h: an entry whose
     * time is no longer the channel's is dropped when met). */
    u32vec wanted;
    due_heap retries;  /* CH_IDLE channels by retry_at */
    due_heap renewals; /* CH_LIVE channels by refresh_at (pushed again when an opening one goes live) */
};

static bool deliver(void *user, uint64_t id) {
    return ws_channels_deliver(user, id);
}

notifications *notifications_new(http_client *http, rdfio *io, terms *t, const log_sink *log, const char *webhook,
                                 char *error, size_t error_len) {
    ws_channels *ws = ws_channels_new(PING_SECS, error, error_len);
    if (!ws)
        return NULL;
    webhook_listener *webhooks = NULL;
    if (webhook && !(webhooks = webhook_listener_new(webhook, deliver, ws, error, error_len))) {
        ws_channels_free(ws);
        return NULL;
    }
    if (webhooks)
        log_msg(log, LOG_INFO, "notifications: webhooks are received at %s", webhook_listener_base(webhooks));
    notifications *n = xcalloc(1, sizeof *n);
    *n = (notifications){.http = http, .io = io, .t = t, .log = log, .ws = ws, .webhooks = webhooks};
    return n;
}

static void channels_free(notifications *n) {
    for (uint32_t i = 0; i < n->index.count; i++) {
        free(n->channels[i].etag);
        free(n->channels[i].id);
    }
    free(n->channels);
    strmap_free(&n->index);
}

static void want(notifications *n, channel *ch) {
    ch->state = CH_WANTED;
    u32vec_push(&n->wanted, (uint32_t)(ch - n->channels));
}

/* The wanted list and the heaps, made again from the channels (after retain renumbered them, or when stale
 * heap entries outnumber the channels). */
static void rebuild_due(notifications *n) {
    n->wanted.len = 0;
    due_heap_clear(&n->retries);
    due_heap_clear(&n->renewals);
    for (uint32_t c = 0; c < n->index.count; c++) {
        const channel *ch = &n->channels[c];
        if (ch->state == CH_WANTED)
            u32vec_push(&n->wanted, c);
        else if (ch->state == CH_IDLE && ch->retry_at != INT64_MAX)
            due_heap_push(&n->retries, ch->retry_at, c);
        else if (ch->state == CH_LIVE && ch->refresh_at != INT64_MAX)
            due_heap_push(&n->renewals, ch->refresh_at, c);
    }
}

static void schedule(notifications *n, due_heap *h, int64_t at, const channel *ch) {
    if (at == INT64_MAX)
        return;
    due_heap_push(h, at, (uint32_t)(ch - n->channels));
    if (n->retries.count + n->renewals.count > 2 * (size_t)n->index.count + 1024)
        rebuild_due(n);
}

static void unsubscribe_later(notifications *n, char *id) {
    if (n->unsubscribe_count == n->unsubscribe_cap) {
        n->unsubscribe_cap = n->unsubscribe_cap ? n->unsubscribe_cap * 2 : 64;
        n->unsubscribe = xrealloc(n->unsubscribe, n->unsubscribe_cap * sizeof *n->unsubscribe);
    }
    n->unsubscribe[n->unsubscribe_count++] = id;
}

/* DELETEs the webhook channels no longer wanted, one batch (a server that keeps them, refusing, would
 * only post to URLs that answer 404 until their end). */
static void unsubscribe(notifications *n) {
    size_t count = n->unsubscribe_count;
    if (!count)
        return;
    http_request *reqs = xcalloc(count, sizeof *reqs);
    http_result *results = xcalloc(count, sizeof *results);
    for (size_t i = 0; i < count; i++)
        reqs[i] = (http_request){.method = "DELETE", .url = n->unsubscribe[i], .send_when_stopping = true};
    http_run(n->http, reqs, count, results);
    size_t refused = 0, first = 0;
    for (size_t i = 0; i < count; i++) {
        const http_result *res = &results[i];
        if (res->failure != HTTP_FAIL_NONE || (res->status / 100 != 2 && res->status != 404))
            first = refused++ ? first : i;
        http_result_free(&results[i]);
    }
    if (count > refused)
        log_msg(n->log, LOG_INFO, "notifications: %zu channel%s unsubscribed", count - refused,
                count - refused == 1 ? "" : "s");
    if (refused)
        log_msg(n->log, LOG_INFO, "notifications: %zu unsubscription%s not taken, %s%s", refused,
                refused == 1 ? "" : "s", n->unsubscribe[first], refused == 1 ? "" : " and others");
    for (size_t i = 0; i < count; i++)
        free(n->unsubscribe[i]);
    n->unsubscribe_count = 0;
    free(results);
    free(reqs);
}

void notifications_free(notifications *n) {
    if (!n)
        return;
    /* webhook channels outlive the agent on the server's side: they go (sockets close by themselves) */
    for (uint32_t c = 0; c < n->index.count; c++)
        if (n->channels[c].state == CH_LIVE && n->channels[c].id)
            unsubscribe_later(n, xstrndup(n->channels[c].id, strlen(n->channels[c].id)));
    unsubscribe(n);
    free(n->unsubscribe);
    webhook_listener_free(n->webhooks); /* before ws_channels, into which it delivers */
    ws_channels_free(n->ws);
    channels_free(n);
    for (uint32_t i = 0; i < n->storage_index.count; i++) {
        free(n->storages[i].service);
        free(n->storages[i].root);
    }
    free(n->storages);
    strmap_free(&n->storage_index);
    free(n->slot_channel);
    free(n->free_slots);
    u32vec_free(&n->wanted);
    due_heap_free(&n->retries);
    due_heap_free(&n->renewals);
    free(n);
}

static uint64_t take_slot(notifications *n, uint32_t channel_index) {
    uint32_t slot;
    if (n->free_count)
        slot = n->free_slots[--n->free_count];
    else {
        if (n->slot_count == n->slot_cap) {
            n->slot_cap = n->slot_cap ? n->slot_cap * 2 : 64;
            n->slot_channel = xrealloc(n->slot_channel, n->slot_cap * sizeof *n->slot_channel);
            n->free_slots = xrealloc(n->free_slots, n->slot_cap * sizeof *n->free_slots);
        }
        slot = n->slot_count++;
    }
    n->slot_channel[slot] = channel_index + 1;
    return (uint64_t)++n->generation << 32 | slot;
}

static void give_slot(notifications *n, uint64_t socket) {
    uint32_t slot = (uint32_t)socket;
    n->slot_channel[slot] = 0;
    n->free_slots[n->free_count++] = slot;
}

/* The channel a socket event is about, or NULL when that socket is no longer the channel's. */
static channel *channel_of_socket(notifications *n, uint64_t socket) {
    uint32_t slot = (uint32_t)socket;
    if (slot >= n->slot_count || !n->slot_channel[slot])
        return NULL;
    channel *ch = &n->channels[n->slot_channel[slot] - 1];
    return (ch->state == CH_OPENING || ch->state == CH_LIVE) && ch->socket == socket ? ch : NULL;
}

static const char *resource_of(const notifications *n, const channel *ch) {
    return n->index.keys[ch - n->channels];
}

/* ch has no channel: one is wanted again after a pause that doubles with each failure in a row. */
static void retry_later(notifications *n, channel *ch) {
    ch->state = CH_IDLE;
    ch->changed = true;
    long pause = RETRY_FIRST_MS;
    for (unsigned i = 1; i < ch->failures && pause < RETRY_MAX_MS; i++)
        pause *= 2;
    ch->retry_at = n->now_ms + (pause < RETRY_MAX_MS ? pause : RETRY_MAX_MS);
    ch->failures++;
    schedule(n, &n->retries, ch->retry_at, ch);
}

/* Ends ch's channel: its socket closed (when close_socket: the owner's close reports nothing back), or its
 * webhook URL forgotten and the channel unsubscribed. */
static void end_channel(notifications *n, channel *ch, bool close_socket) {
    if (ch->state == CH_LIVE)
        n->live--;
    if (ch->kind == KIND_WEBHOOK) {
        webhook_listener_remove(n->webhooks, ch->socket);
        if (ch->id)
            unsubscribe_later(n, ch->id);
        ch->id = NULL;
    } else if (close_socket)
        ws_channels_close(n->ws, ch->socket);
    give_slot(n, ch->socket);
}

/* Ends ch's channel and retries. */
static void lose(notifications *n, channel *ch, bool close_socket) {
    end_channel(n, ch, close_socket);
    retry_later(n, ch);
}

unsigned long notifications_received(const notifications *n) {
    return n->received;
}

void notifications_take(notifications *n, int64_t now_ms, void (*unvouched)(void *user, const char *resource),
                        void *user) {
    n->now_ms = now_ms;
    ws_event *events;
    size_t count = ws_channels_take(n->ws, &events);
    for (size_t i = 0; i < count; i++) {
        channel *ch = channel_of_socket(n, events[i].id);
        if (!ch)
            continue; /* a socket closed since */
        switch (events[i].kind) {
        case WS_EVENT_OPEN:
            if (ch->state == CH_OPENING) {
                n->live++;
                schedule(n, &n->renewals, ch->refresh_at, ch);
            }
            ch->state = CH_LIVE;
            ch->changed = true; /* it vouches for reads made from now on */
            ch->failures = 0;
            break;
        case WS_EVENT_MESSAGE:
            ch->changed = true;
            n->received++;
            break;
        case WS_EVENT_CLOSED:
            log_msg(n->log, LOG_INFO, "notifications: the channel of %s closed (%s); it is read by GET meanwhile",
                    resource_of(n, ch), events[i].text ? events[i].text : "no reason given");
            lose(n, ch, false);
            break;
        }
        unvouched(user, resource_of(n, ch));
    }
    ws_events_free(events, count);
    for (const due_entry *e; (e = due_heap_top(&n->renewals)) && e->at <= now_ms;) {
        channel *ch = &n->channels[e->id];
        bool current = ch->state == CH_LIVE && ch->refresh_at == e->at;
        due_heap_pop(&n->renewals);
        if (!current)
            continue;
        lose(n, ch, true);
        ch->failures = 0;
        ch->retry_at = now_ms; /* its end is near: a new subscription at once */
        schedule(n, &n->retries, now_ms, ch);
        unvouched(user, resource_of(n, ch));
    }
}

bool notifications_vouches(const notifications *n, const char *resource, const char *etag) {
    const uint32_t *c = strmap_get(&n->index, resource);
    if (!c)
        return false;
    const channel *ch = &n->channels[*c];
    return ch->state == CH_LIVE && !ch->changed && (etag && ch->etag ? strcmp(etag, ch->etag) == 0 : etag == ch->etag);
}

bool notifications_watching(const notifications *n, const char *resource) {
    const uint32_t *c = strmap_get(&n->index, resource);
    return c && n->channels[*c].state == CH_LIVE && !n->channels[*c].changed;
}

static uint32_t storage_described_by(notifications *n, const char *description);

char *notifications_storage_root(const char *description, const char *iri, size_t len) {
    if (!len || iri[len - 1] != '/' || strncmp(description, iri, len) != 0)
        return NULL;
    char *root = xstrndup(iri, len);
    char *origin = http_url_origin(root);
    bool below_origin = origin && strlen(origin) < len;
    free(origin);
    if (below_origin)
        return root;
    free(root);
    return NULL;
}

/* True when both are http(s) URLs of one origin: a document's answer names the description of its own
 * storage, on its own server; one elsewhere is not followed (a stranger would choose what the agent GETs
 * and where it posts what it reads). */
static bool same_origin(const char *a, const char *b) {
    char *origin_a = http_url_origin(a), *origin_b = http_url_origin(b);
    bool same = origin_a && origin_b && strcmp(origin_a, origin_b) == 0;
    free(origin_a);
    free(origin_b);
    return same;
}

void notifications_read(notifications *n, const char *resource, const char *etag, const char *storage_description) {
    bool inserted;
    uint32_t *c = strmap_put(&n->index, resource, n->index.count, &inserted);
    if (inserted) {
        if (*c >= n->channel_cap) {
            n->channel_cap = n->channel_cap ? n->channel_cap * 2 : 64;
            n->channels = xrealloc(n->channels, n->channel_cap * sizeof *n->channels);
        }
        n->channels[*c] = (channel){.state = CH_IDLE, .changed = true, .retry_at = n->now_ms, .storage = UINT32_MAX};
    }
    channel *ch = &n->channels[*c];
    free(ch->etag);
    ch->etag = etag ? xstrndup(etag, strlen(etag)) : NULL;
    ch->has_read = true;
    ch->changed = false;
    uint32_t named = storage_description && same_origin(resource, storage_description)
                         ? storage_described_by(n, storage_description)
                         : ch->storage;
    /* a pause waited out for another storage (its origin's, before its answer named its own) is not this one's */
    bool moved = named != ch->storage && ch->state == CH_IDLE && ch->retry_at != INT64_MAX;
    ch->storage = named;
    if (ch->state == CH_IDLE && (ch->retry_at <= n->now_ms || moved))
        want(n, ch);
}

static void mark_changed(notifications *n, const char *resource, size_t len,
                         void (*unvouched)(void *user, const char *resource), void *user) {
    const uint32_t *c = strmap_get_n(&n->index, resource, len);
    if (!c)
        return;
    n->channels[*c].changed = true;
    unvouched(user, n->index.keys[*c]);
}

void notifications_wrote(notifications *n, const char *url, bool membership,
                         void (*unvouched)(void *user, const char *resource), void *user) {
    size_t len = strcspn(url, "#");
    mark_changed(n, url, len, unvouched, user);
    if (!membership)
        return;
    const char *authority = strstr(url, "://");
    const char *path = authority ? strchr(authority + 3, '/') : NULL;
    if (!path || (size_t)(path - url) >= len)
        return;
    size_t end = len - (url[len - 1] == '/'); /* a container's container is its parent */
    while (end > (size_t)(path - url) + 1 && url[end - 1] != '/')
        end--;
    if (url[end - 1] == '/' && end < len)
        mark_changed(n, url, end, unvouched, user);
}

/* Closes the channels of the documents keep() drops, and forgets them. */
static void retain(notifications *n, bool (*keep)(void *user, const char *resource), void *user) {
    size_t kept = 0;
    bool *keeps = xcalloc(n->index.count ? n->index.count : 1, sizeof *keeps);
    for (uint32_t c = 0; c < n->index.count; c++)
        kept += keeps[c] = keep(user, n->index.keys[c]);
    if (kept == n->index.count) {
        free(keeps);
        return;
    }
    strmap index = {0};
    channel *channels = xcalloc(kept ? kept : 1, sizeof *channels);
    for (uint32_t c = 0; c < n->index.count; c++) {
        channel *ch = &n->channels[c];
        if (!keeps[c]) {
            if (ch->state == CH_OPENING || ch->state == CH_LIVE)
                end_channel(n, ch, true);
            continue;
        }
        uint32_t to = index.count;
        strmap_put(&index, n->index.keys[c], to, NULL);
        channels[to] = *ch;
        ch->etag = ch->id = NULL;
        if (ch->state == CH_OPENING || ch->state == CH_LIVE)
            n->slot_channel[(uint32_t)ch->socket] = to + 1;
    }
    free(keeps);
    channels_free(n);
    n->index = index;
    n->channels = channels;
    n->channel_cap = kept ? kept : 1;
    rebuild_due(n);
}

static uint32_t storage_described_by(notifications *n, const char *description) {
    bool inserted;
    uint32_t *s = strmap_put(&n->storage_index, description, n->storage_index.count, &inserted);
    if (inserted) {
        if (*s >= n->storage_cap) {
            n->storage_cap = n->storage_cap ? n->storage_cap * 2 : 8;
            n->storages = xrealloc(n->storages, n->storage_cap * sizeof *n->storages);
        }
        n->storages[*s] = (storage){.state = STORAGE_UNKNOWN};
    }
    return *s;
}

/* The storage of a document whose answers named no storage description: the known one whose root holds it
 * (the longest), else its origin's (the Solid Protocol's well-known location); UINT32_MAX for what is not
 * an http(s) URL. */
static uint32_t place(notifications *n, const char *resource) {
    uint32_t best = UINT32_MAX;
    size_t best_len = 0;
    for (uint32_t s = 0; s < n->storage_index.count; s++) {
        const char *root = n->storages[s].root;
        size_t len = root ? strlen(root) : 0;
        if (len > best_len && strncmp(resource, root, len) == 0) {
            best = s;
            best_len = len;
        }
    }
    if (best != UINT32_MAX)
        return best;
    char *origin = http_url_origin(resource);
    if (!origin)
        return UINT32_MAX;
    buf description = {0};
    buf_printf(&description, "%s/.well-known/solid", origin);
    free(origin);
    uint32_t s = storage_described_by(n, description.data);
    buf_free(&description);
    return s;
}

/* The subscription service of the first kind from `from` on (KIND_WEBSOCKET: that one alone) that a
 * storage description lists, or NULL (caller frees); *kind says which. *root: a container it says is a
 * pim:Storage, or NULL (caller frees). */
static char *read_description(notifications *n, const http_result *res, const char *url, channel_kind from,
                              channel_kind *kind, char **root) {
    *root = NULL;
    const char *base = res->final_url ? res->final_url : url;
    enum rdf_syntax syntax = rdf_syntax_from_media_type(res->content_type);
    triple *ts = NULL;
    size_t count = 0;
    rdf_error err;
    if (rdf_parse_triples(n->io, syntax, res->body.data ? res->body.data : "", res->body.len, base, url, &ts, &count,
                          &err) != 0) {
        log_msg(n->log, LOG_WARN, "notifications: the storage description %s does not parse: %s", url, err.message);
        return NULL;
    }
    terms *t = n->t;
    term_id subscription = terms_iri_cstr(t, NOTIFY_NS "subscription"),
            channel_type = terms_iri_cstr(t, NOTIFY_NS "channelType"), type = terms_iri_cstr(t, RDF_type),
            storage_class = terms_iri_cstr(t, NS_PIM "Storage");
    for (size_t i = 0; i < count && !*root; i++) {
        size_t len;
        const char *iri = ts[i].p == type && ts[i].o == storage_class && terms_kind(t, ts[i].s) == TERM_IRI
                              ? terms_lex(t, ts[i].s, &len)
                              : NULL;
        if (iri)
            *root = notifications_storage_root(url, iri, len);
    }
    char *found = NULL;
    for (channel_kind k = from; k < KIND_COUNT && !found; k++) {
        buf type = {0};
        buf_printf(&type, NOTIFY_NS "%s", kind_names[k]);
        term_id wanted = terms_iri_cstr(t, type.data);
        buf_free(&type);
        /* the services of that type first, then the first one listed: linear in a stranger's description */
        u64map of_type = {0};
        for (size_t j = 0; j < count; j++)
            if (ts[j].p == channel_type && ts[j].o == wanted)
                u64map_put(&of_type, ts[j].s, 1, NULL);
        for (size_t i = 0; i < count && !found; i++)
            if (ts[i].p == subscription && u64map_get(&of_type, ts[i].o)) {
                size_t len;
                const char *iri = terms_lex(t, ts[i].o, &len);
                found = xstrndup(iri, len);
                *kind = k;
            }
        u64map_free(&of_type);
    }
    free(ts);
    return found;
}

/* A storage's root is known now: the documents under it whose answers named no storage, and whose channels
 * wait out the pause of a storage that offered none (their origin's, placed before this root was known),
 * are subscribed to at once. A walk over every channel, once per storage learned. */
static void want_again_under(notifications *n, const char *root) {
    size_t len = strlen(root);
    for (uint32_t c = 0; c < n->index.count; c++) {
        channel *ch = &n->channels[c];
        if (ch->state == CH_IDLE && ch->storage == UINT32_MAX && ch->has_read && ch->retry_at > n->now_ms &&
            ch->retry_at != INT64_MAX && strncmp(n->index.keys[c], root, len) == 0) {
            ch->retry_at = n->now_ms;
            schedule(n, &n->retries, ch->retry_at, ch); /* due at once: notifications_next_due says so */
        }
    }
}

/* Reads the description of every storage of a wanted channel not known yet for its subscription service,
 * in one batch. */
static void discover(notifications *n) {
    uint32_t *asked = xcalloc(n->storage_index.count ? n->storage_index.count : 1, sizeof *asked);
    size_t count = 0;
    for (uint32_t s = 0; s < n->storage_index.count; s++) {
        const storage *st = &n->storages[s];
        if (st->state == STORAGE_UNKNOWN || (st->state == STORAGE_NONE && st->retry_at <= n->now_ms))
            asked[count++] = s;
    }
    if (!count) {
        free(asked);
        return;
    }
    http_request *reqs = xcalloc(count, sizeof *reqs);
    http_result *results = xcalloc(count, sizeof *results);
    http_header accept = {"Accept", rdf_accept_header()};
    for (size_t i = 0; i < count; i++)
        reqs[i] = (http_request){.method = "GET", .url = n->storage_index.keys[asked[i]], .headers = &accept,
                                 .header_count = 1};
    http_run(n->http, reqs, count, results);
    for (size_t i = 0; i < count; i++) {
        storage *st = &n->storages[asked[i]];
        const char *description = n->storage_index.keys[asked[i]];
        const http_result *res = &results[i];
        channel_kind from = n->webhooks ? KIND_WEBHOOK : KIND_WEBSOCKET, kind = from;
        char *root = NULL;
        char *service = res->failure == HTTP_FAIL_NONE && res->status / 100 == 2
                            ? read_description(n, res, description, from, &kind, &root)
                            : NULL;
        free(st->service);
        st->service = service;
        bool new_root = root && !st->root;
        free(st->root);
        st->root = root;
        if (new_root)
            want_again_under(n, root);
        st->kind = kind;
        st->state = service ? STORAGE_SERVICE : STORAGE_NONE;
        st->retry_at = n->now_ms + REDISCOVER_MS;
        char why[64] = "";
        if (res->failure != HTTP_FAIL_NONE)
            snprintf(why, sizeof why, " (its description: %s)", http_failure_name(res->failure));
        else if (res->status / 100 != 2)
            snprintf(why, sizeof why, " (its description answered %ld)", res->status);
        if (service)
            log_msg(n->log, LOG_INFO, "notifications: the storage described at %s offers %s at %s", description,
                    kind_names[kind], service);
        else
            log_msg(n->log, LOG_INFO, "notifications: the storage described at %s offers no %s%s; its documents are "
                    "read by GET", description,
                    n->webhooks ? "WebhookChannel2023 nor WebSocketChannel2023" : "WebSocketChannel2023", why);
        http_result_free(&results[i]);
    }
    free(results);
    free(reqs);
    free(asked);
}

/* send_to: a webhook channel's URL on the listener (NULL: a WebSocket channel). */
static char *subscription_body(const char *topic, const char *etag, const char *send_to) {
    json_t *body = json_object();
    json_object_set_new(body, "@context", json_pack("[s]", "https://www.w3.org/ns/solid/notification/v1"));
    json_object_set_new(body, "type",
                        json_string(send_to ? NOTIFY_NS "WebhookChannel2023" : NOTIFY_NS "WebSocketChannel2023"));
    json_object_set_new(body, "topic", json_string(topic));
    if (etag)
        json_object_set_new(body, "state", json_string(etag));
    if (send_to)
        json_object_set_new(body, "sendTo", json_string(send_to));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    return text;
}

/* Takes a subscription's answer: a WebSocket channel opens its socket, a webhook channel is live (NULL);
 * or the channel is retried after a pause (what went wrong). */
static const char *take_subscription(notifications *n, channel *ch, const http_result *res) {
    json_error_t jerr;
    json_t *doc = res->failure == HTTP_FAIL_NONE && res->status / 100 == 2
                      ? json_loadb(res->body.data ? res->body.data : "", res->body.len, 0, &jerr)
                      : NULL;
    bool webhook = ch->kind == KIND_WEBHOOK;
    const char *receive_from = json_string_value(json_object_get(doc, "receiveFrom"));
    if (webhook ? !json_is_object(doc) : !receive_from) {
        json_decref(doc);
        if (webhook) {
            webhook_listener_remove(n->webhooks, ch->socket);
            give_slot(n, ch->socket);
        }
        retry_later(n, ch);
        return res->failure != HTTP_FAIL_NONE ? http_failure_name(res->failure)
               : res->status == 429          ? "429: the server holds as many channels as it allows"
               : res->status / 100 != 2      ? "an error status"
               : !doc                        ? "the answer is not JSON"
               : webhook                     ? "the answer is not a JSON object"
                                             : "the answer has no receiveFrom";
    }
    ch->refresh_at = INT64_MAX;
    if (webhook) {
        /* live from the server's 200: a change made since the read is posted at once, the server comparing
         * the subscription's state with the document's (docs/DESIGN.md §1.5) */
        const char *id = json_string_value(json_object_get(doc, "id"));
        ch->id = id ? xstrndup(id, strlen(id)) : NULL;
        ch->state = CH_LIVE;
        ch->failures = 0;
        n->live++;
    } else {
        ch->socket = take_slot(n, (uint32_t)(ch - n->channels));
        ch->state = CH_OPENING;
    }
    const char *end = json_string_value(json_object_get(doc, "endAt"));
    xsd_time at;
    if (end && xsd_datetime_parse(end, strlen(end), &at) && at.kind == XSD_DATETIME) {
        int64_t before = (at.ms - n->now_ms) / 10;
        ch->refresh_at = at.ms - (before < REFRESH_BEFORE_END_MS ? before : REFRESH_BEFORE_END_MS);
        if (webhook)
            schedule(n, &n->renewals, ch->refresh_at, ch); /* a socket's, once it is open */
    }
    if (!webhook)
        ws_channels_open(n->ws, ch->socket, receive_from);
    json_decref(doc);
    return NULL;
}

static void say_failed(notifications *n, size_t count, uint32_t first, const char *why) {
    if (count)
        log_msg(n->log, LOG_WARN, "notifications: %zu subscription%s failed (%s), %s%s; read by GET meanwhile", count,
                count == 1 ? "" : "s", why, n->index.keys[first], count == 1 ? "" : " and others");
}

void notifications_flush(notifications *n, int64_t now_ms, bool (*keep)(void *user, const char *resource), void *user) {
    n->now_ms = now_ms;
    if (keep)
        retain(n, keep, user);
    unsubscribe(n);
    for (const due_entry *e; (e = due_heap_top(&n->retries)) && e->at <= now_ms;) {
        channel *ch = &n->channels[e->id];
        bool current = ch->state == CH_IDLE && ch->retry_at == e->at;
        due_heap_pop(&n->retries);
        if (current && ch->has_read)
            want(n, ch); /* one not read yet is wanted when it is (notifications_read) */
    }
    uint32_t *wanted = NULL;
    size_t count = 0, cap = 0;
    bool unknown = false;
    for (uint32_t w = 0; w < n->wanted.len; w++) {
        uint32_t c = n->wanted.data[w];
        channel *ch = &n->channels[c];
        if (ch->state != CH_WANTED)
            continue;
        unknown |= ch->storage != UINT32_MAX && n->storages[ch->storage].state != STORAGE_SERVICE;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            wanted = xrealloc(wanted, cap * sizeof *wanted);
        }
        wanted[count++] = c;
    }
    n->wanted.len = 0;
    /* the storages the documents' answers named first: their roots then place the documents whose answers
     * named none (an absent document's, on Community Solid Server) */
    if (unknown)
        discover(n);
    uint32_t *where = xcalloc(count ? count : 1, sizeof *where);
    unknown = false;
    for (size_t i = 0; i < count; i++) {
        const channel *ch = &n->channels[wanted[i]];
        where[i] = ch->storage != UINT32_MAX ? ch->storage : place(n, n->index.keys[wanted[i]]);
        unknown |= where[i] != UINT32_MAX && n->storages[where[i]].state != STORAGE_SERVICE;
    }
    if (unknown)
        discover(n);
    http_request *reqs = xcalloc(count ? count : 1, sizeof *reqs);
    http_result *results = xcalloc(count ? count : 1, sizeof *results);
    char **bodies = xcalloc(count ? count : 1, sizeof *bodies);
    uint32_t *sent = xcalloc(count ? count : 1, sizeof *sent);
    static const http_header headers[] = {{"Content-Type", "application/ld+json"}, {"Accept", "application/ld+json"}};
    size_t send_count = 0;
    for (size_t i = 0; i < count; i++) {
        channel *ch = &n->channels[wanted[i]];
        if (where[i] == UINT32_MAX) {
            ch->state = CH_IDLE;
            ch->retry_at = INT64_MAX; /* not an http(s) document */
            continue;
        }
        const storage *st = &n->storages[where[i]];
        if (st->state != STORAGE_SERVICE) {
            ch->state = CH_IDLE;
            ch->retry_at = st->retry_at;
            schedule(n, &n->retries, ch->retry_at, ch);
            continue;
        }
        char *send_to = NULL;
        ch->kind = st->kind;
        if (ch->kind == KIND_WEBHOOK) { /* its URL, in the subscription, is registered first */
            ch->socket = take_slot(n, wanted[i]);
            if (!(send_to = webhook_listener_add(n->webhooks, ch->socket))) {
                give_slot(n, ch->socket);
                retry_later(n, ch);
                continue;
            }
        }
        bodies[send_count] = subscription_body(n->index.keys[wanted[i]], ch->etag, send_to);
        free(send_to);
        reqs[send_count] = (http_request){.method = "POST", .url = st->service, .headers = headers, .header_count = 2,
                                          .body = bodies[send_count], .body_len = strlen(bodies[send_count])};
        sent[send_count++] = wanted[i];
    }
    if (send_count)
        http_run(n->http, reqs, send_count, results);
    /* failures are said once per flush and kind (a server at its channel limit refuses many at once) */
    const char *failed_why = NULL;
    size_t failed = 0, failed_first = 0;
    for (size_t i = 0; i < send_count; i++) {
        const char *why = take_subscription(n, &n->channels[sent[i]], &results[i]);
        if (why && (!failed_why || strcmp(why, failed_why) != 0)) {
            say_failed(n, failed, sent[failed_first], failed_why);
            failed_why = why;
            failed = 0;
            failed_first = i;
        }
        failed += why != NULL;
        http_result_free(&results[i]);
        free(bodies[i]);
    }
    say_failed(n, failed, sent[failed_first], failed_why);
    free(sent);
    free(bodies);
    free(results);
    free(reqs);
    free(where);
    free(wanted);
}

int64_t notifications_next_due(notifications *n) {
    int64_t next = INT64_MAX;
    for (const due_entry *e; (e = due_heap_top(&n->retries)); due_heap_pop(&n->retries)) {
        const channel *ch = &n->channels[e->id];
        if (ch->state == CH_IDLE && ch->has_read && ch->retry_at == e->at) {
            next = e->at;
            break;
        }
    }
    for (const due_entry *e; (e = due_heap_top(&n->renewals)); due_heap_pop(&n->renewals)) {
        const channel *ch = &n->channels[e->id];
        if (ch->state == CH_LIVE && ch->refresh_at == e->at) {
            next = e->at < next ? e->at : next;
            break;
        }
    }
    return next;
}

size_t notifications_live(const notifications *n) {
    return n->live;
}

bool notifications_wait(notifications *n, long timeout_ms, long settle_ms, const volatile sig_atomic_t *stop) {
    if (!ws_channels_wait(n->ws, timeout_ms, stop))
        return false;
    while (settle_ms > 0 && !(stop && *stop)) {
        long slice = settle_ms < 50 ? settle_ms : 50;
        struct timespec ts = {slice / 1000, (slice % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        settle_ms -= slice;
    }
    return true;
}
