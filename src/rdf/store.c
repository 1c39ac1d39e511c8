/* store.c: triples in an append-only array, six hash indexes (S, P, O, SP, SO, PO) mapping a key to a
 * bucket of ascending triple numbers (with the triples, but in P), and an open-addressing set of triple
 * numbers for de-duplication (each slot keeps 32 bits of the triple's hash beside its number, so a probe
 * reads the triple array only for a triple it finds). Most buckets hold one or two triples; those live
 * inside the bucket, the others in a pool. Graph membership: the first source is kept in the triple's
 * record, a second in an array beside the records, further ones in a (triple, graph) set; each graph
 * keeps the ascending list of its triples. */
#include "rdf/store.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"

enum { IX_S, IX_P, IX_O, IX_SP, IX_SO, IX_PO, IX_COUNT };

/* A triple and its number: the entries of every index bucket but P's. Buckets keep the whole triple, not
 * just its number, so a join walking a bucket never touches the triple array (one random access saved per
 * candidate). P's buckets keep numbers only: P holds every triple, a quarter of the store at 16 bytes an
 * entry, and a walk of a predicate's triples reads the triple array in ascending order, which the
 * prefetcher follows (store_next_batch helps it). */
typedef struct triple_entry {
    term_id s, p, o;
    uint32_t n;
} triple_entry;

/* A slot of the de-duplication set: half the size of a triple_entry, and the set is the store's largest
 * array after the indexes. A triple the set holds is read from the triple array to confirm it; adding a
 * triple the set holds reads its record anyway (its sources). */
typedef struct set_slot {
    uint32_t ref; /* triple number + 1; 0: empty */
    uint32_t tag; /* the hash's high half (its low bits choose the slot) */
} set_slot;

/* Entries in ascending triple number; one of them inline, as most buckets hold one. */
typedef struct entry_list {
    uint32_t len, cap; /* cap == 1: inline */
    union {
        triple_entry inline_entry;
        triple_entry *heap;
    } u;
} entry_list;

typedef struct index {
    bool active; /* built on first use, then kept up to date */
    bool has_last; /* the key last added to and its bucket: derivations add runs of one key (one predicate,
                    * one class, one subject), and then the map is not asked */
    uint64_t last_key;
    uint32_t last_bucket;
    u64map key_to_bucket;
    entry_list *buckets; /* the others' */
    u32vec *numbers;     /* P's */
    uint32_t count, cap;
    /* SP and PO keep only the triples of the predicates a lookup asked for: a rule body names a few, and
     * most triples (the rdf:type ones of an RDFS closure above all) are never looked up by subject or
     * object with their predicate. Their entries are made from the P index when first asked for. */
    u64map predicates; /* predicate -> 1 */
    term_id last_predicate;
    bool last_predicate_kept;
} store_index;

/* Bucket entry arrays of up to POOL_MAX_ENTRIES come from a pool: blocks of 2, 4, 8, ... entries carved
 * out of chunks (growing from 64 KiB to 8 MiB, so a small store stays small and a large one is on huge
 * pages), and a block a bucket outgrew is kept for the next bucket that grows to its size. Most buckets
 * are small and grow a few times: from malloc that was a malloc, a copy and a free each time, a page
 * fault per 4 KiB, and freeing a large store was ~100 000 frees. Buckets double (they quadrupled: a
 * subject's two types took a block of four, and the pool was half empty). */
enum { POOL_CLASSES = 12, POOL_MAX_ENTRIES = 1u << POOL_CLASSES, POOL_FIRST_CHUNK = 64u << 10,
       POOL_LAST_CHUNK = 8u << 20 };

/* A block given back to the pool holds the link to the next free block of its size. */
typedef struct free_block {
    struct free_block *next;
} free_block;

typedef struct entry_pool {
    struct free_block *free_blocks[POOL_CLASSES + 1]; /* by class (cap 2^class) */
    char *chunk_at;
    size_t chunk_left, next_chunk;
    void **chunks;
    uint32_t chunk_count, chunk_cap;
} entry_pool;

typedef struct triple_rec {
    triple t;
    term_id first_graph;
} triple_rec;

