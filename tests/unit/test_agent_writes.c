/* test_agent_writes.c: conditional headers and tasks (DESIGN section 2) against an in-process server.
 * Conditions: If-Match with the strong ETag read, If-None-Match: * after a 404, none for a weak or
 * missing ETag (as written) while an ldgsm:UPDATE is then held unless allow_unconditional_status; a
 * rule's own condition kept; POST and tasks never conditional; a 412 reported. Tasks: sent only after the
 * composed write they wait for returned 2xx, never when it failed or was not sent; a task targeting a
 * document updated in the iteration refused; a task withheld for its own reasons holds its write back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent_test_harness.c"

static const char turtle_on[] = "<#it> <http://ex.org/state> \"on\" .";

/* ---- conditional headers ---- */

/* Reads /doc, /upd, /del and the container /c/, all with strong ETags; writes each one way. */
static void strong_etag_gives_if_match(void **state) {
    fixture *f = *state;
    write_program(f,
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/upd> } .\n"
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/del> } .\n"
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/c/> } .\n"
                  "{ <@A/doc#it> :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/doc> ;\n"
                  "    http:body { <@A/doc#it> :state \"off\" . } } .\n"
                  "{ <@A/upd#it> :state \"on\" . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/upd#it> ;\n"
                  "    http:body { <@A/upd#it> :state \"off\" . } } .\n"
                  "{ <@A/del#it> :state \"on\" . } => { [] http:mthd httpm:DELETE ; http:requestURI <@A/del> } .\n"
                  "{ <@A/c/#it> :state \"on\" . } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ;\n"
                  "    http:body { this:it :state \"new\" . } } .\n");
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", turtle_on, "\"e-doc\"");
    set_route(f, f->a, "GET", "/upd", 200, "text/turtle", turtle_on, "\"e-upd\"");
    set_route(f, f->a, "GET", "/del", 200, "text/turtle", turtle_on, "\"e-del\"");
    set_route(f, f->a, "GET", "/c/", 200, "text/turtle", turtle_on, "\"e-c\"");
    set_route(f, f->a, "PUT", "/doc", 204, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/upd", 204, NULL, NULL, NULL);
    set_route(f, f->a, "DELETE", "/del", 204, NULL, NULL, NULL);
    set_route(f, f->a, "POST", "/c/", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 4);
    assert_string_equal(header_of(f->a, "PUT", "/doc", "If-Match"), "\"e-doc\"");
    assert_null(header_of(f->a, "PUT", "/doc", "If-None-Match"));
    assert_string_equal(header_of(f->a, "PUT", "/upd", "If-Match"), "\"e-upd\"");
    assert_null(header_of(f->a, "PUT", "/upd", "If-None-Match"));
    assert_string_equal(header_of(f->a, "DELETE", "/del", "If-Match"), "\"e-del\"");
    assert_null(header_of(f->a, "POST", "/c/", "If-Match"));
    assert_null(header_of(f->a, "POST", "/c/", "If-None-Match"));
}

/* A write the agent made conditional on what it read goes on the GET's kept connection (a second copy
 * would fail its precondition, so it may be resent: http_request.repeatable; reset_write_is_not_repeated
 * checks that a POST is not). */
static void conditional_write_reuses_the_connection(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/upd> } .\n"
                     "{ <@A/upd#it> :state \"on\" . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/upd#it> ;\n"
                     "    http:body { <@A/upd#it> :state \"off\" . } } .\n");
    set_route(f, f->a, "GET", "/upd", 200, "text/turtle", turtle_on, "\"e-upd\"");
    set_route(f, f->a, "PUT", "/upd", 204, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 1);
    assert_string_equal(header_of(f->a, "PUT", "/upd", "If-Match"), "\"e-upd\"");
    assert_int_equal(test_server_connections(f->a), 1);
}

