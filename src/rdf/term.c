/* term.c: the interning term table. A hash index from content hash to the newest term with that hash;
 * terms sharing a hash are chained through `next_same_hash`. Text lives in an arena of large chunks so
 * the pointers handed out stay valid until the term is released (terms_release: never, unless its user
 * releases), and term records live in fixed chunks that never move, so a thread may read the terms it
 * was handed while another interns new ones (the streaming writer of `ldgsm reason` does). */
#include "rdf/term.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TERMS_CATCH_RELEASED 1
#else
#define TERMS_CATCH_RELEASED 0
#endif

/* 24 bytes (an agent's iteration interns hundreds of thousands): a language tag follows its literal's
 * text in the arena, and a list or formula has items where an atom has text. */
typedef struct term_rec {
    uint8_t kind;
    bool ground;
    bool has_lang;    /* a literal whose text is followed by its language tag */
    uint32_t len;     /* text length, or number of items (lists) / triples (formulas) */
    uint32_t next_same_hash;
    term_id datatype;
    union {
        const char *text; /* IRI, label, lexical form, variable name */
        term_id *items;   /* list items, or formula triples as s,p,o runs */
    } u;
} term_rec;

static const char *lang_of(const term_rec *r) { return r->has_lang ? r->u.text + r->len + 1 : NULL; }

/* A slot of the hash index: the newest term whose hash has this tag (the hash's high half, never 0: 0 is
 * an empty slot) and whose probe sequence meets this slot first. Terms whose hashes agree in that much
 * are chained as one hash's terms (interning compares the terms themselves). 8 bytes a slot, half a
 * u64map's: the index is as large as the records. */
typedef struct hash_slot {
    uint32_t tag;
    term_id newest; /* 0 once a release took every term of the chain */
} hash_slot;

typedef struct hash_index {
    hash_slot *slots;
    uint32_t used, cap; /* used: slots with a tag, at most 70% of cap */
} hash_index;

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t used, cap;
    char data[];
} arena_chunk;

/* Records live in chunks of REC_CHUNK; a growing directory points at them. A directory that is outgrown
 * stays allocated (listed in `retired`) until the table is freed, so a reader holding it stays safe. */
enum { REC_CHUNK_BITS = 10, REC_CHUNK = 1u << REC_CHUNK_BITS };

typedef struct retired_dir {
    struct retired_dir *next;
    term_rec **dir;
} retired_dir;

struct terms {
    term_rec **dir;    /* dir_cap chunk pointers, NULL past the last chunk; id 0 unused */
    uint32_t dir_cap;
    retired_dir *retired;
    uint32_t count;    /* written with release order, read with acquire where other threads read */
    hash_index by_hash;
    arena_chunk *arena;
    arena_chunk *spare; /* 64 KiB chunks a release emptied, taken again before new ones */
    uint64_t fresh_counter;
    uint32_t dead_from, dead_to; /* AddressSanitizer builds: ids in (dead_from, dead_to] were released */
    uint32_t dead;               /* ... and how many ids in all */
};

enum { ARENA_CHUNK = 65536 };

static void *arena_alloc(terms *t, size_t n) {
    n = (n + 7) & ~(size_t)7;
    if (!t->arena || t->arena->used + n > t->arena->cap) {
        size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;
        arena_chunk *c = t->spare;
        if (c && cap == ARENA_CHUNK)
            t->spare = c->next;
        else
            c = xmalloc(sizeof *c + cap);
        c->next = t->arena;
        c->used = 0;
        c->cap = cap;
        t->arena = c;
    }
    void *p = t->arena->data + t->arena->used;
    t->arena->used += n;
    return p;
}

static uint64_t atom_hash(int kind, const char *text, size_t len, term_id datatype, const char *lang,
                          size_t lang_len) {
    uint64_t h = hash_bytes(text, len, (uint64_t)kind * 0x9e3779b97f4a7c15ULL + datatype);
    if (lang)
        h = hash_bytes(lang, lang_len, h);
    return h;
}

static uint64_t items_hash(int kind, const term_id *items, size_t n) {
    return hash_bytes(items, n * sizeof *items, (uint64_t)kind * 0x51afd7ed558ccdULL);
}