struct store {
    triple_rec *triples;
    uint32_t count, cap;
    set_slot *spo; /* de-duplication set, at most half full */
    uint32_t spo_cap;
    store_index ix[IX_COUNT];
    entry_pool entry_pool;
    /* triple -> its second source, or 0; cap entries, allocated when a triple first gets one. Most second
     * sources are the derived graph's (a document's triple the rules derive too), and there are as many as
     * the documents have triples: a (triple, graph) map was 16 bytes a slot at most 70% full. */
    term_id *second_graph;
    u64map extra_graphs;  /* (triple << 32 | graph) -> 1 for sources beyond the second */
    u64map graph_to_list; /* graph -> slot in graph_lists */
    term_id last_graph;   /* bulk loads and derivations add to one graph in a row: skip the map */
    uint32_t last_graph_slot;
    u32vec *graph_lists;
    term_id *graph_terms; /* slot -> graph */
    uint32_t graph_count, graph_cap;
};

static uint64_t pair_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }

/* A multiplication spreads o over all 64 bits, one mix then mixes it with (s, p): a mix per part cost a
 * tenth of a large derivation's instructions, as every attempt and every rehash hashes a triple. */
static uint64_t spo_hash(term_id s, term_id p, term_id o) {
    return hash_mix64(pair_key(s, p) ^ (uint64_t)o * 0x9e3779b97f4a7c15ULL);
}

static uint64_t index_key(int ix, term_id s, term_id p, term_id o) {
    switch (ix) {
    case IX_S: return s;
    case IX_P: return p;
    case IX_O: return o;
    case IX_SP: return pair_key(s, p);
    case IX_SO: return pair_key(s, o);
    default: return pair_key(p, o);
    }
}

static const triple_entry *entries(const entry_list *l) { return l->cap == 1 ? &l->u.inline_entry : l->u.heap; }

static unsigned pool_class(uint32_t cap) { return (unsigned)__builtin_ctz(cap); }

static triple_entry *pool_take(entry_pool *pool, uint32_t cap) {
    unsigned class = pool_class(cap);
    free_block *spare = pool->free_blocks[class];
    if (spare) {
        pool->free_blocks[class] = spare->next;
        return (triple_entry *)spare;
    }
    size_t bytes = cap * sizeof(triple_entry);
    if (pool->chunk_left < bytes) {
        pool->next_chunk = pool->next_chunk ? pool->next_chunk : POOL_FIRST_CHUNK;
        if (pool->chunk_count == pool->chunk_cap) {
            pool->chunk_cap = pool->chunk_cap ? pool->chunk_cap * 2 : 8;
            pool->chunks = xrealloc(pool->chunks, pool->chunk_cap * sizeof *pool->chunks);
        }
        pool->chunk_at = xmalloc_huge(pool->next_chunk);
        pool->chunks[pool->chunk_count++] = pool->chunk_at;
        pool->chunk_left = pool->next_chunk;
        if (pool->next_chunk < POOL_LAST_CHUNK)
            pool->next_chunk *= 2;
    }
    triple_entry *block = (triple_entry *)pool->chunk_at;
    pool->chunk_at += bytes;
    pool->chunk_left -= bytes;
    return block;
}

static void pool_give_back(entry_pool *pool, triple_entry *block, uint32_t cap) {
    unsigned class = pool_class(cap);
    free_block *spare = (free_block *)block;
    spare->next = pool->free_blocks[class];
    pool->free_blocks[class] = spare;
}

static void pool_free(entry_pool *pool) {
    for (uint32_t i = 0; i < pool->chunk_count; i++)
        free(pool->chunks[i]);
    free(pool->chunks);
}

static void entry_list_push(entry_pool *pool, entry_list *l, triple_entry e) {
    if (l->len == l->cap) {
        uint32_t cap = l->cap * 2;
        triple_entry *heap;
        if (cap <= POOL_MAX_ENTRIES) {
            heap = pool_take(pool, cap);
            memcpy(heap, entries(l), l->len * sizeof *heap);
            if (l->cap != 1)
                pool_give_back(pool, l->u.heap, l->cap);
        } else if (l->cap == POOL_MAX_ENTRIES) {
            heap = xmalloc(cap * sizeof *heap);
            memcpy(heap, l->u.heap, l->len * sizeof *heap);
            pool_give_back(pool, l->u.heap, l->cap);
        } else { /* large: realloc can move the pages instead of copying them */
            heap = xrealloc(l->u.heap, cap * sizeof *heap);
        }
        l->u.heap = prefer_huge_pages(heap, cap * sizeof *heap);
        l->cap = cap;
    }
    (l->cap == 1 ? &l->u.inline_entry : l->u.heap)[l->len++] = e;
}

