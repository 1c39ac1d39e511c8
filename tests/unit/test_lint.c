/* test_lint.c: the contract of gsm/lint.h that the per-check cases of tests/gsm/run_lint.sh do not show:
 * messages ordered by the files' load order and given once even when a stage is met under two roots,
 * IRIs shown relative only beside their file, blank nodes named by the triple reaching them, a failed
 * load stopping the checks, and the counts. Then the checks of calls and sub-workflow alternatives
 * (DESIGN section 6.1), message by message, and the test models that use them linting clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gsm/lint.h"

#define PREFIXES                                                                                             \
    "@prefix gsm: <http://purl.org/gsm/vocab#> .\n"                                                          \
    "@prefix sp: <http://spinrdf.org/sp#> .\n"

static void load(gsm_lint *l, const char *name, const char *base, const char *turtle) {
    assert_int_equal(gsm_lint_load_text(l, name, base, RDF_TURTLE, turtle, strlen(turtle)), 0);
}

static const char *line(const gsm_lint *l, size_t i) {
    const lint_message *m = gsm_lint_message(l, i);
    assert_non_null(m);
    return m->line;
}

/* Two roots share the stage <#p>, whose child's guard is <#p>'s achieving sentry: both walks find the
 * violation, and it is reported once. The file loaded first comes first, whatever its name. */
static void test_ordered_by_file_and_given_once(void **state) {
    (void)state;
    gsm_lint *l = gsm_lint_new(NULL);
    load(l, "second.ttl", "http://ex.org/m/second.ttl",
         PREFIXES "<#lonely> gsm:hasGuard <first.ttl#g> .\n" /* a stage nobody reaches: a root without milestone */);
    load(l, "first.ttl", "http://ex.org/m/first.ttl",
         PREFIXES "<#r1> gsm:hasChildStage <#p> ; gsm:hasMilestone <#m> .\n"
                  "<#r2> gsm:hasChildStage <#p> ; gsm:hasMilestone <#m2> .\n"
                  "<#p> gsm:hasGuard <#g> ; gsm:hasMilestone <#mp> ; gsm:hasChildStage <#c> .\n"
                  "<#c> gsm:hasGuard [ gsm:hasCondition <#q> ] ; gsm:hasMilestone <#mc> .\n"
                  "<#g> gsm:hasCondition <#q2> .\n"
                  "<#m> gsm:hasAchievingSentry <#q2> .\n"
                  "<#m2> gsm:hasAchievingSentry <#q3> .\n"
                  "<#mp> gsm:hasAchievingSentry <#q> .\n"
                  "<#mc> gsm:hasAchievingSentry <#q2> .\n"
                  "<#q> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 1 }\" .\n"
                  "<#q2> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 2 }\" .\n"
                  "<#q3> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 3 }\" .\n");
    gsm_lint_check(l);
    assert_int_equal(gsm_lint_message_count(l), 3);
    assert_string_equal(line(l, 0), "second.ttl: warning: <#lonely>: root stage has no milestone: an instance of "
                                    "it never completes");
    /* under <#r1> only: <#g>'s condition is <#r1>'s achieving sentry, not <#r2>'s */
    assert_string_equal(line(l, 1), "first.ttl: error: <#p>: guard condition <#q2> is also the achieving sentry of "
                                    "milestone <#m> of its ancestor <#r1> (the paper's 4.3.2): the ancestor closes "
                                    "whenever the stage could open");
    /* under both roots, given once */
    assert_string_equal(line(l, 2), "first.ttl: error: <#c>: guard condition <#q> is also the achieving sentry of "
                                    "milestone <#mp> of its ancestor <#p> (the paper's 4.3.2): the ancestor closes "
                                    "whenever the stage could open");
    assert_int_equal(gsm_lint_count(l, LINT_ERROR), 2);
    assert_int_equal(gsm_lint_count(l, LINT_WARNING), 1);
    assert_null(gsm_lint_message(l, 3));
    gsm_lint_free(l);
}

