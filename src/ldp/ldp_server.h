/* ldp_server.h: the HTTP side of the embedded LDP server, on libmicrohttpd: LDP 1.0 Basic Containers
 * and RDF sources over an ldp_store.
 *
 * NOTES ON THE DESIGN
 *  1. Reads never parse: each snapshot caches a ready response per media type (built on the first
 *     GET that asks for it), shared by every connection until a write replaces the snapshot.
 *  2. Writes are checked in this order: path (400), method (405), token (401), size (413), the
 *     Idempotency-Key's form (400), then, once the body is in, the key's table (note 4), media type
 *     (415), interaction model (400), then the store's own checks (400, 404, 405, 409, 412, 428).
 *  3. Every request ends with one access-log line on the configured stream (one stdio call, so lines of
 *     concurrent requests never interleave): method, path, status, body bytes sent, microseconds from the
 *     request line to the last byte handed to the kernel, " (aborted)" when the client left early, and,
 *     for a write with an Idempotency-Key, ' idempotency-key="KEY" OUTCOME' (KEY as an sf-string;
 *     OUTCOME executed, replayed, in-flight or mismatch) or " idempotency-key=invalid". It is kept apart
 *     from the diagnostics sink so that an embedding program (ldgsm demo) can drop it without losing
 *     warnings.
 *  4. A write (PUT, POST, DELETE, PATCH) with an Idempotency-Key is executed once (ldp_idempotency.h): a re-send
 *     of the same request gets the stored answer with "Idempotent-Replayed: true", another request under
 *     the key 422, a re-send while the first is executing 409 with Retry-After. A stored Location is kept
 *     relative to the base URL, so a replay after a restart on another port names the resource where it
 *     is. Reads ignore the header.
 *  5. An embedding program may add read-only routes (ldp_server_add_route) at paths the store can never
 *     hold (a segment beginning with '.', such as /.well-known/...), so that a route never hides a
 *     resource. A route answers GET and HEAD from a view of the whole store taken for the request
 *     (ldp_store_view: one consistent state, no lock held while the route works); other methods get 405.
 *  6. A write refused for one of the server's own constraints (400, 405, 409, 413, 415, 428) carries
 *     'Link: <LDP_SERVER_CONSTRAINTS_PATH>; rel="http://www.w3.org/ns/ldp#constrainedBy"' (LDP 4.2.1.6),
 *     a plain-text description the server serves itself as a route.
 *  7. Representations carry Last-Modified (ldp_doc.modified); a GET or HEAD with If-Modified-Since and
 *     no If-None-Match gets 304 when nothing changed since (HTTP dates have one-second resolution, so
 *     two changes within a second look alike to it; the ETag is the exact validator). A 304 carries
 *     what the 200 would have of ETag, Vary and Last-Modified, and the 200's Content-Length (never 0).
 *  8. CORS (Fetch standard): a request with an Origin the configuration allows gets it echoed in
 *     Access-Control-Allow-Origin, with the headers a script may read exposed and "Vary: Origin"; a
 *     preflight (OPTIONS with Origin and Access-Control-Request-Method) gets 204 on any path, existing
 *     or not. With no origin configured every origin is allowed, as Community Solid Server does: no
 *     answer depends on cookies (writes need a bearer token), so an echoed origin gives a page no
 *     more than curl gets.
 *  9. A request target in absolute form (RFC 9112 3.2.2) naming this server's base URL is served as
 *     its path; one naming another server gets 400.
 * 10. The whole store is one Solid storage (Solid Protocol, "Storage"), its root container the
 *     storage root: the root's answers carry 'Link: <http://www.w3.org/ns/pim/space#Storage>; rel="type"',
 *     and every answer describing a resource (GET, HEAD, OPTIONS, and the 201 of its creation) carries
 *     'Link: <LDP_SERVER_STORAGE_DESCRIPTION_PATH>; rel="http://www.w3.org/ns/solid/terms#storageDescription"'.
 *     The description is a route (note 5), RDF in the media types resources are served in: the root is a
 *     pim:Storage, ldp:constrainedBy the constraints of note 6, and supports PATCH with N3 Patch
 *     (hydra:supportedOperation, hydra:method "PATCH", hydra:expects solid:InsertDeletePatch). The path is
 *     Community Solid Server's.
 * 11. Slow clients are closed, not waited on (ldp_guard.h): head and body deadlines, and room kept for new
 *     clients near the connection limit.
 * 12. Solid Notifications (ldp_notify.h), unless turned off: the storage description lists the
 *     WebSocketChannel2023 and WebhookChannel2023 services, requests under /.notifications/ go to
 *     ldp_notify (no token: a subscription is a read, and a channel's id is what lets one unsubscribe),
 *     the store's changes reach it through its hook (ldp_server_hook_store), its sockets are served by
 *     ldp_websocket on their own port of the same host, its webhook POSTs made by ldp_webhook's thread;
 *     every resource's answer links its stream, a GET of which ldp_streaming answers on a suspended
 *     connection (the daemon allows suspending; ldp_server_free ends the streams before stopping it).
 * 13. With config.metrics, GET /metrics answers the server's metrics in the Prometheus text format
 *     (ldp_metrics.h), and those its embedding program adds (ldp_server_add_metrics): with a token configured, only to a request bearing it (401); without one, only to
 *     a client on this machine (loopback address; 403 otherwise). It is the one path outside note 5's
 *     reserved segments the server takes for itself (where Prometheus looks by default): no resource
 *     /metrics can be written (405).
 * The server is started in two steps so that a caller can learn the base URL (--port 0) before the
 * store is opened with it, and serve only once the store is loaded. */
