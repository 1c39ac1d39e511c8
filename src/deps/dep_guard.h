/* dep_guard.h: compiling guards from dependencies (Singh 1997, section 2.3 and 4.2-4.3): the basis of
 * paths Psi(D) (the maximal traces over D's events that satisfy D, Definition 17), the guard of an event
 * due to a set of paths (pre and post, Definitions 9-11, Lemma 17), the guard due to a dependency that
 * does not mention the event (<>D, Theorem 18), and the strengthening by event attributes: the safe paths
 * Phi(D) of Definitions 21-22, alpha(D) their disjunction (Definition 23), empty when D is unenforceable. */
#ifndef LDGSM_DEPS_DEP_GUARD_H
#define LDGSM_DEPS_DEP_GUARD_H

#include <stddef.h>

#include "deps/dep_expr.h"
#include "deps/dep_parse.h"
#include "deps/dep_trace.h"

/* A dependency over more events than this is refused: Psi enumerates n! 2^n traces, and the readable
 * forms (dep_minimize.h) stop there. */
#define DEP_SYMBOLS_MAX 5

typedef struct dep_paths {
    size_t n;       /* the length of every path: the dependency's events */
    size_t count;
    int *lits;      /* path p is lits[p*n .. p*n+n-1] */
    int symbols[DEP_SYMBOLS_MAX];
} dep_paths;

void dep_paths_free(dep_paths *p);
/* Psi(d): 0, or -1 with why in err (too many events, out of memory). */
int dep_psi(const dep_expr *d, dep_paths *out, char *err, size_t err_len);
/* Phi(D) from Psi(D) and the attributes of set's literals: sigma iterated to its fixpoint (Definition 22
 * stops after |Gamma_D|/2 rounds; tests/deps compares the two). 0 or -1 (out of memory). */
int dep_safe_paths(const dep_paths *psi, const dep_set *set, dep_paths *out);
/* The disjunction of the paths (alpha(D) of the safe ones); 0 when there are none. */
const dep_expr *dep_paths_expr(dep_events *ev, const dep_paths *p);
/* G_b over a set of paths (Definition 11 with Lemma 17): the disjunction, over the paths with lit on
 * them, of pre and post; 0 when no path has it. lit's symbol must be one of the paths'. */
const dep_expr *dep_paths_guard(dep_events *ev, const dep_paths *p, int lit);
/* true when lit's symbol is one of the paths' events */
bool dep_paths_mention(const dep_paths *p, int lit);

/* Truth functions (dep_minimize.h) over maximal traces on the paths' events, read from the paths without
 * building the disjunction: membership (alpha on the whole trace, and <>alpha at every index), and
 * G_b(paths, lit): a path that is u outside lit's event, with lit after the events of u[1..k]. */
typedef struct {
    const dep_paths *paths;
    int lit;
} dep_paths_truth;
void dep_paths_member_truth(void *ctx, const dep_trace *u, bool *holds_at);
void dep_paths_guard_truth(void *ctx, const dep_trace *u, bool *holds_at);
/* The readable forms of those (NULL when out of memory). */
const dep_expr *dep_paths_alpha(dep_events *ev, const dep_paths *p);
const dep_expr *dep_paths_readable_guard(dep_events *ev, const dep_paths *p, int lit);

#endif
