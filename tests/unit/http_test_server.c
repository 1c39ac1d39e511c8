/* http_test_server.c: the in-process test server of http_test_server.h. */
#include "http_test_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "rdf/buf.h"

enum { MAX_RECORDED_HEADERS = 32, HOLD_LIMIT_S = 2 };

typedef struct recorded_request {
    char *method, *url;
    char *header_names[MAX_RECORDED_HEADERS], *header_values[MAX_RECORDED_HEADERS];
    size_t header_count;
    buf body;
} recorded_request;

typedef struct test_route {
    char *method; /* NULL: any */
    char *path;
    unsigned status; /* 0: close without answering */
    char *content_type, *body, *etag;
    char *location; /* a Location header (test_server_route_location), or NULL */
} test_route;

struct test_server {
    struct MHD_Daemon *daemon;
    unsigned port;
    char base[64];
    pthread_mutex_t lock;
    pthread_cond_t changed; /* gather arrivals, or stopping */
    bool stopping;
    unsigned connections, gather_arrivals;
    recorded_request **requests; /* each allocated once, so a record never moves */
    size_t request_count, request_cap;
    test_route *routes;
    size_t route_count;
};

/* Per request: the record it fills (index into requests). */
typedef struct request_state {
    size_t index;
} request_state;

typedef struct stream_state {
    test_server *server;
    uint64_t total, sent;
    bool stall; /* hold after total bytes instead of ending */
} stream_state;

/* Waits for changed until done(server, arg) or stopping or HOLD_LIMIT_S; with the lock held. */
static void hold(test_server *s, bool (*done)(test_server *, unsigned), unsigned arg) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += HOLD_LIMIT_S;
    while (!s->stopping && !(done && done(s, arg)))
        if (pthread_cond_timedwait(&s->changed, &s->lock, &until) == ETIMEDOUT)
            break;
}

static bool all_gathered(test_server *s, unsigned n) { return s->gather_arrivals >= n; }

static unsigned query_number(struct MHD_Connection *c, const char *name, unsigned fallback) {
    const char *value = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
    return value ? (unsigned)strtoul(value, NULL, 10) : fallback;
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned status, const char *body, size_t len,
                               const char *const *headers) {
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    for (; headers && headers[0]; headers += 2)
        MHD_add_response_header(r, headers[0], headers[1]);
    enum MHD_Result result = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return result;
}

static enum MHD_Result respond_text(struct MHD_Connection *c, unsigned status, const char *text,
                                    const char *const *headers) {
    return respond(c, status, text, strlen(text), headers);
}

static ssize_t stream_x(void *user, uint64_t pos, char *out, size_t max) {
    (void)pos;
    stream_state *st = user;
    if (st->sent == st->total) {
        if (!st->stall)
            return MHD_CONTENT_READER_END_OF_STREAM;
        pthread_mutex_lock(&st->server->lock);
        hold(st->server, NULL, 0);
        pthread_mutex_unlock(&st->server->lock);
        return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = st->total - st->sent < max ? (size_t)(st->total - st->sent) : max;
    memset(out, 'x', n);
    st->sent += n;
    return (ssize_t)n;
}

static enum MHD_Result respond_stream(test_server *s, struct MHD_Connection *c, uint64_t total, bool stall) {
    stream_state *st = malloc(sizeof *st);
    *st = (stream_state){.server = s, .total = total, .stall = stall};
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, stream_x, st, free);
    enum MHD_Result result = MHD_queue_response(c, 200, r);
    MHD_destroy_response(r);
    return result;
}

static enum MHD_Result respond_big(struct MHD_Connection *c, size_t n) {
    char *body = malloc(n ? n : 1);
    memset(body, 'x', n);
    struct MHD_Response *r = MHD_create_response_from_buffer(n, body, MHD_RESPMEM_MUST_FREE);
    enum MHD_Result result = MHD_queue_response(c, 200, r);
    MHD_destroy_response(r);
    return result;
}

