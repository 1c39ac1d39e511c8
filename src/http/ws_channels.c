/* ws_channels.c: receive-only WebSocket connections on libwebsockets, in one background thread
 * (ws_channels.h).
 *
 * The owner's calls only queue commands and wake the thread (lws_cancel_service, the one libwebsockets
 * call that is safe from another thread); the thread carries them out in its
 * LWS_CALLBACK_EVENT_WAIT_CANCELLED and queues events back under the same lock. At most
 * WS_CHANNELS_MAX_OPENING connections are being opened at a time, the others wait their turn in order: ten
 * thousand connects at once overflowed a server's listen queue (7,413 of 10,011 failed "Unable to
 * connect"), and the channels whose sockets came late had been dropped by the server meanwhile. */
#include "http/ws_channels.h"

#include <curl/curl.h>
#include <libwebsockets.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "rdf/buf.h"

typedef struct command {
    bool open; /* else close */
    uint64_t id;
    char *url;
} command;

/* One connection, owned by the socket thread from its open command to its last callback. */
typedef struct conn {
    ws_channels *ws;
    uint64_t id;
    struct lws *wsi;
    buf message;    /* the fragments of the message being received */
    char *url;       /* while it waits for its turn to be opened */
    bool connecting; /* inside lws_client_connect_via_info, whose failure may call back before it returns */
    bool opening;    /* counted in ws->opening: started, neither open nor ended yet */
    bool ended;      /* its closed event is reported (or silenced by the owner) */
    bool silenced;   /* the owner closed it: report nothing more */
} conn;

struct ws_channels {
    struct lws_context *context;
    lws_retry_bo_t idle_policy;
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t lock; /* commands, events, stopping */
    pthread_cond_t arrived;
    command *commands;
    size_t command_count, command_cap;
    ws_event *events;
    size_t event_count, event_cap;
    bool stopping;
    /* the socket thread's alone: connections by the id's low 32 bits; those waiting to be opened, in order */
    conn **by_slot;
    size_t slot_cap;
    conn **waiting;
    size_t waiting_head, waiting_count, waiting_cap;
    size_t opening;
    bool pumping;
};

static uint32_t slot_of(uint64_t id) {
    return (uint32_t)id;
}

/* Queues an event for the owner; text (copied) may be NULL. Called with the lock not held. */
static void report(ws_channels *ws, ws_event_kind kind, uint64_t id, const char *text, size_t len) {
    pthread_mutex_lock(&ws->lock);
    if (ws->event_count == ws->event_cap) {
        ws->event_cap = ws->event_cap ? ws->event_cap * 2 : 64;
        ws->events = xrealloc(ws->events, ws->event_cap * sizeof *ws->events);
    }
    ws->events[ws->event_count++] =
        (ws_event){.kind = kind, .id = id, .text = text ? xstrndup(text, len) : NULL, .text_len = text ? len : 0};
    pthread_cond_signal(&ws->arrived);
    pthread_mutex_unlock(&ws->lock);
}

static size_t queued_events(ws_channels *ws) {
    pthread_mutex_lock(&ws->lock);
    size_t n = ws->event_count;
    pthread_mutex_unlock(&ws->lock);
    return n;
}

static void conn_free(conn *c) {
    buf_free(&c->message);
    free(c->url);
    free(c);
}

/* c is no longer being opened: open, or ended. */
static void opened(conn *c) {
    if (c->opening) {
        c->opening = false;
        c->ws->opening--;
    }
}

/* The connection's end, whichever callback brings it first: one closed event (unless silenced), its slot
 * emptied, and the record freed unless the connect call that made it has not returned yet. */
static void conn_end(conn *c, const char *why) {
    if (c->ended)
        return;
    c->ended = true;
    opened(c);
    ws_channels *ws = c->ws;
    if (!c->silenced) {
        report(ws, WS_EVENT_CLOSED, c->id, why, strlen(why));
        if (slot_of(c->id) < ws->slot_cap && ws->by_slot[slot_of(c->id)] == c)
            ws->by_slot[slot_of(c->id)] = NULL;
    }
    if (c->wsi)
        lws_set_opaque_user_data(c->wsi, NULL);
    if (!c->connecting)
        conn_free(c);
}

