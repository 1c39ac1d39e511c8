/* ldp_notify.h: Solid Notifications for the LDP server, as Community Solid Server 7.2 speaks them: the
 * WebSocketChannel2023 subscription service (channels, their bounds and lifetimes) and the activities a
 * write sends on them. The sockets themselves are ldp_websocket.h's; the HTTP requests reach this module
 * through ldp_server.
 *
 * NOTES ON THE DESIGN
 *  1. Discovery, as CSS: the storage description names the service (<root> notify:subscription
 *     <BASE/.notifications/WebSocketChannel2023/>, which is notify:channelType notify:WebSocketChannel2023
 *     with its notify:features), and a GET of the service answers the same as JSON-LD. (CSS's
 *     StreamingHTTPChannel2023, linked from each resource's answers rather than described, is not offered.)
 *  2. A subscription is a POST of JSON-LD (the notification context, type, topic; optionally state, endAt,
 *     startAt, rate) to the service; it needs no token, since reads need none, and its topic need not
 *     exist yet. 200 with the channel (id, type, topic, the features, receiveFrom, endAt); 415 for another
 *     media type, 413 for a body over LDP_NOTIFY_MAX_REQUEST bytes, 422 for a body that is not such a
 *     request (why in the body), 429 when a bound of note 5 is reached.
 *  3. A channel is BASE/.notifications/WebSocketChannel2023/UUID and its socket connects to
 *     WS/.notifications/WebSocketChannel2023/UUID (WS: the listener's ws://host:port), the UUID 122 random
 *     bits: knowing it is what lets one listen, and unsubscribe (DELETE of the id: 205, then 404).
 *  4. No change is lost for a connected socket. A write's changes (ldp_store.h note 7) are queued, in
 *     write order, on every connected channel of their topic; a socket connects under the same lock
 *     that queues them, and then, if the subscription gave a state and the topic's state differs (the
 *     ETag of none of its media types, or the topic is absent), an Update (or Delete) with the current
 *     state is queued first. A write between the connection and the state check is then told twice, never
 *     missed. A change while no socket is connected is not kept (as CSS): the state feature covers it.
 *  5. Bounds, so that strangers cannot exhaust the server: channels in all and per client address (a
 *     socket each), a lifetime (a later endAt is cut to it), a channel without its socket for
 *     connect_timeout seconds (never connected, or closed and not reconnected) is freed, one socket per
 *     channel, a socket's unsent notifications at most LDP_NOTIFY_MAX_QUEUED bytes (past it the socket is
 *     closed and the channel freed: its subscriber subscribes again with its state), what a client sends on
 *     a socket is ignored, a message over LDP_NOTIFY_MAX_CLIENT_MESSAGE bytes closes it.
 *  6. Threads: request threads (subscriptions, and the store's writers through ldp_notify_changed) and the
 *     WebSocket thread share one mutex. Only the WebSocket thread touches sockets; others queue and call the
 *     wake function. A channel that has a socket is freed by the WebSocket thread only, after its socket
 *     closed.
 *
 * Activities are CSS's JSON-LD: {"@context":["https://www.w3.org/ns/activitystreams",
 * "https://www.w3.org/ns/solid/notification/v1"],"id":"urn:MILLISECONDS:TOPIC","type":"Update",
 * "object":TOPIC,"state":ETAG,"published":DATETIME}; Add and Remove have the member as object and the
 * container as target; Delete has no state. STATE is the Turtle ETag as the ETag header gives it, quotes
 * included. */
#ifndef LDGSM_LDP_NOTIFY_H
#define LDGSM_LDP_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "ldp/ldp_store.h"
#include "rdf/buf.h"
#include "rdf/log.h"

#define LDP_NOTIFY_PATH "/.notifications/"
#define LDP_NOTIFY_WS_PATH LDP_NOTIFY_PATH "WebSocketChannel2023/"
#define LDP_NOTIFY_NS "http://www.w3.org/ns/solid/notifications#"

