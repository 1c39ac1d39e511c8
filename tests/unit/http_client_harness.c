/* http_client_harness.c: what the http/ client tests (test_http_client.c, test_http_background.c) share:
 * the in-process test server started and stopped as a cmocka fixture, URLs on it, a client that logs
 * only warnings, and one request run alone in its batch.
 *
 * Included directly by each test (CMake makes a test of every tests/unit/test_*.c only), after cmocka;
 * its functions are external, as agent_test_harness.c's are, so a test need not use all of them. */
#include <stdio.h>

#include "http/http_client.h"

/* The test server is compiled into each test that includes this harness. */
#include "http_test_server.c"

enum { URL_SIZE = 512 };

typedef struct url {
    char text[URL_SIZE];
} url;

/* The server's URL of path (which starts with '/'). */
url at(const test_server *s, const char *path) {
    url u;
    snprintf(u.text, sizeof u.text, "%s%s", test_server_base(s), path);
    return u;
}

int start_server(void **state) {
    *state = test_server_start();
    return 0;
}

int stop_server(void **state) {
    test_server_stop(*state);
    return 0;
}

static const log_sink quiet = {.threshold = LOG_WARN};

/* A client with options o, logging warnings and errors only. */
http_client *client_with(http_options o) {
    o.log = &quiet;
    http_client *c = http_client_new(&o);
    assert_non_null(c);
    return c;
}

/* One request, alone in its batch. */
http_result run_one(http_client *c, http_request r) {
    http_result result;
    http_run(c, &r, 1, &result);
    return result;
}
