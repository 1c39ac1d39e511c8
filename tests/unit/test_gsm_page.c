/* test_gsm_page.c: the server's pages of workflow instances (src/gsm/page.h) without HTTP: which documents
 * hold instances, what each instance's own page shows (states, the drawing when the model is held, why not
 * otherwise, its status), the console (counts by state, the filter, paging, why each row waits, the
 * documents read again only when their ETag changed), the page's reader (a page reads no document itself
 * while the reader has them, beyond a few written since; the page after a write shows it; a burst of
 * writes is read first; removed documents; the reader's thread beside pages), that
 * text from documents is escaped, the headers it needs (with notifications: its script's hash and the
 * listener), the documents its script follows, and that it parses beside other threads' RDF work: it
 * frees no raptor2 world (its SPARQL parsers included), and renders while another thread parses. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <nettle/base64.h>
#include <nettle/sha2.h>

#include <dlfcn.h>
#include <pthread.h>
#include <raptor2.h>
#include <rasqal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gsm/page.h"
#include "rdf/rdfio.h"

#define PREFIXES "@prefix gsm: <http://purl.org/gsm/vocab#> .\n@prefix ldgsm: <https://w3id.org/ldgsm#> .\n" \
                 "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"

static const char model[] = PREFIXES
    "<#root> a gsm:Stage ; rdfs:label \"<script>alert(1)</script>\" ; gsm:hasChildStage <#a> ;\n"
    "  gsm:hasMilestone <#done> .\n"
    "<#a> a gsm:Stage ; rdfs:label \"Stage A & co\" ; gsm:hasMilestone <#ma> ; gsm:hasGuard <#ga> .\n"
    "<#ma> rdfs:label \"A done\" .\n"
    "<#ga> gsm:hasCondition <#ca> .\n"
    "<#ca> a <http://spinrdf.org/sp#Ask> ; <http://spinrdf.org/sp#text> \"\"\"PREFIX gsm: <http://purl.org/gsm/vocab#>\n"
    "ASK { ?m gsm:isInstanceOf <#ma> ; gsm:isAchieved true }\"\"\" .\n";

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

/* Every raptor_free_world of the process (librasqal's calls included: these definitions interpose on the
 * libraries'), and every rasqal world made, counted before the real function runs. */
static atomic_int worlds_freed, rasqal_worlds_made;

void raptor_free_world(raptor_world *world) {
    static void (*real)(raptor_world *);
    atomic_fetch_add(&worlds_freed, 1);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "raptor_free_world");
    real(world);
}

rasqal_world *rasqal_new_world(void) {
    static rasqal_world *(*real)(void);
    atomic_fetch_add(&rasqal_worlds_made, 1);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "rasqal_new_world");
    return real();
}

static void render(buf *html) {
    const gsm_page_document docs[] = {
        {"http://h/models/m", model, strlen(model), NULL, false},
        {"http://h/status/a", set_up, strlen(set_up), NULL, false},
        {"http://h/status/b", waiting, strlen(waiting), NULL, false},
        {"http://h/status/c", not_an_instance, strlen(not_an_instance), NULL, false},
    };
    gsm_page *page = gsm_page_new(&(gsm_page_config){0});
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, docs, 4, html);
    assert_int_equal(gsm_page_render(page, "http://h/", &(gsm_page_query){.instance = "http://h/status/a#it"}, docs,
                                     4, html), 200);
    assert_int_equal(gsm_page_render(page, "http://h/", &(gsm_page_query){.instance = "http://h/status/b#it"}, docs,
                                     4, html), 200);
    gsm_page_free(page);
}

static void lists_the_instances_with_their_states(void **state) {
    (void)state;
    buf html = {0};
    render(&html);
    const char *page = buf_cstr(&html);
    assert_non_null(strstr(page, "<b>2</b> instances"));
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
    render(&html);
    const char *page = buf_cstr(&html);
    assert_null(strstr(page, "<script"));
    assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    buf_free(&html);
}

/* Freeing a raptor2 world cleans libxml2 up under every other thread (raptor_pool.c), so the page, SPARQL
 * parsers (rasqal) included, frees none: its worlds come from rdfio's pool. */
