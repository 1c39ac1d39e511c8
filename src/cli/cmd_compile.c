/* cmd_compile.c: `ldgsm compile`: a workflow pattern (term text, or RDF in the pattern vocabulary) and the
 * names document of its tasks and conditions in, a GSM model in Turtle out, checked by lint before it is
 * written (src/patterns/compile.h). */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/model_out.h"
#include "patterns/compile.h"
#include "patterns/pattern_rdf.h"
#include "patterns/pattern_term.h"
#include "rdf/rdfio.h"

static const char compile_usage[] =
    "usage: ldgsm compile [--term TEXT | --term-file FILE] [--base IRI] [--max-stages N] [-o OUT] NAMES\n"
    "\n"
    "Compiles a workflow pattern into a GSM model that `ldgsm run` runs (DESIGN.md 6.2, seed 004; the scheme\n"
    "is in ontology/README.md). The pattern is a term (--term, --term-file), e.g.\n"
    "  seq(task(a), par(task(b), task(c)), loop(until(approved), task(d)))\n"
    "or, without them, NAMES's pat:Workflow (ontology/patterns.ttl). NAMES (Turtle, or another syntax by its\n"
    "extension) describes what the term names: `task(a)` is NAMES's <#a>, an http:Request or ldgsm:Call;\n"
    "conditions and events are sp:Ask nodes with sp:text; item lists are pat:ItemList nodes. The model\n"
    "holds those requests, and the conditions' text inside its sentries, each sentry saying what its\n"
    "conditions say beside their text (ldgsm:readsContainer, ldgsm:reads: what the crawl GETs for them).\n"
    "\n"
    "options:\n"
    "  --term TEXT       the pattern as a term\n"
    "  --term-file FILE  the same, from a file\n"
    "  --base IRI        where the model will be published (default http://ldgsm.invalid/models/compiled):\n"
    "                    NAMES is read as if it stood there, so its <#a> is the model's <#a> and its\n"
    "                    relative IRIs (<../env/x>) keep their meaning; the output is relative to it\n"
    "  --max-stages N    refuse a model of more than N stages (default 10000), before building it: copies\n"
    "                    multiply (loop(count(1000), loop(count(1000), task(a))) is 1,001,002 stages,\n"
    "                    gigabytes of Turtle); the error names the term that passes N and its stages\n"
    "  -o OUT            write the model to OUT (default: standard output)\n"
    "  -h, --help        this text\n"
    "\n"
    "The model is linted before it is written: a lint error (a condition whose SPARQL does not parse, a\n"
    "request lint rejects) is reported and nothing is written.\n"
    "\n"
    "exit status: 0 written, 1 bad input (the message says where), 2 usage error\n";

#define DEFAULT_BASE "http://ldgsm.invalid/models/compiled"

/* The compiled model names its stages <#root>, <#sP>, <#sP-...> and <#root-...>: a names document that
 * describes one of those would have it merged into a stage. */
static const char *generated_name_taken(terms *t, store *names, const char *base) {
    size_t base_len = strlen(base);
    for (uint32_t i = 0; i < store_size(names); i++) {
        term_id s = store_triple(names, i)->s;
        if (terms_kind(t, s) != TERM_IRI)
            continue;
        const char *iri = terms_lex(t, s, NULL);
        if (strncmp(iri, base, base_len) != 0 || iri[base_len] != '#')
            continue;
        const char *fragment = iri + base_len + 1;
        if (strncmp(fragment, "root", 4) == 0 || (fragment[0] == 's' && fragment[1] >= '0' && fragment[1] <= '9'))
            return iri;
    }
    return NULL;
}

