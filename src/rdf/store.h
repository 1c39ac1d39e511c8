/* store.h: the indexed triple store (working memory). It holds the union of triples (each stored
 * once, numbered 0, 1, 2, ... in insertion order) and, for every triple, the source graphs it came from
 * (a graph is named by a term: a document's fragment-free IRI, or STORE_GRAPH_DERIVED's term).
 *
 * Guarantees:
 *  1. A lookup with any combination of bound positions uses an index (S, P, O, SP, SO, PO, SPO);
 *     only the all-unbound pattern walks the triples. An index is built when a lookup first needs it
 *     (SP and PO for the lookup's predicate: a predicate never asked for costs them nothing).
 *  2. Every index bucket lists triple numbers in ascending order, so a lookup restricted to a number
 *     range [lo, hi) (what semi-naive evaluation needs: "old" and "delta" triples) costs a binary search.
 *  3. Iterators survive insertions made while iterating; they never yield triples numbered >= hi.
 * Triples are never removed: working memory is rebuilt for each iteration. */
#ifndef LDGSM_RDF_STORE_H
#define LDGSM_RDF_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdf/buf.h"
#include "rdf/term.h"

typedef struct store store;

store *store_new(void);
void store_free(store *st);
/* Frees the indexes lookups built (all but the predicate index and the de-duplication set), to be built
 * again on demand: an agent done reasoning holds its working memory while it composes and sends its
 * writes, and needs few lookups there. */
void store_drop_lookup_indexes(store *st);

/* Adds (s, p, o) from source graph g (a term id; 0 means no source). Returns true when the triple is
 * new to the union; either way g is recorded as one of its sources. */
bool store_add(store *st, term_id s, term_id p, term_id o, term_id g);
/* The hash of (s, p, o) in the de-duplication set: a caller that prefetches and then adds a triple
 * computes it once (derivation does, for every attempt). */
uint64_t store_hash(term_id s, term_id p, term_id o);
/* Adds each triple of a batch (with its store_hash value) with source g, only when absent from the union;
 * a known triple whose only source is another graph gets g as a second source (a triple a document states
 * and the rules derive is derived as well), one already from several graphs keeps its sources, so that
 * deriving a triple again costs no source lookup. The batch's memory accesses overlap. Returns how many
 * were new. */
uint32_t store_add_batch(store *st, const triple *ts, const uint64_t *hashes, uint32_t n, term_id g);
/* Hints that the triple with this hash is about to be added or looked up, so its slot is fetched early. */
void store_prefetch(const store *st, uint64_t hash);
/* Makes room for `more` triples beyond the current ones, so that adding them grows nothing. */
void store_reserve(store *st, uint32_t more);
uint32_t store_size(const store *st);
const triple *store_triple(const store *st, uint32_t n);
/* The number of (s,p,o) or UINT32_MAX when absent. */
uint32_t store_find(const store *st, term_id s, term_id p, term_id o);
bool store_in_graph(const store *st, uint32_t n, term_id g);
/* The graph the triple was first added from. */
term_id store_first_graph(const store *st, uint32_t n);
/* True when triple n came from more graphs than its first (store_in_graph tells which). */
bool store_has_more_graphs(const store *st, uint32_t n);
/* The graphs any triple came from: store_graph_at(st, i) for i < store_graph_count(st), in order of first use. */
uint32_t store_graph_count(const store *st);
term_id store_graph_at(const store *st, uint32_t i);
/* Triple numbers recorded for graph g, ascending; NULL with *count 0 when none. */
const uint32_t *store_graph_triples(const store *st, term_id g, uint32_t *count);

typedef struct store_iter {
    const store *st;
    int index;         /* which index (internal) */
    uint32_t bucket;   /* bucket number in that index */
    uint32_t pos, end; /* position in the bucket, or triple number for full scans */
    uint32_t hi;
    triple pattern;
} store_iter;

/* Iterates the triples matching the pattern (0 = unbound) whose numbers lie in [lo, hi). */
void store_match(store *st, term_id s, term_id p, term_id o, uint32_t lo, uint32_t hi, store_iter *it);
/* The next matching triple (its number into *n), or NULL when done. The pointer is valid until the
 * next store_add; matches made while iterating (which may build indexes) do not move it. */
const triple *store_next(store_iter *it, uint32_t *n);

/* A matching triple and its number, copied out of the store. */
typedef struct store_entry {
    triple t;
    uint32_t n;
} store_entry;

/* Up to max next matching triples, copied into out (so they stay valid while the caller adds triples);
 * 0 when done. For a join's inner loop: one call per batch, not per triple. */
uint32_t store_next_batch(store_iter *it, store_entry *out, uint32_t max);
/* The first object of (s, p), or 0 when there is none. */
term_id store_first_object(store *st, term_id s, term_id p);
/* Whether some triple matches the pattern (0 = unbound). */
bool store_any(store *st, term_id s, term_id p, term_id o);
/* The objects of (s, p) in insertion order into out, replacing what it held (its memory is reused). */
void store_objects(store *st, term_id s, term_id p, u32vec *out);
/* The subjects of (p, o) in insertion order into out, as store_objects. */
void store_subjects(store *st, term_id p, term_id o, u32vec *out);
/* The exact number of triples matching the pattern in [lo, hi), by two binary searches. */
uint32_t store_count(store *st, term_id s, term_id p, term_id o, uint32_t lo, uint32_t hi);
/* An upper bound of the matches of a pattern over all triples (bucket size), for join ordering. */
uint32_t store_estimate(store *st, term_id s, term_id p, term_id o);

#endif
