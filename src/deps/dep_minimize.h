/* dep_minimize.h: the readable form of a guard or a dependency: an equivalent disjunction of
 * conjunctions in the paper's own atoms, found by enumeration. A guard at index k of a maximal trace is
 * a function of which literals have occurred ([]e, or !e: not yet), which will occur (<>e, <>~e) and in
 * which order (<>e.f, []e.f); a dependency of which occur (e, ~e) and in which order (e.f). Each
 * situation the expression holds in is grown into a largest conjunction that holds in no situation the
 * expression fails in (sequences dropped first, then futures, then pasts), and a cover of them is kept:
 * Example 3's guard on e due to D< comes out as !f, the one on f as []e | <>~e. */
#ifndef LDGSM_DEPS_DEP_MINIMIZE_H
#define LDGSM_DEPS_DEP_MINIMIZE_H

#include "deps/dep_expr.h"

/* Over more events than this the expression is returned as it is. */
#define DEP_MINIMIZE_SYMBOLS_MAX 5

/* An expression equivalent to guard g at i = 0 (dep_trace.h, DEP_EQ_GUARD); g itself when it has too
 * many events. NULL when out of memory. */
const dep_expr *dep_minimize_guard(dep_events *ev, const dep_expr *g);
/* An expression of E equivalent to dependency d on maximal traces (DEP_EQ_WHOLE); d itself when it has
 * too many events. NULL when out of memory. */
const dep_expr *dep_minimize_dependency(dep_events *ev, const dep_expr *d);

#endif
