/* ldp_notify.h: Solid Notifications for the LDP server, as Community Solid Server 7.2 speaks them: the
 * WebSocketChannel2023 and WebhookChannel2023 subscription services and StreamingHTTPChannel2023 streams
 * (channels, their bounds and lifetimes), and the activities a write sends on them. What the channel types
 * share is here; the sockets are ldp_websocket.h's, the webhook POSTs ldp_webhook.h's, the streamed
 * responses ldp_streaming.h's; the HTTP requests reach this module through ldp_server.
 *
 * NOTES ON THE DESIGN
 *  1. Discovery, as CSS: the storage description names the services (<root> notify:subscription
 *     <BASE/.notifications/WebSocketChannel2023/>, and <BASE/.notifications/WebhookChannel2023/>, each
 *     with its notify:channelType and notify:features), and a GET of a service answers the same as JSON-LD.
 *     Streams are linked from each resource's answers instead (note 8).
 *  2. A subscription is a POST of JSON-LD (the notification context, type, topic; sendTo for a webhook;
 *     optionally state, endAt, startAt, rate) to the service; it needs no token, since reads need none,
 *     and its topic need not exist yet. 200 with the channel (id, type, topic, the features, receiveFrom
 *     for a WebSocket, endAt, sendTo for a webhook); 415 for another media type, 413 for a body over
 *     LDP_NOTIFY_MAX_REQUEST bytes, 422 for a body that is not such a request (why in the body), 429 when
 *     a bound of note 5 is reached.
 *  3. A channel is BASE/.notifications/TYPE/UUID; a WebSocket connects to
 *     WS/.notifications/WebSocketChannel2023/UUID (WS: the listener's ws://host:port), the UUID 122 random
 *     bits: knowing it is what lets one listen, and unsubscribe (DELETE of the id: 205, then 404).
 *  4. The state feature: when the subscription's state is not the topic's (the ETag of none of its media
 *     types, or the topic is absent), an Update (or Delete) with the current state comes first: on a
 *     WebSocket once a socket connects, under the same lock that queues changes (a write between is then
 *     told twice, never missed); on a webhook at once after the subscription. A change while a WebSocket
 *     channel has no socket is not kept (as CSS): the state feature covers it. A webhook channel needs no
 *     connection: every change is queued for its sendTo.
 *  5. Bounds, so that strangers cannot exhaust the server, each kind its own: channels in all and per
 *     client address (WebSocket: a socket each; webhook: memory only, about 430 bytes each with a
 *     35-byte topic and a 41-byte sendTo, measured as the server's resident size per 20,000 more;
 *     streams: an HTTP connection each), a lifetime (a later endAt is cut to
 *     it; a stream ends then and its client opens another), at most max_queued undelivered bytes per
 *     channel (past it the channel is dropped, its socket or stream closed: its subscriber subscribes
 *     again with its state). WebSocket: a channel without its socket for connect_timeout seconds is freed,
 *     one socket per channel, what a client sends is ignored, a message over LDP_NOTIFY_MAX_CLIENT_MESSAGE
 *     bytes closes it. Webhook: sendTo http or https only; a receiver that answers 404 or 410, or fails
 *     (no connection, another non-2xx, a timeout) LDP_NOTIFY_WEBHOOK_MAX_FAILURES times in a row (an
 *     attempt every LDP_NOTIFY_WEBHOOK_RETRY_MS), loses its channel.
 *  6. Threads: request threads (subscriptions, streams' reads, and the store's writers through
 *     ldp_notify_changed), the WebSocket thread and the webhook thread share one mutex. Only the WebSocket
 *     thread touches sockets, only the webhook thread makes POSTs; others queue and call the wake function
 *     of the channel's kind. A channel something holds (a socket, a delivery in flight, a stream) is
 *     retired when it ends and freed by its holder when done. Each channel's notifications are delivered
 *     one at a time, in write order (a webhook's next POST waits for the answer to the previous one, and
 *     a failed one is retried before any later one).
 *  7. Webhook POSTs are not signed (CSS signs them with a DPoP-bound token of a WebID it serves): a
 *     notification only tells its receiver to read the topic again, which it does with its own
 *     credentials, so a forged one costs a read and nothing more; a receiver must not trust a
 *     notification's content. Their body is the activity, Content-Type application/ld+json.
 *  8. Streams, as CSS: every resource's answer links <BASE/.notifications/StreamingHTTPChannel2023/ENC>
 *     with rel="http://www.w3.org/ns/solid/terms#updatesViaStreamingHttp2023", ENC the resource's IRI
 *     percent-encoded as a whole (encodeURIComponent); a GET of it answers 200 text/turtle and streams,
 *     first the topic's current state (an Update, or a Delete when absent), then each activity, each one
 *     Turtle document. The topic need not exist. The stream ends at the lifetime, or when it falls
 *     max_queued bytes behind. A quiet stream's connection is suspended, and then libmicrohttpd does not
 *     see its client go: the once-a-second poll looks (ldp_streaming's gone) and ends the streams whose
 *     client closed, so that their slots are free again.
 *  9. Cost: a write finds its topic's channels by a hash of the topic (by_topic), so it costs in proportion
 *     to them, not to all channels; expiry takes the channels whose end time passed off the top of a heap
 *     ordered by end time; only WebSocket channels (few: a socket each) are walked, once a second, for
 *     their connect timeout.
 *
 * Activities are CSS's JSON-LD: {"@context":["https://www.w3.org/ns/activitystreams",
 * "https://www.w3.org/ns/solid/notification/v1"],"id":"urn:MILLISECONDS:TOPIC","type":"Update",
 * "object":TOPIC,"state":ETAG,"published":DATETIME}; Add and Remove have the member as object and the
 * container as target; Delete has no state. STATE is the Turtle ETag as the ETag header gives it, quotes
 * included. On a stream the same as Turtle (as:object, as:target, notify:state, as:published). */