store *store_new(void) { return xcalloc(1, sizeof(store)); }

/* Frees what index ix holds (its pooled entries stay in the pool) and leaves it unbuilt. */
static void index_free(store_index *x, int ix) {
    for (uint32_t b = 0; b < x->count; b++)
        if (ix == IX_P)
            u32vec_free(&x->numbers[b]);
        else if (x->buckets[b].cap > POOL_MAX_ENTRIES)
            free(x->buckets[b].u.heap);
    free(x->buckets);
    free(x->numbers);
    u64map_free(&x->key_to_bucket);
    u64map_free(&x->predicates);
    *x = (store_index){0};
}

void store_free(store *st) {
    if (!st)
        return;
    for (int i = 0; i < IX_COUNT; i++)
        index_free(&st->ix[i], i);
    for (uint32_t g = 0; g < st->graph_count; g++)
        u32vec_free(&st->graph_lists[g]);
    free(st->graph_lists);
    free(st->graph_terms);
    free(st->second_graph);
    u64map_free(&st->graph_to_list);
    u64map_free(&st->extra_graphs);
    pool_free(&st->entry_pool);
    free(st->spo);
    free(st->triples);
    free(st);
}

void store_drop_lookup_indexes(store *st) {
    for (int i = 0; i < IX_COUNT; i++)
        if (i != IX_P)
            index_free(&st->ix[i], i);
    pool_free(&st->entry_pool); /* only the dropped indexes take entries from it */
    st->entry_pool = (entry_pool){0};
}

static bool by_predicate(int ix) { return ix == IX_SP || ix == IX_PO; }

/* Whether index ix keeps the triples of predicate p. */
static bool keeps(store_index *x, int ix, term_id p) {
    if (!by_predicate(ix))
        return true;
    if (p != x->last_predicate) {
        x->last_predicate = p;
        x->last_predicate_kept = u64map_get(&x->predicates, p) != NULL;
    }
    return x->last_predicate_kept;
}

/* Adds e to the bucket of key in index number which. */
static void index_add(entry_pool *pool, store_index *ix, int which, uint64_t key, triple_entry e) {
    if (!ix->has_last || ix->last_key != key) {
        bool inserted;
        uint32_t *bucket = u64map_put(&ix->key_to_bucket, key, ix->count, &inserted);
        if (inserted) {
            if (ix->count == ix->cap) {
                ix->cap = ix->cap ? ix->cap * 2 : 64;
                if (which == IX_P)
                    ix->numbers = xrealloc(ix->numbers, ix->cap * sizeof *ix->numbers);
                else
                    ix->buckets = prefer_huge_pages(xrealloc(ix->buckets, ix->cap * sizeof *ix->buckets),
                                                    ix->cap * sizeof *ix->buckets);
            }
            if (which == IX_P)
                ix->numbers[ix->count++] = (u32vec){0};
            else
                ix->buckets[ix->count++] = (entry_list){.cap = 1};
        }
        ix->has_last = true;
        ix->last_key = key;
        ix->last_bucket = *bucket;
    }
    if (which == IX_P)
        u32vec_push(&ix->numbers[ix->last_bucket], e.n);
    else
        entry_list_push(pool, &ix->buckets[ix->last_bucket], e);
}

static void graph_list_add(store *st, term_id g, uint32_t n) {
    if (g == st->last_graph) {
        u32vec_push(&st->graph_lists[st->last_graph_slot], n);
        return;
    }
    bool inserted;
    uint32_t *slot = u64map_put(&st->graph_to_list, g, st->graph_count, &inserted);
    if (inserted) {
        if (st->graph_count == st->graph_cap) {
            st->graph_cap = st->graph_cap ? st->graph_cap * 2 : 8;
            st->graph_lists = xrealloc(st->graph_lists, st->graph_cap * sizeof *st->graph_lists);
            st->graph_terms = xrealloc(st->graph_terms, st->graph_cap * sizeof *st->graph_terms);
        }
        st->graph_terms[st->graph_count] = g;
        st->graph_lists[st->graph_count++] = (u32vec){0};
    }
    st->last_graph = g;
    st->last_graph_slot = *slot;
    u32vec_push(&st->graph_lists[*slot], n);
}

