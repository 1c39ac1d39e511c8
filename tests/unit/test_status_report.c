/* test_status_report.c: the contract of gsm/status_report.h on working memories written by hand (what
 * tests/gsm/run_status.sh cannot set up against a running agent): names (label, fragment, the synthetic
 * parts of rules/gsm-alternatives.n3), every read outcome's wording, sentries not evaluated or not
 * described, call records with alternatives, container reads, the history (none; the last N by sequence;
 * another artifact's left out; values in words), the errors, JSON escaping, and models that loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsm/status_report.h"
#include "rdf/rdfio.h"

#include "rdf_fixture.h"

#define PREFIXES                                                                                             \
    "@prefix gsm: <http://purl.org/gsm/vocab#> .\n"                                                          \
    "@prefix ldgsm: <https://w3id.org/ldgsm#> .\n"                                                           \
    "@prefix sp: <http://spinrdf.org/sp#> .\n"                                                               \
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"                                              \
    "@prefix http: <http://www.w3.org/2011/http#> .\n"                                                       \
    "@prefix httpm: <http://www.w3.org/2011/http-methods#> .\n"                                              \
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"

#define MODEL "http://ex.org/models/m"
#define DOC "http://ex.org/status/s1"
#define INSTANCE DOC "#it"

/* A model: the root R with children A (a guard reading two resources, a milestone) and B (no label;
 * a call with two alternatives; a child C). */
static const char model[] = PREFIXES
    "<#R> a gsm:Stage ; rdfs:label \"Root\" ; gsm:hasChildStage <#A>, <#B> ; gsm:hasMilestone <#done> .\n"
    "<#A> a gsm:Stage ; rdfs:label \"Stage \\\"A\\\"\" ; gsm:hasGuard <#gA> ; gsm:hasMilestone <#mA> .\n"
    "<#B> a gsm:Stage ; gsm:hasGuard <#ldgsm-turn-0123456789ab> ; gsm:hasMilestone <#mB> ;\n"
    "    gsm:hasHttpRequest <#call> ; gsm:hasChildStage <#C> .\n"
    "<#C> a gsm:Stage ; rdfs:label \"C\" ; gsm:hasGuard <#gC> .\n"
    "<#gA> a gsm:Guard ; gsm:hasCondition <#qA> .\n"
    "<#ldgsm-turn-0123456789ab> a gsm:Guard ; gsm:hasCondition <#ldgsm-its-turn-0123456789ab> .\n"
    "<#ldgsm-its-turn-0123456789ab> a ldgsm:RuleCondition .\n"
    "<#gC> a gsm:Guard ; gsm:hasCondition <http://elsewhere.org/q#missing> .\n"
    "<#mA> a gsm:Milestone ; rdfs:label \"A done\" ; gsm:hasAchievingSentry <#qA> .\n"
    "<#mB> a gsm:Milestone ; gsm:hasAchievingSentry <#qB> .\n"
    "<#done> a gsm:Milestone ; gsm:hasAchievingSentry <#qB> .\n"
    "<#qA> a sp:Ask ; rdfs:comment \"The first\\n   and the second.\" .\n"
    "<#qB> a sp:Ask .\n"
    "<#call> a ldgsm:Call ; ldgsm:alternatives ( <#one> <#two> ) .\n"
    "<#one> http:mthd httpm:POST ; http:requestURI <http://a.example/orders/> .\n"
    "<#two> http:mthd httpm:PUT ; http:requestURI <http://b.example/order> .\n";