/* A 404 target: If-None-Match: * on an as-written PUT and on a composed update. */
static void missing_target_gives_if_none_match(void **state) {
    fixture *f = *state;
    write_program(f,
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/new> } .\n"
                  "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/new2> } .\n"
                  "{ <@A/new> ldgsm:httpStatus 404 . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/new> ;\n"
                  "    http:body { <@A/new#it> :made 1 . } } .\n"
                  "{ <@A/new2> ldgsm:httpStatus 404 . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/new2#it> ;\n"
                  "    http:body { <@A/new2#it> :made 2 . } } .\n");
    set_route(f, f->a, "PUT", "/new", 201, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/new2", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 2);
    assert_string_equal(header_of(f->a, "PUT", "/new", "If-None-Match"), "*");
    assert_null(header_of(f->a, "PUT", "/new", "If-Match"));
    assert_string_equal(header_of(f->a, "PUT", "/new2", "If-None-Match"), "*");
    assert_null(header_of(f->a, "PUT", "/new2", "If-Match"));
    char *body = body_of(f->a, "PUT", "/new2");
    char *nt = turtle_as_ntriples(body, "http://x.test/new2");
    assert_non_null(strstr(nt, "<http://x.test/new2#it> <http://ex.org/made> \"2\""));
    free(nt);
    free(body);
}

/* A weak ETag (and no ETag): an as-written PUT goes without a condition; an update is held. */
static const char unconditional_program[] =
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/weak> } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/none> } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/st> } .\n"
    "{ <@A/weak#it> :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/weak> ;\n"
    "    http:body { <@A/weak#it> :state \"off\" . } } .\n"
    "{ <@A/none#it> :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/none> ;\n"
    "    http:body { <@A/none#it> :state \"off\" . } } .\n"
    "{ <@A/st#it> :state \"on\" . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/st#it> ;\n"
    "    http:body { <@A/st#it> :state \"off\" . } } .\n";

static void unconditional_setup(fixture *f, const char *status_etag) {
    write_program(f, unconditional_program);
    set_route(f, f->a, "GET", "/weak", 200, "text/turtle", turtle_on, "W/\"w1\"");
    set_route(f, f->a, "GET", "/none", 200, "text/turtle", turtle_on, NULL);
    set_route(f, f->a, "GET", "/st", 200, "text/turtle", turtle_on, status_etag);
    for (const char *const *p = (const char *const[]){"/weak", "/none", "/st", NULL}; *p; p++)
        set_route(f, f->a, "PUT", *p, 204, NULL, NULL, NULL);
}

static void assert_unconditional(fixture *f, const char *path) {
    assert_int_equal(test_server_count(f->a, "PUT", path), 1);
    assert_null(header_of(f->a, "PUT", path, "If-Match"));
    assert_null(header_of(f->a, "PUT", path, "If-None-Match"));
}

static void weak_etag_update_is_held(void **state) {
    fixture *f = *state;
    const char *status_etags[] = {"W/\"s1\"", NULL};
    for (size_t i = 0; i < 2; i++) {
        unconditional_setup(f, status_etags[i]);
        size_t before = test_server_request_count(f->a);
        assert_int_equal(iterate_once(f), 0);
        assert_int_equal(f->stats.withheld, 1);
        assert_int_equal(f->stats.sent, 2);
        assert_int_equal(test_server_count(f->a, "PUT", "/st"), 0);
        /* the as-written PUTs of this round, each once and unconditional */
        for (size_t k = before; k < test_server_request_count(f->a); k++) {
            if (strcmp(test_server_method(f->a, k), "PUT") != 0)
                continue;
            assert_null(test_server_header(f->a, k, "If-Match"));
            assert_null(test_server_header(f->a, k, "If-None-Match"));
        }
    }
    assert_int_equal(test_server_count(f->a, "PUT", "/weak"), 2);
    assert_int_equal(test_server_count(f->a, "PUT", "/none"), 2);
}

static void unconditional_status_allowed(void **state) {
    fixture *f = *state;
    unconditional_setup(f, "W/\"s1\"");
    f->opt.allow_unconditional_status = true;
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.withheld, 0);
    assert_int_equal(f->stats.sent, 3);
    assert_unconditional(f, "/st");
    assert_unconditional(f, "/weak");
    assert_unconditional(f, "/none");
}

/* Weak or no ETag: one warning per origin, not one per write. */
static void unconditional_warning_once_per_origin(void **state) {
    fixture *f = *state;
    unconditional_setup(f, "\"s1\"");
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 3);
    if (logged_count(f, "without a condition") != 1)
        fail_msg("expected one warning for the origin, got %zu:\n%s", logged_count(f, "without a condition"),
                 f->log_text.data);
}

