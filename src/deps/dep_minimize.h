/* dep_minimize.h: the readable form of a guard or a dependency: an equivalent disjunction of
 * conjunctions in the paper's own atoms, found by enumeration. A guard at index k of a maximal trace is
 * a function of which literals have occurred ([]e, or !e: not yet), which will occur (<>e, <>~e) and in
 * which order (<>e.f, []e.f); a dependency of which occur (e, ~e) and in which order (e.f). Each
 * situation the expression holds in is grown into a largest conjunction that holds in no situation the
 * expression fails in (sequences dropped first, then futures, then pasts), and a cover of them is kept:
 * Example 3's guard on e due to D< comes out as !f, the one on f as []e | <>~e. */
#ifndef LDGSM_DEPS_DEP_MINIMIZE_H
#define LDGSM_DEPS_DEP_MINIMIZE_H

#include <stdbool.h>

#include "deps/dep_expr.h"
#include "deps/dep_trace.h"

/* Over more events than this the expression is returned as it is. */
#define DEP_MINIMIZE_SYMBOLS_MAX 5

/* What is minimized: for a maximal trace u over the events, holds_at[k] for k = 0..u->n (a dependency:
 * only holds_at[u->n] is read). */
typedef void (*dep_truth_fn)(void *ctx, const dep_trace *u, bool *holds_at);

/* The readable form of the truth function over the n events (a guard's atoms, or with guard false a
 * dependency's); NULL when out of memory or when n > DEP_MINIMIZE_SYMBOLS_MAX. The result is checked
 * against the truth function in every situation before it is returned. */
const dep_expr *dep_minimize(dep_events *ev, const int *symbols, size_t n, bool guard, dep_truth_fn truth, void *ctx);
/* An expression equivalent to guard g at i = 0 (dep_trace.h, DEP_EQ_GUARD); g itself when it has too
 * many events. NULL when out of memory. */
const dep_expr *dep_minimize_guard(dep_events *ev, const dep_expr *g);
/* An expression of E equivalent to dependency d on maximal traces (DEP_EQ_WHOLE); d itself when it has
 * too many events. NULL when out of memory. */
const dep_expr *dep_minimize_dependency(dep_events *ev, const dep_expr *d);

#endif
