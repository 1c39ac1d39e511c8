/* ldp_fixtures.h: seeds an LDP store from a fixtures folder (ldp-fixtures/NAME: a folder is a
 * container, a file is a Turtle resource at the same path, a folder's .container.ttl its own
 * triples). What the store already holds (from --data) is kept unless overwrite is set. */
#ifndef LDGSM_LDP_FIXTURES_H
#define LDGSM_LDP_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>

#include "ldp/ldp_store.h"
#include "rdf/log.h"

typedef struct ldp_fixtures_counts {
    size_t written, kept;
} ldp_fixtures_counts;

/* Returns 0, or -1 with message (a file that is not Turtle is named with its line and column; the
 * resources seeded before it stay). */
int ldp_fixtures_seed(ldp_store *store, const char *dir, bool overwrite, const log_sink *log,
                      ldp_fixtures_counts *counts, char *message, size_t size);

#endif
