/* http_client.c: the client (options, origin header table, handle pool, requests going on in the
 * background) and http_run, which drives one batch through curl multi: each request is a transfer made of
 * hops, one per redirect; a hop is one libcurl transfer on a pooled easy handle, and the next hop is set up
 * here so that every hop's headers are chosen for its own origin (http_client.h, guarantee 4).
 *
 *   queued --start_transfer--> hop in libcurl --on_hop_done--> redirect? --start_hop--> hop in libcurl
 *                                                                  \--finish_transfer--> ended
 *
 * A GET the batch stops waiting for (http_request.wait_ms) moves to the client's background list with a
 * copy of its request (guarantee 7); later batches drive it on with their own, and one of their identical
 * requests claims it. */
#include "http/http_client.h"

#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "http/http_url.h"
#include "rdf/web_link.h"

typedef struct origin_header {
    char *origin, *name, *value;
} origin_header;

/* Connections per origin, counted here rather than by libcurl: a transfer libcurl queues behind
 * CURLMOPT_MAX_HOST_CONNECTIONS runs down its timeout while it waits, and libcurl 7.88 may leave it
 * queued until its next timer fires (up to the whole poll: GETs of a large batch took 1 s more). */
typedef struct origin_slots {
    char **origins;
    unsigned *busy;
    size_t count;
} origin_slots;

typedef struct transfer transfer;

struct http_client {
    http_options options;
    char *user_agent;
    CURLM *multi;
    CURL *idle[HTTP_MAX_IN_FLIGHT]; /* easy handles not in a transfer */
    size_t idle_count;
    transfer *in_flight[HTTP_MAX_IN_FLIGHT]; /* transfers in libcurl, a batch's and background ones */
    size_t in_flight_count;
    origin_slots origins;  /* of the transfers known; background ones keep theirs across batches */
    transfer **background; /* requests that outlived their batch: queued, running, or ended and unclaimed */
    size_t background_count;
    origin_header *origin_headers;
    size_t origin_header_count;
    http_auth auth; /* hop_headers NULL: none */
};

enum transfer_state { QUEUED, RUNNING, ENDED };

/* One request while it runs. */
struct transfer {
    http_client *client;
    const http_request *request; /* the caller's, or `own` once it outlives its batch */
    http_request own;             /* the copy a background transfer keeps (owned strings) */
    http_result result;           /* moved to the caller's result when its batch ends */
    enum transfer_state state;
    size_t slot;                  /* in client->origins, or SIZE_MAX for a URL without an origin */
    CURL *easy;
    char *url, *origin;  /* of the current hop */
    char *request_origin; /* of the request URL */
    const char *method;   /* of the current hop: the request's, or GET after a 303 */
    bool send_body;
    struct curl_slist *headers;
    uint64_t queued_us, started_us, deadline_us;
    /* the batch it belongs to now: its request's index there (SIZE_MAX: none, a background transfer
     * nobody claimed), how long that batch waits once it is sent, and whether it still waits */
    size_t index;
    long wait_ms;
    uint64_t wait_until_us; /* 0: until it ends */
    bool waited;
    bool in_background; /* in client->background */
    bool body_too_large;
    bool auth_sent;     /* the current hop carries the hook's credentials */
    bool auth_renewed;  /* it was answered 401 once and is sent again with renewed ones */
    bool auth_renew;    /* the next hop asks the hook to renew */
    unsigned auth_generation;
    char error[CURL_ERROR_SIZE];
};

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static char *copy_of(const char *s) { return xstrndup(s, strlen(s)); }

/* ---- options and names ---- */

http_options http_options_default(void) {
    return (http_options){
        .connect_timeout_ms = 2000,
        .total_timeout_ms = 10000,
        .max_redirects = 5,
        .max_body_bytes = 16u << 20,
        .max_host_connections = 4,
        .user_agent = "ldgsm/0.1",
    };
}

const char *http_failure_name(enum http_failure failure) {
    switch (failure) {
    case HTTP_FAIL_NONE: return "none";
    case HTTP_FAIL_CONNECT: return "connect failure";
    case HTTP_FAIL_TIMEOUT: return "timeout";
    case HTTP_FAIL_RESET: return "connection reset";
    case HTTP_FAIL_REDIRECTS: return "too many redirects";
    case HTTP_FAIL_BODY_TOO_LARGE: return "body too large";
    case HTTP_FAIL_TLS: return "TLS failure";
    case HTTP_FAIL_INVALID: return "invalid request";
    case HTTP_FAIL_STOPPED: return "not sent (stopping)";
    case HTTP_FAIL_PENDING: return "no answer yet";
    case HTTP_FAIL_OTHER: return "failure";
    }
    return "failure";
}

