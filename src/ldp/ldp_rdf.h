/* ldp_rdf.h: the LDP server's RDF work, through rdf/rdfio (raptor2): checking request bodies, turning
 * them into the stored Turtle, and deriving the other representations from it.
 *
 * Every operation uses a fresh term table and raptor world (about 35 us), so the server's memory does
 * not grow with what clients write and blank node labels in a derived representation depend only on
 * the stored bytes (its ETag stays truthful across restarts). Operations are serialized by one mutex:
 * raptor2 and libxml2 are not documented as safe across concurrently created worlds. */
#ifndef LDGSM_LDP_RDF_H
#define LDGSM_LDP_RDF_H

#include <stdbool.h>
#include <stddef.h>

#include "ldp/ldp_media.h"
#include "rdf/buf.h"

typedef struct ldp_rdf ldp_rdf;

ldp_rdf *ldp_rdf_new(void);
void ldp_rdf_free(ldp_rdf *rdf);

enum ldp_rdf_result {
    LDP_RDF_OK,
    LDP_RDF_SYNTAX_ERROR, /* the body is not RDF in its media type; message has line and column */
    LDP_RDF_CONTAINMENT,  /* a container's body states ldp:contains, which the server manages */
};

/* Checks a request body (len bytes in media, named source_name in errors), relative IRIs resolved
 * against base (the resource written), and appends the Turtle to store to *stored: Turtle and
 * N-Triples bodies as they are (an N-Triples document is Turtle), RDF/XML re-serialized with IRIs
 * relative to base. forbid_containment rejects ldp:contains triples. message (size bytes) says what
 * is wrong. */
enum ldp_rdf_result ldp_rdf_check_body(ldp_rdf *rdf, enum ldp_media media, const char *data, size_t len,
                                       const char *base, const char *source_name, bool forbid_containment,
                                       buf *stored, char *message, size_t size);

/* Holds the lock every operation here runs under, so that an embedding program's own raptor2 work (the
 * page of src/gsm/page.h) never runs beside one. */
void ldp_rdf_lock(ldp_rdf *rdf);
void ldp_rdf_unlock(ldp_rdf *rdf);

/* Serializes the stored Turtle (base: the resource's URI) in media `to`, a type other than Turtle.
 * Returns 0, or -1 with message. */
int ldp_rdf_convert(ldp_rdf *rdf, const char *turtle, size_t len, const char *base, enum ldp_media to, buf *out,
                    char *message, size_t size);

#endif
