/* raptor_pool.h: the inside of an rdfio (rdfio.h), for the files of rdf/ that use its raptor2 worlds: the
 * parser (rdfio.c) and the serializers (rdf_serialize.c). The worlds come from the process-wide pool of
 * raptor_pool.c; no caller outside rdf/ needs this. */
#ifndef LDGSM_RDF_RAPTOR_POOL_H
#define LDGSM_RDF_RAPTOR_POOL_H

#include <raptor2.h>

#include "rdf/term.h"

/* The most parts a document is split into, each read by a raptor2 parser on a world of its own. */
enum { RDFIO_MAX_PARTS = 2 };

struct rdfio {
    raptor_world *world;
    raptor_world *part_worlds[RDFIO_MAX_PARTS - 1]; /* a split document's later parts', made when first needed */
    terms *t;
};

#endif
