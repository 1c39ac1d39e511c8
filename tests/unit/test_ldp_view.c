/* test_ldp_view.c: a view of the whole LDP store (ldp_store_view_take): every resource and container at
 * one moment, in path order, unchanged by writes made after it was taken. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ldp/ldp_store.h"

static void put(ldp_store *store, const char *path, const char *turtle) {
    ldp_body body = {turtle, strlen(turtle), LDP_MEDIA_TURTLE, "body"};
    ldp_conditions none = {0};
    ldp_outcome outcome;
    ldp_store_put(store, path, &body, &none, &outcome);
    assert_true(outcome.status == 201 || outcome.status == 204);
    ldp_outcome_clear(&outcome);
}

static void the_whole_store_at_one_moment(void **state) {
    (void)state;
    ldp_store_config config = {NULL, "http://h:1", free, NULL, NULL, NULL, NULL};
    char message[256];
    ldp_store *store = ldp_store_open(&config, message, sizeof message);
    assert_non_null(store);
    put(store, "/b/x", "<#a> <#b> 1 .");
    put(store, "/a", "<#a> <#b> 2 .");

    ldp_store_view view;
    ldp_store_view_take(store, &view);
    put(store, "/a", "<#a> <#b> 3 .");
    put(store, "/c", "<#a> <#b> 4 .");

    const char *paths[] = {"/", "/a", "/b/", "/b/x"};
    assert_int_equal(view.count, 4);
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(view.docs[i]->path, paths[i]);
    assert_non_null(strstr(view.docs[1]->turtle->data, "2 ."));
    assert_string_equal(view.docs[1]->uri, "http://h:1/a");
    assert_true(view.docs[2]->is_container);
    assert_non_null(strstr(view.docs[2]->turtle->data, "contains"));
    ldp_store_view_release(&view);
    assert_int_equal(view.count, 0);

    ldp_store_view_take(store, &view);
    assert_int_equal(view.count, 5);
    assert_non_null(strstr(view.docs[1]->turtle->data, "3 ."));
    ldp_store_view_release(&view);
    ldp_store_free(store);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_whole_store_at_one_moment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
