/* test_http_client.c: the http/ client against in-process libmicrohttpd servers on loopback: parallel
 * batches, connection reuse (repeatable writes too, not other unsafe requests) and the per-host limit, statuses and response headers, every failure kind
 * (timeout, reset, refused connection, TLS, body limit, redirect limit, invalid requests, the stop
 * flag), redirects with their method rules, origin-scoped headers across origins, the credentials hook
 * (per hop, on its origin only, renewed once after a 401), and request bodies and headers arriving intact. No timing is asserted: timeouts are exercised only as behaviour. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "http_client_harness.c"

static http_result get(http_client *c, const char *u) {
    return run_one(c, (http_request){.method = "GET", .url = u});
}

static void assert_body(const http_result *r, const char *expected) {
    assert_int_equal(r->body.len, strlen(expected));
    assert_memory_equal(r->body.data, expected, r->body.len);
}

/* ---- batches and connections ---- */

/* Each /gather request is held until all four arrived: only overlapping requests say "together". */
static void batch_runs_in_parallel(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url u = at(s, "/gather?n=4");
    http_request requests[4];
    http_result results[4];
    for (size_t i = 0; i < 4; i++)
        requests[i] = (http_request){.method = "GET", .url = u.text};
    http_run(c, requests, 4, results);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(results[i].failure, HTTP_FAIL_NONE);
        assert_int_equal(results[i].status, 200);
        assert_body(&results[i], "together");
        http_result_free(&results[i]);
    }
    http_client_free(c);
}

static void connections_are_reused_across_batches(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url u = at(s, "/ok");
    http_request requests[3];
    http_result results[3];
    for (size_t i = 0; i < 3; i++)
        requests[i] = (http_request){.method = "GET", .url = u.text};
    http_run(c, requests, 3, results);
    unsigned first = test_server_connections(s);
    assert_in_range(first, 1, 3);
    for (size_t batch = 0; batch < 3; batch++) {
        for (size_t i = 0; i < 3; i++) {
            assert_int_equal(results[i].status, 200);
            http_result_free(&results[i]);
        }
        http_run(c, requests, 3, results);
    }
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(results[i].status, 200);
        http_result_free(&results[i]);
    }
    assert_int_equal(test_server_request_count(s), 12);
    assert_int_equal(test_server_connections(s), first);
    http_client_free(c);
}

/* A repeatable write (the agent's PUT conditional on the ETag it read) goes on a kept connection like a
 * GET; any other unsafe request, conditional or not, on a connection of its own, closed after its answer
 * (libcurl would send it again on a kept one that died). */
static void only_repeatable_writes_reuse_connections(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url echo = at(s, "/echo");
    http_header if_match[] = {{"If-Match", "\"v1\""}}, if_none_match[] = {{"If-None-Match", "*"}};
    http_result r = get(c, echo.text);
    http_result_free(&r);
    unsigned kept = test_server_connections(s);
    r = run_one(c, (http_request){.method = "PUT", .url = echo.text, .headers = if_match, .header_count = 1,
                                  .repeatable = true});
    assert_int_equal(r.status, 200);
    http_result_free(&r);
    r = run_one(c, (http_request){.method = "PUT", .url = echo.text, .headers = if_none_match, .header_count = 1,
                                  .repeatable = true});
    http_result_free(&r);
    r = run_one(c, (http_request){.method = "PATCH", .url = echo.text, .headers = if_match, .header_count = 1,
                                  .repeatable = true});
    http_result_free(&r);
    assert_int_equal(test_server_connections(s), kept);
    r = run_one(c, (http_request){.method = "POST", .url = echo.text, .body = "x", .body_len = 1});
    assert_int_equal(r.status, 200);
    http_result_free(&r);
    r = run_one(c, (http_request){.method = "PUT", .url = echo.text, .headers = if_match, .header_count = 1});
    http_result_free(&r);
    assert_int_equal(test_server_connections(s), kept + 2);
    r = get(c, echo.text); /* the others' connections were closed, the kept one serves it */
    http_result_free(&r);
    assert_int_equal(test_server_connections(s), kept + 2);
    http_client_free(c);
}

