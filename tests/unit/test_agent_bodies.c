/* test_agent_bodies.c: what the agent puts on the wire and what it refuses to derive (DESIGN sections 1
 * and 2): PUT bodies with `this:` and same-document IRIs relative, POST bodies with other IRIs absolute,
 * literal bodies sent raw with the rule's Content-Type, composed updates relative and keeping the other
 * triples; request-looking data never sent; a chase that does not terminate hits the fresh-node cap and
 * holds the iteration with nothing unsafe sent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent_test_harness.c"

static const char placeholder_text[] = "nxparser";

/* The absolute form of path on server s, e.g. "http://127.0.0.1:PORT/doc". */
static char *absolute(const test_server *s, const char *path) {
    buf b = {0};
    buf_printf(&b, "%s%s", test_server_base(s), path);
    return buf_cstr(&b);
}

static void assert_contains(const char *text, const char *part) {
    if (!strstr(text, part))
        fail_msg("expected %s in:\n%s", part, text);
}

static void assert_lacks(const char *text, const char *part) {
    if (strstr(text, part))
        fail_msg("did not expect %s in:\n%s", part, text);
}

/* A PUT body: this: and the target's own IRIs relative; read back against the request URI it means what
 * the rule said. */
static void put_body_is_relative(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/dir/doc> ;\n"
                     "  http:body { this:it :p <@A/dir/doc#x> ; :q <@A/dir/doc> ; :r <@B/far#y> ; :s \"v\" . } } .\n");
    set_route(f, f->a, "PUT", "/dir/doc", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 1);
    assert_string_equal(header_of(f->a, "PUT", "/dir/doc", "Content-Type"), "text/turtle");
    char *body = body_of(f->a, "PUT", "/dir/doc");
    char *target = absolute(f->a, "/dir/doc");
    assert_lacks(body, placeholder_text);
    assert_lacks(body, target);
    assert_contains(body, "<#it>");
    assert_contains(body, "<#x>");
    /* read back at another base, every IRI of the document moves with it; the other origin's stays */
    char *nt = turtle_as_ntriples(body, "http://moved.test/dir/doc");
    char *far = absolute(f->b, "/far#y");
    buf expected = {0};
    buf_printf(&expected, "<http://moved.test/dir/doc#it> <http://ex.org/r> <%s>", far);
    assert_contains(nt, "<http://moved.test/dir/doc#it> <http://ex.org/p> <http://moved.test/dir/doc#x>");
    assert_contains(nt, "<http://moved.test/dir/doc#it> <http://ex.org/q> <http://moved.test/dir/doc>");
    assert_contains(nt, buf_cstr(&expected));
    assert_contains(nt, "<http://moved.test/dir/doc#it> <http://ex.org/s> \"v\"");
    buf_free(&expected);
    free(far);
    free(nt);
    free(target);
    free(body);
}

/* A POST body: this: stands for the new member and is written relative; every other IRI is absolute. */
static void post_body_keeps_other_iris_absolute(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ;\n"
                     "  http:body { this:it :p <@A/c/doc#x> ; :q <@A/c/> ; :r this:other . } } .\n");
    set_route(f, f->a, "POST", "/c/", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 1);
    assert_string_equal(header_of(f->a, "POST", "/c/", "Content-Type"), "text/turtle");
    char *body = body_of(f->a, "POST", "/c/");
    assert_lacks(body, placeholder_text);
    assert_contains(body, "<#it>");
    assert_contains(body, "<#other>");
    char *doc_x = absolute(f->a, "/c/doc#x");
    char *container = absolute(f->a, "/c/");
    buf x = {0}, c = {0};
    buf_printf(&x, "<%s>", doc_x);
    buf_printf(&c, "<%s>", container);
    assert_contains(body, buf_cstr(&x));
    assert_contains(body, buf_cstr(&c));
    /* the server resolves it against the member it creates */
    char *nt = turtle_as_ntriples(body, "http://moved.test/c/m1");
    buf expected = {0};
    buf_printf(&expected, "<http://moved.test/c/m1#it> <http://ex.org/p> <%s>", doc_x);
    assert_contains(nt, buf_cstr(&expected));
    assert_contains(nt, "<http://moved.test/c/m1#it> <http://ex.org/r> <http://moved.test/c/m1#other>");
    buf_free(&expected);
    buf_free(&x);
    buf_free(&c);
    free(nt);
    free(container);
    free(doc_x);
    free(body);
}

