/* http_client.h: HTTP requests over libcurl multi, one batch at a time, every outcome reported.
 *
 * GUARANTEES
 *  1. http_run performs the requests of a batch in parallel and returns only when every one it waits for
 *     has completed, failed or timed out (all of them, unless a GET says otherwise: guarantee 7); every
 *     result is filled whatever happens. Signals do not cut a batch short (libcurl runs with
 *     CURLOPT_NOSIGNAL and an interrupted poll is resumed).
 *  2. Connections are kept alive and reused across batches (one connection cache and one pool of easy
 *     handles per client); at most max_host_connections requests run to one origin at a time, further
 *     ones wait for a free place (here, not in libcurl: their timeouts start when they do). At most
 *     HTTP_MAX_IN_FLIGHT requests are handed to libcurl at once (which bounds the handle pool); the others
 *     start as those finish. Both limits count the requests going on in the background (guarantee 7).
 *  3. Every request is bounded: connect_timeout_ms per connection attempt, total_timeout_ms (or the
 *     request's own shorter timeout_ms) from the start of the request to its last byte across all
 *     redirects, at most max_redirects redirects,
 *     a body of at most max_body_bytes (checked while it streams in, so a larger one is never held).
 *  4. Headers of the origin table go only to requests whose URL has that origin, checked again at
 *     every redirect. Redirects are followed here rather than by libcurl, which would carry custom
 *     headers to any host; for the same reason a request's own Authorization and Cookie headers are
 *     dropped when a redirect leaves the request's origin.
 *  5. Only http and https URLs are fetched (a redirect elsewhere fails); TLS peers and host names are
 *     verified with the system's certificates.
 *  6. A request that was not sent says so (HTTP_FAIL_INVALID, HTTP_FAIL_STOPPED); any other failure
 *     of an unsafe request leaves its outcome unknown.
 *  7. Only a GET or HEAD without a body may outlive its batch: one whose wait_ms passed unanswered (or
 *     that is HTTP_NO_WAIT and unanswered when the rest of the batch is done) gets HTTP_FAIL_PENDING and
 *     goes on in the background, bounded as guarantee 3 says and driven by later batches. An identical
 *     request (method, URL, headers) of a later batch joins it instead of sending another, so at most one
 *     such transfer per request is in flight; its outcome goes to the first identical request made before
 *     the total timeout counted from its start has passed (http_result.late), and is dropped after.
 *     http_client_free abandons what still runs. Unsafe requests are always waited for.
 *  8. An unsafe request is sent at most once, on a connection of its own closed after its answer (libcurl
 *     would send it again on a kept connection that turned out dead), unless it is repeatable: then it
 *     goes on a kept connection and may be sent a second time after a connection died without answer.
 *  9. Credentials of an http_auth hook go only to the origins it answers for, chosen again at every hop; a hop
 *     that carried them and was answered 401 is sent once more with renewed ones.
 *
 * Redirects (301, 302, 303, 307, 308 with a Location): 303, and 301/302 answering a POST, continue
 * as a GET without body (HEAD stays HEAD); the others repeat the method and body. */
#ifndef LDGSM_HTTP_CLIENT_H
#define LDGSM_HTTP_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http/http_etag.h"
#include "rdf/buf.h"
#include "rdf/log.h"

typedef struct http_options {
    long connect_timeout_ms;      /* default 2000; both timeouts must be positive */
    long total_timeout_ms;        /* default 10000 */
    unsigned max_redirects;       /* default 5; one more is HTTP_FAIL_REDIRECTS */
    size_t max_body_bytes;        /* default 16 MiB; a larger body is HTTP_FAIL_BODY_TOO_LARGE */
    unsigned max_host_connections; /* default 4; 0: no limit */
    const char *user_agent;       /* default "ldgsm/0.1" (copied) */
    const log_sink *log;          /* NULL: stderr; kept by reference, must outlive the client */
    /* The interrupt hook: when set and nonzero at the start of http_run, the batch sends only its
     * requests marked send_when_stopping. A batch already running is never cut short. The pointer
     * (typically the flag a SIGINT/SIGTERM handler sets) must outlive the client. */
    const volatile sig_atomic_t *stop;
} http_options;

/* The defaults above; change fields of the copy. */
http_options http_options_default(void);

typedef struct http_header {
    const char *name;  /* a token (RFC 9110) */
    const char *value; /* no CR, LF or NUL; may be empty */
} http_header;

typedef struct http_request {
    const char *method; /* GET, HEAD, PUT, POST, DELETE, PATCH or any token; case-sensitive */
    const char *url;    /* absolute http or https URL; a fragment is not sent */
    const http_header *headers;
    size_t header_count;
    /* NULL: no body (POST, PUT and PATCH then send an empty one). Any bytes, NULs included. Without
     * a Content-Type header none is sent (not libcurl's form type). */
    const char *body;
    size_t body_len;
    bool send_when_stopping; /* sent even when the stop flag is set (see http_options.stop) */
    /* an unsafe request a second copy of which changes nothing (a PUT conditional on the ETag read): it
     * goes on a kept connection, where libcurl sends it again when that connection turns out dead; any
     * other unsafe request goes on a connection of its own (guarantee 8) */
    bool repeatable;
    long timeout_ms;         /* > 0: this request's total timeout when shorter than the client's */
    /* GET and HEAD without a body (guarantee 7): how long the batch waits for the answer once the request
     * is sent; 0 until it ends, HTTP_NO_WAIT only while it waits for its other requests. */
    long wait_ms;
    /* Response headers whose values the result keeps (http_result.kept_headers), by name; not for a GET
     * that may go on in the background. */
    const char *const *keep_headers;
    size_t keep_header_count;
} http_request;

