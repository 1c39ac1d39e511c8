/* test_agent_calls.c: what the agent does for calls (DESIGN section 6.1) whatever rules drive them, against
 * an in-process server: `ldgsm:idempotencyKey` becomes the Idempotency-Key header (an sf-string), replacing
 * one the headers give, a key no server accepts skips the request; the answer to a request with
 * `ldgsm:reportTo` is asserted into the next iterations (status, Location, the RDF it carried, the key and
 * the attempt; a failure's kind; only triples about the service's own resources, never about the
 * record's document or in the gsm: and ldgsm: vocabularies) and kept while a rule derives `ldgsm:awaited true` or the record's document was not read;
 * an incident a
 * rule derives is printed once while it lasts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent_test_harness.c"

static void key_becomes_the_header(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/t/> ; ldgsm:idempotencyKey \"k-1\" } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/own> ; ldgsm:idempotencyKey \"k-2\" ;\n"
                     "    http:headers ( [ http:fieldName \"Idempotency-Key\" ; http:fieldValue \"\\\"mine\\\"\" ] ) } .\n");
    set_route(f, f->a, "POST", "/t/", 201, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/own", 204, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_string_equal(header_of(f->a, "POST", "/t/", "Idempotency-Key"), "\"k-1\"");
    /* a call's key replaces one the model's headers give */
    assert_string_equal(header_of(f->a, "PUT", "/own", "Idempotency-Key"), "\"k-2\"");
    assert_int_equal(test_server_header_count(f->a, (size_t)test_server_find(f->a, "PUT", "/own", 0), "Idempotency-Key"), 1);
}

static void unusable_key_skips_the_request(void **state) {
    fixture *f = *state;
    char program[1024];
    char long_key[300];
    memset(long_key, 'k', 256);
    long_key[256] = '\0';
    snprintf(program, sizeof program,
             "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/quote/> ; ldgsm:idempotencyKey \"a\\\"b\" } .\n"
             "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/long/> ; ldgsm:idempotencyKey \"%s\" } .\n"
             "{ } => { [] http:mthd httpm:POST ; http:requestURI <@A/fine/> ; ldgsm:idempotencyKey \"%.255s\" } .\n",
             long_key, long_key);
    write_program(f, program);
    set_route(f, f->a, "POST", "/fine/", 201, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(test_server_count(f->a, "POST", "/quote/"), 0);
    assert_int_equal(test_server_count(f->a, "POST", "/long/"), 0);
    assert_int_equal(test_server_count(f->a, "POST", "/fine/"), 1);
    assert_int_equal(logged_count(f, "ldgsm:idempotencyKey of the request to"), 2);
}

/* Two calls PUT the same body to one device under their own keys: the same write, no conflict; with
 * different bodies they still conflict (DESIGN section 2). */
static void keys_do_not_make_writes_conflict(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/dev> ; ldgsm:idempotencyKey \"k-1\" ;\n"
                     "    http:body { <@A/dev#it> :on true } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/dev> ; ldgsm:idempotencyKey \"k-2\" ;\n"
                     "    http:body { <@A/dev#it> :on true } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/other> ; ldgsm:idempotencyKey \"k-3\" ;\n"
                     "    http:body { <@A/other#it> :on true } } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/other> ; ldgsm:idempotencyKey \"k-4\" ;\n"
                     "    http:body { <@A/other#it> :on false } } .\n");
    set_route(f, f->a, "PUT", "/dev", 204, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/other", 204, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/dev"), 2);
    assert_int_equal(test_server_count(f->a, "PUT", "/other"), 0);
    assert_int_equal(f->stats.conflicts, 2);
}

/* Iteration 1 POSTs /t/ and PUTs /down (503), both reporting to <@A/rec#c>; later iterations PUT /seen with
 * what the answers said, and, when `awaited` is set, keep the answers awaited. */
