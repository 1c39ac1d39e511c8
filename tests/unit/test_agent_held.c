/* test_agent_held.c: the documents the agent holds per strong ETag across iterations (agent/doc_cache.h),
 * against an in-process server whose routes a test changes between iterations: the next GET sends the tag
 * in If-None-Match, a 304 (or a 200 with the same tag) brings back the triples held without a parse, a new
 * tag is parsed, a weak tag holds nothing, a 304 for nothing held is a failure, and a composed write that
 * returned a strong ETag is held as the document it wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent_test_harness.c"

/* Copies the state of /doc into /saw every iteration. */
static const char copy_program[] =
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
    "{ <@A/doc#it> :state ?s . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/saw> ;\n"
    "    http:body { <@A/saw#it> :state ?s . } } .\n";

/* The index of the n-th (from 0) request with method to path. */
static size_t nth(test_server *s, const char *method, const char *path, size_t n) {
    long i = -1;
    for (size_t k = 0; k <= n; k++) {
        i = test_server_find(s, method, path, (size_t)(i + 1));
        assert_true(i >= 0);
    }
    return (size_t)i;
}

/* The state the n-th PUT of /saw carried ("" when it carried none). */
static char *saw_state(fixture *f, size_t n) {
    size_t len;
    const char *body = test_server_body(f->a, nth(f->a, "PUT", "/saw", n), &len);
    char *text = xstrndup(body ? body : "", len);
    char *nt = turtle_as_ntriples(text, "http://x.test/saw");
    free(text);
    const char *at = strstr(nt, "<http://ex.org/state> \"");
    char *state = at ? xstrndup(at + 23, strcspn(at + 23, "\"")) : xstrndup("", 0);
    free(nt);
    return state;
}

static void assert_saw(fixture *f, size_t n, const char *expected) {
    char *state = saw_state(f, n);
    assert_string_equal(state, expected);
    free(state);
}

static agent *start(fixture *f, const char *etag) {
    write_program(f, copy_program);
    set_route(f, f->a, "PUT", "/saw", 204, NULL, NULL, NULL);
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", "<#it> <http://ex.org/state> \"on\" .", etag);
    agent *a = new_agent(f);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(f->stats.gets_held, 0);
    assert_int_equal(f->stats.triples_read, 1);
    assert_null(test_server_header(f->a, nth(f->a, "GET", "/doc", 0), "If-None-Match"));
    assert_saw(f, 0, "on");
    return a;
}

/* A 304 to the tag held: the rules see the document as it was, from what was held. */
static void not_modified_brings_back_what_was_held(void **state) {
    fixture *f = *state;
    agent *a = start(f, "\"d1\"");
    set_route(f, f->a, "GET", "/doc", 304, NULL, NULL, "\"d1\"");
    for (size_t i = 1; i <= 2; i++) {
        assert_int_equal(agent_iterate(a, &f->stats), 0);
        assert_string_equal(test_server_header(f->a, nth(f->a, "GET", "/doc", i), "If-None-Match"), "\"d1\"");
        assert_int_equal(f->stats.gets_failed, 0);
        assert_int_equal(f->stats.gets_held, 1);
        assert_int_equal(f->stats.triples_read, 1);
        assert_saw(f, i, "on");
    }
    agent_free(a);
}

/* A new tag: the new body is parsed and held; a 200 with the tag held is not parsed again. */
static void new_tag_is_read_and_same_tag_is_not(void **state) {
    fixture *f = *state;
    agent *a = start(f, "\"d1\"");
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", "<#it> <http://ex.org/state> \"off\" .", "\"d2\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(f->stats.gets_held, 0);
    assert_saw(f, 1, "off");
    /* a server that ignores If-None-Match sends the body again: its tag says it is the one held */
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_string_equal(test_server_header(f->a, nth(f->a, "GET", "/doc", 2), "If-None-Match"), "\"d2\"");
    assert_int_equal(f->stats.gets_held, 1);
    assert_saw(f, 2, "off");
    agent_free(a);
}