static void frees_no_raptor_world(void **state) {
    (void)state;
    int freed = atomic_load(&worlds_freed), made = atomic_load(&rasqal_worlds_made);
    buf html = {0};
    render(&html);
    assert_non_null(strstr(buf_cstr(&html), "<svg"));
    assert_true(atomic_load(&rasqal_worlds_made) > made); /* the model's SPARQL sentry was parsed */
    assert_int_equal(atomic_load(&worlds_freed), freed);
    buf_free(&html);
}

enum { BESIDE_ROUNDS = 20 };

static const char rdfxml[] =
    "<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"\n"
    "  xmlns:ex=\"http://example.org/\"><rdf:Description rdf:about=\"#a\"><ex:p>1</ex:p>\n"
    "  <ex:q rdf:resource=\"#b\"/></rdf:Description></rdf:RDF>\n";

/* RDF/XML (libxml2, whose process-wide state a freed world would tear down) parsed again and again;
 * returns the number of parses that failed. */
static void *parse_rdfxml(void *arg) {
    (void)arg;
    intptr_t failures = 0;
    for (int i = 0; i < BESIDE_ROUNDS * 20; i++) {
        terms *t = terms_new();
        rdfio *io = rdfio_new(t);
        triple *ts = NULL;
        size_t n = 0;
        rdf_error err;
        if (rdf_parse_triples(io, RDF_RDFXML, rdfxml, strlen(rdfxml), "http://h/x", "x", &ts, &n, &err) != 0 || n != 2)
            failures++;
        free(ts);
        rdfio_free(io);
        terms_free(t);
    }
    return (void *)failures;
}

/* The page reads its documents and sentries (SPARQL parsers included) while another thread parses RDF/XML:
 * both succeed. (Not the drawing: it forks, and under AddressSanitizer (GCC 12) a child forked while
 * another thread holds the sanitizer's allocator lock waits for it for ever: that drawing times out.) */
static void renders_beside_parsing_on_another_thread(void **state) {
    (void)state;
    rdfio_prepare_libxml();
    pthread_t parser;
    assert_int_equal(pthread_create(&parser, NULL, parse_rdfxml, NULL), 0);
    for (int i = 0; i < BESIDE_ROUNDS; i++) {
        buf html = {0};
        render(&html);
        assert_non_null(strstr(buf_cstr(&html), "<b>2</b> instances"));
        assert_non_null(strstr(buf_cstr(&html), "Stage A &amp; co</td><td class=\"completed\">completed</td>"));
        buf_free(&html);
    }
    void *failures;
    pthread_join(parser, &failures);
    assert_int_equal((intptr_t)failures, 0);
}

static void sends_what_the_page_needs(void **state) {
    (void)state;
    gsm_page *page = gsm_page_new(&(gsm_page_config){0});
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
    gsm_page *page = gsm_page_new(&(gsm_page_config){0});
    buf html = {0};
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, NULL, 0, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>0</b> instances"));
    assert_non_null(strstr(buf_cstr(&html), "No workflow instance yet"));
    buf_free(&html);
    gsm_page_free(page);
}

/* ==== with notifications (design note 5) ==== */

static const gsm_page_config live_config = {.refresh = 7, .notifications = "ws://h:9",
                                           .subscription = "/.notifications/WebSocketChannel2023/",
                                           .max_channels = 4};

static void render_live(const gsm_page_config *config, buf *html) {
    const gsm_page_document docs[] = {
        {"http://h/", "", 0, "\"r\"", true},
        {"http://h/models/", "", 0, "\"mc\"", true},
        {"http://h/models/m", model, strlen(model), "\"m\"", false},
        {"http://h/other/", "", 0, "\"oc\"", true},
        {"http://h/status/", "", 0, "\"sc\"", true},
        {"http://h/status/a", set_up, strlen(set_up), "\"a\"", false},
        {"http://h/status/b", waiting, strlen(waiting), "\"b\"", false},
    };
    gsm_page *page = gsm_page_new(config);
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, docs, sizeof docs / sizeof *docs, html);
    gsm_page_free(page);
}

static const char *header(const gsm_page *page, const char *name) {
    size_t n;
    const gsm_page_header *headers = gsm_page_headers(page, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(headers[i].name, name) == 0)
            return headers[i].value;
    return NULL;
}

