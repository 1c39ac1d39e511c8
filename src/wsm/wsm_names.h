/* wsm_names.h: what `ldgsm status` and `ldgsm draw` read of a state machine (ontology/wsm.ttl): the terms
 * of its vocabulary, and the name a schema's state, event, variable, condition or transition is shown by:
 * its rdfs:label, else its IRI's fragment, else its IRI. */
#ifndef LDGSM_WSM_WSM_NAMES_H
#define LDGSM_WSM_WSM_NAMES_H

#include <stddef.h>

#include "rdf/store.h"
#include "rdf/term.h"

typedef struct wsm_terms {
    term_id label, sp_text, contains, waits_because, held_because;
    term_id schema, initial_state, transition, variable, initial_value, from, to, on, condition, assigns, value;
    term_id instance_of, inbox, current_state, taken, event;
    term_id entry_of, sequence, event_resource, from_state, to_state, at, outcome, reason, failed_condition,
        fired_transition;
} wsm_terms;

void wsm_terms_init(wsm_terms *v, terms *t);

/* The name id is shown by (see above); a blank node without a label is "[]". The caller frees it. */
char *wsm_name(const terms *t, store *st, const wsm_terms *v, term_id id);
/* The IRI of id, or its lexical form (a literal), or "[]" (a blank node); valid as long as t. */
const char *wsm_text(const terms *t, term_id id);

#endif