static void connections_per_host_are_bounded(void **state) {
    test_server *s = *state;
    http_options o = http_options_default();
    o.max_host_connections = 2;
    http_client *c = client_with(o);
    url u = at(s, "/ok");
    http_request requests[8];
    http_result results[8];
    for (size_t i = 0; i < 8; i++)
        requests[i] = (http_request){.method = "GET", .url = u.text};
    http_run(c, requests, 8, results);
    for (size_t i = 0; i < 8; i++) {
        assert_int_equal(results[i].status, 200);
        assert_body(&results[i], "hello");
        http_result_free(&results[i]);
    }
    assert_in_range(test_server_connections(s), 1, 2);
    http_client_free(c);
}

/* More requests than are handed to libcurl at once: the rest start as others finish. */
static void large_batch_completes(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    enum { N = 2 * HTTP_MAX_IN_FLIGHT + 7 };
    url u = at(s, "/ok");
    http_request *requests = xcalloc(N, sizeof *requests);
    http_result *results = xcalloc(N, sizeof *results);
    for (size_t i = 0; i < N; i++)
        requests[i] = (http_request){.method = "GET", .url = u.text};
    http_run(c, requests, N, results);
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(results[i].status, 200);
        http_result_free(&results[i]);
    }
    assert_int_equal(test_server_request_count(s), N);
    free(requests);
    free(results);
    http_client_free(c);
}

/* ---- responses ---- */

static void statuses_are_answers(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url u404 = at(s, "/status?code=404"), u500 = at(s, "/status?code=500"), created = at(s, "/created");
    http_request requests[] = {{.method = "GET", .url = u404.text},
                               {.method = "GET", .url = u500.text},
                               {.method = "POST", .url = created.text}};
    http_result results[3];
    http_run(c, requests, 3, results);
    assert_int_equal(results[0].failure, HTTP_FAIL_NONE);
    assert_int_equal(results[0].status, 404);
    assert_body(&results[0], "status 404");
    assert_string_equal(results[0].message, "");
    assert_int_equal(results[1].failure, HTTP_FAIL_NONE);
    assert_int_equal(results[1].status, 500);
    assert_body(&results[1], "status 500");
    assert_int_equal(results[2].status, 201);
    assert_string_equal(results[2].location, "/things/1");
    assert_int_equal(results[2].body.len, 0);
    for (size_t i = 0; i < 3; i++)
        http_result_free(&results[i]);
    http_client_free(c);
}

static void response_headers_are_reported(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url ok = at(s, "/ok");
    http_result r = get(c, ok.text);
    assert_int_equal(r.status, 200);
    assert_body(&r, "hello");
    assert_int_equal(r.body.data[r.body.len], '\0');
    assert_string_equal(r.content_type, "text/plain; charset=utf-8");
    assert_string_equal(r.etag, "\"v1\"");
    assert_int_equal(r.etag_kind, HTTP_ETAG_STRONG);
    assert_string_equal(r.last_modified, "Tue, 15 Nov 1994 08:12:31 GMT");
    assert_int_equal(r.link_count, 2);
    assert_string_equal(r.links[0], "<http://www.w3.org/ns/ldp#Resource>; rel=\"type\"");
    assert_string_equal(r.links[1], "</meta>; rel=\"describedby\"");
    assert_null(r.location);
    assert_string_equal(r.final_url, ok.text);
    assert_int_equal(r.redirects, 0);
    assert_string_equal(test_server_header(s, 0, "User-Agent"), "ldgsm/0.1");
    http_result_free(&r);

    url weak = at(s, "/weak"), unquoted = at(s, "/unquoted"), plain = at(s, "/status?code=200");
    r = get(c, weak.text);
    assert_string_equal(r.etag, "W/\"w1\"");
    assert_int_equal(r.etag_kind, HTTP_ETAG_WEAK);
    http_result_free(&r);
    r = get(c, unquoted.text);
    assert_int_equal(r.etag_kind, HTTP_ETAG_MALFORMED);
    http_result_free(&r);
    r = get(c, plain.text);
    assert_null(r.etag);
    assert_int_equal(r.etag_kind, HTTP_ETAG_NONE);
    assert_int_equal(r.link_count, 0);
    assert_null(r.links);
    http_result_free(&r);

    /* A fragment is not part of what is requested. */
    url with_fragment = at(s, "/ok#it");
    r = get(c, with_fragment.text);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.final_url, ok.text);
    assert_string_equal(test_server_url(s, 4), "/ok");
    http_result_free(&r);
    http_client_free(c);
}

