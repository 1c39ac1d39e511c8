/* dep_schedule.c: the centralised scheduler of dep_schedule.h: guards compiled per dependency, kept
 * residuated, decided on the continuations of the history. */
#include "deps/dep_schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/dep_guard.h"
#include "deps/dep_minimize.h"
#include "deps/dep_trace.h"

/* A conjunction whose undecided events are at most this many is decided as a whole (Example 11's
 * <>f & <>~f is 0 only together); past it, conjunct by conjunct, which may delay what it could reject. */
#define JOINT_DECISION_MAX 6
/* Waiting events are tried in every order (Heuristic 3) while they are at most this many. */
#define WAITING_ORDER_MAX 5

struct dep_scheduler {
    dep_set *set;
    size_t lits;                 /* 2 * events */
    const dep_expr ***conjuncts; /* by literal: one guard per dependency that mentions it */
    size_t **conjunct_dep;       /* ... and that dependency's index */
    size_t *conjunct_count;
    size_t **deps_of;            /* by symbol: the dependencies that mention it */
    size_t *deps_of_count;
    bool *changed;               /* by literal: a conjunct changed since dep_scheduler_take_changed */
    bool *stale;                 /* by literal: its decision may have changed since it was last made */
    dep_paths *safe;             /* by dependency: Phi(D) */
    size_t *psi_count;           /* by dependency: |Psi(D)| */
    int *history;
    size_t history_len;
    int *waiting;
    size_t waiting_len;
    bool *promised; /* by literal: a promise of it was made */
    bool *owed;     /* by literal: a triggerable event that promised to follow */
    bool *occurred; /* by symbol: decided either way */
};

const char *dep_decision_name(dep_decision d) {
    static const char *const names[] = {"accept", "reject", "delay", "trigger", "promise", "prohibit"};
    return names[d];
}

void dep_scheduler_free(dep_scheduler *s) {
    if (!s)
        return;
    for (size_t l = 0; l < s->lits; l++) {
        free(s->conjuncts ? s->conjuncts[l] : NULL);
        free(s->conjunct_dep ? s->conjunct_dep[l] : NULL);
        free(s->deps_of && l % 2 == 0 ? s->deps_of[l / 2] : NULL);
    }
    free(s->conjuncts);
    free(s->conjunct_dep);
    free(s->conjunct_count);
    free(s->deps_of);
    free(s->deps_of_count);
    free(s->changed);
    free(s->stale);
    for (size_t d = 0; s->safe && d < s->set->count; d++)
        dep_paths_free(&s->safe[d]);
    free(s->safe);
    free(s->psi_count);
    free(s->history);
    free(s->waiting);
    free(s->promised);
    free(s->owed);
    free(s->occurred);
    free(s);
}