#ifndef LDGSM_LDP_SERVER_H
#define LDGSM_LDP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ldp/ldp_store.h"
#include "rdf/buf.h"
#include "rdf/log.h"

typedef struct ldp_server_config {
    const char *host;         /* numeric address or a name resolved locally; default 127.0.0.1 */
    unsigned port;            /* 0: any free port */
    unsigned threads;         /* request threads */
    size_t max_body;          /* bytes; larger request bodies get 413 */
    const char *token;        /* when set, writes need "Authorization: Bearer <token>" */
    bool require_conditional; /* 428 for an unconditional write to an existing resource ... */
    const char *const *conditional_prefixes; /* ... under one of these paths (none: everywhere) */
    size_t conditional_prefix_count;
    const log_sink *log;      /* diagnostics */
    FILE *access_log;         /* one line per request; NULL: none */
    bool access_log_json;     /* ... as JSON (rdf/log_json.h: event "request") instead of design note 3's text */
    bool metrics;             /* serve GET /metrics (design note 13) */
    unsigned long idempotency_ttl;  /* seconds an Idempotency-Key's answer is kept; 0: the default */
    size_t idempotency_max_keys;    /* most answers kept, the oldest dropped first; 0: the default */
    /* Connection limits (0: the LDP_SERVER_DEFAULT_ values). One client holding idle connections must
     * not take every slot, or the listen queue fills and other clients time out. */
    unsigned idle_timeout;               /* seconds a connection may sit idle before it is closed */
    unsigned max_connections;            /* open connections in all (at least one per thread); more wait
                                          * in the listen queue */
    unsigned max_connections_per_client; /* open connections from one address; more are closed at once */
    /* Slow clients (ldp_guard.h): a request's head must be complete within head_timeout seconds, its body
     * average body_min_rate bytes/s after body_grace seconds; near max_connections the connections waiting
     * longest for a client are closed to keep room. */
    unsigned head_timeout;
    unsigned body_min_rate;
    unsigned body_grace;
    const char *const *cors_origins;     /* design note 8: origins allowed ("*": any); none: any */
    size_t cors_origin_count;
    /* Design note 12 (0: the LDP_NOTIFY_DEFAULT_ values). */
    bool no_notifications;
    unsigned notifications_port;         /* the sockets' port; 0: any free port */
    unsigned max_channels, max_channels_per_client;   /* WebSocket channels */
    unsigned max_webhook_channels, max_webhook_channels_per_client;
    unsigned max_streams, max_streams_per_client;     /* 0: a quarter of the connection limits */
    size_t channel_max_queued;           /* undelivered bytes per channel */
    unsigned channel_lifetime;           /* seconds */
    unsigned channel_connect_timeout;    /* seconds */
} ldp_server_config;