static bool same_or_null(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static char *copy_or_null(const char *text) { return text ? xstrndup(text, strlen(text)) : NULL; }

/* The route answering method and path (the exact method first), or NULL; with the lock held. */
static const test_route *route_for(test_server *s, const char *method, const char *path) {
    const test_route *any = NULL;
    for (size_t i = 0; i < s->route_count; i++) {
        const test_route *r = &s->routes[i];
        if (strcmp(r->path, path) != 0)
            continue;
        if (r->method && strcmp(r->method, method) == 0)
            return r;
        if (!r->method)
            any = r;
    }
    return any;
}

/* Answers from a route; MHD_NO (the connection closes) for a route of status 0. With the lock held. */
static enum MHD_Result respond_route(struct MHD_Connection *c, const test_route *r) {
    if (r->status == 0)
        return MHD_NO;
    const char *headers[7] = {NULL};
    size_t h = 0;
    if (r->content_type) {
        headers[h++] = "Content-Type";
        headers[h++] = r->content_type;
    }
    if (r->etag) {
        headers[h++] = "ETag";
        headers[h++] = r->etag;
    }
    if (r->location) {
        headers[h++] = "Location";
        headers[h++] = r->location;
    }
    return respond_text(c, r->status, r->body ? r->body : "", headers);
}

static enum MHD_Result answer(test_server *s, struct MHD_Connection *c, const char *path, recorded_request *rec) {
    pthread_mutex_lock(&s->lock);
    const test_route *route = route_for(s, rec->method, path);
    if (route) {
        enum MHD_Result result = respond_route(c, route);
        pthread_mutex_unlock(&s->lock);
        return result;
    }
    pthread_mutex_unlock(&s->lock);
    if (strcmp(path, "/ok") == 0) {
        static const char *const headers[] = {
            "Content-Type", "text/plain; charset=utf-8", "ETag", "\"v1\"",
            "Last-Modified", "Tue, 15 Nov 1994 08:12:31 GMT",
            "Link", "<http://www.w3.org/ns/ldp#Resource>; rel=\"type\"",
            "Link", "</meta>; rel=\"describedby\"", NULL};
        return respond_text(c, 200, "hello", headers);
    }
    if (strcmp(path, "/weak") == 0)
        return respond_text(c, 200, "weak", (const char *const[]){"ETag", "W/\"w1\"", NULL});
    if (strcmp(path, "/unquoted") == 0)
        return respond_text(c, 200, "unquoted", (const char *const[]){"ETag", "v1", NULL});
    if (strcmp(path, "/created") == 0)
        return respond_text(c, 201, "", (const char *const[]){"Location", "/things/1", NULL});
    if (strcmp(path, "/status") == 0) {
        unsigned code = query_number(c, "code", 200);
        char text[32];
        snprintf(text, sizeof text, "status %u", code);
        return respond_text(c, code, text, NULL);
    }
    if (strcmp(path, "/echo") == 0) {
        const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
        const char *const headers[] = {"Content-Type", type ? type : "application/octet-stream", NULL};
        return respond(c, 200, rec->body.data ? rec->body.data : "", rec->body.len, headers);
    }
    if (strcmp(path, "/redirect") == 0) {
        unsigned n = query_number(c, "n", 0);
        if (n == 0)
            return respond_text(c, 200, "landed", NULL);
        char location[48];
        snprintf(location, sizeof location, "/redirect?n=%u", n - 1);
        return respond_text(c, 302, "", (const char *const[]){"Location", location, NULL});
    }
    if (strcmp(path, "/to") == 0) {
        const char *url = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "url");
        return respond_text(c, query_number(c, "code", 302), "", (const char *const[]){"Location", url, NULL});
    }
    if (strcmp(path, "/gather") == 0) {
        unsigned n = query_number(c, "n", 1);
        pthread_mutex_lock(&s->lock);
        s->gather_arrivals++;
        pthread_cond_broadcast(&s->changed);
        hold(s, all_gathered, n);
        bool together = all_gathered(s, n);
        pthread_mutex_unlock(&s->lock);
        return respond_text(c, 200, together ? "together" : "alone", NULL);
    }
    if (strcmp(path, "/slow") == 0) {
        pthread_mutex_lock(&s->lock);
        hold(s, NULL, 0);
        pthread_mutex_unlock(&s->lock);
        return respond_text(c, 200, "late", NULL);
    }
    if (strcmp(path, "/reset") == 0)
        return MHD_NO;
    if (strcmp(path, "/big") == 0) {
        unsigned n = query_number(c, "n", 0);
        return query_number(c, "chunked", 0) ? respond_stream(s, c, n, false) : respond_big(c, n);
    }
    if (strcmp(path, "/stall") == 0)
        return respond_stream(s, c, query_number(c, "n", 0), true);
    return respond_text(c, 404, "not found", NULL);
}

