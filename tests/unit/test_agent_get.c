/* test_agent_get.c: the agent's classification of GET outcomes and the scoped `hold` failure policy
 * (DESIGN section 2), against in-process servers: 404 and 410 are answers a rule can read; 406, 415 and
 * bodies that are not RDF add nothing and hold nothing; 4xx/5xx failures, resets, refused connections,
 * malformed Turtle, oversized bodies and redirect loops are failures that withhold the unsafe requests of
 * the groups that asked (every unsafe request when no group asked), and nothing under `proceed`.
 * Timeouts are not exercised: agent_options has no timeout knob and the client's default is 10 s. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent_test_harness.c"

/* GETs /doc; PUTs /saw when the GET was answered with a 4xx status a rule can read (or with data);
 * PUTs /always every iteration (no group: withheld by any failed GET without group under hold); PUTs
 * /ok when the rules saw the GET answered 200. */
static const char classify_program[] =
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
    "{ <@A/doc> ldgsm:httpStatus 200 . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/ok> } .\n"
    "{ <@A/doc> ldgsm:httpStatus ?code . ?code <http://www.w3.org/2000/10/swap/math#notLessThan> 400 . }\n"
    "  => { [] http:mthd httpm:PUT ; http:requestURI <@A/saw> ;\n"
    "    http:body { <@A/saw#it> :status ?code . } } .\n"
    "{ <@A/doc#it> :state \"on\" . } => { [] http:mthd httpm:PUT ; http:requestURI <@A/saw> ;\n"
    "    http:body { <@A/saw#it> :state \"on\" . } } .\n"
    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/always> ; http:body { <@A/always#it> :x 1 . } } .\n";

static void classify_setup(fixture *f) {
    write_program(f, classify_program);
    set_route(f, f->a, "PUT", "/saw", 201, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/always", 201, NULL, NULL, NULL);
    set_route(f, f->a, "PUT", "/ok", 201, NULL, NULL, NULL);
}

/* The GET was an answer or adds nothing: /always goes, nothing is withheld. */
static void assert_not_held(fixture *f) {
    assert_int_equal(f->stats.gets, 1);
    assert_int_equal(f->stats.gets_failed, 0);
    assert_int_equal(f->stats.withheld, 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/always"), 1);
}

/* The GET failed: nothing unsafe is sent, the iteration still ends normally. */
static void assert_held(fixture *f) {
    assert_int_equal(f->stats.gets_failed, 1);
    assert_int_equal(f->stats.sent, 0);
    assert_true(f->stats.withheld >= 1);
    assert_int_equal(unsafe_received(f->a), 0);
}

static void data_is_read(void **state) {
    fixture *f = *state;
    classify_setup(f);
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", "<#it> <http://ex.org/state> \"on\" .", "\"d1\"");
    assert_int_equal(iterate_once(f), 0);
    assert_not_held(f);
    assert_int_equal(f->stats.triples_read, 1);
    assert_int_equal(f->stats.sent, 3);
    /* the rules see the status of a GET that brought data too */
    assert_int_equal(test_server_count(f->a, "PUT", "/ok"), 1);
    char *body = body_of(f->a, "PUT", "/saw");
    char *nt = turtle_as_ntriples(body, "http://x.test/saw");
    assert_non_null(strstr(nt, "<http://x.test/saw#it> <http://ex.org/state> \"on\""));
    free(nt);
    free(body);
    /* the GET asked for what the agent parses */
    const char *accept = header_of(f->a, "GET", "/doc", "Accept");
    assert_non_null(accept);
    assert_non_null(strstr(accept, "text/turtle"));
}

/* 404 and 410: the resource is empty, `<u> ldgsm:httpStatus N` is asserted, and nothing is held. */
static void gone_is_an_answer(void **state) {
    fixture *f = *state;
    classify_setup(f);
    const unsigned codes[] = {404, 410};
    for (size_t i = 0; i < 2; i++) {
        set_route(f, f->a, "GET", "/doc", codes[i], "text/plain", "gone", NULL);
        size_t before = test_server_count(f->a, "PUT", "/saw");
        size_t before_always = test_server_count(f->a, "PUT", "/always");
        assert_int_equal(iterate_once(f), 0);
        assert_int_equal(f->stats.gets_failed, 0);
        assert_int_equal(f->stats.withheld, 0);
        assert_int_equal(f->stats.sent, 2);
        assert_int_equal(test_server_count(f->a, "PUT", "/always"), before_always + 1);
        assert_int_equal(test_server_count(f->a, "PUT", "/saw"), before + 1);
        long put = test_server_find(f->a, "PUT", "/saw", 0);
        for (size_t k = 0; k < before; k++)
            put = test_server_find(f->a, "PUT", "/saw", (size_t)put + 1);
        size_t len;
        const char *sent = test_server_body(f->a, (size_t)put, &len);
        char *body = xstrndup(sent, len);
        char *nt = turtle_as_ntriples(body, "http://x.test/saw");
        char expected[128];
        snprintf(expected, sizeof expected,
                 "<http://x.test/saw#it> <http://ex.org/status> \"%u\"^^<http://www.w3.org/2001/XMLSchema#integer>",
                 codes[i]);
        if (!strstr(nt, expected))
            fail_msg("status %u: PUT body lacks %s:\n%s", codes[i], expected, body);
        free(nt);
        free(body);
    }
}

/* 406, 415, JSON, JSON-LD, a body without a media type: nothing added, reported, not a hold. */
static void unusable_answers_add_nothing(void **state) {
    fixture *f = *state;
    classify_setup(f);
    static const struct {
        unsigned status;
        const char *type, *body;
    } cases[] = {
        {406, "text/plain", "not acceptable"},
        {415, "text/plain", "unsupported"},
        {200, "application/json", "{\"state\": \"on\"}"},
        {200, "application/ld+json", "{\"@id\": \"#it\", \"http://ex.org/state\": \"on\"}"},
        {200, NULL, "<#it> <http://ex.org/state> \"on\" ."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        set_route(f, f->a, "GET", "/doc", cases[i].status, cases[i].type, cases[i].body, NULL);
        size_t before_always = test_server_count(f->a, "PUT", "/always");
        buf_free(&f->log_text);
        assert_int_equal(iterate_once(f), 0);
        if (f->stats.gets_failed != 0 || f->stats.withheld != 0)
            fail_msg("case %zu (%u %s): held (%u failed GETs, %u withheld)", i, cases[i].status,
                     cases[i].type ? cases[i].type : "no type", f->stats.gets_failed, f->stats.withheld);
        assert_int_equal(f->stats.triples_read, 0);
        assert_int_equal(test_server_count(f->a, "PUT", "/always"), before_always + 1);
        assert_int_equal(test_server_count(f->a, "PUT", "/saw"), 0);
        if (!logged(f, "/doc: "))
            fail_msg("case %zu: the unusable answer was not reported:\n%s", i, f->log_text.data);
    }
}

/* A dead link is reported once per agent, not once per poll. */
static void unusable_answer_reported_once(void **state) {
    fixture *f = *state;
    classify_setup(f);
    set_route(f, f->a, "GET", "/doc", 200, "application/json", "{}", NULL);
    agent *a = new_agent(f);
    for (int i = 0; i < 3; i++)
        assert_int_equal(agent_iterate(a, &f->stats), 0);
    agent_free(a);
    assert_int_equal(test_server_count(f->a, "GET", "/doc"), 3);
    assert_int_equal(logged_count(f, "/doc: "), 1);
}

/* A failure is said once while it lasts; once it has been gone for --remind iterations, it is said again
 * when it comes back (a sensor that died, recovered and died again), and while it lasts again, once. */
static void failure_said_again_after_recovery(void **state) {
    fixture *f = *state;
    classify_setup(f);
    f->opt.remind_iterations = 3;
    agent *a = new_agent(f);
    const unsigned statuses[] = {500, 500, 500, 200, 200, 500, 200, 200, 200, 200, 500, 500, 500};
    for (size_t i = 0; i < sizeof statuses / sizeof *statuses; i++) {
        set_route(f, f->a, "GET", "/doc", statuses[i], "text/turtle", "<#it> <http://ex.org/state> \"on\" .", NULL);
        assert_int_equal(agent_iterate(a, &f->stats), 0);
    }
    agent_free(a);
    /* iterations 1-3 and 6 (back within 3): one line; 11-13, after 4 without: a second */
    assert_int_equal(logged_count(f, "/doc: status 500"), 2);
}

/* Every failing status holds the iteration's unsafe requests. */
static void failing_statuses_hold(void **state) {
    fixture *f = *state;
    classify_setup(f);
    const unsigned codes[] = {401, 403, 408, 429, 500, 502, 503};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
        set_route(f, f->a, "GET", "/doc", codes[i], "text/turtle", "<#it> <http://ex.org/state> \"on\" .", NULL);
        assert_int_equal(iterate_once(f), 0);
        if (f->stats.gets_failed != 1 || f->stats.sent != 0 || f->stats.withheld != 1)
            fail_msg("status %u: %u failed GETs, %u sent, %u withheld", codes[i], f->stats.gets_failed,
                     f->stats.sent, f->stats.withheld);
    }
    assert_int_equal(unsafe_received(f->a), 0);
}

static void reset_holds(void **state) {
    fixture *f = *state;
    classify_setup(f);
    set_route(f, f->a, "GET", "/doc", 0, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_held(f);
}

/* A server that does not answer in time: the GET fails as a timeout and holds the iteration. */
static void timeout_holds(void **state) {
    fixture *f = *state;
    f->opt.timeout_ms = 200;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/slow> } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/always> ; http:body { <@A/always#it> :x 1 . } } .\n");
    assert_int_equal(iterate_once(f), 0);
    assert_held(f);
    assert_true(logged(f, "timeout"));
}

static void refused_connection_holds(void **state) {
    fixture *f = *state;
    /* a port nobody listens on: the second server, stopped */
    test_server *gone = test_server_start();
    char program[1024];
    snprintf(program, sizeof program,
             "{ } => { [] http:mthd httpm:GET ; http:requestURI <%s/doc> } .\n"
             "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/always> ; http:body { <@A/always#it> :x 1 . } } .\n",
             test_server_base(gone));
    test_server_stop(gone);
    write_program(f, program);
    assert_int_equal(iterate_once(f), 0);
    assert_held(f);
}

static void malformed_turtle_holds(void **state) {
    fixture *f = *state;
    classify_setup(f);
    /* a good triple then a broken one: the document adds nothing and fails */
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle",
          "<#it> <http://ex.org/state> \"on\" .\n<#it> <http://ex.org/broken> .", "\"d1\"");
    assert_int_equal(iterate_once(f), 0);
    assert_held(f);
    assert_int_equal(f->stats.triples_read, 0);
}

static void oversized_body_holds(void **state) {
    fixture *f = *state;
    classify_setup(f);
    f->opt.max_body = 64;
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle",
          "<#it> <http://ex.org/state> \"on\" .\n<#it> <http://ex.org/padding> \"................................\" .",
          NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_held(f);
}

/* Five redirects are followed; a sixth is a failure. */
static void redirect_limit(void **state) {
    fixture *f = *state;
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/redirect?n=5> } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/always> ; http:body { <@A/always#it> :x 1 . } } .\n");
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/always"), 1);
    write_program(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/redirect?n=6> } .\n"
                     "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/always> ; http:body { <@A/always#it> :x 1 . } } .\n");
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 1);
    assert_int_equal(f->stats.withheld, 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/always"), 1);
}

/* One GET per resource per iteration: fragments and the spelling of scheme and host do not matter. */
static void get_once_per_resource(void **state) {
    fixture *f = *state;
    char program[1024];
    snprintf(program, sizeof program,
             "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc#a> } .\n"
             "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc#b> } .\n"
             "{ } => { [] http:mthd httpm:GET ; http:requestURI <HTTP://127.0.0.1:%u/doc> } .\n"
             "{ <@A/doc#it> :state \"on\" . } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n",
             test_server_port(f->a));
    write_program(f, program);
    set_route(f, f->a, "GET", "/doc", 200, "text/turtle", "<#it> <http://ex.org/state> \"on\" .", NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets, 1);
    assert_int_equal(test_server_count(f->a, "GET", "/doc"), 1);
}

/* ---- the scoped hold ---- */

/* Sensors /sa (group A) and /sb (group B), writes /wa (A), /wb (B) and /w0 (no group). */
static const char groups_program[] =
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/sa> ; ldgsm:group :A } .\n"
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/sb> ; ldgsm:group :B } .\n"
    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/wa> ; ldgsm:group :A ; http:body { <@A/wa#it> :x 1 . } } .\n"
    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/wb> ; ldgsm:group :B ; http:body { <@A/wb#it> :x 1 . } } .\n";

static void groups_setup(fixture *f, const char *extra) {
    buf program = {0};
    buf_puts(&program, groups_program);
    buf_puts(&program, extra);
    write_program(f, buf_cstr(&program));
    buf_free(&program);
    set_route(f, f->a, "GET", "/sa", 200, "text/turtle", "<#it> <http://ex.org/v> 1 .", NULL);
    set_route(f, f->a, "GET", "/sb", 200, "text/turtle", "<#it> <http://ex.org/v> 2 .", NULL);
    set_route(f, f->a, "GET", "/s0", 200, "text/turtle", "<#it> <http://ex.org/v> 3 .", NULL);
    set_route(f, f->a, "GET", "/shared", 200, "text/turtle", "<#it> <http://ex.org/v> 4 .", NULL);
    for (const char *const *p = (const char *const[]){"/wa", "/wb", "/w0", NULL}; *p; p++)
        set_route(f, f->a, "PUT", *p, 201, NULL, NULL, NULL);
}

static void route_shared_failure(fixture *f) { set_route(f, f->a, "GET", "/shared", 500, NULL, NULL, NULL); }

/* A failed GET of group A withholds A's write, not B's. */
static void group_failure_withholds_its_group(void **state) {
    fixture *f = *state;
    groups_setup(f, "");
    set_route(f, f->a, "GET", "/sa", 500, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 1);
    assert_int_equal(f->stats.withheld, 1);
    assert_int_equal(f->stats.sent, 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/wa"), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/wb"), 1);
}

/* A failed GET that no group asked for withholds every unsafe request. */
static void ungrouped_failure_withholds_all(void **state) {
    fixture *f = *state;
    groups_setup(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/s0> } .\n"
                    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/w0> ; http:body { <@A/w0#it> :x 1 . } } .\n");
    set_route(f, f->a, "GET", "/s0", 503, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 1);
    assert_int_equal(f->stats.withheld, 3);
    assert_int_equal(f->stats.sent, 0);
    assert_int_equal(unsafe_received(f->a), 0);
}

/* `proceed` withholds nothing, whatever failed. */
static void proceed_withholds_nothing(void **state) {
    fixture *f = *state;
    groups_setup(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/s0> } .\n"
                    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/w0> ; http:body { <@A/w0#it> :x 1 . } } .\n");
    set_route(f, f->a, "GET", "/s0", 500, NULL, NULL, NULL);
    set_route(f, f->a, "GET", "/sa", 0, NULL, NULL, NULL);
    f->opt.proceed_on_incomplete = true;
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 2);
    assert_int_equal(f->stats.withheld, 0);
    assert_int_equal(f->stats.sent, 3);
    assert_int_equal(test_server_count(f->a, "PUT", "/wa"), 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/wb"), 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/w0"), 1);
}

/* One GET asked for by groups A and B: its failure withholds both groups' writes, in whichever order
 * the rules asked. */
static void shared_get_failure_withholds_every_asking_group(void **state) {
    fixture *f = *state;
    static const char *const orders[] = {
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> ; ldgsm:group :A } .\n"
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> ; ldgsm:group :B } .\n",
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> ; ldgsm:group :B } .\n"
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> ; ldgsm:group :A } .\n",
    };
    for (size_t i = 0; i < 2; i++) {
        groups_setup(f, orders[i]);
        route_shared_failure(f);
        assert_int_equal(iterate_once(f), 0);
        assert_int_equal(test_server_count(f->a, "GET", "/shared"), i + 1); /* one resource, one GET */
        if (f->stats.withheld != 2 || unsafe_received(f->a) != 0)
            fail_msg("order %zu: %u withheld, /wa written %zu times, /wb %zu times", i, f->stats.withheld,
                     test_server_count(f->a, "PUT", "/wa"), test_server_count(f->a, "PUT", "/wb"));
    }
}