/* A blank node is shown by the triple that reaches it; an IRI elsewhere is shown in full. */
static void test_terms_shown(void **state) {
    (void)state;
    gsm_lint *l = gsm_lint_new(NULL);
    load(l, "m.ttl", "http://ex.org/m/m.ttl",
         PREFIXES "<#root> gsm:hasChildStage <#a> ; gsm:hasMilestone <http://other.org/done> .\n"
                  "<#a> gsm:hasGuard [ gsm:hasCondition [ sp:text \"ASK { ?s ?p ?o }\" ] ] ;\n"
                  "     gsm:hasMilestone <sub/dir#m> .\n"
                  "<sub/dir#m> gsm:hasAchievingSentry <#missing> .\n"
                  "<http://other.org/done> gsm:hasAchievingSentry <#missing> .\n");
    gsm_lint_check(l);
    assert_int_equal(gsm_lint_message_count(l), 3);
    assert_string_equal(line(l, 0), "m.ttl: error: <http://ex.org/m/sub/dir#m>: gsm:hasAchievingSentry "
                                    "<#missing> is not described in the model's documents");
    assert_string_equal(line(l, 1), "m.ttl: error: <http://other.org/done>: gsm:hasAchievingSentry <#missing> is "
                                    "not described in the model's documents");
    assert_string_equal(line(l, 2), "m.ttl: error: [] (gsm:hasCondition of [] (gsm:hasGuard of <#a>)): sentry is "
                                    "not an sp:Ask: the agent never evaluates it (add `a sp:Ask`)");
    gsm_lint_free(l);
}

/* A document that does not parse leaves the model incomplete: only the syntax error is reported. */
static void test_failed_load_stops_checks(void **state) {
    (void)state;
    gsm_lint *l = gsm_lint_new(NULL);
    load(l, "ok.ttl", "http://ex.org/ok.ttl", PREFIXES "<#root> gsm:hasChildStage <bad.ttl#a> .\n");
    const char *bad = PREFIXES "<#a> gsm:hasGuard .\n";
    assert_int_equal(gsm_lint_load_text(l, "bad.ttl", "http://ex.org/bad.ttl", RDF_TURTLE, bad, strlen(bad)), -1);
    gsm_lint_check(l);
    assert_int_equal(gsm_lint_message_count(l), 1);
    assert_non_null(strstr(line(l, 0), "bad.ttl:3"));
    assert_int_equal(gsm_lint_count(l, LINT_ERROR), 1);
    gsm_lint_free(l);
}

/* The compat mode reads a draft model as ours; without it nothing of the model is found. */
static void test_compat_authors_draft(void **state) {
    (void)state;
    const char *draft = "@prefix d: <http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#> .\n"
                        "@prefix sp: <http://spinrdf.org/sp#> .\n"
                        "<#root> a d:StageModel ; d:hasChildStage <#a> ; d:hasMilestoneModel <#done> .\n"
                        "<#a> d:hasGuard <#g> ; d:hasMilestoneModel <#done> ; d:hasTask <#t> .\n"
                        "<#t> a d:Task ; d:hasHttpRequest <#req> .\n"
                        "<#req> <http://www.w3.org/2011/http#mthd> <http://www.w3.org/2011/http-methods#DELETE> ;\n"
                        "       <http://www.w3.org/2011/http#requestURI> <http://ex.org/x> ;\n"
                        "       <http://www.w3.org/2011/http#body> \"\" ;\n"
                        "       <http://www.w3.org/2011/http#headers> ( [ <http://www.w3.org/2011/http#fieldName>\n"
                        "           \"Content-Type\" ] ) .\n"
                        "<#g> d:hasCondition <#q> .\n"
                        "<#done> a d:MilestoneModel ; d:hasValidatingSentry <#q2> .\n"
                        "<#q> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 1 }\" .\n"
                        "<#q2> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 2 }\" .\n";
    lint_options compat = {.compat_authors_draft = true};
    gsm_lint *l = gsm_lint_new(&compat);
    load(l, "d.ttl", "http://ex.org/d.ttl", draft);
    gsm_lint_check(l);
    /* <#done> is shared by <#root> and <#a>; the task node is not taken for a stage */
    assert_int_equal(gsm_lint_message_count(l), 1);
    assert_string_equal(line(l, 0), "d.ttl: warning: <#done>: milestone model shared by stages <#root> and <#a>: a "
                                    "sentry asking for its instances cannot tell them apart");
    gsm_lint_free(l);

    l = gsm_lint_new(NULL);
    load(l, "d.ttl", "http://ex.org/d.ttl", draft);
    gsm_lint_check(l);
    assert_int_equal(gsm_lint_count(l, LINT_ERROR), 1);
    assert_int_equal(gsm_lint_count(l, LINT_WARNING), 1);
    gsm_lint_free(l);
}

