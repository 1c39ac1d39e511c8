/* test_shape.c: the shape of a GSM model (src/gsm/shape.h) as the drawing and the page show it: the stage
 * tree in order, names, milestones, the milestones guards read (negated or not, SPIN and text), the
 * alternatives' order, an instance's states, an instance whose model is elsewhere, the draft vocabulary
 * with and without its rules, and what is not a model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gsm/shape.h"

#define MODEL_IRI "http://h/models/m"
#define STATUS_IRI "http://h/status/s"

static const char model[] =
    "@prefix gsm: <http://purl.org/gsm/vocab#> .\n"
    "@prefix ldgsm: <https://w3id.org/ldgsm#> .\n"
    "@prefix sp: <http://spinrdf.org/sp#> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    "<#root> a gsm:Stage ; rdfs:label \"Root\" ; gsm:hasChildStage <#a>, <#b> ; gsm:hasMilestone <#done> .\n"
    "<#a> a gsm:Stage ; gsm:hasGuard <#ga> ; gsm:hasMilestone <#ma> .\n"
    "<#b> a gsm:Stage ; rdfs:label \"B\" ; gsm:hasGuard <#gb> ; gsm:hasMilestone <#mb> ;\n"
    "  ldgsm:alternativeStages ( <#p1> <#p2> ) .\n"
    "<#p1> a gsm:Stage ; gsm:hasMilestone <#m1> .\n"
    "<#p2> a gsm:Stage .\n"
    "<#ga> gsm:hasCondition <#text> .\n"
    "<#gb> rdfs:label \"guard b\" ; gsm:hasCondition <#spin>, <#broken> .\n"
    "<#ma> rdfs:label \"A done\" .\n"
    "<#text> a sp:Ask ; sp:text \"PREFIX gsm: <http://purl.org/gsm/vocab#> ASK { ?x gsm:isInstanceOf <#mb> ; "
    "gsm:isAchieved false . }\" .\n"
    "<#spin> a sp:Ask ; rdfs:comment \"A is\\n  done\" ; sp:where ( [ sp:subject _:v ; sp:predicate gsm:isInstanceOf ; sp:object <#ma> ]\n"
    "  [ sp:subject _:v ; sp:predicate gsm:isAchieved ; sp:object true ] ) .\n"
    "_:v sp:varName \"v\" .\n"
    "<#broken> a sp:Ask ; sp:text \"ASK { ?x \" .\n";

static gsm_shape *shape_of(const char *compat, const char *status, const char *instance, int *rc, char *error,
                           size_t error_len) {
    gsm_shape *s = gsm_shape_new(compat);
    *rc = gsm_shape_load(s, "model", MODEL_IRI, RDF_TURTLE, model, strlen(model), error, error_len);
    if (*rc == 0 && status)
        *rc = gsm_shape_load(s, "status", STATUS_IRI, RDF_TURTLE, status, strlen(status), error, error_len);
    if (*rc == 0)
        *rc = gsm_shape_build(s, instance, error, error_len);
    return s;
}

static size_t stage_named(const gsm_shape *s, const char *name) {
    for (size_t i = 0; i < s->stage_count; i++)
        if (strcmp(s->stages[i].name, name) == 0)
            return i;
    fail_msg("no stage %s", name);
    return 0;
}

static size_t milestone_named(const gsm_shape *s, const char *name) {
    for (size_t i = 0; i < s->milestone_count; i++)
        if (strcmp(s->milestones[i].name, name) == 0)
            return i;
    fail_msg("no milestone %s", name);
    return 0;
}

static void the_tree_in_order_with_names(void **state) {
    (void)state;
    int rc;
    char error[600];
    gsm_shape *s = shape_of(NULL, NULL, NULL, &rc, error, sizeof error);
    assert_int_equal(rc, 0);
    assert_true(s->has_model);
    assert_int_equal(s->stage_count, 5);
    const char *names[] = {"Root", "a", "B", "p1", "p2"};
    const size_t depths[] = {0, 1, 1, 2, 2};
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(s->stages[i].name, names[i]);
        assert_int_equal(s->stages[i].depth, depths[i]);
    }
    assert_int_equal(s->stages[0].parent, GSM_SHAPE_NONE);
    assert_int_equal(s->stages[3].parent, 2);
    assert_string_equal(s->stages[1].iri, MODEL_IRI "#a");
    assert_int_equal(s->milestone_count, 4);
    assert_int_equal(s->milestones[milestone_named(s, "A done")].stage, 1);
    assert_int_equal(s->milestones[milestone_named(s, "done")].stage, 0);
    assert_int_equal(s->stages[0].state, GSM_STATE_UNKNOWN);
    assert_string_equal(gsm_shape_stage_word(s, &s->stages[0]), "");
    gsm_shape_free(s);
}

static void alternatives_in_their_order(void **state) {
    (void)state;
    int rc;
    char error[600];
    gsm_shape *s = shape_of(NULL, NULL, NULL, &rc, error, sizeof error);
    size_t p1 = stage_named(s, "p1"), p2 = stage_named(s, "p2");
    assert_true(s->stages[p1].is_alternative);
    assert_true(s->stages[p2].is_alternative);
    assert_int_equal(s->stages[p1].next_alternative, p2);
    assert_int_equal(s->stages[p2].next_alternative, GSM_SHAPE_NONE);
    assert_false(s->stages[stage_named(s, "B")].is_alternative);
    gsm_shape_free(s);
}

static void guards_read_milestones(void **state) {
    (void)state;
    int rc;
    char error[600];
    gsm_shape *s = shape_of(NULL, NULL, NULL, &rc, error, sizeof error);
    assert_int_equal(s->guard_count, 2);
    const gsm_shape_guard *ga = &s->guards[0], *gb = &s->guards[1];
    assert_string_equal(ga->name, "ga");
    assert_int_equal(ga->stage, 1);
    assert_int_equal(ga->read_count, 1); /* text: mb, not achieved */
    assert_int_equal(ga->reads[0].milestone, milestone_named(s, "mb"));
    assert_true(ga->reads[0].negated);
    assert_string_equal(gb->name, "guard b");
    assert_int_equal(gb->read_count, 1); /* SPIN: "A done", achieved; the broken sentry reads nothing */
    assert_int_equal(gb->reads[0].milestone, milestone_named(s, "A done"));
    assert_false(gb->reads[0].negated);
    assert_int_equal(s->warning_count, 1);
    assert_non_null(strstr(s->warnings[0], "#broken> is not drawn"));
    /* what each waits for: its described sentry's comment on one line, else the milestones read */
    assert_string_equal(gb->waits_for, "A is done");
    assert_string_equal(ga->waits_for, "not mb");
    gsm_shape_free(s);
}

