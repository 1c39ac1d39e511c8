/* sentries.c: the sentry table of sentries.h. Compiled sentries live in the table's own rule set across
 * iterations, until the agent releases the terms they are made of (sentry_table_forget); a sentry not seen
 * in an iteration is disabled for it. A sentry written as a blank node is labelled anew whenever its
 * document is parsed, so it is known by its place instead: its document and its rank among that document's
 * blank sentries. Its compiled rule is kept only where the place must hold the same sentry: the document's
 * strong ETag is unchanged (the same bytes, parsed in the same order; the scan sees them in that order,
 * store.h guarantee 2) and so is its text; a weak ETag allows another order of the same triples. */
#include "agent/sentries.h"

#include "agent/links.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http_etag.h"
#include "rdf/buf.h"
#include "rdf/strmap.h"
#include "reason/sentry.h"

typedef struct sentry_entry {
    term_id node;
    char *etag;      /* of the document it was read from when compiled; NULL: none */
    int rule;        /* index in the table's rule set, -1 when invalid */
    char *error;     /* why it is invalid */
    char *said_as;   /* the key its error was said under (said_key) */
    term_id *reads;  /* the constant subjects it names */
    size_t read_count;
    bool seen;       /* in this iteration's working memory */
    term_id text;    /* a blank sentry's sp:text when compiled, 0 for SPIN RDF */
    link_step *links; /* the hops the crawl follows for it (links.h) */
    size_t link_count;
    term_id *link_names; /* each hop's node in working memory */
    bool select;     /* an argument query (a SELECT, the object of an ldgsm:arguments) */
    term_id alias;   /* an argument query's name in its rule, which outlives a blank node's labels */
} sentry_entry;

/* A blank sentry's place: its document's graph and its rank there. */
static uint64_t place_of(term_id graph, uint32_t rank) { return (uint64_t)graph << 32 | rank; }

struct sentry_table {
    terms *t;
    const agent_vocab *v;
    const log_sink *log;
    sentry_text_parser *text_parser;
    rule_set rules;
    sentry_entry *entries;
    size_t count, cap;
    u64map by_node; /* sentry IRI -> entry */
    u64map by_place; /* blank sentry's place_of -> entry */
    u64map blank_ranks; /* graph -> the blank sentries met in it this iteration */
    u64map blank_select_ranks; /* graph -> the blank argument queries met in it this iteration */
    u64map selects_seen; /* the argument queries met this iteration */
    size_t compiles;
    strmap said;    /* said_key -> 1 while that invalid sentry has been said (0: fixed since) */
};

sentry_table *sentry_table_new(terms *t, const agent_vocab *v, const log_sink *log) {
    sentry_table *s = xcalloc(1, sizeof *s);
    s->t = t;
    s->v = v;
    s->log = log;
    s->text_parser = sentry_text_parser_new(t);
    return s;
}

const char *sentry_error_what(const terms *t, term_id node, const char *error) {
    const char *what = sq_error_what(t, node, error);
    if (what != error)
        return what;
    const char *lex = terms_lex(t, node, NULL);
    size_t prefix = strlen("sentry "), len = strlen(lex);
    if (strncmp(error, "sentry ", prefix) == 0 && strncmp(error + prefix, lex, len) == 0 &&
        strncmp(error + prefix + len, ": ", 2) == 0)
        return error + prefix + len + 2;
    return error;
}

/* An invalid sentry's version, said once: "node\tetag\terror". A blank node is labelled anew whenever its
 * document is parsed (every poll), so one is named and keyed by its document instead ("sentry [] in
 * <doc>: what"), and the message is rewritten so. */
static char *said_key(const sentry_table *s, term_id node, term_id graph, const char *etag, char *error,
                      size_t error_len) {
    buf key = {0};
    if (terms_kind(s->t, node) == TERM_BNODE) {
        const char *doc = graph ? terms_lex(s->t, graph, NULL) : "";
        const char *said = sentry_error_what(s->t, node, error);
        char *what = xstrndup(said, strlen(said)); /* error is written over below */
        buf_printf(&key, "[] %s\t%s\t%s", doc, etag ? etag : "", what);
        snprintf(error, error_len, "sentry [] in <%s>: %s", doc, what);
        free(what);
    } else {
        buf_printf(&key, "%s\t%s\t%s", terms_lex(s->t, node, NULL), etag ? etag : "", error);
    }
    return buf_cstr(&key);
}

