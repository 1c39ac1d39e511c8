/* ldp_server.c: libmicrohttpd request handling for the LDP server: request state, the methods
 * (GET/HEAD, OPTIONS, PUT, POST, DELETE, PATCH) built on ldp_store, cached responses, conditional reads,
 * CORS, writes made once under an Idempotency-Key (ldp_idempotency), the notification service's requests
 * (ldp_notify, design note 12), the access log. */
#include "ldp/ldp_server.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ldp/ldp_guard.h"
#include "ldp/ldp_idempotency.h"
#include "ldp/ldp_link.h"
#include "ldp/ldp_notify.h"
#include "ldp/ldp_patch.h"
#include "ldp/ldp_path.h"
#include "ldp/ldp_rdf.h"
#include "ldp/ldp_streaming.h"
#include "ldp/ldp_metrics.h"
#include "ldp/ldp_webhook.h"
#include "ldp/ldp_websocket.h"
#include "rdf/log_json.h"
#include "rdf/vocab_ns.h"

typedef struct route {
    char *path;
    ldp_route_fn fn;
    void *user;
} route;

struct ldp_server {
    ldp_server_config config;
    route routes[LDP_SERVER_ROUTES_MAX]; /* design note 5 */
    size_t route_count;
    int listen_fd;
    char base_url[300];
    struct MHD_Daemon *daemon;
    ldp_store *store;
    ldp_idem *idempotency;
    ldp_guard *guard;
    buf storage_description[LDP_MEDIA_COUNT]; /* design note 10, made at bind */
    ldp_notify *notify;        /* design note 12; NULL when off */
    ldp_websocket *websocket;
    ldp_webhook *webhook;
    ldp_metrics metrics; /* design note 13 */
    ldp_metrics_fn more_metrics;
    void *more_metrics_user;
};

enum method { M_GET, M_HEAD, M_OPTIONS, M_PUT, M_POST, M_DELETE, M_PATCH, M_OTHER };
_Static_assert(M_OTHER + 1 == LDP_METRICS_METHODS, "ldp_metrics.c names the methods in this order");

/* One request's state, from its first call to the access-log line. */
typedef struct request {
    ldp_server *server;
    struct timespec start;
    enum method method;
    char method_name[16];
    char *raw_path;
    char *path;             /* decoded; NULL when the path is bad */
    const char *path_problem;
    const char *target;     /* the request target as a path (design note 9); NULL: another server's */
    const char *origin;     /* an allowed Origin to answer with CORS headers (design note 8), or NULL */
    bool preflight;         /* a CORS preflight (design note 8) */
    const route *route;     /* the extra route the path names (design note 5), or NULL */
    bool notify;            /* the path is the notification service's (design note 12) */
    bool metrics;           /* the path is /metrics (design note 13) */
    buf body;
    bool body_too_large;
    int status;
    size_t bytes_sent;
    char *idempotency_key;           /* a write's parsed Idempotency-Key; NULL when none */
    ldp_idem_record *reserved;       /* the key's reservation while this request executes */
    const char *idempotency_outcome; /* for the access log (design note 3); NULL when no key */
} request;

#define ALLOW_RESOURCE "GET, HEAD, OPTIONS, PUT, PATCH, DELETE"
#define ALLOW_CONTAINER "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE"
#define ALLOW_ROOT "GET, HEAD, OPTIONS, POST, PUT, PATCH"
#define ALLOW_ROUTE "GET, HEAD"

static const char *allow_for(const char *path) {
    return strcmp(path, "/") == 0 ? ALLOW_ROOT : ldp_path_is_container(path, strlen(path)) ? ALLOW_CONTAINER
                                                                                          : ALLOW_RESOURCE;
}

/* Design note 8. */
#define CORS_ALLOW_METHODS "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE"
#define CORS_ALLOW_HEADERS                                                                                      \
    "Accept, Authorization, Content-Type, Idempotency-Key, If-Match, If-Modified-Since, If-None-Match, Link, Slug"
#define CORS_EXPOSE_HEADERS                                                                                     \
    "Accept-Patch, Accept-Post, Accept-Put, Allow, ETag, Idempotent-Replayed, Last-Modified, Link, Location, "   \
    "Retry-After, Vary, WWW-Authenticate"

