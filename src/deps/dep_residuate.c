/* dep_residuate.c: Table 1 of Singh 1997 on guard trees (dep_residuate.h). */
#include "deps/dep_residuate.h"

/* The literals of a sequence of literals, left to right, into out; false when it is not one. */
static bool sequence_lits(const dep_expr *e, int *out, size_t max, size_t *n) {
    if (e->kind == DEP_LIT) {
        if (*n == max)
            return false;
        out[(*n)++] = e->lit;
        return true;
    }
    return e->kind == DEP_SEQ && sequence_lits(e->a, out, max, n) && sequence_lits(e->b, out, max, n);
}

const dep_expr *dep_two_sequences(dep_events *ev, const dep_expr *g) {
    if (!g)
        return NULL;
    switch (g->kind) {
    case DEP_AND:
    case DEP_OR: {
        const dep_expr *a = dep_two_sequences(ev, g->a), *b = dep_two_sequences(ev, g->b);
        return g->kind == DEP_AND ? dep_and(ev, a, b) : dep_or(ev, a, b);
    }
    case DEP_NOT:
        return dep_unary(ev, DEP_NOT, dep_two_sequences(ev, g->a));
    case DEP_BOX:
    case DEP_DIA: {
        int lits[64];
        size_t n = 0;
        if (!sequence_lits(g->a, lits, 64, &n) || n <= 2)
            return g;
        const dep_expr *chain = dep_top();
        for (size_t j = 0; j + 1 < n; j++)
            chain = dep_and(ev, chain,
                            dep_unary(ev, g->kind, dep_seq(ev, dep_lit(ev, lits[j]), dep_lit(ev, lits[j + 1]))));
        return chain;
    }
    default:
        return g;
    }
}

/* Does message m say that literal l occurs (occurs: 1), that its complement does (-1), or neither (0)? */
static int about(dep_message m, int l) {
    if (m.second >= 0)
        return (m.first == DEP_COMPLEMENT(l) || m.second == DEP_COMPLEMENT(l)) ? -1 : 0;
    if (m.first == l)
        return 1;
    return m.first == DEP_COMPLEMENT(l) ? -1 : 0;
}

const dep_expr *dep_residuate(dep_events *ev, const dep_expr *g, dep_message m) {
    if (!g)
        return NULL;
    switch (g->kind) {
    case DEP_OR:
    case DEP_AND: {
        const dep_expr *a = dep_residuate(ev, g->a, m), *b = dep_residuate(ev, g->b, m);
        if (a == g->a && b == g->b)
            return g; /* unchanged: the same node, so that a caller can tell */
        return g->kind == DEP_OR ? dep_or(ev, a, b) : dep_and(ev, a, b);
    }
    case DEP_NOT:
        /* ¬e with []e: 0; ¬~e with []e or <>e: T */
        if (g->a->kind == DEP_LIT && m.second < 0) {
            if (m.kind == DEP_BOX && m.first == g->a->lit)
                return dep_zero();
            if (m.first == DEP_COMPLEMENT(g->a->lit))
                return dep_top();
        }
        return g;
    case DEP_BOX:
    case DEP_DIA: {
        const dep_expr *x = g->a;
        if (x->kind == DEP_LIT && m.second < 0) {
            int says = about(m, x->lit);
            if (says < 0) /* []~e and <>~e with []e or <>e: 0 */
                return dep_zero();
            /* []e with []e; <>e with []e or <>e: T */
            if (says > 0 && (g->kind == DEP_DIA || m.kind == DEP_BOX))
                return dep_top();
            return g;
        }
        if (x->kind == DEP_SEQ && x->a->kind == DEP_LIT && x->b->kind == DEP_LIT) {
            int e1 = x->a->lit, e2 = x->b->lit;
            if (m.second < 0) {
                /* a complement of either: 0 */
                return about(m, e1) < 0 || about(m, e2) < 0 ? dep_zero() : g;
            }
            /* the order of a complement and another event: no row of Table 1 (the complement's own
             * occurrence, []~e, comes as a message of its own and makes the guard 0) */
            if (about(m, e1) < 0 || about(m, e2) < 0)
                return g;
            bool same = m.first == e1 && m.second == e2, reverse = m.first == e2 && m.second == e1;
            /* [](e1.e2) only with [](e1.e2); <>(e1.e2) with either; the reverse order: 0 */
            if (same && (g->kind == DEP_DIA || m.kind == DEP_BOX))
                return dep_top();
            if (reverse && (g->kind == DEP_DIA || m.kind == DEP_BOX))
                return dep_zero();
        }
        return g;
    }
    default:
        return g;
    }
}
