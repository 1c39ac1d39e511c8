/* test_http_url.c: the URL forms of http/http_url.h (fragment-free, resource identity, origin,
 * resolution) and the entity-tag classification of http/http_etag.h. Every expected value is written by
 * hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "http/http_etag.h"
#include "http/http_url.h"
#include "assert_text.h"

typedef char *(*url_form)(const char *);

static void assert_form(url_form form, const char *input, const char *expected) {
    assert_owned_text(form(input), expected);
}

static void fragment_free(void **state) {
    (void)state;
    assert_form(http_url_without_fragment, "http://ex.org/doc#it", "http://ex.org/doc");
    assert_form(http_url_without_fragment, "http://ex.org/doc#a#b", "http://ex.org/doc");
    assert_form(http_url_without_fragment, "http://ex.org/doc#", "http://ex.org/doc");
    /* Nothing else changes, not even case or a default port. */
    assert_form(http_url_without_fragment, "HTTP://Ex.ORG:80/Doc?q=1", "HTTP://Ex.ORG:80/Doc?q=1");
    assert_form(http_url_without_fragment, "urn:ex:thing#part", "urn:ex:thing");
    assert_form(http_url_without_fragment, "#only", "");
    assert_form(http_url_without_fragment, "", "");
}

static void identity(void **state) {
    (void)state;
    assert_form(http_url_identity, "HTTP://Example.ORG:80/a/../b?x=Y#frag", "http://example.org/b?x=Y");
    assert_form(http_url_identity, "https://Ex.org:443", "https://ex.org/");
    assert_form(http_url_identity, "https://ex.org:8443/Path/Case", "https://ex.org:8443/Path/Case");
    assert_form(http_url_identity, "http://ex.org:443/", "http://ex.org:443/");
    assert_form(http_url_identity, "http://[::1]:80/x", "http://[::1]/x");
    assert_form(http_url_identity, "http://127.0.0.1:5000/c/#it", "http://127.0.0.1:5000/c/");
    assert_form(http_url_identity, "http://ex.org/%7e", "http://ex.org/%7e");
    /* Two spellings of one resource meet; two resources stay apart. */
    char *a = http_url_identity("http://EX.org:80/doc#x"), *b = http_url_identity("http://ex.org/doc#y");
    char *c = http_url_identity("http://ex.org/Doc");
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
    /* Not parsed by libcurl: the fragment goes, the scheme is lower-cased, the rest is kept. */
    assert_form(http_url_identity, "URN:ISBN:0451450523#p", "urn:ISBN:0451450523");
    assert_form(http_url_identity, "mailto:Someone@Ex.org", "mailto:Someone@Ex.org");
    assert_form(http_url_identity, "http://ex.org/a b#f", "http://ex.org/a b");
    assert_form(http_url_identity, "no scheme#f", "no scheme");
    assert_form(http_url_identity, "1X:Y", "1X:Y"); /* not a scheme: a scheme starts with a letter */
    assert_form(http_url_identity, "", "");
}

static void origin(void **state) {
    (void)state;
    assert_form(http_url_origin, "http://Ex.org:80/a?b#c", "http://ex.org");
    assert_form(http_url_origin, "HTTPS://ex.org:443", "https://ex.org");
    assert_form(http_url_origin, "https://ex.org:8443/x", "https://ex.org:8443");
    assert_form(http_url_origin, "http://127.0.0.1:5000/", "http://127.0.0.1:5000");
    assert_form(http_url_origin, "http://user:pw@ex.org/", "http://ex.org");
    assert_form(http_url_origin, "ftp://ex.org/", NULL);
    assert_form(http_url_origin, "file:///etc/passwd", NULL);
    assert_form(http_url_origin, "urn:ex:thing", NULL);
    assert_form(http_url_origin, "/relative/path", NULL);
    assert_form(http_url_origin, "", NULL);
}

static void exact_origin(void **state) {
    (void)state;
    assert_form(http_url_as_origin, "HTTPS://Ex.org:443/", "https://ex.org");
    assert_form(http_url_as_origin, "http://ex.org:8080", "http://ex.org:8080");
    assert_form(http_url_as_origin, "http://127.0.0.1:5000/", "http://127.0.0.1:5000");
    assert_form(http_url_as_origin, "http://ex.org/private/", NULL);
    assert_form(http_url_as_origin, "http://ex.org/?q", NULL);
    assert_form(http_url_as_origin, "http://ex.org/#f", NULL);
    assert_form(http_url_as_origin, "http://user@ex.org", NULL);
    assert_form(http_url_as_origin, "ftp://ex.org", NULL);
    assert_form(http_url_as_origin, "ex.org", NULL);
    assert_form(http_url_as_origin, "", NULL);
}

static void resolution(void **state) {
    (void)state;
    const char *const cases[][3] = {
        {"http://ex.org/pod/doc", "/.well-known/solid", "http://ex.org/.well-known/solid"},
        {"http://ex.org/pod/doc", ".well-known/solid", "http://ex.org/pod/.well-known/solid"},
        {"http://ex.org/pod/a/doc", "../b", "http://ex.org/pod/b"},
        {"http://ex.org/pod/doc", "https://other.example/x", "https://other.example/x"},
        {"http://ex.org/pod/doc?q", "?r", "http://ex.org/pod/doc?r"},
        {"http://ex.org/pod/doc?q#a", "", "http://ex.org/pod/doc?q"},
        {"http://ex.org/pod/doc?q#a", "#f", "http://ex.org/pod/doc?q#f"},
        {"not a url", "/x", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_owned_text(http_url_resolve(cases[i][0], cases[i][1]), cases[i][2]);
}

static void etag_kinds(void **state) {
    (void)state;
    assert_int_equal(http_etag_classify(NULL), HTTP_ETAG_NONE);
    assert_int_equal(http_etag_classify(""), HTTP_ETAG_NONE);
    assert_int_equal(http_etag_classify("\"abc\""), HTTP_ETAG_STRONG);
    assert_int_equal(http_etag_classify("\"\""), HTTP_ETAG_STRONG);
    assert_int_equal(http_etag_classify("W/\"abc\""), HTTP_ETAG_WEAK);
    assert_int_equal(http_etag_classify("W/\"\""), HTTP_ETAG_WEAK);
    assert_int_equal(http_etag_classify("w/\"abc\""), HTTP_ETAG_MALFORMED); /* "W/" is case-sensitive */
    assert_int_equal(http_etag_classify("abc"), HTTP_ETAG_MALFORMED);
    assert_int_equal(http_etag_classify("\"abc"), HTTP_ETAG_MALFORMED);
    assert_int_equal(http_etag_classify("\""), HTTP_ETAG_MALFORMED);
    assert_int_equal(http_etag_classify("\"a b\""), HTTP_ETAG_MALFORMED);
    assert_int_equal(http_etag_classify("\"a\"b\""), HTTP_ETAG_MALFORMED);
    assert_int_equal(http_etag_classify("W/abc"), HTTP_ETAG_MALFORMED);
    assert_int_equal(http_etag_classify("\"a\", \"b\""), HTTP_ETAG_MALFORMED);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fragment_free),
        cmocka_unit_test(identity),
        cmocka_unit_test(origin),
        cmocka_unit_test(exact_origin),
        cmocka_unit_test(resolution),
        cmocka_unit_test(etag_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