/* A condition the rule writes itself is kept and none is added beside it. */
static void rule_condition_is_kept(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
                     "{ <@A/doc#it> :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/doc> ;\n"
                     "  http:headers ( [ http:fieldName \"If-Match\" ; http:fieldValue \"\\\"mine\\\"\" ] ) ;\n"
                     "  http:body { <@A/doc#it> :state \"off\" . } } .\n");
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", turtle_on, "\"e1\"");
    set_route(f, f->a, "PUT", "/doc", 204, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    long put = test_server_find(f->a, "PUT", "/doc", 0);
    assert_true(put >= 0);
    assert_int_equal(test_server_header_count(f->a, (size_t)put, "If-Match"), 1);
    assert_string_equal(test_server_header(f->a, (size_t)put, "If-Match"), "\"mine\"");
    assert_null(test_server_header(f->a, (size_t)put, "If-None-Match"));
}

/* A 412 is reported and counted; the next iteration decides again (the agent keeps no state). */
static void precondition_failed_is_reported(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
                     "{ <@A/doc#it> :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/doc> ;\n"
                     "  http:body { <@A/doc#it> :state \"off\" . } } .\n");
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", turtle_on, "\"e1\"");
    set_route(f, f->a, "PUT", "/doc", 412, NULL, NULL, NULL);
    agent *a = new_agent(f);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(f->stats.sent, 1);
    assert_int_equal(f->stats.failed, 1);
    assert_true(logged(f, "412"));
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", turtle_on, "\"e2\"");
    set_route(f, f->a, "PUT", "/doc", 204, NULL, NULL, NULL);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    agent_free(a);
    assert_int_equal(f->stats.failed, 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/doc"), 2);
    long second = test_server_find(f->a, "PUT", "/doc", (size_t)test_server_find(f->a, "PUT", "/doc", 0) + 1);
    assert_string_equal(test_server_header(f->a, (size_t)second, "If-Match"), "\"e2\"");
}

/* ---- identity, conflicts, composition ---- */

/* An update to a document not read in this iteration is withheld: there is nothing to compose from. */
static void update_of_unread_document_withheld(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/unread#it> ;\n"
                     "  http:body { <@A/unread#it> :state \"on\" . } } .\n");
    set_route(f, f->a, "PUT", "/unread", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.unsafe, 1);
    assert_int_equal(f->stats.withheld, 1);
    assert_int_equal(unsafe_received(f->a), 0);
}

/* Identical POSTs are two commands when their ldgsm:key differs, one when it is the same; POSTs to one
 * container never conflict. */
static void post_identity_and_keys(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ; ldgsm:key :k1 ;\n"
                     "  http:body { this:it :cmd \"go\" . } } .\n"
                     "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ; ldgsm:key :k2 ;\n"
                     "  http:body { this:it :cmd \"go\" . } } .\n"
                     "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ; ldgsm:key :k2 ;\n"
                     "  http:body { this:it :cmd \"go\" . } } .\n"
                     "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/c/> ;\n"
                     "  http:body { this:it :cmd \"other\" . } } .\n");
    set_route(f, f->a, "POST", "/c/", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.conflicts, 0);
    assert_int_equal(f->stats.sent, 3);
    assert_int_equal(test_server_count(f->a, "POST", "/c/"), 3);
}

/* The loser of a priority collision yields whole: every request sharing its ldgsm:key is dropped, a task
 * included, while the winner's write goes. */
static void loser_key_yields_everywhere(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/st> } .\n"
                     "{ <@A/st#it> :state \"ready\" . } => {\n"
                     "  [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/st#it> ; ldgsm:key :win ; ldgsm:priority 2 ;\n"
                     "     http:body { <@A/st#it> :state \"won\" . } } .\n"
                     "{ <@A/st#it> :state \"ready\" . } => {\n"
                     "  [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/st#it> ; ldgsm:key :lose ; ldgsm:priority 1 ;\n"
                     "     http:body { <@A/st#it> :state \"lost\" . } .\n"
                     "  [] http:mthd httpm:POST ; http:requestURI <@A/inbox/> ; ldgsm:key :lose ; ldgsm:after <@A/st> ;\n"
                     "     http:body { this:it :command \"lost\" . } } .\n");
    set_route(f, f->a, "GET", "/st", 200, "text/turtle", "<#it> <http://ex.org/state> \"ready\" .", "\"s1\"");
    set_route(f, f->a, "PUT", "/st", 204, NULL, NULL, NULL);
    set_route(f, f->a, "POST", "/inbox/", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.yielded, 2);
    assert_int_equal(f->stats.conflicts, 0);
    assert_int_equal(test_server_count(f->a, "POST", "/inbox/"), 0);
    char *body = body_of(f->a, "PUT", "/st");
    char *nt = turtle_as_ntriples(body, "http://x.test/st");
    assert_non_null(strstr(nt, "<http://x.test/st#it> <http://ex.org/state> \"won\""));
    assert_null(strstr(nt, "\"lost\""));
    free(nt);
    free(body);
}

