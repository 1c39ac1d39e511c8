/* test_ldp_headers.c: the LDP server's header logic: Accept negotiation, Content-Type, entity tags and
 * their lists, Link interaction models. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ldp/ldp_etag.h"
#include "ldp/ldp_link.h"
#include "ldp/ldp_media.h"

static void negotiation(void **state) {
    (void)state;
    assert_int_equal(ldp_media_negotiate(NULL), LDP_MEDIA_TURTLE);
    assert_int_equal(ldp_media_negotiate(""), LDP_MEDIA_TURTLE);
    assert_int_equal(ldp_media_negotiate("*/*"), LDP_MEDIA_TURTLE);
    assert_int_equal(ldp_media_negotiate("text/*"), LDP_MEDIA_TURTLE);
    assert_int_equal(ldp_media_negotiate("application/n-triples"), LDP_MEDIA_NTRIPLES);
    assert_int_equal(ldp_media_negotiate("Application/N-Triples ; charset=utf-8"), LDP_MEDIA_NTRIPLES);
    assert_int_equal(ldp_media_negotiate("application/*"), LDP_MEDIA_NTRIPLES);
    assert_int_equal(ldp_media_negotiate("text/turtle;q=0.5, application/n-triples"), LDP_MEDIA_NTRIPLES);
    assert_int_equal(ldp_media_negotiate("text/turtle;q=0.9,application/n-triples;q=0.9"), LDP_MEDIA_TURTLE);
    /* The most specific range sets the quality: */
    assert_int_equal(ldp_media_negotiate("*/*;q=0.1, text/turtle;q=0"), LDP_MEDIA_NTRIPLES);
    assert_int_equal(ldp_media_negotiate("application/ld+json"), -1);
    assert_int_equal(ldp_media_negotiate("text/html, application/xhtml+xml;q=0.9"), -1);
    assert_int_equal(ldp_media_negotiate("text/turtle;q=0"), -1);
    assert_int_equal(ldp_media_negotiate("text/turtle;q=0.0, application/n-triples;q=0"), -1);
    assert_int_equal(ldp_media_negotiate("application/rdf+xml"), LDP_MEDIA_RDFXML);
    assert_int_equal(ldp_media_negotiate("application/rdf+xml, text/turtle;q=0.1"), LDP_MEDIA_RDFXML);
}

static void content_types(void **state) {
    (void)state;
    assert_int_equal(ldp_media_from_content_type("text/turtle"), LDP_MEDIA_TURTLE);
    assert_int_equal(ldp_media_from_content_type(" text/turtle ; charset=UTF-8"), LDP_MEDIA_TURTLE);
    assert_int_equal(ldp_media_from_content_type("application/x-turtle"), LDP_MEDIA_TURTLE);
    assert_int_equal(ldp_media_from_content_type("application/n-triples"), LDP_MEDIA_NTRIPLES);
    assert_int_equal(ldp_media_from_content_type("application/rdf+xml"), LDP_MEDIA_RDFXML);
    assert_int_equal(ldp_media_from_content_type("application/ld+json"), -1);
    assert_int_equal(ldp_media_from_content_type("text/plain"), -1);
    assert_int_equal(ldp_media_from_content_type(""), -1);
    assert_int_equal(ldp_media_from_content_type(NULL), -1);
}

static void etags(void **state) {
    (void)state;
    char a[LDP_ETAG_SIZE], again[LDP_ETAG_SIZE], other_type[LDP_ETAG_SIZE], other_bytes[LDP_ETAG_SIZE],
        other_base[LDP_ETAG_SIZE], no_base[LDP_ETAG_SIZE];
    ldp_etag_compute("<a> <b> <c> .", 13, "text/turtle", NULL, a);
    ldp_etag_compute("<a> <b> <c> .", 13, "text/turtle", NULL, again);
    ldp_etag_compute("<a> <b> <c> .", 13, "application/n-triples", NULL, other_type);
    ldp_etag_compute("<a> <b> <d> .", 13, "text/turtle", NULL, other_bytes);
    ldp_etag_compute("<a> <b> <c> .", 13, "application/n-triples", "http://127.0.0.1:1", other_base);
    ldp_etag_compute("<a> <b> <c> .", 13, "application/n-triples", "http://127.0.0.1:2", no_base);
    assert_int_equal(strlen(a), 34);
    assert_true(a[0] == '"' && a[33] == '"');
    assert_string_equal(a, again);
    assert_string_not_equal(a, other_type);
    assert_string_not_equal(a, other_bytes);
    assert_string_not_equal(other_type, other_base);
    assert_string_not_equal(other_base, no_base);
    /* Known answer (printf '\0text/turtle' | sha256sum), so a change of the formula, which would change
     * the tag of every stored resource, shows. */
    char empty[LDP_ETAG_SIZE];
    ldp_etag_compute("", 0, "text/turtle", NULL, empty);
    assert_string_equal(empty, "\"7a41c9600ad73c4e3ce4bcddd9013aa2\"");
    /* A snapshot's tags, the bytes hashed once (longer than a SHA-256 block), are the tags one by one. */
    const char *bytes = "<#a-subject-long-enough> <#to-pass-one-sha-256-block> \"of sixty-four bytes\" .";
    const char *types[] = {"text/turtle", "application/n-triples", "application/rdf+xml"};
    const char *bases[] = {NULL, "http://127.0.0.1:1", "http://127.0.0.1:1"};
    char each[3][LDP_ETAG_SIZE], one[LDP_ETAG_SIZE];
    ldp_etag_compute_each(bytes, strlen(bytes), 3, types, bases, each);
    for (int k = 0; k < 3; k++) {
        ldp_etag_compute(bytes, strlen(bytes), types[k], bases[k], one);
        assert_string_equal(each[k], one);
    }
}