/* ---- failures ---- */

static void assert_failed(http_result *r, enum http_failure failure) {
    assert_int_equal(r->failure, failure);
    assert_int_equal(r->status, 0);
    assert_int_equal(r->body.len, 0);
    assert_true(r->message[0] != '\0');
    http_result_free(r);
}

static void total_timeout_fails(void **state) {
    test_server *s = *state;
    http_options o = http_options_default();
    o.total_timeout_ms = 300;
    http_client *c = client_with(o);
    url slow = at(s, "/slow"), ok = at(s, "/ok");
    http_request requests[] = {{.method = "GET", .url = slow.text}, {.method = "GET", .url = ok.text}};
    http_result results[2];
    http_run(c, requests, 2, results);
    assert_failed(&results[0], HTTP_FAIL_TIMEOUT);
    assert_int_equal(results[1].status, 200); /* the slow request held up nothing else */
    http_result_free(&results[1]);
    http_client_free(c);
}

static void closed_connection_is_a_reset(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url reset = at(s, "/reset");
    http_result r = get(c, reset.text);
    assert_failed(&r, HTTP_FAIL_RESET);
    assert_true(test_server_request_count(s) >= 1);
    http_client_free(c);
}

static void refused_connection_fails_to_connect(void **state) {
    (void)state;
    /* A port that was just free and has no listener. */
    test_server *gone = test_server_start();
    url u = at(gone, "/ok");
    test_server_stop(gone);
    http_client *c = client_with(http_options_default());
    http_result r = get(c, u.text);
    assert_failed(&r, HTTP_FAIL_CONNECT);
    http_client_free(c);
}

/* The server speaks plain HTTP: the TLS handshake cannot succeed. */
static void failed_handshake_is_a_tls_failure(void **state) {
    test_server *s = *state;
    /* generous limits: on a loaded machine (sanitizers, parallel tests) the handshake's failure must not be
     * overtaken by the connect timeout */
    http_options o = http_options_default();
    o.connect_timeout_ms = 20000;
    o.total_timeout_ms = 30000;
    http_client *c = client_with(o);
    char u[URL_SIZE];
    snprintf(u, sizeof u, "https://127.0.0.1:%u/ok", test_server_port(s));
    http_result r = get(c, u);
    assert_failed(&r, HTTP_FAIL_TLS);
    http_client_free(c);
}

static void body_over_the_limit_fails(void **state) {
    test_server *s = *state;
    http_options o = http_options_default();
    o.max_body_bytes = 1000;
    o.total_timeout_ms = 1500;
    http_client *c = client_with(o);
    url exact = at(s, "/big?n=1000"), over = at(s, "/big?n=1001"), chunked = at(s, "/big?n=1001&chunked=1");
    http_result r = get(c, exact.text);
    assert_int_equal(r.failure, HTTP_FAIL_NONE);
    assert_int_equal(r.body.len, 1000);
    http_result_free(&r);
    r = get(c, over.text);
    assert_failed(&r, HTTP_FAIL_BODY_TOO_LARGE);
    r = get(c, chunked.text);
    assert_failed(&r, HTTP_FAIL_BODY_TOO_LARGE);
    /* A body that never ends: only a check made while it streams can fail it before the timeout. */
    url stall = at(s, "/stall?n=1048576");
    r = get(c, stall.text);
    assert_failed(&r, HTTP_FAIL_BODY_TOO_LARGE);
    http_client_free(c);
}

