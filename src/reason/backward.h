/* backward.h: backward rules (`{ H } <= { B }`) run on demand, as EYE runs them, by compiling them to
 * forward rules driven by demand triples (the magic-sets transformation):
 *  - for every pattern on a predicate that backward rules conclude, a demand rule derives the goal the
 *    pattern asks, from what the atoms written before it bind: (subject or ANY, demand predicate, object
 *    or ANY), the demand predicate naming the predicate and which sides are given;
 *  - each backward rule becomes four forward rules, one per kind of demand, whose body starts with the
 *    demand it answers.
 * A goal and its answers are triples of the store, each derived once, so recursion (a factorial, an
 * ancestor rule calling itself first) ends when no new goal or answer appears: tabling. Demand triples are
 * not output (rule_set_hides). */
#ifndef LDGSM_REASON_BACKWARD_H
#define LDGSM_REASON_BACKWARD_H

#include <stdbool.h>

#include "rdf/log.h"
#include "rdf/term.h"
#include "reason/rule.h"

/* Compiles the backward rules waiting in rs, and the demand rules of every rule of rs; call once, after
 * every program is loaded. */
void rule_set_compile_backward(rule_set *rs, terms *t, const log_sink *log);
/* True for the predicates of demand triples. */
bool rule_set_hides(const rule_set *rs, term_id predicate);
/* True for the predicates backward rules conclude: their answers are proofs of goals, which EYE does not
 * output as derived triples. */
bool rule_set_on_demand(const rule_set *rs, term_id predicate);

#endif