dep_scheduler *dep_scheduler_new(dep_set *set, char *err, size_t err_len) {
    dep_scheduler *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->set = set;
    s->lits = 2 * set->ev.count;
    size_t lits = s->lits ? s->lits : 1;
    s->conjuncts = calloc(lits, sizeof *s->conjuncts);
    s->conjunct_dep = calloc(lits, sizeof *s->conjunct_dep);
    s->conjunct_count = calloc(lits, sizeof *s->conjunct_count);
    s->deps_of = calloc(lits, sizeof *s->deps_of);
    s->deps_of_count = calloc(lits, sizeof *s->deps_of_count);
    s->changed = calloc(lits, 1);
    s->stale = malloc(lits);
    s->safe = calloc(set->count + 1, sizeof *s->safe);
    s->psi_count = calloc(set->count + 1, sizeof *s->psi_count);
    s->history = calloc(lits, sizeof *s->history);
    s->waiting = calloc(lits, sizeof *s->waiting);
    s->promised = calloc(lits, 1);
    s->owed = calloc(lits, 1);
    s->occurred = calloc(lits, 1);
    if (!s->conjuncts || !s->conjunct_dep || !s->conjunct_count || !s->deps_of || !s->deps_of_count || !s->changed || !s->stale || !s->safe || !s->psi_count || !s->history || !s->waiting || !s->promised || !s->owed ||
        !s->occurred)
        goto oom;
    for (size_t d = 0; d < set->count; d++) {
        dep_paths psi;
        char why[160];
        if (dep_psi(set->deps[d].expr, &psi, why, sizeof why) != 0) {
            snprintf(err, err_len, "%s: %s", set->deps[d].name, why);
            dep_scheduler_free(s);
            return NULL;
        }
        s->psi_count[d] = psi.count;
        int rc = dep_safe_paths(&psi, set, &s->safe[d]);
        dep_paths_free(&psi);
        if (rc != 0)
            goto oom;
    }
    memset(s->stale, 1, lits);
    for (size_t d = 0; d < set->count; d++)
        for (size_t j = 0; j < s->safe[d].n; j++)
            s->deps_of_count[s->safe[d].symbols[j]]++;
    for (size_t e = 0; e < set->ev.count; e++) {
        s->deps_of[e] = calloc(s->deps_of_count[e] + 1, sizeof **s->deps_of);
        if (!s->deps_of[e])
            goto oom;
        s->deps_of_count[e] = 0;
    }
    for (size_t d = 0; d < set->count; d++)
        for (size_t j = 0; j < s->safe[d].n; j++) {
            int e = s->safe[d].symbols[j];
            s->deps_of[e][s->deps_of_count[e]++] = d;
        }
    for (size_t l = 0; l < s->lits; l++) {
        size_t mentioning = s->deps_of_count[l / 2];
        s->conjuncts[l] = calloc(mentioning + 1, sizeof **s->conjuncts);
        s->conjunct_dep[l] = calloc(mentioning + 1, sizeof **s->conjunct_dep);
        if (!s->conjuncts[l] || !s->conjunct_dep[l])
            goto oom;
        /* Theorem 22: a dependency that does not mention the event adds T */
        for (size_t i = 0; i < mentioning; i++) {
            size_t d = s->deps_of[l / 2][i];
            const dep_expr *g = dep_two_sequences(&set->ev, dep_paths_readable_guard(&set->ev, &s->safe[d], (int)l));
            if (!g)
                goto oom;
            bool repeated = false; /* the same conjunct twice says nothing more */
            for (size_t c = 0; c < s->conjunct_count[l] && !repeated; c++)
                repeated = dep_expr_equal(s->conjuncts[l][c], g);
            if (repeated)
                continue;
            s->conjunct_dep[l][s->conjunct_count[l]] = d;
            s->conjuncts[l][s->conjunct_count[l]++] = g;
        }
    }
    return s;
oom:
    snprintf(err, err_len, "out of memory");
    dep_scheduler_free(s);
    return NULL;
}

const dep_expr *dep_scheduler_guard(const dep_scheduler *s, int lit) {
    const dep_expr *g = dep_top();
    for (size_t c = 0; c < s->conjunct_count[lit] && g; c++)
        g = dep_and(&s->set->ev, g, s->conjuncts[lit][c]);
    return g;
}

size_t dep_scheduler_history(const dep_scheduler *s, const int **lits) {
    *lits = s->history;
    return s->history_len;
}

size_t dep_scheduler_waiting(const dep_scheduler *s, const int **lits) {
    *lits = s->waiting;
    return s->waiting_len;
}

/* --- deciding on the continuations of the history --- */

/* A guard read for its ordering only: what it says will happen (<>) is taken as given. A later event
 * keeps the order its own guard demands (Theorem 26: the later of two ordered events is responsible
 * for their order), but whether it happens at all is the environment's, or a promise's, to say. */
static bool holds_ordering(const dep_expr *g, const dep_trace *u, size_t k) {
    switch (g->kind) {
    case DEP_AND:
        return holds_ordering(g->a, u, k) && holds_ordering(g->b, u, k);
    case DEP_OR:
        return holds_ordering(g->a, u, k) || holds_ordering(g->b, u, k);
    case DEP_DIA:
        return true;
    default:
        return dep_holds(g, u, 0, k);
    }
}

typedef struct {
    const dep_scheduler *s;
    const dep_expr *const *guards;
    size_t guard_count;
    size_t k; /* the events before the attempted one */
    int x;    /* the attempted literal */
    const int *symbols; /* the events enumerated: a later event's guard is read only over them */
    size_t symbol_count;
    size_t holds_somewhere;    /* continuations the guard holds on */
    size_t holds, fails;       /* ... among the admissible ones */
} verdict;

static bool symbol_in(const int *symbols, size_t n, int symbol) {
    for (size_t j = 0; j < n; j++)
        if (symbols[j] == symbol)
            return true;
    return false;
}

/* Do the events after the attempted one keep the order their guards demand? An immediate event keeps
 * none (it happens regardless), and a guard over events not enumerated is not read. */
static bool admissible(const verdict *v, const dep_trace *u) {
    for (size_t p = v->k + 1; p < u->n; p++) {
        int y = u->lits[p];
        if (dep_attributes(v->s->set, y) & DEP_IMMEDIATE)
            continue;
        for (size_t c = 0; c < v->s->conjunct_count[y]; c++) {
            const dep_expr *g = v->s->conjuncts[y][c];
            int own[DEP_TRACE_MAX];
            size_t m = dep_symbols(g, own, DEP_TRACE_MAX);
            bool readable = m <= DEP_TRACE_MAX;
            for (size_t j = 0; j < m && readable; j++)
                readable = symbol_in(v->symbols, v->symbol_count, own[j]);
            if (readable && !holds_ordering(g, u, p))
                return false;
        }
    }
    return true;
}