/* Splits a ws:// or wss:// URL with libcurl's URL parser; false when it is not one. */
static bool split_url(const char *url, bool *tls, char **host, int *port, char **path) {
    CURLU *u = curl_url();
    char *scheme = NULL, *port_text = NULL, *p = NULL, *query = NULL;
    bool ok = u && curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
              curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
              (strcasecmp(scheme, "ws") == 0 || strcasecmp(scheme, "wss") == 0) &&
              curl_url_get(u, CURLUPART_HOST, host, 0) == CURLUE_OK &&
              curl_url_get(u, CURLUPART_PATH, &p, 0) == CURLUE_OK;
    if (ok) {
        *tls = strcasecmp(scheme, "wss") == 0;
        *port = *tls ? 443 : 80;
        if (curl_url_get(u, CURLUPART_PORT, &port_text, 0) == CURLUE_OK)
            *port = atoi(port_text);
        buf whole = {0};
        buf_printf(&whole, "%s", p);
        if (curl_url_get(u, CURLUPART_QUERY, &query, 0) == CURLUE_OK)
            buf_printf(&whole, "?%s", query);
        *path = xstrndup(whole.data, whole.len);
        buf_free(&whole);
    }
    curl_free(scheme);
    curl_free(port_text);
    curl_free(p);
    curl_free(query);
    curl_url_cleanup(u);
    return ok;
}

static void start_connection(ws_channels *ws, conn *c) {
    bool tls;
    char *host = NULL, *path = NULL;
    int port;
    bool parsed = split_url(c->url, &tls, &host, &port, &path);
    free(c->url);
    c->url = NULL;
    if (!parsed) {
        conn_end(c, "not a ws:// or wss:// URL");
        return;
    }
    c->opening = true;
    ws->opening++;
    struct lws_client_connect_info info = {
        .context = ws->context,
        .address = host,
        .port = port,
        .ssl_connection = tls ? LCCSCF_USE_SSL : 0,
        .path = path,
        .host = host,
        .origin = host,
        .protocol = NULL,
        .ietf_version_or_minus_one = -1,
        .local_protocol_name = "ldgsm-notifications",
        .opaque_user_data = c,
        .retry_and_idle_policy = &ws->idle_policy,
        .pwsi = &c->wsi,
    };
    c->connecting = true;
    struct lws *wsi = lws_client_connect_via_info(&info);
    c->connecting = false;
    curl_free(host);
    free(path);
    if (!wsi)
        conn_end(c, "the connection could not be started");
    else if (c->ended)
        conn_free(c); /* it failed inside the call, which reported it */
}

/* Opens the connections waiting their turn while fewer than WS_CHANNELS_MAX_OPENING are being opened
 * (not again from within: a connection that fails inside its connect call ends here). */
static void open_waiting(ws_channels *ws) {
    if (ws->pumping)
        return;
    ws->pumping = true;
    while (ws->opening < WS_CHANNELS_MAX_OPENING && ws->waiting_count) {
        conn *c = ws->waiting[ws->waiting_head];
        ws->waiting_head = (ws->waiting_head + 1) % ws->waiting_cap;
        ws->waiting_count--;
        if (c->silenced)
            conn_free(c); /* closed by the owner before its turn */
        else
            start_connection(ws, c);
    }
    ws->pumping = false;
}

/* A connection to url (taken) under id, opened in its turn. */
static void queue_connection(ws_channels *ws, uint64_t id, char *url) {
    uint32_t slot = slot_of(id);
    ws->by_slot = xgrow_zeroed(ws->by_slot, &ws->slot_cap, slot, sizeof *ws->by_slot);
    conn *c = xcalloc(1, sizeof *c);
    *c = (conn){.ws = ws, .id = id, .url = url};
    ws->by_slot[slot] = c;
    if (ws->waiting_count == ws->waiting_cap) { /* a ring: grown by unrolling it */
        size_t cap = ws->waiting_cap ? ws->waiting_cap * 2 : 64;
        conn **ring = xmalloc(cap * sizeof *ring);
        for (size_t i = 0; i < ws->waiting_count; i++)
            ring[i] = ws->waiting[(ws->waiting_head + i) % ws->waiting_cap];
        free(ws->waiting);
        ws->waiting = ring;
        ws->waiting_cap = cap;
        ws->waiting_head = 0;
    }
    ws->waiting[(ws->waiting_head + ws->waiting_count++) % ws->waiting_cap] = c;
}