/* The root and the instances' container, the instances' documents, then the other containers, each with
 * its ETag: the first four (max_channels) listed, two more counted beyond; the meta refresh only for a
 * browser without script. */
static void follows_the_documents_it_shows(void **state) {
    (void)state;
    buf html = {0};
    render_live(&live_config, &html);
    const char *page = buf_cstr(&html);
    assert_non_null(strstr(page, "<noscript><meta http-equiv=\"refresh\" content=\"7\"></noscript>"));
    assert_non_null(strstr(page, "<ul id=\"topics\" hidden data-service=\"/.notifications/WebSocketChannel2023/\" "
                                 "data-refresh=\"7\" data-beyond=\"2\">\n"
                                 "<li data-state=\"&quot;r&quot;\">http://h/</li>\n"
                                 "<li data-state=\"&quot;sc&quot;\">http://h/status/</li>\n"
                                 "<li data-state=\"&quot;a&quot;\">http://h/status/a</li>\n"
                                 "<li data-state=\"&quot;b&quot;\">http://h/status/b</li>\n</ul>\n"));
    assert_non_null(strstr(page, "<b>2</b> instances")); /* containers hold none */
    buf_free(&html);
    gsm_page_config all = live_config;
    all.max_channels = 100;
    render_live(&all, &html);
    assert_non_null(strstr(buf_cstr(&html), "data-beyond=\"0\">\n<li data-state=\"&quot;r&quot;\">http://h/</li>\n"
                                             "<li data-state=\"&quot;sc&quot;\">http://h/status/</li>\n"
                                             "<li data-state=\"&quot;a&quot;\">http://h/status/a</li>\n"
                                             "<li data-state=\"&quot;b&quot;\">http://h/status/b</li>\n"
                                             "<li data-state=\"&quot;mc&quot;\">http://h/models/</li>\n"
                                             "<li data-state=\"&quot;oc&quot;\">http://h/other/</li>\n</ul>"));
    buf_free(&html);
}

/* The policy allows the page's one script by the hash of what the page holds between <script> and
 * </script>, and connections to the server itself and its notification listener only. */
static void allows_its_script_by_hash(void **state) {
    (void)state;
    buf html = {0};
    render_live(&live_config, &html);
    const char *page = buf_cstr(&html);
    const char *start = strstr(page, "<script>");
    assert_non_null(start);
    start += strlen("<script>");
    const char *end = strstr(start, "</script>");
    assert_non_null(end);
    assert_null(strstr(end + 1, "<script"));
    struct sha256_ctx sha;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&sha);
    sha256_update(&sha, (size_t)(end - start), (const uint8_t *)start);
    sha256_digest(&sha, sizeof digest, digest);
    char hash[BASE64_ENCODE_RAW_LENGTH(SHA256_DIGEST_SIZE) + 1];
    base64_encode_raw(hash, sizeof digest, digest);
    hash[BASE64_ENCODE_RAW_LENGTH(SHA256_DIGEST_SIZE)] = '\0';
    char expected[200];
    snprintf(expected, sizeof expected, "; script-src 'sha256-%s'; connect-src 'self' ws://h:9; base-uri", hash);
    gsm_page *p = gsm_page_new(&live_config);
    const char *policy = header(p, "Content-Security-Policy");
    assert_non_null(policy);
    assert_non_null(strstr(policy, expected));
    assert_int_equal(strncmp(policy, "default-src 'none'; style-src 'sha256-", 38), 0);
    gsm_page_free(p);
    buf_free(&html);
}


/* ==== the documents' instances, read by the page's reader (design note 6) ==== */

/* A server's documents as the page's source sees them: the first count of docs. */
typedef struct held_docs {
    const gsm_page_document *docs;
    size_t count;
} held_docs;

static bool held_read(void *user, const char *uri, gsm_page_document *doc, void **hold) {
    const held_docs *held = user;
    *hold = NULL;
    for (size_t i = 0; i < held->count; i++)
        if (strcmp(held->docs[i].uri, uri) == 0) {
            *doc = held->docs[i];
            return true;
        }
    return false;
}

/* A page reading held (with notifications: its script follows the documents), each of its documents
 * queued as at a server's start. */
