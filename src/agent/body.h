/* body.h: the bytes of a request body (docs/DESIGN.md §2.5).
 *
 * A formula body is Turtle. IRIs in Linked Data-Fu's placeholder namespace `this:` stand for the target
 * document and are written relative (`this:it` -> `<#it>`). In a PUT every other IRI is written relative
 * to the request URI; in a POST (whose member URI the server picks) every other IRI stays absolute.
 * A literal body is sent as its lexical form, unchanged. */
#ifndef LDGSM_AGENT_BODY_H
#define LDGSM_AGENT_BODY_H

#include <stdbool.h>
#include <stddef.h>

#include "rdf/rdfio.h"

/* Writes `body` (a formula or a literal) for a request to target_url (fragment-free); relative selects
 * the PUT form. Returns 0, or -1 when the formula holds what Turtle cannot express (variables, nested
 * formulas). *is_rdf tells whether the body is Turtle (so the request wants Content-Type text/turtle). */
int body_bytes(rdfio *io, terms *t, term_id body, const char *target_url, bool relative, buf *out, bool *is_rdf);

/* The namespaces the documents the agent writes abbreviate beyond rdf: and xsd: (gsm:, ldgsm:, wsm:, the
 * vocabularies of status documents), as rdf_write_turtle_compact takes them: pairs of name and namespace
 * IRI, then NULL. The LDP server is given the same (cli/), so what it rewrites stays as short. */
extern const char *const body_prefixes[];

/* this:x -> target_url#x (this: alone -> target_url); any other term unchanged. */
term_id body_resolve_placeholder(terms *t, term_id id, const char *target_url);

/* Serializes triples as a PUT body for target_url (Turtle, IRIs relative to it); -1 when they hold what
 * Turtle cannot express. */
int body_document(rdfio *io, terms *t, const triple *ts, size_t n, const char *target_url, buf *out);

/* The N3 Patch (the Solid Protocol's solid:InsertDeletePatch, media type text/n3) that takes the document
 * target_url from one set of triples to another: solid:deletes what only `before` has, solid:inserts
 * what only `after` has (both sorted by triples_canonical), IRIs relative to target_url as in a PUT body
 * (the server resolves them against the resource, whatever name the agent reached it by). Returns -1 when a changed triple holds a blank node, a
 * list or a formula: a patch cannot name a blank node of the document (the protocol forbids them in
 * deletes and inserts), so such a change needs the whole document. */
int body_patch(const terms *t, const triple *before, size_t before_count, const triple *after, size_t after_count,
               const char *target_url, buf *out);

#endif
