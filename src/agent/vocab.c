/* vocab.c: interns the agent's vocabulary. */
#include "agent/vocab.h"

void agent_vocab_init(agent_vocab *v, terms *t) {
    v->mthd = terms_iri_cstr(t, NS_HTTP "mthd");
    v->request_uri = terms_iri_cstr(t, NS_HTTP "requestURI");
    v->body = terms_iri_cstr(t, NS_HTTP "body");
    v->headers = terms_iri_cstr(t, NS_HTTP "headers");
    v->field_name = terms_iri_cstr(t, NS_HTTP "fieldName");
    v->field_value = terms_iri_cstr(t, NS_HTTP "fieldValue");
    v->get = terms_iri_cstr(t, NS_HTTPM "GET");
    v->head = terms_iri_cstr(t, NS_HTTPM "HEAD");
    v->put = terms_iri_cstr(t, NS_HTTPM "PUT");
    v->post = terms_iri_cstr(t, NS_HTTPM "POST");
    v->delete_ = terms_iri_cstr(t, NS_HTTPM "DELETE");
    v->patch = terms_iri_cstr(t, NS_HTTPM "PATCH");
    v->update = terms_iri_cstr(t, NS_LDGSM "UPDATE");
    v->add = terms_iri_cstr(t, NS_LDGSM "add");
    v->key = terms_iri_cstr(t, NS_LDGSM "key");
    v->after = terms_iri_cstr(t, NS_LDGSM "after");
    v->group = terms_iri_cstr(t, NS_LDGSM "group");
    v->priority = terms_iri_cstr(t, NS_LDGSM "priority");
    v->http_status = terms_iri_cstr(t, NS_LDGSM "httpStatus");
    v->held_because = terms_iri_cstr(t, NS_LDGSM "heldBecause");
    v->lenient = terms_iri_cstr(t, NS_LDGSM "lenient");
    v->now = terms_iri_cstr(t, NS_LDGSM "now");
    v->agent = terms_iri_cstr(t, "urn:ldgsm:agent");
    v->reads = terms_iri_cstr(t, NS_LDGSM "reads");
    v->instance = terms_iri_cstr(t, NS_LDGSM "instance");
    v->task_status = terms_iri_cstr(t, NS_LDGSM "taskStatus");
    v->is_completed = terms_iri_cstr(t, NS_LDGSM "isCompleted");
    v->task_state = terms_iri_cstr(t, NS_LDGSM "taskState");
    v->pending = terms_iri_cstr(t, NS_LDGSM "pending");
    v->task_outcome_unknown = terms_iri_cstr(t, NS_LDGSM "taskOutcomeUnknown");
    v->holds_for = terms_iri_cstr(t, NS_LDGSM "holdsFor");
    v->sp_ask = terms_iri_cstr(t, NS_SP "Ask");
    v->sp_text = terms_iri_cstr(t, NS_SP "text");
    v->artifact_instance = terms_iri_cstr(t, NS_GSM "ArtifactInstance");
    v->has_state = terms_iri_cstr(t, NS_GSM "hasState");
    v->active = terms_iri_cstr(t, NS_GSM "active");
    v->stage = terms_iri_cstr(t, NS_GSM "Stage");
    v->is_instance_of = terms_iri_cstr(t, NS_GSM "isInstanceOf");
    v->has_milestone = terms_iri_cstr(t, NS_GSM "hasMilestone");
    v->this_artifact = terms_iri_cstr(t, NS_GSM "thisArtifactInstance");
    v->derived_graph = terms_iri_cstr(t, "urn:ldgsm:derived");
    v->clock_graph = terms_iri_cstr(t, "urn:ldgsm:clock");
}
