/* archive.c: a status document's history moves to its archive (archive.h). */
#include "agent/archive.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"

char *archive_url_of(const char *doc_url) {
    buf url = {0};
    buf_printf(&url, "%s.history", doc_url);
    return buf_cstr(&url);
}

/* The sequence of an entry node of doc_url (<doc_url#t-N> with an integer literal), 0 when it is none. */
static unsigned long long entry_sequence(const terms *t, const agent_vocab *v, const char *doc_url, size_t url_len,
                                         const triple *tr) {
    if (tr->p != v->sequence || terms_kind(t, tr->o) != TERM_LITERAL || terms_kind(t, tr->s) != TERM_IRI)
        return 0;
    const char *node = terms_lex(t, tr->s, NULL);
    if (strncmp(node, doc_url, url_len) != 0 || strncmp(node + url_len, "#t-", 3) != 0)
        return 0;
    char *end;
    unsigned long long sequence = strtoull(terms_lex(t, tr->o, NULL), &end, 10);
    return *end ? 0 : sequence;
}

unsigned long long archive_entries(const terms *t, const agent_vocab *v, const char *doc_url, const triple *ts,
                                   size_t n, triple **out, size_t *out_count) {
    size_t url_len = strlen(doc_url);
    unsigned long long highest = 0;
    u64map nodes = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned long long sequence = entry_sequence(t, v, doc_url, url_len, &ts[i]);
        if (!sequence)
            continue;
        u64map_put(&nodes, ts[i].s, 1, NULL);
        if (sequence > highest)
            highest = sequence;
    }
    if (nodes.count) {
        size_t count = *out_count;
        *out = xrealloc(*out, (count + n) * sizeof **out);
        for (size_t i = 0; i < n; i++)
            if (u64map_get(&nodes, ts[i].s))
                (*out)[count++] = ts[i];
        *out_count = count;
    }
    u64map_free(&nodes);
    return highest;
}

unsigned long long archive_through(const terms *t, const agent_vocab *v, term_id doc, const triple *ts, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (ts[i].s == doc && ts[i].p == v->archived_through && terms_kind(t, ts[i].o) == TERM_LITERAL) {
            char *end;
            unsigned long long through = strtoull(terms_lex(t, ts[i].o, NULL), &end, 10);
            return *end ? 0 : through;
        }
    return 0;
}