/* Records g as a further source of triple n (not its first). */
static void add_source(store *st, uint32_t n, term_id g) {
    if (!st->second_graph)
        st->second_graph = xcalloc(st->cap, sizeof *st->second_graph);
    term_id *second = &st->second_graph[n];
    if (*second == g)
        return;
    if (!*second) {
        *second = g;
    } else {
        bool inserted;
        u64map_put(&st->extra_graphs, pair_key(n, g), 1, &inserted);
        if (!inserted)
            return;
    }
    graph_list_add(st, g, n);
}

/* The slot holding (s, p, o), or the empty slot where it would go. The set is never full. */
static uint32_t spo_slot(const store *st, uint64_t hash, term_id s, term_id p, term_id o) {
    uint32_t mask = st->spo_cap - 1, tag = (uint32_t)(hash >> 32);
    uint32_t i = (uint32_t)hash & mask;
    for (;; i = (i + 1) & mask) {
        const set_slot *slot = &st->spo[i];
        if (!slot->ref)
            return i;
        if (slot->tag == tag) {
            const triple *t = &st->triples[slot->ref - 1].t;
            if (t->s == s && t->p == p && t->o == o)
                return i;
        }
    }
}

uint32_t store_find(const store *st, term_id s, term_id p, term_id o) {
    if (!st->spo_cap)
        return UINT32_MAX;
    return st->spo[spo_slot(st, spo_hash(s, p, o), s, p, o)].ref - 1;
}

uint64_t store_hash(term_id s, term_id p, term_id o) { return spo_hash(s, p, o); }

void store_prefetch(const store *st, uint64_t hash) {
    if (st->spo_cap)
        __builtin_prefetch(&st->spo[(uint32_t)hash & (st->spo_cap - 1)]);
}

/* The set again at capacity cap, from the triple array (read in order, not the old set's scattered slots). */
static void spo_resize(store *st, uint32_t cap) {
    free(st->spo);
    set_slot *table = xcalloc_huge(cap, sizeof *table);
    uint32_t mask = cap - 1;
    for (uint32_t n = 0; n < st->count; n++) {
        const triple *t = &st->triples[n].t;
        uint64_t hash = spo_hash(t->s, t->p, t->o);
        uint32_t i = (uint32_t)hash & mask;
        while (table[i].ref)
            i = (i + 1) & mask;
        table[i] = (set_slot){n + 1, (uint32_t)(hash >> 32)};
    }
    st->spo = table;
    st->spo_cap = cap;
}

/* The triple array (and the second sources beside it) with room for cap triples. */
static void grow_triples(store *st, uint32_t cap) {
    st->triples = prefer_huge_pages(xrealloc(st->triples, cap * sizeof *st->triples), cap * sizeof *st->triples);
    if (st->second_graph) {
        st->second_graph = xrealloc(st->second_graph, cap * sizeof *st->second_graph);
        memset(st->second_graph + st->cap, 0, (cap - st->cap) * sizeof *st->second_graph);
    }
    st->cap = cap;
}

void store_reserve(store *st, uint32_t more) {
    uint64_t count = (uint64_t)st->count + more;
    if (count * 2 > st->spo_cap) {
        uint32_t cap = st->spo_cap ? st->spo_cap : 1024;
        while ((uint64_t)cap < count * 2)
            cap *= 2;
        spo_resize(st, cap);
    }
    if (count > st->cap)
        grow_triples(st, (uint32_t)count);
}