/* A continuation of the history over the enumerated events, with x somewhere after it: does the guard
 * hold where x comes (for rejection), and, when x comes next, on the admissible ones (for acceptance)? */
static int judge(const dep_trace *u, void *ctx) {
    verdict *v = ctx;
    size_t at = v->k;
    while (at < u->n && u->lits[at] != v->x)
        at++;
    if (at == u->n)
        return 0; /* its complement happens instead */
    for (size_t p = v->k; p < u->n; p++)
        if (v->s->promised[DEP_COMPLEMENT(u->lits[p])])
            return 0; /* a promised event occurs: its complement does not */
    bool all = true;
    for (size_t g = 0; g < v->guard_count && all; g++)
        all = dep_holds(v->guards[g], u, 0, at);
    v->holds_somewhere += all;
    if (at == v->k && admissible(v, u)) {
        if (all)
            v->holds++;
        else
            v->fails++;
    }
    return v->holds_somewhere && v->fails ? 1 : 0; /* neither accepted nor rejected: no need to look on */
}

/* Decides guards for x, the literals `before` (before_n of them) assumed to occur first, in order, and
 * `after` right after x (then x must come next). The events enumerated are the guards' and x's. */
static dep_decision decide_guards(const dep_scheduler *s, const dep_expr *const *guards, size_t count, int x,
                                  const int *before, size_t before_n, const int *after, size_t after_n) {
    int symbols[DEP_TRACE_MAX] = {0}; /* only the first n are read, which GCC at -O1 does not see */
    size_t n = 0;
    for (size_t g = 0; g < count; g++) {
        int own[DEP_TRACE_MAX];
        size_t m = dep_symbols(guards[g], own, DEP_TRACE_MAX);
        if (m > DEP_TRACE_MAX)
            return DEP_DELAY;
        for (size_t j = 0; j < m; j++)
            if (!symbol_in(symbols, n, own[j])) {
                if (n == DEP_TRACE_MAX)
                    return DEP_DELAY;
                symbols[n++] = own[j];
            }
    }
    if (!symbol_in(symbols, n, DEP_SYMBOL(x))) {
        if (n == DEP_TRACE_MAX)
            return DEP_DELAY;
        symbols[n++] = DEP_SYMBOL(x);
    }
    /* every literal of the prefix is of a distinct one of the n symbols */
    int prefix[DEP_TRACE_MAX];
    size_t plen = 0;
    for (size_t h = 0; h < s->history_len; h++)
        if (symbol_in(symbols, n, DEP_SYMBOL(s->history[h])))
            prefix[plen++] = s->history[h];
    for (size_t b = 0; b < before_n; b++)
        if (symbol_in(symbols, n, DEP_SYMBOL(before[b])))
            prefix[plen++] = before[b];
    size_t k = plen;
    if (after_n) { /* x next, then these, in order: the rest is free */
        prefix[plen++] = x;
        for (size_t a = 0; a < after_n; a++)
            if (symbol_in(symbols, n, DEP_SYMBOL(after[a])))
                prefix[plen++] = after[a];
    }
    int rest[DEP_TRACE_MAX];
    size_t rest_n = 0;
    for (size_t j = 0; j < n; j++) {
        bool decided = false;
        for (size_t p = 0; p < plen; p++)
            decided |= DEP_SYMBOL(prefix[p]) == symbols[j];
        if (!decided)
            rest[rest_n++] = symbols[j];
    }
    verdict v = {s, guards, count, k, x, symbols, n, 0, 0, 0};
    if (dep_each_trace(prefix, plen, rest, rest_n, judge, &v) < 0)
        return DEP_DELAY; /* too long to enumerate: undecided, never rejected */
    /* accepted when, x next, it holds wherever the later events keep their order (and somewhere they
     * do); rejected when it holds nowhere x could come, now or later: a rejection is final */
    if (v.holds && !v.fails)
        return DEP_ACCEPT;
    if (!v.holds_somewhere)
        return DEP_REJECT;
    return DEP_DELAY;
}

static size_t undecided_symbols(const dep_scheduler *s, const dep_expr *const *guards, size_t count) {
    int symbols[DEP_TRACE_MAX * 2];
    size_t n = 0;
    for (size_t g = 0; g < count; g++) {
        int own[DEP_TRACE_MAX];
        size_t m = dep_symbols(guards[g], own, DEP_TRACE_MAX);
        if (m > DEP_TRACE_MAX)
            return (size_t)-1;
        for (size_t j = 0; j < m; j++)
            if (!s->occurred[own[j]] && !symbol_in(symbols, n, own[j])) {
                if (n == DEP_TRACE_MAX * 2)
                    return (size_t)-1;
                symbols[n++] = own[j];
            }
    }
    return n;
}