static enum http_failure failure_of(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
        return HTTP_FAIL_CONNECT;
    case CURLE_OPERATION_TIMEDOUT:
        return HTTP_FAIL_TIMEOUT;
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return HTTP_FAIL_RESET;
    case CURLE_TOO_MANY_REDIRECTS:
        return HTTP_FAIL_REDIRECTS;
    case CURLE_FILESIZE_EXCEEDED:
        return HTTP_FAIL_BODY_TOO_LARGE;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
        return HTTP_FAIL_TLS;
    default:
        return HTTP_FAIL_OTHER;
    }
}

/* ---- request validation ---- */

static bool is_token(const char *s) {
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (!(strchr("!#$%&'*+-.^_`|~", *s) || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z')))
            return false;
    return true;
}

/* NULL, or what is wrong with the header. */
static const char *header_problem(const char *name, const char *value) {
    if (!is_token(name))
        return "header name is not a token";
    if (!value || strpbrk(value, "\r\n"))
        return "header value is missing or holds CR or LF";
    return NULL;
}

/* NULL, or what is wrong with the request (it is then not sent). */
static const char *request_problem(const http_request *r) {
    if (!is_token(r->method))
        return "method is not a token";
    for (size_t i = 0; i < r->header_count; i++) {
        const char *problem = header_problem(r->headers[i].name, r->headers[i].value);
        if (problem)
            return problem;
    }
    return NULL;
}

/* ---- the client ---- */

http_client *http_client_new(const http_options *options) {
    http_options defaults = http_options_default();
    const http_options *o = options ? options : &defaults;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        log_msg(o->log, LOG_ERROR, "http: libcurl failed to initialize");
        return NULL;
    }
    CURLM *multi = curl_multi_init();
    if (!multi) {
        log_msg(o->log, LOG_ERROR, "http: libcurl failed to create a multi handle");
        curl_global_cleanup();
        return NULL;
    }
    http_client *c = xcalloc(1, sizeof *c);
    c->options = *o;
    c->user_agent = copy_of(o->user_agent ? o->user_agent : defaults.user_agent);
    c->options.user_agent = c->user_agent;
    c->multi = multi;
    return c;
}

static void transfer_free(transfer *t);
static void free_origins(origin_slots *o);

void http_client_free(http_client *c) {
    if (!c)
        return;
    for (size_t i = 0; i < c->background_count; i++)
        transfer_free(c->background[i]);
    free(c->background);
    free_origins(&c->origins);
    for (size_t i = 0; i < c->idle_count; i++)
        curl_easy_cleanup(c->idle[i]);
    curl_multi_cleanup(c->multi);
    for (size_t i = 0; i < c->origin_header_count; i++) {
        free(c->origin_headers[i].origin);
        free(c->origin_headers[i].name);
        free(c->origin_headers[i].value);
    }
    free(c->origin_headers);
    free(c->user_agent);
    free(c);
    curl_global_cleanup();
}

const char *http_client_add_origin_header(http_client *c, const char *origin, const char *name,
                                          const char *value) {
    const char *problem = header_problem(name, value);
    if (problem)
        return problem;
    char *normalized = origin ? http_url_as_origin(origin) : NULL;
    if (!normalized)
        return "origin must be scheme://host[:port] with scheme http or https";
    c->origin_headers = xrealloc(c->origin_headers, (c->origin_header_count + 1) * sizeof *c->origin_headers);
    c->origin_headers[c->origin_header_count++] =
        (origin_header){.origin = normalized, .name = copy_of(name), .value = copy_of(value)};
    return NULL;
}

void http_client_set_auth(http_client *c, const http_auth *auth) { c->auth = *auth; }

void http_result_free(http_result *r) {
    buf_free(&r->body);
    free(r->content_type);
    free(r->etag);
    free(r->location);
    for (size_t i = 0; i < r->link_count; i++)
        free(r->links[i]);
    free(r->links);
    free(r->last_modified);
    free(r->accept_patch);
    free(r->final_url);
    for (size_t i = 0; i < r->kept_header_count; i++)
        free(r->kept_headers[i]);
    free(r->kept_headers);
    memset(r, 0, sizeof *r);
}

/* ---- one hop ---- */

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    transfer *t = user;
    size_t len = size * count;
    if (len > t->client->options.max_body_bytes - t->result.body.len) {
        t->body_too_large = true;
        return 0; /* libcurl ends the transfer with CURLE_WRITE_ERROR */
    }
    curl_off_t length;
    if (!t->result.body.cap && curl_easy_getinfo(t->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK &&
        length > 0 && (uint64_t)length < t->client->options.max_body_bytes) {
        /* a body of a known length in one block: a batch holds every body it read until it returns, and
         * grown step by step each was up to twice its size, and left the steps behind as holes in the heap */
        t->result.body.data = xmalloc((size_t)length + 1);
        t->result.body.cap = (size_t)length + 1;
    }
    buf_append(&t->result.body, data, len);
    return len;
}

static bool request_has_header(const http_request *r, const char *name) {
    for (size_t i = 0; i < r->header_count; i++)
        if (strcasecmp(r->headers[i].name, name) == 0)
            return true;
    return false;
}

static struct curl_slist *append_line(struct curl_slist *list, const char *line) {
    struct curl_slist *grown = curl_slist_append(list, line);
    if (!grown) {
        fputs("ldgsm: out of memory\n", stderr);
        abort();
    }
    return grown;
}

/* libcurl sends "Name:" as "remove the header", so an empty value is written "Name;". */
static struct curl_slist *add_header(struct curl_slist *list, const char *name, const char *value) {
    buf line = {0};
    if (*value)
        buf_printf(&line, "%s: %s", name, value);
    else
        buf_printf(&line, "%s;", name);
    list = append_line(list, buf_cstr(&line));
    buf_free(&line);
    return list;
}

static void fail(transfer *t, enum http_failure failure, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The hook's lines for this hop (http_auth); false when the hop may not go (the result says why). */
static bool add_auth_headers(transfer *t, struct curl_slist **list) {
    const http_client *c = t->client;
    t->auth_sent = false;
    if (!c->auth.hop_headers || request_has_header(t->request, "Authorization"))
        return true;
    for (size_t i = 0; i < c->origin_header_count; i++) /* --header ORIGIN='Authorization: ...' wins too */
        if (strcmp(c->origin_headers[i].origin, t->origin) == 0 &&
            strcasecmp(c->origin_headers[i].name, "Authorization") == 0)
            return true;
    buf lines = {0};
    char error[HTTP_MESSAGE_SIZE - 16];
    bool renew = t->auth_renew;
    t->auth_renew = false;
    if (!c->auth.hop_headers(c->auth.ctx, t->origin, t->method, t->url, renew, &t->auth_generation, &lines, error,
                             sizeof error)) {
        buf_free(&lines);
        fail(t, HTTP_FAIL_INVALID, "not sent: %s", error);
        return false;
    }
    for (char *line = lines.len ? buf_cstr(&lines) : NULL, *end; line && *line; line = end + 1) {
        end = strchr(line, '\n');
        *end = '\0';
        *list = append_line(*list, line);
        t->auth_sent = true;
    }
    if (lines.data)
        explicit_bzero(lines.data, lines.cap); /* a token */
    buf_free(&lines);
    return true;
}

static struct curl_slist *hop_headers(const transfer *t) {
    const http_request *r = t->request;
    bool same_origin = strcmp(t->origin, t->request_origin) == 0;
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < r->header_count; i++) {
        const http_header *h = &r->headers[i];
        if (!same_origin && (strcasecmp(h->name, "Authorization") == 0 || strcasecmp(h->name, "Cookie") == 0))
            continue;
        list = add_header(list, h->name, h->value);
    }
    const http_client *c = t->client;
    for (size_t i = 0; i < c->origin_header_count; i++) {
        const origin_header *h = &c->origin_headers[i];
        if (strcmp(h->origin, t->origin) == 0 && !request_has_header(r, h->name))
            list = add_header(list, h->name, h->value);
    }
    /* "Name:" removes what libcurl would add: a form Content-Type on a body, and Expect: 100-continue,
     * which costs a round trip on every large PUT. */
    if (t->send_body && !request_has_header(r, "Content-Type"))
        list = append_line(list, "Content-Type:");
    if (!request_has_header(r, "Expect"))
        list = append_line(list, "Expect:");
    return list;
}

static void set_method(const transfer *t) {
    CURL *e = t->easy;
    const http_request *r = t->request;
    if (t->send_body) {
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(r->body ? r->body_len : 0));
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, r->body ? r->body : "");
        if (strcmp(t->method, "POST") != 0)
            curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, t->method);
    } else if (strcmp(t->method, "HEAD") == 0) {
        curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
    } else if (strcmp(t->method, "GET") != 0) {
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, t->method);
    }
    /* libcurl silently resends a request whose reused connection died before any answer. For a write
     * that could repeat a command the server already took (a POST task twice); a fresh connection leaves
     * libcurl nothing to retry, and a dead one is reported as an unknown outcome. That connection is
     * closed after its answer: kept, every write would add one to libcurl's cache (it holds 4 per easy
     * handle), and a fleet of agents on one host ran into the server's per-client connection limit.
     * A repeatable one (a PUT the agent made conditional on the ETag it read) may be sent twice: a second
     * copy after a first the server took fails its precondition (412), which the agent reads as a write
     * it lost, and reads again (docs/DESIGN.md §2.6). It reuses connections like a GET: a connection per
     * status write was a fifth of an agent's CPU in system time. */
    if (strcmp(t->method, "GET") != 0 && strcmp(t->method, "HEAD") != 0 && !r->repeatable) {
        curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
        curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
    }
}