enum {
    LDP_NOTIFY_DEFAULT_MAX_CHANNELS = 1000,
    LDP_NOTIFY_DEFAULT_MAX_CHANNELS_PER_CLIENT = 250,
    LDP_NOTIFY_DEFAULT_LIFETIME = 3600,
    LDP_NOTIFY_DEFAULT_CONNECT_TIMEOUT = 30,
    LDP_NOTIFY_MAX_REQUEST = 8192,
    LDP_NOTIFY_MAX_QUEUED = 256 * 1024,
    LDP_NOTIFY_MAX_CLIENT_MESSAGE = 4096,
};

typedef struct ldp_notify_config {
    const char *base_url;             /* the HTTP server's, no trailing '/' */
    unsigned max_channels;            /* 0: the LDP_NOTIFY_DEFAULT_ values */
    unsigned max_channels_per_client;
    unsigned lifetime;                /* seconds */
    unsigned connect_timeout;         /* seconds */
    const log_sink *log;
} ldp_notify_config;

typedef struct ldp_notify ldp_notify;
typedef struct ldp_notify_channel ldp_notify_channel;

ldp_notify *ldp_notify_new(const ldp_notify_config *config);
/* Frees every channel; the WebSocket thread must have stopped. */
void ldp_notify_free(ldp_notify *n);
/* Where sockets connect ("ws://host:port"); set once the listener is bound, before serving. */
void ldp_notify_set_receive_base(ldp_notify *n, const char *ws_base);
/* The store whose topics' states a connecting socket is told (note 4); set before serving. */
void ldp_notify_set_store(ldp_notify *n, ldp_store *store);
/* Called, from any thread, when a socket has something to do (ldp_notify_poll tells which). */
void ldp_notify_set_wake(ldp_notify *n, void (*wake)(void *user), void *user);

/* Appends the storage description's Turtle for note 1 (root: the storage root's IRI), using the prefix
 * notify: which the caller declares as LDP_NOTIFY_NS. */
void ldp_notify_describe(const ldp_notify *n, const char *root, buf *turtle);

typedef struct ldp_notify_answer {
    int status;
    buf body;
    const char *content_type; /* static; NULL without a body */
    const char *allow;        /* static; for a 405 */
} ldp_notify_answer;

/* Answers a request for a path under LDP_NOTIFY_PATH (note 2, 3): method as sent, path undecoded, content_type the header or NULL, client the peer's address. The
 * caller clears answer->body. */
void ldp_notify_request(ldp_notify *n, const char *method, const char *path, const char *content_type,
                        const char *body, size_t len, const char *client, ldp_notify_answer *answer);

/* The store's change hook (ldp_store_change_fn; user is the ldp_notify). */
void ldp_notify_changed(void *user, const ldp_store_change *changes, size_t count);

/* ---- WebSocket thread only ---- */

/* Whether a socket may connect to path now: its channel exists and has no socket. */
bool ldp_notify_can_connect(ldp_notify *n, const char *path);
/* Attaches socket to path's channel and queues the state notification (note 4); NULL when it may not. */
ldp_notify_channel *ldp_notify_connect(ldp_notify *n, const char *path, void *socket);
/* The channel's socket closed. */
void ldp_notify_disconnect(ldp_notify *n, ldp_notify_channel *channel);

enum ldp_notify_next {
    LDP_NOTIFY_IDLE,    /* nothing to send */
    LDP_NOTIFY_SEND,    /* send the message; *more says whether another waits */
    LDP_NOTIFY_EXPIRED, /* close the socket: the channel expired or was unsubscribed */
    LDP_NOTIFY_SLOW,    /* close the socket: it did not take its notifications (note 5) */
};
/* What the channel's socket does next; for LDP_NOTIFY_SEND the message replaces *message. */
enum ldp_notify_next ldp_notify_next(ldp_notify *n, ldp_notify_channel *channel, buf *message, bool *more);
/* Calls visit with every socket that has something to do (closing: its channel is over, so it is to be
 * closed). With expire, first retires the channels whose endAt passed or that were without a socket for
 * connect_timeout (call it about every second). */
void ldp_notify_poll(ldp_notify *n, bool expire, void (*visit)(void *user, void *socket, bool closing), void *user);

#endif
