/* cmd_draw.c: `ldgsm draw`: reads a GSM model (and an instance's status document) from files, standard
 * input or http(s) URLs, and writes its picture (src/gsm/draw.h) as SVG, PNG or Graphviz dot; a state
 * machine schema (and an instance's document) becomes a state diagram (src/wsm/wsm_draw.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/commands.h"
#include "cli/shipped.h"
#include "gsm/draw.h"
#include "gsm/shape.h"
#include "http/http_client.h"
#include "rdf/rdfio.h"
#include "rdf/vocab_ns.h"
#include "wsm/wsm_draw.h"

static const char draw_usage[] =
    "usage: ldgsm draw MODEL [--instance URI] [-o FILE]\n"
    "       ldgsm draw SCHEMA [--instance URI] [-o FILE]\n"
    "\n"
    "Draws a GSM workflow model (gsm: <" NS_GSM ">) with Graphviz: each stage a box\n"
    "holding its milestones (ellipses), guards (small diamonds, named, with what they wait for: their\n"
    "sentries' rdfs:label or rdfs:comment, else the milestones they read, up to 90 bytes) and child\n"
    "stages; an arrow from each milestone a guard's sentries read to that guard (solid: read as\n"
    "achieved; dotted, ending in a bar: read as not achieved); a dashed arrow \"then\" from each of a\n"
    "stage's ldgsm:alternativeStages to the one given its turn after it. Names are rdfs:label, else the\n"
    "IRI's fragment. A model written in the authors' draft vocabulary\n"
    "(http://tok450s.lan:8080/ldbbc/gsm-vocab.ttl#) is read through the shipped\n"
    "rules/compat-authors-draft.n3, as `ldgsm run --compat authors-draft` reads it.\n"
    "\n"
    "A document describing a workflow state machine schema (a wsm:Schema, ontology/wsm.ttl) is drawn as\n"
    "a state diagram: states as rounded boxes, an arrow from a small point to the initial state, and each\n"
    "transition an arrow labelled \"event [conditions] / variable := value\". With --instance (a machine\n"
    "instance, e.g. http://host/documents/doc1#it) only its schema is drawn, its current state filled\n"
    "and marked \"current\", and a note gives the instance's variable values.\n"
    "\n"
    "MODEL (or SCHEMA) is a file (syntax from its extension; a file without one is Turtle, as in\n"
    "ldp-fixtures/), '-' for Turtle on standard input (based at file:///dev/stdin), or an http(s) URL\n"
    "(GET, Turtle preferred). Without --instance every root stage of MODEL (every schema) is drawn.\n"
    "\n"
    "options:\n"
    "  --instance URI  colour the picture by this workflow instance's state, read from its status\n"
    "                  document (URI without its fragment: a file, '-', or an http(s) URL): stages\n"
    "                  active (green), inactive (grey), completed (blue), not set up (white);\n"
    "                  achieved milestones gold; a stage's call (its ldgsm:CallRecord) as its box's\n"
    "                  border and a line under its name: calling (blue), retrying (orange: calling\n"
    "                  after a failure), exhausted (red); answered calls are not shown. Only the\n"
    "                  instance's own model (its gsm:isInstanceOf) is drawn, and MODEL must\n"
    "                  describe it (default: no instance)\n"
    "  -o FILE         write to FILE, its format from its extension: .svg, .png or .dot (Graphviz with\n"
    "                  the layout's positions); '-' is standard output (default: SVG on standard output)\n"
    "  -h, --help      this text\n"
    "\n"
    "Sentries that do not parse are drawn without their arrows, with a warning on standard error.\n"
    "exit status: 0 drawn, 1 cannot read or draw it (a missing file, a failed GET, RDF that does not\n"
    "parse, no stage in MODEL, an instance MODEL does not describe), 2 usage error\n";

/* One document read: its text, the IRI it is based at, how messages name it. */
typedef struct document {
    char *name;
    char *base;
    enum rdf_syntax syntax;
    buf text;
} document;

static void document_free(document *d) {
    free(d->name);
    free(d->base);
    buf_free(&d->text);
}

