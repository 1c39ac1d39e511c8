/* test_shard.c: `ldgsm run --shard I/N` (src/agent/shard.h): every instance in exactly one shard, the
 * shards about even, and a fleet grown from N to N + 1 moving only what the new shard takes, about
 * 1/(N + 1) of the instances, for N = 1..8; and the option's syntax. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "agent/shard.h"

enum { INSTANCES = 4000 };

static const char *instance(unsigned k) {
    static char iri[96];
    snprintf(iri, sizeof iri, "http://127.0.0.1:3000/status/order%u#it", k);
    return iri;
}

static void test_even_and_stable(void **state) {
    (void)state;
    static unsigned before[INSTANCES];
    for (unsigned k = 0; k < INSTANCES; k++)
        before[k] = shard_of(instance(k), 1);
    for (unsigned k = 0; k < INSTANCES; k++)
        assert_int_equal(before[k], 1);
    for (unsigned n = 2; n <= 9; n++) {
        unsigned per_shard[10] = {0}, moved = 0;
        for (unsigned k = 0; k < INSTANCES; k++) {
            unsigned s = shard_of(instance(k), n);
            assert_true(s >= 1 && s <= n);
            assert_int_equal(s, shard_of(instance(k), n)); /* the same answer every time */
            per_shard[s]++;
            if (s != before[k]) {
                /* an instance moves only to the new shard */
                assert_int_equal(s, n);
                moved++;
            }
            before[k] = s;
        }
        for (unsigned s = 1; s <= n; s++) /* within a quarter of an even share */
            assert_true(per_shard[s] * 4 * n >= 3 * INSTANCES && per_shard[s] * 4 * n <= 5 * INSTANCES);
        /* about 1/n of them move (the new shard's share), well under twice that */
        assert_true(moved * n <= 2 * INSTANCES && moved * n * 2 >= INSTANCES);
    }
}

static void test_parse(void **state) {
    (void)state;
    unsigned i, n;
    assert_int_equal(shard_parse("1/1", &i, &n), 0);
    assert_int_equal(i, 1);
    assert_int_equal(n, 1);
    assert_int_equal(shard_parse("3/8", &i, &n), 0);
    assert_int_equal(i, 3);
    assert_int_equal(n, 8);
    const char *bad[] = {"0/4", "5/4", "1/0", "1/", "/4", "1-4", "a/b", "1/4x", "-1/4", "1/-4", "1/5000", ""};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        if (shard_parse(bad[k], &i, &n) == 0)
            fail_msg("'%s' parsed", bad[k]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_even_and_stable),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