static inline term_rec *rec_at(const terms *t, term_id id) {
    term_rec **dir = __atomic_load_n(&t->dir, __ATOMIC_ACQUIRE);
    return &dir[id >> REC_CHUNK_BITS][id & (REC_CHUNK - 1)];
}

static inline term_rec *rec_of(const terms *t, term_id id) {
#if TERMS_CATCH_RELEASED
    if (id > t->dead_from && id <= t->dead_to) {
        fprintf(stderr, "ldgsm: term %u used after terms_release released it\n", id);
        abort();
    }
#endif
    return rec_at(t, id);
}

static uint32_t hash_tag(uint64_t hash) { return (uint32_t)(hash >> 32) | 1; }

/* The slot of hash: the one with its tag, or the empty one where it goes (the index is never full). */
static hash_slot *hash_slot_of(const hash_index *x, uint64_t hash) {
    uint32_t mask = x->cap - 1, tag = hash_tag(hash);
    for (uint32_t i = (uint32_t)hash & mask;; i = (i + 1) & mask)
        if (x->slots[i].tag == tag || !x->slots[i].tag)
            return &x->slots[i];
}

/* The newest term of hash's chain, or 0. */
static term_id hash_newest(const hash_index *x, uint64_t hash) {
    return x->cap ? hash_slot_of(x, hash)->newest : 0;
}

static uint64_t rec_hash(const terms *t, term_id id);

/* An empty index of the capacity `expected` terms need. */
static void hash_index_reset(hash_index *x, uint32_t expected) {
    uint32_t cap = 16;
    while ((uint64_t)expected * 10 >= (uint64_t)cap * 7)
        cap *= 2;
    if (cap == x->cap) {
        memset(x->slots, 0, (size_t)cap * sizeof *x->slots);
    } else {
        free(x->slots);
        x->slots = xcalloc_huge(cap, sizeof *x->slots);
        x->cap = cap;
    }
    x->used = 0;
}

/* Makes id the newest term of hash's chain, and returns the one it follows (0: it starts the chain). */
static term_id hash_push(hash_index *x, uint64_t hash, term_id id) {
    hash_slot *slot = hash_slot_of(x, hash);
    if (!slot->tag) {
        slot->tag = hash_tag(hash);
        x->used++;
    }
    term_id next = slot->newest;
    slot->newest = id;
    return next;
}

/* The index again from the live terms, at the capacity `expected` terms need. */
static void rebuild_hash_index(terms *t, uint32_t expected) {
    hash_index_reset(&t->by_hash, expected);
    for (term_id id = 1; id <= t->count; id++) {
        term_rec *r = rec_at(t, id);
        if (r->kind != TERM_NONE)
            r->next_same_hash = hash_push(&t->by_hash, rec_hash(t, id), id);
    }
}

static void grow_dir(terms *t) {
    uint32_t cap = t->dir_cap ? t->dir_cap * 2 : 16;
    term_rec **dir = xcalloc(cap, sizeof *dir);
    if (t->dir_cap) {
        memcpy(dir, t->dir, t->dir_cap * sizeof *dir);
        retired_dir *old = xmalloc(sizeof *old);
        *old = (retired_dir){t->retired, t->dir};
        t->retired = old;
    }
    __atomic_store_n(&t->dir, dir, __ATOMIC_RELEASE);
    t->dir_cap = cap;
}

static term_id append_rec(terms *t, uint64_t hash, term_rec rec) {
    term_id id = t->count + 1;
    if (id == 0) {
        fputs("ldgsm: more than 4294967295 terms\n", stderr);
        abort();
    }
    uint32_t chunk = id >> REC_CHUNK_BITS;
    if (chunk >= t->dir_cap)
        grow_dir(t);
    if (!t->dir[chunk])
        t->dir[chunk] = xmalloc(REC_CHUNK * sizeof **t->dir);
    *rec_of(t, id) = rec;
    __atomic_store_n(&t->count, id, __ATOMIC_RELEASE);
    if ((uint64_t)(t->by_hash.used + 1) * 10 >= (uint64_t)t->by_hash.cap * 7)
        rebuild_hash_index(t, t->by_hash.cap ? t->by_hash.cap : 16); /* doubled: room for as many as it had slots */
    else
        rec_of(t, id)->next_same_hash = hash_push(&t->by_hash, hash, id);
    return id;
}