/* A weak tag (or none) promises no bytes: nothing is held, every read is parsed. */
static void weak_tag_holds_nothing(void **state) {
    fixture *f = *state;
    const char *tags[] = {"W/\"w1\"", NULL};
    for (size_t k = 0; k < 2; k++) {
        size_t before = test_server_count(f->a, "GET", "/doc");
        agent *a = start(f, tags[k]);
        assert_int_equal(agent_iterate(a, &f->stats), 0);
        assert_null(test_server_header(f->a, nth(f->a, "GET", "/doc", before + 1), "If-None-Match"));
        assert_int_equal(f->stats.gets_held, 0);
        assert_int_equal(f->stats.triples_read, 1);
        agent_free(a);
    }
}

/* A 304 the agent did not ask for stands for nothing: a failure that holds the writes, said. */
static void unasked_not_modified_is_a_failure(void **state) {
    fixture *f = *state;
    write_program(f, copy_program);
    set_route(f, f->a, "GET", "/doc", 304, NULL, NULL, "\"d1\"");
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 1);
    assert_int_equal(f->stats.gets_held, 0);
    assert_int_equal(unsafe_received(f->a), 0);
    assert_true(logged(f, "a 304 for a representation this agent does not hold"));
}

/* A composed write answered with a strong ETag: the next read sends that tag, and its 304 brings back the
 * document as written, blank node included. */
static void written_document_is_held(void **state) {
    fixture *f = *state;
    write_program(f,
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/upd> } .\n"
                  "{ <@A/upd#it> :state \"on\" . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/upd#it> ;\n"
                  "    http:body { <@A/upd#it> :state \"off\" ; :part [ :n 7 ] . } } .\n"
                  "{ <@A/upd#it> :state \"off\" ; :part ?b . ?b :n 7 . } => { [] http:mthd httpm:PUT ;\n"
                  "    http:requestURI <@A/saw> ; http:body { <@A/saw#it> :state \"part\" . } } .\n");
    set_route(f, f->a, "GET", "/upd", 200, "text/turtle", "<#it> <http://ex.org/state> \"on\" .", "\"u1\"");
    set_route(f, f->a, "PUT", "/upd", 204, NULL, NULL, "\"u2\"");
    set_route(f, f->a, "PUT", "/saw", 204, NULL, NULL, NULL);
    agent *a = new_agent(f);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/upd"), 1);
    set_route(f, f->a, "GET", "/upd", 304, NULL, NULL, "\"u2\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_string_equal(test_server_header(f->a, nth(f->a, "GET", "/upd", 1), "If-None-Match"), "\"u2\"");
    assert_int_equal(f->stats.gets_held, 1);
    assert_int_equal(f->stats.gets_failed, 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/saw"), 1);
    assert_saw(f, 0, "part");
    /* the document as written changes nothing: no second write */
    assert_int_equal(test_server_count(f->a, "PUT", "/upd"), 1);
    agent_free(a);
}

/* A write answered without a tag, or a failed one, leaves the old tag: the next read is a full one. */
static void untagged_write_is_not_held(void **state) {
    fixture *f = *state;
    write_program(f,
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/upd> } .\n"
                  "{ <@A/upd#it> :state \"on\" . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/upd#it> ;\n"
                  "    http:body { <@A/upd#it> :state \"off\" . } } .\n");
    set_route(f, f->a, "GET", "/upd", 200, "text/turtle", "<#it> <http://ex.org/state> \"on\" .", "\"u1\"");
    set_route(f, f->a, "PUT", "/upd", 204, NULL, NULL, NULL);
    agent *a = new_agent(f);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    /* what was read is still held under its own tag, which the server may still answer 304 to */
    assert_string_equal(test_server_header(f->a, nth(f->a, "GET", "/upd", 1), "If-None-Match"), "\"u1\"");
    agent_free(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(not_modified_brings_back_what_was_held, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(new_tag_is_read_and_same_tag_is_not, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(weak_tag_holds_nothing, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(unasked_not_modified_is_a_failure, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(written_document_is_held, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(untagged_write_is_not_held, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