/* The history's events among the paths' events, in order, into seen (room for the paths' n). */
static size_t history_within(const dep_scheduler *s, const dep_paths *p, int *seen) {
    size_t n = 0;
    for (size_t h = 0; h < s->history_len && n < p->n; h++)
        if (dep_paths_mention(p, s->history[h]))
            seen[n++] = s->history[h];
    return n;
}

/* Can literal y still happen by dependency d once the history (and `first`, a literal or -1) happened?
 * A safe path of d continues it with y. */
static bool possible_in(const dep_scheduler *s, size_t d, int y, int first) {
    const dep_paths *p = &s->safe[d];
    int seen[DEP_SYMBOLS_MAX + 1];
    size_t seen_n = history_within(s, p, seen);
    if (first >= 0 && dep_paths_mention(p, first))
        seen[seen_n++] = first;
    for (size_t w = 0; w < p->count; w++) {
        const int *path = p->lits + w * p->n;
        if (memcmp(path, seen, seen_n * sizeof *seen) != 0)
            continue;
        for (size_t j = seen_n; j < p->n; j++)
            if (path[j] == y)
                return true;
    }
    return false;
}

/* ... by every dependency that mentions it */
static bool possible(const dep_scheduler *s, int y) {
    for (size_t i = 0; i < s->deps_of_count[DEP_SYMBOL(y)]; i++)
        if (!possible_in(s, s->deps_of[DEP_SYMBOL(y)][i], y, -1))
            return false;
    return true;
}

static bool is_waiting(const dep_scheduler *s, int lit) {
    for (size_t w = 0; w < s->waiting_len; w++)
        if (s->waiting[w] == lit)
            return true;
    return false;
}

/* Jointly: dependencies that each leave y a way may not together (D1: b forces b, so D2's way to ~d
 * through ~b is gone). The dependencies around x and y are those mentioning either, and those whose events
 * all lie among theirs; a trace over all their events must begin with the history and x (-1: none),
 * contain y, and be a safe path of each. More than JOINT_DECISION_MAX events beyond the history: not
 * decided jointly (the per-dependency answer stands). */
#define JOINT_DEPS_MAX 64 /* more around x and y: not decided jointly */

typedef struct {
    const dep_scheduler *s;
    size_t deps[JOINT_DEPS_MAX];
    size_t dep_count;
    int y;
    size_t from; /* y must come at or after this index */
} joint_search;

static bool on_safe_path(const dep_paths *p, const dep_trace *u) {
    int projected[DEP_SYMBOLS_MAX];
    size_t n = 0;
    for (size_t i = 0; i < u->n && n < p->n; i++)
        if (dep_paths_mention(p, u->lits[i]))
            projected[n++] = u->lits[i];
    for (size_t w = 0; w < p->count; w++)
        if (memcmp(p->lits + w * p->n, projected, n * sizeof *projected) == 0)
            return true;
    return false;
}

static int joint_trace(const dep_trace *u, void *ctx) {
    const joint_search *j = ctx;
    bool has_y = false;
    for (size_t i = j->from; i < u->n && !has_y; i++)
        has_y = u->lits[i] == j->y;
    for (size_t d = 0; d < j->dep_count && has_y; d++)
        if (!on_safe_path(&j->s->safe[j->deps[d]], u))
            return 0;
    return has_y;
}

