/* fuzz_n3_reader.c: libFuzzer target for the N3 reader: any bytes must parse or fail with a message,
 * never crash, overflow the stack or leak. Each input gets a fresh term table. */
#include <stddef.h>
#include <stdint.h>

#include "n3/n3_reader.h"
#include "rdf/term.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    terms *t = terms_new();
    n3_doc doc;
    n3_error err;
    if (n3_parse(t, (const char *)data, size, "fuzz.n3", "http://fuzz.example/dir/doc", &doc, &err) == 0)
        n3_doc_free(&doc);
    terms_free(t);
    return 0;
}
