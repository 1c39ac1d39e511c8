/* strata.h: which stratum each compiled rule of a program runs in, decided once after loading
 * (docs/DESIGN.md §1.2). The reasoner owns its compiled rules: a caller says what is late, this file
 * edits the rules' stratum fields. */
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

#endif