static void invalid_requests_are_not_sent(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url ok = at(s, "/ok");
    http_header bad_name[] = {{"Bad Name", "x"}}, bad_value[] = {{"X-Split", "a\r\nInjected: yes"}};
    http_request requests[] = {
        {.method = "GE T", .url = ok.text},
        {.method = NULL, .url = ok.text},
        {.method = "GET", .url = ok.text, .headers = bad_name, .header_count = 1},
        {.method = "GET", .url = ok.text, .headers = bad_value, .header_count = 1},
        {.method = "GET", .url = "ftp://127.0.0.1/x"},
        {.method = "GET", .url = "file:///etc/passwd"},
        {.method = "GET", .url = "not a url"},
        {.method = "GET", .url = NULL},
    };
    enum { N = sizeof requests / sizeof requests[0] };
    http_result results[N];
    http_run(c, requests, N, results);
    for (size_t i = 0; i < N; i++)
        assert_failed(&results[i], HTTP_FAIL_INVALID);
    assert_int_equal(test_server_request_count(s), 0);
    http_client_free(c);
}

static void stop_flag_holds_back_new_requests(void **state) {
    test_server *s = *state;
    volatile sig_atomic_t stop = 1;
    http_options o = http_options_default();
    o.stop = &stop;
    http_client *c = client_with(o);
    url ok = at(s, "/ok"), echo = at(s, "/echo");
    http_request requests[] = {{.method = "GET", .url = ok.text},
                               {.method = "PUT", .url = echo.text, .body = "b", .body_len = 1,
                                .send_when_stopping = true}};
    http_result results[2];
    http_run(c, requests, 2, results);
    assert_failed(&results[0], HTTP_FAIL_STOPPED);
    assert_int_equal(results[1].status, 200);
    http_result_free(&results[1]);
    assert_int_equal(test_server_request_count(s), 1);
    assert_string_equal(test_server_method(s, 0), "PUT");
    stop = 0;
    http_run(c, requests, 2, results);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(results[i].status, 200);
        http_result_free(&results[i]);
    }
    assert_int_equal(test_server_request_count(s), 3);
    http_client_free(c);
}

/* ---- redirects ---- */

static void redirects_are_bounded(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url five = at(s, "/redirect?n=5"), six = at(s, "/redirect?n=6"), landed = at(s, "/redirect?n=0");
    http_result r = get(c, five.text);
    assert_int_equal(r.failure, HTTP_FAIL_NONE);
    assert_int_equal(r.status, 200);
    assert_body(&r, "landed");
    assert_int_equal(r.redirects, 5);
    assert_string_equal(r.final_url, landed.text);
    http_result_free(&r);
    r = get(c, six.text);
    assert_failed(&r, HTTP_FAIL_REDIRECTS);
    http_client_free(c);

    http_options o = http_options_default();
    o.max_redirects = 0;
    c = client_with(o);
    url one = at(s, "/redirect?n=1");
    r = get(c, one.text);
    assert_failed(&r, HTTP_FAIL_REDIRECTS);
    http_client_free(c);
}

static void redirect_to_another_scheme_fails(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url to_file = at(s, "/to?url=file:///etc/passwd");
    http_result r = get(c, to_file.text);
    assert_failed(&r, HTTP_FAIL_OTHER);
    http_client_free(c);
}

/* 303 continues as a GET without the body; 307 repeats the method and the body. */
static void redirect_methods(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    http_header type[] = {{"Content-Type", "text/turtle"}};
    url see_other = at(s, "/to?url=/echo&code=303"), temporary = at(s, "/to?url=/echo&code=307");
    http_result r = run_one(c, (http_request){.method = "POST", .url = see_other.text, .headers = type,
                                               .header_count = 1, .body = "<a> <b> <c> .", .body_len = 13});
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body.len, 0);
    assert_string_equal(test_server_method(s, 1), "GET");
    http_result_free(&r);
    r = run_one(c, (http_request){.method = "PUT", .url = temporary.text, .headers = type, .header_count = 1,
                                   .body = "<a> <b> <c> .", .body_len = 13});
    assert_int_equal(r.status, 200);
    assert_body(&r, "<a> <b> <c> .");
    assert_string_equal(test_server_method(s, 3), "PUT");
    http_result_free(&r);
    http_client_free(c);
}

