/* wsm_draw.c: the state diagram of wsm_draw.h: the documents parsed into a store, read into views (plain
 * strings, checked before anything is drawn), then a Graphviz graph built from the views in the drawing
 * child of gsm_draw_graph. */
#include "wsm/wsm_draw.h"

#include <gvc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wsm/wsm_names.h"

#define FILL_CURRENT "#b6e8b0" /* gsm/draw.c's active stage */
#define FILL_NOTE "#fff8c4"

typedef struct transition_view {
    size_t from, to; /* indexes into the schema's states */
    char *label;
} transition_view;

typedef struct schema_view {
    char *name;
    char **states;
    size_t state_count;
    size_t initial;  /* index of the initial state, or state_count when it has none */
    size_t current;  /* index of the instance's current state, or state_count */
    transition_view *transitions;
    size_t transition_count;
} schema_view;

typedef struct picture {
    schema_view *schemas;
    size_t schema_count;
    const char *instance;  /* NULL: no instance */
    char **note;           /* with an instance: the note's lines after the instance */
    size_t note_count;
} picture;

typedef struct reader {
    terms *t;
    store *st;
    wsm_terms v;
} reader;

#define PUSH(array, count) ((array) = xrealloc((array), ((count) + 1) * sizeof *(array)), &(array)[(count)++])

static int load(reader *r, rdfio *io, const wsm_draw_document *doc, char *error, size_t error_len) {
    const char *hash = strchr(doc->base, '#');
    term_id graph = terms_iri(r->t, doc->base, hash ? (size_t)(hash - doc->base) : strlen(doc->base));
    rdf_error err;
    if (rdf_parse(io, r->st, doc->syntax == RDF_SYNTAX_UNKNOWN ? RDF_TURTLE : doc->syntax, doc->text, doc->len,
                  doc->base, graph, doc->name, &err) != 0) {
        snprintf(error, error_len, "%s", err.message);
        return -1;
    }
    return 0;
}

static void reader_open(reader *r) {
    r->t = terms_new();
    r->st = store_new();
    wsm_terms_init(&r->v, r->t);
}

static void reader_close(reader *r) {
    store_free(r->st);
    terms_free(r->t);
}

static bool is_schema(reader *r, term_id w) {
    return store_find(r->st, w, T_RDF_TYPE, r->v.schema) != UINT32_MAX ||
           store_first_object(r->st, w, r->v.initial_state) != 0;
}

/* The schemas described, in the order they were read. */
static size_t schemas_described(reader *r, term_id **out) {
    size_t count = 0;
    *out = NULL;
    store_iter it;
    uint32_t n;
    store_match(r->st, 0, 0, 0, 0, store_size(r->st), &it);
    for (const triple *tr; (tr = store_next(&it, &n));) {
        bool names_one = (tr->p == T_RDF_TYPE && tr->o == r->v.schema) || tr->p == r->v.initial_state;
        bool known = false;
        for (size_t i = 0; i < count && !known; i++)
            known = (*out)[i] == tr->s;
        if (names_one && !known)
            *PUSH(*out, count) = tr->s;
    }
    return count;
}

bool wsm_draw_is_schema(const wsm_draw_document *doc) {
    reader r;
    reader_open(&r);
    rdfio *io = rdfio_new(r.t);
    char error[600];
    term_id *schemas = NULL;
    bool found = load(&r, io, doc, error, sizeof error) == 0 && schemas_described(&r, &schemas) > 0;
    free(schemas);
    rdfio_free(io);
    reader_close(&r);
    return found;
}

/* The index of state in the view, added when new. */
static size_t state_index(reader *r, schema_view *view, term_id *ids, term_id state) {
    for (size_t i = 0; i < view->state_count; i++)
        if (ids[i] == state)
            return i;
    ids[view->state_count] = state;
    *PUSH(view->states, view->state_count) = wsm_name(r->t, r->st, &r->v, state);
    return view->state_count - 1;
}

/* Appends the names of (s, p)'s objects to label, separated by ", ". */
static void append_names(reader *r, buf *label, term_id s, term_id p) {
    u32vec objects = {0};
    store_objects(r->st, s, p, &objects);
    for (size_t i = 0; i < objects.len; i++) {
        char *name = wsm_name(r->t, r->st, &r->v, objects.data[i]);
        buf_printf(label, "%s%s", i ? ", " : "", name);
        free(name);
    }
    u32vec_free(&objects);
}

/* "event [conditions] / assignments". */
static char *transition_label(reader *r, term_id transition) {
    buf label = {0};
    append_names(r, &label, transition, r->v.on);
    if (store_first_object(r->st, transition, r->v.condition)) {
        buf_puts(&label, label.len ? " [" : "[");
        append_names(r, &label, transition, r->v.condition);
        buf_putc(&label, ']');
    }
    u32vec assignments = {0};
    store_objects(r->st, transition, r->v.assigns, &assignments);
    for (size_t i = 0; i < assignments.len; i++) {
        term_id variable = store_first_object(r->st, assignments.data[i], r->v.variable);
        term_id value = store_first_object(r->st, assignments.data[i], r->v.value);
        char *name = variable ? wsm_name(r->t, r->st, &r->v, variable) : xstrndup("?", 1);
        buf_printf(&label, "%s%s := %s", i ? ", " : label.len ? " / " : "/ ", name,
                   value ? wsm_text(r->t, value) : "?");
        free(name);
    }
    u32vec_free(&assignments);
    return buf_cstr(&label);
}

