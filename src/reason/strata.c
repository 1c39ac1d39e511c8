/* strata.c: when each compiled rule runs: the late stratum of a program's rules and the layers of its
 * negations (strata.h, docs/DESIGN.md §1.2). */
#include "reason/strata.h"

#include <stdlib.h>

#include "rdf/buf.h"
#include "rdf/hashmap.h"

void rule_set_assign_late_stratum(rule_set *rs, const term_id *late_predicates, size_t late_count, int stratum) {
    u64map late = {0}; /* predicates derived in the late stratum */
    for (size_t i = 0; i < late_count; i++)
        u64map_put(&late, late_predicates[i], 1, NULL);
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < rs->count; i++) {
            rule *r = rs->rules[i];
            if (r->stratum == stratum)
                continue;
            bool reads_late = r->has_negation;
            for (unsigned b = 0; b < r->body_count && !reads_late; b++) {
                pos_code p = r->body[b].pos[1];
                reads_late = r->body[b].kind == ATOM_MATCH && p > 0 && u64map_get(&late, (uint64_t)p);
            }
            if (!reads_late)
                continue;
            r->stratum = stratum;
            changed = true;
            for (unsigned h = 0; h < r->head_count && !r->is_request; h++)
                if (r->head_codes[h].pos[1] > 0)
                    u64map_put(&late, (uint64_t)r->head_codes[h].pos[1], 1, NULL);
        }
    }
    u64map_free(&late);
}

/* Whether head template h may produce a triple that pattern b matches: at each position a variable on
 * either side, or the same term. A list or formula with variables inside may be anything. */
static bool may_produce(const rule_atom *h, const rule_atom *b) {
    for (int k = 0; k < 3; k++)
        if (h->pos[k] > 0 && b->pos[k] > 0 && !h->structured[k] && !b->structured[k] && h->pos[k] != b->pos[k])
            return false;
    return true;
}

/* The dependency graph of a stratum's rules: an edge from a rule to each rule with a pattern one of its
 * head templates may produce, negative when the pattern is negated (over the working memory). */
typedef struct dep_edge {
    unsigned from, to;
    bool negative;
} dep_edge;

typedef struct dep_graph {
    const rule_set *rs;
    bool exact_only; /* only the dependencies produces_exactly holds for */
    dep_edge *edges;
    size_t count, cap;
    unsigned *first_out; /* edges sorted by `from`: those of rule i are [first_out[i], first_out[i + 1]) */
} dep_graph;

/* Whether h produces, for every constant of pattern b, that constant itself: `?x a :Root` does so for
 * the pattern `?x a :Root`, while rdfs.n3's `?x a ?d` (or its sub-property rule's `?x ?q ?y`) only may,
 * depending on data. */
static bool produces_exactly(const rule_atom *h, const rule_atom *b) {
    for (int k = 0; k < 3; k++)
        if (b->pos[k] > 0 && !b->structured[k] && (h->pos[k] <= 0 || h->structured[k]))
            return false;
    return true;
}

/* exact_only counts only the head templates that produce the pattern exactly. */
static bool produces_into(const rule *producer, const rule_atom *pattern, bool exact_only) {
    for (unsigned h = 0; h < producer->head_count; h++) {
        const rule_atom *head = &producer->head_codes[h];
        if (may_produce(head, pattern) && (!exact_only || produces_exactly(head, pattern)))
            return true;
    }
    return false;
}

static bool in_stratum(const rule *r, int stratum) { return !r->disabled && r->stratum == stratum; }

static void add_edges_into(dep_graph *g, unsigned to, const rule_atom *pattern, bool negative) {
    const rule_set *rs = g->rs;
    for (unsigned from = 0; from < rs->count; from++) {
        const rule *p = rs->rules[from];
        if (!in_stratum(p, rs->rules[to]->stratum) || p->is_request || !produces_into(p, pattern, g->exact_only))
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

static void build_dep_graph(dep_graph *g, const rule_set *rs, bool exact_only) {
    *g = (dep_graph){.rs = rs, .exact_only = exact_only};
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
    unsigned n = rs->count ? rs->count : 1;
    unsigned *component = xmalloc(n * sizeof *component);
    /* The order: layers over the exact dependencies. A negation reading what its own cycle derives gets
     * no layer after all of that: it is checked instead. */
    dep_graph g;
    build_dep_graph(&g, rs, true);
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
    build_dep_graph(&g, rs, false);
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
}