static void drop_entries(sentry_table *s) {
    for (size_t i = 0; i < s->count; i++) {
        free(s->entries[i].etag);
        free(s->entries[i].error);
        free(s->entries[i].said_as);
        free(s->entries[i].reads);
        free(s->entries[i].links);
        free(s->entries[i].link_names);
    }
    s->count = 0;
    u64map_free(&s->by_node);
    s->by_node = (u64map){0};
    u64map_free(&s->by_place);
    s->by_place = (u64map){0};
    rule_set_free(&s->rules);
}

/* The said set keeps only the errors of the sentries known now: one fixed and broken again is said again. */
void sentry_table_forget(sentry_table *s) {
    strmap_free(&s->said);
    s->said = (strmap){0};
    for (size_t i = 0; i < s->count; i++)
        if (s->entries[i].said_as)
            strmap_put(&s->said, s->entries[i].said_as, 1, NULL);
    drop_entries(s);
}

void sentry_table_free(sentry_table *s) {
    if (!s)
        return;
    drop_entries(s);
    free(s->entries);
    u64map_free(&s->blank_ranks);
    u64map_free(&s->blank_select_ranks);
    u64map_free(&s->selects_seen);
    strmap_free(&s->said);
    sentry_text_parser_free(s->text_parser);
    free(s);
}

void sentry_table_begin(sentry_table *s) {
    for (size_t i = 0; i < s->count; i++)
        s->entries[i].seen = false;
    u64map_clear(&s->blank_ranks);
    u64map_clear(&s->blank_select_ranks);
    u64map_clear(&s->selects_seen);
}

size_t sentry_table_compiles(const sentry_table *s) { return s->compiles; }

/* The constant subjects a sentry names: what the crawl must read before it can be evaluated. */
static void collect_reads(const sentry_table *s, const sq_node *n, sentry_entry *e) {
    term_id subject = n->pattern.s;
    if (n->kind == SQ_PATTERN && terms_kind(s->t, subject) == TERM_IRI && subject != s->v->this_artifact &&
        subject != s->v->wsm_this_instance && subject != s->v->wsm_this_event && subject != s->v->pat_this_item &&
        subject != s->v->pat_this_index) {
        bool known = false;
        for (size_t i = 0; i < e->read_count; i++)
            known |= e->reads[i] == subject;
        if (!known) {
            e->reads = xrealloc(e->reads, (e->read_count + 1) * sizeof *e->reads);
            e->reads[e->read_count++] = subject;
        }
    }
    for (size_t i = 0; i < n->child_count; i++)
        collect_reads(s, n->children[i], e);
}

/* The hops the crawl follows for the query (links.h), as deep as its ldgsm:maxLinkDepth says. */
static void find_links(sentry_table *s, store *wm, sentry_entry *e, const sq_node *tree) {
    unsigned depth = LINK_DEFAULT_DEPTH;
    term_id given = store_first_object(wm, e->node, s->v->max_link_depth);
    if (given && terms_kind(s->t, given) == TERM_LITERAL) {
        long n = strtol(terms_lex(s->t, given, NULL), NULL, 10);
        depth = n < 0 ? 0 : n > LINK_MAX_DEPTH ? LINK_MAX_DEPTH : (unsigned)n;
    }
    free(e->links);
    free(e->link_names);
    e->link_count = link_steps(s->t, s->v, tree, depth, &e->links);
    e->link_names = xmalloc((e->link_count ? e->link_count : 1) * sizeof *e->link_names);
    for (size_t k = 0; k < e->link_count; k++) {
        char name[64];
        snprintf(name, sizeof name, "urn:ldgsm:link:%zu:%zu", (size_t)(e - s->entries), k);
        e->link_names[k] = terms_iri_cstr(s->t, name);
    }
}

/* `query gx:link step . step gx:via p ; gx:linkFrom root-or-step` for each hop. */
static size_t assert_links(sentry_table *s, store *wm, const sentry_entry *e) {
    size_t asserted = 0;
    term_id g = s->v->derived_graph;
    for (size_t k = 0; k < e->link_count; k++) {
        const link_step *l = &e->links[k];
        term_id step = e->link_names[k];
        term_id from = l->from < 0 ? (l->root == s->v->this_artifact ? s->v->this_instance : l->root)
                                   : e->link_names[l->from];
        asserted += store_add(wm, e->node, s->v->link, step, g);
        asserted += store_add(wm, step, s->v->via, l->via, g);
        asserted += store_add(wm, step, s->v->link_from, from, g);
    }
    return asserted;
}