/* The schema's view; current (0: none) is the state marked current. */
static void read_schema(reader *r, term_id w, term_id current, schema_view *view) {
    *view = (schema_view){.name = wsm_name(r->t, r->st, &r->v, w)};
    u32vec transitions = {0}, from = {0}, to = {0};
    store_objects(r->st, w, r->v.transition, &transitions);
    /* at most the initial state and each transition's from and to states (a transition may name several) */
    size_t most = 1;
    for (size_t i = 0; i < transitions.len; i++)
        most += store_count(r->st, transitions.data[i], r->v.from, 0, 0, store_size(r->st)) +
                store_count(r->st, transitions.data[i], r->v.to, 0, 0, store_size(r->st));
    term_id *ids = xcalloc(most, sizeof *ids);
    term_id initial = store_first_object(r->st, w, r->v.initial_state);
    view->initial = initial ? state_index(r, view, ids, initial) : SIZE_MAX;
    for (size_t i = 0; i < transitions.len; i++) {
        store_objects(r->st, transitions.data[i], r->v.from, &from);
        store_objects(r->st, transitions.data[i], r->v.to, &to);
        char *label = transition_label(r, transitions.data[i]);
        for (size_t f = 0; f < from.len; f++)
            for (size_t k = 0; k < to.len; k++)
                *PUSH(view->transitions, view->transition_count) = (transition_view){
                    .from = state_index(r, view, ids, from.data[f]), .to = state_index(r, view, ids, to.data[k]),
                    .label = xstrndup(label, strlen(label))};
        free(label);
    }
    u32vec_free(&from);
    u32vec_free(&to);
    if (view->initial == SIZE_MAX)
        view->initial = view->state_count;
    view->current = view->state_count;
    for (size_t i = 0; current && i < view->state_count; i++)
        if (ids[i] == current)
            view->current = i;
    u32vec_free(&transitions);
    free(ids);
}

/* The instance's schema, current state and variables. */
static int read_instance(reader *r, picture *p, const char *schema_doc, char *error, size_t error_len) {
    term_id instance = terms_iri_cstr(r->t, p->instance);
    term_id w = store_first_object(r->st, instance, r->v.instance_of);
    if (!w) {
        snprintf(error, error_len, "<%s> is not described as a state machine instance (no wsm:instanceOf)",
                 p->instance);
        return -1;
    }
    if (!is_schema(r, w)) {
        snprintf(error, error_len, "%s does not describe <%s>, the schema of the instance %s", schema_doc,
                 wsm_text(r->t, w), p->instance);
        return -1;
    }
    term_id current = store_first_object(r->st, instance, r->v.current_state);
    p->schemas = xcalloc(1, sizeof *p->schemas);
    p->schema_count = 1;
    read_schema(r, w, current, &p->schemas[0]);
    buf line = {0};
    if (!current)
        buf_puts(&line, "not set up yet (no current state)");
    else if (p->schemas[0].current == p->schemas[0].state_count)
        buf_printf(&line, "its current state <%s> is not a state of the schema", wsm_text(r->t, current));
    if (line.len)
        *PUSH(p->note, p->note_count) = buf_cstr(&line);
    u32vec variables = {0};
    store_objects(r->st, w, r->v.variable, &variables);
    for (size_t i = 0; i < variables.len; i++) {
        char *name = wsm_name(r->t, r->st, &r->v, variables.data[i]);
        term_id value = store_first_object(r->st, instance, variables.data[i]);
        buf text = {0};
        buf_printf(&text, "%s = %s", name, value ? wsm_text(r->t, value) : "(not set)");
        *PUSH(p->note, p->note_count) = buf_cstr(&text);
        free(name);
    }
    u32vec_free(&variables);
    return 0;
}

static void picture_free(picture *p) {
    for (size_t i = 0; i < p->schema_count; i++) {
        schema_view *view = &p->schemas[i];
        free(view->name);
        for (size_t k = 0; k < view->state_count; k++)
            free(view->states[k]);
        for (size_t k = 0; k < view->transition_count; k++)
            free(view->transitions[k].label);
        free(view->states);
        free(view->transitions);
    }
    free(p->schemas);
    for (size_t i = 0; i < p->note_count; i++)
        free(p->note[i]);
    free(p->note);
}

/* ---- the graph, built in the drawing child (nothing is freed: the process ends) ---- */

static void set(void *object, const char *name, const char *value) {
    agsafeset(object, (char *)name, (char *)value, "");
}

static void set_text_label(Agraph_t *g, void *object, const char *text) {
    buf label = {0};
    gsm_draw_label_text(&label, text);
    gsm_draw_set_html_label(g, object, &label);
}

