/* dep_minimize.c: a truth table of the expression over every situation (a maximal trace over its events,
 * and for a guard an index k), each situation described by its atoms; prime conjunctions grown from the
 * situations it holds in; a cover of them as the readable equivalent (dep_minimize.h). */
#include "deps/dep_minimize.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deps/dep_trace.h"

#define WORDS 4 /* 3n + 8n^2 atoms for n = 5 events: 215 bits */

typedef struct {
    uint64_t w[WORDS];
} bits;

static bool bit(const bits *b, size_t i) { return (b->w[i / 64] >> (i % 64)) & 1; }
static void set_bit(bits *b, size_t i) { b->w[i / 64] |= (uint64_t)1 << (i % 64); }
static void clear_bit(bits *b, size_t i) { b->w[i / 64] &= ~((uint64_t)1 << (i % 64)); }

typedef enum { ATOM_PAST, ATOM_FUTURE, ATOM_ORDER, ATOM_PAST_ORDER } atom_kind;

typedef struct {
    size_t n;
    int symbols[DEP_MINIMIZE_SYMBOLS_MAX];
    bool guard;
    dep_truth_fn truth;
    void *ctx;
    bits *points;
    bool *holds;
    size_t count, capacity;
    bool failed;
} table;

/* Atom numbering. A guard: P(l) = []l for the 2n local literals, F(s) = <>s for the n events, O(a,b) =
 * <>a.b and Q(a,b) = []a.b for literals of two events. A dependency: F(s) and O(a,b) (s; a.b). */
static size_t atom_past(size_t l) { return l; }
static size_t atom_future(const table *t, size_t s) { return t->guard ? 2 * t->n + s : s; }
static size_t atom_order(const table *t, size_t a, size_t b) {
    return (t->guard ? 3 * t->n : t->n) + a * 2 * t->n + b;
}
static size_t atom_past_order(const table *t, size_t a, size_t b) {
    return 3 * t->n + 4 * t->n * t->n + a * 2 * t->n + b;
}
static size_t atom_count(const table *t) { return t->guard ? 3 * t->n + 8 * t->n * t->n : t->n + 4 * t->n * t->n; }

static size_t local_symbol(const table *t, int symbol) {
    for (size_t s = 0; s < t->n; s++)
        if (t->symbols[s] == symbol)
            return s;
    return 0;
}

static size_t local_lit(const table *t, int lit) { return 2 * local_symbol(t, DEP_SYMBOL(lit)) + DEP_NEGATED(lit); }

/* The atoms of a situation: trace u at index k (k = u->n for a dependency). Only true order atoms are
 * set: the false ones follow from the true ones, and a conjunction never needs them. */
static bits describe(const table *t, const dep_trace *u, size_t k) {
    bits b = {{0}};
    for (size_t p = 0; p < u->n; p++) {
        size_t l = local_lit(t, u->lits[p]);
        if (!DEP_NEGATED(u->lits[p]))
            set_bit(&b, atom_future(t, l / 2));
        if (t->guard && p < k)
            set_bit(&b, atom_past(l));
        for (size_t q = p + 1; q < u->n; q++) {
            size_t m = local_lit(t, u->lits[q]);
            set_bit(&b, atom_order(t, l, m));
            if (t->guard && q < k)
                set_bit(&b, atom_past_order(t, l, m));
        }
    }
    return b;
}

static int tabulate(const dep_trace *u, void *ctx) {
    table *t = ctx;
    bool holds_at[DEP_TRACE_MAX + 1];
    t->truth(t->ctx, u, holds_at);
    for (size_t k = t->guard ? 0 : u->n; k <= u->n; k++) {
        if (t->count == t->capacity) {
            size_t cap = t->capacity ? 2 * t->capacity : 256;
            bits *points = realloc(t->points, cap * sizeof *points);
            if (points)
                t->points = points;
            bool *holds = realloc(t->holds, cap * sizeof *holds);
            if (holds)
                t->holds = holds;
            if (!points || !holds) {
                t->failed = true;
                return 1;
            }
            t->capacity = cap;
        }
        t->points[t->count] = describe(t, u, k);
        t->holds[t->count] = holds_at[k];
        t->count++;
    }
    return 0;
}

typedef struct {
    bits mask, value; /* a situation is in the cube when its atoms agree with value on mask */
} cube;

static bool in_cube(const cube *c, const bits *point) {
    for (size_t w = 0; w < WORDS; w++)
        if ((point->w[w] ^ c->value.w[w]) & c->mask.w[w])
            return false;
    return true;
}

