/* model_out.c: a compiled GSM model serialized, linted and written (model_out.h). */
#include "cli/model_out.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gsm/lint.h"
#include "rdf/vocab_ns.h"

static const char *const model_prefixes[] = {
    "gsm",  NS_GSM,  "ldgsm", NS_LDGSM, "sp",  NS_SP,  "rdfs", NS_RDFS,
    "http", NS_HTTP, "httpm", NS_HTTPM, "xsd", NS_XSD, NULL};

int model_out_write(const char *command, rdfio *io, const triple *ts, size_t n, const char *base, buf *text,
                    const char *output) {
    if (rdf_write_turtle_prefixed(io, ts, n, base, model_prefixes, text) != 0) {
        fprintf(stderr, "ldgsm %s: the model could not be serialized\n", command);
        return -1;
    }
    lint_options lo = {0};
    gsm_lint *lint = gsm_lint_new(&lo);
    gsm_lint_load_text(lint, "the compiled model", base, RDF_TURTLE, text->data, text->len);
    gsm_lint_check(lint);
    for (size_t i = 0; i < gsm_lint_message_count(lint); i++)
        fprintf(stderr, "ldgsm %s: lint: %s\n", command, gsm_lint_message(lint, i)->line);
    bool refused = gsm_lint_count(lint, LINT_ERROR) > 0;
    gsm_lint_free(lint);
    if (refused) {
        fprintf(stderr, "ldgsm %s: the compiled model has lint errors: nothing written\n", command);
        return -1;
    }
    if (!output) {
        if (fwrite(text->data, 1, text->len, stdout) != text->len || fflush(stdout) != 0) {
            fprintf(stderr, "ldgsm %s: standard output: write failed\n", command);
            return -1;
        }
        return 0;
    }
    /* beside the target, renamed over it once whole: a failed write leaves the old file, not half a model */
    buf temporary = {0};
    buf_printf(&temporary, "%s.tmp-%ld", output, (long)getpid());
    const char *tmp = buf_cstr(&temporary);
    FILE *f = fopen(tmp, "w");
    bool written = f && fwrite(text->data, 1, text->len, f) == text->len;
    written = f && fclose(f) == 0 && written;
    if (!written || rename(tmp, output) != 0) {
        fprintf(stderr, "ldgsm %s: %s: cannot write: %s\n", command, output, strerror(errno));
        remove(tmp);
        buf_free(&temporary);
        return -1;
    }
    buf_free(&temporary);
    return 0;
}
