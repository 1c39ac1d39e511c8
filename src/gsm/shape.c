/* shape.c: reads the shape of shape.h from the loaded documents: the stage tree by an explicit walk, the
 * milestones and guards of each stage, each guard's reads from its parsed sentries, then the states an
 * instance's status document gives. */
#include "gsm/shape.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "n3/n3_reader.h"
#include "rdf/hashmap.h"
#include "rdf/store.h"
#include "rdf/vocab_ns.h"
#include "reason/reasoner.h"
#include "reason/rule.h"
#include "reason/sentry_ast.h"

typedef struct shape_vocab {
    term_id stage, has_child_stage, has_guard, has_milestone, has_http_request, alternative_stages;
    term_id has_condition, is_instance_of, is_achieved, has_state, in_artifact_instance, of_stage,
        is_completed;
    term_id active, inactive, uninitialized;
    term_id label, comment, sp_text, sp_where;
    term_id call_record, call_state, last_failure, calling, exhausted, answered;
} shape_vocab;

struct gsm_shape_rdf {
    terms *t;
    store *st;
    rdfio *io;
    char *compat_rules;
    shape_vocab v;
    sentry_text_parser *text_parser; /* made for the first text sentry */
    u32vec stage_terms;              /* the model term of each stage entry */
    u32vec milestone_terms;          /* the model term of each milestone entry */
    u64map stage_index;              /* stage model term -> its entry */
};

static void vocab_init(shape_vocab *v, terms *t) {
    v->stage = terms_iri_cstr(t, GSM_Stage);
    v->has_child_stage = terms_iri_cstr(t, GSM_hasChildStage);
    v->has_guard = terms_iri_cstr(t, GSM_hasGuard);
    v->has_milestone = terms_iri_cstr(t, GSM_hasMilestone);
    v->has_http_request = terms_iri_cstr(t, GSM_hasHttpRequest);
    v->alternative_stages = terms_iri_cstr(t, LDGSM_alternativeStages);
    v->has_condition = terms_iri_cstr(t, GSM_hasCondition);
    v->is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf);
    v->is_achieved = terms_iri_cstr(t, GSM_isAchieved);
    v->has_state = terms_iri_cstr(t, GSM_hasState);
    v->in_artifact_instance = terms_iri_cstr(t, GSM_inArtifactInstance);
    v->of_stage = terms_iri_cstr(t, LDGSM_ofStage);
    v->is_completed = terms_iri_cstr(t, LDGSM_isCompleted);
    v->active = terms_iri_cstr(t, GSM_active);
    v->inactive = terms_iri_cstr(t, GSM_inactive);
    v->uninitialized = terms_iri_cstr(t, GSM_uninitialized);
    v->label = terms_iri_cstr(t, RDFS_label);
    v->comment = terms_iri_cstr(t, RDFS_comment);
    v->call_record = terms_iri_cstr(t, NS_LDGSM "CallRecord");
    v->call_state = terms_iri_cstr(t, LDGSM_callState);
    v->last_failure = terms_iri_cstr(t, LDGSM_lastFailure);
    v->calling = terms_iri_cstr(t, NS_LDGSM "calling");
    v->exhausted = terms_iri_cstr(t, NS_LDGSM "exhausted");
    v->answered = terms_iri_cstr(t, NS_LDGSM "answered");
    v->sp_text = terms_iri_cstr(t, SP_text);
    v->sp_where = terms_iri_cstr(t, SP_where);
}

const char *gsm_shape_state_name(enum gsm_shape_state state) {
    switch (state) {
    case GSM_STATE_UNINITIALIZED: return "uninitialized";
    case GSM_STATE_INACTIVE: return "inactive";
    case GSM_STATE_ACTIVE: return "active";
    default: return "unknown";
    }
}

const char *gsm_shape_stage_word(const gsm_shape *shape, const gsm_shape_stage *stage) {
    if (!shape->instance)
        return "";
    if (stage->state == GSM_STATE_ACTIVE)
        return "active";
    if (stage->completed == 1)
        return "completed";
    if (stage->state == GSM_STATE_INACTIVE || stage->state == GSM_STATE_UNINITIALIZED)
        return gsm_shape_state_name(stage->state);
    return "not set up";
}