/* ---- tasks ---- */

/* /st is a status document read with a strong ETag; when it says "ready" an update starts it and two
 * tasks wait on that write: a POST to /inbox/ and a PUT to /log (read with a strong ETag too). */
static const char task_program[] =
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/st> } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/log> } .\n"
    "{ <@A/st#it> :state \"ready\" . } => {\n"
    "  [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/st#it> ; http:body { <@A/st#it> :state \"started\" . } .\n"
    "  [] http:mthd httpm:POST ; http:requestURI <@A/inbox/> ; ldgsm:after <@A/st> ;\n"
    "     http:body { this:it :command \"go\" . } .\n"
    "  [] http:mthd httpm:PUT ; http:requestURI <@A/log> ; ldgsm:after <@A/st> ;\n"
    "     http:body { <@A/log#it> :entry \"started\" . } } .\n";

static void task_setup(fixture *f, const char *extra, unsigned status_put_answer) {
    buf program = {0};
    buf_puts(&program, task_program);
    buf_puts(&program, extra);
    write_program(f, buf_cstr(&program));
    buf_free(&program);
    set_route(f, f->a, "GET", "/st", 200, "text/turtle", "<#it> <http://ex.org/state> \"ready\" .", "\"s1\"");
    set_route(f, f->a, "GET", "/log", 200, "text/turtle", "<#it> <http://ex.org/entry> \"none\" .", "\"l1\"");
    set_route(f, f->a, "GET", "/sensor", 200, "text/turtle", "<#it> <http://ex.org/v> 1 .", "\"v1\"");
    set_route(f, f->a, "PUT", "/st", status_put_answer, NULL, NULL, NULL);
    set_route(f, f->a, "POST", "/inbox/", 201, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/log", 204, NULL, NULL, NULL);
}

static void assert_no_task_sent(fixture *f) {
    assert_int_equal(test_server_count(f->a, "POST", "/inbox/"), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/log"), 0);
}

static void task_follows_its_write(void **state) {
    fixture *f = *state;
    task_setup(f, "", 204);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.sent, 3);
    assert_int_equal(f->stats.withheld, 0);
    long put = test_server_find(f->a, "PUT", "/st", 0);
    long post = test_server_find(f->a, "POST", "/inbox/", 0);
    long log_put = test_server_find(f->a, "PUT", "/log", 0);
    assert_true(put >= 0 && post > put && log_put > put);
    assert_string_equal(test_server_header(f->a, (size_t)put, "If-Match"), "\"s1\"");
    /* tasks are not conditional */
    assert_null(test_server_header(f->a, (size_t)post, "If-Match"));
    assert_null(test_server_header(f->a, (size_t)log_put, "If-Match"));
    assert_null(test_server_header(f->a, (size_t)log_put, "If-None-Match"));
    char *body = body_of(f->a, "PUT", "/st");
    char *nt = turtle_as_ntriples(body, "http://x.test/st");
    assert_non_null(strstr(nt, "<http://x.test/st#it> <http://ex.org/state> \"started\""));
    assert_null(strstr(nt, "\"ready\""));
    free(nt);
    free(body);
}

/* The write a task waits for fails (412, 500, a reset): the task is not sent. */
static void task_not_sent_when_its_write_fails(void **state) {
    fixture *f = *state;
    const unsigned answers[] = {412, 500, 0};
    for (size_t i = 0; i < 3; i++) {
        task_setup(f, "", answers[i]);
        size_t before = test_server_count(f->a, "PUT", "/st");
        assert_int_equal(iterate_once(f), 0);
        if (test_server_count(f->a, "PUT", "/st") == before)
            fail_msg("answer %u: the status write was not tried", answers[i]);
        assert_int_equal(f->stats.failed, 1);
        assert_no_task_sent(f);
    }
}

/* An unsafe request whose connection is closed before an answer has an unknown outcome: it is reported.
 * An unconditional one (the POST) is not sent again within the iteration: the server may have acted on
 * it. A conditional one (the PUT, If-Match of the GET's ETag) may be sent once more on a fresh connection
 * (writes reuse connections): a second copy of a write the server took fails its precondition. Each
 * request follows a GET on a kept-alive connection, the case where a client is tempted to retry. */
static void reset_write_is_not_repeated(void **state) {
    fixture *f = *state;
    static const char *const writes[][2] = {
        {"PUT", "{ <@A/doc#it> :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/doc> ;\n"
                "  http:body { <@A/doc#it> :state \"off\" . } } .\n"},
        {"POST", "{ <@A/doc#it> :state \"on\" . } => { [] http:mthd httpm:POST ; http:requestURI <@A/doc> ;\n"
                 "  http:body { this:it :command \"go\" . } } .\n"},
    };
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", turtle_on, "\"e1\"");
    for (size_t i = 0; i < 2; i++) {
        buf program = {0};
        buf_puts(&program, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n");
        buf_puts(&program, writes[i][1]);
        write_program(f, buf_cstr(&program));
        buf_free(&program);
        set_route(f, f->a, writes[i][0], "/doc", 0, NULL, NULL, NULL);
        buf_free(&f->log_text);
        assert_int_equal(iterate_once(f), 0);
        assert_int_equal(f->stats.failed, 1);
        assert_true(logged(f, "outcome unknown"));
        size_t sent = test_server_count(f->a, writes[i][0], "/doc"), at_most = i == 0 ? 2 : 1;
        if (sent < 1 || sent > at_most)
            fail_msg("%s sent %zu times, expected 1 to %zu", writes[i][0], sent, at_most);
        for (size_t r = 0; r < test_server_request_count(f->a); r++) {
            if (strcmp(test_server_method(f->a, r), writes[i][0]) != 0)
                continue;
            const char *if_match = test_server_header(f->a, r, "If-Match");
            if (i == 0 ? !if_match || strcmp(if_match, "\"e1\"") != 0 : if_match != NULL)
                fail_msg("%s sent with If-Match %s", writes[i][0], if_match ? if_match : "(none)");
        }
    }
}

/* An update that changes nothing is not sent, so its tasks are not either. */
static void task_not_sent_without_a_write(void **state) {
    fixture *f = *state;
    task_setup(f, "", 204);
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/st> } .\n"
                     "{ <@A/st#it> :state \"ready\" . } => {\n"
                     "  [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/st#it> ; http:body { <@A/st#it> :state \"ready\" . } .\n"
                     "  [] http:mthd httpm:POST ; http:requestURI <@A/inbox/> ; ldgsm:after <@A/st> ;\n"
                     "     http:body { this:it :command \"go\" . } } .\n"
                     "{ <@A/st#it> :state \"ready\" . } => {\n"
                     "  [] http:mthd httpm:POST ; http:requestURI <@A/inbox/> ; ldgsm:after <@A/nowhere> ;\n"
                     "     http:body { this:it :command \"stray\" . } } .\n");
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/st"), 0);
    assert_int_equal(test_server_count(f->a, "POST", "/inbox/"), 0);
    assert_int_equal(unsafe_received(f->a), 0);
}

