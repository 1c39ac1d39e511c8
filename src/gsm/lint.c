/* lint.c: the checks of lint.h over a GSM model loaded into one store (every document its own source
 * graph, so each message can name the file that describes its term).
 *
 * NOTES ON THE DESIGN
 *  1. The model's shape is read from the triples alone, not from rdf:type: a stage is anything typed
 *     gsm:Stage or used as one (subject of hasChildStage, hasGuard, hasMilestone, hasHttpRequest,
 *     ldgsm:alternativeStages; a described object of hasChildStage or member of alternativeStages), a
 *     milestone likewise. An untyped model runs, so it lints too.
 *  2. A root is a stage that is no stage's child; a stage's alternative stages are its children, as the
 *     rules of gsm-alternatives.n3 make them. The structure is walked from each root with an
 *     explicit stack (a deep or cyclic model cannot exhaust the C stack); a stage met twice under one root,
 *     or on its own path, is reported and not descended into again, so a shared subtree is one message.
 *     Stages no root reaches lie on cycles; they are walked afterwards to report the cycle.
 *  3. The disjointness conditions (the paper's 4.3, docs/DESIGN.md §5.4) are undecidable in general; lint
 *     decides only what the model's graph shows: the same sentry node in two roles is a certain
 *     violation (error), two sentries whose canonical trees print alike are suspected (warning).
 *  4. Every message is collected with its file and ordinal, then sorted by file (load order) and
 *     de-duplicated, since a stage reached under several roots would repeat its findings. */
#include "gsm/lint.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "agent/links.h"
#include "agent/sentries.h"
#include "agent/template.h"
#include "agent/vocab.h"
#include "rdf/hashmap.h"
#include "rdf/store.h"
#include "rdf/strmap.h"
#include "rdf/vocab_ns.h"
#include "reason/numeric.h"
#include "reason/sentry_ast.h"
#include "reason/xsd_time.h"

#define SHOW_DEPTH 3     /* blank nodes are shown through at most this many enclosing triples */
#define LITERAL_SHOWN 60 /* characters of a literal shown in a message */

/* The draft terms whose local names differ from ours (others map to gsm: by local name, except the two
 * task properties, which resolve_draft_tasks() reads). */
static const struct {
    const char *draft, *ours;
} draft_renames[] = {
    {"hasValidatingSentry", "hasAchievingSentry"},
    {"StageModel", "Stage"},
    {"MilestoneModel", "Milestone"},
    {"hasMilestoneModel", "hasMilestone"},
};

typedef struct lint_vocab {
    term_id stage, milestone;
    term_id has_child_stage, has_guard, has_milestone, has_condition, has_achieving, has_invalidating,
        has_http_request;
    term_id sp_ask, sp_text;
    term_id mthd, request_uri, headers, body, field_name;
    term_id call, alternatives, timeout, retries, backoff, retry_delay, result_in, alternative_stages;
    term_id xsd_duration, xsd_day_time_duration, xsd_year_month_duration;
    term_id draft_has_task, draft_has_http_request;
} lint_vocab;

typedef struct lint_file {
    char *name;     /* as given: the FILE of messages */
    char *iri;      /* its base IRI, also its source graph */
    size_t iri_len;
    term_id graph;
} lint_file;

typedef struct lint_entry {
    lint_message message;
    size_t file, ordinal;
} lint_entry;

/* A sentry seen by the checks: its canonical tree printed (NULL when it does not parse). */
typedef struct sentry_seen {
    term_id node;
    char *query;
} sentry_seen;

struct gsm_lint {
    lint_options options;
    terms *t;
    store *st;
    rdfio *io;
    sentry_text_parser *text_parser; /* made on the first text sentry */
    lint_vocab v;
    agent_vocab agent; /* what the agent's sentry rules are made of, to compile each sentry as it would */
    lint_file *files;
    size_t file_count;
    bool load_failed;
    bool other_model; /* the documents hold a model of another kind (gsm_lint_other_model) */
    lint_entry *entries;
    size_t entry_count, entry_cap;
    sentry_seen *sentries;
    size_t sentry_count;
    u64map sentry_index; /* sentry node -> index in sentries */
    u64map draft_mapped; /* draft term -> our term (compat) */
};

static void vocab_init(lint_vocab *v, terms *t) {
    v->stage = terms_iri_cstr(t, GSM_Stage);
    v->milestone = terms_iri_cstr(t, GSM_Milestone);
    v->has_child_stage = terms_iri_cstr(t, GSM_hasChildStage);
    v->has_guard = terms_iri_cstr(t, GSM_hasGuard);
    v->has_milestone = terms_iri_cstr(t, GSM_hasMilestone);
    v->has_condition = terms_iri_cstr(t, GSM_hasCondition);
    v->has_achieving = terms_iri_cstr(t, GSM_hasAchievingSentry);
    v->has_invalidating = terms_iri_cstr(t, GSM_hasInvalidatingSentry);
    v->has_http_request = terms_iri_cstr(t, GSM_hasHttpRequest);
    v->sp_ask = terms_iri_cstr(t, SP_Ask);
    v->sp_text = terms_iri_cstr(t, SP_text);
    v->mthd = terms_iri_cstr(t, HTTP_mthd);
    v->request_uri = terms_iri_cstr(t, HTTP_requestURI);
    v->headers = terms_iri_cstr(t, HTTP_headers);
    v->body = terms_iri_cstr(t, HTTP_body);
    v->field_name = terms_iri_cstr(t, HTTP_fieldName);
    v->call = terms_iri_cstr(t, NS_LDGSM "Call");
    v->alternatives = terms_iri_cstr(t, LDGSM_alternatives);
    v->timeout = terms_iri_cstr(t, NS_LDGSM "timeout");
    v->retries = terms_iri_cstr(t, NS_LDGSM "retries");
    v->backoff = terms_iri_cstr(t, NS_LDGSM "backoff");
    v->retry_delay = terms_iri_cstr(t, NS_LDGSM "retryDelay");
    v->result_in = terms_iri_cstr(t, NS_LDGSM "resultIn");
    v->alternative_stages = terms_iri_cstr(t, LDGSM_alternativeStages);
    v->xsd_duration = terms_iri_cstr(t, XSD_duration);
    v->xsd_day_time_duration = terms_iri_cstr(t, XSD_dayTimeDuration);
    v->xsd_year_month_duration = terms_iri_cstr(t, XSD_yearMonthDuration);
    v->draft_has_task = terms_iri_cstr(t, NS_DRAFT "hasTask");
    v->draft_has_http_request = terms_iri_cstr(t, NS_DRAFT "hasHttpRequest");
}

gsm_lint *gsm_lint_new(const lint_options *options) {
    gsm_lint *l = xcalloc(1, sizeof *l);
    if (options)
        l->options = *options;
    l->t = terms_new();
    l->st = store_new();
    l->io = rdfio_new(l->t);
    vocab_init(&l->v, l->t);
    agent_vocab_init(&l->agent, l->t);
    return l;
}

void gsm_lint_free(gsm_lint *l) {
    if (!l)
        return;
    for (size_t i = 0; i < l->file_count; i++) {
        free(l->files[i].name);
        free(l->files[i].iri);
    }
    free(l->files);
    for (size_t i = 0; i < l->entry_count; i++)
        free(l->entries[i].message.line);
    free(l->entries);
    for (size_t i = 0; i < l->sentry_count; i++)
        free(l->sentries[i].query);
    free(l->sentries);
    u64map_free(&l->sentry_index);
    u64map_free(&l->draft_mapped);
    sentry_text_parser_free(l->text_parser);
    rdfio_free(l->io);
    store_free(l->st);
    terms_free(l->t);
    free(l);
}

/* ==== messages ==== */

static void add_line(gsm_lint *l, size_t file, enum lint_severity severity, char *line) {
    if (l->entry_count == l->entry_cap) {
        l->entry_cap = l->entry_cap ? 2 * l->entry_cap : 32;
        l->entries = xrealloc(l->entries, l->entry_cap * sizeof *l->entries);
    }
    l->entries[l->entry_count] = (lint_entry){{severity, line}, file, l->entry_count};
    l->entry_count++;
}