enum { HTTP_NO_WAIT = -1 };

enum http_failure {
    HTTP_FAIL_NONE,           /* a complete response: status holds its code, whatever it is */
    HTTP_FAIL_CONNECT,        /* the host did not resolve or refused the connection */
    HTTP_FAIL_TIMEOUT,        /* connect or total timeout */
    HTTP_FAIL_RESET,          /* the connection was closed or reset before a complete response */
    HTTP_FAIL_REDIRECTS,      /* more than max_redirects redirects */
    HTTP_FAIL_BODY_TOO_LARGE, /* the body passed max_body_bytes */
    HTTP_FAIL_TLS,            /* handshake or certificate verification failed */
    HTTP_FAIL_INVALID,        /* not sent: bad URL or scheme, method not a token, malformed header */
    HTTP_FAIL_STOPPED,        /* not sent: the stop flag was set */
    HTTP_FAIL_PENDING,        /* no answer yet: the request goes on in the background (guarantee 7) */
    HTTP_FAIL_OTHER,          /* anything else, e.g. a redirect to a scheme other than http(s) */
};

/* "connect failure", "timeout", ...: for log lines. */
const char *http_failure_name(enum http_failure failure);

enum { HTTP_MESSAGE_SIZE = 256, HTTP_MAX_IN_FLIGHT = 64 };

/* One request's outcome. The body and header fields are those of the last response and are set only
 * when failure is HTTP_FAIL_NONE; each string is NULL when its header was absent. http_result_free
 * releases what http_run put in it. */
typedef struct http_result {
    long status;                   /* 0 unless failure is HTTP_FAIL_NONE */
    enum http_failure failure;
    char message[HTTP_MESSAGE_SIZE]; /* on failure, what happened (libcurl's error text when it has one); else "" */
    buf body;                      /* NUL-terminated when non-empty (the NUL not counted in len) */
    char *content_type;            /* as sent, parameters included */
    char *etag;
    enum http_etag_kind etag_kind; /* http_etag_classify(etag) */
    char *location;
    char **links;                  /* every Link header field value, in order */
    size_t link_count;
    char *last_modified;
    char *accept_patch;            /* the patch media types the resource takes (Accept-Patch), as sent */
    char *final_url;               /* the URL of the last request made, fragment-free (NULL if none) */
    unsigned redirects;            /* redirects followed */
    bool late;                     /* the outcome of an identical request sent by an earlier batch */
    uint64_t elapsed_us;           /* from handing the request to libcurl (it may then wait for a free
                                      connection) to its end, redirects included */
    char **kept_headers;           /* per http_request.keep_headers name: its fields joined by ", ", or NULL */
    size_t kept_header_count;
} http_result;

void http_result_free(http_result *result);
/* True when the answer's Accept-Patch lists media_type (case-insensitive, parameters ignored). */
bool http_result_accepts_patch(const http_result *result, const char *media_type);

/* The target of the first link whose rel names relation (rdf/web_link.h), resolved against the URL the
 * answer came from (final_url, else request_url); NULL when no Link names it. The caller frees it. */
char *http_result_link(const http_result *result, const char *request_url, const char *relation);

/* A client is used by one thread at a time. */
typedef struct http_client http_client;

/* options may be NULL (defaults). NULL only when libcurl cannot start (logged). */
http_client *http_client_new(const http_options *options);
void http_client_free(http_client *client);

/* Adds a header sent only to origin: "scheme://host[:port]" with an optional trailing "/", scheme
 * http or https; it is normalized as http_url_origin does (case, default port). A request that sets
 * a header of the same name itself keeps its own. Returns NULL, or what is wrong with the arguments. */
const char *http_client_add_origin_header(http_client *client, const char *origin, const char *name,
                                          const char *value);

/* Credentials for some origins (docs/DESIGN.md §10; oidc_token.h makes them). Before each hop the client
 * calls hop_headers, which appends the header lines to send ("Name: value\n" each; none for an origin the
 * credentials are not for) and sets *generation to that of the credentials used. When such a hop is
 * answered 401 the client calls it once more with renew set and *generation that hop's (credentials
 * renewed by another hop since are not renewed again), and sends the hop again: a 401 took nothing.
 * False: credentials were due but cannot be had; error says why and the request is not sent
 * (HTTP_FAIL_INVALID). A request that sets Authorization itself, or goes to an origin given an
 * Authorization header (http_client_add_origin_header), gets none. */
typedef struct http_auth {
    bool (*hop_headers)(void *ctx, const char *origin, const char *method, const char *url, bool renew,
                        unsigned *generation, buf *lines, char *error, size_t error_len);
    void *ctx;
} http_auth;

/* Sets the client's credentials hook (copied; its ctx must outlive the client). */
void http_client_set_auth(http_client *client, const http_auth *auth);

/* Performs requests[0..count) in parallel and fills results[0..count) (their previous contents are
 * overwritten, not freed). The requests' strings need only live during the call (one that goes on in
 * the background is copied). */
void http_run(http_client *client, const http_request *requests, size_t count, http_result *results);

#endif
