/* builtins_log_reading.c: the log: builtins that read: a document's text (log:content) and formula
 * (log:semantics), a string's formula (log:parsedAsN3), a formula's deductive closure (log:conclusion).
 *
 * NOTES ON THE DESIGN
 *  1. Documents are local files named by file: IRIs, and nothing else: a rule never makes a network
 *     request by itself (the agent's requests are its plan's), so a run depends on its inputs alone, as
 *     the time: builtins keep to the clock triple. An IRI that is not a readable file has no content.
 *  2. log:semantics and log:parsedAsN3 read N3 (Turtle is N3); a document that does not read has no
 *     formula. A string has no base: its relative IRIs resolve against the IRI of the string itself,
 *     urn:ldgsm:string, so they are at least absolute.
 *  3. log:conclusion runs the formula's rules on the formula's other triples in a reasoner of its own,
 *     bounded (100,000 derived triples, 10,000 fresh blank nodes): a closure beyond that, or a fuse
 *     that fires, has no conclusion. The conclusion holds the rules too, as cwm's does. */
#include "reason/builtin_family.h"

#include <stdlib.h>
#include <string.h>

#include "n3/n3_reader.h"
#include "rdf/buf.h"
#include "rdf/rdfio.h"
#include "reason/backward.h"
#include "reason/reasoner.h"
#include "reason/strata.h"

#define STRING_BASE "urn:ldgsm:string"

/* The local path of a file: IRI (NOTES 1), to free; NULL for anything else. */
static char *file_path(const terms *t, term_id iri) {
    if (terms_kind(t, iri) != TERM_IRI)
        return NULL;
    size_t len;
    const char *text = terms_lex(t, iri, &len);
    if (len < 8 || strncmp(text, "file:///", 8) != 0)
        return NULL;
    buf path = {0};
    for (size_t i = 7; i < len && text[i] != '#'; i++) /* the fragment names a part of the document */
        buf_putc(&path, text[i]);
    return buf_cstr(&path);
}

/* The formula of N3 text, or 0 when it does not read. */
static term_id formula_of_text(terms *t, const char *text, size_t len, const char *base) {
    n3_doc doc = {0};
    if (n3_parse(t, text, len, base, base, &doc, NULL) != 0)
        return 0;
    triple *ts = xmalloc((doc.count ? doc.count : 1) * sizeof *ts);
    for (size_t i = 0; i < doc.count; i++)
        ts[i] = doc.statements[i].t;
    term_id formula = terms_formula(t, ts, doc.count);
    free(ts);
    n3_doc_free(&doc);
    return formula;
}

static void log_content(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    char *path = file_path(t, subject);
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (text)
        emit_result(subject, object, simple_literal(t, text, len), emit, user);
    free(text);
    free(path);
}

static void log_semantics(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    char *path = file_path(t, subject);
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    term_id formula = text ? formula_of_text(t, text, len, terms_lex(t, subject, NULL)) : 0;
    if (formula)
        emit_result(subject, object, formula, emit, user);
    free(text);
    free(path);
}

static void log_parsed_as_n3(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    const char *text;
    size_t len;
    term_id formula = string_of(t, subject, &text, &len) ? formula_of_text(t, text, len, STRING_BASE) : 0;
    if (formula)
        emit_result(subject, object, formula, emit, user);
}

static void log_conclusion(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {
    if (terms_kind(t, subject) != TERM_FORMULA)
        return;
    size_t n;
    const triple *ts = terms_formula_triples(t, subject, &n);
    n3_doc doc = {.statements = xmalloc((n ? n : 1) * sizeof *doc.statements)};
    store *st = store_new();
    for (size_t i = 0; i < n; i++) {
        if (rule_statement(t, &ts[i]))
            doc.statements[doc.count++] = (n3_statement){.t = ts[i], .line = (unsigned)i + 1, .col = 1};
        else
            store_add(st, ts[i].s, ts[i].p, ts[i].o, 0);
    }
    const log_sink quiet = {.threshold = LOG_ERROR}; /* a rule that cannot fire is no answer to report */
    rule_set rs = {0};
    rule_set_add_program(&rs, t, &doc, "log:conclusion", &quiet);
    rule_set_compile_backward(&rs, t, &quiet);
    rule_set_layer_negation(&rs);
    reasoner_options options = {.max_derived = 100000, .max_fresh_nodes = 10000, .log = &quiet};
    reasoner *r = reasoner_new(t, st, &options);
    if (reasoner_run(r, &rs, 0) == 0) {
        uint32_t size = store_size(st);
        triple *closure = xmalloc(((size_t)size + doc.count + 1) * sizeof *closure);
        size_t count = 0;
        for (uint32_t i = 0; i < size; i++)
            if (!rule_set_hides(&rs, store_triple(st, i)->p))
                closure[count++] = *store_triple(st, i);
        for (size_t i = 0; i < doc.count; i++)
            closure[count++] = doc.statements[i].t;
        emit_result(subject, object, terms_formula(t, closure, count), emit, user);
        free(closure);
    }
    reasoner_free(r);
    rule_set_free(&rs);
    store_free(st);
    free(doc.statements);
}

const builtin builtins_log_reading[] = {
    {NS_LOG "content", BUILTIN_SUBJECT_IN, log_content, false},
    {NS_LOG "semantics", BUILTIN_SUBJECT_IN, log_semantics, false},
    {NS_LOG "parsedAsN3", BUILTIN_SUBJECT_IN, log_parsed_as_n3, false},
    {NS_LOG "conclusion", BUILTIN_SUBJECT_IN, log_conclusion, false},
};
const size_t builtins_log_reading_count = sizeof builtins_log_reading / sizeof builtins_log_reading[0];