gsm_shape *gsm_shape_new(const char *compat_rules) {
    gsm_shape *s = xcalloc(1, sizeof *s);
    gsm_shape_rdf *r = s->rdf = xcalloc(1, sizeof *r);
    r->t = terms_new();
    r->st = store_new();
    r->io = rdfio_new(r->t);
    r->compat_rules = compat_rules ? xstrndup(compat_rules, strlen(compat_rules)) : NULL;
    vocab_init(&r->v, r->t);
    return s;
}

static void rdf_free(gsm_shape_rdf *r) {
    if (!r)
        return;
    sentry_text_parser_free(r->text_parser);
    u32vec_free(&r->stage_terms);
    u32vec_free(&r->milestone_terms);
    u64map_free(&r->stage_index);
    rdfio_free(r->io);
    store_free(r->st);
    terms_free(r->t);
    free(r->compat_rules);
    free(r);
}

void gsm_shape_free(gsm_shape *s) {
    if (!s)
        return;
    for (size_t i = 0; i < s->stage_count; i++) {
        free(s->stages[i].iri);
        free(s->stages[i].name);
    }
    free(s->stages);
    for (size_t i = 0; i < s->milestone_count; i++) {
        free(s->milestones[i].iri);
        free(s->milestones[i].name);
    }
    free(s->milestones);
    for (size_t i = 0; i < s->guard_count; i++) {
        free(s->guards[i].iri);
        free(s->guards[i].name);
        free(s->guards[i].waits_for);
        free(s->guards[i].reads);
    }
    free(s->guards);
    for (size_t i = 0; i < s->warning_count; i++)
        free(s->warnings[i]);
    free(s->warnings);
    free(s->instance);
    rdf_free(s->rdf);
    free(s);
}

int gsm_shape_load(gsm_shape *s, const char *name, const char *base, enum rdf_syntax syntax, const char *text,
                   size_t len, char *error, size_t error_len) {
    gsm_shape_rdf *r = s->rdf;
    const char *hash = strchr(base, '#');
    term_id graph = terms_iri(r->t, base, hash ? (size_t)(hash - base) : strlen(base));
    rdf_error err;
    if (rdf_parse(r->io, r->st, syntax == RDF_SYNTAX_UNKNOWN ? RDF_TURTLE : syntax, text, len, base, graph, name,
                  &err) != 0) {
        snprintf(error, error_len, "%s", err.message);
        return -1;
    }
    return 0;
}

/* ==== reading the store ==== */