static const char status[] =
    "@prefix gsm: <http://purl.org/gsm/vocab#> .\n"
    "@prefix ldgsm: <https://w3id.org/ldgsm#> .\n"
    "<#it> gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:active ; ldgsm:isCompleted false ;\n"
    "  gsm:inArtifactInstance <#it> .\n"
    "<#s1> gsm:isInstanceOf <../models/m#a> ; gsm:inArtifactInstance <#it> ; gsm:hasState gsm:inactive ;\n"
    "  ldgsm:isCompleted true .\n"
    "<#s2> gsm:isInstanceOf <../models/m#b> ; gsm:inArtifactInstance <#it> ; gsm:hasState gsm:active ;\n"
    "  ldgsm:isCompleted false .\n"
    "<#m1> gsm:isInstanceOf <../models/m#ma> ; ldgsm:ofStage <#s1> ; gsm:inArtifactInstance <#it> ;\n"
    "  gsm:isAchieved true .\n"
    "<#m2> gsm:isInstanceOf <../models/m#done> ; ldgsm:ofStage <#it> ; gsm:inArtifactInstance <#it> ;\n"
    "  gsm:isAchieved false .\n"
    "<#other> gsm:isInstanceOf <../models/m#p1> ; gsm:hasState gsm:active .\n"
    "<#c1> a ldgsm:CallRecord ; ldgsm:ofStage <#s1> ; ldgsm:callState ldgsm:exhausted .\n"
    "<#c3> a ldgsm:CallRecord ; ldgsm:ofStage <#s2> ; ldgsm:callState ldgsm:calling ; ldgsm:lastFailure \"timeout\" .\n"
    "<#c2> a ldgsm:CallRecord ; ldgsm:ofStage <#s2> ; ldgsm:callState ldgsm:answered .\n";