/* The instance set up: A inactive, B active with a calling call, C inactive. */
static const char status_doc[] = PREFIXES
    "<#it> a gsm:StageInstance, gsm:ArtifactInstance ; gsm:isInstanceOf <" MODEL "#R> ; gsm:hasState gsm:active ;\n"
    "    ldgsm:isCompleted false ; gsm:inArtifactInstance <#it> .\n"
    "<#s-a> gsm:isInstanceOf <" MODEL "#A> ; gsm:hasState gsm:inactive ; ldgsm:isCompleted false ;\n"
    "    gsm:inArtifactInstance <#it> .\n"
    "<#s-b> gsm:isInstanceOf <" MODEL "#B> ; gsm:hasState gsm:active ; ldgsm:isCompleted false ;\n"
    "    gsm:inArtifactInstance <#it> .\n"
    "<#s-c> gsm:isInstanceOf <" MODEL "#C> ; gsm:hasState gsm:inactive ; ldgsm:isCompleted false ;\n"
    "    gsm:inArtifactInstance <#it> .\n"
    "<#m-a> gsm:isInstanceOf <" MODEL "#mA> ; ldgsm:ofStage <#s-a> ; gsm:isAchieved false ; gsm:inArtifactInstance <#it> .\n"
    "<#m-b> gsm:isInstanceOf <" MODEL "#mB> ; ldgsm:ofStage <#s-b> ; gsm:isAchieved false ; gsm:inArtifactInstance <#it> .\n"
    "<#m-r> gsm:isInstanceOf <" MODEL "#done> ; ldgsm:ofStage <#it> ; gsm:isAchieved false ; gsm:inArtifactInstance <#it> .\n"
    "<#c-b> a ldgsm:CallRecord ; ldgsm:ofStage <#s-b> ; gsm:inArtifactInstance <#it> ; ldgsm:callState ldgsm:calling ;\n"
    "    ldgsm:alternative 2 ; ldgsm:retriesLeft 1 ; ldgsm:deadline \"2030-01-01T00:00:05.000Z\"^^xsd:dateTime ;\n"
    "    ldgsm:lastFailure 503 .\n";

static void parse(fixture *f, const char *base, const char *turtle) {
    rdf_error err;
    term_id g = terms_iri_cstr(f->t, base);
    assert_int_equal(rdf_parse(f->io, f->st, RDF_TURTLE, turtle, strlen(turtle), base, g, base, &err), 0);
}

static void add(fixture *f, const char *s, const char *p, const char *o) {
    store_add(f->st, terms_iri_cstr(f->t, s), terms_iri_cstr(f->t, p), terms_iri_cstr(f->t, o), 0);
}

/* Reads: the model and the status document 200; /r/404 and /r/410 empty; /r/406 unsupported; /r/bad
 * 200 unparsable; /r/slow a timeout; anything else under /r/ 500; nothing else was read. */
static bool reads(void *user, const char *iri, status_read *out) {
    (void)user;
    *out = (status_read){.status = 200};
    if (strncmp(iri, MODEL, strlen(MODEL)) == 0 || strncmp(iri, DOC, strlen(DOC)) == 0)
        return true;
    if (strncmp(iri, "http://ex.org/r/", 16) != 0)
        return false;
    const char *name = iri + 16;
    if (strncmp(name, "slow", 4) == 0)
        *out = (status_read){.failure = "timeout"};
    else if (strncmp(name, "bad", 3) == 0)
        out->unparsable = true;
    else if (name[0] >= '0' && name[0] <= '9')
        out->status = strtol(name, NULL, 10);
    else
        out->status = 500;
    return true;
}

static char *render(fixture *f, unsigned history, bool json) {
    status_input in = {.t = f->t, .wm = f->st, .instance = INSTANCE, .read = reads, .history = history};
    status_report *r = status_report_build(&in);
    buf out = {0};
    if (json)
        status_report_json(r, &out);
    else
        status_report_text(r, &out);
    status_report_free(r);
    return buf_cstr(&out);
}

static void assert_has(const char *text, const char *line) {
    if (!strstr(text, line))
        fail_msg("missing:\n%s\nin:\n%s", line, text);
}

static void set_up_instance(fixture *f) {
    parse(f, MODEL, model);
    parse(f, DOC, status_doc);
}