#define CALL_PREFIXES                                                                                        \
    PREFIXES "@prefix http: <http://www.w3.org/2011/http#> .\n"                                              \
             "@prefix httpm: <http://www.w3.org/2011/http-methods#> .\n"                                     \
             "@prefix ldgsm: <https://w3id.org/ldgsm#> .\n"                                                  \
             "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"                                          \
             "<#q1> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 1 }\" .\n"                \
             "<#q2> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 2 }\" .\n"                \
             "<#q3> a sp:Ask ; sp:text \"ASK { <http://ex.org/x> <http://ex.org/p> 3 }\" .\n"

/* A clean workflow whose one task is <#t>, and a clean request <#ok> for it to call. */
#define TASK_MODEL                                                                                           \
    CALL_PREFIXES                                                                                            \
    "<#root> gsm:hasChildStage <#a> ; gsm:hasMilestone [ gsm:hasAchievingSentry <#q3> ] .\n"                 \
    "<#a> gsm:hasGuard [ gsm:hasCondition <#q1> ] ; gsm:hasMilestone [ gsm:hasAchievingSentry <#q2> ] ;\n"   \
    "    gsm:hasHttpRequest <#t> .\n"                                                                        \
    "<#ok> http:mthd httpm:PUT ; http:requestURI <http://ex.org/x> ; http:body \"\" ;\n"                     \
    "    http:headers ( [ http:fieldName \"Content-Type\" ; http:fieldValue \"text/plain\" ] ) .\n"

#define MAX_LINES 4

typedef struct lint_case {
    const char *what, *turtle;
    const char *lines[MAX_LINES]; /* the messages, in order, after "m.ttl: " */
} lint_case;

/* Lints each case as the document m.ttl and compares its messages with the lines expected. */
static void expect_cases(const lint_case *cases, size_t count) {
    for (size_t c = 0; c < count; c++) {
        gsm_lint *l = gsm_lint_new(NULL);
        load(l, "m.ttl", "http://ex.org/m.ttl", cases[c].turtle);
        gsm_lint_check(l);
        size_t expected = 0;
        while (expected < MAX_LINES && cases[c].lines[expected])
            expected++;
        bool same = gsm_lint_message_count(l) == expected;
        for (size_t i = 0; same && i < expected; i++)
            same = strncmp(line(l, i), "m.ttl: ", 7) == 0 && strcmp(line(l, i) + 7, cases[c].lines[i]) == 0;
        if (!same) {
            print_error("case \"%s\": expected\n", cases[c].what);
            for (size_t i = 0; i < expected; i++)
                print_error("  m.ttl: %s\n", cases[c].lines[i]);
            print_error("got\n");
            for (size_t i = 0; i < gsm_lint_message_count(l); i++)
                print_error("  %s\n", line(l, i));
        }
        gsm_lint_free(l);
        assert_true(same);
    }
}

/* A task's call parameters: durations read as the time builtins read them, the budget in range, each
 * given once. A plain request may give them too. */
