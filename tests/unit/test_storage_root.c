/* test_storage_root.c: the root a storage description may claim (notifications_storage_root in
 * agent/notifications.h), which places the documents whose answers name no storage: a container holding
 * the description, below an http(s) origin. Every expected value is written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agent/notifications.h"
#include "assert_text.h"

static void assert_root(const char *description, const char *iri, const char *expected) {
    assert_owned_text(notifications_storage_root(description, iri, strlen(iri)), expected);
}

static void roots(void **state) {
    (void)state;
    /* a pod's, as Community Solid Server describes it, and a whole server's */
    assert_root("http://h:3000/alice/.well-known/solid", "http://h:3000/alice/", "http://h:3000/alice/");
    assert_root("http://h:3000/.well-known/solid", "http://h:3000/", "http://h:3000/");
    /* not a container: its prefix would hold /alice2/ too */
    assert_root("http://h:3000/alice/.well-known/solid", "http://h:3000/alice", NULL);
    /* another pod's, another origin's: not the description's own */
    assert_root("http://h:3000/alice/.well-known/solid", "http://h:3000/bob/", NULL);
    assert_root("http://evil.example/.well-known/solid", "http://victim.example/", NULL);
    assert_root("http://h:3000/.well-known/solid", "http://h:30/", NULL);
    /* every document, or no origin at all */
    assert_root("http://h/.well-known/solid", "http://", NULL);
    assert_root("http://h/.well-known/solid", "http:/", NULL);
    assert_root("file:///srv/.well-known/solid", "file:///srv/", NULL);
    assert_root("http://h/.well-known/solid", "", NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
