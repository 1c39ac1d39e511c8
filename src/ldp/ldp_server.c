/* ldp_server.c: libmicrohttpd request handling for the LDP server: request state, the methods
 * (GET/HEAD, OPTIONS, PUT, POST, DELETE) built on ldp_store, cached responses, writes made once under
 * an Idempotency-Key (ldp_idempotency), the access log. */
#include "ldp/ldp_server.h"

#include <arpa/inet.h>
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

#include "ldp/ldp_idempotency.h"
#include "ldp/ldp_link.h"
#include "ldp/ldp_path.h"

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
    ldp_rdf *rdf;
    ldp_idem *idempotency;
};

enum method { M_GET, M_HEAD, M_OPTIONS, M_PUT, M_POST, M_DELETE, M_OTHER };

/* One request's state, from its first call to the access-log line. */
typedef struct request {
    ldp_server *server;
    struct timespec start;
    enum method method;
    char method_name[16];
    char *raw_path;
    char *path;             /* decoded; NULL when the path is bad */
    const char *path_problem;
    const route *route;     /* the extra route the path names (design note 5), or NULL */
    buf body;
    bool body_too_large;
    int status;
    size_t bytes_sent;
    char *idempotency_key;           /* a write's parsed Idempotency-Key; NULL when none */
    ldp_idem_record *reserved;       /* the key's reservation while this request executes */
    const char *idempotency_outcome; /* for the access log (design note 3); NULL when no key */
} request;

#define ALLOW_RESOURCE "GET, HEAD, OPTIONS, PUT, DELETE"
#define ALLOW_CONTAINER "GET, HEAD, OPTIONS, POST, PUT, DELETE"
#define ALLOW_ROOT "GET, HEAD, OPTIONS, POST, PUT"
#define ALLOW_ROUTE "GET, HEAD"

/* ---------------------------------------------------------------- responses */

static enum MHD_Result queue(request *r, struct MHD_Connection *c, int status, struct MHD_Response *response,
                             size_t body_len) {
    r->status = status;
    r->bytes_sent = r->method == M_HEAD || status == 204 || status == 304 ? 0 : body_len;
    return MHD_queue_response(c, (unsigned)status, response);
}

static void add_type_headers(struct MHD_Response *response, const char *path) {
    bool container = ldp_path_is_container(path, strlen(path));
    MHD_add_response_header(response, "Link", ldp_link_types(container));
    MHD_add_response_header(response, "Allow",
                            strcmp(path, "/") == 0 ? ALLOW_ROOT : container ? ALLOW_CONTAINER : ALLOW_RESOURCE);
    if (container)
        MHD_add_response_header(response, "Accept-Post", LDP_ACCEPTED_TYPES);
    MHD_add_response_header(response, "Accept-Put", LDP_ACCEPTED_TYPES);
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
        add_type_headers(response, typed_path);
    store_answer(r, status, response, NULL, 0);
    enum MHD_Result result = queue(r, c, status, response, 0);
    MHD_destroy_response(response);
    return result;
}

static void release_bytes(void *bytes) { ldp_bytes_release(bytes); }

/* What a snapshot's variant slot holds: the ready response and its body length (for the log). */
typedef struct cached_variant {
    struct MHD_Response *response;
    size_t len;
} cached_variant;

static void free_cached_variant(void *variant) {
    cached_variant *v = variant;
    MHD_destroy_response(v->response);
    free(v);
}

ldp_variant_free_fn ldp_server_variant_free(void) { return free_cached_variant; }