static void test_call_parameters(void **state) {
    (void)state;
    static const lint_case cases[] = {
        {"a clean call",
         TASK_MODEL "<#t> a ldgsm:Call ; ldgsm:timeout \"PT0.4S\"^^xsd:dayTimeDuration ; ldgsm:retries 0 ;\n"
                    "  ldgsm:backoff 1 ; ldgsm:retryDelay \"PT0S\"^^xsd:dayTimeDuration ;\n"
                    "  ldgsm:alternatives ( <#ok> ) .\n",
         {NULL}},
        {"a plain request with a budget, a timeout without months in xsd:duration",
         TASK_MODEL "<#t> http:mthd httpm:DELETE ; http:requestURI <http://ex.org/y> ; http:body \"\" ;\n"
                    "  http:headers ( [ http:fieldName \"Content-Type\" ; http:fieldValue \"text/plain\" ] ) ;\n"
                    "  ldgsm:timeout \"P1DT2H\"^^xsd:duration ; ldgsm:retries 7 ; ldgsm:backoff 2.5 .\n",
         {NULL}},
        {"a malformed duration",
         TASK_MODEL "<#t> ldgsm:timeout \"PT5X\"^^xsd:dayTimeDuration ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:timeout \"PT5X\" is not a well-formed xsd:dayTimeDuration (e.g. \"PT5S\", "
          "\"PT0.5S\", \"PT1M30S\")"}},
        {"a duration without its datatype",
         TASK_MODEL "<#t> ldgsm:retryDelay \"PT1S\" ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:retryDelay \"PT1S\" has no datatype: write \"PT1S\"^^xsd:dayTimeDuration"}},
        {"a number for a duration",
         TASK_MODEL "<#t> ldgsm:timeout 5 ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:timeout \"5\" is not an xsd:dayTimeDuration (e.g. \"PT5S\"^^xsd:dayTimeDuration)"}},
        {"months",
         TASK_MODEL "<#t> ldgsm:timeout \"P1M\"^^xsd:yearMonthDuration ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:timeout \"P1M\" counts months, which have no fixed length: write an "
          "xsd:dayTimeDuration"}},
        {"a zero timeout, a negative retry delay",
         TASK_MODEL "<#t> ldgsm:timeout \"PT0S\"^^xsd:dayTimeDuration ;\n"
                    "  ldgsm:retryDelay \"-PT1S\"^^xsd:dayTimeDuration ;\n"
                    "  ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:timeout \"PT0S\" is not positive: the limit is over as soon as it starts",
          "error: <#t>: ldgsm:retryDelay \"-PT1S\" is negative"}},
        {"negative retries, a backoff below 1",
         TASK_MODEL "<#t> ldgsm:retries -1 ; ldgsm:backoff 0.99 ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:retries \"-1\" is not a non-negative integer (the re-sends of an alternative after "
          "its first send)",
          "error: <#t>: ldgsm:backoff \"0.99\" is not a number of at least 1 (the factor on the timeout and the "
          "retry delay per re-send)"}},
        {"fractional retries, a backoff that is no number",
         TASK_MODEL "<#t> ldgsm:retries 1.5 ; ldgsm:backoff \"twice\" ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:retries \"1.5\" is not a non-negative integer (the re-sends of an alternative after "
          "its first send)",
          "error: <#t>: ldgsm:backoff \"twice\" is not a number of at least 1 (the factor on the timeout and the "
          "retry delay per re-send)"}},
        {"a parameter given twice",
         TASK_MODEL "<#t> ldgsm:retries 1, 2 ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:retries is given more than once: the rules would apply every value"}},
        {"a parameter on an alternative",
         TASK_MODEL "<#t> ldgsm:alternatives ( <#ok> ) . <#ok> ldgsm:backoff 2 .\n",
         {"warning: <#ok>: ldgsm:backoff on an alternative is ignored: the call's own parameters apply to every "
          "alternative"}},
    };
    expect_cases(cases, sizeof cases / sizeof cases[0]);
}

/* A call's alternatives: one proper, non-empty list of requests, each checked as a task; a request needs
 * a body (the call rules send nothing else) and its result resource is an IRI. */