/* One GET asked for by group A and by a rule without group: it is a GET no group asked for too, so its
 * failure withholds everything, group B's write included, in whichever order the rules asked. */
static void shared_get_with_ungrouped_asker_withholds_all(void **state) {
    fixture *f = *state;
    static const char *const orders[] = {
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> ; ldgsm:group :A } .\n"
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> } .\n",
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> } .\n"
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/shared> ; ldgsm:group :A } .\n",
    };
    for (size_t i = 0; i < 2; i++) {
        groups_setup(f, orders[i]);
        route_shared_failure(f);
        assert_int_equal(iterate_once(f), 0);
        if (f->stats.withheld != 2 || unsafe_received(f->a) != 0)
            fail_msg("order %zu: %u withheld, /wa written %zu times, /wb %zu times", i, f->stats.withheld,
                     test_server_count(f->a, "PUT", "/wa"), test_server_count(f->a, "PUT", "/wb"));
    }
}

/* A GET derived from another GET's data keeps its own group. */
static void derived_get_failure_is_scoped(void **state) {
    fixture *f = *state;
    groups_setup(f, "{ <@A/sb#it> :v ?v . } => { [] http:mthd httpm:GET ; http:requestURI <@A/next> ; ldgsm:group :A } .\n");
    set_route(f, f->a, "GET", "/next", 500, NULL, NULL, NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(test_server_count(f->a, "GET", "/next"), 1);
    assert_int_equal(f->stats.withheld, 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/wa"), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/wb"), 1);
}

