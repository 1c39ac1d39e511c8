/* ldp_link.c: reads the rel="type" targets of Link header values (rdf/web_link.h) into an LDP
 * interaction model. */
#include "ldp/ldp_link.h"

#include <stddef.h>
#include <string.h>

#include "rdf/vocab_ns.h"
#include "rdf/web_link.h"

static enum ldp_model model_of(const char *iri, size_t len) {
    static const struct {
        const char *name;
        enum ldp_model model;
    } types[] = {
        {"Resource", LDP_MODEL_RESOURCE},          {"RDFSource", LDP_MODEL_RESOURCE},
        {"Container", LDP_MODEL_CONTAINER},        {"BasicContainer", LDP_MODEL_CONTAINER},
        {"DirectContainer", LDP_MODEL_UNSUPPORTED}, {"IndirectContainer", LDP_MODEL_UNSUPPORTED},
        {"NonRDFSource", LDP_MODEL_UNSUPPORTED},
    };
    size_t ns = strlen(NS_LDP);
    if (len <= ns || strncmp(iri, NS_LDP, ns) != 0)
        return LDP_MODEL_NONE;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == len - ns && strncmp(iri + ns, types[i].name, len - ns) == 0)
            return types[i].model;
    return LDP_MODEL_NONE;
}

void ldp_link_model(const char *value, enum ldp_model *model) {
    web_link link;
    for (const char *cursor = value; web_link_next(&cursor, &link);) {
        enum ldp_model found = model_of(link.target, link.target_len);
        if (found > *model && web_link_has_rel(&link, "type"))
            *model = found;
    }
}

const char *ldp_link_types(bool container) {
    return container ? "<" NS_LDP "BasicContainer>; rel=\"type\", <" NS_LDP "Container>; rel=\"type\", <" NS_LDP
                       "RDFSource>; rel=\"type\", <" NS_LDP "Resource>; rel=\"type\""
                     : "<" NS_LDP "RDFSource>; rel=\"type\", <" NS_LDP "Resource>; rel=\"type\"";
}
