/* demo.h: the fire-alarm scenario `ldgsm demo` plays (docs/DESIGN.md §5.6, the GSM paper's Fig. 1 and 2):
 * the environment that moves the devices between the agent's iterations, and the run table that shows
 * every change as one row, like Fig. 2 (line, what happened, SFA, CD, m1, m2b).
 *
 * NOTES ON THE DESIGN
 *  1. The environment never acts on time. After each agent iteration (demo_after_iteration) it reads the
 *     status document and the devices, prints what the iteration changed, and lets the devices react: the
 *     door sensor shows the doors (at once, or one poll late), the alarm stops once the sensor shows every
 *     door closed. Only when the agent derived no unsafe request and nothing moved (the workflow rests)
 *     does the scenario take its next step: smoke is detected; the closed doors keep the smoke in (Fig. 2's
 *     line 5, an environment row: nothing the workflow reads changes); a door is reopened; the smoke clears.
 *     The scenario is over at the rest after its last step, when the workflow must be complete.
 *  2. Fig. 2's lines are matched in order: a row is labelled with the next expected line when its status
 *     columns are that line's (lines 1-4 and 6 are the agent's rows, line 5 the environment's), so a run
 *     shows the lines as an ordered subsequence of its rows, with other changes between them.
 *  3. Reads and writes go through demo_io (demos/demo_common.h), so this layer knows no HTTP. Resources are
 *     named by paths relative to the server's base ("devices/alarm"), as the fixtures
 *     (ldp-fixtures/fire-alarm) lay them out.
 *
 * The agent's tasks are seen in the devices: an iteration after which the alarm rings that did not before
 * told it to ring; one after which a door is closed that was open closed the doors. */
#ifndef LDGSM_DEMOS_DEMO_H
#define LDGSM_DEMOS_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "demos/demo_common.h"

typedef struct demo_options {
    const char *base;  /* the server's base URL, ending in '/' */
    bool late_sensor;  /* the door sensor shows the doors one agent iteration after they changed */
    FILE *out;         /* the run table */
} demo_options;

/* The instance the demo plays, relative to the base: the fixtures' status/alarm1. */
#define DEMO_INSTANCE_PATH "status/alarm1"
#define DEMO_INSTANCE_FRAGMENT "#it"

typedef struct demo demo;

demo *demo_new(const demo_options *options, const demo_io *io);
void demo_free(demo *d);
/* Reads the devices and the instance as they are before the agent's first iteration and prints the
 * table's head. 0, or -1 with message. */
int demo_start(demo *d, char *message, size_t size);
/* After one agent iteration (quiescent: it ran to its end and derived no unsafe request): prints the
 * rows of what changed, lets the environment react and, when the workflow rests, takes the scenario's
 * next step. DEMO_OVER once the scenario has ended with Fig. 2's lines shown and the workflow complete
 * (a summary is printed); DEMO_FAILED with message when a read or write failed or the ended run missed
 * one of them. */
enum demo_progress demo_after_iteration(demo *d, bool quiescent, char *message, size_t size);
/* What the scenario waits for, e.g. "the workflow to rest before: a door is reopened" (for a stall). */
const char *demo_waiting_for(const demo *d);

#endif