static const char answers_program[] =
    "{ <@A/flag#it> :first true . } => { [] http:mthd httpm:POST ; http:requestURI <@A/t/> ; ldgsm:reportTo <@A/rec#c> ;\n"
    "    ldgsm:idempotencyKey \"k-1\" ; ldgsm:calledAt \"T1\" } .\n"
    "{ <@A/flag#it> :first true . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/down> ; ldgsm:reportTo <@A/rec#c> ;\n"
    "    ldgsm:calledAt \"T2\" } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/flag> } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/rec> ; ldgsm:group <@A/rec> } .\n"
    "{ ?x ldgsm:answerTo <@A/rec#c> ; ldgsm:answerKey \"k-1\" ; ldgsm:answerAttempt \"T1\" ; ldgsm:answerStatus ?code ;\n"
    "     ldgsm:answerLocation ?where . }\n"
    "=> { [] http:mthd httpm:PUT ; http:requestURI <@A/seen> ; http:body { <@A/seen#it> :code ?code ; :where ?where } } .\n"
    "{ ?x ldgsm:answerTo <@A/rec#c> ; ldgsm:answerKey \"k-1\" ; ldgsm:answerBody ?f . }\n"
    "=> { [] http:mthd httpm:PUT ; http:requestURI <@A/body> ; http:body ?f } .\n"
    "{ ?x ldgsm:answerTo <@A/rec#c> ; ldgsm:answerAttempt \"T2\" ; ldgsm:answerStatus ?code . }\n"
    "=> { [] http:mthd httpm:PUT ; http:requestURI <@A/seen-down> ; http:body { <@A/seen-down#it> :code ?code } } .\n"
    "{ <@A/flag#it> :awaited true . ?x ldgsm:answerTo <@A/rec#c> . } => { ?x ldgsm:awaited true } .\n";

static void answers_reach_the_rules(void **state) {
    fixture *f = *state;
    write_program(f, answers_program);
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/first> true .", "\"f1\"");
    set_route(f, f->a, "GET", "/rec", 200, "text/turtle", "<#c> <http://ex.org/x> 1 .", "\"r1\"");
    /* with three triples a service may not write into the status: one about the record's document, one
     * with an ldgsm: term, one about another resource */
    set_route(f, f->a, "POST", "/t/", 201, "text/turtle",
              "<#x> <http://ex.org/made> <#order> . <@A/rec#s> <http://ex.org/state> 1 .\n"
              "<#x> <https://w3id.org/ldgsm#callState> <https://w3id.org/ldgsm#answered> .\n"
              "<@A/sensor#it> <http://ex.org/value> true . [] <http://ex.org/note> \"kept\" .\n"
              "</t/1#it> <http://ex.org/id> 1 .", NULL);
    test_server_route_location(f->a, "POST", "/t/", "/t/1");
    set_route(f, f->a, "PUT", "/down", 503, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/seen", 204, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/body", 204, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/seen-down", 204, NULL, NULL, NULL);
    agent *a = new_agent(f);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/seen"), 0);
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/awaited> true .", "\"f2\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    char *seen = expand_bases(f, "@A/seen"), *made = expand_bases(f, "@A/body");
    char *body = body_of(f->a, "PUT", "/seen");
    char *nt = turtle_as_ntriples(body, seen);
    assert_non_null(strstr(nt, "<http://ex.org/code> \"201\"^^<http://www.w3.org/2001/XMLSchema#integer>"));
    assert_non_null(strstr(nt, "<http://ex.org/where> <http://127.0.0.1:"));
    assert_non_null(strstr(nt, "/t/1>"));
    free(nt);
    free(body);
    body = body_of(f->a, "PUT", "/body"); /* the answer's RDF, its IRIs resolved against the request */
    nt = turtle_as_ntriples(body, made);
    assert_non_null(strstr(nt, "/t/#x> <http://ex.org/made> <http://127.0.0.1:"));
    assert_non_null(strstr(nt, "/t/#order>"));
    assert_null(strstr(nt, "/rec#s>"));
    assert_null(strstr(nt, "callState"));
    assert_null(strstr(nt, "/sensor#it>")); /* another resource: a service does not vouch for it */
    assert_non_null(strstr(nt, "\"kept\""));
    assert_non_null(strstr(nt, "/t/1#it> <http://ex.org/id>")); /* the created resource (Location) */
    assert_true(logged(f, "3 triples of the answer are not kept"));
    free(nt);
    free(body);
    free(seen);
    free(made);
    body = body_of(f->a, "PUT", "/seen-down");
    assert_non_null(strstr(body, "503"));
    free(body);
    /* awaited: kept for the third iteration (the PUTs are the same, so the server sees them again) */
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/seen"), 2);
    /* no longer awaited, but the document of the record they are reported to was not read: kept */
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/other> true .", "\"f3\"");
    set_route(f, f->a, "GET", "/rec", 500, NULL, NULL, NULL);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    set_route(f, f->a, "GET", "/rec", 200, "text/turtle", "<#c> <http://ex.org/x> 1 .", "\"r2\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/seen"), 4);
    /* read and not awaited: that iteration dropped them, the next sees none */
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/seen"), 4);
    assert_int_equal(test_server_count(f->a, "PUT", "/seen-down"), 4);
    agent_free(a);
}

