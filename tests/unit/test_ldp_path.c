/* test_ldp_path.c: the LDP server's request paths (what is refused and why), IRI encoding of names,
 * member references, Slug sanitizing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ldp/ldp_path.h"

static void assert_decodes(const char *raw, const char *expected) {
    char *decoded;
    const char *why = NULL;
    assert_int_equal(ldp_path_decode(raw, &decoded, &why), 0);
    assert_string_equal(decoded, expected);
    free(decoded);
}

static void assert_refused(const char *raw, const char *reason_part) {
    char *decoded = (char *)"untouched";
    const char *why = NULL;
    assert_int_equal(ldp_path_decode(raw, &decoded, &why), -1);
    assert_null(decoded);
    assert_non_null(why);
    assert_non_null(strstr(why, reason_part));
}

static void good_paths_decode(void **state) {
    (void)state;
    assert_decodes("/", "/");
    assert_decodes("/c/", "/c/");
    assert_decodes("/c/x", "/c/x");
    assert_decodes("/caf%C3%A9%20au%20lait", "/caf\xc3\xa9 au lait");
    assert_decodes("/a%3Ab/c..d/e.f", "/a:b/c..d/e.f");
}

static void bad_paths_are_refused(void **state) {
    (void)state;
    assert_refused("/c/../x", "'..'");
    assert_refused("/c/%2e%2E/x", "'..'");
    assert_refused("/c/..", "'..'");
    assert_refused("/c/./x", "'.'");
    assert_refused("/c/.hidden", "'.'");
    assert_refused("/c/a%2Fb", "encoded '/'");
    assert_refused("/c/a%2fb", "encoded '/'");
    assert_refused("/c/a%00b", "control");
    assert_refused("/c/a%1Fb", "control");
    assert_refused("/c/a%7Fb", "control");
    assert_refused("/c/a\tb", "control");
    assert_refused("/c//x", "empty");
    assert_refused("/c/%zz", "percent-escape");
    assert_refused("/c/%4", "percent-escape");
    assert_refused("c/x", "begin with '/'");
    assert_refused("*", "begin with '/'");
    char long_name[300];
    long_name[0] = '/';
    memset(long_name + 1, 'n', 280);
    long_name[281] = '\0';
    assert_refused(long_name, "too long");
}

static void encoding_round_trips(void **state) {
    (void)state;
    const char *names[] = {"/plain/x", "/caf\xc3\xa9 au lait", "/100%", "/a#b?c", "/q\"<>{}|^`\\"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        buf encoded = {0};
        ldp_path_encode(names[i], strlen(names[i]), &encoded);
        for (size_t j = 0; j < encoded.len; j++)
            assert_true((unsigned char)encoded.data[j] > 0x20 && (unsigned char)encoded.data[j] < 0x7f);
        assert_null(strpbrk(buf_cstr(&encoded), "#?\"<>{}|^`\\ "));
        char *decoded;
        const char *why;
        assert_int_equal(ldp_path_decode(encoded.data, &decoded, &why), 0);
        assert_string_equal(decoded, names[i]);
        free(decoded);
        buf_free(&encoded);
    }
}

static void member_references(void **state) {
    (void)state;
    buf ref = {0};
    ldp_member_ref("x", 1, false, &ref);
    assert_string_equal(buf_cstr(&ref), "x");
    ref.len = 0;
    ldp_member_ref("sub", 3, true, &ref);
    assert_string_equal(buf_cstr(&ref), "sub/");
    ref.len = 0;
    ldp_member_ref("urn:x", 5, false, &ref); /* would read as a scheme */
    assert_string_equal(buf_cstr(&ref), "./urn:x");
    buf_free(&ref);
}

static void slugs(void **state) {
    (void)state;
    char name[LDP_NAME_MAX + 1];
    assert_true(ldp_slug_name("order-1", name, sizeof name));
    assert_string_equal(name, "order-1");
    assert_true(ldp_slug_name("sub/", name, sizeof name));
    assert_string_equal(name, "sub");
    assert_true(ldp_slug_name("a%5Fb", name, sizeof name));
    assert_string_equal(name, "a_b");
    assert_false(ldp_slug_name("", name, sizeof name));
    assert_false(ldp_slug_name(".hidden", name, sizeof name));
    assert_false(ldp_slug_name("..", name, sizeof name));
    assert_false(ldp_slug_name("a/b", name, sizeof name));
    assert_false(ldp_slug_name("a%2Fb", name, sizeof name));
    assert_false(ldp_slug_name("with space", name, sizeof name));
    assert_false(ldp_slug_name("caf\xc3\xa9", name, sizeof name));
    char long_slug[200];
    memset(long_slug, 's', 199);
    long_slug[199] = '\0';
    assert_false(ldp_slug_name(long_slug, name, sizeof name));
}

static void random_names_differ(void **state) {
    (void)state;
    buf a = {0}, b = {0};
    ldp_path_random_name(&a);
    ldp_path_random_name(&b);
    assert_int_equal(a.len, 16);
    assert_int_equal(strspn(buf_cstr(&a), "0123456789abcdef"), 16);
    assert_string_not_equal(a.data, buf_cstr(&b));
    buf_free(&a);
    buf_free(&b);
}

/* Members POSTed without a Slug list in arrival order: each name sorts after the one before, even within
 * one millisecond and when the clock is behind the last name given. */
static void ordered_names_sort_in_the_order_given(void **state) {
    (void)state;
    uint64_t last = 0;
    char previous[17] = "";
    for (int i = 0; i < 1000; i++) {
        buf name = {0};
        ldp_path_ordered_name(&name, &last);
        assert_int_equal(name.len, 16);
        assert_int_equal(strspn(buf_cstr(&name), "0123456789abcdef"), 16);
        assert_true(strcmp(previous, name.data) < 0);
        memcpy(previous, name.data, 17);
        buf_free(&name);
    }
    last = 0xfffffffffffULL; /* a clock far ahead: still after it */
    buf name = {0};
    ldp_path_ordered_name(&name, &last);
    assert_int_equal(strncmp(name.data, "100000000000", 12), 0);
    buf_free(&name);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_paths_decode),  cmocka_unit_test(bad_paths_are_refused),
        cmocka_unit_test(encoding_round_trips), cmocka_unit_test(member_references),
        cmocka_unit_test(slugs),              cmocka_unit_test(random_names_differ),
        cmocka_unit_test(ordered_names_sort_in_the_order_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