static enum MHD_Result record_header(void *user, enum MHD_ValueKind kind, const char *name, const char *value) {
    (void)kind;
    recorded_request *rec = user;
    if (rec->header_count < MAX_RECORDED_HEADERS) {
        rec->header_names[rec->header_count] = xstrndup(name, strlen(name));
        rec->header_values[rec->header_count] = xstrndup(value ? value : "", value ? strlen(value) : 0);
        rec->header_count++;
    }
    return MHD_YES;
}

static enum MHD_Result on_request(void *user, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)version;
    test_server *s = user;
    request_state *rs = *state;
    if (!rs) {
        rs = malloc(sizeof *rs);
        pthread_mutex_lock(&s->lock);
        if (s->request_count == s->request_cap) {
            s->request_cap = s->request_cap ? 2 * s->request_cap : 16;
            s->requests = xrealloc(s->requests, s->request_cap * sizeof *s->requests);
        }
        rs->index = s->request_count++;
        recorded_request *rec = xcalloc(1, sizeof *rec);
        s->requests[rs->index] = rec;
        rec->method = xstrndup(method, strlen(method));
        rec->url = xstrndup(url, strlen(url));
        MHD_get_connection_values(c, MHD_HEADER_KIND, record_header, rec);
        const test_route *route = route_for(s, method, url);
        bool close_now = route ? route->status == 0 : strcmp(url, "/reset") == 0;
        pthread_mutex_unlock(&s->lock);
        *state = rs;
        return close_now ? MHD_NO : MHD_YES;
    }
    pthread_mutex_lock(&s->lock);
    recorded_request *rec = s->requests[rs->index];
    pthread_mutex_unlock(&s->lock);
    if (*upload_size > 0) {
        buf_append(&rec->body, upload, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    return answer(s, c, url, rec);
}

static void on_completed(void *user, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode why) {
    (void)user, (void)c, (void)why;
    free(*state);
    *state = NULL;
}

static void on_connection(void *user, struct MHD_Connection *c, void **socket_state,
                          enum MHD_ConnectionNotificationCode what) {
    (void)c, (void)socket_state;
    test_server *s = user;
    if (what != MHD_CONNECTION_NOTIFY_STARTED)
        return;
    pthread_mutex_lock(&s->lock);
    s->connections++;
    pthread_mutex_unlock(&s->lock);
}

test_server *test_server_start(void) {
    test_server *s = xcalloc(1, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL,
                                 on_request, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                 MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_NOTIFY_CONNECTION,
                                 on_connection, s, MHD_OPTION_END);
    const union MHD_DaemonInfo *info = s->daemon ? MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT) : NULL;
    if (!info || info->port == 0) {
        fputs("http_test_server: cannot start libmicrohttpd on 127.0.0.1\n", stderr);
        abort();
    }
    s->port = info->port;
    snprintf(s->base, sizeof s->base, "http://127.0.0.1:%u", s->port);
    return s;
}