static void warn(gsm_shape *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(gsm_shape *s, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    char line[1024];
    vsnprintf(line, sizeof line, fmt, args);
    va_end(args);
    s->warnings = xrealloc(s->warnings, (s->warning_count + 1) * sizeof *s->warnings);
    s->warnings[s->warning_count++] = xstrndup(line, strlen(line));
}

/* The objects of (subject, predicate), in document order. */
static void objects(gsm_shape_rdf *r, term_id subject, term_id predicate, u32vec *out) {
    store_iter it;
    uint32_t n;
    const triple *tr;
    out->len = 0;
    store_match(r->st, subject, predicate, 0, 0, store_size(r->st), &it);
    while ((tr = store_next(&it, &n)))
        u32vec_push(out, tr->o);
}

/* The items of an rdf:first/rest list (or an N3 list term); a broken or cyclic chain gives the items
 * before the break. */
static void list_items(gsm_shape_rdf *r, term_id list, u32vec *out) {
    if (terms_kind(r->t, list) == TERM_LIST) {
        size_t n;
        const term_id *items = terms_list_items(r->t, list, &n);
        for (size_t i = 0; i < n; i++)
            u32vec_push(out, items[i]);
        return;
    }
    uint32_t limit = store_size(r->st);
    for (uint32_t steps = 0; list && list != T_RDF_NIL && steps <= limit; steps++) {
        term_id item = store_first_object(r->st, list, T_RDF_FIRST);
        if (!item)
            return;
        u32vec_push(out, item);
        list = store_first_object(r->st, list, T_RDF_REST);
    }
}

static char *term_text(gsm_shape_rdf *r, term_id term) {
    size_t len;
    const char *lex = terms_lex(r->t, term, &len);
    if (terms_kind(r->t, term) != TERM_BNODE)
        return xstrndup(lex, len);
    buf text = {0};
    buf_printf(&text, "_:%s", lex);
    return buf_cstr(&text);
}

/* Design note 3. */
static char *name_of(gsm_shape_rdf *r, term_id term) {
    u32vec labels = {0};
    objects(r, term, r->v.label, &labels);
    for (uint32_t i = 0; i < labels.len; i++)
        if (terms_kind(r->t, labels.data[i]) == TERM_LITERAL) {
            term_id label = labels.data[i];
            u32vec_free(&labels);
            return term_text(r, label);
        }
    u32vec_free(&labels);
    if (terms_kind(r->t, term) != TERM_IRI)
        return term_text(r, term);
    size_t len;
    const char *iri = terms_lex(r->t, term, &len);
    const char *hash = strrchr(iri, '#');
    if (hash && hash[1])
        return xstrndup(hash + 1, strlen(hash + 1));
    size_t end = hash ? (size_t)(hash - iri) : len;
    while (end > 0 && iri[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && iri[start - 1] != '/')
        start--;
    return start < end ? xstrndup(iri + start, end - start) : xstrndup(iri, len);
}

/* ==== the authors' draft vocabulary (design note 4) ==== */

static bool in_draft_namespace(gsm_shape_rdf *r, term_id term) {
    return terms_kind(r->t, term) == TERM_IRI && strncmp(terms_lex(r->t, term, NULL), NS_DRAFT, strlen(NS_DRAFT)) == 0;
}

static bool uses_draft_vocabulary(gsm_shape_rdf *r) {
    for (uint32_t i = 0; i < store_size(r->st); i++) {
        const triple *tr = store_triple(r->st, i);
        if (in_draft_namespace(r, tr->p) || (tr->p == T_RDF_TYPE && in_draft_namespace(r, tr->o)))
            return true;
    }
    return false;
}

static int apply_compat_rules(gsm_shape_rdf *r, char *error, size_t error_len) {
    size_t len;
    char *text = read_file(r->compat_rules, &len);
    if (!text) {
        snprintf(error, error_len, "%s: %s", r->compat_rules, strerror(errno));
        return -1;
    }
    n3_doc doc = {0};
    n3_error err;
    int rc = n3_parse(r->t, text, len, r->compat_rules, NULL, &doc, &err);
    free(text);
    if (rc != 0) {
        snprintf(error, error_len, "%s", err.message);
        return -1;
    }
    rule_set rules = {0};
    log_sink quiet = {.threshold = LOG_ERROR};
    rule_set_add_program(&rules, r->t, &doc, r->compat_rules, &quiet);
    n3_doc_free(&doc);
    reasoner_options options = {.derived_graph = terms_iri_cstr(r->t, LDGSM_DERIVED_GRAPH), .log = &quiet};
    reasoner *engine = reasoner_new(r->t, r->st, &options);
    rc = reasoner_run(engine, &rules, 0);
    if (rc != 0)
        snprintf(error, error_len, "%s: %s", r->compat_rules, reasoner_error(engine));
    reasoner_free(engine);
    rule_set_free(&rules);
    return rc;
}

/* ==== the stage tree ==== */

/* Adds term to an ordered set. */
static void set_add(u32vec *v, u64map *in, term_id term) {
    bool inserted;
    u64map_put(in, term, v->len, &inserted);
    if (inserted)
        u32vec_push(v, term);
}

/* A stage's children in document order, each once: gsm:hasChildStage, then its alternative stages (those
 * also into alternatives, as its ldgsm:alternativeStages lists them). */
static void children_of(gsm_shape_rdf *r, term_id stage, u32vec *out, u32vec *alternatives) {
    u32vec lists = {0};
    u64map seen = {0};
    u32vec named = {0};
    out->len = 0;
    alternatives->len = 0;
    objects(r, stage, r->v.has_child_stage, &named);
    objects(r, stage, r->v.alternative_stages, &lists);
    for (uint32_t i = 0; i < lists.len; i++)
        list_items(r, lists.data[i], alternatives);
    for (uint32_t i = 0; i < named.len; i++)
        set_add(out, &seen, named.data[i]);
    for (uint32_t i = 0; i < alternatives->len; i++)
        if (terms_kind(r->t, alternatives->data[i]) != TERM_LITERAL)
            set_add(out, &seen, alternatives->data[i]);
    u32vec_free(&named);
    u32vec_free(&lists);
    u64map_free(&seen);
}

/* Design note 1: every stage of the documents in order of first mention, and which are children. */
static void find_stages(gsm_shape_rdf *r, u32vec *stages, u64map *is_stage, u64map *is_child) {
    const shape_vocab *v = &r->v;
    bool inserted;
    for (uint32_t i = 0; i < store_size(r->st); i++) {
        const triple *tr = store_triple(r->st, i);
        if ((tr->p == T_RDF_TYPE && tr->o == v->stage) || tr->p == v->has_child_stage || tr->p == v->has_guard ||
            tr->p == v->has_milestone || tr->p == v->has_http_request || tr->p == v->alternative_stages)
            set_add(stages, is_stage, tr->s);
        if (tr->p == v->has_child_stage && terms_kind(r->t, tr->o) != TERM_LITERAL) {
            set_add(stages, is_stage, tr->o);
            u64map_put(is_child, tr->o, 0, &inserted);
        }
        if (tr->p == v->alternative_stages) {
            u32vec items = {0};
            list_items(r, tr->o, &items);
            for (uint32_t k = 0; k < items.len; k++)
                if (terms_kind(r->t, items.data[k]) != TERM_LITERAL) {
                    set_add(stages, is_stage, items.data[k]);
                    u64map_put(is_child, items.data[k], 0, &inserted);
                }
            u32vec_free(&items);
        }
    }
}

static size_t add_stage(gsm_shape *s, term_id term, size_t parent, bool is_alternative) {
    gsm_shape_rdf *r = s->rdf;
    s->stages = xrealloc(s->stages, (s->stage_count + 1) * sizeof *s->stages);
    s->stages[s->stage_count] = (gsm_shape_stage){
        .iri = term_text(r, term),
        .name = name_of(r, term),
        .parent = parent,
        .depth = parent == GSM_SHAPE_NONE ? 0 : s->stages[parent].depth + 1,
        .is_alternative = is_alternative,
        .next_alternative = GSM_SHAPE_NONE,
        .completed = -1,
    };
    u32vec_push(&r->stage_terms, term);
    bool inserted;
    u64map_put(&r->stage_index, term, (uint32_t)s->stage_count, &inserted);
    return s->stage_count++;
}

static size_t stage_entry(gsm_shape *s, term_id term) {
    uint32_t *index = u64map_get(&s->rdf->stage_index, term);
    return index ? *index : GSM_SHAPE_NONE;
}

/* Walks the tree under root depth first with an explicit stack (a deep or cyclic model cannot exhaust
 * the C stack); a stage already shown is not shown again. */
static void walk(gsm_shape *s, term_id root) {
    gsm_shape_rdf *r = s->rdf;
    typedef struct pending {
        term_id stage;
        size_t parent;
        bool is_alternative;
    } pending;
    pending *stack = xmalloc(sizeof *stack);
    size_t depth = 0, cap = 1;
    stack[depth++] = (pending){root, GSM_SHAPE_NONE, false};
    u32vec children = {0}, alternatives = {0};
    while (depth) {
        pending p = stack[--depth];
        if (stage_entry(s, p.stage) != GSM_SHAPE_NONE)
            continue;
        size_t index = add_stage(s, p.stage, p.parent, p.is_alternative);
        children_of(r, p.stage, &children, &alternatives);
        if (depth + children.len > cap) {
            cap = 2 * (depth + children.len);
            stack = xrealloc(stack, cap * sizeof *stack);
        }
        for (uint32_t i = children.len; i-- > 0;) {
            bool alternative = false;
            for (uint32_t k = 0; k < alternatives.len; k++)
                alternative |= alternatives.data[k] == children.data[i];
            stack[depth++] = (pending){children.data[i], index, alternative};
        }
    }
    free(stack);
    u32vec_free(&children);
    u32vec_free(&alternatives);
}

/* Links each alternative to the one after it in its parent's list. */
static void link_alternatives(gsm_shape *s) {
    gsm_shape_rdf *r = s->rdf;
    u32vec lists = {0}, items = {0};
    for (size_t i = 0; i < s->stage_count; i++) {
        objects(r, r->stage_terms.data[i], r->v.alternative_stages, &lists);
        for (uint32_t l = 0; l < lists.len; l++) {
            items.len = 0;
            list_items(r, lists.data[l], &items);
            for (uint32_t k = 0; k + 1 < items.len; k++) {
                size_t from = stage_entry(s, items.data[k]), to = stage_entry(s, items.data[k + 1]);
                if (from != GSM_SHAPE_NONE && to != GSM_SHAPE_NONE && s->stages[from].parent == i)
                    s->stages[from].next_alternative = to;
            }
        }
    }
    u32vec_free(&lists);
    u32vec_free(&items);
}

static size_t add_milestone(gsm_shape *s, term_id term, size_t stage) {
    gsm_shape_rdf *r = s->rdf;
    s->milestones = xrealloc(s->milestones, (s->milestone_count + 1) * sizeof *s->milestones);
    s->milestones[s->milestone_count] =
        (gsm_shape_milestone){.iri = term_text(r, term), .name = name_of(r, term), .stage = stage, .achieved = -1};
    u32vec_push(&r->milestone_terms, term);
    return s->milestone_count++;
}

/* ==== guards and what their sentries read (design note 2) ==== */

static sq_node *parse_sentry(gsm_shape *s, term_id sentry, char *error, size_t error_len) {
    gsm_shape_rdf *r = s->rdf;
    sq_node *tree = NULL;
    store_iter it;
    uint32_t n;
    store_match(r->st, sentry, r->v.sp_text, 0, 0, store_size(r->st), &it);
    const triple *text = store_next(&it, &n);
    if (text && terms_kind(r->t, text->o) == TERM_LITERAL) {
        if (!r->text_parser && !(r->text_parser = sentry_text_parser_new(r->t))) {
            snprintf(error, error_len, "rasqal did not start");
            return NULL;
        }
        const char *base = terms_lex(r->t, store_first_graph(r->st, n), NULL);
        return sentry_from_text(r->text_parser, sentry, terms_lex(r->t, text->o, NULL), base, &tree, error,
                                error_len) == 0 ? tree : NULL;
    }
    if (!store_first_object(r->st, sentry, r->v.sp_where)) {
        snprintf(error, error_len, "neither sp:where nor sp:text");
        return NULL;
    }
    return sentry_from_spin(r->t, r->st, sentry, &tree, error, error_len) == 0 ? tree : NULL;
}

static void add_read(gsm_shape_guard *g, size_t milestone, bool negated) {
    for (size_t i = 0; i < g->read_count; i++)
        if (g->reads[i].milestone == milestone && g->reads[i].negated == negated)
            return;
    g->reads = xrealloc(g->reads, (g->read_count + 1) * sizeof *g->reads);
    g->reads[g->read_count++] = (gsm_shape_read){milestone, negated};
}

/* The milestones the sentry's patterns read, added to the guard. */
static void add_reads(gsm_shape *s, gsm_shape_guard *g, const sq_node *tree) {
    gsm_shape_rdf *r = s->rdf;
    /* every triple pattern of the tree, wherever it is nested */
    const sq_node **todo = xmalloc(sizeof *todo);
    size_t count = 0, cap = 1;
    triple *patterns = NULL;
    size_t pattern_count = 0;
    todo[count++] = tree;
    while (count) {
        const sq_node *node = todo[--count];
        if (node->kind == SQ_PATTERN) {
            patterns = xrealloc(patterns, (pattern_count + 1) * sizeof *patterns);
            patterns[pattern_count++] = node->pattern;
        }
        if (count + node->child_count > cap) {
            cap = 2 * (count + node->child_count);
            todo = xrealloc(todo, cap * sizeof *todo);
        }
        for (size_t i = 0; i < node->child_count; i++)
            todo[count++] = node->children[i];
    }
    for (size_t i = 0; i < pattern_count; i++) {
        if (patterns[i].p != r->v.is_instance_of)
            continue;
        bool negated = false;
        for (size_t k = 0; k < pattern_count; k++)
            negated |= patterns[k].s == patterns[i].s && patterns[k].p == r->v.is_achieved && patterns[k].o == T_FALSE;
        for (size_t m = 0; m < s->milestone_count; m++)
            if (r->milestone_terms.data[m] == patterns[i].o)
                add_read(g, m, negated);
    }
    free(patterns);
    free(todo);
}

/* A sentry's description: its rdfs:label, else its rdfs:comment, whitespace runs as one space; or NULL. */
static char *description_of(gsm_shape_rdf *r, term_id sentry) {
    term_id properties[] = {r->v.label, r->v.comment};
    u32vec texts = {0};
    char *found = NULL;
    for (size_t p = 0; p < 2 && !found; p++) {
        objects(r, sentry, properties[p], &texts);
        for (uint32_t i = 0; i < texts.len && !found; i++)
            if (terms_kind(r->t, texts.data[i]) == TERM_LITERAL) {
                buf text = {0};
                buf_puts_one_line(&text, terms_lex(r->t, texts.data[i], NULL));
                found = buf_cstr(&text);
            }
    }
    u32vec_free(&texts);
    return found;
}

/* Design note 6: what the guard's sentries are described as, else the milestones they read. */
static void set_waits_for(gsm_shape *s, gsm_shape_guard *g, const u32vec *conditions) {
    buf text = {0};
    for (uint32_t k = 0; k < conditions->len; k++) {
        char *description = description_of(s->rdf, conditions->data[k]);
        if (description && !strstr(buf_cstr(&text), description))
            buf_printf(&text, "%s%s", text.len ? " or " : "", description);
        free(description);
    }
    if (!text.len)
        for (size_t i = 0; i < g->read_count; i++)
            buf_printf(&text, "%s%s%s", i ? ", " : "", g->reads[i].negated ? "not " : "",
                       s->milestones[g->reads[i].milestone].name);
    g->waits_for = text.len ? buf_cstr(&text) : (buf_free(&text), NULL);
}

static void add_guards(gsm_shape *s, size_t stage) {
    gsm_shape_rdf *r = s->rdf;
    u32vec guards = {0}, conditions = {0};
    objects(r, r->stage_terms.data[stage], r->v.has_guard, &guards);
    for (uint32_t i = 0; i < guards.len; i++) {
        s->guards = xrealloc(s->guards, (s->guard_count + 1) * sizeof *s->guards);
        gsm_shape_guard *g = &s->guards[s->guard_count++];
        *g = (gsm_shape_guard){.iri = term_text(r, guards.data[i]), .name = name_of(r, guards.data[i]), .stage = stage};
        objects(r, guards.data[i], r->v.has_condition, &conditions);
        for (uint32_t k = 0; k < conditions.len; k++) {
            char error[600];
            sq_node *tree = parse_sentry(s, conditions.data[k], error, sizeof error);
            if (!tree) {
                char *sentry = term_text(r, conditions.data[k]);
                warn(s, "guard <%s>: sentry <%s> is not drawn: %s", g->iri, sentry, error);
                free(sentry);
                continue;
            }
            add_reads(s, g, tree);
            sq_node_free(tree);
        }
        set_waits_for(s, g, &conditions);
    }
    u32vec_free(&guards);
    u32vec_free(&conditions);
}

/* ==== the instance's states ==== */

static int boolean_of(gsm_shape_rdf *r, term_id subject, term_id predicate) {
    term_id value = store_first_object(r->st, subject, predicate);
    return value == T_TRUE ? 1 : value == T_FALSE ? 0 : -1;
}

static enum gsm_shape_state state_of(gsm_shape_rdf *r, term_id subject) {
    term_id state = store_first_object(r->st, subject, r->v.has_state);
    return state == r->v.active ? GSM_STATE_ACTIVE
           : state == r->v.inactive ? GSM_STATE_INACTIVE
           : state == r->v.uninitialized ? GSM_STATE_UNINITIALIZED
                                         : GSM_STATE_UNKNOWN;
}

const char *gsm_shape_call_name(enum gsm_shape_call call) {
    static const char *const names[] = {"", "answered", "exhausted", "calling", "retrying"};
    return names[call];
}

/* Design note 7: the call of the stage instance fragment. */
static enum gsm_shape_call call_of(gsm_shape_rdf *r, term_id fragment) {
    enum gsm_shape_call call = GSM_CALL_NONE;
    store_iter it;
    uint32_t n;
    store_match(r->st, 0, r->v.of_stage, fragment, 0, store_size(r->st), &it);
    for (const triple *tr; (tr = store_next(&it, &n));) {
        if (store_find(r->st, tr->s, T_RDF_TYPE, r->v.call_record) == UINT32_MAX)
            continue;
        term_id state = store_first_object(r->st, tr->s, r->v.call_state);
        enum gsm_shape_call this = state == r->v.answered    ? GSM_CALL_ANSWERED
                                   : state == r->v.exhausted ? GSM_CALL_EXHAUSTED
                                   : state != r->v.calling   ? GSM_CALL_NONE
                                   : store_first_object(r->st, tr->s, r->v.last_failure) ? GSM_CALL_RETRYING
                                                                                          : GSM_CALL_CALLING;
        if (this > call)
            call = this;
    }
    return call;
}

static size_t milestone_entry(gsm_shape *s, size_t stage, term_id milestone) {
    for (size_t m = 0; m < s->milestone_count; m++)
        if (s->milestones[m].stage == stage && s->rdf->milestone_terms.data[m] == milestone)
            return m;
    return GSM_SHAPE_NONE;
}

/* The fragments of the instance's status document (docs/DESIGN.md §5.1): its stage instances and the
 * milestone instances of each (ldgsm:ofStage), in document order. With add_missing (design note 5) they
 * become the entries of the shape; otherwise only those the model has are given their states. */
static void apply_states(gsm_shape *s, term_id instance, term_id root, bool add_missing) {
    gsm_shape_rdf *r = s->rdf;
    const shape_vocab *v = &r->v;
    s->stages[0].state = state_of(r, instance);
    s->stages[0].completed = boolean_of(r, instance, v->is_completed);
    s->stages[0].call = call_of(r, instance);
    u32vec fragments = {0};
    store_iter it;
    uint32_t n;
    const triple *tr;
    store_match(r->st, 0, v->in_artifact_instance, instance, 0, store_size(r->st), &it);
    while ((tr = store_next(&it, &n)))
        if (tr->s != instance)
            u32vec_push(&fragments, tr->s);
    for (int pass = 0; pass < 2; pass++) /* stages first, so that milestones find them */
        for (uint32_t i = 0; i < fragments.len; i++) {
            term_id fragment = fragments.data[i], model = store_first_object(r->st, fragment, v->is_instance_of);
            term_id owner = store_first_object(r->st, fragment, v->of_stage);
            if (!model || (pass == 0) != !owner)
                continue;
            if (pass == 0) {
                size_t stage = stage_entry(s, model);
                if (stage == GSM_SHAPE_NONE && add_missing)
                    stage = add_stage(s, model, 0, false);
                if (stage == GSM_SHAPE_NONE)
                    continue;
                s->stages[stage].state = state_of(r, fragment);
                s->stages[stage].completed = boolean_of(r, fragment, v->is_completed);
                s->stages[stage].call = call_of(r, fragment);
                continue;
            }
            size_t stage = stage_entry(s, owner == instance ? root : store_first_object(r->st, owner, v->is_instance_of));
            if (stage == GSM_SHAPE_NONE)
                continue;
            size_t milestone = milestone_entry(s, stage, model);
            if (milestone == GSM_SHAPE_NONE && add_missing)
                milestone = add_milestone(s, model, stage);
            if (milestone != GSM_SHAPE_NONE)
                s->milestones[milestone].achieved = boolean_of(r, fragment, v->is_achieved);
        }
    u32vec_free(&fragments);
}

/* ==== building ==== */

int gsm_shape_build(gsm_shape *s, const char *instance, char *error, size_t error_len) {
    gsm_shape_rdf *r = s->rdf;
    /* Loading is over. The raptor2 world goes before rasqal makes its own for text sentries: ending a
     * world ends libxml2's global state, which leaks a thread's state when another world outlives it
     * (measured: the server's page grew ~1 KB per page with the two nested). */
    rdfio_free(r->io);
    r->io = NULL;
    if (uses_draft_vocabulary(r)) {
        if (!r->compat_rules) {
            snprintf(error, error_len, "the model is written in the authors' draft vocabulary (%s) and the rules "
                     "that read it (rules/compat-authors-draft.n3) were not found", NS_DRAFT);
            return -1;
        }
        if (apply_compat_rules(r, error, error_len) != 0)
            return -1;
    }
    u32vec stages = {0}, roots = {0};
    u64map is_stage = {0}, is_child = {0};
    find_stages(r, &stages, &is_stage, &is_child);
    term_id instance_term = 0, root = 0;
    int rc = 0;
    if (instance) {
        s->instance = xstrndup(instance, strlen(instance));
        instance_term = terms_iri_cstr(r->t, instance);
        root = store_first_object(r->st, instance_term, r->v.is_instance_of);
        if (!root) {
            snprintf(error, error_len, "the instance <%s> is not described: its status document gives it no "
                     "gsm:isInstanceOf", instance);
            rc = -1;
        } else {
            s->has_model = u64map_get(&is_stage, root) != NULL;
            u32vec_push(&roots, root);
        }
    } else {
        s->has_model = true;
        for (uint32_t i = 0; i < stages.len; i++)
            if (!u64map_get(&is_child, stages.data[i]))
                u32vec_push(&roots, stages.data[i]);
        if (!stages.len)
            snprintf(error, error_len, "not a GSM workflow model: nothing in it is a gsm:Stage or has "
                     "gsm:hasChildStage, gsm:hasGuard or gsm:hasMilestone");
        else if (!roots.len)
            snprintf(error, error_len, "no root stage: every stage is another's child (a cycle)");
        rc = roots.len ? 0 : -1;
    }
    if (rc == 0 && s->has_model) {
        for (uint32_t i = 0; i < roots.len; i++)
            walk(s, roots.data[i]);
        link_alternatives(s);
        u32vec milestones = {0};
        for (size_t i = 0; i < s->stage_count; i++) {
            objects(r, r->stage_terms.data[i], r->v.has_milestone, &milestones);
            for (uint32_t k = 0; k < milestones.len; k++)
                add_milestone(s, milestones.data[k], i);
        }
        u32vec_free(&milestones);
        for (size_t i = 0; i < s->stage_count; i++)
            add_guards(s, i);
    } else if (rc == 0) {
        add_stage(s, root, GSM_SHAPE_NONE, false);
    }
    if (rc == 0 && instance)
        apply_states(s, instance_term, root, !s->has_model);
    u32vec_free(&stages);
    u32vec_free(&roots);
    u64map_free(&is_stage);
    u64map_free(&is_child);
    rdf_free(s->rdf);
    s->rdf = NULL;
    return rc;
}
