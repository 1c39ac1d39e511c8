/* test_agent_origins.c: origins and credentials (DESIGN section 2): a configured header goes only to its
 * origin, on GETs, unsafe requests and across a redirect to another origin; a header without origin goes
 * to the --allow-origin origins only; --allow-origin refuses unsafe requests to other origins (GETs are
 * not restricted); a header the rule writes itself is kept. Two in-process servers are the two origins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent_test_harness.c"

/* Reads and writes on both origins, and a GET on A redirected to B. */
static const char both_origins_program[] =
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@B/doc> } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/to?url=@B/landing> } .\n"
    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/w> ; http:body { <@A/w#it> :x 1 . } } .\n"
    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@B/w> ; http:body { <@B/w#it> :x 1 . } } .\n"
    "{ } => { [] http:mthd httpm:POST ; http:requestURI <@B/c/> ; http:body { this:it :x 1 . } } .\n"
    "{ } => { [] http:mthd httpm:DELETE ; http:requestURI <@B/old> } .\n";

static void both_origins_setup(fixture *f) {
    write_program(f, both_origins_program);
    for (int i = 0; i < 2; i++) {
        test_server *s = i ? f->b : f->a;
        set_route(f, s, "GET", "/doc", 200, "text/turtle", "<#it> <http://ex.org/v> 1 .", NULL);
        set_route(f, s, "PUT", "/w", 201, NULL, NULL, NULL);
    }
    set_route(f, f->b, "GET", "/landing", 200, "text/turtle", "<#it> <http://ex.org/v> 2 .", NULL);
    set_route(f, f->b, "POST", "/c/", 201, NULL, NULL, NULL);
    set_route(f, f->b, "DELETE", "/old", 204, NULL, NULL, NULL);
}

/* Every request s received carried header name with value (value NULL: none carried it). */
static void assert_every_request_header(test_server *s, const char *name, const char *value) {
    size_t n = test_server_request_count(s);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const char *got = test_server_header(s, i, name);
        if (value ? !got || strcmp(got, value) != 0 || test_server_header_count(s, i, name) != 1 : got != NULL)
            fail_msg("%s %s carried %s: %s (expected %s)", test_server_method(s, i), test_server_url(s, i), name,
                     got ? got : "(none)", value ? value : "(none)");
    }
}

static void header_goes_only_to_its_origin(void **state) {
    fixture *f = *state;
    both_origins_setup(f);
    agent_header_option header = {.origin = (char *)test_server_base(f->a), .name = "Authorization",
                                   .value = "Bearer s3cret"};
    f->opt.headers = &header;
    f->opt.header_count = 1;
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 0);
    /* A saw its GETs and its PUT, B its GET, the redirected GET, the PUT, the POST and the DELETE */
    assert_int_equal(test_server_count(f->a, "GET", "/doc"), 1);
    assert_int_equal(test_server_count(f->a, "GET", "/to"), 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/w"), 1);
    assert_int_equal(test_server_count(f->b, "GET", "/landing"), 1);
    assert_int_equal(test_server_count(f->b, "PUT", "/w"), 1);
    assert_int_equal(test_server_count(f->b, "POST", "/c/"), 1);
    assert_int_equal(test_server_count(f->b, "DELETE", "/old"), 1);
    assert_every_request_header(f->a, "Authorization", "Bearer s3cret");
    assert_every_request_header(f->b, "Authorization", NULL);
}

/* Without ORIGIN= a header goes to the --allow-origin origins, never elsewhere. */
static void header_without_origin_goes_to_allowed_origins(void **state) {
    fixture *f = *state;
    both_origins_setup(f);
    agent_header_option header = {.name = "X-Api-Key", .value = "k1"};
    f->opt.headers = &header;
    f->opt.header_count = 1;
    char *allowed[] = {(char *)test_server_base(f->a)};
    f->opt.allow_origins = allowed;
    f->opt.allow_origin_count = 1;
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/w"), 1);
    assert_every_request_header(f->a, "X-Api-Key", "k1");
    assert_every_request_header(f->b, "X-Api-Key", NULL);
}

/* --allow-origin: unsafe requests elsewhere are refused and reported, GETs elsewhere still made. */
static void allow_origin_refuses_other_writes(void **state) {
    fixture *f = *state;
    both_origins_setup(f);
    char allowed_text[96];
    snprintf(allowed_text, sizeof allowed_text, "%s/", test_server_base(f->a)); /* a trailing '/' is allowed */
    char *allowed[] = {allowed_text};
    f->opt.allow_origins = allowed;
    f->opt.allow_origin_count = 1;
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.unsafe, 4);
    assert_int_equal(f->stats.refused, 3);
    assert_int_equal(f->stats.sent, 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/w"), 1);
    assert_int_equal(unsafe_received(f->b), 0);
    assert_int_equal(test_server_count(f->b, "GET", "/doc"), 1);
    assert_true(logged(f, "allow-origin"));
}

/* An origin is compared normalized: upper-case scheme and host, and the default port, name the same
 * origin as the URL the rule wrote. */
static void allow_origin_is_normalized(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/w> ; http:body { <@A/w#it> :x 1 . } } .\n");
    set_route(f, f->a, "PUT", "/w", 201, NULL, NULL, NULL);
    char allowed_text[96];
    snprintf(allowed_text, sizeof allowed_text, "HTTP://127.0.0.1:%u", test_server_port(f->a));
    char *allowed[] = {allowed_text};
    f->opt.allow_origins = allowed;
    f->opt.allow_origin_count = 1;
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.refused, 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/w"), 1);
}

/* A header the rule writes itself is kept: the configured one of the same name does not replace it or
 * join it. */
static void rule_header_is_kept(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/w> ;\n"
                     "  http:headers ( [ http:fieldName \"Authorization\" ; http:fieldValue \"Bearer rule\" ] ) ;\n"
                     "  http:body { <@A/w#it> :x 1 . } } .\n");
    set_route(f, f->a, "PUT", "/w", 201, NULL, NULL, NULL);
    agent_header_option header = {.origin = (char *)test_server_base(f->a), .name = "Authorization",
                                  .value = "Bearer s3cret"};
    f->opt.headers = &header;
    f->opt.header_count = 1;
    assert_int_equal(iterate_once(f), 0);
    assert_every_request_header(f->a, "Authorization", "Bearer rule");
}

/* A malformed origin is bad input: agent_new fails with a message, it does not send the header anywhere. */
static void bad_header_origin_is_an_error(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n");
    agent_header_option header = {.origin = "ftp://example.org/path", .name = "Authorization", .value = "x"};
    f->opt.headers = &header;
    f->opt.header_count = 1;
    char error[512] = "";
    agent *a = agent_new(&f->opt, &f->log, error, sizeof error);
    assert_null(a);
    assert_true(error[0] != '\0');
    assert_int_equal(test_server_request_count(f->a), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(header_goes_only_to_its_origin, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(header_without_origin_goes_to_allowed_origins, fixture_setup,
                                        fixture_teardown),
        cmocka_unit_test_setup_teardown(allow_origin_refuses_other_writes, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(allow_origin_is_normalized, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(rule_header_is_kept, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(bad_header_origin_is_an_error, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
