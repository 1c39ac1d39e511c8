/* test_agent_get_text.c: the agent reads a GET's body from its text alone, as `ldgsm serve` does (both
 * parse through src/rdf/rdfio.c): text that is not UTF-8, and RDF/XML that declares entities, are bodies
 * that do not parse (nothing added, the GET failed, unsafe requests withheld), and an external parameter
 * entity makes the agent fetch nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent_test_harness.c"

/* GETs /doc; PUTs /always every iteration, which a failed GET withholds. */
static const char program[] =
    "{ } => { [] http:mthd httpm:GET ; http:requestURI <@A/doc> } .\n"
    "{ } => { [] http:mthd httpm:PUT ; http:requestURI <@A/always> ; http:body { <@A/always#it> :x 1 . } } .\n";

static void assert_unparsable(fixture *f, const char *content_type, const char *body) {
    write_program(f, program);
    set_route(f, f->a, "PUT", "/always", 201, NULL, NULL, NULL);
    set_route(f, f->a, "GET", "/doc", 200, content_type, body, "\"d1\"");
    assert_int_equal(iterate_once(f), 0);
    assert_int_equal(f->stats.gets_failed, 1);
    assert_int_equal(f->stats.triples_read, 0);
    assert_int_equal(unsafe_received(f->a), 0);
}

static void latin1_turtle_does_not_parse(void **state) {
    fixture *f = *state;
    assert_unparsable(f, "text/turtle", "<#it> <http://ex.org/state> \"\xE9t\xE9\" .\n");
    assert_true(logged(f, "is not UTF-8"));
}

#define RDF_OPEN "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:ex=\"http://ex.org/\">"
#define RDF_BODY(literal) \
    "<rdf:Description rdf:about=\"#it\"><ex:state>" literal "</ex:state></rdf:Description></rdf:RDF>\n"

static void rdfxml_entities_do_not_parse(void **state) {
    fixture *f = *state;
    test_server_route(f->b, "GET", "/evil.dtd", 200, "application/xml-dtd", "<!ENTITY leak \"LEAKED\">", NULL);
    assert_unparsable(f, "application/rdf+xml",
                      "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [ <!ENTITY % p SYSTEM \"@B/evil.dtd\"> %p; ]>\n"
                      RDF_OPEN RDF_BODY("&leak;"));
    assert_true(logged(f, "RDF/XML with entity declarations is not accepted"));
    assert_int_equal(test_server_count(f->b, "GET", "/evil.dtd"), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(latin1_turtle_does_not_parse, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(rdfxml_entities_do_not_parse, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