static size_t file_of_graph(const gsm_lint *l, term_id graph) {
    for (size_t i = 0; i < l->file_count; i++)
        if (l->files[i].graph == graph)
            return i;
    return 0;
}

/* The file describing a term: where its first triple as a subject came from, else where it is used. */
static size_t file_of_term(gsm_lint *l, term_id term) {
    store_iter it;
    uint32_t n;
    store_match(l->st, term, 0, 0, 0, store_size(l->st), &it);
    if (store_next(&it, &n))
        return file_of_graph(l, store_first_graph(l->st, n));
    store_match(l->st, 0, 0, term, 0, store_size(l->st), &it);
    if (store_next(&it, &n))
        return file_of_graph(l, store_first_graph(l->st, n));
    return 0;
}

/* A prefixed name for the vocabularies a message mentions, else the IRI in full. */
static void show_predicate(const gsm_lint *l, term_id p, buf *out) {
    static const struct {
        const char *prefix, *ns;
    } known[] = {{"gsm:", NS_GSM}, {"sp:", NS_SP}, {"http:", NS_HTTP}, {"ldgsm:", NS_LDGSM}, {"rdf:", NS_RDF},
                 {"xsd:", NS_XSD}, {"wsm:", NS_WSM}};
    const char *iri = terms_lex(l->t, p, NULL);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t len = strlen(known[i].ns);
        if (strncmp(iri, known[i].ns, len) == 0) {
            buf_printf(out, "%s%s", known[i].prefix, iri + len);
            return;
        }
    }
    buf_printf(out, "<%s>", iri);
}

/* An IRI relative to the file's IRI when it lies in the same document or directory (what a Turtle author
 * wrote there), else in full. */
static void show_iri(const gsm_lint *l, const char *iri, size_t file, buf *out) {
    if (l->file_count) {
        const lint_file *f = &l->files[file];
        if (strncmp(iri, f->iri, f->iri_len) == 0 && (iri[f->iri_len] == '#' || iri[f->iri_len] == '\0')) {
            buf_printf(out, "<%s>", iri + f->iri_len);
            return;
        }
        const char *slash = strrchr(f->iri, '/');
        size_t dir_len = slash ? (size_t)(slash - f->iri) + 1 : 0;
        const char *rest = iri + dir_len;
        size_t path_len = strcspn(rest, "#");
        /* no '/' (another directory) and no ':' (it would read as a scheme) before the fragment */
        if (dir_len && strncmp(iri, f->iri, dir_len) == 0 && path_len > 0 && strcspn(rest, "/:") >= path_len) {
            buf_printf(out, "<%s>", rest);
            return;
        }
    }
    buf_printf(out, "<%s>", iri);
}

static void show_term_at(gsm_lint *l, term_id term, size_t file, buf *out, int depth) {
    switch (terms_kind(l->t, term)) {
    case TERM_IRI:
        show_iri(l, terms_lex(l->t, term, NULL), file, out);
        return;
    case TERM_LITERAL: {
        /* its first line, and not all of it when long: a message stays one line */
        size_t len;
        const char *lex = terms_lex(l->t, term, &len);
        size_t shown = strcspn(lex, "\r\n");
        if (shown > LITERAL_SHOWN)
            shown = LITERAL_SHOWN;
        buf_printf(out, "\"%.*s%s\"", (int)shown, lex, shown < len ? "..." : "");
        return;
    }
    case TERM_BNODE: {
        /* a blank node has no name worth showing: say which triple reaches it */
        store_iter it;
        uint32_t n;
        store_match(l->st, 0, 0, term, 0, store_size(l->st), &it);
        const triple *tr = store_next(&it, &n);
        if (!tr || depth >= SHOW_DEPTH) {
            buf_puts(out, "[]");
            return;
        }
        triple by = *tr;
        buf_puts(out, "[] (");
        show_predicate(l, by.p, out);
        buf_puts(out, " of ");
        show_term_at(l, by.s, file, out, depth + 1);
        buf_putc(out, ')');
        return;
    }
    default:
        buf_puts(out, "?");
    }
}

/* Appends a term as its message shows it, relative to the message's file. */
static void show_term(gsm_lint *l, term_id term, size_t file, buf *out) {
    show_term_at(l, term, file, out, 0);
}

/* Records "FILE: severity: <term>: what" ("FILE: severity: what" when term is 0); other terms in `what`
 * are passed as text made by show() for the same file. */
static void report_v(gsm_lint *l, size_t file, enum lint_severity severity, term_id term, const char *fmt,
                     va_list ap) {
    buf line = {0};
    buf_printf(&line, "%s: %s: ", l->file_count ? l->files[file].name : "-",
               severity == LINT_ERROR ? "error" : "warning");
    if (term) {
        show_term(l, term, file, &line);
        buf_puts(&line, ": ");
    }
    va_list sizing;
    va_copy(sizing, ap);
    int len = vsnprintf(NULL, 0, fmt, sizing);
    va_end(sizing);
    if (len > 0) {
        buf_reserve(&line, (size_t)len);
        vsnprintf(line.data + line.len, (size_t)len + 1, fmt, ap);
        line.len += (size_t)len;
    }
    add_line(l, file, severity, buf_cstr(&line));
}