static void test_call_alternatives(void **state) {
    (void)state;
    static const lint_case cases[] = {
        {"two alternatives, one listed by two calls, typed or not; the second call makes two tasks",
         TASK_MODEL "<#t> a ldgsm:Call ; ldgsm:alternatives ( <#ok> <#ok2> ) .\n"
                    "<#a> gsm:hasHttpRequest <#t2> . <#t2> ldgsm:alternatives ( <#ok2> ) .\n"
                    "<#ok2> http:mthd httpm:POST ; http:requestURI <http://ex.org/c/> ; http:body \"x\" ;\n"
                    "  http:headers ( [ http:fieldName \"Content-Type\" ; http:fieldValue \"text/plain\" ] ) ;\n"
                    "  ldgsm:resultIn <http://ex.org/result> .\n",
         {"error: <#a>: stage has 2 gsm:hasHttpRequest: a stage has one task (an ldgsm:Call may list alternatives)"}},
        {"a call without alternatives",
         TASK_MODEL "<#t> a ldgsm:Call ; ldgsm:timeout \"PT1S\"^^xsd:dayTimeDuration .\n",
         {"error: <#t>: call has no ldgsm:alternatives (a list of http:Request nodes): it never sends anything"}},
        {"a request and a call at once",
         TASK_MODEL "<#t> http:mthd httpm:GET ; ldgsm:alternatives ( <#ok> ) .\n",
         {"error: <#t>: task has both http:mthd and ldgsm:alternatives: the rules would send it as a request and "
          "as a call"}},
        {"alternatives that are not a list",
         TASK_MODEL "<#t> ldgsm:alternatives <#ok> .\n",
         {"error: <#t>: ldgsm:alternatives <#ok> is not a list (write ldgsm:alternatives ( <#first> <#second> ))"}},
        {"a literal for the list",
         TASK_MODEL "<#t> ldgsm:alternatives \"<#ok>\" .\n",
         {"error: <#t>: ldgsm:alternatives \"<#ok>\" is not a list (write ldgsm:alternatives ( <#first> "
          "<#second> ))"}},
        {"an empty list",
         TASK_MODEL "<#t> ldgsm:alternatives () .\n",
         {"error: <#t>: ldgsm:alternatives is empty: there is no alternative to run"}},
        {"two lists",
         TASK_MODEL "<#t> ldgsm:alternatives ( <#ok> ), ( <#ok> ) .\n",
         {"error: <#t>: ldgsm:alternatives is given more than once: the rules would apply every value"}},
        {"a literal and an undescribed member",
         TASK_MODEL "<#t> ldgsm:alternatives ( <#ok> \"x\" <#nowhere> ) .\n",
         {"error: <#t>: alternative \"x\" is a literal, not a node of the model",
          "error: <#t>: alternative <#nowhere> is not described in the model's documents"}},
        {"an alternative checked as a task",
         TASK_MODEL "<#t> ldgsm:alternatives ( <#ok> <#bad> ) . <#bad> http:body \"x\" .\n",
         {"error: <#bad>: task has no http:mthd", "error: <#bad>: task has no http:requestURI",
          "error: <#bad>: task has a body but no Content-Type header (http:headers ( [ http:fieldName "
          "\"Content-Type\" ; http:fieldValue ... ] ))"}},
        {"a request without a body (fine), a result resource that is no IRI",
         TASK_MODEL "<#t> ldgsm:alternatives ( <#ok> <#bodiless> ) . <#ok> ldgsm:resultIn \"later\" .\n"
                    "<#bodiless> http:mthd httpm:DELETE ; http:requestURI <http://ex.org/x> .\n",
         {"error: <#ok>: ldgsm:resultIn \"later\" is not an IRI: it names the resource polled for the result of a "
          "202"}},
    };
    expect_cases(cases, sizeof cases / sizeof cases[0]);
}

/* A workflow with sub-workflow alternatives <#S> = {<#P1> % <#P2>}, its parts appended by each case. */
#define ALTERNATIVES_MODEL                                                                                   \
    CALL_PREFIXES                                                                                            \
    "<#root> gsm:hasChildStage <#S> ; gsm:hasMilestone <#done> .\n"                                          \
    "<#done> gsm:hasAchievingSentry <#q3> .\n"                                                               \
    "<#S> gsm:hasGuard [ gsm:hasCondition <#q1> ] ; gsm:hasMilestone [ gsm:hasAchievingSentry <#q2> ] .\n"

/* The members of ldgsm:alternativeStages are children wherever lint walks the tree; they need no guard,
 * and a guard of their own is suspect; the list is one proper, non-empty list, each stage in it once; a
 * stage's own timeout is a positive dayTimeDuration. */