/* 1 possible, 0 not, -1 not decided (too many events) */
static int jointly_possible(const dep_scheduler *s, int x, int y) {
    joint_search j = {.s = s, .y = y};
    int union_symbols[DEP_TRACE_MAX];
    size_t union_n = 0;
    int ends[2] = {x, y};
    for (int e = 0; e < 2; e++) {
        if (ends[e] < 0)
            continue;
        int sym = DEP_SYMBOL(ends[e]);
        for (size_t i = 0; i < s->deps_of_count[sym]; i++) {
            size_t d = s->deps_of[sym][i];
            bool known = false;
            for (size_t k = 0; k < j.dep_count && !known; k++)
                known = j.deps[k] == d;
            if (known)
                continue;
            if (j.dep_count == JOINT_DEPS_MAX)
                return -1;
            j.deps[j.dep_count++] = d;
            for (size_t k = 0; k < s->safe[d].n; k++) {
                int t = s->safe[d].symbols[k];
                if (symbol_in(union_symbols, union_n, t))
                    continue;
                if (union_n == DEP_TRACE_MAX)
                    return -1;
                union_symbols[union_n++] = t;
            }
        }
    }
    for (size_t t = 0; t < union_n; t++)
        for (size_t i = 0; i < s->deps_of_count[union_symbols[t]]; i++) {
            size_t d = s->deps_of[union_symbols[t]][i];
            bool within = true, known = false;
            for (size_t k = 0; k < s->safe[d].n && within; k++)
                within = symbol_in(union_symbols, union_n, s->safe[d].symbols[k]);
            for (size_t k = 0; k < j.dep_count && !known; k++)
                known = j.deps[k] == d;
            if (!within || known)
                continue;
            if (j.dep_count == JOINT_DEPS_MAX)
                return -1;
            j.deps[j.dep_count++] = d;
        }
    int prefix[DEP_TRACE_MAX], rest[DEP_TRACE_MAX];
    size_t prefix_n = 0, rest_n = 0;
    for (size_t h = 0; h < s->history_len; h++)
        if (symbol_in(union_symbols, union_n, DEP_SYMBOL(s->history[h])))
            prefix[prefix_n++] = s->history[h];
    if (x >= 0)
        prefix[prefix_n++] = x;
    for (size_t u = 0; u < union_n; u++) {
        bool done = false;
        for (size_t k = 0; k < prefix_n && !done; k++)
            done = DEP_SYMBOL(prefix[k]) == union_symbols[u];
        if (!done)
            rest[rest_n++] = union_symbols[u];
    }
    if (rest_n > JOINT_DECISION_MAX)
        return -1;
    j.from = prefix_n;
    return dep_each_trace(prefix, prefix_n, rest, rest_n, joint_trace, &j) > 0;
}

/* Would x's occurrence take away another event's possibility (Example 4: f, first, waits, for it would
 * leave e no way to happen)? A later event that is only delayed by x is not taken away (Example 18).
 * Only the dependencies that mention x can take a possibility away, alone or with those around them. */
static bool precludes(const dep_scheduler *s, int x) {
    int sx = DEP_SYMBOL(x);
    for (size_t i = 0; i < s->deps_of_count[sx]; i++) {
        size_t d = s->deps_of[sx][i];
        const dep_paths *p = &s->safe[d];
        for (size_t j = 0; j < 2 * p->n; j++) {
            int y = 2 * p->symbols[j / 2] + (int)(j % 2);
            /* its complement attempted or promised: y is not wanted */
            if (DEP_SYMBOL(y) == sx || s->occurred[DEP_SYMBOL(y)] || s->promised[DEP_COMPLEMENT(y)] ||
                is_waiting(s, DEP_COMPLEMENT(y)))
                continue;
            if (!possible_in(s, d, y, -1) || !possible(s, y))
                continue;
            if (!possible_in(s, d, y, x) || (jointly_possible(s, -1, y) == 1 && jointly_possible(s, x, y) == 0))
                return true;
        }
    }
    return false;
}

/* The decision on x now, given the promises made (and `before` assumed to happen first, `after` to follow
 * x at once). */
static dep_decision decide_between(const dep_scheduler *s, int x, const int *before, size_t before_n,
                                   const int *after, size_t after_n) {
    const dep_expr *const *guards = s->conjuncts[x];
    size_t count = s->conjunct_count[x];
    dep_decision d = DEP_ACCEPT;
    if (count && undecided_symbols(s, guards, count) <= JOINT_DECISION_MAX) {
        d = decide_guards(s, guards, count, x, before, before_n, after, after_n);
    } else {
        for (size_t c = 0; c < count && d != DEP_REJECT; c++) {
            dep_decision one = decide_guards(s, guards + c, 1, x, before, before_n, after, after_n);
            if (one != DEP_ACCEPT)
                d = one;
        }
    }
    if (d == DEP_ACCEPT && before_n == 0 && after_n == 0 && precludes(s, x))
        d = DEP_DELAY;
    return d;
}

/* decide_between() with one literal (or none: -1) assumed first */
static dep_decision decide(const dep_scheduler *s, int x, int first) {
    return decide_between(s, x, &first, first >= 0 ? 1 : 0, NULL, 0);
}

/* decide() with one more promise assumed */
static dep_decision decide_promised(dep_scheduler *s, int x, int promise) {
    bool was = s->promised[promise];
    s->promised[promise] = true;
    dep_decision d = decide(s, x, -1);
    s->promised[promise] = was;
    return d;
}

/* --- what happens --- */

static void report(dep_step_fn fn, void *ctx, dep_decision d, int lit, int other, const char *why) {
    dep_step step = {d, lit, other, why};
    if (fn)
        fn(ctx, &step);
}

