/* completion.c: when a run of GSM instances under --until complete ends (completion.h). */
#include "gsm/completion.h"

#include "rdf/vocab_ns.h"

/* The terms these checks read, interned on each call: the agent releases an iteration's terms between
 * iterations (rdf/term.h), so none is kept. */
typedef struct vocab {
    term_id in_artifact_instance, is_instance_of, all_alternatives_failed, is_achieved, of_stage, call_state,
        exhausted, has_state, active, is_completed, stage, has_milestone, failure_milestone;
} vocab;

static vocab vocab_of(terms *t) {
    return (vocab){.in_artifact_instance = terms_iri_cstr(t, GSM_inArtifactInstance),
                   .is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf),
                   .all_alternatives_failed = terms_iri_cstr(t, LDGSM_AllAlternativesFailed),
                   .is_achieved = terms_iri_cstr(t, GSM_isAchieved),
                   .of_stage = terms_iri_cstr(t, LDGSM_ofStage),
                   .call_state = terms_iri_cstr(t, LDGSM_callState),
                   .exhausted = terms_iri_cstr(t, LDGSM_exhausted),
                   .has_state = terms_iri_cstr(t, GSM_hasState),
                   .active = terms_iri_cstr(t, GSM_active),
                   .is_completed = terms_iri_cstr(t, LDGSM_isCompleted),
                   .stage = terms_iri_cstr(t, GSM_Stage),
                   .has_milestone = terms_iri_cstr(t, GSM_hasMilestone),
                   .failure_milestone = terms_iri_cstr(t, LDGSM_FailureMilestone)};
}

bool gsm_never_completes(terms *t, store *wm, const char *const *instances, size_t instance_count,
                         const log_sink *log) {
    vocab v = vocab_of(t);
    bool found = false;
    for (size_t i = 0; i < instance_count; i++) {
        term_id root = terms_iri_cstr(t, instances[i]);
        store_iter it;
        store_match(wm, root, v.is_instance_of, 0, 0, store_size(wm), &it);
        uint32_t n;
        const triple *tr = store_next(&it, &n);
        if (!tr || store_find(wm, tr->o, T_RDF_TYPE, v.stage) == UINT32_MAX ||
            store_estimate(wm, tr->o, v.has_milestone, 0) > 0)
            continue;
        found = true;
        log_msg(log, LOG_ERROR, "--until complete: instance <%s> can never complete: its root model <%s> has no "
                "milestone", instances[i], terms_lex(t, tr->o, NULL));
    }
    return found;
}

/* An achieved failure milestone of the instance (a ldgsm:FailureMilestone, such as a compiled pattern's
 * root-failed, or its subclass ldgsm:AllAlternativesFailed of rules/gsm-alternatives.n3: no RDFS reasoning
 * here, so both are named), of its root stage only when only_root. */
static bool failure_achieved(const vocab *v, store *wm, term_id root, bool only_root) {
    store_iter it;
    store_match(wm, 0, v->in_artifact_instance, root, 0, store_size(wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));) {
        store_iter models;
        store_match(wm, tr->s, v->is_instance_of, 0, 0, store_size(wm), &models);
        uint32_t m;
        const triple *mt = store_next(&models, &m);
        term_id model = mt ? mt->o : 0;
        if (model &&
            (store_find(wm, model, T_RDF_TYPE, v->all_alternatives_failed) != UINT32_MAX ||
             store_find(wm, model, T_RDF_TYPE, v->failure_milestone) != UINT32_MAX) &&
            store_find(wm, tr->s, v->is_achieved, T_TRUE) != UINT32_MAX &&
            (!only_root || store_find(wm, tr->s, v->of_stage, root) != UINT32_MAX))
            return true;
    }
    return false;
}

/* An exhausted call whose stage is still open, or an achieved failure milestone: the instance's failure. */
static bool visibly_failed(const vocab *v, store *wm, term_id root) {
    if (failure_achieved(v, wm, root, false))
        return true;
    store_iter it;
    store_match(wm, 0, v->call_state, v->exhausted, 0, store_size(wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));) {
        if (store_find(wm, tr->s, v->in_artifact_instance, root) == UINT32_MAX)
            continue;
        store_iter stages;
        store_match(wm, tr->s, v->of_stage, 0, 0, store_size(wm), &stages);
        uint32_t m;
        for (const triple *st; (st = store_next(&stages, &m));)
            if (store_find(wm, st->o, v->has_state, v->active) != UINT32_MAX)
                return true;
    }
    return false;
}

enum gsm_verdict gsm_instance_verdict(terms *t, store *wm, const char *instance) {
    vocab v = vocab_of(t);
    term_id root = terms_iri_cstr(t, instance);
    if (store_find(wm, root, v.is_completed, T_TRUE) != UINT32_MAX)
        return failure_achieved(&v, wm, root, true) ? GSM_FAILED_COMPLETED : GSM_COMPLETE;
    return visibly_failed(&v, wm, root) ? GSM_FAILED_OPEN : GSM_GOING_ON;
}

int gsm_completion(const char *const *instances, const enum gsm_verdict *verdicts, size_t instance_count, bool busy,
                   const log_sink *log) {
    if (!instance_count)
        return -1; /* only --instances-from: none listed yet */
    size_t failed = 0;
    for (size_t i = 0; i < instance_count; i++) {
        if (verdicts[i] == GSM_COMPLETE)
            continue;
        if (busy || verdicts[i] == GSM_GOING_ON)
            return -1;
        failed++;
        const char *why = verdicts[i] == GSM_FAILED_COMPLETED
                              ? "its root stage closed on a failure milestone (its alternatives all failed, or its "
                                "term failed)"
                              : "a call is exhausted with its stage open, or a failure milestone is achieved";
        log_event(log, LOG_ERROR, "failed", instances[i], LOG_FIELDS(LOG_TEXT("cause", why)),
                  "--until complete: instance <%s> failed: %s", instances[i], why);
    }
    if (!failed)
        log_event(log, LOG_INFO, "complete", NULL, LOG_NO_FIELDS, "every workflow instance is complete");
    return failed ? 5 : 0;
}

int gsm_cut_short(const char *const *instances, const enum gsm_verdict *verdicts, size_t instance_count,
                  const log_sink *log) {
    if (!instance_count)
        log_msg(log, LOG_ERROR, "--until complete: --iterations ended the run before any instance was listed");
    for (size_t i = 0; i < instance_count; i++)
        if (verdicts[i] != GSM_COMPLETE && verdicts[i] != GSM_FAILED_COMPLETED)
            log_msg(log, LOG_ERROR, "--until complete: --iterations ended the run with instance <%s> not complete",
                    instances[i]);
    return 6;
}