static void add_schema(Agraph_t *g, const picture *p, size_t s) {
    const schema_view *view = &p->schemas[s];
    char name[64];
    /* one schema is the picture, named above it (a cluster's name may lie under an edge's label) */
    snprintf(name, sizeof name, "cluster_w%zu", s);
    Agraph_t *c = p->schema_count == 1 ? g : agsubg(g, name, 1);
    snprintf(name, sizeof name, "schema-%zu", s);
    set(c, "id", name);
    set(c, "labelloc", "t");
    if (c != g) {
        set(c, "style", "rounded");
        set(c, "color", "#555555");
    }
    buf label = {0};
    buf_puts(&label, "<B>");
    gsm_draw_label_text(&label, view->name);
    buf_puts(&label, "</B>");
    gsm_draw_set_html_label(g, c, &label);
    Agnode_t **states = xcalloc(view->state_count + 1, sizeof *states);
    for (size_t i = 0; i < view->state_count; i++) {
        snprintf(name, sizeof name, "w%zu_s%zu", s, i);
        Agnode_t *n = states[i] = agnode(c, name, 1);
        snprintf(name, sizeof name, "state-%zu-%zu", s, i);
        set(n, "id", name);
        set(n, "shape", "box");
        bool current = i == view->current;
        set(n, "style", current ? "rounded,filled" : "rounded");
        if (current) {
            set(n, "fillcolor", FILL_CURRENT);
            set(n, "color", "#2e7d32");
            set(n, "penwidth", "2");
        }
        buf text = {0};
        gsm_draw_label_text(&text, view->states[i]);
        if (current)
            buf_puts(&text, "<BR/><I>current</I>");
        gsm_draw_set_html_label(g, n, &text);
    }
    if (view->initial < view->state_count) {
        snprintf(name, sizeof name, "w%zu_start", s);
        Agnode_t *start = agnode(c, name, 1);
        snprintf(name, sizeof name, "initial-%zu", s);
        set(start, "id", name);
        set(start, "shape", "point");
        set(start, "width", "0.12");
        set(start, "label", "");
        agedge(g, start, states[view->initial], NULL, 1);
    }
    for (size_t i = 0; i < view->transition_count; i++) {
        const transition_view *t = &view->transitions[i];
        Agedge_t *e = agedge(g, states[t->from], states[t->to], NULL, 1);
        snprintf(name, sizeof name, "transition-%zu-%zu", s, i);
        set(e, "id", name);
        set_text_label(g, e, t->label);
    }
}

static void add_note(Agraph_t *g, const picture *p) {
    Agnode_t *n = agnode(g, "instance", 1);
    set(n, "id", "instance");
    set(n, "shape", "note");
    set(n, "style", "filled");
    set(n, "fillcolor", FILL_NOTE);
    buf label = {0};
    buf_puts(&label, "<B>");
    gsm_draw_label_text(&label, p->instance);
    buf_puts(&label, "</B>");
    for (size_t i = 0; i < p->note_count; i++) {
        buf_puts(&label, "<BR ALIGN=\"LEFT\"/>");
        gsm_draw_label_text(&label, p->note[i]);
    }
    buf_puts(&label, "<BR ALIGN=\"LEFT\"/>");
    gsm_draw_set_html_label(g, n, &label);
}

static Agraph_t *build_graph(const void *user) {
    const picture *p = user;
    Agraph_t *g = agopen("machine", Agdirected, NULL);
    set(g, "rankdir", "LR");
    set(g, "fontname", "Helvetica");
    set(g, "fontsize", "12");
    agattr(g, AGNODE, "fontname", "Helvetica");
    agattr(g, AGNODE, "fontsize", "10");
    agattr(g, AGEDGE, "fontname", "Helvetica");
    agattr(g, AGEDGE, "fontsize", "9");
    for (size_t s = 0; s < p->schema_count; s++)
        add_schema(g, p, s);
    if (p->instance)
        add_note(g, p);
    return g;
}

int wsm_draw(const wsm_draw_document *docs, size_t doc_count, const char *instance, enum gsm_draw_format format,
             buf *out, char *error, size_t error_len) {
    reader r;
    reader_open(&r);
    rdfio *io = rdfio_new(r.t);
    picture p = {.instance = instance};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < doc_count; i++)
        rc = load(&r, io, &docs[i], error, error_len);
    rdfio_free(io);
    if (rc == 0 && instance)
        rc = read_instance(&r, &p, docs[0].name, error, error_len);
    else if (rc == 0) {
        term_id *schemas;
        p.schema_count = schemas_described(&r, &schemas);
        p.schemas = xcalloc(p.schema_count + 1, sizeof *p.schemas);
        for (size_t i = 0; i < p.schema_count; i++)
            read_schema(&r, schemas[i], 0, &p.schemas[i]);
        free(schemas);
        if (!p.schema_count) {
            snprintf(error, error_len, "%s describes no state machine schema (wsm:Schema)", docs[0].name);
            rc = -1;
        }
    }
    reader_close(&r);
    if (rc == 0)
        rc = gsm_draw_graph(build_graph, &p, format, out, error, error_len);
    picture_free(&p);
    return rc;
}