static void report_in(gsm_lint *l, size_t file, enum lint_severity severity, term_id term, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void report_in(gsm_lint *l, size_t file, enum lint_severity severity, term_id term, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report_v(l, file, severity, term, fmt, ap);
    va_end(ap);
}

/* A term shown relative to the file its message goes to; the caller frees it. */
static char *show(gsm_lint *l, term_id term, size_t file) {
    buf out = {0};
    show_term(l, term, file, &out);
    return buf_cstr(&out);
}

/* ==== loading ==== */

/* The term the compat mode reads a draft term as (the term itself when it is not a draft IRI). */
static term_id from_draft(gsm_lint *l, term_id id) {
    if (terms_kind(l->t, id) != TERM_IRI)
        return id;
    const uint32_t *known = u64map_get(&l->draft_mapped, id);
    if (known)
        return *known;
    term_id ours = id;
    const char *iri = terms_lex(l->t, id, NULL);
    if (strncmp(iri, NS_DRAFT, strlen(NS_DRAFT)) == 0 && id != l->v.draft_has_task &&
        id != l->v.draft_has_http_request) {
        const char *local = iri + strlen(NS_DRAFT);
        for (size_t i = 0; i < sizeof draft_renames / sizeof draft_renames[0]; i++)
            if (strcmp(local, draft_renames[i].draft) == 0)
                local = draft_renames[i].ours;
        ours = vocab_iri(l->t, NS_GSM, local);
    }
    bool inserted;
    u64map_put(&l->draft_mapped, id, ours, &inserted);
    return ours;
}

static size_t add_file(gsm_lint *l, const char *name, const char *base) {
    l->files = xrealloc(l->files, (l->file_count + 1) * sizeof *l->files);
    lint_file *f = &l->files[l->file_count];
    f->name = xstrndup(name, strlen(name));
    f->iri = xstrndup(base, strlen(base));
    f->iri_len = strlen(base);
    f->graph = terms_iri_cstr(l->t, base);
    return l->file_count++;
}

/* "name:line:col: what" from the parser becomes "name:line:col: error: what". */
static char *parse_error_line(const char *name, const rdf_error *err) {
    buf prefix = {0}, line = {0};
    buf_puts(&prefix, name);
    if (err->line)
        buf_printf(&prefix, ":%d", err->line);
    if (err->line && err->col)
        buf_printf(&prefix, ":%d", err->col);
    buf_puts(&prefix, ": ");
    if (strncmp(err->message, buf_cstr(&prefix), prefix.len) == 0)
        buf_printf(&line, "%serror: %s", prefix.data, err->message + prefix.len);
    else
        buf_printf(&line, "%s: error: %s", name, err->message);
    buf_free(&prefix);
    return buf_cstr(&line);
}

int gsm_lint_load_text(gsm_lint *l, const char *name, const char *base, enum rdf_syntax syntax, const char *text,
                       size_t len) {
    term_id graph = terms_iri_cstr(l->t, base);
    for (size_t i = 0; i < l->file_count; i++)
        if (l->files[i].graph == graph)
            return 0; /* the same document named twice is one document */
    size_t file = add_file(l, name, base);
    triple *ts;
    size_t count;
    rdf_error err;
    if (rdf_parse_triples(l->io, syntax, text, len, base, name, &ts, &count, &err) != 0) {
        add_line(l, file, LINT_ERROR, parse_error_line(name, &err));
        l->load_failed = true;
        return -1;
    }
    bool draft_seen = false;
    for (size_t i = 0; i < count; i++) {
        triple tr = ts[i];
        if (l->options.compat_authors_draft) {
            tr.s = from_draft(l, tr.s);
            tr.p = from_draft(l, tr.p);
            tr.o = from_draft(l, tr.o);
        } else if (!draft_seen && (strncmp(terms_lex(l->t, tr.p, NULL), NS_DRAFT, strlen(NS_DRAFT)) == 0 ||
                                   (tr.p == T_RDF_TYPE && terms_kind(l->t, tr.o) == TERM_IRI &&
                                    strncmp(terms_lex(l->t, tr.o, NULL), NS_DRAFT, strlen(NS_DRAFT)) == 0))) {
            draft_seen = true;
            report_in(l, file, LINT_WARNING, tr.p == T_RDF_TYPE ? tr.o : tr.p,
                      "a term of the authors' draft vocabulary: read such a model with --compat authors-draft");
        }
        store_add(l->st, tr.s, tr.p, tr.o, graph);
    }
    free(ts);
    return 0;
}

int gsm_lint_load_file(gsm_lint *l, const char *path) {
    size_t len;
    char *text = read_file(path, &len);
    int read_errno = errno; /* before realpath() in rdf_file_iri can change it */
    char *base = rdf_file_iri(path);
    int rc = -1;
    if (!text) {
        report_in(l, add_file(l, path, base), LINT_ERROR, 0, "cannot read: %s", strerror(read_errno));
        l->load_failed = true;
    } else {
        enum rdf_syntax syntax = rdf_syntax_from_filename(path);
        /* ldp-fixtures/ names resources without extensions, and they are Turtle */
        rc = gsm_lint_load_text(l, path, base, syntax == RDF_SYNTAX_UNKNOWN ? RDF_TURTLE : syntax, text, len);
    }
    free(base);
    free(text);
    return rc;
}

/* Triples to add, each with its source graph. */
typedef struct graph_triples {
    triple *triples;
    term_id *graphs;
    size_t count;
} graph_triples;

static void graph_triples_add(graph_triples *g, term_id s, term_id p, term_id o, term_id graph) {
    g->triples = xrealloc(g->triples, (g->count + 1) * sizeof *g->triples);
    g->graphs = xrealloc(g->graphs, (g->count + 1) * sizeof *g->graphs);
    g->triples[g->count] = (triple){s, p, o};
    g->graphs[g->count++] = graph;
}

/* The draft gives a stage its task as a node of its own: `<stage> draft:hasTask <task> . <task>
 * draft:hasHttpRequest <request>` reads as `<stage> gsm:hasHttpRequest <request>`. A draft:hasTask whose
 * object carries no request is read as the request itself, a draft:hasHttpRequest on a node no hasTask
 * names as a stage's own. The triples added keep the graph of the triple naming the stage. */
static void resolve_draft_tasks(gsm_lint *l) {
    const lint_vocab *v = &l->v;
    graph_triples read_as = {0};
    uint32_t size = store_size(l->st);
    for (uint32_t n = 0; n < size; n++) {
        triple tr = *store_triple(l->st, n);
        store_iter it;
        uint32_t m;
        const triple *task;
        if (tr.p == v->draft_has_task) {
            store_match(l->st, tr.o, v->draft_has_http_request, 0, 0, size, &it);
            if (!store_next(&it, &m))
                graph_triples_add(&read_as, tr.s, v->has_http_request, tr.o, store_first_graph(l->st, n));
        } else if (tr.p == v->draft_has_http_request) {
            bool named = false;
            store_match(l->st, 0, v->draft_has_task, tr.s, 0, size, &it);
            while ((task = store_next(&it, &m))) {
                named = true;
                graph_triples_add(&read_as, task->s, v->has_http_request, tr.o, store_first_graph(l->st, m));
            }
            if (!named)
                graph_triples_add(&read_as, tr.s, v->has_http_request, tr.o, store_first_graph(l->st, n));
        }
    }
    for (size_t i = 0; i < read_as.count; i++)
        store_add(l->st, read_as.triples[i].s, read_as.triples[i].p, read_as.triples[i].o, read_as.graphs[i]);
    free(read_as.triples);
    free(read_as.graphs);
}

/* ==== reading the model ==== */

/* The objects of (s, p, ?) that are nodes (a literal there is reported once, by the reference check). */
static void objects(gsm_lint *l, term_id s, term_id p, u32vec *out) {
    store_objects(l->st, s, p, out);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < out->len; i++)
        if (terms_kind(l->t, out->data[i]) != TERM_LITERAL)
            out->data[kept++] = out->data[i];
    out->len = kept;
}

/* The items of an rdf:first/rest list, or -1 when `list` is not one (a broken or cyclic chain). */
static int list_items(gsm_lint *l, term_id list, u32vec *out) {
    out->len = 0;
    uint32_t limit = store_size(l->st);
    for (uint32_t steps = 0; list != T_RDF_NIL; steps++) {
        term_id item = store_first_object(l->st, list, T_RDF_FIRST);
        if (!item || steps > limit)
            return -1;
        u32vec_push(out, item);
        list = store_first_object(l->st, list, T_RDF_REST);
    }
    return 0;
}

/* Adds a term to an ordered set (a vector plus a membership map). */
static void set_add(u32vec *v, u64map *in, term_id term) {
    bool inserted;
    u64map_put(in, term, v->len, &inserted);
    if (inserted)
        u32vec_push(v, term);
}

/* The nodes a stage's ldgsm:alternativeStages lists name, in order, repeats kept. A broken list gives the
 * members before the break, as the rules of gsm-alternatives.n3 read it. */
static void alternative_stages(gsm_lint *l, term_id stage, u32vec *out) {
    u32vec lists = {0}, items = {0};
    out->len = 0;
    objects(l, stage, l->v.alternative_stages, &lists);
    for (uint32_t i = 0; i < lists.len; i++) {
        list_items(l, lists.data[i], &items);
        for (uint32_t k = 0; k < items.len; k++)
            if (terms_kind(l->t, items.data[k]) != TERM_LITERAL)
                u32vec_push(out, items.data[k]);
    }
    u32vec_free(&lists);
    u32vec_free(&items);
}

/* A stage's children, each once: what gsm:hasChildStage names and its alternative stages (the rules
 * derive gsm:hasChildStage for those; a model may also state it). */
static void child_stages(gsm_lint *l, term_id stage, u32vec *out) {
    u32vec alternatives = {0};
    u64map seen = {0};
    bool inserted;
    objects(l, stage, l->v.has_child_stage, out);
    for (uint32_t i = 0; i < out->len; i++)
        u64map_put(&seen, out->data[i], 1, &inserted);
    alternative_stages(l, stage, &alternatives);
    for (uint32_t i = 0; i < alternatives.len; i++) {
        u64map_put(&seen, alternatives.data[i], 1, &inserted);
        if (inserted)
            u32vec_push(out, alternatives.data[i]);
    }
    u32vec_free(&alternatives);
    u64map_free(&seen);
}

typedef struct model {
    u32vec stages, milestones;
    u64map is_stage, is_milestone, is_child;
    u64map is_alternative; /* a stage some ldgsm:alternativeStages lists */
} model;