static bool is_http_url(const char *where) {
    return strncasecmp(where, "http://", 7) == 0 || strncasecmp(where, "https://", 8) == 0;
}

static int get_url(http_client **client, const char *url, document *d, char *error, size_t error_len) {
    if (!*client && !(*client = http_client_new(NULL))) {
        snprintf(error, error_len, "cannot GET %s: libcurl did not start", url);
        return -1;
    }
    http_header accept = {"Accept", rdf_accept_header()};
    http_request request = {.method = "GET", .url = url, .headers = &accept, .header_count = 1};
    http_result result;
    http_run(*client, &request, 1, &result);
    int rc = -1;
    if (result.failure != HTTP_FAIL_NONE)
        snprintf(error, error_len, "GET %s: %s (%s)", url, http_failure_name(result.failure), result.message);
    else if (result.status / 100 != 2)
        snprintf(error, error_len, "GET %s: the server answered %ld", url, result.status);
    else if ((d->syntax = rdf_syntax_from_media_type(result.content_type)) == RDF_SYNTAX_UNKNOWN)
        snprintf(error, error_len, "GET %s: the answer is %s, not RDF this reader parses", url,
                 result.content_type ? result.content_type : "untyped");
    else {
        buf_append(&d->text, result.body.data ? result.body.data : "", result.body.len);
        d->base = xstrndup(result.final_url, strlen(result.final_url));
        rc = 0;
    }
    http_result_free(&result);
    return rc;
}

/* Reads a document from where: an http(s) URL, '-' (standard input) or a file. */
static int read_document(http_client **client, const char *where, document *d, char *error, size_t error_len) {
    *d = (document){.name = xstrndup(where, strlen(where))};
    if (is_http_url(where))
        return get_url(client, where, d, error, error_len);
    if (strcmp(where, "-") == 0) {
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
            buf_append(&d->text, chunk, n);
        if (ferror(stdin)) {
            snprintf(error, error_len, "standard input: %s", strerror(errno));
            return -1;
        }
        d->base = xstrndup("file:///dev/stdin", 17);
        d->syntax = RDF_TURTLE;
        return 0;
    }
    size_t len;
    char *text = read_file(where, &len);
    if (!text) {
        snprintf(error, error_len, "%s: %s", where, strerror(errno));
        return -1;
    }
    buf_append(&d->text, text, len);
    free(text);
    d->base = rdf_file_iri(where);
    d->syntax = rdf_syntax_from_filename(where);
    return 0;
}

static int format_of(const char *path, enum gsm_draw_format *format) {
    const char *dot = strrchr(path, '.');
    if (strcmp(path, "-") == 0 || (dot && strcasecmp(dot, ".svg") == 0))
        *format = GSM_DRAW_SVG;
    else if (dot && strcasecmp(dot, ".png") == 0)
        *format = GSM_DRAW_PNG;
    else if (dot && (strcasecmp(dot, ".dot") == 0 || strcasecmp(dot, ".gv") == 0))
        *format = GSM_DRAW_DOT;
    else
        return -1;
    return 0;
}