/* What lit's occurrence, promise or attempt can change: the decisions on the events of its dependencies. */
static void mark_stale_around(dep_scheduler *s, int lit) {
    int sym = DEP_SYMBOL(lit);
    s->stale[2 * sym] = s->stale[2 * sym + 1] = true;
    for (size_t i = 0; i < s->deps_of_count[sym]; i++) {
        const dep_paths *p = &s->safe[s->deps_of[sym][i]];
        for (size_t j = 0; j < p->n; j++)
            s->stale[2 * p->symbols[j]] = s->stale[2 * p->symbols[j] + 1] = true;
    }
}

static void remove_waiting(dep_scheduler *s, int lit) {
    for (size_t w = 0; w < s->waiting_len; w++)
        if (s->waiting[w] == lit) {
            memmove(s->waiting + w, s->waiting + w + 1, (s->waiting_len - w - 1) * sizeof *s->waiting);
            s->waiting_len--;
            return;
        }
}


/* The events an accepted guard relied on not having happened: ¬z atoms with z still to come. */
static void report_prohibitions(const dep_scheduler *s, const dep_expr *g, int x, dep_step_fn fn, void *ctx,
                                bool *reported) {
    switch (g->kind) {
    case DEP_AND:
    case DEP_OR:
        report_prohibitions(s, g->a, x, fn, ctx, reported);
        report_prohibitions(s, g->b, x, fn, ctx, reported);
        return;
    case DEP_NOT:
        if (g->a->kind == DEP_LIT && !s->occurred[DEP_SYMBOL(g->a->lit)] && !reported[g->a->lit]) {
            reported[g->a->lit] = true;
            report(fn, ctx, DEP_PROHIBIT, x, g->a->lit, "its guard relied on this not having happened");
        }
        return;
    default:
        return;
    }
}

static int occur(dep_scheduler *s, int x, dep_decision how, const char *why, dep_step_fn fn, void *ctx) {
    if (!(dep_attributes(s->set, x) & DEP_IMMEDIATE)) { /* an immediate event heeds no guard */
        bool *reported = calloc(s->lits, 1);
        if (!reported)
            return -1;
        for (size_t c = 0; c < s->conjunct_count[x]; c++)
            report_prohibitions(s, s->conjuncts[x][c], x, fn, ctx, reported);
        free(reported);
    }
    dep_events *ev = &s->set->ev;
    /* the guards that mention x (their dependencies' events') assimilate []x and, for each earlier event
     * a of the same dependency, [](a.x) */
    int sx = DEP_SYMBOL(x);
    for (size_t i = 0; i < s->deps_of_count[sx]; i++) {
        size_t d = s->deps_of[sx][i];
        const dep_paths *p = &s->safe[d];
        for (size_t j = 0; j < 2 * p->n; j++) {
            int l = 2 * p->symbols[j / 2] + (int)(j % 2);
            for (size_t c = 0; c < s->conjunct_count[l]; c++) {
                if (s->conjunct_dep[l][c] != d)
                    continue;
                const dep_expr *g = dep_residuate(ev, s->conjuncts[l][c], (dep_message){DEP_BOX, x, -1});
                for (size_t h = 0; h < s->history_len && g; h++)
                    if (dep_paths_mention(p, s->history[h]))
                        g = dep_residuate(ev, g, (dep_message){DEP_BOX, s->history[h], x});
                if (!g)
                    return -1;
                if (g != s->conjuncts[l][c])
                    s->changed[l] = true;
                s->conjuncts[l][c] = g;
            }
        }
    }
    s->history[s->history_len++] = x;
    s->occurred[DEP_SYMBOL(x)] = true;
    mark_stale_around(s, x);
    s->promised[x] = s->promised[DEP_COMPLEMENT(x)] = false;
    s->owed[x] = s->owed[DEP_COMPLEMENT(x)] = false;
    remove_waiting(s, x);
    report(fn, ctx, how, x, -1, why);
    if (is_waiting(s, DEP_COMPLEMENT(x))) {
        remove_waiting(s, DEP_COMPLEMENT(x));
        report(fn, ctx, DEP_REJECT, DEP_COMPLEMENT(x), -1, "its complement happened");
    }
    return 0;
}