enum {
    LDP_SERVER_DEFAULT_IDLE_TIMEOUT = 15,
    LDP_SERVER_DEFAULT_MAX_CONNECTIONS = 1000,
    LDP_SERVER_DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 64,
    LDP_SERVER_DEFAULT_HEAD_TIMEOUT = 10,
    LDP_SERVER_DEFAULT_BODY_MIN_RATE = 1024,
    LDP_SERVER_DEFAULT_BODY_GRACE = 5,
};

typedef struct ldp_server ldp_server;

/* Binds the listening socket. NULL with message on failure. */
ldp_server *ldp_server_bind(const ldp_server_config *config, char *message, size_t size);
/* "http://host:port", no trailing '/'. */
const char *ldp_server_base_url(const ldp_server *server);
/* What snapshots must call to free the variants this server caches in them (ldp_store_config). */
ldp_variant_free_fn ldp_server_variant_free(void);
/* Sets config's change hook to the server's notifications (design note 12; none when they are off). */
void ldp_server_hook_store(const ldp_server *server, ldp_store_config *config);
/* Where notification sockets connect ("ws://host:port"), or NULL when notifications are off. */
const char *ldp_server_notifications_base(const ldp_server *server);
enum { LDP_ROUTE_HEADERS_MAX = 8, LDP_SERVER_ROUTES_MAX = 8 };
#define LDP_SERVER_CONSTRAINTS_PATH "/.well-known/ldgsm-constraints" /* design note 6 */
#define LDP_SERVER_STORAGE_DESCRIPTION_PATH "/.well-known/solid"      /* design note 10 */
#define LDP_SERVER_METRICS_PATH "/metrics"                            /* design note 13 */

/* What a route answers: status 200, no header and an empty body on entry. Header strings need only
 * live until the route returns. */
typedef struct ldp_route_answer {
    int status;
    buf body;
    size_t header_count;
    struct {
        const char *name, *value;
    } headers[LDP_ROUTE_HEADERS_MAX];
    void *request; /* the request answered, for ldp_route_query (the server's) */
} ldp_route_answer;

/* Adds a header to the answer (at most LDP_ROUTE_HEADERS_MAX; further ones are dropped). */
void ldp_route_answer_header(ldp_route_answer *answer, const char *name, const char *value);

/* The value of the request's query parameter name, percent-decoded ('+' a space; the caller frees it), or
 * NULL when absent. */
char *ldp_route_query(const ldp_route_answer *answer, const char *name);

/* Answers a GET or HEAD of the route's path from view (base_url: the server's, no trailing '/'; accept:
 * the request's Accept header, or NULL). Called on request threads, several at once when requests
 * overlap. */
typedef void (*ldp_route_fn)(void *user, const ldp_store_view *view, const char *base_url, const char *accept,
                             ldp_route_answer *answer);

/* Serves path (compared with the request's path as sent; design note 5: it must have a segment beginning
 * with '.') with fn. Call before ldp_server_start. Returns 0, or -1 when the path is not such a path or
 * LDP_SERVER_ROUTES_MAX routes are taken. */
int ldp_server_add_route(ldp_server *server, const char *path, ldp_route_fn fn, void *user);

/* Appends an embedding program's own metric families to out, in the Prometheus text format. */
typedef void (*ldp_metrics_fn)(void *user, buf *out);
/* /metrics answers fn's families after the server's own (design note 13); one such function at most.
 * Call before ldp_server_start. */
void ldp_server_add_metrics(ldp_server *server, ldp_metrics_fn fn, void *user);

/* Starts serving store, with the Idempotency-Key answers kept in the store's data directory read back.
 * Returns 0, or -1 with message. */
int ldp_server_start(ldp_server *server, ldp_store *store, char *message, size_t size);
/* Stops serving (in-flight requests finish) and frees the server. */
void ldp_server_free(ldp_server *server);

#endif