/* The one insertion path: record_source says whether a known triple also records g as a source. */
static bool add_triple(store *st, uint64_t hash, term_id s, term_id p, term_id o, term_id g, bool record_source) {
    /* one probe finds the triple or the slot it goes to (the set grows first, so that slot stays valid) */
    if ((uint64_t)(st->count + 1) * 2 > st->spo_cap)
        spo_resize(st, st->spo_cap ? st->spo_cap * 2 : 1024);
    uint32_t slot = spo_slot(st, hash, s, p, o);
    if (st->spo[slot].ref) {
        uint32_t existing = st->spo[slot].ref - 1;
        if (record_source && g && st->triples[existing].first_graph != g)
            add_source(st, existing, g);
        return false;
    }
    if (st->count == st->cap)
        grow_triples(st, st->cap ? st->cap * 2 : 1024);
    uint32_t n = st->count++;
    st->spo[slot] = (set_slot){n + 1, (uint32_t)(hash >> 32)};
    st->triples[n] = (triple_rec){.t = {s, p, o}, .first_graph = g};
    for (int i = 0; i < IX_COUNT; i++)
        if (st->ix[i].active && keeps(&st->ix[i], i, p))
            index_add(&st->entry_pool, &st->ix[i], i, index_key(i, s, p, o), (triple_entry){s, p, o, n});
    if (g)
        graph_list_add(st, g, n);
    return true;
}

bool store_add(store *st, term_id s, term_id p, term_id o, term_id g) {
    return add_triple(st, spo_hash(s, p, o), s, p, o, g, true);
}

uint32_t store_add_batch(store *st, const triple *ts, const uint64_t *hashes, uint32_t n, term_id g) {
    /* Three passes so the cache misses of a batch overlap: the de-duplication slots (prefetched by the
     * caller) tell which triples are new; for those, the index slots they will update are prefetched;
     * then they are added (add_triple checks again: a batch may hold one triple twice). */
    bool fresh[256];
    uint32_t added = 0;
    for (uint32_t start = 0; start < n; start += 256) {
        uint32_t end = n - start < 256 ? n : start + 256;
        for (uint32_t i = start; i < end; i++) {
            const set_slot *slot = st->spo_cap ? &st->spo[spo_slot(st, hashes[i], ts[i].s, ts[i].p, ts[i].o)] : NULL;
            fresh[i - start] = !slot || !slot->ref;
            if (!fresh[i - start]) {
                /* a triple read from a document and derived as well comes from both (a reader of sources,
                 * such as an instance's view, sees it through either); derived again, nothing changes */
                uint32_t known = slot->ref - 1;
                if (g && st->triples[known].first_graph != g && !store_has_more_graphs(st, known))
                    add_source(st, known, g);
                continue;
            }
            for (int x = 0; x < IX_COUNT; x++) {
                const u64map *m = &st->ix[x].key_to_bucket;
                if (st->ix[x].active && m->cap && keeps(&st->ix[x], x, ts[i].p))
                    __builtin_prefetch(&m->slots[hash_mix64(index_key(x, ts[i].s, ts[i].p, ts[i].o)) & (m->cap - 1)]);
            }
        }
        for (uint32_t i = start; i < end; i++)
            if (fresh[i - start])
                added += add_triple(st, hashes[i], ts[i].s, ts[i].p, ts[i].o, g, false);
    }
    return added;
}

uint32_t store_size(const store *st) { return st->count; }

const triple *store_triple(const store *st, uint32_t n) { return &st->triples[n].t; }

bool store_in_graph(const store *st, uint32_t n, term_id g) {
    if (st->triples[n].first_graph == g)
        return true;
    if (!store_has_more_graphs(st, n))
        return false;
    return st->second_graph[n] == g || u64map_get(&st->extra_graphs, pair_key(n, g)) != NULL;
}

term_id store_first_graph(const store *st, uint32_t n) { return st->triples[n].first_graph; }

bool store_has_more_graphs(const store *st, uint32_t n) { return st->second_graph && st->second_graph[n]; }

uint32_t store_graph_count(const store *st) { return st->graph_count; }

term_id store_graph_at(const store *st, uint32_t i) { return st->graph_terms[i]; }

static int u32_cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

const uint32_t *store_graph_triples(const store *st, term_id g, uint32_t *count) {
    const uint32_t *slot = u64map_get(&st->graph_to_list, g);
    if (!slot) {
        *count = 0;
        return NULL;
    }
    /* Extra sources are appended when discovered, so a list may be out of order; sort lazily. */
    u32vec *list = &((store *)st)->graph_lists[*slot];
    for (uint32_t i = 1; i < list->len; i++) {
        if (list->data[i - 1] > list->data[i]) {
            qsort(list->data, list->len, sizeof *list->data, u32_cmp);
            break;
        }
    }
    *count = list->len;
    return list->data;
}

