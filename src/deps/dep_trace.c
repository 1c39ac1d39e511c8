/* dep_trace.c: interval satisfaction on maximal traces and their enumeration (dep_trace.h). */
#include "deps/dep_trace.h"

#include <string.h>

/* The position (1-based) of a literal on u, 0 when it does not occur. */
static size_t position(const dep_trace *u, int lit) {
    for (size_t p = 0; p < u->n; p++)
        if (u->lits[p] == lit)
            return p + 1;
    return 0;
}

bool dep_holds(const dep_expr *e, const dep_trace *u, size_t i, size_t k) {
    switch (e->kind) {
    case DEP_ZERO:
        return false;
    case DEP_TOP:
        return true;
    case DEP_LIT: {
        size_t p = position(u, e->lit);
        return p != 0 && p >= i && p <= k;
    }
    case DEP_OR:
        return dep_holds(e->a, u, i, k) || dep_holds(e->b, u, i, k);
    case DEP_AND:
        return dep_holds(e->a, u, i, k) && dep_holds(e->b, u, i, k);
    case DEP_NOT:
        return !dep_holds(e->a, u, i, k);
    case DEP_SEQ:
        for (size_t j = i; j <= k; j++)
            if (dep_holds(e->a, u, i, j) && dep_holds(e->b, u, j + 1, k))
                return true;
        return false;
    case DEP_BOX:
    case DEP_DIA: {
        /* every (or some) later index; past the trace's end nothing changes */
        size_t last = k > u->n ? k : u->n;
        for (size_t j = k; j <= last; j++) {
            bool h = dep_holds(e->a, u, i, j);
            if (e->kind == DEP_BOX && !h)
                return false;
            if (e->kind == DEP_DIA && h)
                return true;
        }
        return e->kind == DEP_BOX;
    }
    }
    return false;
}

void dep_table(const dep_expr *e, const dep_trace *u, dep_interval_table table) {
    size_t n = u->n;
    switch (e->kind) {
    case DEP_ZERO:
    case DEP_TOP:
        for (size_t i = 0; i <= n + 1; i++)
            for (size_t k = 0; k <= n; k++)
                table[i][k] = e->kind == DEP_TOP;
        return;
    case DEP_LIT: {
        size_t p = position(u, e->lit);
        for (size_t i = 0; i <= n + 1; i++)
            for (size_t k = 0; k <= n; k++)
                table[i][k] = p != 0 && p >= i && p <= k;
        return;
    }
    default:
        break;
    }
    dep_interval_table a;
    dep_table(e->a, u, a);
    if (e->kind == DEP_NOT || e->kind == DEP_BOX || e->kind == DEP_DIA) {
        for (size_t i = 0; i <= n + 1; i++)
            for (size_t k = 0; k <= n; k++) {
                if (e->kind == DEP_NOT) {
                    table[i][k] = !a[i][k];
                    continue;
                }
                bool every = true, some = false;
                for (size_t j = k; j <= n; j++) {
                    every &= a[i][j];
                    some |= a[i][j];
                }
                table[i][k] = e->kind == DEP_BOX ? every : some;
            }
        return;
    }
    dep_interval_table b;
    dep_table(e->b, u, b);
    for (size_t i = 0; i <= n + 1; i++)
        for (size_t k = 0; k <= n; k++) {
            if (e->kind == DEP_OR) {
                table[i][k] = a[i][k] || b[i][k];
            } else if (e->kind == DEP_AND) {
                table[i][k] = a[i][k] && b[i][k];
            } else { /* DEP_SEQ: a split j, the second half from j + 1 (empty when j = k) */
                bool split = false;
                for (size_t j = i; j <= k && !split; j++)
                    split = a[i][j] && b[j + 1][k];
                table[i][k] = split;
            }
        }
}

bool dep_satisfies(const dep_expr *d, const dep_trace *u) {
    dep_interval_table t;
    dep_table(d, u, t);
    return t[0][u->n];
}

typedef struct {
    dep_trace u;
    int pending[DEP_TRACE_MAX];
    size_t pending_n;
    dep_trace_fn fn;
    void *ctx;
} walk;

static int extend(walk *w) {
    if (w->pending_n == 0)
        return w->fn(&w->u, w->ctx);
    for (size_t s = 0; s < w->pending_n; s++) {
        int symbol = w->pending[s];
        w->pending[s] = w->pending[w->pending_n - 1];
        w->pending_n--;
        for (int complement = 0; complement < 2; complement++) {
            w->u.lits[w->u.n++] = 2 * symbol + complement;
            int stop = extend(w);
            w->u.n--;
            if (stop) {
                w->pending_n++;
                w->pending[w->pending_n - 1] = w->pending[s];
                w->pending[s] = symbol;
                return stop;
            }
        }
        w->pending_n++;
        w->pending[w->pending_n - 1] = w->pending[s];
        w->pending[s] = symbol;
    }
    return 0;
}

int dep_each_trace(const int *prefix, size_t plen, const int *symbols, size_t n, dep_trace_fn fn, void *ctx) {
    if (plen + n > DEP_TRACE_MAX)
        return -1;
    walk w = {.fn = fn, .ctx = ctx};
    if (plen)
        memcpy(w.u.lits, prefix, plen * sizeof *prefix);
    w.u.n = plen;
    if (n)
        memcpy(w.pending, symbols, n * sizeof *symbols);
    w.pending_n = n;
    return extend(&w);
}

typedef struct {
    const dep_expr *a, *b;
    dep_equivalence how;
    dep_witness *where;
} compare;

static int differs(const dep_trace *u, void *ctx) {
    compare *c = ctx;
    dep_interval_table ta, tb;
    dep_table(c->a, u, ta);
    dep_table(c->b, u, tb);
    for (size_t i = 0; i <= (c->how == DEP_EQ_INTERVALS ? u->n : 0); i++)
        for (size_t k = c->how == DEP_EQ_WHOLE ? u->n : i; k <= u->n; k++)
            if (ta[i][k] != tb[i][k]) {
                if (c->where)
                    *c->where = (dep_witness){*u, i, k};
                return 1;
            }
    return 0;
}

bool dep_equivalent(const dep_expr *a, const dep_expr *b, dep_equivalence how, dep_witness *where) {
    int symbols[2 * DEP_TRACE_MAX];
    size_t n = dep_symbols(a, symbols, 2 * DEP_TRACE_MAX);
    int more[2 * DEP_TRACE_MAX];
    size_t m = dep_symbols(b, more, 2 * DEP_TRACE_MAX);
    for (size_t j = 0; j < m && n <= 2 * DEP_TRACE_MAX; j++) {
        bool known = false;
        for (size_t s = 0; s < n && s < 2 * DEP_TRACE_MAX; s++)
            known |= symbols[s] == more[j];
        if (!known) {
            if (n < 2 * DEP_TRACE_MAX)
                symbols[n] = more[j];
            n++;
        }
    }
    if (n > DEP_TRACE_MAX)
        return false;
    compare c = {a, b, how, where};
    return dep_each_trace(NULL, 0, symbols, n, differs, &c) == 0;
}