/* Design note 1: the snapshot's response for media, built once. NULL when conversion fails. */
static const cached_variant *variant(ldp_server *s, ldp_doc *doc, enum ldp_media media, char *message,
                                     size_t size) {
    cached_variant *v = atomic_load(&doc->variant[media]);
    if (v)
        return v;
    ldp_bytes *bytes;
    if (media == LDP_MEDIA_TURTLE) {
        bytes = ldp_bytes_retain(doc->turtle);
    } else {
        buf out = {0};
        if (ldp_rdf_convert(s->rdf, doc->turtle->data, doc->turtle->len, doc->uri, media, &out, message, size) !=
            0) {
            buf_free(&out);
            return NULL;
        }
        bytes = ldp_bytes_new(out.data ? out.data : "", out.len);
        buf_free(&out);
    }
    v = xmalloc(sizeof *v);
    v->len = bytes->len;
    v->response = MHD_create_response_from_buffer_with_free_callback_cls(bytes->len, bytes->data, release_bytes, bytes);
    MHD_add_response_header(v->response, "Content-Type", ldp_media_type(media));
    MHD_add_response_header(v->response, "ETag", doc->etag[media]);
    MHD_add_response_header(v->response, "Vary", "Accept");
    add_type_headers(v->response, doc->path);
    return ldp_doc_install_variant(doc, media, v);
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

static enum MHD_Result handle_get(ldp_server *s, struct MHD_Connection *c, request *r) {
    ldp_doc *doc = ldp_store_get(s->store, r->path);
    if (!doc)
        return respond_text(r, c, 404, "Not Found", NULL, NULL);
    enum MHD_Result result;
    int media = ldp_media_negotiate(header(c, "Accept"));
    const char *if_match = header(c, "If-Match"), *if_none_match = header(c, "If-None-Match");
    char message[600];
    const cached_variant *v;
    if (media < 0) {
        result = respond_text(r, c, 406, "Not Acceptable: this server serves text/turtle, application/n-triples and application/rdf+xml",
                              NULL, NULL);
    } else if (if_match && !ldp_etag_is_any(if_match) && !ldp_etag_list_has(if_match, doc->etag[media])) {
        result = respond_text(r, c, 412, "Precondition Failed", NULL, NULL);
    } else if (if_none_match &&
               (ldp_etag_is_any(if_none_match) || ldp_etag_list_has(if_none_match, doc->etag[media]))) {
        result = respond_empty(r, c, 304, doc->path, doc->etag[media], NULL);
    } else if (!(v = variant(s, doc, (enum ldp_media)media, message, sizeof message))) {
        log_msg(s->config.log, LOG_ERROR, "%s: cannot serve as %s: %s", r->path, ldp_media_type(media), message);
        result = respond_text(r, c, 500, "Internal Server Error: the stored representation does not convert",
                              NULL, NULL);
    } else {
        result = queue(r, c, 200, v->response, v->len);
    }
    ldp_doc_release(doc);
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
        result = respond_text(r, c, o->status, buf_cstr(&text), o->status == 405 ? "Allow" : NULL,
                              strcmp(r->path, "/") == 0 ? ALLOW_ROOT : ALLOW_RESOURCE);
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
    ldp_outcome outcome;
    ldp_store_post(s->store, r->path, header(c, "Slug"), model == LDP_MODEL_CONTAINER, &body, &outcome);
    return respond_outcome(s, c, r, &outcome);
}

static enum MHD_Result handle_delete(ldp_server *s, struct MHD_Connection *c, request *r) {
    ldp_conditions cond = conditions_for(s, c, r->path);
    ldp_outcome outcome;
    ldp_store_delete(s->store, r->path, &cond, &outcome);
    return respond_outcome(s, c, r, &outcome);
}

/* Design note 5. */
static enum MHD_Result handle_route(ldp_server *s, struct MHD_Connection *c, request *r) {
    ldp_store_view view;
    ldp_store_view_take(s->store, &view);
    ldp_route_answer answer = {.status = 200};
    r->route->fn(r->route->user, &view, s->base_url, &answer);
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

void ldp_route_answer_header(ldp_route_answer *answer, const char *name, const char *value) {
    if (answer->header_count < LDP_ROUTE_HEADERS_MAX) {
        answer->headers[answer->header_count].name = name;
        answer->headers[answer->header_count].value = value;
        answer->header_count++;
    }
}

/* ---------------------------------------------------------------- the request cycle */

static enum method method_of(const char *name) {
    static const char *const names[] = {"GET", "HEAD", "OPTIONS", "PUT", "POST", "DELETE"};
    for (int m = 0; m < M_OTHER; m++)
        if (strcmp(name, names[m]) == 0)
            return (enum method)m;
    return M_OTHER;
}

static request *request_new(ldp_server *s, const char *url, const char *method) {
    request *r = xcalloc(1, sizeof *r);
    r->server = s;
    clock_gettime(CLOCK_MONOTONIC, &r->start);
    r->method = method_of(method);
    snprintf(r->method_name, sizeof r->method_name, "%s", method);
    r->raw_path = xstrndup(url, strnlen(url, LDP_PATH_MAX + 16));
    if (ldp_path_decode(url, &r->path, &r->path_problem) != 0)
        r->path = NULL;
    for (size_t i = 0; i < s->route_count; i++)
        if (strcmp(url, s->routes[i].path) == 0)
            r->route = &s->routes[i];
    return r;
}

static bool has_body(enum method m) { return m == M_PUT || m == M_POST; }

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
    if (r->route) {
        *answered = r->method != M_GET && r->method != M_HEAD;
        return *answered ? respond_text(r, c, 405, "Method Not Allowed", "Allow", ALLOW_ROUTE) : MHD_YES;
    }
    if (!r->path) {
        buf text = {0};
        buf_printf(&text, "Bad Request: %s", r->path_problem);
        enum MHD_Result result = respond_text(r, c, 400, buf_cstr(&text), NULL, NULL);
        buf_free(&text);
        return result;
    }
    if (r->method == M_OTHER)
        return respond_text(r, c, 405, "Method Not Allowed", "Allow", ALLOW_CONTAINER);
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
    if (r->route)
        return handle_route(s, c, r);
    switch (r->method) {
    case M_GET:
    case M_HEAD: return handle_get(s, c, r);
    case M_OPTIONS: return handle_options(s, c, r);
    case M_PUT: return handle_put(s, c, r);
    case M_POST: return handle_post(s, c, r);
    case M_DELETE: return handle_delete(s, c, r);
    default: return respond_text(r, c, 405, "Method Not Allowed", "Allow", ALLOW_CONTAINER);
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
        r = request_new(s, url, method);
        *request_state = r;
        bool answered;
        enum MHD_Result result = answer_early(s, c, r, &answered);
        return answered ? result : MHD_YES;
    }
    if (*upload_data_size) {
        if (r->body.len + *upload_data_size > s->config.max_body) {
            r->body_too_large = true;
            buf_free(&r->body);
        } else if (!r->body_too_large) {
            buf_append(&r->body, upload_data, *upload_data_size);
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
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
    const ldp_server *s = cls;
    (void)c;
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
    if (s->config.access_log)
        fprintf(s->config.access_log, "%s %s %d %zu %lldus%s%s\n", r->method_name, path, r->status, r->bytes_sent,
                micros, termination == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" : " (aborted)", idempotency);
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
    return s;
}

const char *ldp_server_base_url(const ldp_server *s) { return s->base_url; }

int ldp_server_add_route(ldp_server *s, const char *path, ldp_route_fn fn, void *user) {
    if (s->route_count == LDP_SERVER_ROUTES_MAX || path[0] != '/' || !strstr(path, "/."))
        return -1;
    s->routes[s->route_count++] = (route){xstrndup(path, strlen(path)), fn, user};
    return 0;
}

int ldp_server_start(ldp_server *s, ldp_store *store, ldp_rdf *rdf, char *message, size_t size) {
    s->store = store;
    s->rdf = rdf;
    ldp_idem_config idempotency = {ldp_store_data_dir(store), (int64_t)s->config.idempotency_ttl,
                                   s->config.idempotency_max_keys, s->config.log, NULL};
    if (!(s->idempotency = ldp_idem_open(&idempotency, message, size)))
        return -1;
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
    unsigned threads = s->config.threads > 1 ? s->config.threads : 1;
    unsigned idle_timeout = s->config.idle_timeout ? s->config.idle_timeout : LDP_SERVER_DEFAULT_IDLE_TIMEOUT;
    unsigned max_connections =
        s->config.max_connections ? s->config.max_connections : LDP_SERVER_DEFAULT_MAX_CONNECTIONS;
    unsigned per_client = s->config.max_connections_per_client ? s->config.max_connections_per_client
                                                               : LDP_SERVER_DEFAULT_MAX_CONNECTIONS_PER_CLIENT;
    /* libmicrohttpd shares the limit out among its threads, each needing at least one. */
    if (max_connections < threads)
        max_connections = threads;
    s->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_error, s, MHD_OPTION_LISTEN_SOCKET,
        s->listen_fd, MHD_OPTION_THREAD_POOL_SIZE, s->config.threads > 1 ? s->config.threads : 0,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_UNESCAPE_CALLBACK, keep_escaped, s,
        MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout, MHD_OPTION_CONNECTION_LIMIT, max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
        MHD_OPTION_END);
    if (!s->daemon) {
        snprintf(message, size, "cannot start the HTTP server on %s", s->base_url);
        return -1;
    }
    return 0;
}

void ldp_server_free(ldp_server *s) {
    if (!s)
        return;
    if (s->daemon)
        MHD_stop_daemon(s->daemon);
    else if (s->listen_fd >= 0)
        close(s->listen_fd);
    ldp_idem_free(s->idempotency);
    for (size_t i = 0; i < s->route_count; i++)
        free(s->routes[i].path);
    free(s);
}
