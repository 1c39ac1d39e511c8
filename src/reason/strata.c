/* strata.c: when each compiled rule runs: the late stratum of a program's rules and the layers of its
 * negations (strata.h, docs/DESIGN.md §1.2). */
#include "reason/strata.h"

#include <stdlib.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"
#include "reason/rule_index.h"

/* The late stratum's growth: a rule moved into it makes its head predicates late, and the rules reading
 * those follow. */
typedef struct lateness {
    rule_set *rs;
    int stratum;
    u64map late;       /* predicates derived in the late stratum */
    key_lists readers; /* a predicate -> the rules with a data atom of that predicate */
    u32vec moved;      /* rules moved whose heads are still to make late */
} lateness;

/* Makes a predicate late and moves the rules reading it (their heads wait in l->moved). */
static void make_late(lateness *l, term_id predicate) {
    bool inserted;
    u64map_put(&l->late, predicate, 1, &inserted);
    if (!inserted)
        return;
    uint32_t count;
    const uint32_t *readers = key_lists_get(&l->readers, predicate, &count);
    for (uint32_t i = 0; i < count; i++)
        if (l->rs->rules[readers[i]]->stratum != l->stratum) {
            l->rs->rules[readers[i]]->stratum = l->stratum;
            u32vec_push(&l->moved, readers[i]);
        }
}

void rule_set_assign_late_stratum(rule_set *rs, const term_id *late_predicates, size_t late_count, int stratum) {
    lateness l = {.rs = rs, .stratum = stratum};
    for (unsigned i = 0; i < rs->count; i++) {
        const rule *r = rs->rules[i];
        for (unsigned b = 0; b < r->body_count && r->stratum != stratum; b++)
            if (r->body[b].kind == ATOM_MATCH && r->body[b].pos[1] > 0)
                key_lists_add(&l.readers, (uint64_t)r->body[b].pos[1], i);
    }
    key_lists_index(&l.readers);
    for (unsigned i = 0; i < rs->count; i++)
        if (rs->rules[i]->stratum != stratum && rs->rules[i]->has_negation) {
            rs->rules[i]->stratum = stratum;
            u32vec_push(&l.moved, i);
        }
    for (size_t i = 0; i < late_count; i++)
        make_late(&l, late_predicates[i]);
    while (l.moved.len) {
        const rule *r = rs->rules[l.moved.data[--l.moved.len]];
        for (unsigned h = 0; h < r->head_count && !r->is_request; h++)
            if (r->head_codes[h].pos[1] > 0)
                make_late(&l, (term_id)r->head_codes[h].pos[1]);
    }
    key_lists_free(&l.readers);
    u64map_free(&l.late);
    u32vec_free(&l.moved);
}

/* The dependency graph of a stratum's rules: an edge from a rule to each rule with a pattern one of its
 * head templates may produce, negative when the pattern is negated (over the working memory). */
typedef struct dep_edge {
    unsigned from, to;
    bool negative;
} dep_edge;

typedef struct dep_graph {
    const rule_set *rs;
    rule_producers *producers;
    bool exact_only; /* only the dependencies of templates that produce the patterns' constants themselves */
    u32vec found;    /* add_edges_into's producers */
    dep_edge *edges;
    size_t count, cap;
    unsigned *first_out; /* edges sorted by `from`: those of rule i are [first_out[i], first_out[i + 1]) */
} dep_graph;

static bool in_stratum(const rule *r, int stratum) { return !r->disabled && r->stratum == stratum; }

/* The edges into rule `to` from the rules of its stratum whose heads may produce `pattern`. */
static void add_edges_into(dep_graph *g, unsigned to, const rule_atom *pattern, bool negative) {
    const rule_set *rs = g->rs;
    rule_producers_of(g->producers, pattern, g->exact_only, &g->found);
    for (uint32_t i = 0; i < g->found.len; i++) {
        unsigned from = g->found.data[i];
        if (!in_stratum(rs->rules[from], rs->rules[to]->stratum))
            continue;
        if (g->count == g->cap) {
            g->cap = g->cap ? g->cap * 2 : 64;
            g->edges = xrealloc(g->edges, g->cap * sizeof *g->edges);
        }
        g->edges[g->count++] = (dep_edge){from, to, negative};
    }
}

