/* fuzz_dep_expr.c: libFuzzer target for seed 001's dependency files (events, complements, the algebra's
 * operators, attributes): a text is read or refused with "PATH:LINE:COL: what", never a crash or a deep
 * stack; nesting stops at rdf/nesting.h's bound. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deps/dep_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dep_set set;
    dep_set_init(&set);
    char err[512] = "";
    if (dep_set_read(&set, "fuzz.deps", (const char *)data, size, err, sizeof err) != 0 &&
        strncmp(err, "fuzz.deps:", 10) != 0)
        abort(); /* refused without its place */
    dep_set_free(&set);
    return 0;
}