/* ---- origins ---- */

static void origin_headers_stay_on_their_origin(void **state) {
    test_server *a = *state, *b = test_server_start();
    http_client *c = client_with(http_options_default());
    char origin_a[64], origin_b[64];
    /* Written unnormalized on purpose: scheme case and a trailing slash do not matter. */
    snprintf(origin_a, sizeof origin_a, "HTTP://127.0.0.1:%u/", test_server_port(a));
    snprintf(origin_b, sizeof origin_b, "http://127.0.0.1:%u", test_server_port(b));
    assert_null(http_client_add_origin_header(c, origin_a, "X-Secret", "a-only"));
    assert_null(http_client_add_origin_header(c, origin_b, "X-B", "b-only"));

    /* From a to b: a's secret and the request's Authorization stay behind. */
    url echo_b = at(b, "/echo");
    char cross[2 * URL_SIZE];
    snprintf(cross, sizeof cross, "%s/to?url=%s", test_server_base(a), echo_b.text);
    http_header mine[] = {{"Authorization", "Bearer t"}, {"X-Mine", "kept"}};
    http_result r = run_one(c, (http_request){.method = "GET", .url = cross, .headers = mine, .header_count = 2});
    assert_int_equal(r.status, 200);
    assert_int_equal(r.redirects, 1);
    assert_string_equal(r.final_url, echo_b.text);
    http_result_free(&r);
    assert_string_equal(test_server_header(a, 0, "X-Secret"), "a-only");
    assert_string_equal(test_server_header(a, 0, "Authorization"), "Bearer t");
    assert_null(test_server_header(a, 0, "X-B"));
    assert_int_equal(test_server_request_count(b), 1);
    assert_null(test_server_header(b, 0, "X-Secret"));
    assert_null(test_server_header(b, 0, "Authorization"));
    assert_string_equal(test_server_header(b, 0, "X-Mine"), "kept");
    assert_string_equal(test_server_header(b, 0, "X-B"), "b-only");

    /* Within a: the secret goes along. */
    url same = at(a, "/to?url=/echo");
    r = get(c, same.text);
    assert_int_equal(r.status, 200);
    http_result_free(&r);
    assert_string_equal(test_server_url(a, 2), "/echo");
    assert_string_equal(test_server_header(a, 2, "X-Secret"), "a-only");

    /* A request's own header of that name wins, and is sent once. */
    url ok = at(a, "/ok");
    http_header own[] = {{"x-secret", "mine"}};
    r = run_one(c, (http_request){.method = "GET", .url = ok.text, .headers = own, .header_count = 1});
    http_result_free(&r);
    assert_int_equal(test_server_header_count(a, 3, "X-Secret"), 1);
    assert_string_equal(test_server_header(a, 3, "X-Secret"), "mine");

    http_client_free(c);
    test_server_stop(b);
}

/* ---- the credentials hook (http_auth) ---- */

/* A hook handing out numbered tokens and proofs for one origin; renews when asked with the current generation. */
typedef struct fake_auth {
    char origin[64];
    unsigned generation, proofs, renewals;
    bool down; /* credentials cannot be had */
} fake_auth;

static bool fake_hop_headers(void *ctx, const char *origin, const char *method, const char *url, bool renew,
                             unsigned *generation, buf *lines, char *error, size_t error_len) {
    fake_auth *f = ctx;
    (void)method, (void)url;
    if (strcmp(origin, f->origin) != 0)
        return true;
    if (f->down) {
        snprintf(error, error_len, "the issuer is down");
        return false;
    }
    if (renew && *generation == f->generation) {
        f->generation++;
        f->renewals++;
    }
    buf_printf(lines, "Authorization: DPoP tok-%u\nDPoP: proof-%u\n", f->generation, ++f->proofs);
    *generation = f->generation;
    return true;
}

