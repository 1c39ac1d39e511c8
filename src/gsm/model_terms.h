/* model_terms.h: the terms of a GSM model (gsm: stages, guards, milestones and their links, SPIN's sp:Ask
 * and sp:text, rdfs:label) that the compilers into GSM models read and write (patterns/compile.c,
 * deps/dep_gsm.c), interned once per compilation. */
#ifndef LDGSM_GSM_MODEL_TERMS_H
#define LDGSM_GSM_MODEL_TERMS_H

#include "rdf/term.h"

typedef struct gsm_model_terms {
    term_id stage, guard, milestone;                                   /* gsm: classes */
    term_id has_child, has_guard, has_condition, has_milestone, achieving, invalidating, has_request;
    term_id ask, text;                                                 /* sp: */
    term_id label;                                                     /* rdfs:label */
} gsm_model_terms;

void gsm_model_terms_init(gsm_model_terms *m, terms *t);

#endif