/* A literal body is sent byte for byte, with the Content-Type the rule gave and no other. */
static void literal_body_is_sent_raw(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/raw> ;\n"
                     "  http:headers ( [ http:fieldName \"Content-Type\" ; http:fieldValue \"text/plain; charset=utf-8\" ] ) ;\n"
                     "  http:body \"line one\\n<not> <an> <iri> & \\\"quoted\\\" caf\\u00e9\" } .\n"
                     "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ;\n"
                     "  http:headers ( [ http:fieldName \"Content-Type\" ; http:fieldValue \"text/turtle\" ] ) ;\n"
                     "  http:body \"<#it> <http://ex.org/p> <rel> .\" } .\n");
    set_route(f, f->a, "PUT", "/raw", 201, NULL, NULL, NULL);
    set_route(f, f->a, "POST", "/c/", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 2);
    char *body = body_of(f->a, "PUT", "/raw");
    assert_string_equal(body, "line one\n<not> <an> <iri> & \"quoted\" caf\xc3\xa9");
    long put = test_server_find(f->a, "PUT", "/raw", 0);
    assert_int_equal(test_server_header_count(f->a, (size_t)put, "Content-Type"), 1);
    assert_string_equal(test_server_header(f->a, (size_t)put, "Content-Type"), "text/plain; charset=utf-8");
    free(body);
    body = body_of(f->a, "POST", "/c/");
    assert_string_equal(body, "<#it> <http://ex.org/p> <rel> .");
    assert_string_equal(header_of(f->a, "POST", "/c/", "Content-Type"), "text/turtle");
    free(body);
}

/* A composed update: the replaced slot's old values go, the other triples stay, IRIs are relative. */
static void composed_update_body(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
                     "{ <@A/doc#x> :a 1 . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/doc#x> ;\n"
                     "  http:body { <@A/doc#x> :a 2 . } ; ldgsm:add { <@A/doc#x> :seen this:it . } } .\n");
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle",
              "<#x> <http://ex.org/a> 1 ; <http://ex.org/keep> <#y> ; <http://ex.org/far> <@B/z> .", "\"d1\"");
    set_route(f, f->a, "PUT", "/doc", 204, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 1);
    char *body = body_of(f->a, "PUT", "/doc");
    char *target = absolute(f->a, "/doc");
    assert_lacks(body, placeholder_text);
    assert_lacks(body, target);
    char *nt = turtle_as_ntriples(body, "http://moved.test/doc");
    char *far = absolute(f->b, "/z");
    buf expected = {0};
    buf_printf(&expected, "<http://moved.test/doc#x> <http://ex.org/far> <%s>", far);
    assert_contains(nt, "<http://moved.test/doc#x> <http://ex.org/a> \"2\"");
    assert_lacks(nt, "<http://ex.org/a> \"1\"");
    assert_contains(nt, "<http://moved.test/doc#x> <http://ex.org/keep> <http://moved.test/doc#y>");
    assert_contains(nt, "<http://moved.test/doc#x> <http://ex.org/seen> <http://moved.test/doc#it>");
    assert_contains(nt, buf_cstr(&expected));
    buf_free(&expected);
    free(far);
    free(nt);
    free(target);
    free(body);
}

/* Request-looking data (in a crawled document and in the program's facts) is never a request. */
static void data_describing_a_request_is_not_sent(void **state) {
    fixture *f = *state;
    write_program(f, "[] http:mthd httpm:DELETE ; http:requestURI <@A/victim> .\n"
                     "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n");
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle",
              "[] <http://www.w3.org/2011/http#mthd> <http://www.w3.org/2011/http-methods#PUT> ;\n"
              "   <http://www.w3.org/2011/http#requestURI> <@A/victim> ;\n"
              "   <http://www.w3.org/2011/http#body> \"x\" .",
              NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.triples_read, 3);
    assert_int_equal(f->stats.unsafe, 0);
    assert_int_equal(unsafe_received(f->a), 0);
}

/* A chase that does not terminate hits the fresh-node cap: the iteration is held (-1), the rule is
 * named, and nothing unsafe is sent, not even an unconditional request. */
static void fresh_node_cap_holds_the_iteration(void **state) {
    fixture *f = *state;
    f->opt.max_fresh_nodes = 100;
    write_program(f, ":a a :P .\n"
                     "{ ?x a :P . } => { ?x :parent [ a :P ] . } .\n"
                     "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/out> ; http:body { <@A/out#it> :x 1 . } } .\n"
                     "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ; http:body { this:it :x 1 . } } .\n");
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", "<#it> <http://ex.org/v> 1 .", NULL);
    assert_int_equal(iterate_once(f), -1);
    assert_int_equal(unsafe_received(f->a), 0);
    assert_int_equal(f->stats.sent, 0);
    assert_true(logged(f, "program.n3:"));
    assert_true(logged(f, "fresh"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(put_body_is_relative, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(post_body_keeps_other_iris_absolute, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(literal_body_is_sent_raw, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(composed_update_body, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(data_describing_a_request_is_not_sent, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(fresh_node_cap_holds_the_iteration, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
