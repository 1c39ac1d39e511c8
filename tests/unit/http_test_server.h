/* http_test_server.h: an in-process libmicrohttpd server on 127.0.0.1 and an ephemeral port, for the
 * http/ tests: it records every request (method, URL, headers, body), counts the TCP connections it
 * accepted, and answers by path:
 *
 *   /ok              200 "hello", text/plain, strong ETag "v1", Last-Modified, two Link headers
 *   /weak            200, weak ETag W/"w1"          /unquoted   200, ETag v1 (not a valid tag)
 *   /status?code=N   N, body "status N"             /created    201, Location /things/1
 *   /echo            200, the request body back, with the request's Content-Type
 *   /redirect?n=K    K > 0: 302 to /redirect?n=K-1 (relative); K = 0: 200 "landed"
 *   /to?url=U&code=C C (default 302) to U
 *   /gather?n=N      holds the request until N /gather requests arrived (at most 2 s):
 *                    200 "together" if they did, else 200 "alone"
 *   /slow            holds the request until the server stops (at most 2 s), then 200
 *   /reset           closes the connection without answering
 *   /big?n=N         200 with N bytes of 'x' (Content-Length); &chunked=1: chunked
 *   /stall?n=N       chunked: N bytes of 'x', then holds until the server stops (at most 2 s)
 *
 * Routes a test sets (test_server_route) are consulted before these paths, so a test can make any
 * path answer what it needs (a status, a media type, a body, an ETag, or no answer at all).
 *
 * Holding requests need a thread per connection, which the server uses; test_server_stop releases
 * them before stopping. */
#ifndef LDGSM_TESTS_HTTP_TEST_SERVER_H
#define LDGSM_TESTS_HTTP_TEST_SERVER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct test_server test_server;

/* Aborts the test program when the server cannot start. */
test_server *test_server_start(void);
void test_server_stop(test_server *server);

/* "http://127.0.0.1:PORT", no trailing '/'. */
const char *test_server_base(const test_server *server);
unsigned test_server_port(const test_server *server);
/* TCP connections accepted so far. */
unsigned test_server_connections(test_server *server);
/* Requests received so far (a closed-without-answer one included). */
size_t test_server_request_count(test_server *server);

/* Fields of the index-th request received; the strings live until test_server_stop. */
const char *test_server_method(test_server *server, size_t index);
const char *test_server_url(test_server *server, size_t index);
/* NULL when the request had no such header (name matched case-insensitively). */
const char *test_server_header(test_server *server, size_t index, const char *name);
/* How many times the request carried the header. */
size_t test_server_header_count(test_server *server, size_t index, const char *name);
/* The body and its length (NULs possible). */
const char *test_server_body(test_server *server, size_t index, size_t *len);

/* Makes requests with `method` (NULL: any method; a route for the exact method wins) to `path` (the URL
 * path, without query) answer `status` with the given Content-Type, body and ETag (each NULL: none).
 * Status 0 closes the connection without answering. Setting a route again replaces it. */
void test_server_route(test_server *server, const char *method, const char *path, unsigned status,
                       const char *content_type, const char *body, const char *etag);
/* The route set for method and path also answers with this Location header. */
void test_server_route_location(test_server *server, const char *method, const char *path, const char *location);
/* Requests received so far with this method and URL path. */
size_t test_server_count(test_server *server, const char *method, const char *path);
/* Index of the first request received with this method and URL path at or after index `from`, or -1. */
long test_server_find(test_server *server, const char *method, const char *path, size_t from);

#endif
