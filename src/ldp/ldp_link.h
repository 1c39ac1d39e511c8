/* ldp_link.h: the interaction model a client asks for in Link headers (`<...ldp#BasicContainer>;
 * rel="type"`), as LDP 1.0 section 5.2.3.4 describes, and the Link header the server sends back. */
#ifndef LDGSM_LDP_LINK_H
#define LDGSM_LDP_LINK_H

#include <stdbool.h>

enum ldp_model {
    LDP_MODEL_NONE,        /* no LDP type asked for */
    LDP_MODEL_RESOURCE,    /* ldp:Resource or ldp:RDFSource */
    LDP_MODEL_CONTAINER,   /* ldp:BasicContainer or ldp:Container */
    LDP_MODEL_UNSUPPORTED, /* ldp:DirectContainer, ldp:IndirectContainer, ldp:NonRDFSource */
};

/* Folds one Link header value into *model (several headers fold in turn): the most specific type
 * wins, an unsupported one over any other. Non-LDP types and other relations are ignored. */
void ldp_link_model(const char *value, enum ldp_model *model);

/* The Link header value describing a resource or a container. */
const char *ldp_link_types(bool container);

#endif
