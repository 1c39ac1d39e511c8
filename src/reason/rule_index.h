/* rule_index.h: rules found by the keys of their triple patterns and head templates, so that the work
 * over a rule set follows the triples and templates that can meet instead of every rule or every pair of
 * rules (docs/DESIGN.md §1.2). A key is a constant predicate, or a constant predicate and a constant
 * object; a pattern or template with a variable (or a list or formula holding variables) in predicate
 * position has no key and goes in a catch-all list.
 *
 * Guarantees:
 *  1. rule_activation_due never leaves out a rule the semi-naive round could fire: a rule is left out
 *     only when no triple of the round's delta has the key of any of its data atoms, so the delta atom of
 *     every plan has nothing to match (engine.c's choose_plan). Builtins and negations are never a plan's
 *     delta atom, so they key nothing.
 *  2. rule_producers_of gives exactly the rules rule_produces_into holds for: the keys only narrow the
 *     candidates it then checks. */
#ifndef LDGSM_REASON_RULE_INDEX_H
#define LDGSM_REASON_RULE_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "rdf/store.h"
#include "reason/rule.h"

/* Lists of numbers by 64-bit key: pairs (key, number) added, then indexed at once. */
typedef struct key_lists {
    u64map map;        /* key -> its place among keys */
    uint64_t *keys;    /* the distinct keys, in the order first added */
    uint32_t *first;   /* the numbers of keys[i] are items[first[i] .. first[i + 1]) */
    uint32_t *items;
    uint32_t key_count;
    uint64_t *added_keys; /* the pairs added and not yet indexed */
    u32vec added_numbers;
} key_lists;

/* Adds a pair, numbers in ascending order (so each key's list is); a pair added twice is kept once. */
void key_lists_add(key_lists *kl, uint64_t key, uint32_t number);
/* Builds the lists of the pairs added; none may be added after. */
void key_lists_index(key_lists *kl);
/* The numbers of key (ascending), *count of them; NULL when it has none. */
const uint32_t *key_lists_get(const key_lists *kl, uint64_t key, uint32_t *count);
void key_lists_free(key_lists *kl);

/* The key of a predicate and an object (0: the predicate alone); never 0 for a predicate. */
static inline uint64_t rule_key(term_id p, term_id o) { return (uint64_t)o << 32 | p; }

/* Whether head template h may produce a triple that pattern b matches: at each position a variable on
 * either side, or the same term. A list or formula with variables inside may be anything. */
bool rule_may_produce(const rule_atom *h, const rule_atom *b);
/* Whether some head template of producer may produce a triple pattern matches; with exact_only, only a
 * template that produces, for every constant of the pattern, that constant itself (`?x a :Root` for the
 * pattern `?x a :Root`, while rdfs.n3's `?x a ?d` only may, depending on data). */
bool rule_produces_into(const rule *producer, const rule_atom *pattern, bool exact_only);

/* The rules of a stratum that a fixpoint round after the first evaluates (enabled, without negation,
 * with a data atom, not single-pass), by the keys of their data atoms. */
typedef struct rule_activation rule_activation;

rule_activation *rule_activation_new(const terms *t, const rule_set *rs, int stratum);
void rule_activation_free(rule_activation *a);
/* The numbers (places in rs->rules, ascending) of the rules a round whose delta is the triples [lo, hi)
 * of st evaluates: those with a data atom whose key a delta triple has, and those with a data atom that
 * has none; every one when lo is 0 (a delta of the whole store, where lists' axioms match too). *count
 * of them; valid until the next call. */
const unsigned *rule_activation_due(rule_activation *a, store *st, uint32_t lo, uint32_t hi, unsigned *count);

/* The head templates of a rule set's enabled rules other than request rules, by key. */
typedef struct rule_producers rule_producers;

rule_producers *rule_producers_new(const rule_set *rs);
void rule_producers_free(rule_producers *p);
/* Replaces out's contents by the numbers (ascending) of the rules with rule_produces_into(rule, pattern,
 * exact_only). */
void rule_producers_of(rule_producers *p, const rule_atom *pattern, bool exact_only, u32vec *out);

#endif