/* Which index answers a pattern; -1 for "all bound" (hash lookup) and IX_COUNT for a full scan. */
static int choose_index(term_id s, term_id p, term_id o) {
    if (s && p && o)
        return -1;
    if (s && p)
        return IX_SP;
    if (s && o)
        return IX_SO;
    if (p && o)
        return IX_PO;
    if (s)
        return IX_S;
    if (p)
        return IX_P;
    if (o)
        return IX_O;
    return IX_COUNT;
}

/* The number at position i of bucket b of index x (number ix). */
static uint32_t number_at(const store_index *x, int ix, uint32_t b, uint32_t i) {
    return ix == IX_P ? x->numbers[b].data[i] : entries(&x->buckets[b])[i].n;
}

static uint32_t bucket_len(const store_index *x, int ix, uint32_t b) {
    return ix == IX_P ? x->numbers[b].len : x->buckets[b].len;
}

/* The first position of bucket b of index x (number ix) whose triple number is lo or more. */
static uint32_t lower_bound(const store_index *x, int ix, uint32_t b, uint32_t lo) {
    uint32_t first = 0, last = bucket_len(x, ix, b);
    while (first < last) {
        uint32_t mid = first + (last - first) / 2;
        if (number_at(x, ix, b, mid) < lo)
            first = mid + 1;
        else
            last = mid;
    }
    return first;
}

/* Builds index ix over the triples so far; from then on store_add maintains it. Indexes no lookup
 * needs are never built: a rule set touching only P, SP and PO patterns pays for three, not six. SP and
 * PO are built for predicate p (the lookup's) from the P index. */
static store_index *use_index(store *st, int ix, term_id p) {
    store_index *x = &st->ix[ix];
    if (by_predicate(ix)) {
        x->active = true;
        if (keeps(x, ix, p))
            return x;
        bool inserted;
        u64map_put(&x->predicates, p, 1, &inserted);
        x->last_predicate_kept = true;
        const store_index *by_p = use_index(st, IX_P, 0);
        const uint32_t *bucket = u64map_get(&by_p->key_to_bucket, p);
        if (bucket) { /* in ascending number, as the bucket is */
            const u32vec *l = &by_p->numbers[*bucket];
            for (uint32_t i = 0; i < l->len; i++) {
                const triple *t = &st->triples[l->data[i]].t;
                index_add(&st->entry_pool, x, ix, index_key(ix, t->s, t->p, t->o),
                          (triple_entry){t->s, t->p, t->o, l->data[i]});
            }
        }
        return x;
    }
    if (!x->active) {
        x->active = true;
        for (uint32_t n = 0; n < st->count; n++) {
            const triple *t = &st->triples[n].t;
            index_add(&st->entry_pool, x, ix, index_key(ix, t->s, t->p, t->o), (triple_entry){t->s, t->p, t->o, n});
        }
    }
    return x;
}

void store_match(store *st, term_id s, term_id p, term_id o, uint32_t lo, uint32_t hi, store_iter *it) {
    *it = (store_iter){.st = st, .hi = hi < st->count ? hi : st->count, .pattern = {s, p, o}};
    it->index = choose_index(s, p, o);
    if (it->index == -1) {
        uint32_t n = store_find(st, s, p, o);
        bool in_range = n != UINT32_MAX && n >= lo && n < it->hi;
        it->pos = in_range ? n : 0;
        it->end = in_range ? n + 1 : 0;
        return;
    }
    if (it->index == IX_COUNT) {
        it->pos = lo;
        it->end = it->hi;
        return;
    }
    const store_index *ix = use_index(st, it->index, p);
    const uint32_t *bucket = u64map_get(&ix->key_to_bucket, index_key(it->index, s, p, o));
    if (!bucket) {
        it->pos = it->end = 0;
        return;
    }
    it->bucket = *bucket;
    it->pos = lower_bound(ix, it->index, *bucket, lo);
    it->end = UINT32_MAX; /* bounded by hi while iterating */
}

