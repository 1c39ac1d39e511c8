/* links.c: the hops of links.h, found in a query's patterns. */
#include "agent/links.h"

#include <stdbool.h>
#include <stdlib.h>

#include "rdf/buf.h"

typedef struct pattern_list {
    const triple **items;
    size_t count;
} pattern_list;

static void collect(const sq_node *n, pattern_list *out) {
    if (n->kind == SQ_PATTERN) {
        out->items = xrealloc(out->items, (out->count + 1) * sizeof *out->items);
        out->items[out->count++] = &n->pattern;
    }
    for (size_t i = 0; i < n->child_count; i++)
        collect(n->children[i], out);
}

static bool is_instance(const agent_vocab *v, term_id term) {
    return term == v->this_artifact || term == v->wsm_this_instance;
}

/* A term a chain may start at: the instance or a constant IRI (an mi item or an event is bound per
 * context, and their documents are the context's own). */
static bool is_root(const terms *t, const agent_vocab *v, term_id term) {
    return is_instance(v, term) || (terms_kind(t, term) == TERM_IRI && term != v->pat_this_item &&
                                     term != v->pat_this_index && term != v->wsm_this_event);
}

static bool is_subject_var(const terms *t, const pattern_list *ps, term_id var) {
    if (terms_kind(t, var) != TERM_VAR)
        return false;
    for (size_t i = 0; i < ps->count; i++)
        if (ps->items[i]->s == var)
            return true;
    return false;
}

size_t link_steps(const terms *t, const agent_vocab *v, const sq_node *tree, unsigned max_depth, link_step **out) {
    pattern_list ps = {0};
    collect(tree, &ps);
    link_step *steps = NULL;
    size_t count = 0;
    /* depth by depth: a step of depth d is made from a root (d = 1) or from a step of depth d - 1 */
    for (unsigned depth = 1; depth <= max_depth; depth++) {
        size_t before = count;
        for (size_t i = 0; i < ps.count; i++) {
            const triple *p = ps.items[i];
            /* a list's cells are in the document of the list: nothing to read there (rdf:nil is an IRI) */
            if (terms_kind(t, p->p) != TERM_IRI || p->p == T_RDF_FIRST || p->p == T_RDF_REST ||
                !is_subject_var(t, &ps, p->o))
                continue;
            bool reached = false;
            for (size_t k = 0; k < count && !reached; k++)
                reached = steps[k].variable == p->o;
            if (reached)
                continue;
            long from = -1;
            if (depth == 1) {
                if (!is_root(t, v, p->s))
                    continue;
            } else {
                for (size_t k = 0; k < before && from < 0; k++)
                    if (steps[k].depth == depth - 1 && steps[k].variable == p->s)
                        from = (long)k;
                if (from < 0)
                    continue;
            }
            steps = xrealloc(steps, (count + 1) * sizeof *steps);
            steps[count++] = (link_step){.variable = p->o, .via = p->p, .from = from,
                                         .root = from < 0 ? (is_instance(v, p->s) ? v->this_artifact : p->s) : 0,
                                         .depth = depth};
        }
        if (count == before)
            break;
    }
    free(ps.items);
    *out = steps;
    return count;
}

term_id link_unreached_subject(const terms *t, const agent_vocab *v, const sq_node *tree) {
    pattern_list ps = {0};
    collect(tree, &ps);
    /* connected to a root through patterns, whichever way they point */
    term_id *reached = NULL;
    size_t count = 0;
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < ps.count; i++) {
            const triple *p = ps.items[i];
            term_id ends[2] = {p->s, p->o};
            bool linked[2] = {false, false};
            for (int e = 0; e < 2; e++) {
                linked[e] = terms_kind(t, ends[e]) != TERM_VAR ? is_root(t, v, ends[e]) : false;
                for (size_t k = 0; k < count && !linked[e]; k++)
                    linked[e] = reached[k] == ends[e];
            }
            for (int e = 0; e < 2; e++)
                if (linked[1 - e] && !linked[e] && terms_kind(t, ends[e]) == TERM_VAR) {
                    reached = xrealloc(reached, (count + 1) * sizeof *reached);
                    reached[count++] = ends[e];
                    grew = true;
                }
        }
    }
    term_id unreached = 0;
    for (size_t i = 0; i < ps.count && !unreached; i++) {
        term_id s = ps.items[i]->s;
        if (terms_kind(t, s) != TERM_VAR)
            continue;
        bool found = false;
        for (size_t k = 0; k < count && !found; k++)
            found = reached[k] == s;
        if (!found)
            unreached = s;
    }
    free(reached);
    free(ps.items);
    return unreached;
}
