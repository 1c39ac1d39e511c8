/* sentries.c: the sentry table of sentries.h. Compiled sentries live in the table's own rule set across
 * iterations, until the agent releases the terms they are made of (sentry_table_forget); a sentry not seen
 * in an iteration is disabled for it. A sentry written as a blank node is labelled anew whenever its
 * document is parsed, so it is known by its place instead: its document and its rank among that document's
 * blank sentries. Its compiled rule is kept only where the place must hold the same sentry: the document's
 * strong ETag is unchanged (the same bytes, parsed in the same order; the scan sees them in that order,
 * store.h guarantee 2) and so is its text; a weak ETag allows another order of the same triples. */
#include "agent/sentries.h"

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
    strmap_free(&s->said);
    sentry_text_parser_free(s->text_parser);
    free(s);
}

void sentry_table_begin(sentry_table *s) {
    for (size_t i = 0; i < s->count; i++)
        s->entries[i].seen = false;
    u64map_clear(&s->blank_ranks);
}

size_t sentry_table_compiles(const sentry_table *s) { return s->compiles; }

/* The constant subjects a sentry names: what the crawl must read before it can be evaluated. */
static void collect_reads(const sentry_table *s, const sq_node *n, sentry_entry *e) {
    term_id subject = n->pattern.s;
    if (n->kind == SQ_PATTERN && terms_kind(s->t, subject) == TERM_IRI && subject != s->v->this_artifact &&
        subject != s->v->wsm_this_instance && subject != s->v->wsm_this_event) {
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

/* The sentry's sp:text, with the number of its triple in *at; 0 when it is given as SPIN RDF. */
static term_id text_of(const sentry_table *s, store *wm, term_id node, uint32_t *at) {
    store_iter it;
    store_match(wm, node, s->v->sp_text, 0, 0, store_size(wm), &it);
    const triple *text = store_next(&it, at);
    return text ? text->o : 0;
}

/* The sentry's query; *text is its sp:text (0 for SPIN RDF). */
static sq_node *parse(sentry_table *s, store *wm, term_id node, term_id *text, char *error, size_t error_len) {
    sq_node *tree = NULL;
    uint32_t n;
    *text = text_of(s, wm, node, &n);
    if (*text) {
        if (terms_kind(s->t, *text) != TERM_LITERAL || !s->text_parser) {
            sq_error(s->t, node, "sp:text is not a literal", error, error_len);
            return NULL;
        }
        term_id graph = store_first_graph(wm, n);
        const char *base = graph ? terms_lex(s->t, graph, NULL) : NULL;
        return sentry_from_text(s->text_parser, node, terms_lex(s->t, *text, NULL), base, &tree, error, error_len) == 0
                   ? tree
                   : NULL;
    }
    return sentry_from_spin(s->t, wm, node, &tree, error, error_len) == 0 ? tree : NULL;
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
        return sentry_rule_new(t, tree, prefix, 2, head, 1, constants, 2, terms_lex(t, node, NULL), error, error_len);
    }
    triple prefix[] = {{this_var, T_RDF_TYPE, v->artifact_instance}, {this_var, v->has_state, v->active}};
    triple head[] = {{node, v->holds_for, this_var}};
    sentry_constant constant = {v->this_artifact, this_var};
    return sentry_rule_new(t, tree, prefix, 2, head, 1, &constant, 1, terms_lex(t, node, NULL), error, error_len);
}

/* Parses and compiles a sentry read from graph; the entry keeps the rule or the error. */
static void compile(sentry_table *s, store *wm, sentry_entry *e, term_id graph) {
    s->compiles++;
    char error[512];
    sq_node *tree = parse(s, wm, e->node, &e->text, error, sizeof error);
    free(e->error);
    e->error = NULL;
    char *was_said = e->said_as;
    e->said_as = NULL;
    e->read_count = 0;
    if (tree) {
        collect_reads(s, tree, e);
        store_iter it;
        store_match(wm, 0, s->v->wsm_condition, e->node, 0, store_size(wm), &it);
        uint32_t n;
        enum sentry_context context = store_next(&it, &n) ? SENTRY_OF_MACHINE : SENTRY_OF_ARTIFACT;
        rule *r = sentry_table_rule(s->t, s->v, tree, e->node, context, error, sizeof error);
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
    if (e->rule < 0)
        return;
    rule *r = s->rules.rules[e->rule];
    r->head[0].s = node;
    r->head_codes[0].pos[0] = (pos_code)node;
    free(r->name);
    const char *name = terms_lex(s->t, node, NULL);
    r->name = xstrndup(name, strlen(name));
}

size_t sentry_table_scan(sentry_table *s, store *wm, uint32_t from, sentry_etag_fn etag_of, void *user) {
    size_t asserted = 0;
    store_iter it;
    store_match(wm, 0, T_RDF_TYPE, s->v->sp_ask, from, store_size(wm), &it);
    uint32_t n;
    const triple *tr;
    while ((tr = store_next(&it, &n))) {
        term_id node = tr->s;
        /* a condition whose truth rules assert themselves (ldgsm:holdsFor) has no query to evaluate; it is
         * an sp:Ask only by the ontology's ranges */
        if (store_find(wm, node, T_RDF_TYPE, s->v->rule_condition) != UINT32_MAX)
            continue;
        term_id graph = store_first_graph(wm, n);
        const char *etag = etag_of(user, graph);
        bool inserted, blank = terms_kind(s->t, node) == TERM_BNODE;
        uint32_t *slot;
        if (blank) {
            uint32_t *rank = u64map_put(&s->blank_ranks, graph, 0, &inserted);
            slot = u64map_put(&s->by_place, place_of(graph, (*rank)++), (uint32_t)s->count, &inserted);
        } else {
            slot = u64map_put(&s->by_node, node, (uint32_t)s->count, &inserted);
        }
        if (inserted) {
            if (s->count == s->cap) {
                s->cap = s->cap ? s->cap * 2 : 16;
                s->entries = xrealloc(s->entries, s->cap * sizeof *s->entries);
            }
            s->entries[s->count++] = (sentry_entry){.node = node, .rule = -1};
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