static gsm_page *page_of(held_docs *held) {
    gsm_page *page = gsm_page_new(&(gsm_page_config){.notifications = "ws://h:9",
                                                     .subscription = "/.notifications/WebSocketChannel2023/",
                                                     .source = {held_read, NULL, held}});
    for (size_t i = 0; i < held->count; i++)
        gsm_page_queue(page, held->docs[i].uri, false);
    return page;
}

static void read_all_queued(gsm_page *page) {
    while (gsm_page_read_next(page))
        ;
}

static size_t read_in_requests(gsm_page *page) {
    gsm_page_counters counters;
    gsm_page_counters_get(page, &counters);
    return counters.read_in_requests;
}

/* ==== the console (design notes 6-8) ==== */

/* An instance whose quote call failed and is retried, one whose call is exhausted, and n set up or not set
 * up, in documents status/i0 ... of a model the server holds. */
static const char retrying[] = PREFIXES
    "<#it> a gsm:StageInstance, gsm:ArtifactInstance ; gsm:isInstanceOf <../models/m#root> ;\n"
    "  gsm:hasState gsm:active ; gsm:inArtifactInstance <#it> .\n"
    "<#s1> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#a> ; gsm:inArtifactInstance <#it> ;\n"
    "  gsm:hasState gsm:active .\n"
    "<#c1> a ldgsm:CallRecord ; ldgsm:ofStage <#s1> ; gsm:inArtifactInstance <#it> ; ldgsm:callState ldgsm:calling ;\n"
    "  ldgsm:alternative 1 ; ldgsm:retriesLeft 2 ; ldgsm:deadline \"2026-12-07T22:00:00Z\" ;\n"
    "  ldgsm:lastFailure \"answers 500\" .\n";
static const char exhausted[] = PREFIXES
    "<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:active ;\n"
    "  gsm:inArtifactInstance <#it> .\n"
    "<#c1> a ldgsm:CallRecord ; gsm:inArtifactInstance <#it> ; ldgsm:callState ldgsm:exhausted .\n";

enum { MANY = 120 };

/* The documents, and one page for all the renders of a test, every document read by its reader first
 * (page.h design note 6), as a server's. */
typedef struct console {
    gsm_page_document docs[MANY + 3];
    char uris[MANY][32];
    held_docs held;
    gsm_page *page;
} console;

static void console_docs(console *c) {
    c->docs[0] = (gsm_page_document){"http://h/models/m", model, strlen(model), "\"m\"", false};
    c->docs[1] = (gsm_page_document){"http://h/status/q", retrying, strlen(retrying), "\"q\"", false};
    c->docs[2] = (gsm_page_document){"http://h/status/x", exhausted, strlen(exhausted), "\"x\"", false};
    for (size_t i = 0; i < MANY; i++) {
        snprintf(c->uris[i], sizeof c->uris[i], "http://h/status/z%03zu", i);
        const char *body = i % 2 ? set_up : waiting;
        c->docs[3 + i] = (gsm_page_document){c->uris[i], body, strlen(body), i % 2 ? "\"s\"" : "\"w\"", false};
    }
    c->held = (held_docs){c->docs, MANY + 3};
    c->page = page_of(&c->held);
    read_all_queued(c->page);
}

static void console_render(const console *c, const gsm_page_query *query, buf *html) {
    assert_int_equal(gsm_page_render(c->page, "http://h/", query, c->docs, c->held.count, html), 200);
}

static size_t occurrences(const char *text, const char *what) {
    size_t n = 0;
    for (const char *at = text; (at = strstr(at, what)); at += strlen(what))
        n++;
    return n;
}

static void counts_instances_by_state(void **state) {
    (void)state;
    console c;
    console_docs(&c);
    buf html = {0};
    console_render(&c, &(gsm_page_query){0}, &html);
    const char *page = buf_cstr(&html);
    assert_non_null(strstr(page, "<b>122</b> instances</a>"));
    assert_non_null(strstr(page, "href=\"?state=active\"><b>60</b> active</a>"));
    assert_non_null(strstr(page, "href=\"?state=retrying\"><b>1</b> retrying</a>"));
    assert_non_null(strstr(page, "href=\"?state=call%20exhausted\"><b>1</b> call exhausted</a>"));
    assert_non_null(strstr(page, "href=\"?state=not%20set%20up\"><b>60</b> not set up</a>"));
    buf_free(&html);
    gsm_page_free(c.page);
}

