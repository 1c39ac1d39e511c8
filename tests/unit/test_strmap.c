/* test_strmap.c: string-keyed map: insertion, lookup, values kept across growth, absent keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "rdf/strmap.h"

static void put_then_get(void **state) {
    (void)state;
    strmap m = {0};
    bool inserted;
    strmap_put(&m, "http://a/x", 7, &inserted);
    assert_true(inserted);
    assert_int_equal(*strmap_put(&m, "http://a/x", 9, &inserted), 7);
    assert_false(inserted);
    assert_int_equal(*strmap_get(&m, "http://a/x"), 7);
    assert_null(strmap_get(&m, "http://a/y"));
    assert_null(strmap_get(&m, ""));
    strmap_put(&m, "", 3, NULL);
    assert_int_equal(*strmap_get(&m, ""), 3);
    strmap_free(&m);
}

static void many_keys(void **state) {
    (void)state;
    strmap m = {0};
    char key[32];
    for (uint32_t i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "k%u", i);
        strmap_put(&m, key, i * 3, NULL);
    }
    assert_int_equal(m.count, 20000);
    for (uint32_t i = 0; i < 20000; i += 997) {
        snprintf(key, sizeof key, "k%u", i);
        assert_int_equal(*strmap_get(&m, key), i * 3);
    }
    assert_null(strmap_get(&m, "k20000"));
    strmap_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(put_then_get), cmocka_unit_test(many_keys)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
