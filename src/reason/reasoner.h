/* reasoner.h: semi-naive forward chaining of compiled rules over a store, to a fixpoint.
 *
 * Guarantees:
 *  1. Each round matches every rule with one body atom against the triples derived in the previous round
 *     (the delta) and the other atoms against older or all triples, so no binding is derived twice and
 *     the fixpoint is reached when a round derives nothing.
 *  2. A head blank node is Skolemized per distinct binding of the head's variables: the same binding
 *     always yields the same node (within this reasoner), so a terminating chase reaches a fixpoint.
 *  3. Caps on fresh nodes and derived triples stop a chase that would not terminate; the error names the
 *     rule that hit the cap and nothing more is derived.
 *  4. An inference fuse (`{ body } => false`) that fires stops the run: the error names the rule and the
 *     binding it fired with, and reasoner_fuse_blown tells it from the other errors.
 *  5. Negations (and log:collectAllIn, log:forAllIn) over the working memory see what the rules of lower
 *     layers derive (rule_set_layer_negation); a negation_checked rule's premises are checked again after
 *     each pass and at the end: when one it fired with no longer holds, the run stops, naming the rule
 *     and the binding, as the program has no answer consistent with itself.
 * Request rules' heads go to the request sink instead of the store. */
#ifndef LDGSM_REASON_REASONER_H
#define LDGSM_REASON_REASONER_H

#include <stdbool.h>
#include <stdint.h>

#include "rdf/log.h"
#include "rdf/store.h"
#include "reason/rule.h"

typedef struct reasoner_options {
    uint32_t max_fresh_nodes; /* 0: default 1,000,000 */
    uint32_t max_derived;     /* 0: one per KiB of the memory the process may use (RAM, cgroup limit,
                                 ulimit -v: the least), so a runaway rule set stops before exhausting it */
    term_id derived_graph;    /* source graph recorded for derived triples */
    const log_sink *log;
    /* Receives each request rule's instantiated head: its triples in canonical order (triples_canonical),
     * valid during the call. Not interned as a formula: a crawl's requests are tens per instance in every
     * iteration, and their heads were a sixth of an agent's terms. */
    void (*request_sink)(void *user, const rule *r, const triple *head, size_t n);
    void *request_sink_user;
    /* Told, after each round, of the triples the round added to the store: numbers [from, to). */
    void (*on_derived)(void *user, uint32_t from, uint32_t to);
    void *on_derived_user;
    /* Whether the triple numbered n is in viewer's view: asked for each triple a viewed atom matches (a
     * sentry of one instance sees only the documents read for it, docs/DESIGN.md §8.1). NULL: all are. */
    bool (*visible)(void *user, term_id viewer, uint32_t n);
    void *visible_user;
    /* Tests only: every rule in every round, as before the rules were indexed by what can fire them
     * (rule_index.h): the reference test_rule_index compares the indexed rounds with. */
    bool every_rule_every_round;
} reasoner_options;

typedef struct reasoner_stats {
    uint64_t derived, rounds, fresh_nodes, requests;
    uint64_t attempts; /* head instantiations, duplicates included: derived / attempts is the join's yield */
} reasoner_stats;

typedef struct reasoner reasoner;

reasoner *reasoner_new(terms *t, store *st, const reasoner_options *options);
void reasoner_free(reasoner *r);
/* Runs the enabled rules of rs whose stratum is `stratum` to a fixpoint over the whole store (every
 * triple counts as new in the first round). Returns 0, or -1 when a cap was hit (reasoner_error says which
 * rule). */
int reasoner_run(reasoner *r, const rule_set *rs, int stratum);
/* Continues a run of the same stratum after triples were added: the triples numbered from `from` on are
 * the delta of the first round (what a crawl adds between derivation rounds); rules whose body has no data
 * atom do not fire again. */
int reasoner_run_from(reasoner *r, const rule_set *rs, int stratum, uint32_t from);
const char *reasoner_error(const reasoner *r);
/* True when the last run stopped because an inference fuse fired (guarantee 4). */
bool reasoner_fuse_blown(const reasoner *r);
const reasoner_stats *reasoner_get_stats(const reasoner *r);

#endif
