/* demo_common.c: reading through demo_io, the phrases of "what happened", and the run table's rows, shared
 * by the scenarios of `ldgsm demo` (demo_common.h). */
#include "demos/demo_common.h"

#include <stdarg.h>
#include <string.h>

#include "agent/vocab.h"

enum { LABEL_WIDTH = 4 };

store *demo_read(const demo_io *io, rdfio *rdf, const char *base, const char *path, bool *absent, char *message,
                 size_t size) {
    buf body = {0};
    int got = io->get(io->user, path, &body, message, size);
    if (absent)
        *absent = got == 1;
    if (got != 0) {
        if (got == 1 && absent)
            message[0] = '\0';
        buf_free(&body);
        return NULL;
    }
    buf iri = {0};
    buf_printf(&iri, "%s%s", base, path);
    store *st = store_new();
    rdf_error err;
    if (rdf_parse(rdf, st, RDF_TURTLE, body.len ? body.data : "", body.len, buf_cstr(&iri), 0, path, &err) != 0) {
        snprintf(message, size, "%s", err.message);
        store_free(st);
        st = NULL;
    }
    buf_free(&iri);
    buf_free(&body);
    return st;
}

term_id demo_instance_node(terms *t, store *st, term_id instance, term_id model) {
    term_id is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf);
    term_id in_artifact_instance = terms_iri_cstr(t, GSM_inArtifactInstance);
    store_iter it;
    store_match(st, 0, is_instance_of, model, 0, store_size(st), &it);
    uint32_t n;
    const triple *tr;
    while ((tr = store_next(&it, &n)))
        if (store_find(st, tr->s, in_artifact_instance, instance) != UINT32_MAX)
            return tr->s;
    return 0;
}

int demo_put(const demo_io *io, const char *path, const char *name, const char *ns, const char *triples, char *message,
             size_t size) {
    buf body = {0};
    buf_printf(&body, "@prefix %s: <%s> .\n\n%s", name, ns, triples);
    int rc = io->put(io->user, path, buf_cstr(&body), message, size);
    buf_free(&body);
    return rc;
}

term_id demo_iri(terms *t, const char *prefix, const char *rest) {
    buf b = {0};
    buf_printf(&b, "%s%s", prefix, rest);
    term_id id = terms_iri(t, b.data, b.len);
    buf_free(&b);
    return id;
}

double demo_seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void demo_phrase(buf *what, const char *fmt, ...) {
    char text[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    if (what->len)
        buf_puts(what, "; ");
    buf_puts(what, text);
}

const char *demo_times(unsigned n, char *out, size_t size) {
    if (n == 1)
        return "once";
    if (n == 2)
        return "twice";
    snprintf(out, size, "%u times", n);
    return out;
}

void demo_wrapped(FILE *out, const char *text) {
    while (*text) {
        size_t line = strcspn(text, "\n"), n = line;
        if (n > DEMO_COLUMNS) {
            n = DEMO_COLUMNS;
            while (n > 0 && text[n] != ' ')
                n--;
            if (n == 0) /* one word wider than the page: up to its end */
                n = strcspn(text, " \n");
        }
        fprintf(out, "%.*s\n", (int)n, text);
        text += n;
        while (*text == ' ')
            text++;
        if (n == line && *text == '\n')
            text++;
    }
}

/* The cells of a line, each padded to its width but the last. */
static void print_cells(const demo_table *t, const char *const *cells) {
    for (int c = 0; c < t->cell_count; c++) {
        if (c + 1 < t->cell_count)
            fprintf(t->out, " | %-*s", t->cell_widths[c], cells[c]);
        else
            fprintf(t->out, " | %s", cells[c]);
    }
}

void demo_table_head(const demo_table *t, const char *label, const char *what, const char *const *names) {
    fprintf(t->out, "%*s | %-*s", LABEL_WIDTH, label, t->what_width, what);
    print_cells(t, names);
    fputc('\n', t->out);
    for (int k = 0; k < LABEL_WIDTH + 1; k++)
        fputc('-', t->out);
    for (int c = -1; c < t->cell_count; c++) {
        int width = c < 0 ? t->what_width : t->cell_widths[c];
        fputc('+', t->out);
        for (int k = 0; k < width + (c + 1 < t->cell_count ? 2 : 1); k++) /* the last: as wide as its cells */
            fputc('-', t->out);
    }
    fputc('\n', t->out);
    fflush(t->out);
}

void demo_table_row(const demo_table *t, const char *label, const char *what, const char *const *cells) {
    bool first = true;
    do {
        int width = first ? t->what_width : t->what_width - 2;
        size_t n = strlen(what);
        if (n > (size_t)width) {
            n = (size_t)width;
            while (n > 0 && what[n] != ' ')
                n--;
            if (n == 0)
                n = (size_t)width;
        }
        if (first) {
            fprintf(t->out, "%*s | %-*.*s", LABEL_WIDTH, label, width, (int)n, what);
            print_cells(t, cells);
        } else {
            fprintf(t->out, "%*s |   %-*.*s", LABEL_WIDTH, "", width, (int)n, what);
            for (int c = 0; c + 1 < t->cell_count; c++)
                fprintf(t->out, " | %*s", t->cell_widths[c], "");
            fputs(" |", t->out);
        }
        fputc('\n', t->out);
        what += n;
        while (*what == ' ')
            what++;
        first = false;
    } while (*what);
    fflush(t->out);
}
