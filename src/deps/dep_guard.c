/* dep_guard.c: paths, guards from paths, and the safe paths of event attributes (dep_guard.h). */
#define _GNU_SOURCE /* qsort_r */
#include "deps/dep_guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/dep_minimize.h"
#include "deps/dep_trace.h"

void dep_paths_free(dep_paths *p) {
    free(p->lits);
    memset(p, 0, sizeof *p);
}

typedef struct {
    const dep_expr *d;
    dep_paths *out;
    size_t capacity;
} psi_walk;

static int keep_satisfying(const dep_trace *u, void *ctx) {
    psi_walk *w = ctx;
    if (!dep_satisfies(w->d, u))
        return 0;
    if (w->out->count == w->capacity) {
        size_t cap = w->capacity ? 2 * w->capacity : 64;
        int *grown = realloc(w->out->lits, cap * w->out->n * sizeof *grown + 1);
        if (!grown)
            return 1;
        w->out->lits = grown;
        w->capacity = cap;
    }
    memcpy(w->out->lits + w->out->count * w->out->n, u->lits, w->out->n * sizeof *u->lits);
    w->out->count++;
    return 0;
}

/* Two paths of *n events each. */
static int compare_paths(const void *a, const void *b, void *n) {
    return memcmp(a, b, *(const size_t *)n * sizeof(int));
}

static void sort_paths(dep_paths *p) {
    /* a path is compared as bytes: any fixed order groups equal prefixes together, which is all the
     * prefix scans of dep_safe_paths need */
    if (p->count > 1)
        qsort_r(p->lits, p->count, p->n * sizeof(int), compare_paths, &p->n);
}