static term_id intern_atom(terms *t, enum term_kind kind, const char *text, size_t len, term_id datatype,
                           const char *lang, size_t lang_len) {
    uint64_t h = atom_hash(kind, text, len, datatype, lang, lang_len);
    for (term_id id = hash_newest(&t->by_hash, h); id; id = rec_of(t, id)->next_same_hash) {
        const term_rec *r = rec_of(t, id);
        if (r->kind == kind && r->len == len && r->datatype == datatype && memcmp(r->u.text, text, len) == 0 &&
            (lang ? (r->has_lang && strlen(lang_of(r)) == lang_len && memcmp(lang_of(r), lang, lang_len) == 0)
                  : !r->has_lang))
            return id;
    }
    char *copy = arena_alloc(t, len + 1 + (lang ? lang_len + 1 : 0));
    memcpy(copy, text, len);
    copy[len] = '\0';
    if (lang) {
        memcpy(copy + len + 1, lang, lang_len);
        copy[len + 1 + lang_len] = '\0';
    }
    term_rec rec = {.kind = (uint8_t)kind, .ground = kind != TERM_VAR, .has_lang = lang != NULL, .len = (uint32_t)len,
                    .datatype = datatype, .u.text = copy};
    return append_rec(t, h, rec);
}

static term_id intern_items(terms *t, enum term_kind kind, const term_id *items, size_t n) {
    uint64_t h = items_hash(kind, items, n);
    for (term_id id = hash_newest(&t->by_hash, h); id; id = rec_of(t, id)->next_same_hash) {
        const term_rec *r = rec_of(t, id);
        size_t stored = kind == TERM_FORMULA ? (size_t)r->len * 3 : r->len;
        if (r->kind == kind && stored == n && (n == 0 || memcmp(r->u.items, items, n * sizeof *items) == 0))
            return id;
    }
    term_rec rec = {.kind = (uint8_t)kind, .ground = true, .len = (uint32_t)(kind == TERM_FORMULA ? n / 3 : n)};
    rec.u.items = arena_alloc(t, n * sizeof *items);
    if (n)
        memcpy(rec.u.items, items, n * sizeof *items);
    for (size_t i = 0; i < n; i++)
        if (!rec_of(t, items[i])->ground)
            rec.ground = false;
    return append_rec(t, h, rec);
}

terms *terms_new(void) {
    terms *t = xcalloc(1, sizeof *t);
    static const char *const well_known[] = {
        [T_RDF_TYPE] = RDF_type,          [T_RDF_FIRST] = RDF_first,
        [T_RDF_REST] = RDF_rest,          [T_RDF_NIL] = RDF_nil,
        [T_RDF_LANGSTRING] = NS_RDF "langString", [T_XSD_STRING] = NS_XSD "string",
        [T_XSD_INTEGER] = NS_XSD "integer",    [T_XSD_DECIMAL] = NS_XSD "decimal",
        [T_XSD_DOUBLE] = NS_XSD "double",      [T_XSD_BOOLEAN] = NS_XSD "boolean",
        [T_XSD_DATETIME] = XSD_dateTime,  [T_LOG_IMPLIES] = NS_LOG "implies",
    };
    for (int id = T_RDF_TYPE; id <= T_LOG_IMPLIES; id++)
        terms_iri_cstr(t, well_known[id]);
    terms_literal(t, "true", 4, T_XSD_BOOLEAN, NULL, 0);
    terms_literal(t, "false", 5, T_XSD_BOOLEAN, NULL, 0);
    terms_iri_cstr(t, NS_LOG "isImpliedBy");
    return t;
}

static void free_chunks(arena_chunk *c) {
    while (c) {
        arena_chunk *next = c->next;
        free(c);
        c = next;
    }
}