/* Reads the model's shape (note 1) in the store's order, so messages come out in document order. */
static void model_read(gsm_lint *l, model *m) {
    const lint_vocab *v = &l->v;
    u32vec members = {0};
    uint32_t size = store_size(l->st);
    for (uint32_t n = 0; n < size; n++) {
        triple tr = *store_triple(l->st, n);
        bool inserted;
        if ((tr.p == T_RDF_TYPE && tr.o == v->stage) || tr.p == v->has_child_stage || tr.p == v->has_guard ||
            tr.p == v->has_milestone || tr.p == v->has_http_request || tr.p == v->alternative_stages)
            set_add(&m->stages, &m->is_stage, tr.s);
        if (tr.p == v->has_child_stage && store_any(l->st, tr.o, 0, 0)) {
            set_add(&m->stages, &m->is_stage, tr.o);
            u64map_put(&m->is_child, tr.o, 1, &inserted);
        }
        if (tr.p == v->alternative_stages) {
            list_items(l, tr.o, &members);
            for (uint32_t i = 0; i < members.len; i++)
                if (terms_kind(l->t, members.data[i]) != TERM_LITERAL && store_any(l->st, members.data[i], 0, 0)) {
                    set_add(&m->stages, &m->is_stage, members.data[i]);
                    u64map_put(&m->is_child, members.data[i], 1, &inserted);
                    u64map_put(&m->is_alternative, members.data[i], 1, &inserted);
                }
        }
        if ((tr.p == T_RDF_TYPE && tr.o == v->milestone) || tr.p == v->has_achieving || tr.p == v->has_invalidating)
            set_add(&m->milestones, &m->is_milestone, tr.s);
        if (tr.p == v->has_milestone && store_any(l->st, tr.o, 0, 0))
            set_add(&m->milestones, &m->is_milestone, tr.o);
    }
    u32vec_free(&members);
}

static void model_free(model *m) {
    u32vec_free(&m->stages);
    u32vec_free(&m->milestones);
    u64map_free(&m->is_stage);
    u64map_free(&m->is_milestone);
    u64map_free(&m->is_child);
    u64map_free(&m->is_alternative);
}

static bool is_root(const model *m, term_id stage) {
    return !u64map_get(&m->is_child, stage);
}

/* ==== the checks ==== */

/* Every reference a stage, guard or milestone makes must lead to a description in the loaded files. */
static void check_references(gsm_lint *l) {
    const lint_vocab *v = &l->v;
    const term_id properties[] = {v->has_child_stage, v->has_guard,        v->has_milestone,   v->has_condition,
                                  v->has_achieving,   v->has_invalidating, v->has_http_request};
    uint32_t size = store_size(l->st);
    for (uint32_t n = 0; n < size; n++) {
        triple tr = *store_triple(l->st, n);
        bool referring = false;
        for (size_t i = 0; i < sizeof properties / sizeof properties[0]; i++)
            referring |= tr.p == properties[i];
        if (!referring)
            continue;
        size_t file = file_of_graph(l, store_first_graph(l->st, n));
        buf p = {0};
        show_predicate(l, tr.p, &p);
        char *o = show(l, tr.o, file);
        if (terms_kind(l->t, tr.o) == TERM_LITERAL)
            report_in(l, file, LINT_ERROR, tr.s, "%s %s is a literal, not a node of the model", buf_cstr(&p), o);
        else if (!store_any(l->st, tr.o, 0, 0))
            report_in(l, file, LINT_ERROR, tr.s, "%s %s is not described in the model's documents", buf_cstr(&p), o);
        free(o);
        buf_free(&p);
    }
}

/* A stage below a root opens only through a guard condition (set-up opens a root, the rules give an
 * alternative stage its turn as its guard). */
static void check_guards(gsm_lint *l, const model *m) {
    u32vec guards = {0}, conditions = {0};
    for (uint32_t i = 0; i < m->stages.len; i++) {
        term_id stage = m->stages.data[i];
        objects(l, stage, l->v.has_guard, &guards);
        if (u64map_get(&m->is_alternative, stage)) {
            if (guards.len)
                report_in(l, file_of_term(l, stage), LINT_WARNING, stage,
                          "alternative stage has a guard of its own: it adds to the turn the rules give it "
                          "(a disjunction), so the stage may open out of turn");
        } else if (!is_root(m, stage) && guards.len == 0) {
            report_in(l, file_of_term(l, stage), LINT_WARNING, stage, "stage has no guard: it never opens");
        }
        for (uint32_t g = 0; g < guards.len; g++) {
            objects(l, guards.data[g], l->v.has_condition, &conditions);
            if (conditions.len == 0 && store_any(l->st, guards.data[g], 0, 0))
                report_in(l, file_of_term(l, guards.data[g]), LINT_WARNING, guards.data[g],
                          "guard has no gsm:hasCondition: it never holds");
        }
    }
    u32vec_free(&guards);
    u32vec_free(&conditions);
}

static void check_milestones(gsm_lint *l, const model *m) {
    u32vec found = {0};
    for (uint32_t i = 0; i < m->milestones.len; i++) {
        term_id milestone = m->milestones.data[i];
        size_t file = file_of_term(l, milestone);
        objects(l, milestone, l->v.has_achieving, &found);
        if (found.len == 0)
            report_in(l, file, LINT_ERROR, milestone, "milestone has no gsm:hasAchievingSentry: it is never achieved");
        store_subjects(l->st, l->v.has_milestone, milestone, &found);
        if (found.len > 1) {
            buf owners = {0};
            for (uint32_t s = 0; s < found.len; s++) {
                char *shown = show(l, found.data[s], file);
                buf_printf(&owners, "%s%s", s == 0 ? "" : s + 1 == found.len ? " and " : ", ", shown);
                free(shown);
            }
            report_in(l, file, LINT_WARNING, milestone,
                      "milestone model shared by stages %s: a sentry asking for its instances cannot tell them apart",
                      buf_cstr(&owners));
            buf_free(&owners);
        }
    }
    u32vec_free(&found);
}

/* Parses a sentry with the front end the agent would use and compiles it as the agent's sentry table would
 * in its context; the tree's print or NULL, with the error. */
static char *sentry_query(gsm_lint *l, term_id node, enum sentry_context context, char *error, size_t error_len) {
    char parsed[1024]; /* a front end's message */
    store_iter it;
    uint32_t n;
    store_match(l->st, node, T_RDF_TYPE, l->v.sp_ask, 0, store_size(l->st), &it);
    if (!store_next(&it, &n)) {
        snprintf(error, error_len, "sentry is not an sp:Ask: the agent never evaluates it (add `a sp:Ask`)");
        return NULL;
    }
    sq_node *tree = NULL;
    store_match(l->st, node, l->v.sp_text, 0, 0, store_size(l->st), &it);
    const triple *text = store_next(&it, &n);
    if (text) {
        term_id value = text->o;
        term_id graph = store_first_graph(l->st, n);
        if (store_next(&it, &n)) {
            snprintf(error, error_len, "sentry has more than one sp:text");
            return NULL;
        }
        if (terms_kind(l->t, value) != TERM_LITERAL) {
            snprintf(error, error_len, "sp:text is not a literal");
            return NULL;
        }
        if (!l->text_parser)
            l->text_parser = sentry_text_parser_new(l->t);
        if (!l->text_parser) {
            snprintf(error, error_len, "sp:text cannot be checked: rasqal did not start");
            return NULL;
        }
        if (sentry_from_text(l->text_parser, node, terms_lex(l->t, value, NULL), terms_lex(l->t, graph, NULL),
                             &tree, parsed, sizeof parsed) != 0) {
            snprintf(error, error_len, "sentry text does not parse: %s", sq_error_what(l->t, node, parsed));
            return NULL;
        }
    } else if (sentry_from_spin(l->t, l->st, node, &tree, parsed, sizeof parsed) != 0) {
        snprintf(error, error_len, "SPIN sentry does not parse: %s", sq_error_what(l->t, node, parsed));
        return NULL;
    }
    term_id unreached = link_unreached_subject(l->t, &l->agent, tree);
    if (unreached && !store_first_object(l->st, node, l->agent.reads_container) &&
        !store_first_object(l->st, node, l->agent.reads))
        report_in(l, file_of_term(l, node), LINT_WARNING, node,
                  "the subject ?%s is reached from neither gsm:thisArtifactInstance nor a constant: it matches "
                  "whatever any document read for its instance says, its status and model included (scope it "
                  "to the instance, or read a container with ldgsm:readsContainer)",
                  terms_lex(l->t, unreached, NULL));
    buf printed = {0};
    sq_print(l->t, tree, &printed);
    /* parsed is not enough: the agent refuses a sentry it cannot compile (more variables than a rule holds) */
    rule *compiled = sentry_table_rule(l->t, &l->agent, tree, node, context, parsed, sizeof parsed);
    if (!compiled) {
        snprintf(error, error_len, "sentry cannot be evaluated: %s", sentry_error_what(l->t, node, parsed));
        buf_free(&printed);
        return NULL;
    }
    rule_free(compiled);
    return buf_cstr(&printed);
}