static void test_tree_names_and_reads(void **state) {
    fixture *f = *state;
    set_up_instance(f);
    static const char *const read_iris[] = {"404#x", "410#x", "406#x", "bad#x", "slow#x", "500#x", "unknown-in-r"};
    for (size_t i = 0; i < sizeof read_iris / sizeof *read_iris; i++) {
        char iri[64];
        snprintf(iri, sizeof iri, "http://ex.org/r/%s", read_iris[i]);
        add(f, MODEL "#qA", "https://w3id.org/ldgsm#reads", iri);
    }
    add(f, MODEL "#qA", "https://w3id.org/ldgsm#reads", "http://unread.org/x#y");
    char *text = render(f, 5, false);
    assert_has(text, "http://ex.org/status/s1#it\n  workflow \"Root\" <http://ex.org/models/m#R>\n"
                     "  held: a read failed: http://ex.org/r/bad#x: 200 (RDF that does not parse)\n"
                     "  held: a read failed: http://ex.org/r/slow#x: timeout (no answer)\n"
                     "  held: a read failed: http://ex.org/r/500#x: 500 (failed)\n"
                     "  held: a read failed: http://ex.org/r/unknown-in-r: 500 (failed)\n"
                     "stage \"Root\": active\n"
                     "  milestone \"done\": not achieved\n"
                     "    closes the stage when <#qB> does not hold\n"
                     "      reads only this workflow's status\n"
                     "  stage \"Stage \"A\"\": inactive\n"
                     "    milestone \"A done\": not achieved\n"
                     "    does not open: no guard holds\n"
                     "      guard \"gA\": <#qA> does not hold\n"
                     "        \"The first and the second.\"\n"
                     "        reads http://ex.org/r/404#x: 404 (empty)\n"
                     "        reads http://ex.org/r/410#x: 410 (empty)\n"
                     "        reads http://ex.org/r/406#x: 406 (unsupported)\n"
                     "        reads http://ex.org/r/bad#x: 200 (RDF that does not parse)\n"
                     "        reads http://ex.org/r/slow#x: timeout (no answer)\n"
                     "        reads http://ex.org/r/500#x: 500 (failed)\n"
                     "        reads http://ex.org/r/unknown-in-r: 500 (failed)\n"
                     "        reads http://unread.org/x#y: not read in this iteration\n"
                     /* no label: named by its fragment */
                     "  stage \"B\": active\n"
                     "    milestone \"mB\": not achieved\n"
                     "      closes the stage when <#qB> does not hold\n"
                     "        reads only this workflow's status\n"
                     "    call: calling, alternative 2 of 2 (PUT http://b.example/order), 1 retries left, "
                     "deadline 2030-01-01T00:00:05.000Z, last failure 503\n"
                     /* a sentry in another document, not read: not described */
                     "    stage \"C\": inactive\n"
                     "      does not open: no guard holds\n"
                     "        guard \"gC\": <http://elsewhere.org/q#missing> is not described: its document was "
                     "not read\n"
                     "          reads http://elsewhere.org/q#missing: not read in this iteration\n"
                     "last transitions: no history recorded\n");
    free(text);
}

/* The alternatives' synthetic guard: named by its fragment without "ldgsm-" and the hash; decided by rules. */
static void test_rule_conditions(void **state) {
    fixture *f = *state;
    parse(f, MODEL, model);
    parse(f, DOC, PREFIXES
          "<#it> a gsm:ArtifactInstance ; gsm:isInstanceOf <" MODEL "#R> ; gsm:hasState gsm:active ; gsm:inArtifactInstance <#it> .\n"
          "<#s-b> gsm:isInstanceOf <" MODEL "#B> ; gsm:hasState gsm:inactive ; gsm:inArtifactInstance <#it> .\n");
    add(f, MODEL "#ldgsm-its-turn-0123456789ab", "https://w3id.org/ldgsm#holdsFor", INSTANCE);
    char *text = render(f, 5, false);
    assert_has(text, "  stage \"B\": inactive\n"
                     "    milestone \"mB\": not achieved\n"
                     "    opens: a guard holds (an agent's next iteration opens it unless its writes are held)\n"
                     "      guard \"turn\": <#ldgsm-its-turn-0123456789ab> holds\n"
                     "        \"its turn\"\n"
                     "        decided by the rules, not by a query\n");
    /* A has no fragment (the model gained a stage): uninitialized, its guard looked at as any */
    assert_has(text, "  stage \"Stage \"A\"\": uninitialized\n    milestone \"A done\": not achieved\n"
                     "    does not open: no guard holds\n");
    free(text);
}

