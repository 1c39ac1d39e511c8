/* model_terms.c: the GSM model terms (model_terms.h). */
#include "gsm/model_terms.h"

#include "agent/vocab.h"

void gsm_model_terms_init(gsm_model_terms *m, terms *t) {
    *m = (gsm_model_terms){
        .stage = terms_iri_cstr(t, NS_GSM "Stage"),
        .guard = terms_iri_cstr(t, NS_GSM "Guard"),
        .milestone = terms_iri_cstr(t, NS_GSM "Milestone"),
        .has_child = terms_iri_cstr(t, NS_GSM "hasChildStage"),
        .has_guard = terms_iri_cstr(t, NS_GSM "hasGuard"),
        .has_condition = terms_iri_cstr(t, NS_GSM "hasCondition"),
        .has_milestone = terms_iri_cstr(t, NS_GSM "hasMilestone"),
        .achieving = terms_iri_cstr(t, NS_GSM "hasAchievingSentry"),
        .invalidating = terms_iri_cstr(t, NS_GSM "hasInvalidatingSentry"),
        .has_request = terms_iri_cstr(t, NS_GSM "hasHttpRequest"),
        .ask = terms_iri_cstr(t, NS_SP "Ask"),
        .text = terms_iri_cstr(t, NS_SP "text"),
        .label = terms_iri_cstr(t, NS_RDFS "label"),
    };
}
