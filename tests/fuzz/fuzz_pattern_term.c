/* fuzz_pattern_term.c: libFuzzer target for seed 004's term syntax and its compiler: a term parses (and
 * then compiles, within a small stage cap, or is refused with a message) or is refused with a message,
 * never a crash or a deep stack; nesting stops at rdf/nesting.h's bound. Task names need no names
 * document for parsing; compiling one that names no task is an error like any other. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "patterns/compile.h"
#include "patterns/pattern_term.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[512] = "";
    pattern *p = pattern_parse_term((const char *)data, size, "http://fuzz.example/names", err, sizeof err);
    if (!p) {
        if (!err[0])
            abort(); /* refused without a word */
        return 0;
    }
    if (pattern_check(p, err, sizeof err) == 0) {
        terms *t = terms_new();
        store *names = store_new();
        triple *ts = NULL;
        size_t n = 0;
        err[0] = '\0';
        if (pattern_compile_bounded(t, names, "http://fuzz.example/model", p, 200, &ts, &n, err, sizeof err) != 0 &&
            !err[0])
            abort();
        free(ts);
        store_free(names);
        terms_free(t);
    }
    pattern_free(p);
    return 0;
}
