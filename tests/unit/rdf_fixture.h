/* rdf_fixture.h: the cmocka fixture of the unit tests that read RDF: a term table, a store and an rdfio,
 * made fresh for each test (setup) and freed after it (teardown). */
#ifndef LDGSM_TESTS_RDF_FIXTURE_H
#define LDGSM_TESTS_RDF_FIXTURE_H

#include <stdlib.h>

#include "rdf/buf.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"
#include "rdf/term.h"

typedef struct fixture {
    terms *t;
    store *st;
    rdfio *io;
} fixture;

static int setup(void **state) {
    fixture *f = xcalloc(1, sizeof *f);
    f->t = terms_new();
    f->st = store_new();
    f->io = rdfio_new(f->t);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    rdfio_free(f->io);
    store_free(f->st);
    terms_free(f->t);
    free(f);
    return 0;
}

#endif
