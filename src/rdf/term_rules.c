/* term_rules.c: the characters no IRI may hold, escapes of U+0000 (term_rules.h). */
#include "rdf/term_rules.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "rdf/vocab_ns.h"

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

size_t rdf_nt_nul_escape_at(const char *text, size_t len) {
    /* only inside literals: "\u0000" in a comment is text, an IRI cannot hold a backslash escape of it */
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '<') {
            const char *close = memchr(text + i, '>', len - i);
            i = close ? (size_t)(close - text) : len;
        } else if (text[i] == '#') {
            const char *eol = memchr(text + i, '\n', len - i);
            i = eol ? (size_t)(eol - text) : len;
        } else if (text[i] == '"') {
            size_t start = i++;
            while (i < len && text[i] != '"' && text[i] != '\n')
                i += text[i] == '\\' ? 2 : 1;
            size_t end = i < len ? i : len;
            size_t at = rdf_nul_escape_at(text + start, end - start);
            if (at < end - start)
                return start + at;
        }
    }
    return len;
}

size_t rdf_nul_escape_at(const char *text, size_t len) {
    for (const char *p = text, *end = text + len; (p = memchr(p, '\\', (size_t)(end - p)));) {
        const char *run = p;
        while (p < end && *p == '\\')
            p++;
        if ((p - run) % 2 == 0 || p == end)
            continue; /* escaped backslashes */
        size_t digits = *p == 'u' ? 4 : *p == 'U' ? 8 : 0, zeros = 0;
        while (zeros < digits && p + 1 + zeros < end && p[1 + zeros] == '0')
            zeros++;
        if (digits && zeros == digits)
            return (size_t)(p - 1 - text);
    }
    return len;
}

bool rdf_iri_bad_ordinal(const char *iri, size_t len) {
    static const char prefix[] = NS_RDF "_";
    size_t at = sizeof prefix - 1;
    if (len < at || memcmp(iri, prefix, at) != 0)
        return false;
    if (at == len)
        return true;
    /* raptor2 reads the number into a 32-bit int, wrapping: a value that wraps to 0 or below is refused
     * (rdf:_2147483648, rdf:_4294967296) while rdf:_99999999999 passes */
    uint32_t wrapped = 0;
    for (; at < len; at++) {
        if (iri[at] < '0' || iri[at] > '9')
            return true;
        wrapped = wrapped * 10u + (uint32_t)(iri[at] - '0');
    }
    return wrapped == 0 || wrapped > INT32_MAX;
}