static void stop_connection(ws_channels *ws, uint64_t id) {
    uint32_t slot = slot_of(id);
    conn *c = slot < ws->slot_cap ? ws->by_slot[slot] : NULL;
    if (!c || c->id != id)
        return;
    ws->by_slot[slot] = NULL;
    c->silenced = true; /* one still waiting is freed when its turn comes */
    if (c->wsi)
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static void run_commands(ws_channels *ws) {
    pthread_mutex_lock(&ws->lock);
    command *cmds = ws->commands;
    size_t n = ws->command_count;
    ws->commands = NULL;
    ws->command_count = ws->command_cap = 0;
    pthread_mutex_unlock(&ws->lock);
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].open)
            queue_connection(ws, cmds[i].id, cmds[i].url);
        else
            stop_connection(ws, cmds[i].id);
    }
    free(cmds);
}

static int on_socket(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    (void)user;
    ws_channels *ws = lws_context_user(lws_get_context(wsi));
    conn *c = lws_get_opaque_user_data(wsi);
    switch (reason) {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        run_commands(ws);
        break;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (c)
            opened(c);
        if (c && !c->silenced)
            report(ws, WS_EVENT_OPEN, c->id, NULL, 0);
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (!c || c->silenced)
            return 0;
        if (lws_frame_is_binary(wsi))
            return 0; /* the channel's messages are text; anything else is ignored */
        if (c->message.len + len > WS_CHANNELS_MAX_MESSAGE) {
            conn_end(c, "a message larger than the limit");
            return -1;
        }
        buf_append(&c->message, in, len);
        if (!lws_is_final_fragment(wsi))
            return 0;
        if (queued_events(ws) >= WS_CHANNELS_MAX_QUEUED) {
            conn_end(c, "its messages were not taken in time");
            return -1;
        }
        report(ws, WS_EVENT_MESSAGE, c->id, c->message.data ? c->message.data : "", c->message.len);
        c->message.len = 0;
        return 0;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR: {
        char why[200];
        snprintf(why, sizeof why, "the connection failed: %.*s", in ? (int)strnlen(in, 150) : 7,
                 in ? (const char *)in : "unknown");
        if (c)
            conn_end(c, why);
        break;
    }
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (c)
            conn_end(c, "the server closed the connection");
        break;
    case LWS_CALLBACK_WSI_DESTROY:
        if (c)
            conn_end(c, "the connection ended");
        break;
    default:
        return 0;
    }
    open_waiting(ws); /* a turn may have come free */
    return 0;
}

static const struct lws_protocols protocols[] = {
    {.name = "ldgsm-notifications", .callback = on_socket, .rx_buffer_size = 4096},
    {0},
};

static void *serve_sockets(void *arg) {
    ws_channels *ws = arg;
    for (;;) {
        pthread_mutex_lock(&ws->lock);
        bool stopping = ws->stopping;
        pthread_mutex_unlock(&ws->lock);
        if (stopping)
            break;
        lws_service(ws->context, 0);
    }
    return NULL;
}

ws_channels *ws_channels_new(unsigned ping_secs, char *error, size_t error_len) {
    ws_channels *ws = xcalloc(1, sizeof *ws);
    ws->idle_policy = (lws_retry_bo_t){.secs_since_valid_ping = (uint16_t)ping_secs,
                                        .secs_since_valid_hangup = (uint16_t)(2 * ping_secs)};
    pthread_mutex_init(&ws->lock, NULL);
    pthread_cond_init(&ws->arrived, NULL);
    lws_set_log_level(LLL_ERR, NULL); /* its notices would go to stderr beside the agent's log */
    struct lws_context_creation_info info = {
        .port = CONTEXT_PORT_NO_LISTEN,
        .protocols = protocols,
        .options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT,
        .user = ws,
        .retry_and_idle_policy = &ws->idle_policy,
        .fd_limit_per_thread = 0,
    };
    ws->context = lws_create_context(&info);
    if (!ws->context) {
        snprintf(error, error_len, "libwebsockets could not start");
        ws_channels_free(ws);
        return NULL;
    }
    int rc = pthread_create(&ws->thread, NULL, serve_sockets, ws);
    if (rc != 0) {
        snprintf(error, error_len, "the notifications thread could not start: %s", strerror(rc));
        ws_channels_free(ws);
        return NULL;
    }
    ws->thread_started = true;
    return ws;
}