/* Sets up the easy handle for the hop to t->url and hands it to libcurl. False when the hook's credentials
 * cannot be had (the result says why) or libcurl refused (the result says nothing yet). */
static bool start_hop(transfer *t) {
    const http_options *o = &t->client->options;
    CURL *e = t->easy;
    curl_easy_reset(e);
    curl_slist_free_all(t->headers);
    t->headers = hop_headers(t);
    if (!add_auth_headers(t, &t->headers))
        return false;
    t->error[0] = '\0';
    buf_free(&t->result.body);
    uint64_t now = now_us();
    long remaining_ms = t->deadline_us > now ? (long)((t->deadline_us - now + 999) / 1000) : 1;
    curl_easy_setopt(e, CURLOPT_URL, t->url);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                     o->connect_timeout_ms < remaining_ms ? o->connect_timeout_ms : remaining_ms);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, remaining_ms);
    curl_easy_setopt(e, CURLOPT_USERAGENT, o->user_agent);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
    set_method(t);
    return curl_multi_add_handle(t->client->multi, e) == CURLM_OK;
}

/* ---- a transfer's end ---- */

static char *header_value(CURL *e, const char *name, size_t index, size_t *amount) {
    struct curl_header *h;
    if (curl_easy_header(e, name, index, CURLH_HEADER, -1, &h) != CURLHE_OK)
        return NULL;
    if (amount)
        *amount = h->amount;
    return copy_of(h->value);
}