static void etag_lists(void **state) {
    (void)state;
    const char *tag = "\"0123456789abcdef0123456789abcdef\"";
    assert_true(ldp_etag_list_has(tag, tag));
    assert_true(ldp_etag_list_has("\"x\", \"0123456789abcdef0123456789abcdef\"", tag));
    assert_true(ldp_etag_list_has("  \"0123456789abcdef0123456789abcdef\" ,\"y\"", tag));
    assert_false(ldp_etag_list_has("W/\"0123456789abcdef0123456789abcdef\"", tag));
    assert_false(ldp_etag_list_has("\"0123456789abcdef0123456789abcde\"", tag));
    assert_false(ldp_etag_list_has("0123456789abcdef0123456789abcdef", tag));
    assert_false(ldp_etag_list_has("\"unterminated", tag));
    assert_false(ldp_etag_list_has("", tag));
    assert_false(ldp_etag_list_has("*", tag));
    assert_true(ldp_etag_is_any("*"));
    assert_true(ldp_etag_is_any(" * "));
    assert_false(ldp_etag_is_any("\"*\""));
    assert_false(ldp_etag_is_any("*, \"a\""));
}

static void link_models(void **state) {
    (void)state;
    enum ldp_model m = LDP_MODEL_NONE;
    ldp_link_model("<http://www.w3.org/ns/ldp#BasicContainer>; rel=\"type\"", &m);
    assert_int_equal(m, LDP_MODEL_CONTAINER);
    m = LDP_MODEL_NONE;
    ldp_link_model("<http://www.w3.org/ns/ldp#Resource>; rel=\"type\", <http://www.w3.org/ns/ldp#Container>;rel=type",
                   &m);
    assert_int_equal(m, LDP_MODEL_CONTAINER);
    m = LDP_MODEL_NONE;
    ldp_link_model("<http://www.w3.org/ns/ldp#RDFSource>; rel=\"type\"", &m);
    assert_int_equal(m, LDP_MODEL_RESOURCE);
    m = LDP_MODEL_NONE;
    ldp_link_model("<http://www.w3.org/ns/ldp#BasicContainer>; rel=\"describedby\"", &m);
    assert_int_equal(m, LDP_MODEL_NONE);
    ldp_link_model("<http://www.w3.org/ns/ldp#BasicContainer>; title=\"a, b\"; rel=\"other type\"", &m);
    assert_int_equal(m, LDP_MODEL_CONTAINER);
    m = LDP_MODEL_NONE;
    ldp_link_model("<http://example.org/Thing>; rel=\"type\"", &m);
    assert_int_equal(m, LDP_MODEL_NONE);
    ldp_link_model("<http://www.w3.org/ns/ldp#DirectContainer>; rel=\"type\"", &m);
    assert_int_equal(m, LDP_MODEL_UNSUPPORTED);
    m = LDP_MODEL_NONE;
    ldp_link_model("<http://www.w3.org/ns/ldp#BasicContainer", &m);
    assert_int_equal(m, LDP_MODEL_NONE);
    ldp_link_model("garbage; rel=type", &m);
    assert_int_equal(m, LDP_MODEL_NONE);
    assert_non_null(strstr(ldp_link_types(true), "BasicContainer"));
    assert_null(strstr(ldp_link_types(false), "Container"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(negotiation), cmocka_unit_test(content_types), cmocka_unit_test(etags),
        cmocka_unit_test(etag_lists),  cmocka_unit_test(link_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