const triple *store_next(store_iter *it, uint32_t *n) {
    if (it->index == -1 || it->index == IX_COUNT) {
        if (it->pos >= it->end)
            return NULL;
        *n = it->pos++;
        return &it->st->triples[*n].t;
    }
    if (it->end == 0)
        return NULL;
    const store_index *x = &it->st->ix[it->index];
    if (it->pos >= bucket_len(x, it->index, it->bucket) || number_at(x, it->index, it->bucket, it->pos) >= it->hi)
        return NULL;
    *n = number_at(x, it->index, it->bucket, it->pos++);
    /* the triple array, not the index entry: a match made meanwhile may build an index and move entries */
    return &it->st->triples[*n].t;
}

uint32_t store_next_batch(store_iter *it, store_entry *out, uint32_t max) {
    if (it->index == -1 || it->index == IX_COUNT) {
        uint32_t got = 0;
        for (; got < max && it->pos < it->end; got++, it->pos++)
            out[got] = (store_entry){it->st->triples[it->pos].t, it->pos};
        return got;
    }
    if (it->end == 0)
        return 0;
    uint32_t got = 0;
    if (it->index == IX_P) {
        const u32vec *v = &it->st->ix[IX_P].numbers[it->bucket];
        const triple_rec *triples = it->st->triples;
        enum { AHEAD = 8 }; /* the triple array is read at the bucket's numbers: ask for a few ahead */
        for (uint32_t pos = it->pos; got < max && pos < v->len && v->data[pos] < it->hi; got++, pos++) {
            if (pos + AHEAD < v->len)
                __builtin_prefetch(&triples[v->data[pos + AHEAD]]);
            out[got] = (store_entry){triples[v->data[pos]].t, v->data[pos]};
        }
    } else {
        const entry_list *v = &it->st->ix[it->index].buckets[it->bucket];
        const triple_entry *e = entries(v);
        for (uint32_t pos = it->pos; got < max && pos < v->len && e[pos].n < it->hi; got++, pos++)
            out[got] = (store_entry){{e[pos].s, e[pos].p, e[pos].o}, e[pos].n};
    }
    it->pos += got;
    return got;
}

uint32_t store_count(store *st, term_id s, term_id p, term_id o, uint32_t lo, uint32_t hi) {
    if (hi > st->count)
        hi = st->count;
    if (lo >= hi)
        return 0;
    int ix = choose_index(s, p, o);
    if (ix == -1) {
        uint32_t n = store_find(st, s, p, o);
        return n != UINT32_MAX && n >= lo && n < hi;
    }
    if (ix == IX_COUNT)
        return hi - lo;
    const store_index *x = use_index(st, ix, p);
    const uint32_t *bucket = u64map_get(&x->key_to_bucket, index_key(ix, s, p, o));
    if (!bucket)
        return 0;
    return lower_bound(x, ix, *bucket, hi) - lower_bound(x, ix, *bucket, lo);
}

uint32_t store_estimate(store *st, term_id s, term_id p, term_id o) {
    int ix = choose_index(s, p, o);
    if (ix == -1)
        return 1;
    if (ix == IX_COUNT)
        return st->count;
    const store_index *x = use_index(st, ix, p);
    const uint32_t *bucket = u64map_get(&x->key_to_bucket, index_key(ix, s, p, o));
    return bucket ? bucket_len(x, ix, *bucket) : 0;
}

term_id store_first_object(store *st, term_id s, term_id p) {
    store_iter it;
    store_match(st, s, p, 0, 0, store_size(st), &it);
    uint32_t n;
    const triple *tr = store_next(&it, &n);
    return tr ? tr->o : 0;
}

bool store_any(store *st, term_id s, term_id p, term_id o) {
    store_iter it;
    store_match(st, s, p, o, 0, store_size(st), &it);
    uint32_t n;
    return store_next(&it, &n) != NULL;
}

void store_objects(store *st, term_id s, term_id p, u32vec *out) {
    out->len = 0;
    store_iter it;
    store_match(st, s, p, 0, 0, store_size(st), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        u32vec_push(out, tr->o);
}

void store_subjects(store *st, term_id p, term_id o, u32vec *out) {
    out->len = 0;
    store_iter it;
    store_match(st, 0, p, o, 0, store_size(st), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        u32vec_push(out, tr->s);
}
