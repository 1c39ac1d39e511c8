/* pattern_rdf.h: a workflow pattern written in RDF with the pattern vocabulary (ontology/patterns.ttl,
 * pat: = https://w3id.org/ldgsm/patterns#), read into the same tree as the term syntax gives: a
 * pat:Workflow whose pat:body is a term node (pat:Task, pat:Seq, pat:Par, pat:Join, pat:Xor, pat:Loop,
 * pat:Defer, pat:Cancel, pat:MI), or whose pat:term is the term text. */
#ifndef LDGSM_PATTERNS_PATTERN_RDF_H
#define LDGSM_PATTERNS_PATTERN_RDF_H

#include <stddef.h>

#include "patterns/pattern.h"
#include "rdf/store.h"
#include "rdf/term.h"

/* The pattern of the store's one pat:Workflow (term text is read with `base` as its names' base).
 * Returns NULL with what is wrong in err: no workflow or several, a node of no known kind, a property
 * missing or given twice, a list that is not a proper list, a nesting deeper than PATTERN_MAX_DEPTH (rdf/nesting.h's bound). */
pattern *pattern_read_rdf(terms *t, store *st, const char *base, char *err, size_t err_len);

#endif