/* The printed query of a sentry (NULL when invalid), parsing and reporting it on first use. */
static const char *sentry(gsm_lint *l, term_id node) {
    bool inserted;
    uint32_t *slot = u64map_put(&l->sentry_index, node, (uint32_t)l->sentry_count, &inserted);
    if (!inserted)
        return l->sentries[*slot].query;
    char error[1536];
    /* an undescribed sentry is a dangling reference, reported as such */
    bool dangling = terms_kind(l->t, node) == TERM_LITERAL || !store_any(l->st, node, 0, 0);
    char *query = dangling ? NULL : sentry_query(l, node, SENTRY_OF_ARTIFACT, error, sizeof error);
    if (!query && !dangling)
        report_in(l, file_of_term(l, node), LINT_ERROR, node, "%s", error);
    l->sentries = xrealloc(l->sentries, (l->sentry_count + 1) * sizeof *l->sentries);
    l->sentries[l->sentry_count++] = (sentry_seen){node, query};
    return query;
}

static void check_sentries(gsm_lint *l) {
    const term_id roles[] = {l->v.has_condition, l->v.has_achieving, l->v.has_invalidating};
    uint32_t size = store_size(l->st);
    for (uint32_t n = 0; n < size; n++) {
        triple tr = *store_triple(l->st, n);
        for (size_t r = 0; r < sizeof roles / sizeof roles[0]; r++)
            if (tr.p == roles[r])
                sentry(l, tr.o);
    }
}

/* Two sentries that print alike ask the same query (both parsed). */
static bool same_query(gsm_lint *l, term_id a, term_id b) {
    const char *qa = sentry(l, a), *qb = sentry(l, b);
    return qa && qb && strcmp(qa, qb) == 0;
}

/* 4.3.1: a milestone's achieving and invalidating sentries must be disjoint; a root milestone's
 * invalidating sentry is never used. */
static void check_milestone_sentries(gsm_lint *l, const model *m) {
    u32vec achieving = {0}, invalidating = {0}, owners = {0};
    for (uint32_t i = 0; i < m->milestones.len; i++) {
        term_id milestone = m->milestones.data[i];
        size_t file = file_of_term(l, milestone);
        objects(l, milestone, l->v.has_achieving, &achieving);
        objects(l, milestone, l->v.has_invalidating, &invalidating);
        for (uint32_t a = 0; a < achieving.len; a++)
            for (uint32_t v = 0; v < invalidating.len; v++) {
                char *shown_a = show(l, achieving.data[a], file), *shown_v = show(l, invalidating.data[v], file);
                if (achieving.data[a] == invalidating.data[v])
                    report_in(l, file, LINT_ERROR, milestone,
                              "sentry %s both achieves and invalidates the milestone (the paper's 4.3.1): once "
                              "achieved, it is invalidated again",
                              shown_a);
                else if (same_query(l, achieving.data[a], invalidating.data[v]))
                    report_in(l, file, LINT_WARNING, milestone,
                              "achieving sentry %s and invalidating sentry %s ask the same query: they are not "
                              "disjoint (the paper's 4.3.1)",
                              shown_a, shown_v);
                free(shown_a);
                free(shown_v);
            }
        store_subjects(l->st, l->v.has_milestone, milestone, &owners);
        for (uint32_t s = 0; s < owners.len; s++)
            if (is_root(m, owners.data[s]) && invalidating.len) {
                char *root = show(l, owners.data[s], file);
                report_in(l, file, LINT_WARNING, milestone,
                          "a milestone of root stage %s has a gsm:hasInvalidatingSentry: it is ignored, since "
                          "completion is final",
                          root);
                free(root);
            }
    }
    u32vec_free(&achieving);
    u32vec_free(&invalidating);
    u32vec_free(&owners);
}

/* 4.3.2 (the paper's Eq. (2) of 6.1): a stage's guard conditions against every achieving sentry of every
 * milestone of each ancestor on the path. */
static void check_guard_against_ancestors(gsm_lint *l, term_id stage, const term_id *ancestors, size_t count) {
    u32vec guards = {0}, conditions = {0}, milestones = {0}, achieving = {0};
    size_t file = file_of_term(l, stage);
    objects(l, stage, l->v.has_guard, &guards);
    for (uint32_t g = 0; g < guards.len; g++) {
        objects(l, guards.data[g], l->v.has_condition, &conditions);
        for (uint32_t c = 0; c < conditions.len; c++)
            for (size_t a = 0; a < count; a++) {
                objects(l, ancestors[a], l->v.has_milestone, &milestones);
                for (uint32_t ms = 0; ms < milestones.len; ms++) {
                    objects(l, milestones.data[ms], l->v.has_achieving, &achieving);
                    for (uint32_t x = 0; x < achieving.len; x++) {
                        term_id condition = conditions.data[c], sentry_a = achieving.data[x];
                        bool same_node = condition == sentry_a;
                        if (!same_node && !same_query(l, condition, sentry_a))
                            continue;
                        char *shown_c = show(l, condition, file), *shown_x = show(l, sentry_a, file);
                        char *shown_m = show(l, milestones.data[ms], file), *shown_a = show(l, ancestors[a], file);
                        if (same_node)
                            report_in(l, file, LINT_ERROR, stage,
                                      "guard condition %s is also the achieving sentry of milestone %s of its "
                                      "ancestor %s (the paper's 4.3.2): the ancestor closes whenever the stage "
                                      "could open",
                                      shown_c, shown_m, shown_a);
                        else
                            report_in(l, file, LINT_WARNING, stage,
                                      "guard condition %s asks the same query as %s, the achieving sentry of "
                                      "milestone %s of its ancestor %s: they are not disjoint (the paper's 4.3.2)",
                                      shown_c, shown_x, shown_m, shown_a);
                        free(shown_c);
                        free(shown_x);
                        free(shown_m);
                        free(shown_a);
                    }
                }
            }
    }
    u32vec_free(&guards);
    u32vec_free(&conditions);
    u32vec_free(&milestones);
    u32vec_free(&achieving);
}

typedef struct walk_frame {
    term_id stage;
    u32vec children;
    uint32_t next;
} walk_frame;

/* Walks the stages under `top` depth-first (note 2): reports a stage met twice or on its own path, checks
 * each stage's guards against its ancestors, and marks what it reached. */