/* A task writing a document that an update writes in this iteration is refused; a refused task holds
 * back the write it waits for, so the activation is retried next iteration. */
static void task_on_status_document_refused(void **state) {
    fixture *f = *state;
    task_setup(f, "", 204);
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/st> } .\n"
                     "{ <@A/st#it> :state \"ready\" . } => {\n"
                     "  [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/st#it> ; http:body { <@A/st#it> :state \"started\" . } .\n"
                     "  [] http:mthd httpm:POST ; http:requestURI <@A/st> ; ldgsm:after <@A/st> ;\n"
                     "     http:body { this:it :command \"go\" . } } .\n");
    set_route(f, f->a, "POST", "/st", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.refused, 1);
    assert_int_equal(test_server_count(f->a, "POST", "/st"), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/st"), 0);
    assert_true(logged(f, "refused"));
}

/* A task withheld by the hold policy (its group's GET failed) holds back the ungrouped update it waits
 * for. */
static void held_task_holds_its_write(void **state) {
    fixture *f = *state;
    task_setup(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/sensor> ; ldgsm:group :G } .\n"
                  "{ <@A/st#it> :state \"ready\" . } => {\n"
                  "  [] http:mthd httpm:POST ; http:requestURI <@A/inbox/> ; ldgsm:after <@A/st> ; ldgsm:group :G ;\n"
                  "     http:body { this:it :command \"grouped\" . } } .\n",
               204);
    set_route(f, f->a, "GET", "/sensor", 500, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/st"), 0);
    assert_no_task_sent(f);
}

