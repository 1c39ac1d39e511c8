/* demo_orders.h: the data-flow scenario `ldgsm demo --orders` plays (docs/DESIGN.md §8.6, the fixture
 * ldp-fixtures/orders): one model, three instances (status/o1, o2, o3), each acting on its own order, shown
 * side by side: one table column per order (stage reached, price bound, approval, shipment Location), one
 * row per agent iteration that changed something.
 *
 * NOTES ON THE DESIGN
 *  1. The orders' data differ (quotes 40, 250, 90), so only order 2 is over the approval limit of 100. The
 *     model's approval is its request being answered (approvals/ takes the POST): there is no manager to
 *     play, and the environment does nothing; the scenario only watches.
 *  2. At the end the scenario checks what the run left on the server, not what the table showed: each
 *     order's one notification names that order's shipment (the instance's shop:shipment, a shipment whose
 *     shop:order is that order), and approvals/ holds requests for the orders over 100 only. A mismatch is
 *     a failure naming the order.
 *  3. Reads go through demo_io (demos/demo_common.h), paths relative to the server's base. Bounding the run is
 *     the caller's part. */
#ifndef LDGSM_DEMOS_DEMO_ORDERS_H
#define LDGSM_DEMOS_DEMO_ORDERS_H

#include <stdio.h>

#include "demos/demo_common.h"

typedef struct orders_options {
    const char *base; /* the server's base URL, ending in '/' */
    FILE *out;        /* the run table */
} orders_options;

/* The instances the demo runs, relative to the base (each with the fragment ORDERS_INSTANCE_FRAGMENT). */
enum { ORDERS_COUNT = 3 };
extern const char *const orders_instance_paths[ORDERS_COUNT];
#define ORDERS_INSTANCE_FRAGMENT "#it"

typedef struct orders_demo orders_demo;

orders_demo *orders_demo_new(const orders_options *options, const demo_io *io);
void orders_demo_free(orders_demo *d);
/* Reads the instances as they are before the first iteration and prints the table's head. 0, or -1 with
 * message. */
int orders_demo_start(orders_demo *d, char *message, size_t size);
/* After one agent iteration: prints a row of what changed. DEMO_OVER once every order is complete and the
 * server's notifications, shipments and approvals check out (a summary is printed); DEMO_FAILED with
 * message when a read failed or they do not. */
enum demo_progress orders_demo_after_iteration(orders_demo *d, char *message, size_t size);
/* What the orders wait for, e.g. "o2 at Approve" (for a stall). */
const char *orders_demo_waiting_for(orders_demo *d);

#endif