int dep_psi(const dep_expr *d, dep_paths *out, char *err, size_t err_len) {
    memset(out, 0, sizeof *out);
    size_t n = dep_symbols(d, out->symbols, DEP_SYMBOLS_MAX);
    if (n > DEP_SYMBOLS_MAX) {
        snprintf(err, err_len, "over %zu events (at most %d: its paths are n! 2^n traces)", n, DEP_SYMBOLS_MAX);
        return -1;
    }
    out->n = n;
    psi_walk w = {d, out, 0};
    if (dep_each_trace(NULL, 0, out->symbols, n, keep_satisfying, &w) != 0) {
        dep_paths_free(out);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    sort_paths(out);
    return 0;
}

bool dep_paths_mention(const dep_paths *p, int lit) {
    for (size_t s = 0; s < p->n; s++)
        if (p->symbols[s] == DEP_SYMBOL(lit))
            return true;
    return false;
}

/* The local number of a literal among the paths' events: 2 * index + complement. */
static int local(const dep_paths *p, int lit) {
    for (size_t s = 0; s < p->n; s++)
        if (p->symbols[s] == DEP_SYMBOL(lit))
            return (int)(2 * s) + DEP_NEGATED(lit);
    return -1;
}

/* One round of sigma (Definition 21): beta(w, P) for every path w of P = current; the survivors are
 * marked in next. For each prefix length, the paths that share a prefix form a run of the sorted paths,
 * and the literals that occur after the prefix (or right after it) on some path of P in the run are
 * the union over the run. Returns how many paths the round removed. */
static size_t sigma_round(const dep_paths *p, const unsigned *attr_local, const bool *current, bool *next) {
    size_t n = p->n, removed = 0;
    memcpy(next, current, p->count);
    for (size_t len = 0; len < n; len++) {
        size_t run = 0;
        while (run < p->count) {
            size_t end = run;
            unsigned later = 0, right_after = 0;
            while (end < p->count && memcmp(p->lits + run * n, p->lits + end * n, len * sizeof(int)) == 0) {
                if (current[end]) {
                    for (size_t j = len; j < n; j++)
                        later |= 1u << local(p, p->lits[end * n + j]);
                    right_after |= 1u << local(p, p->lits[end * n + len]);
                }
                end++;
            }
            for (size_t w = run; w < end; w++) {
                if (!next[w])
                    continue;
                unsigned decided = 0; /* local symbols on the prefix */
                for (size_t j = 0; j < len; j++)
                    decided |= 1u << (local(p, p->lits[w * n + j]) >> 1);
                bool safe = true;
                for (int l = 0; l < (int)(2 * n) && safe; l++) {
                    if (decided & (1u << (l >> 1)))
                        continue;
                    if ((attr_local[l] & DEP_INEVITABLE) && !(later & (1u << l)))
                        safe = false;
                    if ((attr_local[l] & DEP_IMMEDIATE) && !(right_after & (1u << l)))
                        safe = false;
                }
                if (!safe) {
                    next[w] = false;
                    removed++;
                }
            }
            run = end;
        }
    }
    return removed;
}

int dep_safe_paths(const dep_paths *psi, const dep_set *set, dep_paths *out) {
    *out = (dep_paths){.n = psi->n};
    memcpy(out->symbols, psi->symbols, sizeof out->symbols);
    unsigned attr_local[2 * DEP_SYMBOLS_MAX] = {0};
    for (size_t s = 0; s < psi->n; s++)
        for (int c = 0; c < 2; c++)
            attr_local[2 * s + c] = dep_attributes(set, 2 * psi->symbols[s] + c);
    bool *current = malloc(psi->count + 1), *next = malloc(psi->count + 1);
    out->lits = malloc(psi->count * psi->n * sizeof(int) + 1);
    if (!current || !next || !out->lits) {
        free(current);
        free(next);
        dep_paths_free(out);
        return -1;
    }
    memset(current, 1, psi->count + 1);
    while (sigma_round(psi, attr_local, current, next) > 0) {
        bool *swap = current;
        current = next;
        next = swap;
    }
    for (size_t w = 0; w < psi->count; w++)
        if (current[w])
            memcpy(out->lits + out->count++ * psi->n, psi->lits + w * psi->n, psi->n * sizeof(int));
    free(current);
    free(next);
    return 0;
}

/* e_from . ... . e_to (inclusive) of path w; T when empty */
static const dep_expr *sequence(dep_events *ev, const int *w, size_t from, size_t to) {
    if (from > to)
        return dep_top();
    const dep_expr *s = dep_lit(ev, w[from]);
    for (size_t j = from + 1; j <= to; j++)
        s = dep_seq(ev, s, dep_lit(ev, w[j]));
    return s;
}

const dep_expr *dep_paths_expr(dep_events *ev, const dep_paths *p) {
    const dep_expr *e = dep_zero();
    for (size_t w = 0; w < p->count && e; w++)
        e = p->n ? dep_or(ev, e, sequence(ev, p->lits + w * p->n, 0, p->n - 1)) : dep_top();
    return e;
}

const dep_expr *dep_paths_guard(dep_events *ev, const dep_paths *p, int lit) {
    const dep_expr *g = dep_zero();
    for (size_t w = 0; w < p->count && g; w++) {
        const int *path = p->lits + w * p->n;
        size_t at = p->n;
        for (size_t j = 0; j < p->n; j++)
            if (path[j] == lit)
                at = j;
        if (at == p->n)
            continue;
        /* pre: box of the events before; post: none of the later ones yet, and all of them to come,
         * in order (Definitions 9 and 10) */
        const dep_expr *pre = at == 0 ? dep_top() : dep_unary(ev, DEP_BOX, sequence(ev, path, 0, at - 1));
        const dep_expr *post = dep_top();
        if (at + 1 < p->n) {
            for (size_t j = at + 1; j < p->n; j++)
                post = dep_and(ev, post, dep_unary(ev, DEP_NOT, dep_lit(ev, path[j])));
            post = dep_and(ev, post, dep_unary(ev, DEP_DIA, sequence(ev, path, at + 1, p->n - 1)));
        }
        g = dep_or(ev, g, dep_and(ev, pre, post));
    }
    return g;
}

/* Is w (n literals) one of the sorted paths? */
static bool has_path(const dep_paths *p, const int *w) {
    size_t lo = 0, hi = p->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = memcmp(p->lits + mid * p->n, w, p->n * sizeof *w);
        if (c == 0)
            return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void dep_paths_member_truth(void *ctx, const dep_trace *u, bool *holds_at) {
    const dep_paths_truth *t = ctx;
    bool member = u->n == t->paths->n && has_path(t->paths, u->lits);
    for (size_t k = 0; k <= u->n; k++)
        holds_at[k] = member;
}

void dep_paths_guard_truth(void *ctx, const dep_trace *u, bool *holds_at) {
    const dep_paths_truth *t = ctx;
    /* pre and post (Definitions 9, 10) of path w at k: w's events before lit happened by k, in order, and
     * those after it did not and will, in order; lit's own event is free. So w is u without lit's event,
     * lit put back after as many of u's events as happened by k */
    int rest[DEP_TRACE_MAX], w[DEP_TRACE_MAX];
    size_t rest_n = 0, before_k[DEP_TRACE_MAX + 1] = {0};
    for (size_t p = 0; p < u->n; p++) {
        if (DEP_SYMBOL(u->lits[p]) != DEP_SYMBOL(t->lit))
            rest[rest_n++] = u->lits[p];
        before_k[p + 1] = rest_n;
    }
    for (size_t k = 0; k <= u->n; k++) {
        size_t at = before_k[k];
        memcpy(w, rest, at * sizeof *w);
        w[at] = t->lit;
        memcpy(w + at + 1, rest + at, (rest_n - at) * sizeof *w);
        holds_at[k] = rest_n + 1 == t->paths->n && has_path(t->paths, w);
    }
}

const dep_expr *dep_paths_alpha(dep_events *ev, const dep_paths *p) {
    dep_paths_truth t = {p, -1};
    return dep_minimize(ev, p->symbols, p->n, false, dep_paths_member_truth, &t);
}

const dep_expr *dep_paths_readable_guard(dep_events *ev, const dep_paths *p, int lit) {
    dep_paths_truth t = {p, lit};
    return dep_minimize(ev, p->symbols, p->n, true, dep_paths_guard_truth, &t);
}