static void walk_from(gsm_lint *l, term_id top, u64map *reached) {
    u64map parent_under_top = {0}; /* stage -> the parent it was first reached from (0: top) */
    u64map on_path = {0};          /* stage -> 1 while on the stack, 0 after */
    walk_frame *stack = NULL;
    term_id *path = NULL;
    size_t depth = 0, cap = 0;
    bool inserted;
    for (term_id stage = top, parent = 0;;) {
        /* enter `stage` below `parent` */
        if (depth == cap) {
            cap = cap ? 2 * cap : 16;
            stack = xrealloc(stack, cap * sizeof *stack);
            path = xrealloc(path, cap * sizeof *path);
        }
        stack[depth] = (walk_frame){stage, {0}, 0};
        path[depth] = stage;
        child_stages(l, stage, &stack[depth].children);
        u64map_put(&parent_under_top, stage, parent, &inserted);
        *u64map_put(&on_path, stage, 1, &inserted) = 1;
        u64map_put(reached, stage, 1, &inserted);
        check_guard_against_ancestors(l, stage, path, depth);
        depth++;
        /* find the next stage to enter, leaving finished frames */
        stage = 0;
        while (depth && !stage) {
            walk_frame *f = &stack[depth - 1];
            if (f->next == f->children.len) {
                *u64map_get(&on_path, f->stage) = 0;
                u32vec_free(&f->children);
                depth--;
                continue;
            }
            term_id child = f->children.data[f->next++];
            if (!store_any(l->st, child, 0, 0))
                continue; /* reported as a dangling reference */
            size_t file = file_of_term(l, child);
            const uint32_t *on = u64map_get(&on_path, child);
            const uint32_t *first_parent = u64map_get(&parent_under_top, child);
            char *shown_parent = show(l, f->stage, file);
            if (on && *on) {
                report_in(l, file, LINT_ERROR, child,
                          "stage is its own descendant (a gsm:hasChildStage cycle through %s)", shown_parent);
            } else if (first_parent) {
                char *shown_top = show(l, top, file);
                char *shown_first = *first_parent ? show(l, *first_parent, file) : show(l, top, file);
                report_in(l, file, LINT_ERROR, child,
                          "stage model occurs twice under root %s: it is a child of %s and of %s", shown_top,
                          shown_first, shown_parent);
                free(shown_top);
                free(shown_first);
            } else {
                stage = child;
                parent = f->stage;
            }
            free(shown_parent);
        }
        if (!stage)
            break;
    }
    free(stack);
    free(path);
    u64map_free(&parent_under_top);
    u64map_free(&on_path);
}

static void check_structure(gsm_lint *l, const model *m) {
    u64map reached = {0};
    u32vec milestones = {0};
    for (uint32_t i = 0; i < m->stages.len; i++) {
        term_id stage = m->stages.data[i];
        if (!is_root(m, stage))
            continue;
        walk_from(l, stage, &reached);
        objects(l, stage, l->v.has_milestone, &milestones);
        /* the rules give a stage with alternatives the milestone "all alternatives failed" */
        if (milestones.len == 0 && store_first_object(l->st, stage, l->v.alternative_stages))
            report_in(l, file_of_term(l, stage), LINT_WARNING, stage,
                      "root stage has no milestone of its own: an instance of it completes only when all its "
                      "alternatives fail");
        else if (milestones.len == 0)
            report_in(l, file_of_term(l, stage), LINT_WARNING, stage,
                      "root stage has no milestone: an instance of it never completes");
    }
    /* what no root reaches hangs on a cycle */
    for (uint32_t i = 0; i < m->stages.len; i++)
        if (!u64map_get(&reached, m->stages.data[i]))
            walk_from(l, m->stages.data[i], &reached);
    u64map_free(&reached);
    u32vec_free(&milestones);
}

/* docs/DESIGN.md §6.1: a task's body is a literal, sent as written with the Content-Type it gives.
 * The call rules send only a request that has a method, a URI, headers and a body (calls.n3, Operation
 * Call); a 202's result is polled at the request's ldgsm:resultIn. */
/* One template's variables, each of which the arguments must select (bound: name -> 1). */
static void check_template_variables(gsm_lint *l, term_id task, size_t file, const char *what, const char *text,
                                     enum template_kind kind, const strmap *bound, bool has_arguments) {
    strmap used = {0};
    char error[512];
    if (template_variables(text, kind, &used, error, sizeof error) != 0) {
        report_in(l, file, LINT_ERROR, task, "%s: %s", what, error);
    } else if (used.count && !has_arguments) {
        report_in(l, file, LINT_ERROR, task, "%s uses %s%s%s but the request has no ldgsm:arguments to fill it",
                  what, kind == TEMPLATE_BODY ? "?" : "{", used.keys[0], kind == TEMPLATE_BODY ? "" : "}");
    } else if (has_arguments) {
        for (uint32_t i = 0; i < used.count; i++)
            if (!strmap_get(bound, used.keys[i]))
                report_in(l, file, LINT_ERROR, task, "%s uses %s%s%s, which the arguments do not select", what,
                          kind == TEMPLATE_BODY ? "?" : "{", used.keys[i], kind == TEMPLATE_BODY ? "" : "}");
    }
    strmap_free(&used);
}

/* A request's templates (docs/DESIGN.md §8.3): its ldgsm:arguments parse as a SELECT, and every `{var}` of its URI
 * template and header values and every `?var` of its body is one the SELECT binds. */
static void check_templates(gsm_lint *l, term_id task, size_t file) {
    const lint_vocab *v = &l->v;
    term_id arguments = store_first_object(l->st, task, l->agent.arguments);
    strmap bound = {0};
    if (arguments) {
        term_id text = store_first_object(l->st, arguments, v->sp_text);
        sq_node *tree = NULL;
        term_id *vars = NULL;
        size_t var_count = 0;
        char parsed[1024];
        if (!l->text_parser)
            l->text_parser = sentry_text_parser_new(l->t);
        if (!text || terms_kind(l->t, text) != TERM_LITERAL || !l->text_parser) {
            report_in(l, file, LINT_ERROR, task, "ldgsm:arguments has no sp:text literal (a SELECT query)");
            return;
        }
        uint32_t at = store_find(l->st, arguments, v->sp_text, text);
        term_id graph = at != UINT32_MAX ? store_first_graph(l->st, at) : 0;
        if (select_from_text(l->text_parser, arguments, terms_lex(l->t, text, NULL),
                             graph ? terms_lex(l->t, graph, NULL) : NULL, &tree, &vars, &var_count, parsed,
                             sizeof parsed) != 0) {
            report_in(l, file, LINT_ERROR, task, "ldgsm:arguments does not parse: %s",
                      sq_error_what(l->t, arguments, parsed));
            return;
        }
        for (size_t i = 0; i < var_count; i++)
            strmap_put(&bound, terms_lex(l->t, vars[i], NULL), 1, NULL);
        /* what a copy or an event binds beside the selected variables (agent/sentries.h) */
        const struct { term_id constant; const char *name; } context[] = {
            {l->agent.pat_this_item, "thisItem"}, {l->agent.pat_this_index, "thisIndex"},
            {l->agent.wsm_this_event, "thisEvent"}, {l->agent.this_artifact, "thisInstance"},
            {l->agent.wsm_this_instance, "thisInstance"}};
        buf printed = {0};
        sq_print(l->t, tree, &printed);
        for (size_t i = 0; i < sizeof context / sizeof *context; i++)
            if (strstr(buf_cstr(&printed), terms_lex(l->t, context[i].constant, NULL)))
                strmap_put(&bound, context[i].name, 1, NULL);
        buf_free(&printed);
        free(vars);
        sq_node_free(tree);
    }
    term_id uri = store_first_object(l->st, task, v->request_uri);
    if (uri && terms_kind(l->t, uri) == TERM_LITERAL)
        check_template_variables(l, task, file, "http:requestURI", terms_lex(l->t, uri, NULL), TEMPLATE_URI, &bound,
                                 arguments != 0);
    term_id headers = store_first_object(l->st, task, v->headers);
    u32vec items = {0};
    if (arguments && headers && list_items(l, headers, &items) == 0)
        for (uint32_t i = 0; i < items.len; i++) {
            term_id value = store_first_object(l->st, items.data[i], l->agent.field_value);
            if (value && terms_kind(l->t, value) == TERM_LITERAL)
                check_template_variables(l, task, file, "a header value", terms_lex(l->t, value, NULL),
                                         TEMPLATE_HEADER, &bound, true);
        }
    u32vec_free(&items);
    term_id body = store_first_object(l->st, task, v->body);
    if (arguments && body && terms_kind(l->t, body) == TERM_LITERAL)
        check_template_variables(l, task, file, "http:body", terms_lex(l->t, body, NULL), TEMPLATE_BODY, &bound,
                                 true);
    strmap_free(&bound);
}