/* Does some dependency now require t on every safe path that continues the history? */
static bool required(const dep_scheduler *s, int t) {
    for (size_t i = 0; i < s->deps_of_count[DEP_SYMBOL(t)]; i++) {
        const dep_paths *p = &s->safe[s->deps_of[DEP_SYMBOL(t)][i]];
        int seen[DEP_SYMBOLS_MAX + 1];
        size_t seen_n = history_within(s, p, seen);
        size_t continuing = 0, with_t = 0;
        for (size_t w = 0; w < p->count; w++) {
            const int *path = p->lits + w * p->n;
            if (memcmp(path, seen, seen_n * sizeof *seen) != 0)
                continue;
            continuing++;
            for (size_t j = seen_n; j < p->n; j++)
                with_t += path[j] == t;
        }
        if (continuing && with_t == continuing)
            return true;
    }
    return false;
}

/* `from` promises to happen: to's guards (to -1: every other event's, as an attempted inevitable event
 * sends <>from to all, section 4.3) assimilate <>from (Table 1), and every decision counts on it. */
static int promise(dep_scheduler *s, int from, int to, const char *why, dep_step_fn fn, void *ctx) {
    s->promised[from] = true;
    mark_stale_around(s, from);
    for (size_t l = 0; l < s->lits; l++) {
        if (to >= 0 ? (int)l != to : DEP_SYMBOL((int)l) == DEP_SYMBOL(from))
            continue;
        for (size_t c = 0; c < s->conjunct_count[l]; c++) {
            const dep_expr *g = dep_residuate(&s->set->ev, s->conjuncts[l][c], (dep_message){DEP_DIA, from, -1});
            if (!g)
                return -1;
            if (g != s->conjuncts[l][c])
                s->changed[l] = true;
            s->conjuncts[l][c] = g;
        }
    }
    report(fn, ctx, DEP_PROMISE, from, to, why);
    return 0;
}

/* Does the order `order` (n waiting events) work: each accepted in turn, those after it following? The
 * first must not take another event's possibility away (precludes), as a single acceptance must not. */
static bool order_works(dep_scheduler *s, const int *order, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (decide_between(s, order[i], order, i, order + i + 1, n - i - 1) != DEP_ACCEPT)
            return false;
    return !precludes(s, order[0]);
}

static bool find_order(dep_scheduler *s, int *order, size_t n, size_t fixed) {
    if (fixed == n)
        return order_works(s, order, n);
    for (size_t j = fixed; j < n; j++) {
        int swap = order[fixed];
        order[fixed] = order[j];
        order[j] = swap;
        if (find_order(s, order, n, fixed + 1))
            return true;
        order[j] = order[fixed];
        order[fixed] = swap;
    }
    return false;
}

/* Heuristics 2 and 3 (Example 6): waiting events that wait on each other's futures. When some order of
 * them lets each go once those before it happened and those after it promised, they promise to the
 * first, which goes; the others follow as their guards allow. */
static int promise_in_turn(dep_scheduler *s, dep_step_fn fn, void *ctx) {
    int order[WAITING_ORDER_MAX];
    size_t n = s->waiting_len;
    memcpy(order, s->waiting, n * sizeof *order);
    if (!find_order(s, order, n, 0))
        return 0;
    for (size_t j = 1; j < n; j++) {
        if (promise(s, order[j], order[0],
                    n == 2 ? "both wait: it can happen once the other has" : "they wait on each other: it follows in turn",
                    fn, ctx) != 0)
            return -1;
    }
    return occur(s, order[0], DEP_ACCEPT, "its guard holds with the others' promises", fn, ctx) == 0 ? 1 : -1;
}

/* One step of progress; 1 when something happened, 0 when nothing can, -1 on out of memory. Only the
 * decisions an occurrence, a promise or an attempt made stale are made again. */