/* Every field of a list-valued header joined by ", " (RFC 9110 5.3), or NULL when there is none. */
static char *header_list(CURL *e, const char *name) {
    size_t fields = 0;
    char *first = header_value(e, name, 0, &fields);
    if (!first || fields == 1)
        return first;
    buf joined = {0};
    buf_puts(&joined, first);
    free(first);
    for (size_t i = 1; i < fields; i++) {
        char *next = header_value(e, name, i, NULL);
        buf_printf(&joined, ", %s", next ? next : "");
        free(next);
    }
    return buf_cstr(&joined);
}

bool http_result_accepts_patch(const http_result *r, const char *media_type) {
    size_t type_len = strlen(media_type);
    for (const char *p = r->accept_patch; p && *p;) {
        p += strspn(p, " \t,");
        size_t len = strcspn(p, ",; \t");
        if (len == type_len && strncasecmp(p, media_type, len) == 0)
            return true;
        p += strcspn(p, ",");
    }
    return false;
}

char *http_result_link(const http_result *r, const char *request_url, const char *relation) {
    web_link link;
    for (size_t i = 0; i < r->link_count; i++)
        for (const char *cursor = r->links[i]; web_link_next(&cursor, &link);)
            if (web_link_has_rel(&link, relation)) {
                char *target = xstrndup(link.target, link.target_len);
                char *resolved = http_url_resolve(r->final_url ? r->final_url : request_url, target);
                free(target);
                return resolved;
            }
    return NULL;
}

static void fill_response(transfer *t, long status) {
    http_result *r = &t->result;
    CURL *e = t->easy;
    r->status = status;
    if (r->body.len > 0)
        buf_cstr(&r->body);
    r->content_type = header_value(e, "Content-Type", 0, NULL);
    r->etag = header_value(e, "ETag", 0, NULL);
    r->etag_kind = http_etag_classify(r->etag);
    r->location = header_value(e, "Location", 0, NULL);
    r->last_modified = header_value(e, "Last-Modified", 0, NULL);
    r->accept_patch = header_list(e, "Accept-Patch");
    if (t->request->keep_header_count) {
        r->kept_header_count = t->request->keep_header_count;
        r->kept_headers = xcalloc(r->kept_header_count, sizeof *r->kept_headers);
        for (size_t i = 0; i < r->kept_header_count; i++)
            r->kept_headers[i] = header_list(e, t->request->keep_headers[i]);
    }
    size_t links = 0;
    char *first_link = header_value(e, "Link", 0, &links);
    if (first_link) {
        r->links = xmalloc(links * sizeof *r->links);
        r->links[0] = first_link;
        for (size_t i = 1; i < links; i++)
            r->links[i] = header_value(e, "Link", i, NULL);
        r->link_count = links;
    }
}