/* Sentries are evaluated only for an active artifact: before set-up and after completion they are not. */
static void test_not_evaluated(void **state) {
    fixture *f = *state;
    parse(f, MODEL, model);
    parse(f, DOC, PREFIXES "<#it> gsm:isInstanceOf <" MODEL "#R> ; gsm:hasState gsm:inactive ; "
                           "ldgsm:isCompleted true .\n"
                           "<#s-a> gsm:isInstanceOf <" MODEL "#A> ; gsm:hasState gsm:inactive ; gsm:inArtifactInstance <#it> .\n"
                           "<#s-b> gsm:isInstanceOf <" MODEL "#B> ; gsm:hasState gsm:active ; gsm:inArtifactInstance <#it> .\n");
    char *text = render(f, 5, false);
    assert_has(text, "stage \"Root\": inactive, completed\n  milestone \"done\": not achieved\n"
                     "  the workflow is complete\n  stage \"Stage \"A\"\": inactive\n    milestone \"A done\": not achieved\n"
                     "    does not open: its parent \"Root\" is not active\n");
    /* B is (wrongly) active under an inactive root: its milestone's sentry is not evaluated */
    assert_has(text, "      closes the stage when <#qB> is not evaluated (the workflow is not active)\n");
    free(text);
    char *json = render(f, 5, true);
    assert_has(json, "\"holds\":null,\"verdict\":\"not evaluated\"");
    assert_has(json, "\"whyNot\":{\"reason\":\"workflow complete\",\"parent\":null,\"guards\":[]}");
    free(json);
}

static void transition(fixture *f, int seq, const char *at, const char *changed, const char *property,
                       const char *from, const char *to) {
    char turtle[2048];
    snprintf(turtle, sizeof turtle,
             PREFIXES "<#t-%d> a ldgsm:Transition ; ldgsm:sequence %d ; ldgsm:at \"%s\"^^xsd:dateTime ;\n"
                      "    ldgsm:changed <%s> ; ldgsm:property %s ; ldgsm:from %s ; ldgsm:to %s .\n",
             seq, seq, at, changed, property, from, to);
    parse(f, DOC, turtle);
}

static void test_history(void **state) {
    fixture *f = *state;
    set_up_instance(f);
    /* out of order; one of another artifact in the same document */
    transition(f, 12, "2030-01-01T10:00:12.000Z", "#s-a", "gsm:hasState", "gsm:inactive", "gsm:active");
    transition(f, 3, "2030-01-01T10:00:03.000Z", "#s-b", "gsm:hasState", "gsm:inactive", "gsm:active");
    transition(f, 10, "2030-01-01T10:00:10.000Z", "#m-a", "gsm:isAchieved", "false", "true");
    transition(f, 11, "2030-01-01T10:00:11.000Z", "#c-b", "ldgsm:callState", "ldgsm:calling", "ldgsm:answered");
    transition(f, 9, "2030-01-01T10:00:09.000Z", "#it", "ldgsm:isCompleted", "false", "true");
    transition(f, 13, "2030-01-01T10:00:13.000Z", "#s-other", "gsm:hasState", "gsm:inactive", "gsm:active");
    parse(f, DOC, PREFIXES "<#s-other> gsm:inArtifactInstance <#other> .\n");
    char *text = render(f, 4, false);
    assert_has(text, "last transitions (4 of 5):\n"
                     "  10:00:09.000 Root: not completed -> completed\n"
                     "  10:00:10.000 A done: not achieved -> achieved\n"
                     "  10:00:11.000 call of B callState: calling -> answered\n"
                     "  10:00:12.000 Stage \"A\": inactive -> active\n");
    free(text);
    char *json = render(f, 1, true);
    assert_has(json, "\"transitionsRecorded\":5,\"history\":[{\"sequence\":12,\"at\":\"2030-01-01T10:00:12.000Z\","
                     "\"changed\":\"http://ex.org/status/s1#s-a\",\"name\":\"Stage \\\"A\\\"\","
                     "\"property\":\"http://purl.org/gsm/vocab#hasState\",\"from\":[\"inactive\"],"
                     "\"to\":[\"active\"]}]}\n");
    free(json);
    text = render(f, 0, false);
    assert_has(text, "last transitions (0 of 5):\n");
    free(text);
}