void test_server_stop(test_server *s) {
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    MHD_stop_daemon(s->daemon);
    for (size_t i = 0; i < s->request_count; i++) {
        recorded_request *rec = s->requests[i];
        free(rec->method);
        free(rec->url);
        for (size_t h = 0; h < rec->header_count; h++) {
            free(rec->header_names[h]);
            free(rec->header_values[h]);
        }
        buf_free(&rec->body);
        free(rec);
    }
    free(s->requests);
    for (size_t i = 0; i < s->route_count; i++) {
        test_route *r = &s->routes[i];
        free(r->method);
        free(r->path);
        free(r->content_type);
        free(r->body);
        free(r->etag);
        free(r->location);
    }
    free(s->routes);
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

const char *test_server_base(const test_server *s) { return s->base; }
unsigned test_server_port(const test_server *s) { return s->port; }

unsigned test_server_connections(test_server *s) {
    pthread_mutex_lock(&s->lock);
    unsigned n = s->connections;
    pthread_mutex_unlock(&s->lock);
    return n;
}

size_t test_server_request_count(test_server *s) {
    pthread_mutex_lock(&s->lock);
    size_t n = s->request_count;
    pthread_mutex_unlock(&s->lock);
    return n;
}

/* The record, or NULL past the end. A record is complete once its response has been received. */
static recorded_request *record_at(test_server *s, size_t index) {
    pthread_mutex_lock(&s->lock);
    recorded_request *rec = index < s->request_count ? s->requests[index] : NULL;
    pthread_mutex_unlock(&s->lock);
    return rec;
}

const char *test_server_method(test_server *s, size_t index) {
    recorded_request *rec = record_at(s, index);
    return rec ? rec->method : NULL;
}

const char *test_server_url(test_server *s, size_t index) {
    recorded_request *rec = record_at(s, index);
    return rec ? rec->url : NULL;
}

const char *test_server_header(test_server *s, size_t index, const char *name) {
    recorded_request *rec = record_at(s, index);
    for (size_t h = 0; rec && h < rec->header_count; h++)
        if (strcasecmp(rec->header_names[h], name) == 0)
            return rec->header_values[h];
    return NULL;
}

size_t test_server_header_count(test_server *s, size_t index, const char *name) {
    recorded_request *rec = record_at(s, index);
    size_t count = 0;
    for (size_t h = 0; rec && h < rec->header_count; h++)
        count += strcasecmp(rec->header_names[h], name) == 0;
    return count;
}

const char *test_server_body(test_server *s, size_t index, size_t *len) {
    recorded_request *rec = record_at(s, index);
    *len = rec ? rec->body.len : 0;
    return rec ? rec->body.data : NULL;
}

void test_server_route(test_server *s, const char *method, const char *path, unsigned status,
                       const char *content_type, const char *body, const char *etag) {
    pthread_mutex_lock(&s->lock);
    test_route *r = NULL;
    for (size_t i = 0; i < s->route_count && !r; i++)
        if (same_or_null(s->routes[i].method, method) && strcmp(s->routes[i].path, path) == 0)
            r = &s->routes[i];
    if (r) {
        free(r->content_type);
        free(r->body);
        free(r->etag);
        free(r->location);
        r->location = NULL;
    } else {
        s->routes = xrealloc(s->routes, (s->route_count + 1) * sizeof *s->routes);
        r = &s->routes[s->route_count++];
        r->method = copy_or_null(method);
        r->path = copy_or_null(path);
        r->location = NULL;
    }
    r->status = status;
    r->content_type = copy_or_null(content_type);
    r->body = copy_or_null(body);
    r->etag = copy_or_null(etag);
    pthread_mutex_unlock(&s->lock);
}

void test_server_route_location(test_server *s, const char *method, const char *path, const char *location) {
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->route_count; i++)
        if (same_or_null(s->routes[i].method, method) && strcmp(s->routes[i].path, path) == 0) {
            free(s->routes[i].location);
            s->routes[i].location = copy_or_null(location);
        }
    pthread_mutex_unlock(&s->lock);
}

long test_server_find(test_server *s, const char *method, const char *path, size_t from) {
    pthread_mutex_lock(&s->lock);
    long found = -1;
    for (size_t i = from; i < s->request_count && found < 0; i++)
        if (strcmp(s->requests[i]->method, method) == 0 && strcmp(s->requests[i]->url, path) == 0)
            found = (long)i;
    pthread_mutex_unlock(&s->lock);
    return found;
}

size_t test_server_count(test_server *s, const char *method, const char *path) {
    size_t count = 0;
    for (long i = test_server_find(s, method, path, 0); i >= 0; i = test_server_find(s, method, path, (size_t)i + 1))
        count++;
    return count;
}