static int write_output(const char *path, const buf *picture, char *error, size_t error_len) {
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f || fwrite(picture->data, 1, picture->len, f) != picture->len || fflush(f) != 0) {
        snprintf(error, error_len, "%s: %s", to_stdout ? "standard output" : path, strerror(errno));
        if (f && !to_stdout)
            fclose(f);
        return -1;
    }
    if (!to_stdout && fclose(f) != 0) {
        snprintf(error, error_len, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static wsm_draw_document machine_document(document *d) {
    return (wsm_draw_document){d->name, d->base, d->syntax, buf_cstr(&d->text), d->text.len};
}

/* A state machine schema (wsm/wsm_draw.h), with the instance's document when there is one. */
static int draw_machine(document *docs, size_t doc_count, const char *instance, enum gsm_draw_format format,
                        buf *picture, char *error, size_t error_len) {
    wsm_draw_document read[2];
    for (size_t i = 0; i < doc_count; i++)
        read[i] = machine_document(&docs[i]);
    return wsm_draw(read, doc_count, instance, format, picture, error, error_len);
}

/* Loads MODEL and the instance's document into a shape and draws it; a state machine schema is drawn as
 * a state diagram instead. */
static int draw(const char *model, const char *instance, const char *output, enum gsm_draw_format format) {
    char error[1024];
    http_client *client = NULL;
    document docs[2] = {{0}};
    size_t doc_count = 0;
    char *instance_iri = NULL;
    char *compat_rules = shipped_path("rules/compat-authors-draft.n3");
    gsm_shape *shape = gsm_shape_new(compat_rules);
    buf picture = {0};
    int rc = read_document(&client, model, &docs[doc_count++], error, sizeof error);
    if (rc == 0 && instance) {
        const char *hash = strchr(instance, '#');
        char *where = xstrndup(instance, hash ? (size_t)(hash - instance) : strlen(instance));
        rc = read_document(&client, where, &docs[doc_count++], error, sizeof error);
        free(where);
        if (rc == 0) {
            buf iri = {0};
            buf_printf(&iri, "%s%s", docs[1].base, hash ? hash : "");
            instance_iri = buf_cstr(&iri);
        }
    }
    wsm_draw_document first = machine_document(&docs[0]);
    bool machine = rc == 0 && wsm_draw_is_schema(&first);
    if (machine)
        rc = draw_machine(docs, doc_count, instance_iri, format, &picture, error, sizeof error);
    for (size_t i = 0; rc == 0 && !machine && i < doc_count; i++)
        rc = gsm_shape_load(shape, docs[i].name, docs[i].base, docs[i].syntax, buf_cstr(&docs[i].text),
                            docs[i].text.len, error, sizeof error);
    const char *about = NULL; /* what the error is about, when the message does not say */
    if (rc == 0 && !machine && gsm_shape_build(shape, instance_iri, error, sizeof error) != 0) {
        about = model;
        rc = -1;
    }
    if (rc == 0 && !machine && !shape->has_model) {
        snprintf(error, sizeof error, "%s does not describe <%s>, the model of the instance %s", model,
                 shape->stages[0].iri, instance_iri);
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < shape->warning_count; i++)
        fprintf(stderr, "ldgsm draw: warning: %s\n", shape->warnings[i]);
    if (rc == 0 && !machine)
        rc = gsm_draw(shape, format, &picture, error, sizeof error);
    if (rc == 0)
        rc = write_output(output, &picture, error, sizeof error);
    if (rc != 0)
        fprintf(stderr, "ldgsm draw: %s%s%s\n", about ? about : "", about ? ": " : "", error);
    buf_free(&picture);
    gsm_shape_free(shape);
    free(compat_rules);
    free(instance_iri);
    for (size_t i = 0; i < doc_count; i++)
        document_free(&docs[i]);
    http_client_free(client);
    return rc == 0 ? 0 : 1;
}

int cmd_draw(int argc, char **argv) {
    enum { OPT_INSTANCE = 256 };
    static const struct option options[] = {
        {"instance", required_argument, NULL, OPT_INSTANCE},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *instance = NULL, *output = "-";
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
        switch (c) {
        case OPT_INSTANCE: instance = optarg; break;
        case 'o': output = optarg; break;
        case 'h': fputs(draw_usage, stdout); return 0;
        default: fputs(draw_usage, stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fputs(optind >= argc ? "ldgsm draw: no model\n\n" : "ldgsm draw: one model only\n\n", stderr);
        fputs(draw_usage, stderr);
        return 2;
    }
    const char *model = argv[optind];
    enum gsm_draw_format format;
    if (format_of(output, &format) != 0) {
        fprintf(stderr, "ldgsm draw: -o %s: the format comes from the extension: .svg, .png or .dot\n", output);
        return 2;
    }
    if (instance && strcmp(model, "-") == 0 && strncmp(instance, "-", 1) == 0 &&
        (instance[1] == '\0' || instance[1] == '#')) {
        fputs("ldgsm draw: MODEL and the instance cannot both be standard input\n", stderr);
        return 2;
    }
    return draw(model, instance, output, format);
}