static void test_errors(void **state) {
    fixture *f = *state;
    parse(f, DOC, PREFIXES "<#it> gsm:hasState gsm:uninitialized .\n");
    char *text = render(f, 5, false);
    assert_string_equal(text, INSTANCE "\n  cannot be shown: the instance document says nothing of <" INSTANCE "> "
                                       "with gsm:isInstanceOf: not a workflow instance\n");
    free(text);
    parse(f, DOC, PREFIXES "<#it> gsm:isInstanceOf <http://ex.org/r/404#root> .\n");
    text = render(f, 5, false);
    assert_has(text, "cannot be shown: cannot read its model <http://ex.org/r/404#root>: 404 (empty)\n");
    free(text);
    char *json = render(f, 5, true);
    assert_string_equal(json, "{\"instance\":\"" INSTANCE "\",\"error\":\"cannot read its model "
                              "<http://ex.org/r/404#root>: 404 (empty)\"}\n");
    free(json);
}

/* A model document read but silent about the root stage. */
static void test_model_without_the_stage(void **state) {
    fixture *f = *state;
    parse(f, MODEL, PREFIXES "<#other> a gsm:Stage .\n");
    parse(f, DOC, PREFIXES "<#it> gsm:isInstanceOf <" MODEL "#R> .\n");
    char *text = render(f, 5, false);
    assert_has(text, "cannot be shown: its model document does not describe the stage <" MODEL "#R>\n");
    free(text);
}

/* A sentry over a container's members: the container's read is shown, a member only when its read failed;
 * a member that does not parse holds nothing back (the crawl reads members leniently), one that fails does. */
static void test_container_reads(void **state) {
    fixture *f = *state;
    set_up_instance(f);
    parse(f, MODEL, PREFIXES "<#qA> ldgsm:readsContainer <http://ex.org/r/200/> .\n");
    parse(f, "http://ex.org/r/200/", "<> <http://www.w3.org/ns/ldp#contains> <http://ex.org/r/200/fine>, "
                                     "<http://ex.org/r/bad-member>, <http://ex.org/r/503-member> .\n");
    char *text = render(f, 5, false);
    assert_has(text, "  workflow \"Root\" <http://ex.org/models/m#R>\n"
                     "  held: a read failed: http://ex.org/r/503-member: 503 (failed)\n"
                     "stage \"Root\"");
    assert_has(text, "        \"The first and the second.\"\n"
                     "        reads the container http://ex.org/r/200/: 200 (data)\n"
                     "        reads http://ex.org/r/bad-member: 200 (RDF that does not parse)\n"
                     "        reads http://ex.org/r/503-member: 503 (failed)\n"
                     "  stage \"B\"");
    free(text);
}

/* A model whose stages nest in a cycle (lint rejects it) and a call whose alternatives list loops: the tree
 * shows each stage once and ends. */
static void test_cycles_end(void **state) {
    fixture *f = *state;
    parse(f, MODEL, PREFIXES "<#R> a gsm:Stage ; gsm:hasChildStage <#A> .\n"
                             "<#A> gsm:hasChildStage <#B>, <#R> ; gsm:hasHttpRequest <#call> .\n"
                             "<#B> gsm:hasChildStage <#A> .\n"
                             "<#call> ldgsm:alternatives _:l .\n"
                             "_:l <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <#one> ;\n"
                             "    <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:l .\n");
    parse(f, DOC, PREFIXES "<#it> gsm:isInstanceOf <" MODEL "#R> ; gsm:hasState gsm:active .\n"
                           "<#s-a> gsm:isInstanceOf <" MODEL "#A> ; gsm:inArtifactInstance <#it> ; gsm:hasState gsm:active .\n"
                           "<#c-a> a ldgsm:CallRecord ; ldgsm:ofStage <#s-a> ; ldgsm:alternative 2 .\n");
    char *text = render(f, 5, false);
    assert_has(text, "stage \"R\": active\n  stage \"A\": active\n    call: (no state), alternative 2 of 1000\n"
                     "    stage \"B\": uninitialized\n      does not open: it has no guard\nlast transitions");
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tree_names_and_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rule_conditions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_evaluated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_history, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_model_without_the_stage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cycles_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_container_reads, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