/* A row says why its instance waits: the retried call with its retries, deadline and last failure, as
 * `ldgsm status` prints it, and links the instance's own page. */
static void shows_why_each_row_waits(void **state) {
    (void)state;
    console c;
    console_docs(&c);
    buf html = {0};
    console_render(&c, &(gsm_page_query){.state = "retrying"}, &html);
    const char *page = buf_cstr(&html);
    assert_non_null(strstr(page, "instances 1-1 of 1"));
    assert_non_null(strstr(page, "<a href=\"?instance=http%3A%2F%2Fh%2Fstatus%2Fq%23it\">http://h/status/q#it</a>"));
    assert_non_null(strstr(page, "<td class=\"state retrying\">retrying</td>"));
    assert_non_null(strstr(page, "stage &quot;Stage A &amp; co&quot; call: calling, alternative 1, 2 retries left, "
                                 "deadline 2026-12-07T22:00:00Z, last failure answers 500"));
    buf_free(&html);
    console_render(&c, &(gsm_page_query){.text = "z001"}, &html);
    assert_non_null(strstr(buf_cstr(&html), "instances 1-1 of 1"));
    buf_free(&html);
    /* an instance whose model is elsewhere: its report says so */
    console_render(&c, &(gsm_page_query){.text = "z000"}, &html);
    assert_non_null(strstr(buf_cstr(&html), "cannot be shown: cannot read its model "
                                             "&lt;http://elsewhere.invalid/m#root&gt;: not on this server (no answer)"));
    buf_free(&html);
    gsm_page_free(c.page);
}

static void filters_and_pages(void **state) {
    (void)state;
    console c;
    console_docs(&c);
    buf html = {0};
    console_render(&c, &(gsm_page_query){0}, &html);
    const char *page = buf_cstr(&html);
    assert_int_equal(occurrences(page, "<tr class=\"instance\">"), GSM_PAGE_ROWS);
    assert_non_null(strstr(page, "instances 1-50 of 122 · <a rel=\"next\" href=\"?page=2\">next</a>"));
    buf_free(&html);
    console_render(&c, &(gsm_page_query){.state = "active", .text = "STATUS/z", .page = 2}, &html);
    page = buf_cstr(&html);
    assert_non_null(strstr(page, "instances 51-60 of 60 · <a rel=\"prev\" href=\"?state=active&amp;text=STATUS%2Fz\">"));
    assert_int_equal(occurrences(page, "<tr class=\"instance\">"), 10);
    assert_int_equal(occurrences(page, "<td class=\"state active\">"), 10);
    assert_non_null(strstr(page, "<option selected>active</option>"));
    assert_non_null(strstr(page, "name=\"text\" value=\"STATUS/z\""));
    buf_free(&html);
    console_render(&c, &(gsm_page_query){.model = "http://elsewhere.invalid/m#root"}, &html);
    assert_non_null(strstr(buf_cstr(&html), "instances 1-50 of 60"));
    assert_null(strstr(buf_cstr(&html), "http://h/status/z001"));
    buf_free(&html);
    console_render(&c, &(gsm_page_query){.text = "<nothing>"}, &html);
    assert_non_null(strstr(buf_cstr(&html), "No instance matches the filter."));
    assert_non_null(strstr(buf_cstr(&html), "value=\"&lt;nothing&gt;\""));
    buf_free(&html);
    console_render(&c, &(gsm_page_query){.state = "<bad>"}, &html);
    assert_non_null(strstr(buf_cstr(&html), "No such state: &lt;bad&gt;."));
    buf_free(&html);
    gsm_page_free(c.page);
}

/* A document is read again only when its ETag changed: the same ETag over other content shows what was
 * read before. */
