/* assert_text.h: an assertion of the unit tests on a string a function returned to the caller to free:
 * equal to expected, or NULL when expected is NULL; freed either way. Include after <cmocka.h>. */
#ifndef LDGSM_TESTS_ASSERT_TEXT_H
#define LDGSM_TESTS_ASSERT_TEXT_H

#include <stdlib.h>

static void assert_owned_text(char *got, const char *expected) {
    if (expected) {
        assert_non_null(got);
        assert_string_equal(got, expected);
    } else {
        assert_null(got);
    }
    free(got);
}

#endif
