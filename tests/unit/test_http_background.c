/* test_http_background.c: requests that outlive their batch (http_client.h, guarantee 7) against an
 * in-process libmicrohttpd server whose /slow holds each request up to 2 s: a GET the batch stops waiting
 * for is reported pending without holding up the rest, goes on, and its answer goes to the next identical
 * request, which joins it instead of sending another; an outcome past its total timeout is dropped;
 * unsafe requests are always waited for; http_client_free abandons what still runs (ASan finds a leak).
 * No timing is asserted: each wait asked for is far below the time /slow holds a request. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "http_client_harness.c"

static const http_header accept_turtle = {"Accept", "text/turtle"};

static http_request slow_get(const url *u, long wait_ms) {
    return (http_request){.method = "GET", .url = u->text, .headers = &accept_turtle, .header_count = 1,
                          .wait_ms = wait_ms};
}

static void unanswered_get_goes_on_and_is_joined(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url slow = at(s, "/slow"), ok = at(s, "/ok");
    http_request requests[] = {slow_get(&slow, 100), {.method = "GET", .url = ok.text, .wait_ms = 100}};
    http_result results[2];
    http_run(c, requests, 2, results);
    assert_int_equal(results[0].failure, HTTP_FAIL_PENDING);
    assert_int_equal(results[0].status, 0);
    assert_false(results[0].late);
    assert_int_equal(results[1].failure, HTTP_FAIL_NONE); /* the hanging one held up nothing else */
    assert_int_equal(results[1].status, 200);
    http_result_free(&results[0]);
    http_result_free(&results[1]);

    /* waited for to its end now: the same request takes the first one's answer, nothing is sent again */
    http_result r = run_one(c, slow_get(&slow, 0));
    assert_int_equal(r.failure, HTTP_FAIL_NONE);
    assert_int_equal(r.status, 200);
    assert_true(r.late);
    assert_string_equal(r.body.data, "late");
    assert_int_equal(test_server_count(s, "GET", "/slow"), 1);
    http_result_free(&r);

    /* taken once: the next one is a new request */
    r = run_one(c, slow_get(&slow, 100));
    assert_int_equal(r.failure, HTTP_FAIL_PENDING);
    assert_int_equal(test_server_count(s, "GET", "/slow"), 2);
    http_client_free(c); /* abandons it */
}

static void no_wait_takes_only_what_has_come(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url slow = at(s, "/slow");
    http_result r = run_one(c, slow_get(&slow, HTTP_NO_WAIT));
    assert_int_equal(r.failure, HTTP_FAIL_PENDING);
    r = run_one(c, slow_get(&slow, HTTP_NO_WAIT));
    assert_int_equal(r.failure, HTTP_FAIL_PENDING);
    assert_true(r.late);

    /* another request (other headers) is no join: it goes out */
    http_result other = run_one(c, (http_request){.method = "GET", .url = slow.text, .wait_ms = HTTP_NO_WAIT});
    assert_int_equal(other.failure, HTTP_FAIL_PENDING);
    assert_false(other.late);

    r = run_one(c, slow_get(&slow, 0));
    assert_int_equal(r.status, 200);
    assert_true(r.late);
    http_result_free(&r);
    size_t sent = test_server_count(s, "GET", "/slow");
    assert_int_equal(sent, 2);
    http_client_free(c);
}

static void stale_outcome_is_dropped(void **state) {
    test_server *s = *state;
    http_options o = http_options_default();
    o.total_timeout_ms = 300;
    http_client *c = client_with(o);
    url slow = at(s, "/slow"), other = at(s, "/slow?other=1");
    http_result r = run_one(c, slow_get(&slow, 50));
    assert_int_equal(r.failure, HTTP_FAIL_PENDING);
    /* a batch that lasts past the first one's timeout drives it to its end, unclaimed */
    r = run_one(c, slow_get(&other, 0));
    assert_int_equal(r.failure, HTTP_FAIL_TIMEOUT);
    http_result_free(&r);
    /* its outcome is past its total timeout: not given, the request goes out again */
    r = run_one(c, slow_get(&slow, 50));
    assert_int_equal(r.failure, HTTP_FAIL_PENDING);
    assert_false(r.late);
    assert_int_equal(test_server_count(s, "GET", "/slow"), 3);
    http_client_free(c);
}

static void unsafe_requests_are_waited_for(void **state) {
    test_server *s = *state;
    http_client *c = client_with(http_options_default());
    url slow = at(s, "/slow");
    http_result r = run_one(c, (http_request){.method = "PUT", .url = slow.text, .body = "x", .body_len = 1,
                                              .wait_ms = 50});
    assert_int_equal(r.failure, HTTP_FAIL_NONE);
    assert_int_equal(r.status, 200);
    http_result_free(&r);
    r = run_one(c, (http_request){.method = "POST", .url = slow.text, .wait_ms = HTTP_NO_WAIT});
    assert_int_equal(r.status, 200);
    http_result_free(&r);
    http_client_free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(unanswered_get_goes_on_and_is_joined, start_server, stop_server),
        cmocka_unit_test_setup_teardown(no_wait_takes_only_what_has_come, start_server, stop_server),
        cmocka_unit_test_setup_teardown(stale_outcome_is_dropped, start_server, stop_server),
        cmocka_unit_test_setup_teardown(unsafe_requests_are_waited_for, start_server, stop_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