static void reads_again_only_what_changed(void **state) {
    (void)state;
    gsm_page_document docs[] = {{"http://h/models/m", model, strlen(model), "\"m\"", false},
                                {"http://h/status/a", waiting, strlen(waiting), "\"1\"", false}};
    held_docs held = {docs, 2};
    gsm_page *page = page_of(&held);
    read_all_queued(page);
    buf html = {0};
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, docs, 2, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>1</b> not set up"));
    buf_free(&html);
    docs[1].turtle = set_up;
    docs[1].len = strlen(set_up);
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, docs, 2, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>1</b> not set up"));
    buf_free(&html);
    docs[1].etag = "\"2\"";
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, docs, 2, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>1</b> active"));
    assert_non_null(strstr(buf_cstr(&html), "<pre class=\"why\"></pre>")); /* nothing waits */
    buf_free(&html);
    /* why a row waits is made again when its model's document changes */
    static const char no_stage[] = PREFIXES "<#other> rdfs:label \"not the root\" .\n";
    docs[0] = (gsm_page_document){"http://h/models/m", no_stage, strlen(no_stage), "\"m2\"", false};
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, docs, 2, &html);
    assert_non_null(strstr(buf_cstr(&html), "its model document does not describe the stage"));
    buf_free(&html);
    gsm_page_render(page, "http://h/", &(gsm_page_query){0}, docs, 1, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>0</b> instances"));
    buf_free(&html);
    assert_int_equal(gsm_page_render(page, "http://h/", &(gsm_page_query){.instance = "http://h/status/a#it"}, docs,
                                     1, &html), 404);
    buf_free(&html);
    gsm_page_free(page);
}

/* ==== the page's reader (design note 6) ==== */

enum { COLD = 200 };

/* The model and COLD documents of instances not set up, status/c000 ..., as a server holds them. */
typedef struct cold_server {
    gsm_page_document docs[COLD + 1];
    char uris[COLD][32];
    held_docs held;
} cold_server;

static void cold_server_docs(cold_server *s) {
    s->docs[0] = (gsm_page_document){"http://h/models/m", model, strlen(model), "\"m\"", false};
    for (size_t i = 0; i < COLD; i++) {
        snprintf(s->uris[i], sizeof s->uris[i], "http://h/status/c%03zu", i);
        s->docs[1 + i] = (gsm_page_document){s->uris[i], waiting, strlen(waiting), "\"w\"", false};
    }
    s->held = (held_docs){s->docs, COLD + 1};
}

/* Writes document i (from 1) as an instance set up and active. */
static void set_up_document(cold_server *s, size_t i) {
    s->docs[i].turtle = set_up;
    s->docs[i].len = strlen(set_up);
    s->docs[i].etag = "\"s\"";
}

static void render_cold(gsm_page *page, const cold_server *s, const gsm_page_query *query, buf *html) {
    html->len = 0;
    assert_int_equal(gsm_page_render(page, "http://h/", query, s->docs, s->held.count, html), 200);
}

/* Right after a start nothing is read: the page answers with what is read so far, says how far its
 * reader is, and reads no document itself, however many there are. */
static void a_page_reads_no_documents_while_its_reader_has_them(void **state) {
    (void)state;
    static cold_server s;
    cold_server_docs(&s);
    gsm_page *page = page_of(&s.held);
    buf html = {0};
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_non_null(strstr(buf_cstr(&html), "reading the server's documents: 0 of 201 read"));
    assert_non_null(strstr(buf_cstr(&html), "<b>0</b> instances"));
    assert_non_null(strstr(buf_cstr(&html), "data-beyond=\"0\" data-reading>")); /* its script reloads it */
    for (int i = 0; i < 101; i++) /* the model, then 100 instances */
        assert_true(gsm_page_read_next(page));
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_non_null(strstr(buf_cstr(&html), "reading the server's documents: 101 of 201 read"));
    assert_non_null(strstr(buf_cstr(&html), "<b>100</b> instances"));
    read_all_queued(page);
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_null(strstr(buf_cstr(&html), "id=\"reading\""));
    assert_null(strstr(buf_cstr(&html), "data-reading"));
    assert_non_null(strstr(buf_cstr(&html), "<b>200</b> instances"));
    assert_int_equal(read_in_requests(page), 0);
    /* an instance's own page reads its document itself when the reader has not */
    gsm_page_free(page);
    page = page_of(&s.held);
    render_cold(page, &s, &(gsm_page_query){.instance = "http://h/status/c007#it"}, &html);
    assert_non_null(strstr(buf_cstr(&html), "root state <b>uninitialized</b>"));
    assert_int_equal(read_in_requests(page), 1);
    buf_free(&html);
    gsm_page_free(page);
}