static void check_task(gsm_lint *l, term_id task) {
    const lint_vocab *v = &l->v;
    size_t file = file_of_term(l, task);
    if (!store_first_object(l->st, task, v->mthd))
        report_in(l, file, LINT_ERROR, task, "task has no http:mthd");
    if (!store_first_object(l->st, task, v->request_uri))
        report_in(l, file, LINT_ERROR, task, "task has no http:requestURI");
    term_id body = store_first_object(l->st, task, v->body);
    if (body && terms_kind(l->t, body) != TERM_LITERAL)
        report_in(l, file, LINT_ERROR, task,
                  "task's http:body is not a literal (a Turtle model cannot hold a formula: write the body as a "
                  "string)");
    term_id headers = store_first_object(l->st, task, v->headers);
    u32vec items = {0};
    bool content_type = false;
    if (headers && list_items(l, headers, &items) != 0) {
        report_in(l, file, LINT_ERROR, task, "task's http:headers is not a list");
    } else {
        for (uint32_t i = 0; i < items.len; i++) {
            term_id name = store_first_object(l->st, items.data[i], v->field_name);
            content_type |= name && terms_kind(l->t, name) == TERM_LITERAL &&
                            strcasecmp(terms_lex(l->t, name, NULL), "Content-Type") == 0;
        }
        if (body && !content_type)
            report_in(l, file, LINT_ERROR, task,
                      "task has a body but no Content-Type header (http:headers ( [ http:fieldName "
                      "\"Content-Type\" ; http:fieldValue ... ] ))");
    }
    u32vec_free(&items);
    check_templates(l, task, file);
    term_id result_in = store_first_object(l->st, task, v->result_in);
    if (result_in && terms_kind(l->t, result_in) != TERM_IRI) {
        char *shown = show(l, result_in, file);
        report_in(l, file, LINT_ERROR, task,
                  "ldgsm:resultIn %s is not an IRI: it names the resource polled for the result of a 202", shown);
        free(shown);
    }
}

/* The value of a property a node gives at most once (0 when it gives none); a second value is an error,
 * since the rules would apply every value. */
static term_id single_value(gsm_lint *l, term_id node, term_id property, size_t file) {
    store_iter it;
    uint32_t n;
    store_match(l->st, node, property, 0, 0, store_size(l->st), &it);
    const triple *tr = store_next(&it, &n);
    if (!tr)
        return 0;
    term_id value = tr->o;
    if (store_next(&it, &n)) {
        buf p = {0};
        show_predicate(l, property, &p);
        report_in(l, file, LINT_ERROR, node, "%s is given more than once: the rules would apply every value",
                  buf_cstr(&p));
        buf_free(&p);
    }
    return value;
}

/* A time limit (a call's ldgsm:timeout and ldgsm:retryDelay, a stage's ldgsm:timeout) is an
 * xsd:dayTimeDuration, read as the engine's time builtins read it: a timeout positive, a delay not
 * negative. */
static void check_duration(gsm_lint *l, term_id node, term_id property, bool positive) {
    const lint_vocab *v = &l->v;
    size_t file = file_of_term(l, node);
    term_id value = single_value(l, node, property, file);
    if (!value)
        return;
    buf p = {0};
    show_predicate(l, property, &p);
    char *shown = show(l, value, file);
    bool literal = terms_kind(l->t, value) == TERM_LITERAL;
    term_id datatype = literal ? terms_datatype(l->t, value) : 0;
    size_t len = 0;
    const char *lex = literal ? terms_lex(l->t, value, &len) : NULL;
    xsd_time duration;
    bool read = xsd_time_from_term(l->t, value, &duration);
    if (read && duration.kind == XSD_DAYTIME_DURATION) {
        if (positive && duration.ms <= 0)
            report_in(l, file, LINT_ERROR, node, "%s %s is not positive: the limit is over as soon as it starts",
                      buf_cstr(&p), shown);
        else if (duration.ms < 0)
            report_in(l, file, LINT_ERROR, node, "%s %s is negative", buf_cstr(&p), shown);
    } else if (read && duration.kind != XSD_DATETIME) {
        report_in(l, file, LINT_ERROR, node,
                  "%s %s counts months, which have no fixed length: write an xsd:dayTimeDuration", buf_cstr(&p),
                  shown);
    } else if (datatype == v->xsd_duration || datatype == v->xsd_day_time_duration ||
               datatype == v->xsd_year_month_duration) {
        buf type = {0};
        show_predicate(l, datatype, &type);
        report_in(l, file, LINT_ERROR, node,
                  "%s %s is not a well-formed %s (e.g. \"PT5S\", \"PT0.5S\", \"PT1M30S\")", buf_cstr(&p), shown,
                  buf_cstr(&type));
        buf_free(&type);
    } else if (literal && (datatype == 0 || datatype == T_XSD_STRING) && !terms_lang(l->t, value) &&
               xsd_duration_parse(lex, len, XSD_DAYTIME_DURATION, &duration)) {
        report_in(l, file, LINT_ERROR, node, "%s %s has no datatype: write %s^^xsd:dayTimeDuration", buf_cstr(&p),
                  shown, shown);
    } else {
        report_in(l, file, LINT_ERROR, node, "%s %s is not an xsd:dayTimeDuration (e.g. \"PT5S\"^^xsd:dayTimeDuration)",
                  buf_cstr(&p), shown);
    }
    free(shown);
    buf_free(&p);
}

/* A call's budget (docs/DESIGN.md §6.1): N_MT re-sends, a non-negative integer, and a backoff factor of at
 * least 1 on T_E and the retry delay. A plain request may give them too. */
static void check_call_parameters(gsm_lint *l, term_id task) {
    const lint_vocab *v = &l->v;
    size_t file = file_of_term(l, task);
    check_duration(l, task, v->timeout, true);
    check_duration(l, task, v->retry_delay, false);
    number value = {0};
    term_id retries = single_value(l, task, v->retries, file);
    bool retries_valid = retries && number_from_term(l->t, retries, &value) && value.kind == NUMBER_INTEGER &&
                         number_sign(&value) >= 0;
    number_clear(&value);
    if (retries && !retries_valid) {
        char *shown = show(l, retries, file);
        report_in(l, file, LINT_ERROR, task,
                  "ldgsm:retries %s is not a non-negative integer (the re-sends of an alternative after its first "
                  "send)",
                  shown);
        free(shown);
    }
    term_id backoff = single_value(l, task, v->backoff, file);
    number one = number_integer(1);
    enum number_order order = NUMBER_UNORDERED;
    if (backoff && number_from_term(l->t, backoff, &value))
        order = number_compare(&value, &one);
    number_clear(&value);
    if (backoff && order != NUMBER_EQUAL && order != NUMBER_GREATER) {
        char *shown = show(l, backoff, file);
        report_in(l, file, LINT_ERROR, task,
                  "ldgsm:backoff %s is not a number of at least 1 (the factor on the timeout and the retry delay "
                  "per re-send)",
                  shown);
        free(shown);
    }
}

/* The call's parameters hold for every alternative; the rules do not read them on an alternative. */
static void check_alternative_parameters(gsm_lint *l, term_id request) {
    const lint_vocab *v = &l->v;
    const term_id parameters[] = {v->timeout, v->retries, v->backoff, v->retry_delay};
    for (size_t i = 0; i < sizeof parameters / sizeof parameters[0]; i++)
        if (store_first_object(l->st, request, parameters[i])) {
            buf p = {0};
            show_predicate(l, parameters[i], &p);
            report_in(l, file_of_term(l, request), LINT_WARNING, request,
                      "%s on an alternative is ignored: the call's own parameters apply to every alternative",
                      buf_cstr(&p));
            buf_free(&p);
        }
}

/* The members of a list a model gives as ldgsm:alternatives or ldgsm:alternativeStages: a proper,
 * non-empty list of described nodes; `out` gets the members fit to check further. */
