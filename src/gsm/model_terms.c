/* model_terms.c: the GSM model terms (model_terms.h). */
#include "gsm/model_terms.h"

#include <string.h>

#include "agent/vocab.h"
#include "rdf/vocab_ns.h"

void gsm_model_terms_init(gsm_model_terms *m, terms *t) {
    *m = (gsm_model_terms){
        .stage = terms_iri_cstr(t, GSM_Stage),
        .guard = terms_iri_cstr(t, NS_GSM "Guard"),
        .milestone = terms_iri_cstr(t, GSM_Milestone),
        .has_child = terms_iri_cstr(t, GSM_hasChildStage),
        .has_guard = terms_iri_cstr(t, GSM_hasGuard),
        .has_condition = terms_iri_cstr(t, GSM_hasCondition),
        .has_milestone = terms_iri_cstr(t, GSM_hasMilestone),
        .achieving = terms_iri_cstr(t, GSM_hasAchievingSentry),
        .invalidating = terms_iri_cstr(t, GSM_hasInvalidatingSentry),
        .has_request = terms_iri_cstr(t, GSM_hasHttpRequest),
        .ask = terms_iri_cstr(t, SP_Ask),
        .text = terms_iri_cstr(t, SP_text),
        .type = terms_iri_cstr(t, RDF_type),
        .label = terms_iri_cstr(t, RDFS_label),
        .comment = terms_iri_cstr(t, RDFS_comment),
    };
}

bool gsm_model_carried(const gsm_model_terms *m, const terms *t, term_id p) {
    if (p == m->type || p == m->label || p == m->comment)
        return false;
    /* sp:where, sp:text ...: the compiled sentry's query is its own, and a sentry has one */
    return strncmp(terms_lex(t, p, NULL), NS_SP, strlen(NS_SP)) != 0;
}

term_id gsm_model_carried_blank(const gsm_model_terms *m, const terms *t, store *st, term_id node) {
    store_iter it;
    store_match(st, node, 0, 0, 0, store_size(st), &it);
    const triple *tr;
    uint32_t n;
    while ((tr = store_next(&it, &n)))
        if (terms_kind(t, tr->o) == TERM_BNODE && gsm_model_carried(m, t, tr->p))
            return tr->p;
    return 0;
}