static bool hits_offset(const table *t, const cube *c) {
    for (size_t p = 0; p < t->count; p++)
        if (!t->holds[p] && in_cube(c, &t->points[p]))
            return true;
    return false;
}

static size_t cube_literals(const cube *c) {
    size_t n = 0;
    for (size_t w = 0; w < WORDS; w++)
        n += (size_t)__builtin_popcountll(c->mask.w[w]);
    return n;
}

static size_t cube_cover(const table *t, const cube *c) {
    size_t n = 0;
    for (size_t p = 0; p < t->count; p++)
        n += t->holds[p] && in_cube(c, &t->points[p]);
    return n;
}

static atom_kind kind_of(const table *t, size_t atom) {
    if (!t->guard)
        return atom < t->n ? ATOM_FUTURE : ATOM_ORDER;
    if (atom < 2 * t->n)
        return ATOM_PAST;
    if (atom < 3 * t->n)
        return ATOM_FUTURE;
    return atom < 3 * t->n + 4 * t->n * t->n ? ATOM_ORDER : ATOM_PAST_ORDER;
}

/* Grows the situation's cube by dropping atoms, kind by kind in the given order, while it stays off the
 * situations the expression fails in. */
static cube grow(const table *t, const bits *seed, const atom_kind *order, size_t kinds) {
    cube c = {.value = *seed};
    size_t atoms = atom_count(t);
    for (size_t a = 0; a < atoms; a++) {
        atom_kind k = kind_of(t, a);
        /* order atoms in the cube only where they hold (describe's comment) */
        if ((k == ATOM_ORDER || k == ATOM_PAST_ORDER) && !bit(seed, a))
            continue;
        set_bit(&c.mask, a);
    }
    for (size_t o = 0; o < kinds; o++)
        for (size_t a = 0; a < atoms; a++) {
            if (kind_of(t, a) != order[o] || !bit(&c.mask, a))
                continue;
            clear_bit(&c.mask, a);
            if (hits_offset(t, &c))
                set_bit(&c.mask, a);
        }
    return c;
}

/* The best of a few growth orders: the one covering most, then the shortest. Sequences dropped first
 * give []e & []f where the order does not matter; pasts dropped first keep []e.f where it does. */
static cube best_cube(const table *t, const bits *seed) {
    static const atom_kind orders[][4] = {{ATOM_PAST_ORDER, ATOM_ORDER, ATOM_FUTURE, ATOM_PAST},
                                          {ATOM_ORDER, ATOM_FUTURE, ATOM_PAST, ATOM_PAST_ORDER},
                                          {ATOM_ORDER, ATOM_PAST, ATOM_FUTURE, ATOM_PAST_ORDER}};
    cube best = {{{0}}, {{0}}};
    size_t best_cover = 0, best_len = 0;
    for (size_t o = 0; o < sizeof orders / sizeof *orders; o++) {
        cube c = grow(t, seed, orders[o], 4);
        size_t cover = cube_cover(t, &c), len = cube_literals(&c);
        if (o == 0 || cover > best_cover || (cover == best_cover && len < best_len)) {
            best = c;
            best_cover = cover;
            best_len = len;
        }
    }
    return best;
}

static const dep_expr *atom_expr(dep_events *ev, const table *t, size_t atom, bool value) {
    size_t base, a, b;
    switch (kind_of(t, atom)) {
    case ATOM_PAST: {
        const dep_expr *l = dep_lit(ev, 2 * t->symbols[atom / 2] + (int)(atom % 2));
        return dep_unary(ev, value ? DEP_BOX : DEP_NOT, l);
    }
    case ATOM_FUTURE: {
        size_t s = t->guard ? atom - 2 * t->n : atom;
        const dep_expr *l = dep_lit(ev, 2 * t->symbols[s] + (value ? 0 : 1));
        return t->guard ? dep_unary(ev, DEP_DIA, l) : l;
    }
    case ATOM_ORDER:
        base = t->guard ? 3 * t->n : t->n;
        break;
    case ATOM_PAST_ORDER:
    default:
        base = 3 * t->n + 4 * t->n * t->n;
        break;
    }
    a = (atom - base) / (2 * t->n);
    b = (atom - base) % (2 * t->n);
    const dep_expr *s = dep_seq(ev, dep_lit(ev, 2 * t->symbols[a / 2] + (int)(a % 2)),
                                dep_lit(ev, 2 * t->symbols[b / 2] + (int)(b % 2)));
    if (!t->guard)
        return s;
    return dep_unary(ev, kind_of(t, atom) == ATOM_ORDER ? DEP_DIA : DEP_BOX, s);
}