/* After 10 held iterations in a row, each iteration logs one "stuck" line naming the failing resource. */
static void stuck_after_ten_held_iterations(void **state) {
    fixture *f = *state;
    classify_setup(f);
    set_route(f, f->a, "GET", "/doc", 500, NULL, NULL, NULL);
    f->opt.iterations = 11;
    agent *a = new_agent(f);
    assert_int_equal(agent_run(a), 0);
    agent_free(a);
    assert_int_equal(test_server_count(f->a, "GET", "/doc"), 11);
    assert_int_equal(logged_count(f, "stuck"), 2);
    char resource[128];
    snprintf(resource, sizeof resource, "%s/doc", test_server_base(f->a));
    const char *line = strstr(f->log_text.data, "stuck");
    const char *end = strchr(line, '\n');
    assert_non_null(strstr(line, resource));
    assert_true(strstr(line, resource) < end);
    assert_int_equal(unsafe_received(f->a), 0);
}

/* ---- lenient GETs and rule holds ---- */

/* A lenient GET whose body does not parse adds nothing, is reported, and withholds nothing. */
static void lenient_unparsable_adds_nothing(void **state) {
    fixture *f = *state;
    groups_setup(f, "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/member> ; ldgsm:group :A ; "
                    "ldgsm:lenient true } .\n");
    set_route(f, f->a, "GET", "/member", 200, "text/turtle", "<#it> <http://ex.org/v> 1 .\n<#it> <http://ex.org/broken> .",
              NULL);
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 0);
    assert_int_equal(f->stats.withheld, 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/wa"), 1);
    assert_int_equal(logged_count(f, "does not parse; it adds nothing"), 1);
}