/* The page after a write shows it, reading the document itself while the reader has not; once the reader
 * has, no page reads it again. */
static void the_page_after_a_write_shows_it(void **state) {
    (void)state;
    static cold_server s;
    cold_server_docs(&s);
    gsm_page *page = page_of(&s.held);
    read_all_queued(page);
    set_up_document(&s, 5);
    buf html = {0};
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>1</b> active"));
    assert_null(strstr(buf_cstr(&html), "id=\"reading\""));
    assert_int_equal(read_in_requests(page), 1);
    gsm_page_queue(page, s.uris[4], true);
    read_all_queued(page);
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>1</b> active"));
    assert_int_equal(read_in_requests(page), 1);
    buf_free(&html);
    gsm_page_free(page);
}

/* More writes than a page reads itself: the page shows the documents as read before and says so; the
 * reader reads the written documents before the rest of the warm-up. */
static void a_burst_of_writes_is_left_to_the_reader_written_first(void **state) {
    (void)state;
    static cold_server s;
    cold_server_docs(&s);
    gsm_page *page = page_of(&s.held);
    read_all_queued(page);
    enum { BURST = GSM_PAGE_READ_IN_REQUEST + 1 };
    for (size_t i = 1; i <= BURST; i++)
        set_up_document(&s, i);
    buf html = {0};
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    char note[100];
    snprintf(note, sizeof note, "reading the server's documents: %d of 201 read", 201 - BURST);
    assert_non_null(strstr(buf_cstr(&html), note));
    assert_non_null(strstr(buf_cstr(&html), "<b>200</b> not set up"));
    assert_int_equal(read_in_requests(page), 0);
    for (size_t i = 0; i < COLD + 1; i++) /* a warm-up queued again, then the writes */
        gsm_page_queue(page, s.docs[i].uri, false);
    for (size_t i = 1; i <= BURST; i++)
        gsm_page_queue(page, s.docs[i].uri, true);
    for (size_t i = 0; i < BURST; i++)
        assert_true(gsm_page_read_next(page));
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    snprintf(note, sizeof note, "<b>%d</b> active", BURST);
    assert_non_null(strstr(buf_cstr(&html), note));
    assert_null(strstr(buf_cstr(&html), "id=\"reading\""));
    assert_int_equal(read_in_requests(page), 0);
    gsm_page_counters counters;
    gsm_page_counters_get(page, &counters);
    assert_int_equal(counters.read_in_background, COLD + 1 + BURST);
    read_all_queued(page); /* the written documents' places in the warm-up are passed over */
    gsm_page_counters_get(page, &counters);
    assert_int_equal(counters.read_in_background, 2 * (COLD + 1));
    buf_free(&html);
    gsm_page_free(page);
}

/* Documents removed lose their entries (compacted once they outnumber the others); written again, they
 * are read again. */
static void removed_documents_are_forgotten(void **state) {
    (void)state;
    static cold_server s;
    cold_server_docs(&s);
    gsm_page *page = page_of(&s.held);
    read_all_queued(page);
    s.held.count = 51; /* the model and 50 instances left */
    for (size_t i = 51; i < COLD + 1; i++)
        gsm_page_queue(page, s.docs[i].uri, true);
    read_all_queued(page);
    buf html = {0};
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>50</b> instances"));
    assert_null(strstr(buf_cstr(&html), "id=\"reading\""));
    s.held.count = COLD + 1;
    set_up_document(&s, COLD);
    for (size_t i = 51; i < COLD + 1; i++)
        gsm_page_queue(page, s.docs[i].uri, true);
    read_all_queued(page);
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>200</b> instances"));
    assert_non_null(strstr(buf_cstr(&html), "<b>1</b> active"));
    assert_int_equal(read_in_requests(page), 0);
    buf_free(&html);
    gsm_page_free(page);
}

static double wait_seconds(void) {
    const char *wait = getenv("LDGSM_TEST_WAIT");
    return wait && atof(wait) > 0 ? atof(wait) : 30;
}

/* The reader thread reads while pages are built (ASan, and TSan by hand, watch them), and a page freed
 * while its reader has documents left stops it. */