#ifndef LDGSM_LDP_NOTIFY_H
#define LDGSM_LDP_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "ldp/ldp_store.h"
#include "rdf/buf.h"
#include "rdf/log.h"

#define LDP_NOTIFY_PATH "/.notifications/"
#define LDP_NOTIFY_WS_PATH LDP_NOTIFY_PATH "WebSocketChannel2023/"
#define LDP_NOTIFY_WEBHOOK_PATH LDP_NOTIFY_PATH "WebhookChannel2023/"
#define LDP_NOTIFY_STREAM_PATH LDP_NOTIFY_PATH "StreamingHTTPChannel2023/"
#define LDP_NOTIFY_STREAM_REL "http://www.w3.org/ns/solid/terms#updatesViaStreamingHttp2023"
#define LDP_NOTIFY_NS "http://www.w3.org/ns/solid/notifications#"

enum {
    LDP_NOTIFY_DEFAULT_MAX_CHANNELS = 1000,
    LDP_NOTIFY_DEFAULT_MAX_CHANNELS_PER_CLIENT = 250,
    LDP_NOTIFY_DEFAULT_LIFETIME = 3600,
    LDP_NOTIFY_DEFAULT_CONNECT_TIMEOUT = 30,
    LDP_NOTIFY_DEFAULT_MAX_WEBHOOKS = 10000,
    LDP_NOTIFY_DEFAULT_MAX_WEBHOOKS_PER_CLIENT = 2500,
    LDP_NOTIFY_DEFAULT_MAX_STREAMS = 250,          /* ldp_server gives a quarter of its connections */
    LDP_NOTIFY_DEFAULT_MAX_STREAMS_PER_CLIENT = 16, /* and a quarter of a client's */
    LDP_NOTIFY_DEFAULT_MAX_QUEUED = 256 * 1024,
    LDP_NOTIFY_MIN_QUEUED = 4096, /* at least a state notification */
    LDP_NOTIFY_MAX_REQUEST = 8192,
    LDP_NOTIFY_MAX_CLIENT_MESSAGE = 4096,
    LDP_NOTIFY_WEBHOOK_MAX_FAILURES = 3,
    LDP_NOTIFY_WEBHOOK_RETRY_MS = 500,
};

typedef struct ldp_notify_config {
    const char *base_url;             /* the HTTP server's, no trailing '/' */
    unsigned max_channels;            /* WebSocket channels; 0: the LDP_NOTIFY_DEFAULT_ values */
    unsigned max_channels_per_client;
    unsigned max_webhooks, max_webhooks_per_client;
    unsigned max_streams, max_streams_per_client;
    unsigned lifetime;                /* seconds */
    unsigned connect_timeout;         /* seconds */
    size_t max_queued;                /* undelivered bytes per channel */
    const log_sink *log;
} ldp_notify_config;

typedef struct ldp_notify ldp_notify;
typedef struct ldp_notify_channel ldp_notify_channel;

ldp_notify *ldp_notify_new(const ldp_notify_config *config);
/* Frees every channel; the WebSocket thread must have stopped. */
void ldp_notify_free(ldp_notify *n);
enum { LDP_NOTIFY_CHANNEL_TYPES = 3 };
/* The channels held now, per type (WebSocketChannel2023, WebhookChannel2023, StreamingHTTPChannel2023: the
 * names given in names), for the server's metrics. */