/* The same document asked for strictly too (a sentry naming it): its failure holds the asking groups,
 * whichever request came first. */
static void lenient_and_strict_asker_hold(void **state) {
    static const char *const orders[] = {
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/member> ; ldgsm:group :A ; ldgsm:lenient true } .\n"
        "{ <@A/sa#it> :v 1 . } => { [] http:mthd httpm:GET ; http:requestURI <@A/member> ; ldgsm:group :B } .\n",
        "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/member> ; ldgsm:group :B } .\n"
        "{ <@A/sa#it> :v 1 . } => { [] http:mthd httpm:GET ; http:requestURI <@A/member> ; ldgsm:group :A ; "
        "ldgsm:lenient true } .\n",
    };
    for (int order = 0; order < 2; order++) {
        fixture *f = *state;
        groups_setup(f, orders[order]);
        set_route(f, f->a, "GET", "/member", 200, "text/turtle", "<#it> <http://ex.org/broken> .", NULL);
        assert_int_equal(iterate_once(f), 0);
        assert_int_equal(f->stats.gets_failed, 1);
        assert_int_equal(test_server_count(f->a, "PUT", "/wa"), 0);
        assert_int_equal(test_server_count(f->a, "PUT", "/wb"), 0);
    }
}

/* `<group> ldgsm:heldBecause "why"` in working memory withholds the group's unsafe requests, whatever the
 * failure policy, and says why. */
