/* demo_suppliers.h: the procurement scenario `ldgsm demo --suppliers` plays (docs/DESIGN.md §6.1, the
 * fixture ldp-fixtures/suppliers): the order is a call whose first supplier's shop is down, so the run table shows
 * its retries, the rebind to the second supplier and, when that shop is gone too (no_supplier_b), the
 * exhausted call and the sub-workflow alternative "Order by phone".
 *
 * NOTES ON THE DESIGN
 *  1. The environment reacts after every agent iteration; nothing waits for the workflow to rest, since
 *     the call's retries run on the agent's clock: the warehouse receives the goods once the workflow told
 *     it to expect them (warehouse/expected exists); the clerk confirms a phone order once a request is in
 *     the inbox (a member of inbox/ other than the confirmation). With no_supplier_b, supplier B's order
 *     container is deleted before the first iteration, so B answers 404, which is not retried.
 *  2. One row per change: an agent row lists what one iteration changed in the status document (stages,
 *     milestones, the order call's record: sends, failures, rebind, answer, exhaustion); an "env:" row what
 *     the environment did. Every name is the model's rdfs:label (the milestones the rules add to an
 *     alternative stage are named as the rules name them: "gave way", "all alternatives failed").
 *  3. A send is seen in the call record: a new record, a new alternative or a new calledAt is one send of
 *     that alternative; a new failedAttempt is one failed send. The wait before a re-send is the record's
 *     deadline less the time the iteration that set it began (its clock, ldgsm:now, is read then).
 *  4. Reads and writes go through demo_io (demos/demo_common.h), paths relative to the server's base. The
 *     scenario is over when the workflow is complete; bounding the run is the caller's part. */
#ifndef LDGSM_DEMOS_DEMO_SUPPLIERS_H
#define LDGSM_DEMOS_DEMO_SUPPLIERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "demos/demo_common.h"

typedef struct suppliers_options {
    const char *base;   /* the server's base URL, ending in '/' */
    bool no_supplier_b; /* supplier B's shop is gone as well: the call is exhausted */
    FILE *out;          /* the run table */
} suppliers_options;

/* The instance the demo plays, relative to the base: the fixtures' status/order1. */
#define SUPPLIERS_INSTANCE_PATH "status/order1"
#define SUPPLIERS_INSTANCE_FRAGMENT "#it"

typedef struct suppliers_demo suppliers_demo;

suppliers_demo *suppliers_demo_new(const suppliers_options *options, const demo_io *io);
void suppliers_demo_free(suppliers_demo *d);
/* Reads the model and the instance, removes supplier B's shop when asked, prints the table's head. 0, or
 * -1 with message (a read or write failed; the model lacks a stage, a label or the order call). */
int suppliers_demo_start(suppliers_demo *d, char *message, size_t size);
/* After one agent iteration that began at `began` (wall clock, seconds since the epoch, read just before
 * it): prints the rows of what changed and lets the environment react. DEMO_OVER once the workflow is
 * complete (a summary is printed); DEMO_FAILED with message when a read or write failed. */
enum demo_progress suppliers_demo_after_iteration(suppliers_demo *d, double began, char *message, size_t size);
/* The last iteration changed nothing the table shows: the workflow waits for a deadline. */
bool suppliers_demo_idle(const suppliers_demo *d);
/* What the workflow waits for, e.g. "Order by phone open, until: the clerk confirmed a phone order". */
const char *suppliers_demo_waiting_for(suppliers_demo *d);

#endif
