/* agent_test_harness.c: what the test_agent_*.c tests share: two in-process test servers (two origins,
 * "@A" and "@B" in program templates), an N3 program written to a temporary file from a template, one
 * agent iteration with its stats, and the agent's log captured for assertions.
 *
 * Included directly by each test (CMake makes a test of every tests/unit/test_*.c only), after cmocka; its
 * functions are external, as the test server's are, so a test need not use all of them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent.h"
#include "rdf/nt_writer.h"
#include "rdf/rdfio.h"

/* The test server is compiled into each test that includes this harness. */
#include "http_test_server.c"

static const char program_prefixes[] =
    "@prefix http: <http://www.w3.org/2011/http#> .\n"
    "@prefix httpm: <http://www.w3.org/2011/http-methods#> .\n"
    "@prefix ldgsm: <https://w3id.org/ldgsm#> .\n"
    "@prefix this: <http://this.nxparser.github.io/reference/to/URI/of/current/rdf/graph/for/representing/"
    "permanently/relative/URIs/in/N-Triples/#> .\n"
    "@prefix : <http://ex.org/> .\n";

typedef struct fixture {
    test_server *a, *b;      /* two origins: @A and @B in templates */
    char dir[64];            /* a temporary directory for the program file */
    char program_path[128];
    char *programs[1];
    agent_options opt;       /* tests set options here before iterate_once() */
    log_sink log;
    buf log_text;            /* every message the agent logged, one per line */
    iteration_stats stats;   /* of the last iteration */
} fixture;

void capture_log(void *user, enum log_level level, const char *message) {
    (void)level;
    fixture *f = user;
    buf_puts(&f->log_text, message);
    buf_putc(&f->log_text, '\n');
    buf_cstr(&f->log_text); /* kept NUL-terminated for strstr */
}

int fixture_setup(void **state) {
    fixture *f = xcalloc(1, sizeof *f);
    f->a = test_server_start();
    f->b = test_server_start();
    snprintf(f->dir, sizeof f->dir, "/tmp/ldgsm-agent-unit.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->program_path, sizeof f->program_path, "%s/program.n3", f->dir);
    f->programs[0] = f->program_path;
    f->log = (log_sink){.write = capture_log, .user = f, .threshold = LOG_DEBUG};
    f->opt = (agent_options){.programs = f->programs, .program_count = 1, .interval_ms = 0, .iterations = 1};
    *state = f;
    return 0;
}

int fixture_teardown(void **state) {
    fixture *f = *state;
    test_server_stop(f->a);
    test_server_stop(f->b);
    unlink(f->program_path);
    rmdir(f->dir);
    buf_free(&f->log_text);
    free(f);
    return 0;
}

/* The template with "@A" and "@B" replaced by the two servers' bases ("http://127.0.0.1:PORT"). */
char *expand_bases(const fixture *f, const char *template) {
    buf out = {0};
    for (const char *p = template; *p; p++) {
        if (p[0] == '@' && (p[1] == 'A' || p[1] == 'B')) {
            buf_puts(&out, test_server_base(p[1] == 'A' ? f->a : f->b));
            p++;
        } else {
            buf_putc(&out, *p);
        }
    }
    return buf_cstr(&out);
}

/* Writes the prefixes and the expanded template as the agent's only program. */
void write_program(fixture *f, const char *template) {
    char *text = expand_bases(f, template);
    FILE *file = fopen(f->program_path, "w");
    assert_non_null(file);
    fputs(program_prefixes, file);
    fputs(text, file);
    fclose(file);
    free(text);
}

agent *new_agent(fixture *f) {
    char error[512] = "";
    agent *a = agent_new(&f->opt, &f->log, error, sizeof error);
    if (!a)
        fail_msg("agent_new: %s", error);
    return a;
}

/* One iteration of a fresh agent over the program; returns agent_iterate's result, stats in f->stats. */
int iterate_once(fixture *f) {
    agent *a = new_agent(f);
    int rc = agent_iterate(a, &f->stats);
    agent_free(a);
    return rc;
}

/* Sets a route on server s at path; the body is a template ("@A", "@B" expanded). */
void set_route(fixture *f, test_server *s, const char *method, const char *path, unsigned status,
              const char *content_type, const char *body_template, const char *etag) {
    char *body = body_template ? expand_bases(f, body_template) : NULL;
    test_server_route(s, method, path, status, content_type, body, etag);
    free(body);
}

bool logged(const fixture *f, const char *text) {
    return f->log_text.data && strstr(f->log_text.data, text) != NULL;
}

/* How many log lines contain text. */
size_t logged_count(const fixture *f, const char *text) {
    size_t count = 0;
    for (const char *p = f->log_text.data; p && (p = strstr(p, text)); p += strlen(text))
        count++;
    return count;
}

/* The unsafe requests a server received (anything but GET and HEAD). */
size_t unsafe_received(test_server *s) {
    size_t count = 0;
    for (size_t i = 0; i < test_server_request_count(s); i++) {
        const char *m = test_server_method(s, i);
        count += strcmp(m, "GET") != 0 && strcmp(m, "HEAD") != 0;
    }
    return count;
}

/* The body of the first request with method to path, NUL-terminated; the caller frees it. */
char *body_of(test_server *s, const char *method, const char *path) {
    long i = test_server_find(s, method, path, 0);
    assert_true(i >= 0);
    size_t len;
    const char *body = test_server_body(s, (size_t)i, &len);
    return xstrndup(body ? body : "", len);
}

/* A header of the first request with method to path (NULL when absent). */
const char *header_of(test_server *s, const char *method, const char *path, const char *name) {
    long i = test_server_find(s, method, path, 0);
    assert_true(i >= 0);
    return test_server_header(s, (size_t)i, name);
}

/* A Turtle body parsed against base, as N-Triples text (one triple a line); the caller frees
 * it. Fails the test when the body does not parse. */
char *turtle_as_ntriples(const char *body, const char *base) {
    terms *t = terms_new();
    rdfio *io = rdfio_new(t);
    triple *ts = NULL;
    size_t n = 0;
    rdf_error err;
    if (rdf_parse_triples(io, RDF_TURTLE, body, strlen(body), base, "body", &ts, &n, &err) != 0)
        fail_msg("the body does not parse as Turtle: %s\n%s", err.message, body);
    buf out = {0};
    rdf_write_ntriples(t, ts, n, &out);
    free(ts);
    rdfio_free(io);
    terms_free(t);
    return buf_cstr(&out);
}