static void rule_holds_its_group(void **state) {
    fixture *f = *state;
    groups_setup(f, "{ <@A/sa#it> :v 1 . } => { :A ldgsm:heldBecause \"A waits for the model\" } .\n");
    f->opt.proceed_on_incomplete = true;
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.withheld, 1);
    assert_int_equal(test_server_count(f->a, "PUT", "/wa"), 0);
    assert_int_equal(test_server_count(f->a, "PUT", "/wb"), 1);
    assert_true(logged_count(f, "A waits for the model") >= 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(data_is_read, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(gone_is_an_answer, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(unusable_answers_add_nothing, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(unusable_answer_reported_once, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(failure_said_again_after_recovery, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(failing_statuses_hold, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(reset_holds, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(timeout_holds, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(refused_connection_holds, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(malformed_turtle_holds, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(oversized_body_holds, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(redirect_limit, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(get_once_per_resource, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(group_failure_withholds_its_group, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(ungrouped_failure_withholds_all, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(proceed_withholds_nothing, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(shared_get_failure_withholds_every_asking_group, fixture_setup,
                                        fixture_teardown),
        cmocka_unit_test_setup_teardown(shared_get_with_ungrouped_asker_withholds_all, fixture_setup,
                                        fixture_teardown),
        cmocka_unit_test_setup_teardown(derived_get_failure_is_scoped, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(stuck_after_ten_held_iterations, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(lenient_unparsable_adds_nothing, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(lenient_and_strict_asker_hold, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(rule_holds_its_group, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
