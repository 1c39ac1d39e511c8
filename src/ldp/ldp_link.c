/* ldp_link.c: reads the rel="type" targets of Link header values (RFC 8288) into an LDP
 * interaction model. */
#include "ldp/ldp_link.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "rdf/vocab_ns.h"

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

/* True when the parameters [p, end) hold rel="... type ..." (rel is a space-separated list). */
static bool rel_is_type(const char *p, const char *end) {
    while (p < end) {
        while (p < end && (*p == ';' || *p == ' ' || *p == '\t'))
            p++;
        const char *name = p;
        while (p < end && *p != '=' && *p != ';')
            p++;
        size_t name_len = (size_t)(p - name);
        while (name_len && (name[name_len - 1] == ' ' || name[name_len - 1] == '\t'))
            name_len--;
        if (p >= end || *p != '=')
            continue;
        p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        bool quoted = p < end && *p == '"';
        if (quoted)
            p++;
        const char *value = p;
        while (p < end && (quoted ? *p != '"' : *p != ';'))
            p++;
        const char *value_end = p;
        if (quoted && p < end)
            p++;
        if (name_len != 3 || strncasecmp(name, "rel", 3) != 0)
            continue;
        for (const char *w = value; w < value_end;) {
            while (w < value_end && *w == ' ')
                w++;
            const char *word = w;
            while (w < value_end && *w != ' ')
                w++;
            if (w - word == 4 && strncasecmp(word, "type", 4) == 0)
                return true;
        }
    }
    return false;
}

void ldp_link_model(const char *value, enum ldp_model *model) {
    const char *p = value;
    while (*p) {
        const char *open = strchr(p, '<');
        if (!open)
            return;
        const char *close = strchr(open, '>');
        if (!close)
            return;
        /* The link's parameters run to the next ',' outside a quoted string. */
        const char *end = close + 1;
        bool in_quotes = false;
        while (*end && (in_quotes || *end != ',')) {
            if (*end == '"')
                in_quotes = !in_quotes;
            end++;
        }
        enum ldp_model found = model_of(open + 1, (size_t)(close - open - 1));
        if (found > *model && rel_is_type(close + 1, end))
            *model = found;
        p = *end ? end + 1 : end;
    }
}

const char *ldp_link_types(bool container) {
    return container ? "<" NS_LDP "BasicContainer>; rel=\"type\", <" NS_LDP "Container>; rel=\"type\", <" NS_LDP
                       "RDFSource>; rel=\"type\", <" NS_LDP "Resource>; rel=\"type\""
                     : "<" NS_LDP "RDFSource>; rel=\"type\", <" NS_LDP "Resource>; rel=\"type\"";
}