static void the_reader_thread_reads_beside_pages(void **state) {
    (void)state;
    static cold_server s;
    cold_server_docs(&s);
    gsm_page *page = page_of(&s.held);
    gsm_page_start_reader(page);
    buf html = {0};
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    gsm_page_counters counters;
    /* A page holds the index lock while it is built; back to back, pages would leave the reader's swaps
     * to the mutex's unfairness (30 s under ASan on a loaded machine), so one a millisecond. */
    struct timespec between_pages = {0, 1000000};
    do { /* the last few the pages may read themselves too (design note 6) */
        render_cold(page, &s, &(gsm_page_query){0}, &html);
        gsm_page_counters_get(page, &counters);
        clock_gettime(CLOCK_MONOTONIC, &now);
        assert_true(now.tv_sec - start.tv_sec < wait_seconds());
        nanosleep(&between_pages, NULL);
    } while (counters.read_in_background < COLD + 1);
    assert_int_equal(counters.queued, 0);
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_non_null(strstr(buf_cstr(&html), "<b>200</b> instances"));
    assert_null(strstr(buf_cstr(&html), "id=\"reading\""));
    gsm_page_free(page);
    page = page_of(&s.held);
    gsm_page_start_reader(page);
    gsm_page_free(page);
    buf_free(&html);
}

/* Waits (at most wait_seconds) until the reader thread has read `read` documents in all. */
static void await_read_in_background(gsm_page *page, size_t read) {
    struct timespec start, now, pause = {0, 2000000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    gsm_page_counters counters;
    for (gsm_page_counters_get(page, &counters); counters.read_in_background < read;
         gsm_page_counters_get(page, &counters)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        assert_true(now.tv_sec - start.tv_sec < wait_seconds());
        nanosleep(&pause, NULL);
    }
    assert_int_equal(counters.read_in_background, read);
}

/* The reader thread reads the warm-up, but leaves the writes queued while no page is asked for (page_index.h
 * note 6): a document of the warm-up queued after them is read, they are not; a page sets it reading them. */
static void the_reader_thread_leaves_writes_nobody_watches(void **state) {
    (void)state;
    static cold_server s;
    cold_server_docs(&s);
    gsm_page *page = page_of(&s.held);
    gsm_page_start_reader(page);
    await_read_in_background(page, COLD + 1);
    enum { BURST = 5 };
    for (size_t i = 1; i <= BURST; i++) {
        set_up_document(&s, i);
        gsm_page_queue(page, s.docs[i].uri, true);
    }
    gsm_page_queue(page, s.docs[COLD].uri, false); /* queued after them: read only if they are passed over */
    await_read_in_background(page, COLD + 2);
    gsm_page_counters counters;
    gsm_page_counters_get(page, &counters);
    assert_int_equal(counters.queued, BURST);
    buf html = {0};
    render_cold(page, &s, &(gsm_page_query){0}, &html);
    assert_int_equal(read_in_requests(page), BURST); /* the page reads them itself, few as they are */
    await_read_in_background(page, COLD + 2 + BURST);
    gsm_page_counters_get(page, &counters);
    assert_int_equal(counters.queued, 0);
    buf_free(&html);
    gsm_page_free(page);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_the_instances_with_their_states),
        cmocka_unit_test(escapes_what_documents_say),
        cmocka_unit_test(frees_no_raptor_world),
        cmocka_unit_test(renders_beside_parsing_on_another_thread),
        cmocka_unit_test(sends_what_the_page_needs),
        cmocka_unit_test(an_empty_server),
        cmocka_unit_test(follows_the_documents_it_shows),
        cmocka_unit_test(allows_its_script_by_hash),
        cmocka_unit_test(counts_instances_by_state),
        cmocka_unit_test(shows_why_each_row_waits),
        cmocka_unit_test(filters_and_pages),
        cmocka_unit_test(reads_again_only_what_changed),
        cmocka_unit_test(a_page_reads_no_documents_while_its_reader_has_them),
        cmocka_unit_test(the_page_after_a_write_shows_it),
        cmocka_unit_test(a_burst_of_writes_is_left_to_the_reader_written_first),
        cmocka_unit_test(removed_documents_are_forgotten),
        cmocka_unit_test(the_reader_thread_reads_beside_pages),
        cmocka_unit_test(the_reader_thread_leaves_writes_nobody_watches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
