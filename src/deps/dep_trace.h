/* dep_trace.h: the semantics of the dependency algebra on traces (Singh 1997, Semantics 1-9): maximal
 * traces (every event or its complement occurs, once), the interval satisfaction u |=_{i,k} E, and the
 * enumerations the algebra is decided by: all maximal traces over a set of events, or those that begin
 * with a given history. Semantic equivalence (Definition 3) is checked here, by enumeration. */
#ifndef LDGSM_DEPS_DEP_TRACE_H
#define LDGSM_DEPS_DEP_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "deps/dep_expr.h"

/* Enumerations are factorial: a trace is at most this long, and the tools refuse more (the dependencies
 * of a workflow are small; their conjunction is never enumerated as a whole, Theorems 15 and 22). */
#define DEP_TRACE_MAX 12

typedef struct {
    size_t n;
    int lits[DEP_TRACE_MAX]; /* u_1 .. u_n are lits[0] .. lits[n-1] */
} dep_trace;

/* u |=_{i,k} e, 0 <= i; indexes past the end behave as the end. The definition, read literally: each
 * sequence tries every split, so a long sequence costs its length to the power of the trace's. */
bool dep_holds(const dep_expr *e, const dep_trace *u, size_t i, size_t k);

/* Every interval at once, bottom up (cubic in the trace's length per node): table[i][k] is
 * u |=_{i,k} e for 0 <= i <= n + 1 and 0 <= k <= n. What the enumerations use. */
typedef bool dep_interval_table[DEP_TRACE_MAX + 2][DEP_TRACE_MAX + 2];
void dep_table(const dep_expr *e, const dep_trace *u, dep_interval_table table);
/* u |= D for a dependency: on the whole trace. */
bool dep_satisfies(const dep_expr *d, const dep_trace *u);

/* Calls fn on every maximal trace that begins with prefix (plen literals) and goes on over symbols (n
 * of them, none in the prefix), in a fixed order; stops at the first nonzero return and returns it. */
typedef int (*dep_trace_fn)(const dep_trace *u, void *ctx);
int dep_each_trace(const int *prefix, size_t plen, const int *symbols, size_t n, dep_trace_fn fn, void *ctx);

/* Equivalence by enumeration over the maximal traces on the events of both expressions, compared on
 * the whole trace (dependencies: u |= D), at i = 0 and every k (guards: they are evaluated at u |=_k,
 * Semantics 1), or at every interval (Definition 3). When they differ and where is not NULL, the first
 * trace and indexes they differ at are stored there. Expressions over more than DEP_TRACE_MAX events
 * are never equivalent. */
typedef enum { DEP_EQ_WHOLE, DEP_EQ_GUARD, DEP_EQ_INTERVALS } dep_equivalence;
typedef struct {
    dep_trace u;
    size_t i, k;
} dep_witness;
bool dep_equivalent(const dep_expr *a, const dep_expr *b, dep_equivalence how, dep_witness *where);

#endif