static void test_alternative_stages(void **state) {
    (void)state;
    static const lint_case cases[] = {
        {"alternatives without guards or milestones of their own are children: no root, no guard warning",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> <#P2> ) ;\n"
                            "  ldgsm:timeout \"PT1M\"^^xsd:dayTimeDuration .\n"
                            "<#P1> a gsm:Stage ; ldgsm:timeout \"PT1S\"^^xsd:dayTimeDuration . <#P2> a gsm:Stage .\n",
         {NULL}},
        {"an alternative also named by gsm:hasChildStage is one child",
         ALTERNATIVES_MODEL "<#S> gsm:hasChildStage <#P1> ; ldgsm:alternativeStages ( <#P1> ) . <#P1> a gsm:Stage .\n",
         {NULL}},
        {"an alternative with a guard of its own",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> ) .\n"
                            "<#P1> gsm:hasGuard [ gsm:hasCondition <#q1> ] .\n",
         {"warning: <#P1>: alternative stage has a guard of its own: it adds to the turn the rules give it (a "
          "disjunction), so the stage may open out of turn"}},
        {"the guard of an alternative's child against the alternative's milestone (4.3.2 along the walk)",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> ) .\n"
                            "<#P1> gsm:hasMilestone [ gsm:hasAchievingSentry <#q1> ] ; gsm:hasChildStage <#c> .\n"
                            "<#c> gsm:hasGuard [ gsm:hasCondition <#q1> ] .\n",
         {"error: <#c>: guard condition <#q1> is also the achieving sentry of milestone [] (gsm:hasMilestone of "
          "<#P1>) of its ancestor <#P1> (the paper's 4.3.2): the ancestor closes whenever the stage could open"}},
        {"an alternative that is also another stage's child",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> ) . <#root> gsm:hasChildStage <#P1> .\n"
                            "<#P1> a gsm:Stage .\n",
         {"error: <#P1>: stage model occurs twice under root <#root>: it is a child of <#S> and of <#root>"}},
        {"an alternative listing its parent",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> ) . <#P1> ldgsm:alternativeStages ( <#S> ) .\n",
         {"error: <#S>: stage is its own descendant (a gsm:hasChildStage cycle through <#P1>)",
          "warning: <#S>: alternative stage has a guard of its own: it adds to the turn the rules give it (a "
          "disjunction), so the stage may open out of turn"}},
        {"a stage listed twice",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> <#P2> <#P1> ) .\n"
                            "<#P1> a gsm:Stage . <#P2> a gsm:Stage .\n",
         {"error: <#S>: stage <#P1> is listed twice in ldgsm:alternativeStages: an alternative has one turn and "
          "one \"gave way\" milestone"}},
        {"not a list",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages <#P1> . <#P1> a gsm:Stage ; gsm:hasMilestone <#done> .\n",
         {"warning: <#done>: milestone model shared by stages <#root> and <#P1>: a sentry asking for its "
          "instances cannot tell them apart",
          "error: <#S>: ldgsm:alternativeStages <#P1> is not a list (write ldgsm:alternativeStages ( <#first> "
          "<#second> ))"}},
        {"an empty list",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages () .\n",
         {"error: <#S>: ldgsm:alternativeStages is empty: there is no alternative stage to run"}},
        {"two lists",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> ), ( <#P2> ) .\n"
                            "<#P1> a gsm:Stage . <#P2> a gsm:Stage .\n",
         {"error: <#S>: ldgsm:alternativeStages is given more than once: the rules would apply every value"}},
        {"members that are no stages",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( \"P1\" <#nowhere> ) .\n",
         {"error: <#S>: alternative stage \"P1\" is a literal, not a node of the model",
          "error: <#S>: alternative stage <#nowhere> is not described in the model's documents"}},
        {"a stage's timeout that is not a positive dayTimeDuration (an alternative is a stage, typed or not)",
         ALTERNATIVES_MODEL "<#S> ldgsm:alternativeStages ( <#P1> ) ; ldgsm:timeout \"-PT1S\"^^xsd:dayTimeDuration .\n"
                            "<#P1> ldgsm:timeout \"1s\" .\n",
         {"error: <#S>: ldgsm:timeout \"-PT1S\" is not positive: the limit is over as soon as it starts",
          "error: <#P1>: ldgsm:timeout \"1s\" is not an xsd:dayTimeDuration (e.g. \"PT5S\"^^xsd:dayTimeDuration)"}},
        {"a root with alternatives and no milestone of its own",
         CALL_PREFIXES "<#R> ldgsm:alternativeStages ( <#P1> ) . <#P1> a gsm:Stage .\n",
         {"warning: <#R>: root stage has no milestone of its own: an instance of it completes only when all its "
          "alternatives fail"}},
    };
    expect_cases(cases, sizeof cases / sizeof cases[0]);
}

/* The test models of calls and sub-workflow alternatives lint clean: no error, no warning. */
static void test_call_models_clean(void **state) {
    (void)state;
    static const char *const models[] = {"calls.ttl", "subworkflow.ttl", "chaos.ttl"};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/gsm/models/%s", LDGSM_SOURCE_DIR, models[i]);
        gsm_lint *l = gsm_lint_new(NULL);
        assert_int_equal(gsm_lint_load_file(l, path), 0);
        gsm_lint_check(l);
        for (size_t k = 0; k < gsm_lint_message_count(l); k++)
            print_error("%s\n", line(l, k));
        assert_int_equal(gsm_lint_message_count(l), 0);
        gsm_lint_free(l);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ordered_by_file_and_given_once),
        cmocka_unit_test(test_terms_shown),
        cmocka_unit_test(test_failed_load_stops_checks),
        cmocka_unit_test(test_compat_authors_draft),
        cmocka_unit_test(test_call_parameters),
        cmocka_unit_test(test_call_alternatives),
        cmocka_unit_test(test_alternative_stages),
        cmocka_unit_test(test_call_models_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
