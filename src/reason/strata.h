/* strata.h: when each compiled rule of a program runs: its stratum, decided once after loading, and the
 * layer of its negations within the stratum (docs/DESIGN.md §1.2). The reasoner owns its compiled rules:
 * a caller says what is late, this file edits the rules' stratum, layer and negation_checked fields. */
#ifndef LDGSM_REASON_STRATA_H
#define LDGSM_REASON_STRATA_H

#include <stddef.h>

#include "rdf/term.h"
#include "reason/rule.h"

/* Moves into `stratum` every rule of rs that reads a late predicate: one of late[0..late_count) (what the
 * caller asserts only after the earlier strata ran) or, to a fixpoint, a predicate such a rule derives; and
 * every rule with negation (log:notIncludes, log:collectAllIn), which needs what it reads closed. A body
 * atom with a variable predicate reads everything it matches, so it is not late by that atom alone. Rules
 * already in `stratum` are left as they are; request rules' heads go to the request sink and make no
 * predicate late. The other rules keep their stratum. */
void rule_set_assign_late_stratum(rule_set *rs, const term_id *late, size_t late_count, int stratum);

/* Orders the negation rules of each stratum (stratified negation as failure) over the dependencies of
 * atoms, not predicates: rule B depends on rule A when a head template of A may produce a triple one of
 * B's patterns matches (`?x a :Adult` does not depend on a head `?x a :Minor`). A rule whose negated
 * pattern A may produce gets a layer above A's; within a cycle through a negation no layer can, so such a
 * rule is marked negation_checked and the engine verifies at the end that its negation still holds for
 * every binding it fired with (reasoner.h): a program is refused only when its answer contradicts itself. */
void rule_set_layer_negation(rule_set *rs);

#endif
