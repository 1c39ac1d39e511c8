/* test_web_link.c: the links of a Link header value (rdf/web_link.h), their targets and relation types,
 * and http_result_link (http/http_client.h), which resolves the target an answer names. Every expected
 * value is written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "http/http_client.h"
#include "rdf/web_link.h"

#define STORAGE "http://www.w3.org/ns/solid/terms#storageDescription"

/* The targets of the links of value whose rel names relation, joined by '|'. */
static char *targets_with_rel(const char *value, const char *relation) {
    static char out[512];
    out[0] = '\0';
    web_link link;
    for (const char *cursor = value; web_link_next(&cursor, &link);)
        if (web_link_has_rel(&link, relation))
            snprintf(out + strlen(out), sizeof out - strlen(out), "%s%.*s", out[0] ? "|" : "", (int)link.target_len,
                     link.target);
    return out;
}

static void links_and_relations(void **state) {
    (void)state;
    /* CSS's answer for a resource in a pod: several links in one field, the storage's among them */
    const char *css = "<http://www.w3.org/ns/ldp#Resource>; rel=\"type\", <http://localhost:3000/alice/.acl>; "
                      "rel=\"acl\", <http://localhost:3000/alice/.well-known/solid>; rel=\"" STORAGE "\"";
    assert_string_equal(targets_with_rel(css, STORAGE), "http://localhost:3000/alice/.well-known/solid");
    assert_string_equal(targets_with_rel(css, "type"), "http://www.w3.org/ns/ldp#Resource");
    assert_string_equal(targets_with_rel(css, "acl"), "http://localhost:3000/alice/.acl");
    assert_string_equal(targets_with_rel(css, "describedby"), "");
    /* rel is a space-separated list, compared without regard to case, unquoted or quoted */
    assert_string_equal(targets_with_rel("<a>; rel=\"next TYPE\", <b>;rel=type;title=x", "type"), "a|b");
    /* a comma inside a quoted parameter does not end the link */
    assert_string_equal(targets_with_rel("<a>; title=\"x, <c>; rel=type\"; rel=type, <b>; rel=type", "type"), "a|b");
    /* nor does an escaped quote end a quoted parameter */
    assert_string_equal(targets_with_rel("<a>; title=\"x\\\", <evil>; rel=type\"; rel=next, <b>; rel=type", "type"),
                        "b");
    /* only a link's first rel counts (RFC 8288 section 3.3) */
    assert_string_equal(targets_with_rel("<a>; rel=acl; rel=type", "type"), "");
    /* a parameter named like rel is not rel */
    assert_string_equal(targets_with_rel("<a>; related=type; anchor=\"rel=type\"", "type"), "");
    /* a relation that is only part of a word is not it */
    assert_string_equal(targets_with_rel("<a>; rel=\"typed\"", "type"), "");
    /* what is not a link ends the reading, and nothing is read past the end */
    assert_string_equal(targets_with_rel("<unclosed; rel=type", "type"), "");
    assert_string_equal(targets_with_rel("garbage; rel=type", "type"), "");
    assert_string_equal(targets_with_rel("", "type"), "");
    assert_string_equal(targets_with_rel("<a>; rel=type,", "type"), "a");
}

static void answer_links(void **state) {
    (void)state;
    char *fields[] = {"<http://ex.org/ns#T>; rel=\"type\"", "</pod/.well-known/solid>; rel=\"" STORAGE "\""};
    http_result r = {.links = fields, .link_count = 2};
    /* relative to the URL the answer came from: the request's, or the last redirect's */
    char *got = http_result_link(&r, "http://ex.org:8080/pod/doc", STORAGE);
    assert_string_equal(got, "http://ex.org:8080/pod/.well-known/solid");
    free(got);
    r.final_url = "http://other.example/x/y";
    got = http_result_link(&r, "http://ex.org:8080/pod/doc", STORAGE);
    assert_string_equal(got, "http://other.example/pod/.well-known/solid");
    free(got);
    assert_null(http_result_link(&r, "http://ex.org/", "acl"));
    r.link_count = 0;
    assert_null(http_result_link(&r, "http://ex.org/", STORAGE));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(links_and_relations),
        cmocka_unit_test(answer_links),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
