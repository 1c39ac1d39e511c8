/* fuzz_ldp_body.c: libFuzzer target for request bodies on the LDP server's write path (ldp_store.h):
 * the first byte picks the body's media type (every type Accept-Put announces) and whether it is PUT
 * to a resource or to a container; the rest is the body. A refused write must answer 400 and change
 * nothing; an accepted one must be stored as Turtle that the server can serve again in every
 * representation (or refuse as Not Acceptable, never fail), as valid N-Triples. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ldp/ldp_store.h"
#include "rdf/rdfio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BASE "http://fuzz.example"

static ldp_store *open_store(void) {
    rdfio_prepare_libxml();
    ldp_store_config config = {NULL, BASE, free, NULL, NULL, NULL, NULL};
    char message[600];
    ldp_store *store = ldp_store_open(&config, message, sizeof message);
    if (!store)
        abort();
    return store;
}

/* Every representation of path's snapshot must be served, or refused by the size bound. */
static void check_served(ldp_doc *doc) {
    char message[600];
    for (int media = 0; media < LDP_MEDIA_COUNT; media++) {
        if (media == LDP_MEDIA_TURTLE)
            continue;
        buf out = {0};
        int rc = ldp_rdf_convert(doc->turtle->data, doc->turtle->len, doc->uri, media, &out, message,
                                 sizeof message);
        /* 1: too large, or RDF/XML cannot name a predicate (406); -1 would be a stored text that fails */
        if (rc == -1)
            abort();
        if (rc == 0 && media == LDP_MEDIA_NTRIPLES) {
            terms *t = terms_new();
            store *st = store_new();
            rdfio *io = rdfio_new(t);
            rdf_error err;
            if (rdf_parse(io, st, RDF_NTRIPLES, out.data ? out.data : "", out.len, doc->uri, 0, "served", &err) != 0)
                abort();
            rdfio_free(io);
            store_free(st);
            terms_free(t);
        }
        buf_free(&out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ldp_store *store;
    if (!store)
        store = open_store();
    if (size < 1)
        return 0;
    const char *path = data[0] & 0x80 ? "/c/" : "/r";
    ldp_body body = {(const char *)data + 1, size - 1, (enum ldp_media)((data[0] & 0x7f) % LDP_MEDIA_COUNT), "body"};
    ldp_conditions conditions = {0};
    ldp_outcome outcome = {0};

    ldp_doc *before = ldp_store_get(store, path);
    ldp_store_put(store, path, &body, &conditions, &outcome);
    ldp_doc *after = ldp_store_get(store, path);
    if (outcome.status == 201 || outcome.status == 204) {
        if (!after)
            abort();
        check_served(after);
    } else if (outcome.status == 400) {
        /* Nothing changed: the same snapshot (or still none). */
        if (after != before)
            abort();
    } else {
        abort();
    }
    if (before)
        ldp_doc_release(before);
    if (after)
        ldp_doc_release(after);
    ldp_outcome_clear(&outcome);
    return 0;
}
