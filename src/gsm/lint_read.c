/* lint_read.c: lint of what an agent read (lint_read.h). */
#include "gsm/lint_read.h"

#include <stdlib.h>
#include <string.h>

#include "agent/body.h"
#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "rdf/rdfio.h"
#include "rdf/strmap.h"

enum { LINT_MEMO_MAX = 1000 };

struct lint_memo {
    strmap results;  /* a version ("graph etag" lines) -> 0 (no error), or 1 + its index in refusals */
    char **refusals; /* why a version is refused (lint_memo_check) */
    size_t refusal_count;
};

lint_memo *lint_memo_new(void) { return xcalloc(1, sizeof(lint_memo)); }

static void forget(lint_memo *m) {
    strmap_free(&m->results);
    for (size_t i = 0; i < m->refusal_count; i++)
        free(m->refusals[i]);
    free(m->refusals);
    m->refusals = NULL;
    m->refusal_count = 0;
}

void lint_memo_free(lint_memo *m) {
    if (!m)
        return;
    forget(m);
    free(m);
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct lint_term_docs {
    u64map index; /* term -> 1 + index in lists */
    struct term_docs {
        term_id *docs;
        size_t count;
    } *lists;
    size_t count;
    bool filled; /* every serving term's documents are in (fill_term_docs) */
};

lint_term_docs *lint_term_docs_new(void) { return xcalloc(1, sizeof(lint_term_docs)); }

void lint_term_docs_free(lint_term_docs *m) {
    if (!m)
        return;
    for (size_t i = 0; i < m->count; i++)
        free(m->lists[i].docs);
    free(m->lists);
    u64map_free(&m->index);
    free(m);
}

/* The http(s) source graphs of the triples about each term that serves an instance, in order of first
 * appearance, in one pass over working memory: looking each term up by subject would index every triple
 * of working memory by subject, for these few terms. */
static void fill_term_docs(lint_term_docs *memo, terms *t, store *wm, term_id serves) {
    memo->filled = true;
    store_iter served;
    store_match(wm, 0, serves, 0, 0, store_size(wm), &served);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&served, &n));) {
        bool inserted;
        u64map_put(&memo->index, tr->s, (uint32_t)memo->count + 1, &inserted);
        if (!inserted)
            continue;
        memo->lists = xrealloc(memo->lists, (memo->count + 1) * sizeof *memo->lists);
        memo->lists[memo->count++] = (struct term_docs){0};
    }
    u64map seen = {0}; /* (1 + list, graph) */
    term_id last = 0;
    const uint32_t *slot = NULL;
    for (uint32_t m = 0, count = store_size(wm); m < count && memo->count; m++) {
        const triple *tr = store_triple(wm, m);
        if (tr->s != last) { /* a document's triples come in runs of one subject */
            last = tr->s;
            slot = u64map_get(&memo->index, tr->s);
        }
        term_id g = store_first_graph(wm, m);
        bool first;
        if (!slot || !g || (u64map_put(&seen, (uint64_t)*slot << 32 | g, 1, &first), !first) ||
            terms_kind(t, g) != TERM_IRI || strncmp(terms_lex(t, g, NULL), "http", 4) != 0)
            continue;
        struct term_docs *list = &memo->lists[*slot - 1];
        list->docs = xrealloc(list->docs, (list->count + 1) * sizeof *list->docs);
        list->docs[list->count++] = g;
    }
    u64map_free(&seen);
}

size_t lint_read_documents(terms *t, store *wm, lint_term_docs *memo, term_id serves, term_id read_failure,
                           term_id instance, term_id **out) {
    if (!memo->filled)
        fill_term_docs(memo, t, wm, serves);
    u64map seen = {0};
    size_t count = 0;
    *out = NULL;
    store_iter served;
    store_match(wm, 0, serves, instance, 0, store_size(wm), &served);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&served, &n));) {
        if (store_first_object(wm, tr->s, read_failure)) {
            free(*out);
            *out = NULL;
            count = 0;
            break;
        }
        const uint32_t *slot = u64map_get(&memo->index, tr->s);
        if (!slot) /* served only since the memo was filled */
            continue;
        const struct term_docs *list = &memo->lists[*slot - 1];
        for (size_t i = 0; i < list->count; i++) {
            bool first;
            u64map_put(&seen, list->docs[i], 1, &first);
            if (!first)
                continue;
            *out = xrealloc(*out, (count + 1) * sizeof **out);
            (*out)[count++] = list->docs[i];
        }
    }
    u64map_free(&seen);
    return count;
}