static void auth_hook_per_hop(void **state) {
    test_server *a = *state, *b = test_server_start();
    http_client *c = client_with(http_options_default());
    fake_auth f = {.generation = 1};
    snprintf(f.origin, sizeof f.origin, "http://127.0.0.1:%u", test_server_port(a));
    http_auth hook = {.hop_headers = fake_hop_headers, .ctx = &f};
    http_client_set_auth(c, &hook);

    /* a hop within a carries them, a fresh proof each hop; the hop to b does not */
    url echo_b = at(b, "/echo");
    char cross[2 * URL_SIZE];
    snprintf(cross, sizeof cross, "%s/to?url=/to%%3Furl%%3D%s", test_server_base(a), echo_b.text);
    http_result r = get(c, cross);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.redirects, 2);
    http_result_free(&r);
    assert_string_equal(test_server_header(a, 0, "Authorization"), "DPoP tok-1");
    assert_string_equal(test_server_header(a, 0, "DPoP"), "proof-1");
    assert_string_equal(test_server_header(a, 1, "DPoP"), "proof-2");
    assert_int_equal(test_server_request_count(b), 1);
    assert_null(test_server_header(b, 0, "Authorization"));
    assert_null(test_server_header(b, 0, "DPoP"));

    /* a 401 to a hop that carried them: renewed once, sent once more (a POST too, its body intact) */
    test_server_route(a, NULL, "/locked", 401, "text/plain", "no", NULL);
    url locked = at(a, "/locked");
    r = run_one(c, (http_request){.method = "POST", .url = locked.text, .body = "payload", .body_len = 7});
    assert_int_equal(r.status, 401);
    http_result_free(&r);
    assert_int_equal(test_server_count(a, "POST", "/locked"), 2);
    assert_int_equal(f.renewals, 1);
    long second = test_server_find(a, "POST", "/locked", 3);
    assert_true(second > 0);
    assert_string_equal(test_server_header(a, (size_t)second, "Authorization"), "DPoP tok-2");
    size_t len;
    const char *body = test_server_body(a, (size_t)second, &len);
    assert_int_equal(len, 7);
    assert_memory_equal(body, "payload", 7);

    /* credentials that cannot be had: not sent, and saying why */
    size_t before = test_server_request_count(a);
    f.down = true;
    url ok = at(a, "/ok");
    r = get(c, ok.text);
    assert_int_equal(r.failure, HTTP_FAIL_INVALID);
    assert_non_null(strstr(r.message, "the issuer is down"));
    http_result_free(&r);
    assert_int_equal(test_server_request_count(a), before);
    f.down = false;

    /* an Authorization header given for the origin wins: none of the hook's */
    assert_null(http_client_add_origin_header(c, f.origin, "Authorization", "Bearer fixed"));
    r = get(c, ok.text);
    http_result_free(&r);
    assert_string_equal(test_server_header(a, before, "Authorization"), "Bearer fixed");
    assert_null(test_server_header(a, before, "DPoP"));

    http_client_free(c);
    test_server_stop(b);
}

static void origins_are_checked(void **state) {
    (void)state;
    http_client *c = client_with(http_options_default());
    assert_null(http_client_add_origin_header(c, "https://Example.org", "Authorization", "Bearer x"));
    assert_null(http_client_add_origin_header(c, "http://example.org:8080/", "X-Empty", ""));
    assert_non_null(http_client_add_origin_header(c, "example.org", "X-A", "1"));
    assert_non_null(http_client_add_origin_header(c, "ftp://example.org", "X-A", "1"));
    assert_non_null(http_client_add_origin_header(c, "http://example.org/private/", "X-A", "1"));
    assert_non_null(http_client_add_origin_header(c, "http://example.org?q", "X-A", "1"));
    assert_non_null(http_client_add_origin_header(c, "http://user@example.org", "X-A", "1"));
    assert_non_null(http_client_add_origin_header(c, NULL, "X-A", "1"));
    assert_non_null(http_client_add_origin_header(c, "http://example.org", "X A", "1"));
    assert_non_null(http_client_add_origin_header(c, "http://example.org", "X-A", "1\r\nX-B: 2"));
    http_client_free(c);
}

/* ---- request bodies and headers ---- */