static void no_connection_is_reported_as_a_failure(void **state) {
    fixture *f = *state;
    write_program(f, "{ <@A/flag#it> :first true . } => { [] http:mthd httpm:PUT ; http:requestURI <@B/gone> ;\n"
                     "    ldgsm:reportTo <@A/rec#c> } .\n"
                     "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/flag> } .\n"
                     "{ ?x ldgsm:answerTo <@A/rec#c> ; ldgsm:answerFailure ?why . }\n"
                     "=> { [] http:mthd httpm:PUT ; http:requestURI <@A/seen> ; http:body { <@A/seen#it> :why ?why } } .\n");
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/first> true .", "\"f1\"");
    set_route(f, f->a, "PUT", "/seen", 204, NULL, NULL, NULL);
    test_server_stop(f->b); /* nothing listens at @B any more */
    agent *a = new_agent(f);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    f->b = test_server_start(); /* for the teardown */
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/later> true .", "\"f2\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    char *body = body_of(f->a, "PUT", "/seen");
    assert_non_null(strstr(body, "connect failure"));
    free(body);
    agent_free(a);
}

/* The answer carries the request's key once, however many Idempotency-Key headers the rules wrote (each
 * used to be appended to an answer that has room for one). */
static void answer_carries_one_key(void **state) {
    fixture *f = *state;
    write_program(f, "{ <@A/flag#it> :first true . } => { [] http:mthd httpm:POST ; http:requestURI <@A/t/> ;\n"
                     "    ldgsm:reportTo <@A/rec#c> ; http:headers (\n"
                     "      [ http:fieldName \"Idempotency-Key\" ; http:fieldValue \"\\\"k1\\\"\" ]\n"
                     "      [ http:fieldName \"Idempotency-Key\" ; http:fieldValue \"\\\"k2\\\"\" ]\n"
                     "      [ http:fieldName \"Idempotency-Key\" ; http:fieldValue \"\\\"k3\\\"\" ]\n"
                     "      [ http:fieldName \"Idempotency-Key\" ; http:fieldValue \"\\\"k4\\\"\" ]\n"
                     "      [ http:fieldName \"Idempotency-Key\" ; http:fieldValue \"\\\"k5\\\"\" ] ) } .\n"
                     "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/flag> } .\n"
                     "{ ?x ldgsm:answerTo <@A/rec#c> ; ldgsm:answerKey ?k . }\n"
                     "=> { [] http:mthd httpm:POST ; http:requestURI <@A/keys/> ; http:body { <#it> :key ?k } } .\n");
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/first> true .", "\"f1\"");
    set_route(f, f->a, "POST", "/t/", 201, NULL, NULL, NULL);
    test_server_route_location(f->a, "POST", "/t/", "/t/1");
    set_route(f, f->a, "POST", "/keys/", 201, NULL, NULL, NULL);
    agent *a = new_agent(f);
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/later> true .", "\"f2\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(test_server_count(f->a, "POST", "/keys/"), 1);
    agent_free(a);
}

static void incident_said_once_while_it_lasts(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/flag> } .\n"
                     "{ <@A/flag#it> :stuck true . } => { <@A/w#it> ldgsm:incident \"the call is exhausted\" } .\n");
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/stuck> true .", "\"f1\"");
    agent *a = new_agent(f);
    for (int i = 0; i < 3; i++)
        assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(logged_count(f, "incident: <"), 1);
    assert_true(logged(f, "/w#it>: the call is exhausted"));
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/stuck> false .", "\"f2\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    set_route(f, f->a, "GET", "/flag", 200, "text/turtle", "<#it> <http://ex.org/stuck> true .", "\"f3\"");
    assert_int_equal(agent_iterate(a, &f->stats), 0);
    assert_int_equal(logged_count(f, "incident: <"), 2); /* it came back: said again */
    agent_free(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(key_becomes_the_header, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(unusable_key_skips_the_request, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(keys_do_not_make_writes_conflict, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(answers_reach_the_rules, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(no_connection_is_reported_as_a_failure, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(answer_carries_one_key, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(incident_said_once_while_it_lasts, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
