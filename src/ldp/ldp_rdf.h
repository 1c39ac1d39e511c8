/* ldp_rdf.h: the LDP server's RDF work, through rdf/rdfio (raptor2): checking request bodies, turning
 * them into the stored Turtle, and deriving the other representations from it.
 *
 * Every operation uses a fresh term table and an rdfio of its own (its raptor world from rdfio's pool,
 * never freed), so the server's memory does not grow with what clients write, blank node labels in a
 * derived representation depend only on the stored bytes (its ETag stays truthful across restarts), and
 * operations on different threads run at once, with no lock. Every text written here is flat (no
 * nesting, so its size follows the number of triples) and bounded by a multiple of the text it comes
 * from. A program calls rdfio_prepare_libxml() from its main thread before its threads work here. */
#ifndef LDGSM_LDP_RDF_H
#define LDGSM_LDP_RDF_H

#include <stdbool.h>
#include <stddef.h>

#include "ldp/ldp_media.h"
#include "rdf/buf.h"

enum ldp_rdf_result {
    LDP_RDF_OK,
    LDP_RDF_SYNTAX_ERROR, /* the body is not RDF in its media type; message has line and column */
    LDP_RDF_CONTAINMENT,  /* a container's body states ldp:contains, which the server manages */
};

/* The most bytes a text written here may have: LDP_RDF_SIZE_FACTOR times the text it is written from,
 * plus LDP_RDF_SIZE_SLACK. Flat writing only expands names (a prefixed name, or a relative IRI, written
 * in full), so real documents stay inside it (a list of short relative IRIs, the widest seen, is 23
 * times its Turtle as RDF/XML). */
enum { LDP_RDF_SIZE_FACTOR = 32, LDP_RDF_SIZE_SLACK = 1 << 20 };

/* Checks a request body (len bytes in media, named source_name in errors), relative IRIs resolved
 * against base (the resource written), and appends the Turtle to store to *stored: Turtle and
 * N-Triples bodies as they are (an N-Triples document is Turtle), RDF/XML rewritten as flat Turtle
 * (rdf_write_turtle_compact, abbreviating the namespaces of prefixes: pairs of name and IRI, then NULL;
 * NULL for rdf: and xsd: only) with IRIs relative to base. forbid_containment rejects ldp:contains
 * triples. message (size bytes) says what is wrong. */
enum ldp_rdf_result ldp_rdf_check_body(enum ldp_media media, const char *data, size_t len, const char *base,
                                       const char *source_name, bool forbid_containment,
                                       const char *const *prefixes, buf *stored, char *message, size_t size);

/* Serializes the stored Turtle (base: the resource's URI) in media `to`, a type other than Turtle.
 * Returns 0; 1 when the text would pass the size bound or cannot hold every triple (RDF/XML: a predicate
 * with no XML name; message says which; the client may ask for the stored Turtle instead); -1 with message
 * when it cannot be converted. */
int ldp_rdf_convert(const char *turtle, size_t len, const char *base, enum ldp_media to, buf *out, char *message,
                    size_t size);

#endif