static void put_body_and_headers_arrive_intact(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    static const char body[] = "a\0b\r\n\xff<#it> .";
    size_t len = sizeof body - 1;
    http_header headers[] = {{"Content-Type", "text/turtle"}, {"If-Match", "\"v1\""}, {"X-Empty", ""}};
    url echo = at(s, "/echo");
    http_result r = run_one(c, (http_request){.method = "PUT", .url = echo.text, .headers = headers,
                                               .header_count = 3, .body = body, .body_len = len});
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body.len, len);
    assert_memory_equal(r.body.data, body, len);
    http_result_free(&r);
    size_t received_len;
    const char *received = test_server_body(s, 0, &received_len);
    assert_int_equal(received_len, len);
    assert_memory_equal(received, body, len);
    assert_string_equal(test_server_method(s, 0), "PUT");
    assert_string_equal(test_server_header(s, 0, "Content-Type"), "text/turtle");
    assert_string_equal(test_server_header(s, 0, "If-Match"), "\"v1\"");
    assert_string_equal(test_server_header(s, 0, "X-Empty"), "");
    assert_null(test_server_header(s, 0, "Expect"));

    /* A body without a Content-Type goes without one; a PUT without a body sends an empty one. */
    r = run_one(c, (http_request){.method = "POST", .url = echo.text, .body = "raw", .body_len = 3});
    assert_body(&r, "raw");
    http_result_free(&r);
    assert_null(test_server_header(s, 1, "Content-Type"));
    r = run_one(c, (http_request){.method = "PUT", .url = echo.text});
    assert_int_equal(r.status, 200);
    http_result_free(&r);
    assert_string_equal(test_server_header(s, 2, "Content-Length"), "0");

    /* Other methods, as given. */
    const char *methods[] = {"DELETE", "PATCH", "OPTIONS", "HEAD"};
    for (size_t i = 0; i < 4; i++) {
        r = run_one(c, (http_request){.method = methods[i], .url = echo.text});
        assert_int_equal(r.failure, HTTP_FAIL_NONE);
        assert_int_equal(r.status, 200);
        http_result_free(&r);
        assert_string_equal(test_server_method(s, 3 + i), methods[i]);
    }
    http_client_free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(batch_runs_in_parallel, start_server, stop_server),
        cmocka_unit_test_setup_teardown(connections_are_reused_across_batches, start_server, stop_server),
        cmocka_unit_test_setup_teardown(only_repeatable_writes_reuse_connections, start_server, stop_server),
        cmocka_unit_test_setup_teardown(connections_per_host_are_bounded, start_server, stop_server),
        cmocka_unit_test_setup_teardown(large_batch_completes, start_server, stop_server),
        cmocka_unit_test_setup_teardown(statuses_are_answers, start_server, stop_server),
        cmocka_unit_test_setup_teardown(response_headers_are_reported, start_server, stop_server),
        cmocka_unit_test_setup_teardown(total_timeout_fails, start_server, stop_server),
        cmocka_unit_test_setup_teardown(closed_connection_is_a_reset, start_server, stop_server),
        cmocka_unit_test(refused_connection_fails_to_connect),
        cmocka_unit_test_setup_teardown(failed_handshake_is_a_tls_failure, start_server, stop_server),
        cmocka_unit_test_setup_teardown(body_over_the_limit_fails, start_server, stop_server),
        cmocka_unit_test_setup_teardown(invalid_requests_are_not_sent, start_server, stop_server),
        cmocka_unit_test_setup_teardown(stop_flag_holds_back_new_requests, start_server, stop_server),
        cmocka_unit_test_setup_teardown(redirects_are_bounded, start_server, stop_server),
        cmocka_unit_test_setup_teardown(redirect_to_another_scheme_fails, start_server, stop_server),
        cmocka_unit_test_setup_teardown(redirect_methods, start_server, stop_server),
        cmocka_unit_test_setup_teardown(origin_headers_stay_on_their_origin, start_server, stop_server),
        cmocka_unit_test_setup_teardown(auth_hook_per_hop, start_server, stop_server),
        cmocka_unit_test(origins_are_checked),
        cmocka_unit_test_setup_teardown(put_body_and_headers_arrive_intact, start_server, stop_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
