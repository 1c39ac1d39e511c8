/* term_rules.c: the characters no IRI may hold (term_rules.h). */
#include "rdf/term_rules.h"

#include <stdbool.h>

/* Every IRI of every document read passes here: a table, not a strchr per character (5% of reading a
 * large Turtle file, callgrind). */
static const bool forbidden_in_iri[256] = {
    [0 ... ' '] = true, ['<'] = true, ['>'] = true, ['"'] = true, ['{'] = true,
    ['}'] = true,       ['|'] = true, ['^'] = true, ['`'] = true, ['\\'] = true,
};

size_t rdf_iri_forbidden_at(const char *iri, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (forbidden_in_iri[(unsigned char)iri[i]])
            return i;
    return len;
}