/* Literals of a conjunction in reading order: pasts, futures, sequences. */
static const dep_expr *cube_expr(dep_events *ev, const table *t, const cube *c) {
    static const atom_kind reading[] = {ATOM_PAST, ATOM_FUTURE, ATOM_PAST_ORDER, ATOM_ORDER};
    const dep_expr *e = dep_top();
    for (size_t r = 0; r < 4; r++)
        for (size_t a = 0; a < atom_count(t) && e; a++)
            if (kind_of(t, a) == reading[r] && bit(&c->mask, a))
                e = dep_and(ev, e, atom_expr(ev, t, a, bit(&c->value, a)));
    return e;
}

typedef struct {
    const table *t;
    const dep_expr *result;
    size_t at; /* the next situation of the table */
} check;

/* The result holds exactly where the truth function does, situation by situation (the same order). */
static int disagrees(const dep_trace *u, void *ctx) {
    check *c = ctx;
    dep_interval_table got;
    dep_table(c->result, u, got);
    for (size_t k = c->t->guard ? 0 : u->n; k <= u->n; k++)
        if (got[0][k] != c->t->holds[c->at++])
            return 1;
    return 0;
}

const dep_expr *dep_minimize(dep_events *ev, const int *symbols, size_t n, bool guard, dep_truth_fn truth, void *ctx) {
    if (n > DEP_MINIMIZE_SYMBOLS_MAX)
        return NULL;
    table t = {.n = n, .guard = guard, .truth = truth, .ctx = ctx};
    memcpy(t.symbols, symbols, n * sizeof *symbols);
    const dep_expr *result = NULL;
    cube *cubes = NULL;
    bool *covered = NULL;
    if (dep_each_trace(NULL, 0, t.symbols, n, tabulate, &t) != 0 || t.failed)
        goto done;
    size_t on = 0;
    for (size_t p = 0; p < t.count; p++)
        on += t.holds[p];
    if (on == 0 || on == t.count) {
        result = on ? dep_top() : dep_zero();
        goto done;
    }
    cubes = malloc(on * sizeof *cubes);
    covered = calloc(t.count, 1);
    if (!cubes || !covered)
        goto done;
    size_t count = 0;
    for (size_t p = 0; p < t.count; p++) {
        if (!t.holds[p] || covered[p])
            continue;
        cubes[count] = best_cube(&t, &t.points[p]);
        for (size_t q = 0; q < t.count; q++)
            if (t.holds[q] && in_cube(&cubes[count], &t.points[q]))
                covered[q] = true;
        count++;
    }
    /* drop a cube whose situations the others cover, the narrowest first */
    for (size_t c = count; c-- > 0;) {
        bool needed = false;
        for (size_t p = 0; p < t.count && !needed; p++) {
            if (!t.holds[p] || !in_cube(&cubes[c], &t.points[p]))
                continue;
            bool elsewhere = false;
            for (size_t d = 0; d < count && !elsewhere; d++)
                elsewhere = d != c && in_cube(&cubes[d], &t.points[p]);
            needed = !elsewhere;
        }
        if (!needed)
            cubes[c] = cubes[--count];
    }
    result = dep_zero();
    for (size_t c = 0; c < count && result; c++)
        result = dep_or(ev, result, cube_expr(ev, &t, &cubes[c]));
done:
    if (result) {
        check c = {&t, result, 0};
        if (dep_each_trace(NULL, 0, t.symbols, n, disagrees, &c) != 0)
            result = NULL; /* never print what is not the same: a defect here shows as a missing form */
    }
    free(cubes);
    free(covered);
    free(t.points);
    free(t.holds);
    return result;
}

/* The truth of an expression, by its interval table. */
static void expression_truth(void *ctx, const dep_trace *u, bool *holds_at) {
    dep_interval_table table;
    dep_table(ctx, u, table);
    for (size_t k = 0; k <= u->n; k++)
        holds_at[k] = table[0][k];
}

static const dep_expr *minimize_expression(dep_events *ev, const dep_expr *e, bool guard) {
    if (!e)
        return NULL;
    int symbols[DEP_MINIMIZE_SYMBOLS_MAX];
    size_t n = dep_symbols(e, symbols, DEP_MINIMIZE_SYMBOLS_MAX);
    if (n > DEP_MINIMIZE_SYMBOLS_MAX)
        return e;
    const dep_expr *m = dep_minimize(ev, symbols, n, guard, expression_truth, (void *)e);
    return m ? m : e;
}

const dep_expr *dep_minimize_guard(dep_events *ev, const dep_expr *g) { return minimize_expression(ev, g, true); }
const dep_expr *dep_minimize_dependency(dep_events *ev, const dep_expr *d) { return minimize_expression(ev, d, false); }