static int edge_by_source(const void *a, const void *b) {
    const dep_edge *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

static void build_dep_graph(dep_graph *g, const rule_set *rs, rule_producers *producers, bool exact_only) {
    *g = (dep_graph){.rs = rs, .producers = producers, .exact_only = exact_only};
    for (unsigned to = 0; to < rs->count; to++) {
        const rule *r = rs->rules[to];
        if (r->disabled)
            continue;
        for (unsigned b = 0; b < r->body_count; b++) {
            const rule_atom *a = &r->body[b];
            if (a->kind == ATOM_MATCH)
                add_edges_into(g, to, a, false);
            else if ((a->kind == ATOM_NOT || a->kind == ATOM_COLLECT || a->kind == ATOM_FORALL) && !a->scoped)
                for (unsigned grp = 0; grp < a->group_count; grp++)
                    for (unsigned k = 0; k < a->groups[grp].count; k++)
                        if (a->groups[grp].atoms[k].kind == ATOM_MATCH) /* a builtin: nothing produces it */
                            add_edges_into(g, to, &a->groups[grp].atoms[k], true);
        }
    }
    u32vec_free(&g->found);
    if (g->count)
        qsort(g->edges, g->count, sizeof *g->edges, edge_by_source);
    g->first_out = xcalloc(rs->count + 1, sizeof *g->first_out);
    for (size_t e = 0; e < g->count; e++)
        g->first_out[g->edges[e].from + 1]++;
    for (unsigned i = 0; i < rs->count; i++)
        g->first_out[i + 1] += g->first_out[i];
}

/* Tarjan's strongly connected components, without recursion: component[i] numbers rule i's component,
 * in the order Tarjan completes them (every component after those its rules' edges lead to). Returns the
 * number of components. */
static unsigned strongly_connected(const dep_graph *g, unsigned *component) {
    unsigned n = g->rs->count, counter = 0, components = 0, depth = 0, top = 0;
    unsigned *index = xmalloc(n * sizeof *index), *low = xmalloc(n * sizeof *low);
    unsigned *stack = xmalloc(n * sizeof *stack), *call = xmalloc(n * sizeof *call), *next_edge = xmalloc(n * sizeof *next_edge);
    bool *on_stack = xcalloc(n, sizeof *on_stack);
    for (unsigned i = 0; i < n; i++)
        index[i] = UINT32_MAX;
    for (unsigned root = 0; root < n; root++) {
        if (index[root] != UINT32_MAX)
            continue;
        call[depth++] = root;
        index[root] = low[root] = counter++;
        next_edge[root] = g->first_out[root];
        stack[top++] = root;
        on_stack[root] = true;
        while (depth) {
            unsigned v = call[depth - 1];
            if (next_edge[v] < g->first_out[v + 1]) {
                unsigned w = g->edges[next_edge[v]++].to;
                if (index[w] == UINT32_MAX) {
                    index[w] = low[w] = counter++;
                    next_edge[w] = g->first_out[w];
                    stack[top++] = w;
                    on_stack[w] = true;
                    call[depth++] = w;
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                unsigned w;
                do {
                    w = stack[--top];
                    on_stack[w] = false;
                    component[w] = components;
                } while (w != v);
                components++;
            }
            if (--depth && low[v] < low[call[depth - 1]])
                low[call[depth - 1]] = low[v];
        }
    }
    free(index);
    free(low);
    free(stack);
    free(call);
    free(next_edge);
    free(on_stack);
    return components;
}

/* The edges of g grouped by the component they lead into: those into component c are
 * (*incoming)[first_in[c] .. first_in[c + 1]). Returns first_in. */
static size_t *edges_into_components(const dep_graph *g, const unsigned *component, unsigned components,
                                     dep_edge **incoming) {
    size_t *first_in = xcalloc(components + 2, sizeof *first_in);
    for (size_t e = 0; e < g->count; e++)
        first_in[component[g->edges[e].to] + 2]++;
    for (unsigned c = 0; c < components; c++)
        first_in[c + 2] += first_in[c + 1];
    *incoming = xmalloc((g->count ? g->count : 1) * sizeof **incoming);
    for (size_t e = 0; e < g->count; e++)
        (*incoming)[first_in[component[g->edges[e].to] + 1]++] = g->edges[e];
    return first_in;
}

/* Component values assigned producers first (Tarjan completes a producer after its consumers, so from the
 * last component to the first): value[c] is the largest of start[c] and, over the edges into c from other
 * components, the source's value plus one for a negative edge when `negation_raises`. An edge inside c
 * that is negative marks its rule negation_checked when `mark_cycles`. */
static void propagate(rule_set *rs, const dep_graph *g, const unsigned *component, unsigned components,
                      unsigned *value, bool negation_raises, bool mark_cycles) {
    dep_edge *incoming;
    size_t *first_in = edges_into_components(g, component, components, &incoming);
    for (unsigned c = components; c-- > 0;)
        for (size_t e = first_in[c]; e < first_in[c + 1]; e++) {
            const dep_edge *edge = &incoming[e];
            unsigned from = component[edge->from];
            if (from == c) {
                if (edge->negative && mark_cycles)
                    rs->rules[edge->to]->negation_checked = true;
                continue;
            }
            unsigned need = value[from] + (negation_raises && edge->negative);
            if (need > value[c])
                value[c] = need;
        }
    free(incoming);
    free(first_in);
}

void rule_set_layer_negation(rule_set *rs) {
    bool negation = false;
    for (unsigned i = 0; i < rs->count && !negation; i++)
        negation = rs->rules[i]->has_negation && !rs->rules[i]->disabled;
    if (!negation) { /* no layer above another and nothing to check: what the graphs would give */
        for (unsigned i = 0; i < rs->count; i++)
            if (!rs->rules[i]->disabled)
                rs->rules[i]->layer = 0;
        return;
    }
    unsigned n = rs->count ? rs->count : 1;
    unsigned *component = xmalloc(n * sizeof *component);
    rule_producers *producers = rule_producers_new(rs);
    /* The order: layers over the exact dependencies. A negation reading what its own cycle derives gets
     * no layer after all of that: it is checked instead. */
    dep_graph g;
    build_dep_graph(&g, rs, producers, true);
    unsigned components = strongly_connected(&g, component);
    unsigned *value = xcalloc(components + 1, sizeof *value);
    for (unsigned i = 0; i < rs->count; i++)
        if (rs->rules[i]->has_negation && !rs->rules[i]->disabled)
            value[component[i]] = 1;
    propagate(rs, &g, component, components, value, true, true);
    for (unsigned i = 0; i < rs->count; i++)
        if (!rs->rules[i]->disabled)
            rs->rules[i]->layer = value[component[i]];
    free(g.edges);
    free(g.first_out);
    free(value);
    /* The check: over all dependencies, the layer by whose end each rule has derived everything it will
     * (its cycle's last negation layer, or its inputs'); a negation evaluated before a producer of what it
     * negates is done is checked. */
    build_dep_graph(&g, rs, producers, false);
    components = strongly_connected(&g, component);
    unsigned *done_by = xcalloc(components + 1, sizeof *done_by);
    for (unsigned i = 0; i < rs->count; i++)
        if (rs->rules[i]->has_negation && !rs->rules[i]->disabled && rs->rules[i]->layer > done_by[component[i]])
            done_by[component[i]] = rs->rules[i]->layer;
    propagate(rs, &g, component, components, done_by, false, false);
    for (size_t e = 0; e < g.count; e++)
        if (g.edges[e].negative && done_by[component[g.edges[e].from]] >= rs->rules[g.edges[e].to]->layer)
            rs->rules[g.edges[e].to]->negation_checked = true;
    free(g.edges);
    free(g.first_out);
    free(done_by);
    free(component);
    rule_producers_free(producers);
}