void ws_channels_free(ws_channels *ws) {
    if (!ws)
        return;
    if (ws->thread_started) {
        pthread_mutex_lock(&ws->lock);
        ws->stopping = true;
        pthread_mutex_unlock(&ws->lock);
        lws_cancel_service(ws->context);
        pthread_join(ws->thread, NULL);
    }
    for (size_t i = 0; i < ws->slot_cap; i++)
        if (ws->by_slot[i])
            ws->by_slot[i]->silenced = true;
    /* those never started have no callback to come; gone first, so that no turn freed by the ends below
     * starts one */
    for (size_t i = 0; i < ws->waiting_count; i++)
        conn_free(ws->waiting[(ws->waiting_head + i) % ws->waiting_cap]);
    ws->waiting_count = 0;
    if (ws->context)
        lws_context_destroy(ws->context); /* ends the connections, whose last callbacks free them */
    free(ws->waiting);
    for (size_t i = 0; i < ws->command_count; i++)
        free(ws->commands[i].url);
    free(ws->commands);
    ws_events_free(ws->events, ws->event_count);
    free(ws->by_slot);
    pthread_cond_destroy(&ws->arrived);
    pthread_mutex_destroy(&ws->lock);
    free(ws);
}

static void queue_command(ws_channels *ws, bool open, uint64_t id, const char *url) {
    pthread_mutex_lock(&ws->lock);
    if (ws->command_count == ws->command_cap) {
        ws->command_cap = ws->command_cap ? ws->command_cap * 2 : 64;
        ws->commands = xrealloc(ws->commands, ws->command_cap * sizeof *ws->commands);
    }
    ws->commands[ws->command_count++] = (command){.open = open, .id = id, .url = url ? xstrndup(url, strlen(url)) : NULL};
    pthread_mutex_unlock(&ws->lock);
    lws_cancel_service(ws->context);
}

void ws_channels_open(ws_channels *ws, uint64_t id, const char *url) {
    queue_command(ws, true, id, url);
}

void ws_channels_close(ws_channels *ws, uint64_t id) {
    queue_command(ws, false, id, NULL);
}

bool ws_channels_deliver(ws_channels *ws, uint64_t id) {
    if (queued_events(ws) >= WS_CHANNELS_MAX_QUEUED)
        return false;
    report(ws, WS_EVENT_MESSAGE, id, NULL, 0);
    return true;
}

size_t ws_channels_take(ws_channels *ws, ws_event **events) {
    pthread_mutex_lock(&ws->lock);
    *events = ws->events;
    size_t n = ws->event_count;
    ws->events = NULL;
    ws->event_count = ws->event_cap = 0;
    pthread_mutex_unlock(&ws->lock);
    return n;
}

void ws_events_free(ws_event *events, size_t count) {
    for (size_t i = 0; i < count; i++)
        free(events[i].text);
    free(events);
}

bool ws_channels_wait(ws_channels *ws, long timeout_ms, const volatile sig_atomic_t *stop) {
    struct timespec now, deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
    deadline.tv_sec += deadline.tv_nsec / 1000000000L;
    deadline.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&ws->lock);
    while (ws->event_count == 0 && !(stop && *stop)) {
        clock_gettime(CLOCK_REALTIME, &now);
        if (now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
            break;
        struct timespec slice = now; /* a stop signal is seen within 50 ms */
        slice.tv_nsec += 50 * 1000000L;
        slice.tv_sec += slice.tv_nsec / 1000000000L;
        slice.tv_nsec %= 1000000000L;
        bool later = slice.tv_sec > deadline.tv_sec || (slice.tv_sec == deadline.tv_sec && slice.tv_nsec > deadline.tv_nsec);
        pthread_cond_timedwait(&ws->arrived, &ws->lock, later ? &deadline : &slice);
    }
    bool waiting = ws->event_count > 0;
    pthread_mutex_unlock(&ws->lock);
    return waiting;
}