/* The sentry's sp:text, with the number of its triple in *at; 0 when it is given as SPIN RDF. */
static term_id text_of(const sentry_table *s, store *wm, term_id node, uint32_t *at) {
    store_iter it;
    store_match(wm, node, s->v->sp_text, 0, 0, store_size(wm), &it);
    const triple *text = store_next(&it, at);
    return text ? text->o : 0;
}

/* The sentry's query; *text is its sp:text (0 for SPIN RDF). An argument query's projection goes to
 * *vars (it is given as text only). */
static sq_node *parse(sentry_table *s, store *wm, const sentry_entry *e, term_id *text, term_id **vars,
                      size_t *var_count, char *error, size_t error_len) {
    sq_node *tree = NULL;
    uint32_t n;
    *text = text_of(s, wm, e->node, &n);
    if (*text) {
        if (terms_kind(s->t, *text) != TERM_LITERAL || !s->text_parser) {
            sq_error(s->t, e->node, "sp:text is not a literal", error, error_len);
            return NULL;
        }
        term_id graph = store_first_graph(wm, n);
        const char *base = graph ? terms_lex(s->t, graph, NULL) : NULL;
        const char *query = terms_lex(s->t, *text, NULL);
        int rc = e->select ? select_from_text(s->text_parser, e->node, query, base, &tree, vars, var_count, error,
                                              error_len)
                           : sentry_from_text(s->text_parser, e->node, query, base, &tree, error, error_len);
        return rc == 0 ? tree : NULL;
    }
    if (e->select) {
        sq_error(s->t, e->node, "arguments are a SELECT query given as sp:text", error, error_len);
        return NULL;
    }
    return sentry_from_spin(s->t, wm, e->node, &tree, error, error_len) == 0 ? tree : NULL;
}

/* True when the tree names `constant` anywhere in its patterns. */
static bool names_constant(const sq_node *n, term_id constant) {
    if (n->kind == SQ_PATTERN &&
        (n->pattern.s == constant || n->pattern.p == constant || n->pattern.o == constant))
        return true;
    for (size_t i = 0; i < n->child_count; i++)
        if (names_constant(n->children[i], constant))
            return true;
    return false;
}

