/* test_iri_resolve.c: RFC 3986 reference resolution: the RFC's own examples (5.4.1 and 5.4.2), agreement
 * with raptor2 on them (so N3 and Turtle documents yield the same IRIs), bases without a path, and long
 * runs of dot segments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <raptor2.h>

#include "n3/iri_resolve.h"
#include "rdf/buf.h"

#define RFC_BASE "http://a/b/c/d;p?q"

static const struct {
    const char *ref, *target;
} rfc_examples[] = {
    /* 5.4.1 normal examples */
    {"g:h", "g:h"},
    {"g", "http://a/b/c/g"},
    {"./g", "http://a/b/c/g"},
    {"g/", "http://a/b/c/g/"},
    {"/g", "http://a/g"},
    {"//g", "http://g"},
    {"?y", "http://a/b/c/d;p?y"},
    {"g?y", "http://a/b/c/g?y"},
    {"#s", "http://a/b/c/d;p?q#s"},
    {"g#s", "http://a/b/c/g#s"},
    {"g?y#s", "http://a/b/c/g?y#s"},
    {";x", "http://a/b/c/;x"},
    {"g;x", "http://a/b/c/g;x"},
    {"g;x?y#s", "http://a/b/c/g;x?y#s"},
    {"", "http://a/b/c/d;p?q"},
    {".", "http://a/b/c/"},
    {"./", "http://a/b/c/"},
    {"..", "http://a/b/"},
    {"../", "http://a/b/"},
    {"../g", "http://a/b/g"},
    {"../..", "http://a/"},
    {"../../", "http://a/"},
    {"../../g", "http://a/g"},
    /* 5.4.2 abnormal examples */
    {"../../../g", "http://a/g"},
    {"../../../../g", "http://a/g"},
    {"/./g", "http://a/g"},
    {"/../g", "http://a/g"},
    {"g.", "http://a/b/c/g."},
    {".g", "http://a/b/c/.g"},
    {"g..", "http://a/b/c/g.."},
    {"..g", "http://a/b/c/..g"},
    {"./../g", "http://a/b/g"},
    {"./g/.", "http://a/b/c/g/"},
    {"g/./h", "http://a/b/c/g/h"},
    {"g/../h", "http://a/b/c/h"},
    {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
    {"g;x=1/../y", "http://a/b/c/y"},
    {"g?y/./x", "http://a/b/c/g?y/./x"},
    {"g?y/../x", "http://a/b/c/g?y/../x"},
    {"g#s/./x", "http://a/b/c/g#s/./x"},
    {"g#s/../x", "http://a/b/c/g#s/../x"},
    {"http:g", "http:g"},
};

static void assert_resolves(const char *base, const char *ref, const char *target) {
    buf out = {0};
    buf_puts(&out, "kept:"); /* resolution appends */
    iri_resolve(base, strlen(base), ref, strlen(ref), &out);
    buf expected = {0};
    buf_printf(&expected, "kept:%s", target);
    assert_string_equal(buf_cstr(&out), buf_cstr(&expected));
    buf_free(&expected);
    buf_free(&out);
}

static void test_rfc3986_examples(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof rfc_examples / sizeof rfc_examples[0]; i++)
        assert_resolves(RFC_BASE, rfc_examples[i].ref, rfc_examples[i].target);
}

static void test_agrees_with_raptor(void **state) {
    (void)state;
    const char *bases[] = {RFC_BASE, "file:///tmp/rules/r.n3", "http://ex.org/a/b/c/doc#frag"};
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
        for (size_t i = 0; i < sizeof rfc_examples / sizeof rfc_examples[0]; i++) {
            unsigned char expected[512];
            raptor_uri_resolve_uri_reference((const unsigned char *)bases[b],
                                             (const unsigned char *)rfc_examples[i].ref, expected, sizeof expected);
            assert_resolves(bases[b], rfc_examples[i].ref, (const char *)expected);
        }
    }
}

/* Where raptor2 2.0.15 departs from RFC 3986. */
static void test_where_raptor_differs(void **state) {
    (void)state;
    assert_resolves("http://h", "x", "http://h/x");        /* raptor2: http://hx */
    assert_resolves("http://h/d/", "../..", "http://h/"); /* raptor2: http://h/.. */
    assert_resolves("urn:x:y", "?q", "urn:x:y?q");        /* raptor2: urn:?q */
}

static void test_base_without_path(void **state) {
    (void)state;
    assert_resolves("http://h", "x", "http://h/x");
    assert_resolves("http://h", "../x", "http://h/x");
    assert_resolves("http://h?q", "x", "http://h/x");
    assert_resolves("http://h", "", "http://h");
    assert_resolves("http://h", "#f", "http://h#f");
    assert_resolves("http://h", "?q", "http://h?q");
    assert_resolves("http://h#f", "/p", "http://h/p");
}

static void test_absolute_references_lose_dot_segments(void **state) {
    (void)state;
    assert_resolves(RFC_BASE, "http://x/a/../b/./c", "http://x/b/c");
    assert_resolves(RFC_BASE, "//x/a/../b", "http://x/b");
    assert_resolves(RFC_BASE, "http://x?a/../b#c/../d", "http://x?a/../b#c/../d");
}

static void test_long_runs_of_dot_segments(void **state) {
    (void)state;
    buf ref = {0}, out = {0};
    for (int i = 0; i < 200000; i++)
        buf_puts(&ref, "./");
    for (int i = 0; i < 200000; i++)
        buf_puts(&ref, "a/");
    for (int i = 0; i < 200000; i++)
        buf_puts(&ref, "../");
    buf_puts(&ref, "x");
    iri_resolve(RFC_BASE, strlen(RFC_BASE), ref.data, ref.len, &out);
    assert_string_equal(buf_cstr(&out), "http://a/b/c/x");
    buf_free(&ref);
    buf_free(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc3986_examples),
        cmocka_unit_test(test_agrees_with_raptor),
        cmocka_unit_test(test_where_raptor_differs),
        cmocka_unit_test(test_base_without_path),
        cmocka_unit_test(test_absolute_references_lose_dot_segments),
        cmocka_unit_test(test_long_runs_of_dot_segments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