static void an_instance_s_states(void **state) {
    (void)state;
    int rc;
    char error[600];
    gsm_shape *s = shape_of(NULL, status, STATUS_IRI "#it", &rc, error, sizeof error);
    assert_int_equal(rc, 0);
    assert_true(s->has_model);
    assert_string_equal(s->instance, STATUS_IRI "#it");
    assert_int_equal(s->stages[0].state, GSM_STATE_ACTIVE);
    assert_int_equal(s->stages[0].completed, 0);
    size_t a = stage_named(s, "a"), b = stage_named(s, "B"), p1 = stage_named(s, "p1");
    assert_string_equal(gsm_shape_stage_word(s, &s->stages[a]), "completed");
    assert_string_equal(gsm_shape_stage_word(s, &s->stages[b]), "active");
    /* a fragment of no artifact of this instance says nothing about it */
    assert_int_equal(s->stages[p1].state, GSM_STATE_UNKNOWN);
    assert_string_equal(gsm_shape_stage_word(s, &s->stages[p1]), "not set up");
    assert_int_equal(s->milestones[milestone_named(s, "A done")].achieved, 1);
    assert_int_equal(s->milestones[milestone_named(s, "done")].achieved, 0);
    assert_int_equal(s->milestones[milestone_named(s, "mb")].achieved, -1);
    /* calls: B's retried after a failure (before its answered one), a's exhausted, none for the root */
    assert_string_equal(gsm_shape_call_name(s->stages[b].call), "retrying");
    assert_string_equal(gsm_shape_call_name(s->stages[a].call), "exhausted");
    assert_int_equal(s->stages[0].call, GSM_CALL_NONE);
    gsm_shape_free(s);
}

static void an_instance_without_its_model(void **state) {
    (void)state;
    gsm_shape *s = gsm_shape_new(NULL);
    char error[600];
    assert_int_equal(gsm_shape_load(s, "status", STATUS_IRI, RDF_TURTLE, status, strlen(status), error,
                                    sizeof error), 0);
    assert_int_equal(gsm_shape_build(s, STATUS_IRI "#it", error, sizeof error), 0);
    assert_false(s->has_model);
    assert_int_equal(s->stage_count, 3); /* the root and the two stage fragments, flat */
    assert_string_equal(s->stages[0].name, "root");
    assert_string_equal(s->stages[1].name, "a");
    assert_int_equal(s->stages[1].depth, 1);
    assert_int_equal(s->milestone_count, 2);
    assert_int_equal(s->milestones[milestone_named(s, "ma")].achieved, 1);
    gsm_shape_free(s);
}

static void what_is_not_a_model(void **state) {
    (void)state;
    char error[600] = "";
    gsm_shape *s = gsm_shape_new(NULL);
    const char *data = "<#x> <#p> 1 .";
    assert_int_equal(gsm_shape_load(s, "data", MODEL_IRI, RDF_TURTLE, data, strlen(data), error, sizeof error), 0);
    assert_int_equal(gsm_shape_build(s, NULL, error, sizeof error), -1);
    assert_non_null(strstr(error, "not a GSM workflow model"));
    gsm_shape_free(s);

    s = gsm_shape_new(NULL);
    assert_int_equal(gsm_shape_load(s, "bad", MODEL_IRI, RDF_TURTLE, "<#x> <#p", 8, error, sizeof error), -1);
    assert_non_null(strstr(error, "bad:1"));
    gsm_shape_free(s);

    int rc;
    s = shape_of(NULL, status, STATUS_IRI "#nobody", &rc, error, sizeof error);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(error, "#nobody> is not described"));
    gsm_shape_free(s);
}

static const char draft[] =
    "@prefix d: <http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#> .\n"
    "<#root> a d:StageModel ; d:hasChildStage <#s> ; d:hasMilestoneModel <#end> .\n"
    "<#s> a d:StageModel ; d:hasMilestoneModel <#m> .\n";

static void the_draft_vocabulary(void **state) {
    (void)state;
    char error[600] = "";
    gsm_shape *s = gsm_shape_new(NULL);
    assert_int_equal(gsm_shape_load(s, "draft", MODEL_IRI, RDF_TURTLE, draft, strlen(draft), error, sizeof error), 0);
    assert_int_equal(gsm_shape_build(s, NULL, error, sizeof error), -1);
    assert_non_null(strstr(error, "draft vocabulary"));
    gsm_shape_free(s);

    s = gsm_shape_new(LDGSM_SOURCE_DIR "/rules/compat-authors-draft.n3");
    assert_int_equal(gsm_shape_load(s, "draft", MODEL_IRI, RDF_TURTLE, draft, strlen(draft), error, sizeof error), 0);
    assert_int_equal(gsm_shape_build(s, NULL, error, sizeof error), 0);
    assert_int_equal(s->stage_count, 2);
    assert_string_equal(s->stages[1].name, "s");
    assert_int_equal(s->milestone_count, 2);
    gsm_shape_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_tree_in_order_with_names),
        cmocka_unit_test(alternatives_in_their_order),
        cmocka_unit_test(guards_read_milestones),
        cmocka_unit_test(an_instance_s_states),
        cmocka_unit_test(an_instance_without_its_model),
        cmocka_unit_test(what_is_not_a_model),
        cmocka_unit_test(the_draft_vocabulary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