rule *argument_query_rule(terms *t, const agent_vocab *v, sq_node *tree, term_id alias, const term_id *vars,
                          size_t var_count, const char *name, char *error, size_t error_len) {
    /* names no query variable can have */
    term_id query = terms_var(t, "the query", 9), request = terms_var(t, "the request", 11),
            ctx = terms_var(t, "the context", 11), this_var = terms_var(t, "this instance", 13),
            item = terms_var(t, "this item", 9), index = terms_var(t, "this index", 10),
            event = terms_var(t, "this event", 10);
    triple prefix[7] = {{query, v->query_alias, alias}, {request, v->arguments, query}, {ctx, v->evaluates, request},
                        {ctx, v->this_instance, this_var}};
    size_t prefix_count = 4;
    sentry_constant constants[5] = {{v->this_artifact, this_var}, {v->wsm_this_instance, this_var}};
    size_t constant_count = 2;
    /* an mi copy's item and index, a state machine's event: bound only where the query names them, so a
     * context without one still evaluates the queries that do not */
    const struct { term_id constant, predicate, var; } optional[] = {
        {v->pat_this_item, v->this_item, item}, {v->pat_this_index, v->this_index, index},
        {v->wsm_this_event, v->this_event, event}};
    /* one head per solution: the context, the request, and each variable's value under a predicate naming
     * it, so that equal solutions make one head; a context value the query names is bound too, as
     * ?thisInstance, ?thisItem, ?thisIndex or ?thisEvent (a SELECT cannot project a constant) */
    triple *head = xmalloc((var_count + 3 + sizeof optional / sizeof *optional) * sizeof *head);
    size_t head_count = 0;
    head[head_count++] = (triple){alias, v->solution_for, ctx};
    head[head_count++] = (triple){alias, v->solution_request, request};
    static const char *const context_names[] = {ARGUMENT_VARIABLE_NS "thisItem", ARGUMENT_VARIABLE_NS "thisIndex",
                                                ARGUMENT_VARIABLE_NS "thisEvent"};
    for (size_t i = 0; i < sizeof optional / sizeof *optional; i++)
        if (names_constant(tree, optional[i].constant)) {
            prefix[prefix_count++] = (triple){ctx, optional[i].predicate, optional[i].var};
            constants[constant_count++] = (sentry_constant){optional[i].constant, optional[i].var};
            head[head_count++] = (triple){alias, terms_iri_cstr(t, context_names[i]), optional[i].var};
        }
    if (names_constant(tree, v->this_artifact) || names_constant(tree, v->wsm_this_instance))
        head[head_count++] = (triple){alias, terms_iri_cstr(t, ARGUMENT_VARIABLE_NS "thisInstance"), this_var};
    buf name_iri = {0};
    for (size_t i = 0; i < var_count; i++) {
        size_t len;
        const char *var_name = terms_lex(t, vars[i], &len);
        name_iri.len = 0;
        buf_printf(&name_iri, "%s%.*s", ARGUMENT_VARIABLE_NS, (int)len, var_name);
        head[head_count++] = (triple){alias, terms_iri(t, name_iri.data, name_iri.len), vars[i]};
    }
    buf_free(&name_iri);
    rule *r = sentry_rule_new(t, tree, prefix, prefix_count, head, head_count, constants, constant_count, name,
                              error, error_len);
    if (r)
        sentry_rule_view(r, this_var, prefix_count);
    if (r) {
        r->is_request = true; /* its heads go to the agent (arguments.h), not into working memory */
        r->head_formula = terms_formula(t, head, head_count);
    }
    free(head);
    return r;
}

rule *sentry_table_rule(terms *t, const agent_vocab *v, sq_node *tree, term_id node, enum sentry_context context,
                        char *error, size_t error_len) {
    /* names no query variable can have */
    term_id this_var = terms_var(t, "this artifact", 13);
    if (context == SENTRY_OF_MACHINE) {
        term_id ctx = terms_var(t, "this context", 12), instance = terms_var(t, "this instance", 13),
                event = terms_var(t, "this event", 10);
        triple prefix[] = {{ctx, v->wsm_for_instance, instance}, {ctx, v->wsm_for_event, event}};
        triple head[] = {{node, v->holds_for, ctx}};
        sentry_constant constants[] = {{v->wsm_this_instance, instance}, {v->wsm_this_event, event}};
        rule *r = sentry_rule_new(t, tree, prefix, 2, head, 1, constants, 2, terms_lex(t, node, NULL), error, error_len);
        if (r)
            sentry_rule_view(r, instance, 2);
        return r;
    }
    triple prefix[] = {{this_var, T_RDF_TYPE, v->artifact_instance}, {this_var, v->has_state, v->active}};
    triple head[] = {{node, v->holds_for, this_var}};
    sentry_constant constant = {v->this_artifact, this_var};
    rule *r = sentry_rule_new(t, tree, prefix, 2, head, 1, &constant, 1, terms_lex(t, node, NULL), error, error_len);
    if (r)
        sentry_rule_view(r, this_var, 2);
    return r;
}