const char *lint_memo_check(lint_memo *memo, const lint_read *read, const term_id *docs, size_t doc_count,
                            term_id instance, const char *noun, bool compat_authors_draft,
                            void (*before_check)(gsm_lint *l)) {
    terms *t = read->t;
    store *wm = read->wm;
    buf version = {0};
    char **lines = xmalloc((doc_count + 1) * sizeof *lines);
    for (size_t i = 0; i < doc_count; i++) {
        const char *doc = terms_lex(t, docs[i], NULL);
        const char *etag = read->etag_of(read->user, doc);
        buf line = {0};
        buf_printf(&line, "%s %s", doc, etag ? etag : "-");
        lines[i] = buf_cstr(&line);
    }
    qsort(lines, doc_count, sizeof *lines, compare_strings);
    for (size_t i = 0; i < doc_count; i++) {
        buf_printf(&version, "%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    const uint32_t *known = strmap_get(&memo->results, buf_cstr(&version));
    if (known) {
        buf_free(&version);
        return *known ? memo->refusals[*known - 1] : NULL;
    }
    gsm_lint *l = gsm_lint_new(&(lint_options){.compat_authors_draft = compat_authors_draft});
    for (size_t i = 0; i < doc_count; i++) {
        uint32_t count;
        const uint32_t *indexes = store_graph_triples(wm, docs[i], &count);
        triple *ts = xmalloc((count + 1) * sizeof *ts);
        for (uint32_t k = 0; k < count; k++)
            ts[k] = *store_triple(wm, indexes[k]);
        /* Turtle, not N-Triples: raptor2's N-Triples parser leaks the datatype of every typed literal */
        const char *doc = terms_lex(t, docs[i], NULL);
        buf text = {0};
        rdf_write_turtle_compact(t, ts, count, doc, body_prefixes, &text);
        gsm_lint_load_text(l, doc, doc, RDF_TURTLE, text.data ? text.data : "", text.len);
        buf_free(&text);
        free(ts);
    }
    if (before_check)
        before_check(l);
    gsm_lint_check(l);
    size_t errors = gsm_lint_count(l, LINT_ERROR);
    /* the refusal names every error, so that a held: line (and `ldgsm status`) says what to fix */
    buf refusal = {0};
    if (errors)
        buf_printf(&refusal, "ldgsm lint finds %zu error%s in it:", errors, errors == 1 ? "" : "s");
    for (size_t i = 0; i < gsm_lint_message_count(l); i++) {
        const lint_message *m = gsm_lint_message(l, i);
        log_event(read->log, m->severity == LINT_ERROR ? LOG_ERROR : LOG_WARN, "lint", terms_lex(t, instance, NULL),
                  LOG_FIELDS(LOG_TEXT("of", noun), LOG_TEXT("finding", m->line)), "lint: <%s>'s %s: %s",
                  terms_lex(t, instance, NULL), noun, m->line);
        if (m->severity == LINT_ERROR)
            buf_printf(&refusal, " %s%s", m->line, --errors ? ";" : "");
    }
    gsm_lint_free(l);
    if (memo->results.count >= LINT_MEMO_MAX)
        forget(memo);
    uint32_t verdict = 0;
    if (refusal.len) {
        memo->refusals = xrealloc(memo->refusals, (memo->refusal_count + 1) * sizeof *memo->refusals);
        memo->refusals[memo->refusal_count++] = buf_cstr(&refusal);
        verdict = (uint32_t)memo->refusal_count;
    }
    strmap_put(&memo->results, buf_cstr(&version), verdict, NULL);
    buf_free(&version);
    return verdict ? memo->refusals[verdict - 1] : NULL;
}