void ldp_notify_channel_counts(ldp_notify *n, const char *names[LDP_NOTIFY_CHANNEL_TYPES],
                               unsigned counts[LDP_NOTIFY_CHANNEL_TYPES]);
/* Where sockets connect ("ws://host:port"); set once the listener is bound, before serving. */
void ldp_notify_set_receive_base(ldp_notify *n, const char *ws_base);
/* The store whose topics' states a connecting socket is told (note 4); set before serving. */
void ldp_notify_set_store(ldp_notify *n, ldp_store *store);
/* Called, from any thread, when a socket has something to do (ldp_notify_poll tells which). */
void ldp_notify_set_wake(ldp_notify *n, void (*wake)(void *user), void *user);
/* Called, from any thread, when a webhook channel has something to deliver (ldp_notify_webhook_take). */
void ldp_notify_set_webhook_wake(ldp_notify *n, void (*wake)(void *user), void *user);
/* How a stream's connection is suspended (from its reader, under the module's lock), resumed (from any
 * thread, under it), and found closed by its client while suspended (note 8); set before serving. */
void ldp_notify_set_stream_control(ldp_notify *n, void (*suspend)(void *connection), void (*resume)(void *connection),
                                   bool (*gone)(void *connection));

/* Appends the storage description's Turtle for note 1 (root: the storage root's IRI), using the prefix
 * notify: which the caller declares as LDP_NOTIFY_NS. */
void ldp_notify_describe(const ldp_notify *n, const char *root, buf *turtle);

typedef struct ldp_notify_answer {
    int status;
    buf body;
    const char *content_type; /* static; NULL without a body */
    const char *allow;        /* static; for a 405 */
} ldp_notify_answer;

/* Answers a request for a path under LDP_NOTIFY_PATH but for streams (note 2, 3): method as sent, path
 * undecoded, content_type the header or NULL, client the peer's address. The caller clears answer->body. */
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
 * closed). With expire, first retires the channels of every kind whose endAt passed, and the WebSocket
 * channels without a socket for connect_timeout (call it about every second). */
void ldp_notify_poll(ldp_notify *n, bool expire, void (*visit)(void *user, void *socket, bool closing), void *user);

/* ---- the webhook thread only ---- */

/* Takes the next webhook channel with a notification to deliver and no delivery in flight: its sendTo and
 * its first notification, which stays queued until ldp_notify_webhook_done; false when there is none. */
bool ldp_notify_webhook_take(ldp_notify *n, ldp_notify_channel **channel, buf *send_to, buf *body);
enum ldp_notify_delivery {
    LDP_NOTIFY_DELIVERED, /* 2xx */
    LDP_NOTIFY_FAILED,    /* no connection, a timeout, another status: retried (note 5) */
    LDP_NOTIFY_GONE,      /* 404 or 410: the receiver is no more */
};
/* The delivery of the channel's first notification ended (why: for the log when the channel is dropped). */
void ldp_notify_webhook_done(ldp_notify *n, ldp_notify_channel *channel, enum ldp_notify_delivery outcome,
                             const char *why);
/* Makes the failed deliveries whose retry is due takeable again; returns the milliseconds until the next
 * retry is due, or -1 when none waits. */
int ldp_notify_webhook_retry(ldp_notify *n);

/* ---- streams: request threads ---- */

/* Opens the stream a GET of path (under LDP_NOTIFY_STREAM_PATH, undecoded) asks for, on connection,
 * its topic's state queued first (note 8); NULL with answer (404, 429, 503) when it may not. */
ldp_notify_channel *ldp_notify_stream_open(ldp_notify *n, const char *path, const char *client, void *connection,
                                           ldp_notify_answer *answer);
/* The stream's next notification into *message (LDP_NOTIFY_SEND); LDP_NOTIFY_EXPIRED or LDP_NOTIFY_SLOW
 * when it is to end; LDP_NOTIFY_IDLE when none waits, the connection then suspended until one comes. */
enum ldp_notify_next ldp_notify_stream_next(ldp_notify *n, ldp_notify_channel *channel, buf *message);
/* The stream's response is done: frees its channel. */
void ldp_notify_stream_close(ldp_notify *n, ldp_notify_channel *channel);
/* Ends every stream, resuming their connections, and lets no stream open or wait any more: call before the
 * HTTP server stops (it must not stop with connections suspended). */
void ldp_notify_end_streams(ldp_notify *n);

#endif
