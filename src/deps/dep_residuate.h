/* dep_residuate.h: assimilating messages into guards, Singh 1997 Table 1 (G ÷ M): an event's occurrence
 * ([]e), a promise (<>e), and the order of two of them ([]e.f, <>e.f) reduce a guard row by row; what no
 * row matches stays. Sequences longer than two inside [] or <> are first split into chains of two
 * (two-sequence form: [](a.b.c) is [](a.b) & [](b.c) on traces where an event occurs once), which is the
 * form the table is written for. */
#ifndef LDGSM_DEPS_DEP_RESIDUATE_H
#define LDGSM_DEPS_DEP_RESIDUATE_H

#include "deps/dep_expr.h"

typedef struct {
    dep_kind kind; /* DEP_BOX: has occurred; DEP_DIA: will occur (a promise) */
    int first;     /* a literal */
    int second;    /* -1, or: first then second */
} dep_message;

/* [] and <> of sequences longer than two, as conjunctions of two-event ones. NULL: out of memory. */
const dep_expr *dep_two_sequences(dep_events *ev, const dep_expr *g);
/* G ÷ M for a guard in two-sequence form: g itself when no row applies. NULL: out of memory. */
const dep_expr *dep_residuate(dep_events *ev, const dep_expr *g, dep_message m);

#endif
