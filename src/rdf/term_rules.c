/* term_rules.c: the characters no IRI may hold (term_rules.h). */
#include "rdf/term_rules.h"

#include <string.h>

size_t rdf_iri_forbidden_at(const char *iri, size_t len) {
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)iri[i] <= ' ' || strchr("<>\"{}|^`\\", iri[i]))
            return i;
    return len;
}
