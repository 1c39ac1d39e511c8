/* ldp_patch.h: N3 Patch, as the Solid Protocol defines it (section "N3 Patch"): a document holding one
 * `?patch a solid:InsertDeletePatch` with at most one each of solid:inserts, solid:deletes and
 * solid:where, whose objects are formulas of triples and triple patterns. Read with the project's N3
 * reader and applied to a resource's triples:
 *  1. the where formula (empty when absent) must match the resource's triples with exactly one mapping
 *     of its variables, else 409;
 *  2. the deletes, with that mapping applied, must all be in the resource, else 409; they are removed;
 *  3. the inserts, with that mapping applied, are added.
 * A resource that does not exist is patched as an empty one. What is not such a patch is 422: a syntax
 * error, no or several patch nodes, a clause given twice or not a formula, a nested formula or list, a
 * blank node in inserts or deletes (the Solid Protocol forbids them there) or in where (which it
 * leaves undefined: refused rather than guessed), a variable in inserts or deletes that where does not
 * bind, a result that is not RDF (a literal as subject), or a where clause too costly to evaluate (more
 * than LDP_PATCH_MAX_WHERE patterns, or LDP_PATCH_MAX_STEPS match steps: where is a join, and a
 * request must not buy unbounded work).
 * Appended: a patch that only inserts, to a resource this writer wrote that begins with the prefixes it
 * writes now, about subjects the text states nothing of (a line starting with the subject as this writer
 * writes it: a byte search), keeps the stored text unparsed and writes the inserts' statements after it,
 * so its cost follows the patch, not the resource's triples (a history archive grows by one such patch,
 * of new entries, per transition). Any other patch reads the resource whole, so no text states a triple
 * twice. */
#ifndef LDGSM_LDP_PATCH_H
#define LDGSM_LDP_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "ldp/ldp_rdf.h"
#include "rdf/buf.h"

/* The media type of an N3 Patch, what Accept-Patch announces. */
#define LDP_PATCH_MEDIA_TYPE "text/n3"

enum { LDP_PATCH_MAX_WHERE = 64, LDP_PATCH_MAX_STEPS = 1000000 };

/* Applies the patch (patch_len bytes; relative IRIs resolve against base, the resource's URI) to the
 * resource's stored Turtle (turtle_len bytes; 0 when it does not exist; own_writing: written by this
 * function, so the N3 reader reads it, a third of raptor2's work), writing the resulting Turtle,
 * IRIs relative to base and the namespaces of prefixes abbreviated (as rdf_write_turtle_compact takes
 * them; NULL: rdf: and xsd: only), to out (rdfio needs no lock). Returns 0, or 409, 422,
 * or 500 (the stored Turtle does not parse) with message. */
int ldp_patch_apply(const char *patch, size_t patch_len, const char *turtle, size_t turtle_len, bool own_writing,
                    const char *base, const char *const *prefixes, buf *out, char *message, size_t size);

/* A patch to apply through ldp_store_edit (ldp_store.h): user is an ldp_patch_request. */
typedef struct ldp_patch_request {
    const char *text;
    size_t len;
    const char *const *prefixes; /* what the patched Turtle abbreviates (ldp_store_turtle_prefixes) */
} ldp_patch_request;

int ldp_patch_edit(void *user, const char *turtle, size_t len, bool own_writing, const char *base, buf *out,
                   char *message, size_t size);

#endif