void terms_free(terms *t) {
    if (!t)
        return;
    free_chunks(t->arena);
    free_chunks(t->spare);
    free(t->by_hash.slots);
    for (uint32_t c = 0; c < t->dir_cap && t->dir[c]; c++)
        free(t->dir[c]);
    free(t->dir);
    while (t->retired) {
        retired_dir *next = t->retired->next;
        free(t->retired->dir);
        free(t->retired);
        t->retired = next;
    }
    free(t);
}

term_id terms_iri(terms *t, const char *iri, size_t len) {
    return intern_atom(t, TERM_IRI, iri, len, 0, NULL, 0);
}

term_id terms_iri_cstr(terms *t, const char *iri) { return terms_iri(t, iri, strlen(iri)); }

term_id terms_bnode(terms *t, const char *label, size_t len) {
    return intern_atom(t, TERM_BNODE, label, len, 0, NULL, 0);
}

term_id terms_fresh_bnode(terms *t) {
    /* "_g" and the counter in decimal, written by hand: a rule's head makes one per firing, and snprintf
     * was a tenth of the cost of firing */
    char digits[24], label[32] = "_g";
    size_t n = 0;
    for (unsigned long long v = ++t->fresh_counter; v; v /= 10)
        digits[n++] = (char)('0' + v % 10);
    for (size_t i = 0; i < n; i++)
        label[2 + i] = digits[n - 1 - i];
    return terms_bnode(t, label, 2 + n);
}

term_id terms_literal(terms *t, const char *lex, size_t len, term_id datatype, const char *lang,
                      size_t lang_len) {
    if (lang && lang_len) {
        /* Language tags compare case-insensitively: intern the lower-case form. */
        char lower[256];
        if (lang_len >= sizeof lower)
            lang_len = sizeof lower - 1;
        for (size_t i = 0; i < lang_len; i++)
            lower[i] = (char)(lang[i] >= 'A' && lang[i] <= 'Z' ? lang[i] - 'A' + 'a' : lang[i]);
        return intern_atom(t, TERM_LITERAL, lex, len, T_RDF_LANGSTRING, lower, lang_len);
    }
    if (datatype == T_XSD_STRING)
        datatype = 0;
    return intern_atom(t, TERM_LITERAL, lex, len, datatype, NULL, 0);
}

term_id terms_string(terms *t, const char *s) { return terms_literal(t, s, strlen(s), 0, NULL, 0); }

term_id terms_var(terms *t, const char *name, size_t len) {
    return intern_atom(t, TERM_VAR, name, len, 0, NULL, 0);
}

int triple_compare(const void *a, const void *b) {
    const triple *x = a, *y = b;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    if (x->o != y->o)
        return x->o < y->o ? -1 : 1;
    return 0;
}

/* A triple as one 96-bit number, s most significant: their order is triple_compare's. */
static inline unsigned __int128 triple_key(const triple *t) {
    return (unsigned __int128)t->s << 64 | (uint64_t)t->p << 32 | t->o;
}

/* Sorts ts by triple_key: a quicksort with the comparison inlined, insertion sort below 16 triples. qsort's
 * call per comparison made sorting a status document's triples 4% of an agent's instructions. */
