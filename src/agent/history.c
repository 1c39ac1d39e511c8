/* history.c: the bounded history of a composed update (history.h). */
#include "agent/history.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/archive.h"
#include "rdf/buf.h"
#include "rdf/hashmap.h"

typedef struct entry {
    unsigned long long sequence;
    term_id node;
} entry;

static int entry_cmp(const void *a, const void *b) {
    const entry *x = a, *y = b;
    return x->sequence < y->sequence ? -1 : x->sequence > y->sequence;
}

static int term_cmp(const void *a, const void *b) {
    term_id x = *(const term_id *)a, y = *(const term_id *)b;
    return x < y ? -1 : x > y;
}

/* The sorted distinct objects of (s, p) in ts[0..n); returns how many (into *out, caller frees). */
static size_t values_of(const triple *ts, size_t n, term_id s, term_id p, term_id **out) {
    size_t k = 0;
    *out = xmalloc((n ? n : 1) * sizeof **out);
    for (size_t i = 0; i < n; i++)
        if (ts[i].s == s && ts[i].p == p)
            (*out)[k++] = ts[i].o;
    qsort(*out, k, sizeof **out, term_cmp);
    size_t unique = 0; /* two updates may give a slot the same value */
    for (size_t i = 0; i < k; i++)
        if (!unique || (*out)[unique - 1] != (*out)[i])
            (*out)[unique++] = (*out)[i];
    return unique;
}

static void push(triple **ts, size_t *n, size_t *cap, term_id s, term_id p, term_id o) {
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *ts = xrealloc(*ts, *cap * sizeof **ts);
    }
    (*ts)[(*n)++] = (triple){s, p, o};
}

/* The entries the document holds: its fragments #t-N with an integer ldgsm:sequence. */
static size_t existing_entries(const history_input *in, const triple *ts, size_t n, entry **out) {
    size_t k = 0, url_len = strlen(in->doc_url);
    *out = xmalloc((n ? n : 1) * sizeof **out);
    for (size_t i = 0; i < n; i++) {
        if (ts[i].p != in->v->sequence || terms_kind(in->t, ts[i].o) != TERM_LITERAL)
            continue;
        const char *node = terms_lex(in->t, ts[i].s, NULL);
        char *end;
        unsigned long long sequence = strtoull(terms_lex(in->t, ts[i].o, NULL), &end, 10);
        if (!*end && strncmp(node, in->doc_url, url_len) == 0 && strncmp(node + url_len, "#t-", 3) == 0)
            (*out)[k++] = (entry){sequence, ts[i].s};
    }
    qsort(*out, k, sizeof **out, entry_cmp);
    return k;
}

void history_record(const history_input *in, const triple *before, size_t before_count, const history_slot *slots,
                    size_t slot_count, triple **next, size_t *next_count) {
    if (!in->limit || !in->clock)
        return;
    entry *entries;
    size_t entry_count = existing_entries(in, before, before_count, &entries);
    unsigned long long sequence = entry_count ? entries[entry_count - 1].sequence : 0;
    /* entries moved to the archive (archive.h) are numbered on from */
    unsigned long long archived = archive_through(in->t, in->v, terms_iri_cstr(in->t, in->doc_url), before, before_count);
    if (archived > sequence)
        sequence = archived;
    entries = xrealloc(entries, (entry_count + slot_count + 1) * sizeof *entries);
    size_t cap = *next_count, total = entry_count;
    u64map seen = {0}; /* a slot given by several updates is one change */
    for (size_t i = 0; i < slot_count; i++) {
        if (!in->tracked || !u64map_get(in->tracked, slots[i].p))
            continue;
        uint64_t slot_key = ((uint64_t)slots[i].s << 32) | slots[i].p;
        bool first;
        u64map_put(&seen, slot_key, 1, &first);
        if (!first)
            continue;
        term_id *old_values, *new_values;
        size_t old_count = values_of(before, before_count, slots[i].s, slots[i].p, &old_values);
        size_t new_count = values_of(*next, *next_count, slots[i].s, slots[i].p, &new_values);
        if (old_count != new_count || memcmp(old_values, new_values, old_count * sizeof *old_values) != 0) {
            buf iri = {0};
            buf_printf(&iri, "%s#t-%llu", in->doc_url, ++sequence);
            term_id node = terms_iri(in->t, iri.data, iri.len);
            buf_free(&iri);
            char number[24];
            snprintf(number, sizeof number, "%llu", sequence);
            push(next, next_count, &cap, node, in->v->sequence,
                 terms_literal(in->t, number, strlen(number), T_XSD_INTEGER, NULL, 0));
            push(next, next_count, &cap, node, in->v->at, in->clock);
            push(next, next_count, &cap, node, in->v->changed, slots[i].s);
            push(next, next_count, &cap, node, in->v->property, slots[i].p);
            for (size_t k = 0; k < old_count; k++)
                push(next, next_count, &cap, node, in->v->from, old_values[k]);
            for (size_t k = 0; k < new_count; k++)
                push(next, next_count, &cap, node, in->v->to, new_values[k]);
            entries[total++] = (entry){sequence, node};
        }
        free(old_values);
        free(new_values);
    }
    u64map_free(&seen);
    /* entries[] runs oldest first: those read, then those added in slot order */
    if (total > in->limit) {
        u64map dropped = {0};
        for (size_t i = 0; i < total - in->limit; i++)
            u64map_put(&dropped, entries[i].node, 1, NULL);
        size_t kept = 0;
        for (size_t i = 0; i < *next_count; i++)
            if (!u64map_get(&dropped, (*next)[i].s))
                (*next)[kept++] = (*next)[i];
        *next_count = kept;
        u64map_free(&dropped);
    }
    free(entries);
}