static int progress(dep_scheduler *s, dep_step_fn fn, void *ctx) {
    for (size_t w = 0; w < s->waiting_len; w++) {
        int x = s->waiting[w];
        if (!s->stale[x])
            continue;
        dep_decision d = decide(s, x, -1);
        if (d == DEP_ACCEPT)
            return occur(s, x, DEP_ACCEPT, "its guard holds", fn, ctx) == 0 ? 1 : -1;
        if (d == DEP_REJECT && !(dep_attributes(s->set, x) & DEP_INEVITABLE)) {
            remove_waiting(s, x);
            report(fn, ctx, DEP_REJECT, x, -1, "its guard cannot hold");
            return 1;
        }
    }
    for (size_t l = 0; l < s->lits; l++)
        if (s->owed[l] && s->stale[l] && !s->occurred[DEP_SYMBOL(l)] && decide(s, (int)l, -1) == DEP_ACCEPT)
            return occur(s, (int)l, DEP_TRIGGER, "it keeps its promise", fn, ctx) == 0 ? 1 : -1;
    bool any_stale = false;
    for (size_t w = 0; w < s->waiting_len; w++) {
        int x = s->waiting[w];
        if (!s->stale[x])
            continue;
        any_stale = true;
        /* a triggerable event whose promise would let x go is one of x's dependencies' */
        for (size_t i = 0; i < s->deps_of_count[DEP_SYMBOL(x)]; i++) {
            const dep_paths *p = &s->safe[s->deps_of[DEP_SYMBOL(x)][i]];
            for (size_t j = 0; j < 2 * p->n; j++) {
                int t = 2 * p->symbols[j / 2] + (int)(j % 2);
                if (s->occurred[DEP_SYMBOL(t)] || is_waiting(s, t) || s->owed[t] ||
                    !(dep_attributes(s->set, t) & DEP_TRIGGERABLE) || decide_promised(s, x, t) != DEP_ACCEPT)
                    continue;
                if (decide_promised(s, t, x) == DEP_ACCEPT) { /* Example 12 */
                    if (promise(s, x, t, "a triggerable event's occurrence would let it go", fn, ctx) != 0)
                        return -1;
                    return occur(s, t, DEP_TRIGGER, "an attempted event's promise lets it happen", fn, ctx) == 0 ? 1 : -1;
                }
                if (decide(s, t, x) == DEP_ACCEPT) { /* Example 13 */
                    s->owed[t] = true;
                    return promise(s, t, x, "it can follow the attempted event", fn, ctx) == 0 ? 1 : -1;
                }
            }
        }
    }
    if (any_stale && s->waiting_len >= 2 && s->waiting_len <= WAITING_ORDER_MAX) {
        int rc = promise_in_turn(s, fn, ctx);
        if (rc != 0)
            return rc;
    }
    for (size_t t = 0; t < s->lits; t++) /* Example 15: required on every remaining path */
        if (s->stale[t] && !s->occurred[DEP_SYMBOL(t)] && (dep_attributes(s->set, (int)t) & DEP_TRIGGERABLE) &&
            !is_waiting(s, (int)t) && required(s, (int)t) && decide(s, (int)t, -1) == DEP_ACCEPT)
            return occur(s, (int)t, DEP_TRIGGER, "a dependency now requires it", fn, ctx) == 0 ? 1 : -1;
    memset(s->stale, 0, s->lits); /* nothing can happen: every decision stands until something changes */
    return 0;
}

int dep_scheduler_attempt(dep_scheduler *s, int lit, dep_step_fn fn, void *ctx, char *err, size_t err_len) {
    if ((size_t)lit >= s->lits || lit < 0) {
        snprintf(err, err_len, "not an event of the workflow");
        return -1;
    }
    char name[160];
    dep_print_lit(&s->set->ev, lit, name, sizeof name);
    if (s->occurred[DEP_SYMBOL(lit)]) {
        snprintf(err, err_len, "%s: its event already happened, one way or the other", name);
        return -1;
    }
    if (is_waiting(s, lit) || is_waiting(s, DEP_COMPLEMENT(lit))) {
        snprintf(err, err_len, "%s: %s attempted and waiting", name,
                 is_waiting(s, lit) ? "already" : "its complement is");
        return -1;
    }
    if (dep_attributes(s->set, lit) & DEP_IMMEDIATE) {
        if (occur(s, lit, DEP_ACCEPT, "it is immediate", fn, ctx) != 0)
            goto oom;
    } else {
        s->waiting[s->waiting_len++] = lit;
        mark_stale_around(s, lit);
        dep_decision d = decide(s, lit, -1);
        bool inevitable = dep_attributes(s->set, lit) & DEP_INEVITABLE;
        if (d == DEP_DELAY || (d == DEP_REJECT && inevitable))
            report(fn, ctx, DEP_DELAY, lit, -1,
                   d == DEP_DELAY ? "its guard may yet hold" : "it is inevitable: it waits where it would be rejected");
        /* section 4.3: an inevitable event that waits will happen, and says so, so that the others' guards
         * can no longer count on its complement (D6: ship, whose guard is []~pay, is rejected) */
        if (d != DEP_ACCEPT && inevitable && promise(s, lit, -1, "it is inevitable: it will happen (section 4.3)", fn, ctx) != 0)
            goto oom;
    }
    int rc;
    while ((rc = progress(s, fn, ctx)) > 0)
        ;
    if (rc < 0)
        goto oom;
    return 0;
oom:
    snprintf(err, err_len, "out of memory");
    return -1;
}

const struct dep_paths *dep_scheduler_safe(const dep_scheduler *s, size_t d) { return &s->safe[d]; }
size_t dep_scheduler_psi_count(const dep_scheduler *s, size_t d) { return s->psi_count[d]; }

bool dep_scheduler_take_changed(dep_scheduler *s, int lit) {
    bool changed = s->changed[lit];
    s->changed[lit] = false;
    return changed;
}
