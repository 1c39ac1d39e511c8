/* demo_common.h: what the scenarios of `ldgsm demo` share (demos/demo.h, the fire alarm; demos/demo_suppliers.h,
 * the procurement with its supplier call; demos/demo_orders.h, three orders of one model): the environment's
 * requests (demo_io, so this layer knows no HTTP), reading a server document into a store, and the run
 * table: a row label, a "what happened" column wrapped over continuation lines at spaces, then the status
 * cells. */
#ifndef LDGSM_DEMOS_DEMO_COMMON_H
#define LDGSM_DEMOS_DEMO_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "rdf/buf.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"
#include "rdf/term.h"

/* The data of the orders and suppliers demos' shop (not a vocabulary ldgsm reads). */
#define NS_SHOP "https://example.org/shop#"

/* The environment's requests; paths are relative to the server's base ("devices/alarm"). */
typedef struct demo_io {
    /* GETs path as Turtle, appending its body to *turtle: 0; 1 with message when the server answers 404
     * (no such resource); -1 with message otherwise. */
    int (*get)(void *user, const char *path, buf *turtle, char *message, size_t size);
    /* PUTs the Turtle text at path: 0 (2xx), or -1 with message. */
    int (*put)(void *user, const char *path, const char *turtle, char *message, size_t size);
    /* DELETEs path: 0 (2xx), or -1 with message. */
    int (*remove)(void *user, const char *path, char *message, size_t size);
    void *user;
} demo_io;

/* What a scenario says after an agent iteration. */
enum demo_progress { DEMO_GOING_ON, DEMO_OVER, DEMO_FAILED };

/* GETs base + path and parses it (relative IRIs against base + path) into a new store. NULL with message
 * when the request or the parse failed; when absent is given, a 404 sets it and is no failure (NULL, no
 * message). */
store *demo_read(const demo_io *io, rdfio *rdf, const char *base, const char *path, bool *absent, char *message,
                 size_t size);
/* PUTs the Turtle triples at path, after `@prefix name: <ns> .`: 0, or -1 with message. */
int demo_put(const demo_io *io, const char *path, const char *name, const char *ns, const char *triples, char *message,
             size_t size);
/* The status document's node of instance that gsm:isInstanceOf model (a stage's or a milestone's), or 0. */
term_id demo_instance_node(terms *t, store *st, term_id instance, term_id model);
/* The IRI prefix + rest, interned. */
term_id demo_iri(terms *t, const char *prefix, const char *rest);

/* The time of clock (CLOCK_MONOTONIC for durations, CLOCK_REALTIME to compare with the agent's clock), in
 * seconds. */
double demo_seconds(clockid_t clock);

/* Appends one phrase to a row's "what happened", after "; " when it is not the first. */
void demo_phrase(buf *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "once", "twice", "3 times" (out holds the last). */
const char *demo_times(unsigned n, char *out, size_t size);

enum { DEMO_COLUMNS = 100 }; /* what a demo prints fits this many columns */

/* Prints text, each of its lines wrapped at spaces to DEMO_COLUMNS (a word longer than that, a URL, stays
 * whole on its own line). */
void demo_wrapped(FILE *out, const char *text);

/* A run table: a 4-character label column, "what happened" what_width wide, then cell_count cells. */
typedef struct demo_table {
    FILE *out;
    int what_width;
    int cell_count;
    const int *cell_widths;
} demo_table;

/* The header line (label, what, the cells' names) and the rule under it. */
void demo_table_head(const demo_table *t, const char *label, const char *what, const char *const *names);
/* One row, flushed: what is wrapped at spaces over continuation lines with blank cells. */
void demo_table_row(const demo_table *t, const char *label, const char *what, const char *const *cells);

#endif
