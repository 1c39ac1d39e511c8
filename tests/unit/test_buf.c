/* test_buf.c: the byte buffer's JSON string writer (used by `ldgsm status --json` and `run --trace`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rdf/buf.h"

static void expect_json(const char *in, const char *want) {
    buf b = {0};
    buf_json_string(&b, in);
    assert_string_equal(buf_cstr(&b), want);
    buf_free(&b);
}

static void test_json_plain_text_is_quoted(void **state) {
    (void)state;
    expect_json("", "\"\"");
    expect_json("GET http://h/a 200", "\"GET http://h/a 200\"");
}

static void test_json_escapes_quotes_backslashes_and_controls(void **state) {
    (void)state;
    expect_json("say \"hi\"", "\"say \\\"hi\\\"\"");
    expect_json("a\\b", "\"a\\\\b\"");
    expect_json("l1\nl2\tx", "\"l1\\nl2\\tx\"");
    expect_json("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
}

static void test_json_keeps_utf8(void **state) {
    (void)state;
    expect_json("d\xc3\xa9j\xc3\xa0", "\"d\xc3\xa9j\xc3\xa0\"");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_plain_text_is_quoted),
        cmocka_unit_test(test_json_escapes_quotes_backslashes_and_controls),
        cmocka_unit_test(test_json_keeps_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
