/* fuzz_rdf_intake.c: libFuzzer target for the RDF intake: the first input byte picks the syntax (Turtle,
 * N-Triples, N-Quads, RDF/XML, TriG), the rest is parsed into a fresh store; a failed parse must leave the
 * store empty (and name its line and column, in Turtle and TriG), and a successful one must survive both
 * writers. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "rdf/nt_writer.h"
#include "rdf/rdfio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1)
        return 0;
    static const enum rdf_syntax syntaxes[] = {RDF_TURTLE, RDF_NTRIPLES, RDF_NQUADS, RDF_RDFXML, RDF_TRIG};
    enum rdf_syntax syntax = syntaxes[data[0] % 5];
    terms *t = terms_new();
    store *st = store_new();
    rdfio *io = rdfio_new(t);
    rdf_error err;
    int rc = rdf_parse(io, st, syntax, (const char *)data + 1, size - 1, "http://fuzz.example/doc", 0, "fuzz",
                       &err);
    if (rc != 0 && store_size(st) != 0)
        abort(); /* a failed parse added triples */
    if (rc != 0 && (syntax == RDF_TURTLE || syntax == RDF_TRIG) && (err.line < 1 || err.col < 1))
        abort(); /* a Turtle or TriG error without its line and column */
    if (rc == 0) {
        uint32_t n = store_size(st);
        triple *ts = xmalloc((n + 1) * sizeof *ts);
        for (uint32_t i = 0; i < n; i++)
            ts[i] = *store_triple(st, i);
        buf out = {0};
        rdf_write_ntriples(t, ts, n, &out);
        rdf_write_turtle(io, ts, n, NULL, &out);
        buf_free(&out);
        free(ts);
    }
    rdfio_free(io);
    store_free(st);
    terms_free(t);
    return 0;
}
