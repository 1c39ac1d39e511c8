/* test_lint.c: the contract of gsm/lint.h that the per-check cases of tests/gsm/run_lint.sh do not show:
 * messages ordered by the files' load order and given once even when a stage is met under two roots,
 * IRIs shown relative only beside their file, blank nodes named by the triple reaching them, a failed
 * load stopping the checks, and the counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
                        "       <http://www.w3.org/2011/http#requestURI> <http://ex.org/x> .\n"
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ordered_by_file_and_given_once),
        cmocka_unit_test(test_terms_shown),
        cmocka_unit_test(test_failed_load_stops_checks),
        cmocka_unit_test(test_compat_authors_draft),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