/* Two updates of equal priority giving the status slot different values: the composed write and every
 * task waiting on it are withheld. */
static void conflicting_write_withholds_its_tasks(void **state) {
    fixture *f = *state;
    task_setup(f, "{ <@A/st#it> :state \"ready\" . } => { [] http:mthd ldgsm:UPDATE ; http:requestURI <@A/st#it> ;\n"
                  "    http:body { <@A/st#it> :state \"cancelled\" . } } .\n",
               204);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.conflicts, 2);
    assert_int_equal(f->stats.sent, 0);
    assert_int_equal(unsafe_received(f->a), 0);
}

/* Three instances (groups) PUTting one resource with their own bodies take turns: one goes, the others
 * are withheld (withholding all, as a conflict does, repeated every iteration); the one that waited most
 * goes next, so each has its turn before the first goes again. One instance's two different PUTs to one
 * resource, or two without a group, still conflict. */
static void instances_writes_to_one_resource_take_turns(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/shared> ; ldgsm:group :i2 ;\n"
                     "  http:body { <@A/shared#it> :by \"i2\" . } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/shared> ; ldgsm:group :i0 ;\n"
                     "  http:body { <@A/shared#it> :by \"i0\" . } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/shared> ; ldgsm:group :i1 ;\n"
                     "  http:body { <@A/shared#it> :by \"i1\" . } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/mine> ; ldgsm:group :i3 ;\n"
                     "  http:body { <@A/mine#it> :by \"one\" . } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/mine> ; ldgsm:group :i3 ;\n"
                     "  http:body { <@A/mine#it> :by \"two\" . } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/nobody> ;\n"
                     "  http:body { <@A/nobody#it> :by \"one\" . } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/nobody> ;\n"
                     "  http:body { <@A/nobody#it> :by \"two\" . } } .\n");
    set_route(f, f->a, "PUT", "/shared", 204, NULL, NULL, NULL);
    agent *a = new_agent(f);
    const char *expected[] = {"i0", "i1", "i2", "i0"};
    for (size_t round = 0; round < 4; round++) {
        assert_int_equal(agent_iterate(a, &f->stats), 0);
        assert_int_equal(f->stats.sent, 1);
        assert_int_equal(f->stats.withheld, 2);
        assert_int_equal(f->stats.conflicts, 4);
        assert_int_equal(test_server_count(f->a, "PUT", "/shared"), round + 1);
        size_t len;
        const char *body = test_server_body(f->a, test_server_request_count(f->a) - 1, &len);
        char by[16];
        snprintf(by, sizeof by, "\"%s\"", expected[round]);
        char *text = xstrndup(body, len);
        assert_non_null(strstr(text, by));
        free(text);
    }
    agent_free(a);
    assert_int_equal(test_server_count(f->a, "PUT", "/mine") + test_server_count(f->a, "PUT", "/nobody"), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(strong_etag_gives_if_match, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(conditional_write_reuses_the_connection, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(missing_target_gives_if_none_match, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(weak_etag_update_is_held, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(unconditional_status_allowed, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(unconditional_warning_once_per_origin, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(rule_condition_is_kept, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(precondition_failed_is_reported, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(update_of_unread_document_withheld, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(post_identity_and_keys, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(loser_key_yields_everywhere, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(task_follows_its_write, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(task_not_sent_when_its_write_fails, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(reset_write_is_not_repeated, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(task_not_sent_without_a_write, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(task_on_status_document_refused, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(held_task_holds_its_write, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(conflicting_write_withholds_its_tasks, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(instances_writes_to_one_resource_take_turns, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