static void add_cors_headers(const request *r, struct MHD_Response *response) {
    if (!r->origin)
        return;
    MHD_add_response_header(response, "Access-Control-Allow-Origin", r->origin);
    MHD_add_response_header(response, "Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
    const char *vary = MHD_get_response_header(response, "Vary"); /* a representation's names Origin */
    if (!vary || !strstr(vary, "Origin"))
        MHD_add_response_header(response, "Vary", "Origin");
}

/* ---------------------------------------------------------------- responses */

/* response is this request's own (a cached variant goes through queue_variant). */
static enum MHD_Result queue(request *r, struct MHD_Connection *c, int status, struct MHD_Response *response,
                             size_t body_len) {
    add_cors_headers(r, response);
    r->status = status;
    r->bytes_sent = r->method == M_HEAD || status == 204 || status == 304 ? 0 : body_len;
    return MHD_queue_response(c, (unsigned)status, response);
}

#define NOT_ACCEPTABLE "Not Acceptable: this server serves text/turtle, application/n-triples and application/rdf+xml"

/* What an answer describing the resource at path carries: its types (design note 10: the root is the
 * storage), where the storage is described, the methods and the media types it takes. */
static void add_type_headers(const ldp_server *s, struct MHD_Response *response, const char *path) {
    bool container = ldp_path_is_container(path, strlen(path));
    MHD_add_response_header(response, "Link", ldp_link_types(container));
    if (strcmp(path, "/") == 0)
        MHD_add_response_header(response, "Link", "<" NS_PIM "Storage>; rel=\"type\"");
    buf link = {0};
    buf_printf(&link, "<%s" LDP_SERVER_STORAGE_DESCRIPTION_PATH ">; rel=\"" NS_SOLID "storageDescription\"",
               s->base_url);
    MHD_add_response_header(response, "Link", buf_cstr(&link));
    if (s->notify) { /* ldp_notify.h note 8: the stream of the resource, its IRI percent-encoded whole */
        buf iri = {0};
        buf_puts(&iri, s->base_url);
        ldp_path_encode(path, strlen(path), &iri);
        char *encoded = curl_easy_escape(NULL, iri.data, (int)iri.len);
        link.len = 0;
        buf_printf(&link, "<%s" LDP_NOTIFY_STREAM_PATH "%s>; rel=\"" LDP_NOTIFY_STREAM_REL "\"", s->base_url,
                   encoded ? encoded : "");
        MHD_add_response_header(response, "Link", buf_cstr(&link));
        curl_free(encoded);
        buf_free(&iri);
    }
    buf_free(&link);
    MHD_add_response_header(response, "Allow", allow_for(path));
    if (container)
        MHD_add_response_header(response, "Accept-Post", LDP_ACCEPTED_TYPES);
    MHD_add_response_header(response, "Accept-Put", LDP_ACCEPTED_TYPES);
    MHD_add_response_header(response, "Accept-Patch", LDP_PATCH_MEDIA_TYPE);
}

typedef struct answer_capture {
    ldp_idem_answer *answer;
    const char *base_url;
} answer_capture;

static enum MHD_Result capture_header(void *user, enum MHD_ValueKind kind, const char *name, const char *value) {
    answer_capture *capture = user;
    (void)kind;
    size_t base_len = strlen(capture->base_url);
    if (strcasecmp(name, "Location") == 0 && strncmp(value, capture->base_url, base_len) == 0)
        value += base_len; /* design note 4 */
    ldp_idem_answer_add_header(capture->answer, name, value);
    return MHD_YES;
}

/* Design note 4: the answer of a write executed under an Idempotency-Key is stored (durably with a data
 * directory) before it is queued, so before any of it is sent. */
static void store_answer(request *r, int status, struct MHD_Response *response, const char *body, size_t len) {
    if (!r->reserved)
        return;
    ldp_idem_answer answer = {.status = status};
    answer_capture capture = {&answer, r->server->base_url};
    MHD_get_response_headers(response, capture_header, &capture);
    buf_append(&answer.body, body, len);
    ldp_idem_finish(r->server->idempotency, r->reserved, &answer);
    r->reserved = NULL;
}

/* A stored answer sent again. */
static enum MHD_Result respond_replayed(request *r, struct MHD_Connection *c, const ldp_idem_answer *stored) {
    struct MHD_Response *response = MHD_create_response_from_buffer(
        stored->body.len, stored->body.len ? stored->body.data : "", MHD_RESPMEM_MUST_COPY);
    size_t offset = 0;
    const char *name, *value;
    while (ldp_idem_answer_next_header(stored, &offset, &name, &value)) {
        if (strcasecmp(name, "Location") == 0 && value[0] == '/') {
            buf location = {0};
            buf_printf(&location, "%s%s", r->server->base_url, value);
            MHD_add_response_header(response, name, buf_cstr(&location));
            buf_free(&location);
        } else {
            MHD_add_response_header(response, name, value);
        }
    }
    MHD_add_response_header(response, "Idempotent-Replayed", "true");
    enum MHD_Result result = queue(r, c, stored->status, response, stored->body.len);
    MHD_destroy_response(response);
    return result;
}

/* Design note 6: a write refused for one of the server's constraints points at their description. */
static void add_constrained_by(const request *r, int status, struct MHD_Response *response) {
    bool write = r->method != M_GET && r->method != M_HEAD && r->method != M_OPTIONS;
    if (!write || !(status == 400 || status == 405 || status == 409 || status == 413 || status == 415 ||
                    status == 428))
        return;
    buf link = {0};
    buf_printf(&link, "<%s" LDP_SERVER_CONSTRAINTS_PATH ">; rel=\"" NS_LDP "constrainedBy\"",
               r->server->base_url);
    MHD_add_response_header(response, "Link", buf_cstr(&link));
    buf_free(&link);
}

/* A plain-text error (or short message) response; extra header name/value may be NULL. */
static enum MHD_Result respond_text(request *r, struct MHD_Connection *c, int status, const char *message,
                                    const char *header, const char *value) {
    buf text = {0};
    buf_puts(&text, message);
    buf_putc(&text, '\n');
    /* The response takes over text's memory (MHD frees it with free()). */
    struct MHD_Response *response = MHD_create_response_from_buffer(text.len, text.data, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8");
    if (header)
        MHD_add_response_header(response, header, value);
    add_constrained_by(r, status, response);
    store_answer(r, status, response, text.data, text.len);
    enum MHD_Result result = queue(r, c, status, response, text.len);
    MHD_destroy_response(response);
    return result;
}

/* An answer without a body; typed_path (may be NULL) is the resource whose Link and Allow to send. */
static enum MHD_Result respond_empty(request *r, struct MHD_Connection *c, int status, const char *typed_path,
                                     const char *etag, const char *location) {
    struct MHD_Response *response = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    if (etag)
        MHD_add_response_header(response, "ETag", etag);
    if (location)
        MHD_add_response_header(response, "Location", location);
    if (typed_path)
        add_type_headers(r->server, response, typed_path);
    store_answer(r, status, response, NULL, 0);
    enum MHD_Result result = queue(r, c, status, response, 0);
    MHD_destroy_response(response);
    return result;
}

static void release_bytes(void *bytes) { ldp_bytes_release(bytes); }

/* What a snapshot's variant slot holds: the ready response and its body length (for the log). */
typedef struct cached_variant {
    struct MHD_Response *response;
    ldp_bytes *bytes; /* its body (the response holds the reference) */
    size_t len;
} cached_variant;

static void free_cached_variant(void *variant) {
    cached_variant *v = variant;
    MHD_destroy_response(v->response);
    free(v);
}

ldp_variant_free_fn ldp_server_variant_free(void) { return free_cached_variant; }

/* ---------------------------------------------------------------- dates (RFC 9110 5.6.7) */

static const char *const month_names[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

static void http_date(time_t t, char out[32]) {
    static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    struct tm tm;
    gmtime_r(&t, &tm);
    snprintf(out, 32, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday % 7], tm.tm_mday,
             month_names[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* An HTTP date in any of the three forms a recipient must accept; -1 when it is none of them. */
static time_t parse_http_date(const char *text) {
    struct tm tm = {0};
    char month[4] = "";
    int end = 0;
    if (!((sscanf(text, "%*3[A-Za-z], %2d %3s %4d %2d:%2d:%2d GMT%n", &tm.tm_mday, month, &tm.tm_year, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &end) == 6 && end) ||
          (sscanf(text, "%*[A-Za-z], %2d-%3s-%2d %2d:%2d:%2d GMT%n", &tm.tm_mday, month, &tm.tm_year, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &end) == 6 && end) ||
          (sscanf(text, "%*3[A-Za-z] %3s %2d %2d:%2d:%2d %4d%n", month, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec, &tm.tm_year, &end) == 6 && end)))
        return -1;
    tm.tm_mon = -1;
    for (int m = 0; m < 12; m++)
        if (strcmp(month, month_names[m]) == 0)
            tm.tm_mon = m;
    if (tm.tm_mon < 0)
        return -1;
    tm.tm_year = tm.tm_year < 100 ? tm.tm_year + (tm.tm_year < 70 ? 100 : 0) : tm.tm_year - 1900;
    return timegm(&tm);
}

/* What a 200 and a 304 of the variant both carry (design note 7). */
static void add_validators(struct MHD_Response *response, const ldp_doc *doc, enum ldp_media media) {
    MHD_add_response_header(response, "ETag", doc->etag[media]);
    MHD_add_response_header(response, "Vary", "Accept, Origin");
    if (doc->modified) {
        char date[32];
        http_date(doc->modified, date);
        MHD_add_response_header(response, "Last-Modified", date);
    }
}

/* Design note 1: the snapshot's response for media, built once. NULL when conversion fails (*too_large:
 * because the text would pass ldp_rdf's size bound). */
static const cached_variant *variant(ldp_server *s, ldp_doc *doc, enum ldp_media media, char *message,
                                     size_t size, bool *too_large) {
    cached_variant *v = atomic_load(&doc->variant[media]);
    if (v)
        return v;
    ldp_bytes *bytes;
    if (media == LDP_MEDIA_TURTLE) {
        bytes = ldp_bytes_retain(doc->turtle);
    } else {
        buf out = {0};
        int rc = ldp_rdf_convert(doc->turtle->data, doc->turtle->len, doc->uri, media, &out, message, size);
        if (rc != 0) {
            *too_large = rc == 1;
            buf_free(&out);
            return NULL;
        }
        bytes = ldp_bytes_new(out.data ? out.data : "", out.len);
        buf_free(&out);
    }
    v = xmalloc(sizeof *v);
    v->len = bytes->len;
    v->bytes = bytes;
    v->response = MHD_create_response_from_buffer_with_free_callback_cls(bytes->len, bytes->data, release_bytes, bytes);
    MHD_add_response_header(v->response, "Content-Type", ldp_media_type(media));
    add_validators(v->response, doc, media);
    add_type_headers(s, v->response, doc->path);
    return ldp_doc_install_variant(doc, media, v);
}

static enum MHD_Result copy_header(void *user, enum MHD_ValueKind kind, const char *name, const char *value) {
    (void)kind;
    MHD_add_response_header(user, name, value);
    return MHD_YES;
}

/* Queues a cached variant. It is shared by every connection, so an answer with headers of its own
 * (design note 8) gets a response of its own, sharing the body. */
static enum MHD_Result queue_variant(request *r, struct MHD_Connection *c, const cached_variant *v) {
    if (!r->origin) {
        r->status = 200;
        r->bytes_sent = r->method == M_HEAD ? 0 : v->len;
        return MHD_queue_response(c, 200, v->response);
    }
    ldp_bytes *bytes = ldp_bytes_retain(v->bytes);
    struct MHD_Response *response =
        MHD_create_response_from_buffer_with_free_callback_cls(bytes->len, bytes->data, release_bytes, bytes);
    MHD_get_response_headers(v->response, copy_header, response);
    enum MHD_Result result = queue(r, c, 200, response, v->len);
    MHD_destroy_response(response);
    return result;
}

/* ---------------------------------------------------------------- headers */

static const char *header(struct MHD_Connection *c, const char *name) {
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

static bool authorized(const ldp_server *s, struct MHD_Connection *c) {
    if (!s->config.token)
        return true;
    const char *value = header(c, "Authorization");
    if (!value || strncasecmp(value, "Bearer ", 7) != 0)
        return false;
    value += 7;
    while (*value == ' ')
        value++;
    /* Compared in time independent of where the first difference is. */
    const char *token = s->config.token;
    size_t len = strlen(value), token_len = strlen(token);
    unsigned char diff = len != token_len;
    for (size_t i = 0; i < len; i++)
        diff |= (unsigned char)(value[i] ^ token[i % (token_len ? token_len : 1)]);
    return diff == 0;
}

static enum MHD_Result collect_link(void *user, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    if (strcasecmp(key, "Link") == 0 && value)
        ldp_link_model(value, user);
    return MHD_YES;
}

static enum ldp_model requested_model(struct MHD_Connection *c) {
    enum ldp_model model = LDP_MODEL_NONE;
    MHD_get_connection_values(c, MHD_HEADER_KIND, collect_link, &model);
    return model;
}

static ldp_conditions conditions_for(const ldp_server *s, struct MHD_Connection *c, const char *path) {
    ldp_conditions cond = {header(c, "If-Match"), header(c, "If-None-Match"), false};
    if (s->config.require_conditional) {
        cond.required = s->config.conditional_prefix_count == 0;
        for (size_t i = 0; i < s->config.conditional_prefix_count; i++) {
            const char *prefix = s->config.conditional_prefixes[i];
            if (strncmp(path, prefix, strlen(prefix)) == 0)
                cond.required = true;
        }
    }
    return cond;
}

/* ---------------------------------------------------------------- methods */

/* Design note 7: a 304 carries the validators of the 200 it stands for. libmicrohttpd sends no body with
 * a 304 but a Content-Length of the response's size, so the response is the 200's body: the length is
 * then the one RFC 9110 8.6 allows (the 200's), never a false 0. */
static enum MHD_Result respond_not_modified(request *r, struct MHD_Connection *c, const ldp_doc *doc,
                                            enum ldp_media media, const cached_variant *v) {
    ldp_bytes *bytes = ldp_bytes_retain(v->bytes);
    struct MHD_Response *response =
        MHD_create_response_from_buffer_with_free_callback_cls(bytes->len, bytes->data, release_bytes, bytes);
    add_validators(response, doc, media);
    enum MHD_Result result = queue(r, c, 304, response, 0);
    MHD_destroy_response(response);
    return result;
}

/* If-Modified-Since, which counts only without If-None-Match (RFC 9110 13.1.3). */
static bool unmodified_since(struct MHD_Connection *c, const ldp_doc *doc) {
    const char *since = header(c, "If-Modified-Since");
    if (!since || header(c, "If-None-Match") || !doc->modified)
        return false;
    time_t date = parse_http_date(since);
    return date >= 0 && doc->modified <= date;
}

static enum MHD_Result handle_get(ldp_server *s, struct MHD_Connection *c, request *r) {
    ldp_doc *doc = ldp_store_get(s->store, r->path);
    if (!doc)
        return respond_text(r, c, 404, "Not Found", NULL, NULL);
    enum MHD_Result result;
    int media = ldp_media_negotiate(header(c, "Accept"));
    const char *if_match = header(c, "If-Match"), *if_none_match = header(c, "If-None-Match");
    char message[600];
    const cached_variant *v;
    bool too_large = false;
    if (media < 0) {
        result = respond_text(r, c, 406, NOT_ACCEPTABLE, NULL, NULL);
    } else if (if_match && !ldp_etag_is_any(if_match) && !ldp_etag_list_has(if_match, doc->etag[media])) {
        result = respond_text(r, c, 412, "Precondition Failed", NULL, NULL);
    } else if (!(v = variant(s, doc, (enum ldp_media)media, message, sizeof message, &too_large)) && too_large) {
        result = respond_text(r, c, 406, message, NULL, NULL);
    } else if (!v) {
        log_msg(s->config.log, LOG_ERROR, "%s: cannot serve as %s: %s", r->path, ldp_media_type(media), message);
        result = respond_text(r, c, 500, "Internal Server Error: the stored representation does not convert",
                              NULL, NULL);
    } else if ((if_none_match &&
                (ldp_etag_is_any(if_none_match) || ldp_etag_list_has(if_none_match, doc->etag[media]))) ||
               unmodified_since(c, doc)) {
        result = respond_not_modified(r, c, doc, (enum ldp_media)media, v);
    } else {
        result = queue_variant(r, c, v);
    }
    ldp_doc_release(doc);
    return result;
}

/* Design note 8: answered on any path, before anything else is looked at. */
static enum MHD_Result respond_preflight(request *r, struct MHD_Connection *c) {
    struct MHD_Response *response = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Access-Control-Allow-Methods", CORS_ALLOW_METHODS);
    MHD_add_response_header(response, "Access-Control-Allow-Headers", CORS_ALLOW_HEADERS);
    MHD_add_response_header(response, "Access-Control-Max-Age", "600");
    enum MHD_Result result = queue(r, c, 204, response, 0);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result handle_options(ldp_server *s, struct MHD_Connection *c, request *r) {
    ldp_doc *doc = ldp_store_get(s->store, r->path);
    if (!doc)
        return respond_text(r, c, 404, "Not Found", NULL, NULL);
    enum MHD_Result result = respond_empty(r, c, 204, doc->path, NULL, NULL);
    ldp_doc_release(doc);
    return result;
}

/* Answers a write's outcome: 201 with Location, 204, or the error. */
static enum MHD_Result respond_outcome(ldp_server *s, struct MHD_Connection *c, request *r, ldp_outcome *o) {
    enum MHD_Result result;
    if (o->status == 201) {
        buf location = {0};
        buf_puts(&location, s->base_url);
        ldp_path_encode(o->path, strlen(o->path), &location);
        result = respond_empty(r, c, 201, o->path, o->etag, buf_cstr(&location));
        buf_free(&location);
    } else if (o->status == 204) {
        result = respond_empty(r, c, 204, NULL, o->etag[0] ? o->etag : NULL, NULL); /* DELETE: no tag */
    } else if (o->status >= 500) {
        /* The store's reason names files under the data directory: the log gets it, the client not. */
        log_msg(s->config.log, LOG_ERROR, "%s %s: %s", r->method_name, r->path, o->message);
        result = respond_text(r, c, o->status,
                              "Internal Server Error: the write could not be completed (the server's log says why)",
                              NULL, NULL);
    } else {
        buf text = {0};
        buf_printf(&text, "%s: %s", MHD_get_reason_phrase_for((unsigned)o->status), o->message);
        /* A 405 from the store is a POST to a resource or a DELETE of the root. */
        result = respond_text(r, c, o->status, buf_cstr(&text), o->status == 405 ? "Allow" : NULL, allow_for(r->path));
        buf_free(&text);
    }
    ldp_outcome_clear(o);
    return result;
}

/* The body's media type, or a 415 answer (returns -1 and sets *result). */
static int body_media(struct MHD_Connection *c, request *r, enum MHD_Result *result) {
    int media = ldp_media_from_content_type(header(c, "Content-Type"));
    if (media < 0)
        *result = respond_text(r, c, 415, "Unsupported Media Type: send one of " LDP_ACCEPTED_TYPES, "Accept-Post",
                               LDP_ACCEPTED_TYPES);
    return media;
}

static enum MHD_Result handle_put(ldp_server *s, struct MHD_Connection *c, request *r) {
    enum MHD_Result result;
    int media = body_media(c, r, &result);
    if (media < 0)
        return result;
    enum ldp_model model = requested_model(c);
    bool container = ldp_path_is_container(r->path, strlen(r->path));
    if (model == LDP_MODEL_UNSUPPORTED || (model == LDP_MODEL_CONTAINER && !container) ||
        (model == LDP_MODEL_RESOURCE && container))
        return respond_text(r, c, 400,
                            "Bad Request: this server has Basic Containers (paths ending in '/') and RDF sources "
                            "(other paths); the Link type does not match the path",
                            NULL, NULL);
    ldp_body body = {r->body.data ? r->body.data : "", r->body.len, (enum ldp_media)media, "body"};
    ldp_conditions cond = conditions_for(s, c, r->path);
    ldp_outcome outcome;
    ldp_store_put(s->store, r->path, &body, &cond, &outcome);
    return respond_outcome(s, c, r, &outcome);
}

static enum MHD_Result handle_post(ldp_server *s, struct MHD_Connection *c, request *r) {
    enum MHD_Result result;
    int media = body_media(c, r, &result);
    if (media < 0)
        return result;
    enum ldp_model model = requested_model(c);
    if (model == LDP_MODEL_UNSUPPORTED)
        return respond_text(r, c, 400,
                            "Bad Request: this server creates Basic Containers and RDF sources only", NULL, NULL);
    ldp_body body = {r->body.data ? r->body.data : "", r->body.len, (enum ldp_media)media, "body"};
    /* The conditions are on the container's representation; --require-conditional is for changes of an
     * existing resource, which a POST is not. */
    ldp_conditions cond = {header(c, "If-Match"), header(c, "If-None-Match"), false};
    ldp_outcome outcome;
    ldp_store_post(s->store, r->path, header(c, "Slug"), model == LDP_MODEL_CONTAINER, &body, &cond, &outcome);
    return respond_outcome(s, c, r, &outcome);
}

static enum MHD_Result handle_delete(ldp_server *s, struct MHD_Connection *c, request *r) {
    ldp_conditions cond = conditions_for(s, c, r->path);
    ldp_outcome outcome;
    ldp_store_delete(s->store, r->path, &cond, &outcome);
    return respond_outcome(s, c, r, &outcome);
}

/* N3 Patch (ldp_patch.h), applied under the store's writer lock and conditional as PUT. */
static enum MHD_Result handle_patch(ldp_server *s, struct MHD_Connection *c, request *r) {
    if (!ldp_media_type_is(header(c, "Content-Type"), LDP_PATCH_MEDIA_TYPE))
        return respond_text(r, c, 415, "Unsupported Media Type: send an N3 Patch as " LDP_PATCH_MEDIA_TYPE,
                            "Accept-Patch", LDP_PATCH_MEDIA_TYPE);
    ldp_patch_request patch = {r->body.data ? r->body.data : "", r->body.len, ldp_store_turtle_prefixes(s->store)};
    ldp_conditions cond = conditions_for(s, c, r->path);
    ldp_outcome outcome;
    ldp_store_edit(s->store, r->path, &cond, ldp_patch_edit, &patch, &outcome);
    return respond_outcome(s, c, r, &outcome);
}

/* Design note 5. */
static enum MHD_Result handle_route(ldp_server *s, struct MHD_Connection *c, request *r) {
    ldp_store_view view;
    ldp_store_view_take(s->store, &view);
    ldp_route_answer answer = {.status = 200, .request = c};
    r->route->fn(r->route->user, &view, s->base_url, header(c, "Accept"), &answer);
    ldp_store_view_release(&view);
    size_t len = answer.body.len;
    /* The response takes over the body's memory (MHD frees it with free()). */
    struct MHD_Response *response =
        MHD_create_response_from_buffer(len, buf_cstr(&answer.body), MHD_RESPMEM_MUST_FREE);
    for (size_t i = 0; i < answer.header_count; i++)
        MHD_add_response_header(response, answer.headers[i].name, answer.headers[i].value);
    enum MHD_Result result = queue(r, c, answer.status, response, len);
    MHD_destroy_response(response);
    return result;
}

/* The connection's peer address, as text. */
static void client_address(struct MHD_Connection *c, char address[INET6_ADDRSTRLEN]) {
    snprintf(address, INET6_ADDRSTRLEN, "unknown");
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *peer = info ? info->client_addr : NULL;
    if (peer && peer->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)peer)->sin_addr, address, INET6_ADDRSTRLEN);
    else if (peer && peer->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)peer)->sin6_addr, address, INET6_ADDRSTRLEN);
}

/* Design note 12. */
static enum MHD_Result handle_notify(ldp_server *s, struct MHD_Connection *c, request *r) {
    char address[INET6_ADDRSTRLEN];
    client_address(c, address);
    ldp_notify_answer answer = {0};
    if (strncmp(r->target, LDP_NOTIFY_STREAM_PATH, strlen(LDP_NOTIFY_STREAM_PATH)) == 0) {
        if (r->method != M_GET) {
            buf_free(&answer.body);
            return respond_text(r, c, 405, "Method Not Allowed: GET a stream", "Allow", "GET");
        }
        struct MHD_Response *stream = ldp_streaming_open(s->notify, c, r->target, address, &answer);
        if (stream) {
            enum MHD_Result result = queue(r, c, 200, stream, 0);
            MHD_destroy_response(stream);
            return result;
        }
    } else {
        ldp_notify_request(s->notify, r->method_name, r->target, header(c, "Content-Type"),
                           r->body.data ? r->body.data : "", r->body.len, address, &answer);
    }
    size_t len = answer.body.len;
    /* The response takes over the body's memory (MHD frees it with free()). */
    struct MHD_Response *response = MHD_create_response_from_buffer(len, buf_cstr(&answer.body), MHD_RESPMEM_MUST_FREE);
    if (answer.content_type)
        MHD_add_response_header(response, "Content-Type", answer.content_type);
    if (answer.allow)
        MHD_add_response_header(response, "Allow", answer.allow);
    enum MHD_Result result = queue(r, c, answer.status, response, len);
    MHD_destroy_response(response);
    return result;
}

/* Whether the peer is this machine: 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6. */
static bool loopback_client(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *peer = info ? info->client_addr : NULL;
    if (peer && peer->sa_family == AF_INET)
        return ((const uint8_t *)&((const struct sockaddr_in *)peer)->sin_addr)[0] == 127;
    if (!peer || peer->sa_family != AF_INET6)
        return false;
    const struct in6_addr *a = &((const struct sockaddr_in6 *)peer)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

/* Design note 13. */
static enum MHD_Result handle_metrics(ldp_server *s, struct MHD_Connection *c, request *r) {
    if (s->config.token && !authorized(s, c))
        return respond_text(r, c, 401, "Unauthorized: the metrics need the bearer token", "WWW-Authenticate",
                            "Bearer realm=\"ldgsm\"");
    if (!s->config.token && !loopback_client(c))
        return respond_text(r, c, 403, "Forbidden: without a token the metrics are for this machine's clients only",
                            NULL, NULL);
    ldp_metrics_gauges gauges = {.idempotency_keys = ldp_idem_count(s->idempotency), .notifications = s->notify};
    const union MHD_DaemonInfo *open = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    gauges.connections = open ? open->num_connections : 0;
    if (s->notify)
        ldp_notify_channel_counts(s->notify, gauges.channel_types, gauges.channels);
    buf text = {0};
    ldp_metrics_render(&s->metrics, &gauges, &text);
    if (s->more_metrics)
        s->more_metrics(s->more_metrics_user, &text);
    size_t len = text.len;
    /* The response takes over text's memory (MHD frees it with free()). */
    struct MHD_Response *response = MHD_create_response_from_buffer(len, buf_cstr(&text), MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(response, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    MHD_add_response_header(response, "Cache-Control", "no-store");
    enum MHD_Result result = queue(r, c, 200, response, len);
    MHD_destroy_response(response);
    return result;
}

void ldp_route_answer_header(ldp_route_answer *answer, const char *name, const char *value) {
    if (answer->header_count < LDP_ROUTE_HEADERS_MAX) {
        answer->headers[answer->header_count].name = name;
        answer->headers[answer->header_count].value = value;
        answer->header_count++;
    }
}

char *ldp_route_query(const ldp_route_answer *answer, const char *name) {
    /* kept escaped as sent (keep_escaped): decoded here */
    const char *value = MHD_lookup_connection_value(answer->request, MHD_GET_ARGUMENT_KIND, name);
    if (!value)
        return NULL;
    char *decoded = xstrndup(value, strlen(value));
    for (char *c = decoded; *c; c++)
        if (*c == '+')
            *c = ' ';
    MHD_http_unescape(decoded);
    return decoded;
}

/* ---------------------------------------------------------------- the request cycle */

static enum method method_of(const char *name) {
    static const char *const names[] = {"GET", "HEAD", "OPTIONS", "PUT", "POST", "DELETE", "PATCH"};
    for (int m = 0; m < M_OTHER; m++)
        if (strcmp(name, names[m]) == 0)
            return (enum method)m;
    return M_OTHER;
}

/* Design note 9: the path of a request target; NULL when it names another server. */
static const char *target_path(const ldp_server *s, const char *url) {
    if (url[0] == '/' || strncasecmp(url, "http://", 7) != 0)
        return url; /* origin form, or a form ldp_path_decode refuses */
    size_t base_len = strlen(s->base_url);
    if (strncasecmp(url, s->base_url, base_len) != 0 || (url[base_len] && url[base_len] != '/'))
        return NULL;
    return url[base_len] ? url + base_len : "/";
}

static request *request_new(ldp_server *s, const char *url, const char *method) {
    request *r = xcalloc(1, sizeof *r);
    r->server = s;
    clock_gettime(CLOCK_MONOTONIC, &r->start);
    r->method = method_of(method);
    snprintf(r->method_name, sizeof r->method_name, "%s", method);
    r->raw_path = xstrndup(url, strnlen(url, LDP_PATH_MAX + 16));
    r->target = target_path(s, url);
    if (!r->target || ldp_path_decode(r->target, &r->path, &r->path_problem) != 0)
        r->path = NULL;
    for (size_t i = 0; r->target && i < s->route_count; i++)
        if (strcmp(r->target, s->routes[i].path) == 0)
            r->route = &s->routes[i];
    r->notify = s->notify && r->target && strncmp(r->target, LDP_NOTIFY_PATH, strlen(LDP_NOTIFY_PATH)) == 0;
    r->metrics = s->config.metrics && r->target && strcmp(r->target, LDP_SERVER_METRICS_PATH) == 0;
    return r;
}

/* Design note 8: the request's Origin when the configuration allows it. */
static const char *allowed_origin(const ldp_server *s, struct MHD_Connection *c) {
    const char *origin = header(c, "Origin");
    if (!origin || !*origin)
        return NULL;
    if (s->config.cors_origin_count == 0)
        return origin;
    for (size_t i = 0; i < s->config.cors_origin_count; i++)
        if (strcmp(s->config.cors_origins[i], "*") == 0 || strcmp(s->config.cors_origins[i], origin) == 0)
            return origin;
    return NULL;
}

static bool has_body(enum method m) { return m == M_PUT || m == M_POST || m == M_PATCH; }

static enum MHD_Result count_idempotency_keys(void *user, enum MHD_ValueKind kind, const char *name,
                                              const char *value) {
    (void)kind;
    (void)value;
    if (strcasecmp(name, "Idempotency-Key") == 0)
        ++*(unsigned *)user;
    return MHD_YES;
}

/* Takes a write's Idempotency-Key into r; false (and a 400 in *result) when it is malformed. */
static bool take_idempotency_key(struct MHD_Connection *c, request *r, enum MHD_Result *result) {
    const char *value = header(c, "Idempotency-Key");
    if (!value)
        return true;
    char key[LDP_IDEM_KEY_MAX + 1];
    const char *why;
    unsigned lines = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_idempotency_keys, &lines);
    if (lines > 1)
        why = "one key only";
    else if (ldp_idem_parse_key(value, key, &why) == 0) {
        r->idempotency_key = xstrndup(key, strlen(key));
        return true;
    }
    r->idempotency_outcome = "invalid";
    buf text = {0};
    buf_printf(&text, "Bad Request: Idempotency-Key: %s (send 1 to %d printable characters as \"KEY\")", why,
               LDP_IDEM_KEY_MAX);
    *result = respond_text(r, c, 400, buf_cstr(&text), NULL, NULL);
    buf_free(&text);
    return false;
}

/* Design note 2, first part: what can be answered before the body arrives. */
static enum MHD_Result answer_early(ldp_server *s, struct MHD_Connection *c, request *r, bool *answered) {
    *answered = true;
    r->origin = allowed_origin(s, c);
    r->preflight = r->method == M_OPTIONS && r->origin && header(c, "Access-Control-Request-Method");
    if (r->preflight) {
        *answered = false;
        return MHD_YES;
    }
    if (!r->target)
        return respond_text(r, c, 400, "Bad Request: the request target names another server", NULL, NULL);
    if (r->route || r->metrics) {
        *answered = r->method != M_GET && r->method != M_HEAD;
        return *answered ? respond_text(r, c, 405, "Method Not Allowed", "Allow", ALLOW_ROUTE) : MHD_YES;
    }
    if (r->notify) { /* design note 12: ldp_notify answers all, with no token */
        const char *length = header(c, "Content-Length");
        *answered = length && strtoull(length, NULL, 10) > LDP_NOTIFY_MAX_REQUEST;
        return *answered ? respond_text(r, c, 413, "Content Too Large", NULL, NULL) : MHD_YES;
    }
    if (!r->path) {
        buf text = {0};
        buf_printf(&text, "Bad Request: %s", r->path_problem);
        enum MHD_Result result = respond_text(r, c, 400, buf_cstr(&text), NULL, NULL);
        buf_free(&text);
        return result;
    }
    if (r->method == M_OTHER)
        return respond_text(r, c, 405, "Method Not Allowed", "Allow", allow_for(r->path));
    bool write = has_body(r->method) || r->method == M_DELETE;
    if (write && !authorized(s, c))
        return respond_text(r, c, 401, "Unauthorized: writes need a bearer token", "WWW-Authenticate",
                            "Bearer realm=\"ldgsm\"");
    const char *length = header(c, "Content-Length");
    if (has_body(r->method) && length && strtoull(length, NULL, 10) > s->config.max_body)
        return respond_text(r, c, 413, "Content Too Large", NULL, NULL);
    enum MHD_Result result = MHD_YES;
    if (write && !take_idempotency_key(c, r, &result))
        return result;
    *answered = false;
    return MHD_YES;
}

static enum MHD_Result execute(ldp_server *s, struct MHD_Connection *c, request *r) {
    if (r->preflight)
        return respond_preflight(r, c);
    if (r->route)
        return handle_route(s, c, r);
    if (r->notify)
        return handle_notify(s, c, r);
    if (r->metrics)
        return handle_metrics(s, c, r);
    switch (r->method) {
    case M_GET:
    case M_HEAD: return handle_get(s, c, r);
    case M_OPTIONS: return handle_options(s, c, r);
    case M_PUT: return handle_put(s, c, r);
    case M_POST: return handle_post(s, c, r);
    case M_DELETE: return handle_delete(s, c, r);
    case M_PATCH: return handle_patch(s, c, r);
    default: return respond_text(r, c, 405, "Method Not Allowed", "Allow", allow_for(r->path));
    }
}

/* Design note 4. */
static enum MHD_Result dispatch(ldp_server *s, struct MHD_Connection *c, request *r) {
    if (!r->idempotency_key)
        return execute(s, c, r);
    uint8_t fingerprint[LDP_IDEM_FINGERPRINT_SIZE];
    ldp_idem_fingerprint(r->method_name, r->path, header(c, "Content-Type"), r->body.data, r->body.len,
                         fingerprint);
    ldp_idem_answer stored = {0};
    enum ldp_idem_verdict verdict = ldp_idem_begin(s->idempotency, r->idempotency_key, fingerprint, &r->reserved,
                                                   &stored);
    if (verdict == LDP_IDEM_EXECUTE) {
        r->idempotency_outcome = "executed";
        return execute(s, c, r);
    }
    if (verdict == LDP_IDEM_REPLAY) {
        r->idempotency_outcome = "replayed";
        enum MHD_Result result = respond_replayed(r, c, &stored);
        ldp_idem_answer_clear(&stored);
        return result;
    }
    if (verdict == LDP_IDEM_MISMATCH) {
        r->idempotency_outcome = "mismatch";
        return respond_text(r, c, 422,
                            "Unprocessable Content: this Idempotency-Key was used for another request (its method, "
                            "path, Content-Type or body differ); send a new request under a new key",
                            NULL, NULL);
    }
    r->idempotency_outcome = "in-flight";
    return respond_text(r, c, 409,
                        "Conflict: the request with this Idempotency-Key is still being executed; send it again "
                        "later to get its answer",
                        "Retry-After", "1");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **request_state) {
    (void)version;
    ldp_server *s = cls;
    request *r = *request_state;
    if (!r) {
        /* libmicrohttpd closes the connection after a response queued in this first call, so only
         * refusals (which should not read a body anyway) answer here; the rest waits for the next. */
        ldp_guard_head_done(c);
        r = request_new(s, url, method);
        *request_state = r;
        bool answered;
        enum MHD_Result result = answer_early(s, c, r, &answered);
        if (answered)
            ldp_guard_answering(c);
        return answered ? result : MHD_YES;
    }
    if (*upload_data_size) {
        ldp_guard_body(c, *upload_data_size);
        if (r->body.len + *upload_data_size > (r->notify ? LDP_NOTIFY_MAX_REQUEST : s->config.max_body)) {
            r->body_too_large = true;
            buf_free(&r->body);
        } else if (!r->body_too_large) {
            buf_append(&r->body, upload_data, *upload_data_size);
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    ldp_guard_answering(c);
    if (r->body_too_large)
        return respond_text(r, c, 413, "Content Too Large", NULL, NULL);
    return dispatch(s, c, r);
}

/* Design note 3's Idempotency-Key field (empty without a key): the key as an sf-string, the outcome. */
static void describe_idempotency(const request *r, char *out, size_t size) {
    out[0] = '\0';
    if (!r->idempotency_outcome)
        return;
    if (!r->idempotency_key) {
        snprintf(out, size, " idempotency-key=%s", r->idempotency_outcome);
        return;
    }
    size_t n = (size_t)snprintf(out, size, " idempotency-key=\"");
    for (const char *p = r->idempotency_key; *p && n + 2 < size; p++) {
        if (*p == '"' || *p == '\\')
            out[n++] = '\\';
        out[n++] = *p;
    }
    snprintf(out + n, size - n, "\" %s", r->idempotency_outcome);
}

/* Design note 3. */
static void on_completed(void *cls, struct MHD_Connection *c, void **request_state,
                         enum MHD_RequestTerminationCode termination) {
    ldp_server *s = cls;
    ldp_guard_request_done(c);
    request *r = *request_state;
    if (!r)
        return;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    long long micros = (long long)(end.tv_sec - r->start.tv_sec) * 1000000 + (end.tv_nsec - r->start.tv_nsec) / 1000;
    char path[512];
    size_t n = 0;
    for (const char *p = r->raw_path; *p && n < sizeof path - 1; p++)
        path[n++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
    path[n] = '\0';
    char idempotency[2 * LDP_IDEM_KEY_MAX + 64];
    describe_idempotency(r, idempotency, sizeof idempotency);
    bool aborted = termination != MHD_REQUEST_TERMINATED_COMPLETED_OK;
    ldp_metrics_request(&s->metrics, r->method, r->status, r->body.len, r->bytes_sent);
    char line[sizeof path + sizeof idempotency + 128];
    snprintf(line, sizeof line, "%s %s %d %zu %lldus%s%s", r->method_name, path, r->status, r->bytes_sent, micros,
             aborted ? " (aborted)" : "", idempotency);
    if (s->config.access_log && s->config.access_log_json) {
        const log_field fields[] = {LOG_TEXT("method", r->method_name), LOG_TEXT("path", path),
                                    LOG_NUMBER("status", r->status), LOG_NUMBER("bytes", r->bytes_sent),
                                    LOG_NUMBER("us", micros), LOG_NUMBER("aborted", aborted),
                                    LOG_TEXT("idempotency", r->idempotency_outcome),
                                    LOG_TEXT("idempotency_key", r->idempotency_key)};
        log_json_write(&(log_record){LOG_INFO, "request", NULL, line, fields,
                                     sizeof fields / sizeof *fields - !r->idempotency_outcome * 2},
                       s->config.access_log);
    } else if (s->config.access_log) {
        fprintf(s->config.access_log, "%s\n", line);
    }
    buf_free(&r->body);
    free(r->idempotency_key);
    free(r->raw_path);
    free(r->path);
    free(r);
    *request_state = NULL;
}

/* Every path is taken as the client sent it: ldp_path_decode does the unescaping and the checks. */
static size_t keep_escaped(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls;
    (void)c;
    return strlen(s);
}

static void on_mhd_error(void *cls, const char *fmt, va_list args) {
    ldp_server *s = cls;
    char message[1024];
    vsnprintf(message, sizeof message, fmt, args);
    size_t len = strlen(message);
    while (len && message[len - 1] == '\n')
        message[--len] = '\0';
    log_msg(s->config.log, LOG_WARN, "libmicrohttpd: %s", message);
}

/* ---------------------------------------------------------------- lifecycle */

/* Design note 6: what a write must satisfy here, beyond what LDP and HTTP say. */
static const char constraints_text[] =
    "Constraints of this LDP server (ldgsm serve) on writes (PUT, POST, PATCH, DELETE)\n"
    "\n"
    "Resources: a path ending in '/' is a Basic Container, any other path an RDF source; a Link type\n"
    "that does not match the path, or asks for a Direct or Indirect Container or a non-RDF source, is\n"
    "refused (400). Path segments beginning with '.' belong to the server (400).\n"
    "Bodies: text/turtle, application/n-triples or application/rdf+xml (415 otherwise), UTF-8 without\n"
    "NUL, parsing without error (400, with the line); at most the configured --max-body bytes (413).\n"
    "PATCH takes an N3 Patch (text/n3; 415 otherwise).\n"
    "Containers: their ldp:contains triples are the server's; a body stating them is refused (409).\n"
    "A container is deleted only when empty (409); the root container is never deleted (405).\n"
    "A resource and a container may not share a name, nor a resource stand where a container of a\n"
    "path would be (409). POST is allowed on containers only (405).\n"
    "With --require-conditional, changing an existing resource needs If-Match or If-None-Match (428).\n"
    "An Idempotency-Key is 1 to 255 printable characters, one per request (400).\n";

static void serve_constraints(void *user, const ldp_store_view *view, const char *base_url, const char *accept,
                              ldp_route_answer *answer) {
    (void)user;
    (void)view;
    (void)base_url;
    (void)accept;
    buf_puts(&answer->body, constraints_text);
    ldp_route_answer_header(answer, "Content-Type", "text/plain; charset=utf-8");
}

/* Design note 10: the storage description in every served media type, from its Turtle. Returns 0, or -1
 * with message. */
static int describe_storage(ldp_server *s, char *message, size_t size) {
    buf *turtle = &s->storage_description[LDP_MEDIA_TURTLE];
    buf_printf(turtle,
               "@prefix notify: <" LDP_NOTIFY_NS "> .\n"
               "@prefix pim: <http://www.w3.org/ns/pim/space#> .\n"
               "@prefix ldp: <http://www.w3.org/ns/ldp#> .\n"
               "@prefix solid: <http://www.w3.org/ns/solid/terms#> .\n"
               "@prefix hydra: <http://www.w3.org/ns/hydra/core#> .\n"
               "\n"
               "<%s/> a pim:Storage ;\n"
               "    ldp:constrainedBy <%s" LDP_SERVER_CONSTRAINTS_PATH "> ;\n"
               "    hydra:supportedOperation [ a hydra:Operation ; hydra:method \"PATCH\" ;\n"
               "                               hydra:expects solid:InsertDeletePatch ] .\n",
               s->base_url, s->base_url);
    if (s->notify) {
        buf root = {0};
        buf_printf(&root, "%s/", s->base_url);
        ldp_notify_describe(s->notify, buf_cstr(&root), turtle);
        buf_free(&root);
    }
    buf uri = {0};
    buf_printf(&uri, "%s" LDP_SERVER_STORAGE_DESCRIPTION_PATH, s->base_url);
    int rc = 0;
    for (int media = 0; media < LDP_MEDIA_COUNT && rc == 0; media++)
        if (media != LDP_MEDIA_TURTLE)
            rc = ldp_rdf_convert(turtle->data, turtle->len, buf_cstr(&uri), (enum ldp_media)media,
                                 &s->storage_description[media], message, size) == 0 ? 0 : -1;
    buf_free(&uri);
    return rc;
}

static void serve_storage_description(void *user, const ldp_store_view *view, const char *base_url,
                                      const char *accept, ldp_route_answer *answer) {
    const ldp_server *s = user;
    (void)view;
    (void)base_url;
    ldp_route_answer_header(answer, "Vary", "Accept, Origin");
    int media = ldp_media_negotiate(accept);
    if (media < 0) {
        answer->status = 406;
        buf_puts(&answer->body, NOT_ACCEPTABLE "\n");
        ldp_route_answer_header(answer, "Content-Type", "text/plain; charset=utf-8");
        return;
    }
    const buf *text = &s->storage_description[media];
    buf_append(&answer->body, text->data, text->len);
    ldp_route_answer_header(answer, "Content-Type", ldp_media_type((enum ldp_media)media));
}

ldp_server *ldp_server_bind(const ldp_server_config *config, char *message, size_t size) {
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *found = NULL;
    char port[16];
    snprintf(port, sizeof port, "%u", config->port);
    int rc = getaddrinfo(config->host, port, &hints, &found);
    if (rc != 0) {
        snprintf(message, size, "cannot resolve host %s: %s", config->host, gai_strerror(rc));
        return NULL;
    }
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int on = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0 ||
        bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, 1024) != 0) {
        snprintf(message, size, "cannot listen on %s port %u: %s", config->host, config->port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(found);
        return NULL;
    }
    struct sockaddr_storage bound;
    socklen_t bound_len = sizeof bound;
    getsockname(fd, (struct sockaddr *)&bound, &bound_len);
    unsigned bound_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                             : ((struct sockaddr_in *)&bound)->sin_port);
    bool v6 = found->ai_family == AF_INET6;
    freeaddrinfo(found);
    ldp_server *s = xcalloc(1, sizeof *s);
    s->config = *config;
    s->listen_fd = fd;
    snprintf(s->base_url, sizeof s->base_url, v6 && strchr(config->host, ':') ? "http://[%s]:%u" : "http://%s:%u",
             config->host, bound_port);
    ldp_server_add_route(s, LDP_SERVER_CONSTRAINTS_PATH, serve_constraints, NULL);
    ldp_server_add_route(s, LDP_SERVER_STORAGE_DESCRIPTION_PATH, serve_storage_description, s);
    if (!config->no_notifications) {
        /* Streams hold connections: by default a quarter of the server's, and of a client's. */
        unsigned connections = config->max_connections ? config->max_connections : LDP_SERVER_DEFAULT_MAX_CONNECTIONS;
        unsigned per_client = config->max_connections_per_client ? config->max_connections_per_client
                                                                 : LDP_SERVER_DEFAULT_MAX_CONNECTIONS_PER_CLIENT;
        ldp_notify_config notify = {
            .base_url = s->base_url,
            .max_channels = config->max_channels,
            .max_channels_per_client = config->max_channels_per_client,
            .max_webhooks = config->max_webhook_channels,
            .max_webhooks_per_client = config->max_webhook_channels_per_client,
            .max_streams = config->max_streams ? config->max_streams : (connections + 3) / 4,
            .max_streams_per_client =
                config->max_streams_per_client ? config->max_streams_per_client : (per_client + 3) / 4,
            .lifetime = config->channel_lifetime,
            .connect_timeout = config->channel_connect_timeout,
            .max_queued = config->channel_max_queued,
            .log = config->log,
        };
        s->notify = ldp_notify_new(&notify);
        if (!(s->websocket = ldp_websocket_bind(config->host, config->notifications_port, s->notify, config->log,
                                                message, size))) {
            ldp_server_free(s);
            return NULL;
        }
    }
    if (describe_storage(s, message, size) != 0) {
        ldp_server_free(s);
        return NULL;
    }
    return s;
}

const char *ldp_server_base_url(const ldp_server *s) { return s->base_url; }

void ldp_server_hook_store(const ldp_server *s, ldp_store_config *config) {
    config->on_change = s->notify ? ldp_notify_changed : NULL;
    config->on_change_user = s->notify;
}

const char *ldp_server_notifications_base(const ldp_server *s) {
    return s->websocket ? ldp_websocket_base(s->websocket) : NULL;
}

int ldp_server_add_route(ldp_server *s, const char *path, ldp_route_fn fn, void *user) {
    if (s->route_count == LDP_SERVER_ROUTES_MAX || path[0] != '/' || !strstr(path, "/."))
        return -1;
    s->routes[s->route_count++] = (route){xstrndup(path, strlen(path)), fn, user};
    return 0;
}

void ldp_server_add_metrics(ldp_server *s, ldp_metrics_fn fn, void *user) {
    s->more_metrics = fn;
    s->more_metrics_user = user;
}

int ldp_server_start(ldp_server *s, ldp_store *store, char *message, size_t size) {
    s->store = store;
    ldp_idem_config idempotency = {ldp_store_data_dir(store), (int64_t)s->config.idempotency_ttl,
                                   s->config.idempotency_max_keys, s->config.log, NULL};
    if (!(s->idempotency = ldp_idem_open(&idempotency, message, size)))
        return -1;
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME; /* streams */
    unsigned threads = s->config.threads > 1 ? s->config.threads : 1;
    unsigned idle_timeout = s->config.idle_timeout ? s->config.idle_timeout : LDP_SERVER_DEFAULT_IDLE_TIMEOUT;
    unsigned max_connections =
        s->config.max_connections ? s->config.max_connections : LDP_SERVER_DEFAULT_MAX_CONNECTIONS;
    unsigned per_client = s->config.max_connections_per_client ? s->config.max_connections_per_client
                                                               : LDP_SERVER_DEFAULT_MAX_CONNECTIONS_PER_CLIENT;
    /* libmicrohttpd shares the limit out among its threads, each needing at least one. */
    if (max_connections < threads)
        max_connections = threads;
    ldp_guard_config guard = {
        s->config.head_timeout ? s->config.head_timeout : LDP_SERVER_DEFAULT_HEAD_TIMEOUT,
        s->config.body_min_rate ? s->config.body_min_rate : LDP_SERVER_DEFAULT_BODY_MIN_RATE,
        s->config.body_grace ? s->config.body_grace : LDP_SERVER_DEFAULT_BODY_GRACE, max_connections,
        s->config.log};
    if (!(s->guard = ldp_guard_new(&guard, message, size)))
        return -1;
    if (s->notify) { /* before the first request: a subscription's state is read from the store */
        ldp_notify_set_store(s->notify, store);
        ldp_streaming_init(s->notify);
        if (!(s->webhook = ldp_webhook_start(s->notify, s->config.log, message, size)))
            return -1;
    }
    s->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_error, s, MHD_OPTION_LISTEN_SOCKET,
        s->listen_fd, MHD_OPTION_THREAD_POOL_SIZE, s->config.threads > 1 ? s->config.threads : 0,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_NOTIFY_CONNECTION, ldp_guard_notify, s->guard,
        MHD_OPTION_UNESCAPE_CALLBACK, keep_escaped, s,
        MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout, MHD_OPTION_CONNECTION_LIMIT, max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
        MHD_OPTION_END);
    if (!s->daemon) {
        snprintf(message, size, "cannot start the HTTP server on %s", s->base_url);
        return -1;
    }
    if (s->notify && ldp_websocket_start(s->websocket, message, size) != 0)
        return -1;
    return 0;
}

void ldp_server_free(ldp_server *s) {
    if (!s)
        return;
    if (s->daemon && s->notify)
        ldp_notify_end_streams(s->notify); /* none may stay suspended (ldp_streaming.h) */
    if (s->daemon)
        MHD_stop_daemon(s->daemon);
    else if (s->listen_fd >= 0)
        close(s->listen_fd);
    ldp_websocket_free(s->websocket); /* after the daemon: no request queues a notification now */
    ldp_webhook_free(s->webhook);
    ldp_notify_free(s->notify);
    ldp_guard_free(s->guard); /* after the daemon: every connection closed */
    ldp_idem_free(s->idempotency);
    for (size_t i = 0; i < s->route_count; i++)
        free(s->routes[i].path);
    for (int media = 0; media < LDP_MEDIA_COUNT; media++)
        buf_free(&s->storage_description[media]);
    free(s);
}
