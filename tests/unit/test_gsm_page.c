/* test_gsm_page.c: the server's page of workflow instances (src/gsm/page.h) without HTTP: which documents
 * hold instances, what each shows (states, the drawing when the model is held, why not otherwise), that
 * text from documents is escaped, the headers it needs, and that the RDF lock is held around parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gsm/page.h"

#define PREFIXES "@prefix gsm: <http://purl.org/gsm/vocab#> .\n@prefix ldgsm: <https://w3id.org/ldgsm#> .\n" \
                 "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"

static const char model[] = PREFIXES
    "<#root> a gsm:Stage ; rdfs:label \"<script>alert(1)</script>\" ; gsm:hasChildStage <#a> ;\n"
    "  gsm:hasMilestone <#done> .\n"
    "<#a> a gsm:Stage ; rdfs:label \"Stage A & co\" ; gsm:hasMilestone <#ma> .\n"
    "<#ma> rdfs:label \"A done\" .\n";
static const char set_up[] = PREFIXES
    "<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:active ;\n"
    "  ldgsm:isCompleted false ; gsm:inArtifactInstance <#it> .\n"
    "<#s1> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#a> ; gsm:inArtifactInstance <#it> ;\n"
    "  gsm:hasState gsm:inactive ; ldgsm:isCompleted true .\n"
    "<#m1> gsm:isInstanceOf <../models/m#ma> ; ldgsm:ofStage <#s1> ; gsm:inArtifactInstance <#it> ;\n"
    "  gsm:isAchieved true .\n";
static const char waiting[] = PREFIXES
    "<#it> a gsm:StageInstance ; gsm:isInstanceOf <http://elsewhere.invalid/m#root> ;\n"
    "  gsm:hasState gsm:uninitialized .\n";
static const char not_an_instance[] = PREFIXES
    "<#x> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#a> ; gsm:hasState gsm:active .\n";

typedef struct lock_log {
    int acquired, released;
} lock_log;

static void acquire(void *user) { ((lock_log *)user)->acquired++; }
static void release(void *user) { ((lock_log *)user)->released++; }

static void render(const gsm_page_lock *lock, buf *html) {
    const gsm_page_document docs[] = {
        {"http://h/models/m", model, strlen(model)},
        {"http://h/status/a", set_up, strlen(set_up)},
        {"http://h/status/b", waiting, strlen(waiting)},
        {"http://h/status/c", not_an_instance, strlen(not_an_instance)},
    };
    gsm_page *page = gsm_page_new(NULL, lock);
    gsm_page_render(page, "http://h/", docs, 4, html);
    gsm_page_free(page);
}

static void lists_the_instances_with_their_states(void **state) {
    (void)state;
    buf html = {0};
    render(NULL, &html);
    const char *page = buf_cstr(&html);
    assert_non_null(strstr(page, "2 instances"));
    assert_non_null(strstr(page, "<a href=\"http://h/status/a\">http://h/status/a#it</a>"));
    assert_non_null(strstr(page, "<a href=\"http://h/status/b\">http://h/status/b#it</a>"));
    assert_null(strstr(page, "status/c"));
    assert_non_null(strstr(page, "root state <b>active</b>, not completed"));
    assert_non_null(strstr(page, "Stage A &amp; co</td><td class=\"completed\">completed</td>"));
    assert_non_null(strstr(page, "A done (achieved)"));
    assert_non_null(strstr(page, "root state <b>uninitialized</b>"));
    assert_non_null(strstr(page, "does not hold the model"));
    assert_non_null(strstr(page, "<meta http-equiv=\"refresh\""));
    /* one drawing: the instance whose model the documents hold */
    const char *svg = strstr(page, "<svg");
    assert_non_null(svg);
    assert_null(strstr(svg + 1, "<svg"));
    buf_free(&html);
}

static void escapes_what_documents_say(void **state) {
    (void)state;
    buf html = {0};
    render(NULL, &html);
    const char *page = buf_cstr(&html);
    assert_null(strstr(page, "<script"));
    assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    buf_free(&html);
}

static void parses_under_the_lock_it_is_given(void **state) {
    (void)state;
    lock_log log = {0};
    gsm_page_lock lock = {acquire, release, &log};
    buf html = {0};
    render(&lock, &html);
    assert_int_equal(log.acquired, 1);
    assert_int_equal(log.released, 1);
    buf_free(&html);
}

static void sends_what_the_page_needs(void **state) {
    (void)state;
    gsm_page *page = gsm_page_new(NULL, NULL);
    size_t n;
    const gsm_page_header *headers = gsm_page_headers(page, &n);
    bool type = false, policy = false;
    for (size_t i = 0; i < n; i++) {
        type |= strcmp(headers[i].name, "Content-Type") == 0 &&
                strcmp(headers[i].value, "text/html; charset=utf-8") == 0;
        policy |= strcmp(headers[i].name, "Content-Security-Policy") == 0 &&
                  strncmp(headers[i].value, "default-src 'none'; style-src 'sha256-", 38) == 0 &&
                  !strstr(headers[i].value, "script-src");
    }
    assert_true(type);
    assert_true(policy);
    gsm_page_free(page);
}

static void an_empty_server(void **state) {
    (void)state;
    gsm_page *page = gsm_page_new(NULL, NULL);
    buf html = {0};
    gsm_page_render(page, "http://h/", NULL, 0, &html);
    assert_non_null(strstr(buf_cstr(&html), "0 instances"));
    assert_non_null(strstr(buf_cstr(&html), "No workflow instance yet"));
    buf_free(&html);
    gsm_page_free(page);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_the_instances_with_their_states),
        cmocka_unit_test(escapes_what_documents_say),
        cmocka_unit_test(parses_under_the_lock_it_is_given),
        cmocka_unit_test(sends_what_the_page_needs),
        cmocka_unit_test(an_empty_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