static void fail(transfer *t, enum http_failure failure, const char *fmt, ...) {
    http_result *r = &t->result;
    r->failure = failure;
    r->status = 0;
    buf_free(&r->body);
    va_list args;
    va_start(args, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, args);
    va_end(args);
}

/* Releases what the transfer held (its easy handle, its place in flight and at its origin) and completes
 * the result. */
static void finish_transfer(transfer *t) {
    http_client *c = t->client;
    if (t->state == RUNNING) {
        for (size_t i = 0; i < c->in_flight_count; i++)
            if (c->in_flight[i] == t) {
                c->in_flight[i] = c->in_flight[--c->in_flight_count];
                break;
            }
        if (t->slot != SIZE_MAX)
            c->origins.busy[t->slot]--;
    }
    t->state = ENDED;
    http_result *r = &t->result;
    r->elapsed_us = now_us() - t->started_us;
    r->final_url = t->url;
    t->url = NULL;
    const char *method = t->method ? t->method : "(no method)", *url = r->final_url ? r->final_url : "(no URL)";
    if (r->failure == HTTP_FAIL_NONE)
        log_msg(c->options.log, LOG_DEBUG, "http: %s %s -> %ld", method, url, r->status);
    else
        log_msg(c->options.log, LOG_DEBUG, "http: %s %s -> %s: %s", method, url, http_failure_name(r->failure),
                r->message);
    curl_slist_free_all(t->headers);
    t->headers = NULL;
    free(t->origin);
    free(t->request_origin);
    t->origin = t->request_origin = NULL;
    if (t->easy)
        c->idle[c->idle_count++] = t->easy;
    t->easy = NULL;
}