/* Parses and compiles a sentry read from graph; the entry keeps the rule or the error. */
static void compile(sentry_table *s, store *wm, sentry_entry *e, term_id graph) {
    s->compiles++;
    char error[512];
    term_id *vars = NULL;
    size_t var_count = 0;
    sq_node *tree = parse(s, wm, e, &e->text, &vars, &var_count, error, sizeof error);
    free(e->error);
    e->error = NULL;
    char *was_said = e->said_as;
    e->said_as = NULL;
    e->read_count = 0;
    if (tree) {
        collect_reads(s, tree, e);
        find_links(s, wm, e, tree);
        rule *r;
        if (e->select) {
            r = argument_query_rule(s->t, s->v, tree, e->alias, vars, var_count, terms_lex(s->t, e->node, NULL),
                                    error, sizeof error);
        } else {
            store_iter it;
            store_match(wm, 0, s->v->wsm_condition, e->node, 0, store_size(wm), &it);
            uint32_t n;
            enum sentry_context context = store_next(&it, &n) ? SENTRY_OF_MACHINE : SENTRY_OF_ARTIFACT;
            r = sentry_table_rule(s->t, s->v, tree, e->node, context, error, sizeof error);
        }
        free(vars);
        vars = NULL;
        if (r) {
            r->stratum = SENTRY_STRATUM;
            if (e->rule >= 0) { /* a new version of a known sentry takes its old place */
                rule_free(s->rules.rules[e->rule]);
                r->index = (unsigned)e->rule;
                s->rules.rules[e->rule] = r;
            } else {
                rule_set_add(&s->rules, r);
                e->rule = (int)r->index;
            }
            /* fixed: broken again (a server without ETags gives no new version), it is said again */
            uint32_t *said = was_said ? strmap_get(&s->said, was_said) : NULL;
            if (said)
                *said = 0;
            free(was_said);
            return;
        }
    }
    free(vars);
    if (e->rule >= 0)
        s->rules.rules[e->rule]->disabled = true;
    free(was_said);
    e->said_as = said_key(s, e->node, graph, e->etag, error, sizeof error);
    e->error = xstrndup(error, strlen(error));
    uint32_t *said = strmap_put(&s->said, e->said_as, 0, NULL);
    if (!*said)
        log_msg(s->log, LOG_ERROR, "%s (its artifacts' writes are held until it is fixed)", error);
    *said = 1;
}

/* A blank sentry met again under a new label: its rule now asserts `<node> ldgsm:holdsFor ...` for the
 * new one (sentry_table_rule's head is that one triple). */
static void retarget(sentry_table *s, sentry_entry *e, term_id node) {
    e->node = node;
    if (e->rule < 0 || e->select) /* an argument query's rule names its alias, not its node */
        return;
    rule *r = s->rules.rules[e->rule];
    r->head[0].s = node;
    r->head_codes[0].pos[0] = (pos_code)node;
    free(r->name);
    const char *name = terms_lex(s->t, node, NULL);
    r->name = xstrndup(name, strlen(name));
}

/* Takes in one query met in triple n (a sentry, or an argument query when select); returns how many
 * triples it asserted. */
static size_t take_query(sentry_table *s, store *wm, term_id node, uint32_t n, bool select, sentry_etag_fn etag_of,
                         void *user) {
    size_t asserted = 0;
    term_id graph = store_first_graph(wm, n);
    const char *etag = etag_of(user, graph);
    bool inserted, blank = terms_kind(s->t, node) == TERM_BNODE;
    uint32_t *slot;
    if (blank) {
        uint32_t *rank = u64map_put(select ? &s->blank_select_ranks : &s->blank_ranks, graph, 0, &inserted);
        /* the two kinds count their ranks apart: the top bit tells their places apart */
        uint32_t place = (*rank)++ | (select ? UINT32_C(1) << 31 : 0);
        slot = u64map_put(&s->by_place, place_of(graph, place), (uint32_t)s->count, &inserted);
    } else {
        slot = u64map_put(&s->by_node, node, (uint32_t)s->count, &inserted);
    }
    if (inserted) {
        if (s->count == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 16;
            s->entries = xrealloc(s->entries, s->cap * sizeof *s->entries);
        }
        term_id alias = 0;
        if (select) {
            char name[48];
            snprintf(name, sizeof name, "urn:ldgsm:query:%zu", s->count);
            alias = terms_iri_cstr(s->t, name);
        }
        s->entries[s->count++] = (sentry_entry){.node = node, .rule = -1, .select = select, .alias = alias};
    }
    sentry_entry *e = &s->entries[*slot];
    if (e->node != node)
        retarget(s, e, node);
    e->seen = true;
    /* without an ETag a change cannot be told apart: such a sentry is read again every iteration */
    bool changed = inserted || !etag || !e->etag || strcmp(etag, e->etag) != 0;
    uint32_t at;
    if (blank && !changed)
        changed = http_etag_classify(etag) != HTTP_ETAG_STRONG || text_of(s, wm, node, &at) != e->text;
    if (changed) {
        free(e->etag);
        e->etag = etag ? xstrndup(etag, strlen(etag)) : NULL;
        compile(s, wm, e, graph);
    }
    for (size_t i = 0; i < e->read_count; i++)
        asserted += store_add(wm, node, s->v->reads, e->reads[i], s->v->derived_graph);
    if (e->select)
        asserted += store_add(wm, node, s->v->query_alias, e->alias, s->v->derived_graph);
    if (!e->error)
        asserted += assert_links(s, wm, e);
    return asserted;
}

