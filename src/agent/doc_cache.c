/* doc_cache.c: parsed documents per strong ETag, across iterations (doc_cache.h). */
#include "agent/doc_cache.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "rdf/strmap.h"

typedef struct entry {
    char *resource, *etag, *base;
    triple *ts;
    size_t n;
    bool takes_n3_patch;
    unsigned long used; /* the last iteration a GET took it (or a write kept it) */
} entry;

struct doc_cache {
    strmap index; /* resource -> entry */
    entry *entries;
    size_t count, cap;
    unsigned long iteration;
};

doc_cache *doc_cache_new(void) { return xcalloc(1, sizeof(doc_cache)); }

static void entry_free(entry *e) {
    free(e->resource);
    free(e->etag);
    free(e->base);
    free(e->ts);
}

void doc_cache_free(doc_cache *c) {
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++)
        entry_free(&c->entries[i]);
    free(c->entries);
    strmap_free(&c->index);
    free(c);
}

/* The map has no removal: it is made again from the entries kept. */
static void reindex(doc_cache *c) {
    strmap_free(&c->index);
    c->index = (strmap){0};
    for (size_t i = 0; i < c->count; i++)
        strmap_put(&c->index, c->entries[i].resource, (uint32_t)i, NULL);
}

void doc_cache_begin_iteration(doc_cache *c, unsigned long iteration) {
    c->iteration = iteration;
    size_t kept = 0;
    for (size_t i = 0; i < c->count; i++) {
        if (iteration - c->entries[i].used > DOC_CACHE_IDLE_ITERATIONS)
            entry_free(&c->entries[i]);
        else
            c->entries[kept++] = c->entries[i];
    }
    if (kept != c->count) {
        c->count = kept;
        reindex(c);
    }
}

static entry *find(const doc_cache *c, const char *resource) {
    const uint32_t *i = strmap_get(&c->index, resource);
    return i ? &c->entries[*i] : NULL;
}

const char *doc_cache_etag(const doc_cache *c, const char *resource) {
    const entry *e = find(c, resource);
    return e ? e->etag : NULL;
}

const triple *doc_cache_take(doc_cache *c, const char *resource, const char *etag, const char *base, size_t *count,
                             bool *takes_n3_patch) {
    entry *e = find(c, resource);
    if (!e || !etag || strcmp(e->etag, etag) != 0 || strcmp(e->base, base) != 0)
        return NULL;
    e->used = c->iteration;
    *count = e->n;
    *takes_n3_patch = e->takes_n3_patch;
    return e->ts;
}

void doc_cache_keep(doc_cache *c, const char *resource, const char *etag, const char *base, bool takes_n3_patch,
                    triple *ts, size_t n) {
    entry *e = find(c, resource);
    if (e) {
        free(e->etag);
        free(e->base);
        free(e->ts);
    } else {
        if (c->count == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 16;
            c->entries = xrealloc(c->entries, c->cap * sizeof *c->entries);
        }
        strmap_put(&c->index, resource, (uint32_t)c->count, NULL);
        e = &c->entries[c->count++];
        e->resource = xstrndup(resource, strlen(resource));
    }
    e->etag = xstrndup(etag, strlen(etag));
    e->base = xstrndup(base, strlen(base));
    e->ts = ts;
    e->n = n;
    e->takes_n3_patch = takes_n3_patch;
    e->used = c->iteration;
}

void doc_cache_forget(doc_cache *c, const char *resource) {
    entry *e = find(c, resource);
    if (!e)
        return;
    entry_free(e);
    *e = c->entries[--c->count];
    reindex(c);
}

static term_id renamed(terms *t, u64map *fresh, term_id id) {
    if (terms_kind(t, id) != TERM_BNODE)
        return id;
    bool added;
    uint32_t *to = u64map_put(fresh, id, 0, &added);
    if (added)
        *to = terms_fresh_bnode(t);
    return *to;
}

void doc_cache_keep_written(doc_cache *c, terms *t, const char *resource, const char *etag, const char *base,
                            bool takes_n3_patch, const triple *ts, size_t n) {
    triple *copy = xmalloc((n ? n : 1) * sizeof *copy);
    u64map fresh = {0};
    for (size_t i = 0; i < n; i++) {
        /* a list is written as a collection, which reads back as rdf:first/rest nodes: the written triples
         * are then not what a parse of the document gives */
        for (const term_id *x = &ts[i].s; x <= &ts[i].o; x++)
            if (terms_kind(t, *x) == TERM_LIST || terms_kind(t, *x) == TERM_FORMULA) {
                u64map_free(&fresh);
                free(copy);
                doc_cache_forget(c, resource);
                return;
            }
        copy[i] = (triple){renamed(t, &fresh, ts[i].s), ts[i].p, renamed(t, &fresh, ts[i].o)};
    }
    u64map_free(&fresh);
    doc_cache_keep(c, resource, etag, base, takes_n3_patch, copy, n);
}

size_t doc_cache_held_terms(doc_cache *c, term_id ***held) {
    size_t count = 0;
    for (size_t i = 0; i < c->count; i++)
        count += 3 * c->entries[i].n;
    term_id **at = *held = xmalloc((count ? count : 1) * sizeof **held);
    for (size_t i = 0; i < c->count; i++)
        for (size_t k = 0; k < c->entries[i].n; k++) {
            *at++ = &c->entries[i].ts[k].s;
            *at++ = &c->entries[i].ts[k].p;
            *at++ = &c->entries[i].ts[k].o;
        }
    return count;
}

size_t doc_cache_entries(const doc_cache *c, size_t *triples) {
    size_t n = 0;
    for (size_t i = 0; i < c->count; i++)
        n += c->entries[i].n;
    *triples = n;
    return c->count;
}
