/* sentry.h: compiles a sentry (sentry_ast.h) into a rule the engine evaluates in one pass over a closed
 * working memory (docs/DESIGN.md §1.1, phase 5): the body is `prefix` (e.g. the atoms that bind ?this to each
 * active artifact instance) followed by the sentry's WHERE clause with each bound constant
 * (gsm:thisArtifactInstance; a state machine's wsm:thisInstance and wsm:thisEvent) read as its variable,
 * which the prefix binds; the head is derived for every solution.
 * Top-level patterns are joined in a cost-based order like any rule; OPTIONAL and UNION keep their place
 * after the patterns, and the elements that follow an OPTIONAL in its group are matched after it (SPARQL
 * joins them with the left join's result); FILTERs run at the end of their group. A group inside a UNION
 * alternative, an OPTIONAL or a nested group is evaluated under the bindings made before it, which is
 * SPARQL's "alone, then joined" unless it reads a variable none of its patterns binds (in a FILTER, an
 * inner OPTIONAL): such variables are hidden from it while it runs and joined after (rule_seq.hidden);
 * an OPTIONAL's own FILTERs are its left join's condition and see the joined row. */
#ifndef LDGSM_REASON_SENTRY_H
#define LDGSM_REASON_SENTRY_H

#include "reason/rule.h"
#include "reason/sentry_ast.h"

typedef struct sentry_constant {
    term_id constant, var;
} sentry_constant;

/* At most this many triple patterns per sentry, far above any written by hand or by `ldgsm compile`: a
 * sentry is evaluated every poll, and its join plans (one per top-level pattern) cost the square of its
 * patterns to build. */
enum { SENTRY_MAX_PATTERNS = 1000 };

/* Takes ownership of `where`. Returns NULL (and frees where) with a message when the sentry cannot be
 * compiled: more than SENTRY_MAX_PATTERNS triple patterns, a head variable it does not bind, more than
 * RULE_MAX_VARS variables. */
rule *sentry_rule_new(terms *t, sq_node *where, const triple *prefix, size_t prefix_count, const triple *head,
                      size_t head_count, const sentry_constant *constants, size_t constant_count,
                      const char *name, char *error, size_t error_len);

/* Makes the rule's query patterns (every pattern after the first prefix_count, nested ones included) match
 * only triples in the view of the value of `viewer`, a variable the prefix binds (reasoner_options.visible):
 * its plans then match the prefix first, in order. False (nothing changed) when no prefix pattern binds
 * the variable. */
bool sentry_rule_view(rule *r, term_id viewer, size_t prefix_count);

#endif
