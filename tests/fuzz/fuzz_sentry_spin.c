/* fuzz_sentry_spin.c: libFuzzer target for the SPIN front end of sentries: the input is a Turtle document
 * (based at http://fuzz.example/doc) whose <#s> is read as an sp:Ask; whatever its graph holds (lists
 * that cycle or nest, expressions linked deeper than any bracket could write), the answer is a tree or a
 * message naming the sentry. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/rdfio.h"
#include "reason/sentry_ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    terms *t = terms_new();
    store *st = store_new();
    rdfio *io = rdfio_new(t);
    rdf_error err;
    if (rdf_parse(io, st, RDF_TURTLE, (const char *)data, size, "http://fuzz.example/doc", 0, "fuzz", &err) == 0) {
        sq_node *tree = NULL;
        char error[640] = "";
        int rc = sentry_from_spin(t, st, terms_iri_cstr(t, "http://fuzz.example/doc#s"), &tree, error, sizeof error);
        if ((rc == 0) != (tree != NULL))
            abort();
        if (rc != 0 && !strstr(error, "sentry <http://fuzz.example/doc#s>"))
            abort();
        sq_node_free(tree);
    }
    rdfio_free(io);
    store_free(st);
    terms_free(t);
    return 0;
}
