/* fuzz_sentry_text.c: libFuzzer target for the SPARQL text front end of sentries (rasqal parses, then the
 * tree is converted): any text gives a tree or a message naming the sentry, never a crash, a deep stack or
 * rasqal's exponential preparation (the nesting bounds of rdf/nesting.h come first). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "reason/sentry_ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (memchr(data, '\0', size))
        return 0; /* sp:text is a literal: it holds no NUL */
    char *text = xstrndup((const char *)data, size);
    terms *t = terms_new();
    sentry_text_parser *p = sentry_text_parser_new(t);
    if (!p)
        abort();
    sq_node *tree = NULL;
    char error[640] = "";
    int rc = sentry_from_text(p, terms_iri_cstr(t, "http://fuzz.example/doc#s"), text, "http://fuzz.example/doc",
                              &tree, error, sizeof error);
    if (rc == 0 && !tree)
        abort(); /* success without a tree */
    if (rc != 0 && (tree || !strstr(error, "sentry <http://fuzz.example/doc#s>")))
        abort(); /* a failure that leaves a tree, or does not name the sentry */
    sq_node_free(tree);
    sentry_text_parser_free(p);
    terms_free(t);
    free(text);
    return 0;
}