static void check_member_list(gsm_lint *l, term_id owner, term_id property, term_id list, const char *member,
                              u32vec *out) {
    size_t file = file_of_term(l, owner);
    buf p = {0};
    show_predicate(l, property, &p);
    u32vec items = {0};
    out->len = 0;
    if (terms_kind(l->t, list) == TERM_LITERAL || list_items(l, list, &items) != 0) {
        char *shown = show(l, list, file);
        report_in(l, file, LINT_ERROR, owner, "%s %s is not a list (write %s ( <#first> <#second> ))", buf_cstr(&p),
                  shown, buf_cstr(&p));
        free(shown);
    } else if (items.len == 0) {
        report_in(l, file, LINT_ERROR, owner, "%s is empty: there is no %s to run", buf_cstr(&p), member);
    } else {
        for (uint32_t i = 0; i < items.len; i++) {
            char *shown = show(l, items.data[i], file);
            if (terms_kind(l->t, items.data[i]) == TERM_LITERAL)
                report_in(l, file, LINT_ERROR, owner, "%s %s is a literal, not a node of the model", member, shown);
            else if (!store_any(l->st, items.data[i], 0, 0))
                report_in(l, file, LINT_ERROR, owner, "%s %s is not described in the model's documents", member,
                          shown);
            else
                u32vec_push(out, items.data[i]);
            free(shown);
        }
    }
    u32vec_free(&items);
    buf_free(&p);
}

/* Every stage's task: a request, or an ldgsm:Call whose alternatives are requests (docs/DESIGN.md §6.1). A
 * node is checked once however many stages or calls name it. */
void gsm_lint_check_task(gsm_lint *l, term_id task, const u64map *is_task, u64map *checked) {
    const lint_vocab *v = &l->v;
    size_t file = file_of_term(l, task);
    check_call_parameters(l, task);
    term_id list = single_value(l, task, v->alternatives, file);
    store_iter it;
    uint32_t n;
    store_match(l->st, task, T_RDF_TYPE, v->call, 0, store_size(l->st), &it);
    bool typed_call = store_next(&it, &n) != NULL;
    bool request = store_first_object(l->st, task, v->mthd) != 0;
    u32vec requests = {0};
    if (list) {
        if (request)
            report_in(l, file, LINT_ERROR, task,
                      "task has both http:mthd and ldgsm:alternatives: the rules would send it as a request "
                      "and as a call");
        check_member_list(l, task, v->alternatives, list, "alternative", &requests);
    } else if (typed_call && !request) {
        report_in(l, file, LINT_ERROR, task,
                  "call has no ldgsm:alternatives (a list of http:Request nodes): it never sends anything");
    } else {
        u32vec_push(&requests, task);
    }
    bool inserted;
    for (uint32_t r = 0; r < requests.len; r++) {
        u64map_put(checked, requests.data[r], 1, &inserted);
        if (!inserted)
            continue;
        check_task(l, requests.data[r]);
        if (!is_task || !u64map_get(is_task, requests.data[r]))
            check_alternative_parameters(l, requests.data[r]);
    }
    u32vec_free(&requests);
}

static void check_tasks(gsm_lint *l, const model *m) {
    const lint_vocab *v = &l->v;
    u64map is_task = {0}, checked = {0};
    u32vec tasks = {0}, named = {0};
    for (uint32_t i = 0; i < m->stages.len; i++) {
        objects(l, m->stages.data[i], v->has_http_request, &named);
        if (named.len > 1) /* one call record per stage: two tasks would fight over it every iteration */
            report_in(l, file_of_term(l, m->stages.data[i]), LINT_ERROR, m->stages.data[i],
                      "stage has %u gsm:hasHttpRequest: a stage has one task (an ldgsm:Call may list "
                      "alternatives)", named.len);
        for (uint32_t k = 0; k < named.len; k++)
            set_add(&tasks, &is_task, named.data[k]);
    }
    for (uint32_t i = 0; i < tasks.len; i++)
        if (store_any(l->st, tasks.data[i], 0, 0)) /* else reported as a dangling reference */
            gsm_lint_check_task(l, tasks.data[i], &is_task, &checked);
    u64map_free(&is_task);
    u64map_free(&checked);
    u32vec_free(&tasks);
    u32vec_free(&named);
}

/* Sub-workflow alternatives (docs/DESIGN.md §6.1): a stage's ldgsm:alternativeStages is one proper,
 * non-empty list of stages, each listed once (the rules give each one turn and one "gave way" milestone);
 * a stage's own ldgsm:timeout is a positive dayTimeDuration. */
static void check_alternative_stages(gsm_lint *l, const model *m) {
    u32vec members = {0};
    for (uint32_t i = 0; i < m->stages.len; i++) {
        term_id stage = m->stages.data[i];
        size_t file = file_of_term(l, stage);
        check_duration(l, stage, l->v.timeout, true);
        term_id list = single_value(l, stage, l->v.alternative_stages, file);
        if (!list)
            continue;
        check_member_list(l, stage, l->v.alternative_stages, list, "alternative stage", &members);
        u64map listed = {0};
        for (uint32_t k = 0; k < members.len; k++) {
            bool inserted;
            u64map_put(&listed, members.data[k], 1, &inserted);
            if (inserted)
                continue;
            char *shown = show(l, members.data[k], file);
            report_in(l, file, LINT_ERROR, stage,
                      "stage %s is listed twice in ldgsm:alternativeStages: an alternative has one turn and one "
                      "\"gave way\" milestone",
                      shown);
            free(shown);
        }
        u64map_free(&listed);
    }
    u32vec_free(&members);
}

static int entry_order(const void *a, const void *b) {
    const lint_entry *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

/* Sorts messages by file and drops repeats (note 4). */
static void finish_messages(gsm_lint *l) {
    if (l->entry_count)
        qsort(l->entries, l->entry_count, sizeof *l->entries, entry_order);
    strmap seen = {0};
    size_t kept = 0;
    for (size_t i = 0; i < l->entry_count; i++) {
        bool inserted;
        strmap_put(&seen, l->entries[i].message.line, 1, &inserted);
        if (inserted)
            l->entries[kept++] = l->entries[i];
        else
            free(l->entries[i].message.line);
    }
    l->entry_count = kept;
    strmap_free(&seen);
}

void gsm_lint_check(gsm_lint *l) {
    if (!l->load_failed && l->file_count) {
        if (l->options.compat_authors_draft)
            resolve_draft_tasks(l);
        model m = {0};
        model_read(l, &m);
        if (m.stages.len == 0 && !l->other_model)
            report_in(l, 0, LINT_ERROR, 0,
                      "no stage is described (nothing is a gsm:Stage or has gsm:hasChildStage, gsm:hasGuard, "
                      "gsm:hasMilestone or gsm:hasHttpRequest)");
        check_references(l);
        check_sentries(l);
        check_structure(l, &m);
        check_guards(l, &m);
        check_milestones(l, &m);
        check_milestone_sentries(l, &m);
        check_tasks(l, &m);
        check_alternative_stages(l, &m);
        model_free(&m);
    }
    finish_messages(l);
}

size_t gsm_lint_message_count(const gsm_lint *l) {
    return l->entry_count;
}

const lint_message *gsm_lint_message(const gsm_lint *l, size_t i) {
    return i < l->entry_count ? &l->entries[i].message : NULL;
}

size_t gsm_lint_count(const gsm_lint *l, enum lint_severity severity) {
    size_t count = 0;
    for (size_t i = 0; i < l->entry_count; i++)
        count += l->entries[i].message.severity == severity;
    return count;
}

/* ==== for the checks of other kinds of model (lint.h) ==== */

terms *gsm_lint_terms(gsm_lint *l) {
    return l->t;
}

store *gsm_lint_store(gsm_lint *l) {
    return l->st;
}

bool gsm_lint_loaded(const gsm_lint *l) {
    return l->file_count && !l->load_failed;
}

void gsm_lint_other_model(gsm_lint *l) {
    l->other_model = true;
}

size_t gsm_lint_file_of(gsm_lint *l, term_id term) {
    return file_of_term(l, term);
}

char *gsm_lint_show(gsm_lint *l, term_id term, size_t file) {
    return show(l, term, file);
}

void gsm_lint_report(gsm_lint *l, size_t file, enum lint_severity severity, term_id term, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report_v(l, file, severity, term, fmt, ap);
    va_end(ap);
}

char *gsm_lint_sentry_query(gsm_lint *l, term_id node, enum sentry_context context, char *error, size_t error_len) {
    return sentry_query(l, node, context, error, error_len);
}
