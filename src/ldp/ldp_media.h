/* ldp_media.h: the RDF media types the LDP server reads and writes, and content negotiation.
 *
 * Bodies may be Turtle, N-Triples or RDF/XML (the triple syntaxes raptor2 parses); representations
 * are served as Turtle or N-Triples (RDF/XML too once rdf/rdfio writes it). Turtle is the stored form
 * and the server's preference. */
#ifndef LDGSM_LDP_MEDIA_H
#define LDGSM_LDP_MEDIA_H

#include <stdbool.h>

#include "rdf/rdfio.h"

enum ldp_media { LDP_MEDIA_TURTLE, LDP_MEDIA_NTRIPLES, LDP_MEDIA_RDFXML, LDP_MEDIA_COUNT };

/* What Accept-Post and Accept-Put announce (request bodies). */
#define LDP_ACCEPTED_TYPES "text/turtle, application/n-triples, application/rdf+xml"

const char *ldp_media_type(enum ldp_media media);
enum rdf_syntax ldp_media_syntax(enum ldp_media media);

/* True when a Content-Type value (NULL: none) names type (parameters ignored, case-insensitive). */
bool ldp_media_type_is(const char *content_type, const char *type);

/* The media of a Content-Type value (parameters ignored); -1 when it is none of ours. */
int ldp_media_from_content_type(const char *content_type);

/* The representation to serve for an Accept header (NULL: no header): the served type with the
 * highest quality, the server's order breaking ties; -1 when none is acceptable (406). */
int ldp_media_negotiate(const char *accept);

#endif
