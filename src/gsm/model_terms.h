/* model_terms.h: the terms of a GSM model (gsm: stages, guards, milestones and their links, SPIN's sp:Ask
 * and sp:text, rdf:type, rdfs:label and rdfs:comment) that the compilers into GSM models read and write
 * (patterns/compile.c, deps/dep_gsm.c), interned once per compilation, and which triples of a condition
 * those compilers carry onto the sentries they make of it. */
#ifndef LDGSM_GSM_MODEL_TERMS_H
#define LDGSM_GSM_MODEL_TERMS_H

#include <stdbool.h>

#include "rdf/store.h"
#include "rdf/term.h"

typedef struct gsm_model_terms {
    term_id stage, guard, milestone;                                   /* gsm: classes */
    term_id has_child, has_guard, has_condition, has_milestone, achieving, invalidating, has_request;
    term_id ask, text;                                                 /* sp: */
    term_id type, label, comment;                                      /* rdf:type, rdfs:label, rdfs:comment */
} gsm_model_terms;

void gsm_model_terms_init(gsm_model_terms *m, terms *t);

/* Whether a condition's (or sentry's) triple with predicate p goes onto a sentry compiled from it: what it
 * says beside its query, such as ldgsm:readsContainer and ldgsm:reads (what the crawl GETs for it,
 * rules/ldp-crawl.n3), but not its type, its query (sp:...) nor its label and comment, which describe the
 * condition, not the sentry made of it. */
bool gsm_model_carried(const gsm_model_terms *m, const terms *t, term_id p);

/* The predicate of a triple of node (in st) that would be carried and whose object is a blank node, or 0.
 * The compilers refuse such a condition instead of carrying it: a blank node that several sentries name is
 * written by raptor2's Turtle serializer under two labels (_:_g1 as a subject, _:zg1 as an object), which
 * read back as two nodes. */
term_id gsm_model_carried_blank(const gsm_model_terms *m, const terms *t, store *st, term_id node);

#endif
