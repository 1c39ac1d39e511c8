/* dep_schedule.h: Singh's scheduler (1997, sections 3 and 4.4) for one workflow, centralised: every
 * event's guard is compiled from the workflow strengthened by its attributes (alpha(D), Definition 23),
 * the event's guard being the conjunction over the dependencies that mention it (Theorems 15 and 22),
 * and residuated (Table 1) by every occurrence and promise. An attempted event is
 *   accepted   when its guard holds on every continuation of the history in which it occurs next (and
 *              every promised event occurs); an immediate event always is (Definition 24);
 *   rejected   when it holds on none (an inevitable event waits instead: it cannot be rejected);
 *   delayed    otherwise, until an occurrence or a promise decides it.
 * An inevitable event that waits promises to happen, to every event (section 4.3: <>e is communicated so
 * that spurious traces are prevented). A delayed event is helped by promises and triggers: a triggerable event whose promise would let it go
 * is triggered (Example 12), or promises back and follows it (Example 13); two waiting events promise
 * each other as Heuristic 2 and Example 6 have it; a triggerable event that some dependency now
 * requires on every remaining path is triggered (Example 15's s_cancel). An accepted event whose guard
 * relied on another's not having happened prohibits it (section 3.1, Example 18). */
#ifndef LDGSM_DEPS_DEP_SCHEDULE_H
#define LDGSM_DEPS_DEP_SCHEDULE_H

#include <stddef.h>

#include "deps/dep_expr.h"
#include "deps/dep_parse.h"
#include "deps/dep_residuate.h"

typedef enum { DEP_ACCEPT, DEP_REJECT, DEP_DELAY, DEP_TRIGGER, DEP_PROMISE, DEP_PROHIBIT } dep_decision;

typedef struct {
    dep_decision decision;
    int lit;   /* the event decided, triggered, promising or prohibiting */
    int other; /* PROMISE: to whom (-1: to every event, an inevitable one's); PROHIBIT: whom; -1 otherwise */
    const char *why;
} dep_step;

typedef void (*dep_step_fn)(void *ctx, const dep_step *step);

typedef struct dep_scheduler dep_scheduler;
struct dep_paths;

/* Compiles the guards of set's workflow: NULL with why in err (a dependency over too many events, out of
 * memory). An unenforceable dependency makes the guards of its events 0 (Example 8). set must outlive
 * the scheduler. */
dep_scheduler *dep_scheduler_new(dep_set *set, char *err, size_t err_len);
void dep_scheduler_free(dep_scheduler *s);

/* The event (or its complement) is attempted; every decision it leads to is reported through fn, in
 * order. 0, or -1 with why in err (its event already happened either way, out of memory). */
int dep_scheduler_attempt(dep_scheduler *s, int lit, dep_step_fn fn, void *ctx, char *err, size_t err_len);

/* The current guard of a literal (residuated), and the history so far. */
const dep_expr *dep_scheduler_guard(const dep_scheduler *s, int lit);
size_t dep_scheduler_history(const dep_scheduler *s, const int **lits);
/* Literals attempted and still waiting */
size_t dep_scheduler_waiting(const dep_scheduler *s, const int **lits);

/* Has a guard of lit changed (residuated) since the last call for it? */
bool dep_scheduler_take_changed(dep_scheduler *s, int lit);
/* Phi of dependency d (alpha's paths), and how many paths Psi had. */
const struct dep_paths *dep_scheduler_safe(const dep_scheduler *s, size_t d);
size_t dep_scheduler_psi_count(const dep_scheduler *s, size_t d);

const char *dep_decision_name(dep_decision d);

#endif