size_t sentry_table_scan(sentry_table *s, store *wm, uint32_t from, sentry_etag_fn etag_of, void *user) {
    size_t asserted = 0;
    store_iter it;
    store_match(wm, 0, T_RDF_TYPE, s->v->sp_ask, from, store_size(wm), &it);
    uint32_t n;
    const triple *tr;
    while ((tr = store_next(&it, &n))) {
        /* a condition whose truth rules assert themselves (ldgsm:holdsFor) has no query to evaluate; it is
         * an sp:Ask only by the ontology's ranges */
        if (store_find(wm, tr->s, T_RDF_TYPE, s->v->rule_condition) != UINT32_MAX)
            continue;
        asserted += take_query(s, wm, tr->s, n, false, etag_of, user);
    }
    /* from the first triple on: a query's text may come in a later round than the request naming it (its
     * own document), and requests with arguments are few (the models', not the instances') */
    store_match(wm, 0, s->v->arguments, 0, 0, store_size(wm), &it);
    while ((tr = store_next(&it, &n))) {
        term_id query = tr->o;
        if (u64map_get(&s->selects_seen, query))
            continue; /* met through another request, or in an earlier round */
        /* its text's triple places a blank query and gives its base */
        store_iter texts;
        store_match(wm, query, s->v->sp_text, 0, 0, store_size(wm), &texts);
        uint32_t at;
        if (!store_next(&texts, &at)) {
            if (terms_kind(s->t, query) == TERM_IRI && store_find(wm, query, s->v->reads, query) == UINT32_MAX) {
                /* not read yet: the crawl reads it (ldp-crawl.n3), then it is taken */
                asserted += store_add(wm, query, s->v->reads, query, s->v->derived_graph);
                continue;
            }
            at = n; /* read, and no text: compiled to its error */
        }
        u64map_put(&s->selects_seen, query, 1, NULL);
        asserted += take_query(s, wm, query, at, true, etag_of, user);
    }
    return asserted;
}

int sentry_table_evaluate(sentry_table *s, reasoner *r) {
    for (size_t i = 0; i < s->count; i++)
        if (s->entries[i].rule >= 0)
            s->rules.rules[s->entries[i].rule]->disabled = !s->entries[i].seen || s->entries[i].error;
    return reasoner_run(r, &s->rules, SENTRY_STRATUM);
}

size_t sentry_table_invalid(const sentry_table *s) {
    size_t invalid = 0;
    for (size_t i = 0; i < s->count; i++)
        invalid += s->entries[i].seen && s->entries[i].error;
    return invalid;
}

/* True when a pattern of atoms[0..count), or of a group inside one (OPTIONAL, UNION), has predicate p. */
static bool atoms_read(const rule_atom *atoms, unsigned count, term_id p) {
    for (unsigned k = 0; k < count; k++) {
        if (atoms[k].kind == ATOM_MATCH && atoms[k].pos[1] == (pos_code)p)
            return true;
        for (unsigned g = 0; g < atoms[k].group_count; g++)
            if (atoms_read(atoms[k].groups[g].atoms, atoms[k].groups[g].count, p))
                return true;
    }
    return false;
}

size_t sentry_table_clock_readers(const sentry_table *s, term_id **nodes) {
    size_t count = 0;
    *nodes = NULL;
    for (size_t i = 0; i < s->count; i++) {
        const sentry_entry *e = &s->entries[i];
        if (!e->seen || e->rule < 0)
            continue;
        const rule *r = s->rules.rules[e->rule];
        if (atoms_read(r->body, r->body_count, s->v->now)) {
            *nodes = xrealloc(*nodes, (count + 1) * sizeof **nodes);
            (*nodes)[count++] = e->node;
        }
    }
    return count;
}

bool sentry_table_owns(const sentry_table *s, const rule *r) {
    return r->index < s->rules.count && s->rules.rules[r->index] == r;
}

sentry_text_parser *sentry_table_text_parser(sentry_table *s) { return s->text_parser; }
