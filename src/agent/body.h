/* body.h: the bytes of a request body (DESIGN section 2, "Bodies").
 *
 * A formula body is Turtle. IRIs in Linked Data-Fu's placeholder namespace `this:` stand for the target
 * document and are written relative (`this:it` -> `<#it>`). In a PUT every other IRI is written relative
 * to the request URI; in a POST (whose member URI the server picks) every other IRI stays absolute.
 * A literal body is sent as its lexical form, unchanged. */
#ifndef LDGSM_AGENT_BODY_H
#define LDGSM_AGENT_BODY_H

#include <stdbool.h>

#include "rdf/rdfio.h"

/* Writes `body` (a formula or a literal) for a request to target_url (fragment-free); relative selects
 * the PUT form. Returns 0, or -1 when the formula holds what Turtle cannot express (variables, nested
 * formulas). *is_rdf tells whether the body is Turtle (so the request wants Content-Type text/turtle). */
int body_bytes(rdfio *io, terms *t, term_id body, const char *target_url, bool relative, buf *out, bool *is_rdf);

/* this:x -> target_url#x (this: alone -> target_url); any other term unchanged. */
term_id body_resolve_placeholder(terms *t, term_id id, const char *target_url);

/* Serializes triples as a PUT body for target_url (Turtle, IRIs relative to it); -1 when they hold what
 * Turtle cannot express. */
int body_document(rdfio *io, terms *t, const triple *ts, size_t n, const char *target_url, buf *out);

#endif