int cmd_compile(int argc, char **argv) {
    static const struct option options[] = {{"term", required_argument, NULL, 't'},
                                            {"term-file", required_argument, NULL, 'f'},
                                            {"base", required_argument, NULL, 'b'},
                                            {"max-stages", required_argument, NULL, 'm'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    const char *term_text = NULL, *term_file = NULL, *base = DEFAULT_BASE, *output = NULL;
    size_t max_stages = PATTERN_DEFAULT_MAX_STAGES;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
        switch (c) {
        case 't': term_text = optarg; break;
        case 'f': term_file = optarg; break;
        case 'b': base = optarg; break;
        case 'o': output = optarg; break;
        case 'm': {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (optarg[0] < '0' || optarg[0] > '9' || *end || v == 0 || errno || v > SIZE_MAX) {
                fprintf(stderr, "ldgsm compile: --max-stages needs a positive number, not '%s'\n", optarg);
                return 2;
            }
            max_stages = (size_t)v;
            break;
        }
        case 'h': fputs(compile_usage, stdout); return 0;
        default: fputs(compile_usage, stderr); return 2;
        }
    }
    if (optind != argc - 1 || (term_text && term_file) || strchr(base, '#')) {
        fputs(optind != argc - 1 ? "ldgsm compile: give one NAMES document\n"
              : strchr(base, '#') ? "ldgsm compile: --base is a document IRI, without '#'\n"
                                  : "ldgsm compile: give --term or --term-file, not both\n",
              stderr);
        fputs(compile_usage, stderr);
        return 2;
    }
    const char *names_path = argv[optind];
    int rc = 1;
    terms *t = terms_new();
    store *names = store_new();
    rdfio *io = rdfio_new(t);
    pattern *p = NULL;
    triple *model = NULL;
    size_t model_count = 0;
    char *term_buffer = NULL, *names_text = NULL;
    buf text = {0};
    size_t names_len;
    if (!(names_text = read_file(names_path, &names_len))) {
        fprintf(stderr, "ldgsm compile: %s: cannot read: %s\n", names_path, strerror(errno));
        goto done;
    }
    enum rdf_syntax syntax = rdf_syntax_from_filename(names_path);
    rdf_error perr;
    if (rdf_parse(io, names, syntax == RDF_SYNTAX_UNKNOWN ? RDF_TURTLE : syntax, names_text, names_len, base, 0,
                  names_path, &perr) != 0) {
        fprintf(stderr, "ldgsm compile: %s\n", perr.message);
        goto done;
    }
    char why[600];
    if (term_file) {
        size_t len;
        if (!(term_buffer = read_file(term_file, &len))) {
            fprintf(stderr, "ldgsm compile: %s: cannot read: %s\n", term_file, strerror(errno));
            goto done;
        }
        if (!(p = pattern_parse_term(term_buffer, len, base, why, sizeof why))) {
            fprintf(stderr, "ldgsm compile: %s:%s\n", term_file, why);
            goto done;
        }
    } else if (term_text) {
        if (!(p = pattern_parse_term(term_text, strlen(term_text), base, why, sizeof why))) {
            fprintf(stderr, "ldgsm compile: --term:%s\n", why);
            goto done;
        }
    } else if (!(p = pattern_read_rdf(t, names, base, why, sizeof why))) {
        fprintf(stderr, "ldgsm compile: %s: %s\n", names_path, why);
        goto done;
    }
    const char *taken = generated_name_taken(t, names, base);
    if (taken) {
        fprintf(stderr, "ldgsm compile: %s: <%s> is a name the compiled model gives its stages (#root..., "
                        "#s1...): rename it\n",
                names_path, taken);
        goto done;
    }
    if (pattern_compile_bounded(t, names, base, p, max_stages, &model, &model_count, why, sizeof why) != 0) {
        fprintf(stderr, "ldgsm compile: %s: %s\n", names_path, why);
        goto done;
    }
    buf_puts(&text, "# A GSM model compiled by `ldgsm compile` from\n#   ");
    size_t header = text.len;
    pattern_format(p, base, 0, &text);
    for (size_t i = header; i < text.len; i++)
        if (text.data[i] == '\n')
            text.data[i] = ' ';
    buf_puts(&text, "\n# (the compilation scheme: ontology/README.md, \"Workflow patterns\").\n");
    if (model_out_write("compile", io, model, model_count, base, &text, output) != 0)
        goto done;
    rc = 0;
done:
    buf_free(&text);
    free(model);
    free(term_buffer);
    free(names_text);
    pattern_free(p);
    rdfio_free(io);
    store_free(names);
    terms_free(t);
    return rc;
}