static void sort_triples(triple *ts, size_t n) {
    while (n > 16) {
        triple *a = &ts[0], *m = &ts[n / 2], *z = &ts[n - 1];
        unsigned __int128 ka = triple_key(a), km = triple_key(m), kz = triple_key(z);
        unsigned __int128 pivot = ka < km ? (km < kz ? km : ka < kz ? kz : ka) : (ka < kz ? ka : km < kz ? kz : km);
        size_t i = 0, j = n - 1;
        for (;;) {
            while (triple_key(&ts[i]) < pivot)
                i++;
            while (triple_key(&ts[j]) > pivot)
                j--;
            if (i >= j)
                break;
            triple swap = ts[i];
            ts[i++] = ts[j];
            ts[j--] = swap;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse into the smaller part, loop on the larger */
        size_t left = j + 1;
        if (left < n - left) {
            sort_triples(ts, left);
            ts += left;
            n -= left;
        } else {
            sort_triples(ts + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        triple t = ts[i];
        unsigned __int128 k = triple_key(&t);
        size_t j = i;
        for (; j && triple_key(&ts[j - 1]) > k; j--)
            ts[j] = ts[j - 1];
        ts[j] = t;
    }
}

size_t triples_canonical(triple *ts, size_t n) {
    sort_triples(ts, n);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (!unique || triple_key(&ts[unique - 1]) != triple_key(&ts[i]))
            ts[unique++] = ts[i];
    return unique;
}

term_id terms_formula(terms *t, const triple *ts, size_t n) {
    triple *sorted = xmalloc((n ? n : 1) * sizeof *sorted);
    if (n)
        memcpy(sorted, ts, n * sizeof *ts);
    size_t unique = triples_canonical(sorted, n);
    term_id id = intern_items(t, TERM_FORMULA, (const term_id *)sorted, unique * 3);
    free(sorted);
    return id;
}

term_id terms_list(terms *t, const term_id *items, size_t n) {
    return intern_items(t, TERM_LIST, items, n);
}

size_t terms_count(const terms *t) { return __atomic_load_n(&t->count, __ATOMIC_ACQUIRE); }

/* ---- release ---- */

static uint64_t rec_hash(const terms *t, term_id id) {
    const term_rec *r = rec_of(t, id);
    if (r->kind == TERM_FORMULA || r->kind == TERM_LIST)
        return items_hash(r->kind, r->u.items, r->kind == TERM_FORMULA ? (size_t)r->len * 3 : r->len);
    return atom_hash(r->kind, r->u.text, r->len, r->datatype, lang_of(r), r->has_lang ? strlen(lang_of(r)) : 0);
}

size_t terms_live(const terms *t) { return terms_count(t) - t->dead; }

terms_mark terms_mark_now(const terms *t) {
    return (terms_mark){t->count, t->arena, t->arena ? t->arena->used : 0};
}

/* A copy of term `id` of table `from` in table `to`, with the terms it is made of. */
static term_id import_term(terms *to, const terms *from, term_id id) {
    if (id < T_WELL_KNOWN_END)
        return id;
    const term_rec *r = rec_of(from, id);
    switch (r->kind) {
    case TERM_LITERAL: {
        term_id datatype = r->datatype ? import_term(to, from, r->datatype) : 0;
        return intern_atom(to, TERM_LITERAL, r->u.text, r->len, datatype, lang_of(r),
                           r->has_lang ? strlen(lang_of(r)) : 0);
    }
    case TERM_FORMULA:
    case TERM_LIST: {
        size_t n = r->kind == TERM_FORMULA ? (size_t)r->len * 3 : r->len;
        term_id *items = xmalloc((n ? n : 1) * sizeof *items);
        for (size_t i = 0; i < n; i++)
            items[i] = import_term(to, from, r->u.items[i]);
        /* ids differ between the tables: a formula's triples are sorted again */
        term_id copy = r->kind == TERM_FORMULA ? terms_formula(to, (const triple *)items, r->len)
                                               : intern_items(to, TERM_LIST, items, n);
        free(items);
        return copy;
    }
    default:
        return intern_atom(to, (enum term_kind)r->kind, r->u.text, r->len, 0, NULL, 0);
    }
}

static void release_arena(terms *t, const terms_mark *m) {
#if !TERMS_CATCH_RELEASED
    /* the spares this round did not take: an earlier, larger round's */
    free_chunks(t->spare);
    t->spare = NULL;
#endif
    while (t->arena && t->arena != m->arena_chunk) {
        arena_chunk *next = t->arena->next;
#if TERMS_CATCH_RELEASED
        free(t->arena); /* so that reading released text is caught */
#else
        if (t->arena->cap == ARENA_CHUNK) { /* kept: the next round interns as much again */
            t->arena->next = t->spare;
            t->spare = t->arena;
        } else {
            free(t->arena);
        }
#endif
        t->arena = next;
    }
    if (!t->arena)
        return;
#if TERMS_CATCH_RELEASED
    /* the text after the mark is never written again, and reading it is an error */
    ASAN_POISON_MEMORY_REGION(t->arena->data + m->arena_used, t->arena->cap - m->arena_used);
    t->arena->used = t->arena->cap;
#else
    t->arena->used = m->arena_used;
#endif
}

size_t terms_release(terms *t, const terms_mark *m, term_id *keep, size_t keep_count) {
    uint32_t peak = t->count; /* the round's terms: what the next round likely needs room for */
    /* the kept terms wait in a table of their own while this one is cut back */
    terms *kept = NULL;
    term_id *copies = xcalloc(keep_count + 1, sizeof *copies);
    for (size_t i = 0; i < keep_count; i++)
        if (keep[i] > m->count)
            copies[i] = import_term(kept ? kept : (kept = terms_new()), t, keep[i]);
    size_t released = 0;
    /* most go: the index is built again from the terms that stay (rebuild_hash_index, below), else each
     * leaves its hash chain, newest first (it is then the chain's head) */
    bool rebuild = !TERMS_CATCH_RELEASED && t->count - m->count > m->count;
    for (term_id id = t->count; id > m->count; id--) {
        if (id == t->dead_to && t->dead_from >= m->count) {
            id = t->dead_from + 1; /* released before (AddressSanitizer builds only) */
            continue;
        }
        term_rec *r = rec_of(t, id);
        if (!rebuild)
            hash_slot_of(&t->by_hash, rec_hash(t, id))->newest = r->next_same_hash;
        *r = (term_rec){.kind = TERM_NONE};
        released++;
    }
    release_arena(t, m);
#if TERMS_CATCH_RELEASED
    t->dead_from = m->count;
    t->dead_to = t->count;
    t->dead += (uint32_t)released;
#else
    __atomic_store_n(&t->count, m->count, __ATOMIC_RELEASE);
#endif
    /* after a release of more terms than stay, or one that left many empty chains behind; fitted to the
     * round just released (as many terms again are likely): one a larger earlier round grew is given back,
     * and the next round does not grow it again */
    if (rebuild || t->by_hash.used > 2 * t->count + 4096)
        rebuild_hash_index(t, peak);
    /* record chunks past the round's last term were an earlier, larger round's */
    for (uint32_t c = (peak >> REC_CHUNK_BITS) + 1; c < t->dir_cap && t->dir[c]; c++) {
        free(t->dir[c]);
        t->dir[c] = NULL;
    }
    for (size_t i = 0; i < keep_count; i++)
        if (copies[i])
            keep[i] = import_term(t, kept, copies[i]);
    free(copies);
    terms_free(kept);
    return released;
}

enum term_kind terms_kind(const terms *t, term_id id) {
    return id && id <= __atomic_load_n(&t->count, __ATOMIC_ACQUIRE) ? (enum term_kind)rec_of(t, id)->kind
                                                                     : TERM_NONE;
}

const char *terms_lex(const terms *t, term_id id, size_t *len) {
    const term_rec *r = rec_of(t, id);
    bool textual = r->kind != TERM_FORMULA && r->kind != TERM_LIST;
    if (len)
        *len = textual ? r->len : 0;
    return textual ? r->u.text : "";
}

term_id terms_datatype(const terms *t, term_id id) { return rec_of(t, id)->datatype; }

const char *terms_lang(const terms *t, term_id id) {
    const term_rec *r = rec_of(t, id);
    return r->kind == TERM_LITERAL ? lang_of(r) : NULL;
}

const triple *terms_formula_triples(const terms *t, term_id id, size_t *n) {
    const term_rec *r = rec_of(t, id);
    *n = r->kind == TERM_FORMULA ? r->len : 0;
    return r->kind == TERM_FORMULA ? (const triple *)r->u.items : NULL;
}

const term_id *terms_list_items(const terms *t, term_id id, size_t *n) {
    const term_rec *r = rec_of(t, id);
    *n = r->kind == TERM_LIST ? r->len : 0;
    return r->kind == TERM_LIST ? r->u.items : NULL;
}

bool terms_is_ground(const terms *t, term_id id) { return rec_of(t, id)->ground; }
