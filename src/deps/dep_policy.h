/* dep_policy.h: dependencies enforced by guards over which events have occurred, the form a GSM model can
 * evaluate (`ldgsm deps --gsm`, docs/DESIGN.md §6.4). A status document records the set of events an artifact
 * instance has seen, one event per step; a complement happens when the instance completes without its
 * event. So each group of dependencies sharing events becomes, by enumerating its histories (sequences of
 * its events, in every order this very policy lets them happen):
 *   allowed[e](S)  e may happen now, having occurred set S: on every history reaching S, some way to go on
 *                  satisfies every dependency, where inevitable events still happen, triggerable ones may
 *                  (the agent makes them happen) and the others happen no more; and, by DEP_ORDER_DELAY,
 *                  e does not wait (below), nor does any inevitable or triggerable event on that way;
 *   trigger[e](S)  a triggerable e is made to happen: it is allowed and the instance may not complete yet;
 *   final(S)       the instance may complete: every history reaching S, followed by the complements of
 *                  the rest, satisfies every dependency (an inevitable event still to come is the
 *                  environment's to ask for, not completion's to wait for: counting it here would
 *                  trigger every allowed triggerable event while it is pending, needed or not).
 * Each is a boolean function of the other events' occurrence, written as a small disjunction of cubes
 * (sets the instance cannot reach are free).
 *
 * Two readings of an order between events that may both happen (D< = ~e | ~f | e . f):
 *   DEP_ORDER_DELAY       the paper's (Example 4; the scheduler of dep_schedule.h): e waits after
 *                         history h when some other event y could still happen after h, could not after
 *                         h e, and e could come after y on some way on from h (y need not be next: others
 *                         may have to come before it): f, asked for first, waits for e and happens after it. "Could happen" is over any way on that satisfies the group,
 *                         whatever the policy (the paper's possible paths). Events that exclude each other
 *                         both ways (~e | ~f) do not wait: the first goes (Heuristic 4's prohibition).
 *                         An inevitable e waits only for an inevitable or triggerable y: a complement
 *                         happens only at completion, so a wait for another y could last until the
 *                         instance completes, and e would be rejected, which "inevitable" forbids (the
 *                         paper's scheduler ends such a wait by ~y); y, which may be rejected, gives way;
 *   DEP_ORDER_FIRST_COME  whichever comes first goes; f first refuses e for good. */
#ifndef LDGSM_DEPS_DEP_POLICY_H
#define LDGSM_DEPS_DEP_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deps/dep_parse.h"
#include "rdf/buf.h"

/* A group's histories are enumerated in every order: events related by dependencies are one group up to
 * this many; a larger set of related events is split, one group per dependency (Theorem 15's way: each
 * dependency kept on its own keeps them all, though a run may then wait where the whole group would see a
 * way), and an event in several groups is allowed when every one of them allows it. */
#define DEP_POLICY_EVENTS_MAX 6

/* A conjunction over a group's events (bit i: the group's i-th event): `occurred` all have happened,
 * `pending` none has. */
typedef struct {
    uint32_t occurred, pending;
} dep_cube;

typedef struct {
    dep_cube *cubes; /* a disjunction: no cube is false; a single empty cube is true */
    size_t count;
} dep_cover;

typedef struct {
    int symbols[DEP_POLICY_EVENTS_MAX];
    size_t n;
    size_t *deps; /* indexes into the set */
    size_t dep_count;
    uint8_t *allowed;   /* [event * 2^n + S] */
    uint8_t *trigger;   /* same */
    uint8_t *final;     /* [S] */
    uint8_t *reachable; /* [S] */
    dep_cover *allowed_cover, *trigger_cover; /* [event] */
    dep_cover final_cover;
    bool split; /* one dependency of a larger set of related events */
} dep_group;

typedef struct {
    dep_group *groups;
    size_t count;
} dep_policy;

typedef enum { DEP_ORDER_DELAY, DEP_ORDER_FIRST_COME } dep_order;

/* Computes the policy of every group of set's dependencies (set checked by dep_set_check). 0, or -1 with
 * why in err: a group no history satisfies, in any order (named with its dependencies; a dependency over
 * no event that is 0), an attribute with no meaning here (immediate: a GSM event waits for its guard; any
 * attribute of a complement: complements happen at completion), out of memory. */
int dep_policy_compute(const dep_set *set, dep_order order, dep_policy *out, char *err, size_t err_len);
void dep_policy_free(dep_policy *p);

/* The groups holding symbol, from group number *from on: the next one (its number into *from, the
 * symbol's index in it into *index), or NULL when there is none. */
const dep_group *dep_policy_next_group(const dep_policy *p, int symbol, size_t *from, size_t *index);

/* Appends a cover in the paper's atoms ([]e has happened, !e not yet; T, 0) to out. */
void dep_cover_print(const dep_events *ev, const dep_group *g, const dep_cover *c, buf *out);

#endif