static bool is_redirect(long status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/* Starts a hop after the first. True when it started; false when the transfer is over (t->result says why). */
static bool start_next_hop(transfer *t) {
    if (start_hop(t))
        return true;
    if (t->result.failure == HTTP_FAIL_NONE)
        fail(t, HTTP_FAIL_OTHER, "libcurl refused the transfer");
    return false;
}

/* The response of a redirect: moves t to its next hop. True when the hop started; false when the
 * transfer is over (t->result says why). */
static bool follow_redirect(transfer *t, long status, const char *location) {
    http_result *r = &t->result;
    if (r->redirects == t->client->options.max_redirects) {
        fail(t, HTTP_FAIL_REDIRECTS, "more than %u redirects", t->client->options.max_redirects);
        return false;
    }
    char *origin = http_url_origin(location);
    if (!origin) {
        fail(t, HTTP_FAIL_OTHER, "redirect to a URL that is not http or https: %s", location);
        return false;
    }
    if (now_us() >= t->deadline_us) {
        free(origin);
        fail(t, HTTP_FAIL_TIMEOUT, "total timeout reached while following redirects");
        return false;
    }
    log_msg(t->client->options.log, LOG_DEBUG, "http: %s %s -> %ld, to %s", t->method, t->url, status, location);
    bool to_get = status == 303 || ((status == 301 || status == 302) && strcmp(t->method, "POST") == 0);
    if (to_get && strcmp(t->method, "HEAD") != 0) {
        t->method = "GET";
        t->send_body = false;
    }
    free(t->url);
    free(t->origin);
    t->url = http_url_without_fragment(location);
    t->origin = origin;
    r->redirects++;
    return start_next_hop(t);
}

/* A hop ended with code. True when the transfer goes on with another hop. */
static bool on_hop_done(transfer *t, CURLcode code) {
    CURL *e = t->easy;
    long status = 0;
    char *location = NULL;
    if (code == CURLE_OK) {
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
        if (status == 401 && t->auth_sent && !t->auth_renewed) {
            /* the token expired or was revoked: once more with a renewed one (guarantee 9) */
            curl_multi_remove_handle(t->client->multi, e);
            log_msg(t->client->options.log, LOG_DEBUG, "http: %s %s -> 401, again with renewed credentials",
                    t->method, t->url);
            t->auth_renewed = t->auth_renew = true;
            return start_next_hop(t);
        }
        const char *redirect_url = NULL;
        curl_easy_getinfo(e, CURLINFO_REDIRECT_URL, &redirect_url);
        if (is_redirect(status) && redirect_url)
            location = copy_of(redirect_url);
        else
            fill_response(t, status);
    } else if (t->body_too_large) {
        fail(t, HTTP_FAIL_BODY_TOO_LARGE, "body larger than %zu bytes", t->client->options.max_body_bytes);
    } else {
        fail(t, failure_of(code), "%s", t->error[0] ? t->error : curl_easy_strerror(code));
    }
    curl_multi_remove_handle(t->client->multi, e);
    bool goes_on = location && follow_redirect(t, status, location);
    free(location);
    return goes_on;
}

static long timeout_of(const transfer *t) {
    long timeout_ms = t->client->options.total_timeout_ms;
    return t->request->timeout_ms > 0 && t->request->timeout_ms < timeout_ms ? t->request->timeout_ms : timeout_ms;
}

/* False when the request is not sent (its result says why). */
static bool start_transfer(transfer *t, bool stopping) {
    const http_request *rq = t->request;
    http_client *c = t->client;
    t->started_us = now_us();
    t->deadline_us = t->started_us + (uint64_t)timeout_of(t) * 1000u;
    t->method = rq->method;
    t->url = rq->url ? http_url_without_fragment(rq->url) : NULL;
    const char *problem = request_problem(rq);
    if (stopping && !rq->send_when_stopping) {
        fail(t, HTTP_FAIL_STOPPED, "not sent: stopping");
    } else if (problem) {
        fail(t, HTTP_FAIL_INVALID, "%s", problem);
    } else if (!t->url || t->slot == SIZE_MAX) { /* http_url_origin found none when the batch named slots */
        fail(t, HTTP_FAIL_INVALID, "not an absolute http or https URL");
    } else {
        t->request_origin = copy_of(c->origins.origins[t->slot]); /* parsed once a request, not twice */
        t->origin = copy_of(t->request_origin);
        t->send_body = rq->body || strcmp(rq->method, "POST") == 0 || strcmp(rq->method, "PUT") == 0 ||
                       strcmp(rq->method, "PATCH") == 0;
        t->easy = c->idle_count ? c->idle[--c->idle_count] : curl_easy_init();
        if (t->easy && start_hop(t)) {
            t->state = RUNNING;
            c->in_flight[c->in_flight_count++] = t;
            if (t->slot != SIZE_MAX)
                c->origins.busy[t->slot]++;
            if (t->index != SIZE_MAX && t->wait_ms > 0)
                t->wait_until_us = t->started_us + (uint64_t)t->wait_ms * 1000u;
            return true;
        }
        if (t->result.failure == HTTP_FAIL_NONE)
            fail(t, HTTP_FAIL_OTHER, "libcurl refused the transfer");
    }
    finish_transfer(t);
    return false;
}

/* ---- requests that outlive their batch (guarantee 7) ---- */

static void transfer_free(transfer *t) {
    if (t->state == RUNNING) { /* abandoned: only http_client_free ends a transfer in flight */
        curl_multi_remove_handle(t->client->multi, t->easy);
        curl_easy_cleanup(t->easy);
    }
    curl_slist_free_all(t->headers);
    free(t->url);
    free(t->origin);
    free(t->request_origin);
    http_result_free(&t->result);
    if (t->request == &t->own) {
        free((char *)t->own.method);
        free((char *)t->own.url);
        for (size_t i = 0; i < t->own.header_count; i++) {
            free((char *)t->own.headers[i].name);
            free((char *)t->own.headers[i].value);
        }
        free((http_header *)t->own.headers);
    }
    free(t);
}

static bool may_outlive_batch(const http_request *r) {
    return r->method && r->url && !r->body && (strcmp(r->method, "GET") == 0 || strcmp(r->method, "HEAD") == 0);
}

/* Method, URL, headers (in order) and timeout equal: one may take the other's outcome. */
static bool same_request(const http_request *a, const http_request *b) {
    if (strcmp(a->method, b->method) != 0 || strcmp(a->url, b->url) != 0 || a->header_count != b->header_count ||
        a->timeout_ms != b->timeout_ms)
        return false;
    for (size_t i = 0; i < a->header_count; i++)
        if (strcasecmp(a->headers[i].name, b->headers[i].name) != 0 ||
            strcmp(a->headers[i].value, b->headers[i].value) != 0)
            return false;
    return true;
}

/* The background transfer of a request identical to r that no request of this batch claimed yet. */
static transfer *claim_background(http_client *c, const http_request *r) {
    for (size_t i = 0; i < c->background_count; i++)
        if (c->background[i]->index == SIZE_MAX && same_request(c->background[i]->request, r))
            return c->background[i];
    return NULL;
}

/* A transfer going on past its batch keeps a copy of its request: the caller's strings end with the call. */
static void move_to_background(transfer *t) {
    http_client *c = t->client;
    const http_request *r = t->request;
    http_header *headers = xcalloc(r->header_count + 1, sizeof *headers);
    for (size_t i = 0; i < r->header_count; i++)
        headers[i] = (http_header){copy_of(r->headers[i].name), copy_of(r->headers[i].value)};
    t->own = (http_request){.method = copy_of(r->method), .url = copy_of(r->url), .headers = headers,
                            .header_count = r->header_count, .timeout_ms = r->timeout_ms,
                            .send_when_stopping = r->send_when_stopping};
    t->request = &t->own;
    t->in_background = true;
    c->background = xrealloc(c->background, (c->background_count + 1) * sizeof *c->background);
    c->background[c->background_count++] = t;
}

static void leave_background(http_client *c, const transfer *t) {
    for (size_t i = 0; i < c->background_count; i++)
        if (c->background[i] == t) {
            c->background[i] = c->background[--c->background_count];
            return;
        }
}

/* Drops the outcomes too old to give (guarantee 7: the total timeout from the start has passed), and the
 * requests that waited as long for a connection without starting. */
static void drop_stale_background(http_client *c, uint64_t now) {
    size_t kept = 0;
    for (size_t i = 0; i < c->background_count; i++) {
        transfer *t = c->background[i];
        uint64_t until = t->state == ENDED ? t->deadline_us : t->queued_us + (uint64_t)timeout_of(t) * 1000u;
        if (t->state != RUNNING && now >= until)
            transfer_free(t);
        else
            c->background[kept++] = t;
    }
    c->background_count = kept;
}

/* ---- the batch ---- */

/* The slot of an origin (created on first use; the name is taken), or SIZE_MAX for none. */
static size_t slot_named(origin_slots *o, char *origin) {
    if (!origin)
        return SIZE_MAX;
    for (size_t i = 0; i < o->count; i++)
        if (strcmp(o->origins[i], origin) == 0) {
            free(origin);
            return i;
        }
    o->origins = xrealloc(o->origins, (o->count + 1) * sizeof *o->origins);
    o->busy = xrealloc(o->busy, (o->count + 1) * sizeof *o->busy);
    o->origins[o->count] = origin;
    o->busy[o->count] = 0;
    return o->count++;
}

static void free_origins(origin_slots *o) {
    for (size_t i = 0; i < o->count; i++)
        free(o->origins[i]);
    free(o->origins);
    free(o->busy);
    *o = (origin_slots){0};
}

/* Between batches only background transfers hold origins: the table keeps just theirs, so an agent that
 * meets many origins over months does not keep them all. */
static void compact_origins(http_client *c) {
    origin_slots kept = {0};
    for (size_t i = 0; i < c->background_count; i++) {
        transfer *t = c->background[i];
        if (t->slot == SIZE_MAX)
            continue;
        t->slot = slot_named(&kept, copy_of(c->origins.origins[t->slot]));
        kept.busy[t->slot] += t->state == RUNNING;
    }
    free_origins(&c->origins);
    c->origins = kept;
}

/* The batch stops waiting for t (it ended, or its wait_ms passed). */
static void stop_waiting(transfer *t, size_t *must_wait) {
    if (t->waited) {
        t->waited = false;
        (*must_wait)--;
    }
}

/* The multi handle itself failed: every request in flight ends with its error. */
static void fail_in_flight(http_client *c, CURLMcode code, size_t *must_wait) {
    while (c->in_flight_count) {
        transfer *t = c->in_flight[c->in_flight_count - 1];
        curl_multi_remove_handle(c->multi, t->easy);
        fail(t, HTTP_FAIL_OTHER, "libcurl: %s", curl_multi_strerror(code));
        finish_transfer(t);
        stop_waiting(t, must_wait);
    }
}

static bool may_start(const http_client *c);

/* Starts the queued transfers of list[from..count) (NULL entries skipped) that fit in the limits (guarantee
 * 2); only unclaimed ones when background. Unless scan_all (a list holding a transfer without an origin,
 * which no origin's limit holds back), it stops once no origin has a free place: a batch of 10,000
 * requests to one origin was scanned to its end after each answer (5% of an agent's CPU). */
static void start_queued(http_client *c, transfer **list, size_t from, size_t count, bool background, bool stopping,
                         bool scan_all, size_t *must_wait) {
    unsigned per_origin = c->options.max_host_connections;
    for (size_t i = from; i < count && c->in_flight_count < HTTP_MAX_IN_FLIGHT && (scan_all || may_start(c)); i++) {
        transfer *t = list[i];
        if (t->state != QUEUED || (background && t->index != SIZE_MAX) ||
            (per_origin && t->slot != SIZE_MAX && c->origins.busy[t->slot] >= per_origin))
            continue;
        if (!start_transfer(t, stopping))
            stop_waiting(t, must_wait);
    }
}

/* Some origin has a free place (or none limits them): else no queued request can start, and the scan is
 * skipped. */
static bool may_start(const http_client *c) {
    unsigned per_origin = c->options.max_host_connections;
    if (c->in_flight_count >= HTTP_MAX_IN_FLIGHT)
        return false;
    if (!per_origin || c->origins.count == 0)
        return true;
    for (size_t o = 0; o < c->origins.count; o++)
        if (c->origins.busy[o] < per_origin)
            return true;
    return false;
}

/* The result of a request its batch stopped waiting for. */
static void pending_result(http_result *r, const transfer *t, uint64_t now) {
    *r = (http_result){.failure = HTTP_FAIL_PENDING, .late = t->in_background};
    if (t->state == RUNNING) {
        r->elapsed_us = now - t->started_us;
        snprintf(r->message, sizeof r->message, "no answer %.0f ms after it was sent; it goes on in the background",
                 r->elapsed_us / 1000.0);
    } else {
        snprintf(r->message, sizeof r->message, "not sent yet: it waits for a connection in the background");
    }
}

void http_run(http_client *c, const http_request *requests, size_t count, http_result *results) {
    bool stopping = c->options.stop && *c->options.stop;
    uint64_t begun = now_us();
    drop_stale_background(c, begun);
    transfer **batch = xcalloc(count ? count : 1, sizeof *batch);
    size_t must_wait = 0; /* requests of the batch it still waits for */
    bool without_origin = false; /* some request has none (not held back by any origin's limit) */
    for (size_t i = 0; i < count; i++) {
        const http_request *rq = &requests[i];
        bool may_outlive = may_outlive_batch(rq);
        transfer *t = may_outlive ? claim_background(c, rq) : NULL;
        if (!t) {
            t = xcalloc(1, sizeof *t);
            *t = (transfer){.client = c, .request = rq, .state = QUEUED, .queued_us = begun,
                            .slot = slot_named(&c->origins, rq->url ? http_url_origin(rq->url) : NULL)};
        }
        t->index = i;
        without_origin |= t->slot == SIZE_MAX;
        t->wait_ms = may_outlive ? rq->wait_ms : 0;
        /* a claimed transfer already running is waited for from now */
        t->wait_until_us = t->state == RUNNING && t->wait_ms > 0 ? begun + (uint64_t)t->wait_ms * 1000u : 0;
        t->waited = t->state != ENDED && t->wait_ms >= 0;
        must_wait += t->waited;
        batch[i] = t;
    }
    size_t first_waiting = 0;
    for (bool performed = false;;) {
        if (may_start(c)) {
            start_queued(c, batch, first_waiting, count, false, stopping, without_origin, &must_wait);
            start_queued(c, c->background, 0, c->background_count, true, stopping, true, &must_wait);
        }
        while (first_waiting < count && batch[first_waiting]->state != QUEUED)
            first_waiting++;
        if (must_wait == 0 && (performed || c->in_flight_count == 0))
            break;
        int running;
        CURLMcode code = curl_multi_perform(c->multi, &running);
        performed = true;
        CURLMsg *msg;
        int left;
        bool finished = false;
        while ((msg = curl_multi_info_read(c->multi, &left))) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            char *private;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &private);
            transfer *t = (transfer *)private;
            if (!on_hop_done(t, msg->data.result)) {
                finish_transfer(t);
                stop_waiting(t, &must_wait);
                finished = true;
            }
        }
        uint64_t now = now_us(), next_wait = 0;
        for (size_t k = 0; k < c->in_flight_count; k++) {
            transfer *t = c->in_flight[k];
            if (!t->waited || !t->wait_until_us)
                continue;
            if (now >= t->wait_until_us)
                stop_waiting(t, &must_wait);
            else if (!next_wait || t->wait_until_us < next_wait)
                next_wait = t->wait_until_us;
        }
        if (must_wait == 0)
            break;
        /* Poll unless a finished request freed a place for a waiting one; no longer than to the next end of
         * a wait. An interrupted poll returns early; the loop simply polls again. */
        int poll_ms = next_wait && next_wait - now < 1000000u ? (int)((next_wait - now + 999) / 1000) : 1000;
        if (code == CURLM_OK && c->in_flight_count > 0 && !(finished && first_waiting < count))
            code = curl_multi_poll(c->multi, NULL, 0, poll_ms, NULL);
        if (code != CURLM_OK)
            fail_in_flight(c, code, &must_wait);
    }
    uint64_t now = now_us();
    for (size_t i = 0; i < count; i++) {
        transfer *t = batch[i];
        t->index = SIZE_MAX;
        t->waited = false;
        if (t->state != ENDED) {
            pending_result(&results[i], t, now);
            if (!t->in_background)
                move_to_background(t);
            continue;
        }
        results[i] = t->result;
        results[i].late = t->in_background;
        t->result = (http_result){0};
        if (t->in_background)
            leave_background(c, t);
        transfer_free(t);
    }
    compact_origins(c);
    free(batch);
}
