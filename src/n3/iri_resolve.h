/* iri_resolve.h: resolving an IRI reference against a base IRI as RFC 3986 section 5.2 says, in time
 * linear in their lengths.
 *
 * Why not raptor2's raptor_uri_resolve_uri_reference: it removes dot segments by shifting the rest of
 * the path for each one (quadratic: a 700 kB document of "./" segments takes a minute), and it departs
 * from the RFC at the edges: "x" against "http://host" gives "http://hostx", "../.." climbing past the
 * root keeps a "..", and references against non-hierarchical bases ("urn:x:y") lose the base path.
 * On hierarchical bases with a path the two agree (RFC 3986 5.4's examples, checked in
 * test_iri_resolve.c), so IRIs read here and IRIs raptor2 reads from Turtle stay the same terms. */
#ifndef LDGSM_N3_IRI_RESOLVE_H
#define LDGSM_N3_IRI_RESOLVE_H

#include <stddef.h>

#include "rdf/buf.h"

/* Appends to out the target IRI of reference ref (ref_len bytes) against base (base_len bytes). */
void iri_resolve(const char *base, size_t base_len, const char *ref, size_t ref_len, buf *out);

#endif
