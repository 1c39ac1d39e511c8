/* dep_policy.c: dependencies as guards over occurred sets (dep_policy.h): the groups, the enumeration of
 * their histories under the policy being computed, and each function's cover. */
#include "deps/dep_policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/dep_guard.h"
#include "deps/dep_trace.h"

typedef struct {
    const dep_set *set;
    const dep_group *g;
    uint32_t may_happen;  /* inevitable or triggerable: a completion may hold them */
    uint32_t must_happen; /* inevitable */
    uint32_t triggerable;
    dep_order order;
    struct possibility *possible; /* DEP_ORDER_DELAY: by history (history_code); events 0: not yet known */
} completion_ctx;

/* What can still happen after a history, whatever the policy: the events on some way on satisfying every
 * dependency (and POSSIBLE_KNOWN), and the ordered pairs (bit y * n + e) of events that come one after the
 * other on some such way. */
struct possibility {
    uint64_t follows;
    uint32_t events;
};

#define POSSIBLE_KNOWN (1u << 31)

static bool satisfies_all(const completion_ctx *c, const dep_trace *u) {
    for (size_t d = 0; d < c->g->dep_count; d++)
        if (!dep_satisfies(c->set->deps[c->g->deps[d]].expr, u))
            return false;
    return true;
}

/* The group's index of an event literal's symbol. */
static size_t index_of(const dep_group *g, int lit) {
    size_t i = 0;
    while (g->symbols[i] != DEP_SYMBOL(lit))
        i++;
    return i;
}

/* A history (u, events only) as a number below (n+1)^n: the memo's index. */
static size_t history_code(const dep_group *g, const dep_trace *u) {
    size_t code = 0;
    for (size_t i = u->n; i-- > 0;)
        code = code * (g->n + 1) + index_of(g, u->lits[i]) + 1;
    return code;
}

/* The ways on from u satisfying every dependency, any of the rest happening in any order (every inevitable
 * one among them), then the complements of the others: what happens on them (POSSIBLE_KNOWN marks that some
 * way exists), and into *follows the pairs of events the ways hold one after the other. */
static uint32_t ways_on(const completion_ctx *c, dep_trace *u, uint32_t used, bool positive, uint64_t *follows) {
    uint32_t all = (1u << c->g->n) - 1, found = 0;
    if (used == all)
        return satisfies_all(c, u) ? POSSIBLE_KNOWN : 0;
    for (size_t i = 0; i < c->g->n && positive; i++) {
        uint32_t bit = 1u << i;
        if (used & bit)
            continue;
        u->lits[u->n++] = 2 * c->g->symbols[i];
        uint32_t later = ways_on(c, u, used | bit, true, follows);
        u->n--;
        if (!later)
            continue;
        for (size_t j = 0; j < c->g->n; j++)
            if (later & (1u << j))
                *follows |= UINT64_C(1) << (i * c->g->n + j);
        found |= later | bit;
    }
    if (c->must_happen & ~used)
        return found;
    for (size_t i = 0; i < c->g->n; i++) {
        uint32_t bit = 1u << i;
        if (used & bit)
            continue;
        u->lits[u->n++] = 2 * c->g->symbols[i] + 1;
        found |= ways_on(c, u, used | bit, false, follows);
        u->n--;
    }
    return found;
}

/* What can still happen after history u (events `used`), whatever the policy: the paper's "possible" (a
 * safe path continues the history with it), over the group. */
static const struct possibility *possible_after(const completion_ctx *c, dep_trace *u, uint32_t used) {
    struct possibility *memo = &c->possible[history_code(c->g, u)];
    if (!memo->events) {
        uint64_t follows = 0;
        memo->events = ways_on(c, u, used, true, &follows) | POSSIBLE_KNOWN;
        memo->follows = follows;
    }
    return memo;
}

/* Does event e wait for another after history u (events `used`)? It does when some y could still happen,
 * would not after e, and e could come after y on some way on (not only next: y may need others before it):
 * Example 4's f, which comes after e if both do, waits for e rather than take e's way to happen. Two events
 * that each take the other's way (mutual exclusion) do not wait: the first goes and the other is refused
 * (Heuristic 4's prohibition). An inevitable e waits only for events the agent can count on (inevitable or
 * triggerable): a wait for another may last until completion, which would reject e. */
static bool waits(const completion_ctx *c, dep_trace *u, uint32_t used, size_t e) {
    uint32_t awaited = (c->must_happen & (1u << e)) ? c->may_happen : UINT32_MAX;
    const struct possibility *now = possible_after(c, u, used);
    uint32_t now_events = now->events;
    uint64_t now_follows = now->follows;
    u->lits[u->n++] = 2 * c->g->symbols[e];
    uint32_t after_e = possible_after(c, u, used | (1u << e))->events;
    u->n--;
    for (size_t y = 0; y < c->g->n; y++) {
        uint32_t bit = 1u << y;
        if (y == e || (used & bit) || !(awaited & bit) || !(now_events & bit) || (after_e & bit))
            continue;
        if (now_follows & (UINT64_C(1) << (y * c->g->n + e)))
            return true;
    }
    return false;
}

/* Can trace u (events in `used`) go on to a maximal trace over the group satisfying every dependency?
 * While `positive`, a may-happen event may come next (by DEP_ORDER_DELAY, one that does not wait); then
 * the complements of the rest, in any order. */
static bool completes(const completion_ctx *c, dep_trace *u, uint32_t used, bool positive) {
    uint32_t all = (1u << c->g->n) - 1;
    if (used == all)
        return satisfies_all(c, u);
    for (size_t i = 0; i < c->g->n; i++) {
        uint32_t bit = 1u << i;
        if ((used & bit) || !positive || !(c->may_happen & bit))
            continue;
        if (c->order == DEP_ORDER_DELAY && waits(c, u, used, i))
            continue;
        u->lits[u->n++] = 2 * c->g->symbols[i];
        bool ok = completes(c, u, used | bit, true);
        u->n--;
        if (ok)
            return true;
    }
    if (c->must_happen & ~used)
        return false;
    for (size_t i = 0; i < c->g->n; i++) {
        uint32_t bit = 1u << i;
        if (used & bit)
            continue;
        u->lits[u->n++] = 2 * c->g->symbols[i] + 1;
        bool ok = completes(c, u, used | bit, false);
        u->n--;
        if (ok)
            return true;
    }
    return false;
}

/* The histories reaching each set: sequences of event indexes, kept per set. */
typedef struct {
    uint8_t *seqs; /* count * n */
    size_t count, capacity;
} history_list;

static int history_add(history_list *l, const uint8_t *seq, size_t n) {
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 4;
        uint8_t *grown = realloc(l->seqs, cap * (n ? n : 1));
        if (!grown)
            return -1;
        l->seqs = grown;
        l->capacity = cap;
    }
    memcpy(l->seqs + l->count * n, seq, n);
    l->count++;
    return 0;
}

static void trace_of(const dep_group *g, const uint8_t *seq, size_t len, dep_trace *u) {
    u->n = len;
    for (size_t i = 0; i < len; i++)
        u->lits[i] = 2 * g->symbols[seq[i]];
}

static int popcount(uint32_t x) {
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* A smallest-looking cover of f over n bits: on[S] true points, off[S] false ones, the rest free. Every
 * cube that meets no false point is a candidate; the largest candidates (primes) cover the true points
 * greedily. */
static int cover_of(size_t n, const uint8_t *on, const uint8_t *off, dep_cover *out) {
    size_t points = (size_t)1 << n;
    out->cubes = NULL;
    out->count = 0;
    size_t cube_total = 1;
    for (size_t i = 0; i < n; i++)
        cube_total *= 3;
    dep_cube *primes = malloc(cube_total * sizeof *primes);
    uint8_t *covered = calloc(points, 1);
    if (!primes || !covered) {
        free(primes);
        free(covered);
        return -1;
    }
    size_t prime_count = 0;
    for (size_t code = 0; code < cube_total; code++) {
        dep_cube c = {0, 0};
        size_t rest = code;
        for (size_t i = 0; i < n; i++, rest /= 3) {
            if (rest % 3 == 1)
                c.occurred |= 1u << i;
            else if (rest % 3 == 2)
                c.pending |= 1u << i;
        }
        bool meets_off = false;
        for (uint32_t s = 0; s < points && !meets_off; s++)
            meets_off = off[s] && (s & c.occurred) == c.occurred && !(s & c.pending);
        if (!meets_off)
            primes[prime_count++] = c;
    }
    /* keep the primes: no other candidate has a subset of its literals */
    size_t kept = 0;
    for (size_t a = 0; a < prime_count; a++) {
        bool larger = false;
        for (size_t b = 0; b < prime_count && !larger; b++)
            larger = b != a && (primes[b].occurred & primes[a].occurred) == primes[b].occurred &&
                     (primes[b].pending & primes[a].pending) == primes[b].pending &&
                     (primes[b].occurred | primes[b].pending) != (primes[a].occurred | primes[a].pending);
        if (!larger)
            primes[kept++] = primes[a];
    }
    for (;;) {
        size_t best = kept, best_gain = 0;
        for (size_t a = 0; a < kept; a++) {
            size_t gain = 0;
            for (uint32_t s = 0; s < points; s++)
                gain += on[s] && !covered[s] && (s & primes[a].occurred) == primes[a].occurred &&
                        !(s & primes[a].pending);
            if (gain > best_gain || (gain && gain == best_gain &&
                                     popcount(primes[a].occurred | primes[a].pending) <
                                         popcount(primes[best].occurred | primes[best].pending))) {
                best = a;
                best_gain = gain;
            }
        }
        if (best == kept)
            break;
        dep_cube *grown = realloc(out->cubes, (out->count + 1) * sizeof *grown);
        if (!grown) {
            free(primes);
            free(covered);
            return -1;
        }
        out->cubes = grown;
        out->cubes[out->count++] = primes[best];
        for (uint32_t s = 0; s < points; s++)
            covered[s] |= (s & primes[best].occurred) == primes[best].occurred && !(s & primes[best].pending);
    }
    free(primes);
    free(covered);
    return 0;
}

static void group_free(dep_group *g) {
    free(g->deps);
    free(g->allowed);
    free(g->trigger);
    free(g->final);
    free(g->reachable);
    for (size_t i = 0; g->allowed_cover && i < g->n; i++)
        free(g->allowed_cover[i].cubes);
    for (size_t i = 0; g->trigger_cover && i < g->n; i++)
        free(g->trigger_cover[i].cubes);
    free(g->allowed_cover);
    free(g->trigger_cover);
    free(g->final_cover.cubes);
}


/* The functions of one group, by its histories in order of length. */
static int group_compute(const dep_set *set, dep_order order, dep_group *g, char *err, size_t err_len) {
    size_t n = g->n, points = (size_t)1 << n, codes = 1;
    for (size_t i = 0; i < n; i++)
        codes *= n + 1;
    completion_ctx c = {set, g, 0, 0, 0, order, NULL};
    for (size_t i = 0; i < n; i++) {
        unsigned attributes = dep_attributes(set, 2 * g->symbols[i]);
        if (attributes & (DEP_INEVITABLE | DEP_TRIGGERABLE))
            c.may_happen |= 1u << i;
        if (attributes & DEP_INEVITABLE)
            c.must_happen |= 1u << i;
        if (attributes & DEP_TRIGGERABLE)
            c.triggerable |= 1u << i;
    }
    g->allowed = calloc(n * points, 1);
    g->trigger = calloc(n * points, 1);
    g->final = calloc(points, 1);
    g->reachable = calloc(points, 1);
    history_list *reach = calloc(points, sizeof *reach);
    c.possible = order == DEP_ORDER_DELAY ? calloc(codes, sizeof *c.possible) : NULL;
    if (!g->allowed || !g->trigger || !g->final || !g->reachable || !reach || (order == DEP_ORDER_DELAY && !c.possible)) {
        free(reach);
        free(c.possible);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    int rc = 0;
    dep_trace u;
    u.n = 0;
    /* refused only where no run at all satisfies the group: waiting may leave a run that waits for ever */
    completion_ctx any_order = c;
    any_order.order = DEP_ORDER_FIRST_COME;
    if (!completes(&any_order, &u, 0, true)) {
        buf names = {0};
        for (size_t d = 0; d < g->dep_count; d++)
            buf_printf(&names, "%s%s", d ? ", " : "", set->deps[g->deps[d]].name);
        const dep_dependency *first = &set->deps[g->deps[0]];
        snprintf(err, err_len, "%s:%d: %s: no run of the instance satisfies %s (with the attributes given)",
                 first->path, first->line, buf_cstr(&names), g->dep_count > 1 ? "them together" : "it");
        buf_free(&names);
        rc = -1;
    }
    uint8_t none = 0;
    if (rc == 0 && history_add(&reach[0], &none, 0) != 0)
        rc = -1;
    for (size_t size = 0; size <= n && rc == 0; size++) {
        for (uint32_t s = 0; s < points && rc == 0; s++) {
            if ((size_t)popcount(s) != size || reach[s].count == 0)
                continue;
            g->reachable[s] = 1;
            g->final[s] = 1;
            for (size_t e = 0; e < n; e++)
                g->allowed[e * points + s] = !(s & (1u << e));
            for (size_t h = 0; h < reach[s].count; h++) {
                const uint8_t *seq = reach[s].seqs + h * size;
                trace_of(g, seq, size, &u);
                completion_ctx at_end = {set, g, 0, 0, 0, DEP_ORDER_FIRST_COME, NULL};
                if (g->final[s] && !completes(&at_end, &u, s, false))
                    g->final[s] = 0;
                for (size_t e = 0; e < n; e++) {
                    if (!g->allowed[e * points + s])
                        continue;
                    if (order == DEP_ORDER_DELAY && waits(&c, &u, s, e)) {
                        g->allowed[e * points + s] = 0;
                        continue;
                    }
                    u.lits[u.n++] = 2 * g->symbols[e];
                    if (!completes(&c, &u, s | (1u << e), true))
                        g->allowed[e * points + s] = 0;
                    u.n--;
                }
            }
            for (size_t e = 0; e < n; e++) {
                uint32_t bit = 1u << e;
                if (!g->allowed[e * points + s])
                    continue;
                g->trigger[e * points + s] = (c.triggerable & bit) && !g->final[s];
                uint8_t seq[DEP_POLICY_EVENTS_MAX];
                for (size_t h = 0; h < reach[s].count && rc == 0; h++) {
                    memcpy(seq, reach[s].seqs + h * size, size);
                    seq[size] = (uint8_t)e;
                    rc = history_add(&reach[s | bit], seq, size + 1);
                }
            }
        }
    }
    for (size_t s = 0; s < points; s++)
        free(reach[s].seqs);
    free(reach);
    free(c.possible);
    if (rc != 0)
        return rc;
    /* the covers: unreachable sets are free, a set holding the event itself is false (once each) */
    uint8_t *on = malloc(points), *off = malloc(points);
    g->allowed_cover = calloc(n, sizeof *g->allowed_cover);
    g->trigger_cover = calloc(n, sizeof *g->trigger_cover);
    if (!on || !off || !g->allowed_cover || !g->trigger_cover) {
        free(on);
        free(off);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    for (size_t e = 0; e < n && rc == 0; e++)
        for (int kind = 0; kind < 2 && rc == 0; kind++) {
            const uint8_t *f = (kind ? g->trigger : g->allowed) + e * points;
            for (uint32_t s = 0; s < points; s++) {
                bool own = s & (1u << e);
                on[s] = g->reachable[s] && !own && f[s];
                off[s] = own || (g->reachable[s] && !f[s]);
            }
            rc = cover_of(n, on, off, kind ? &g->trigger_cover[e] : &g->allowed_cover[e]);
        }
    for (uint32_t s = 0; s < points; s++) {
        on[s] = g->reachable[s] && g->final[s];
        off[s] = g->reachable[s] && !g->final[s];
    }
    if (rc == 0)
        rc = cover_of(n, on, off, &g->final_cover);
    free(on);
    free(off);
    if (rc != 0)
        snprintf(err, err_len, "out of memory");
    return rc;
}

/* What has no meaning on a GSM model, and what no enumeration sees: a dependency over no event (T holds,
 * 0 never does). */
static int check_set(const dep_set *set, char *err, size_t err_len) {
    for (size_t d = 0; d < set->count; d++) {
        int symbol;
        dep_trace empty = {.n = 0};
        if (dep_symbols(set->deps[d].expr, &symbol, 1) == 0 && !dep_satisfies(set->deps[d].expr, &empty)) {
            snprintf(err, err_len, "%s:%d: %s: no run of the instance satisfies it", set->deps[d].path,
                     set->deps[d].line, set->deps[d].name);
            return -1;
        }
    }
    for (size_t s = 0; s < set->ev.count; s++) {
        for (int complement = 0; complement < 2; complement++) {
            int lit = 2 * (int)s + complement;
            unsigned a = dep_attributes(set, lit);
            if (complement && a) {
                snprintf(err, err_len, "~%s has an attribute: on a GSM model a complement happens when the "
                         "instance completes without the event, and has none", set->ev.names[s]);
                return -1;
            }
            if (a & DEP_IMMEDIATE) {
                snprintf(err, err_len, "%s is immediate: a GSM stage or milestone waits for its guard, "
                         "so it can be delayed", set->ev.names[s]);
                return -1;
            }
        }
    }
    return 0;
}

/* A group over the given events: every dependency mentioning one of them, or only `only` (>= 0: a
 * split group). */
static int add_group(const dep_set *set, dep_order order, dep_policy *out, const int *symbols, size_t n, int only,
                     char *err, size_t err_len) {
    dep_group *grown = realloc(out->groups, (out->count + 1) * sizeof *grown);
    if (!grown) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    out->groups = grown;
    dep_group *g = &out->groups[out->count++];
    memset(g, 0, sizeof *g);
    memcpy(g->symbols, symbols, n * sizeof *symbols);
    g->n = n;
    g->split = only >= 0;
    g->deps = malloc((set->count + 1) * sizeof *g->deps);
    if (!g->deps) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    for (size_t d = 0; d < set->count; d++) {
        int mentioned[DEP_SYMBOLS_MAX];
        size_t k = dep_symbols(set->deps[d].expr, mentioned, DEP_SYMBOLS_MAX);
        bool in = only >= 0 ? (int)d == only : false;
        for (size_t i = 0; i < k && !in && only < 0; i++)
            for (size_t j = 0; j < n && !in; j++)
                in = mentioned[i] == symbols[j];
        if (in)
            g->deps[g->dep_count++] = d;
    }
    return group_compute(set, order, g, err, err_len);
}

int dep_policy_compute(const dep_set *set, dep_order order, dep_policy *out, char *err, size_t err_len) {
    out->groups = NULL;
    out->count = 0;
    size_t symbol_count = set->ev.count;
    int *root = malloc((symbol_count + 1) * sizeof *root);
    bool *mentioned = calloc(symbol_count + 1, 1);
    if (!root || !mentioned) {
        free(root);
        free(mentioned);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    for (size_t s = 0; s < symbol_count; s++)
        root[s] = (int)s;
    /* events of one dependency are one group (union-find over symbols) */
    for (size_t d = 0; d < set->count; d++) {
        int symbols[DEP_SYMBOLS_MAX];
        size_t k = dep_symbols(set->deps[d].expr, symbols, DEP_SYMBOLS_MAX);
        for (size_t i = 0; i < k && i < DEP_SYMBOLS_MAX; i++) {
            mentioned[symbols[i]] = true;
            int a = symbols[0], b = symbols[i];
            while (root[a] != a)
                a = root[a];
            while (root[b] != b)
                b = root[b];
            root[b] = a;
        }
    }
    int rc = check_set(set, err, err_len);
    int component[DEP_POLICY_EVENTS_MAX + 1];
    for (size_t s = 0; s < symbol_count && rc == 0; s++) {
        int r = (int)s;
        while (root[r] != r)
            r = root[r];
        if (!mentioned[s] || r != (int)s)
            continue;
        size_t n = 0;
        for (size_t t = 0; t < symbol_count && n <= DEP_POLICY_EVENTS_MAX; t++) {
            int q = (int)t;
            while (root[q] != q)
                q = root[q];
            if (q == r && mentioned[t])
                component[n++] = (int)t;
        }
        bool split = n > DEP_POLICY_EVENTS_MAX;
        if (!split) {
            rc = add_group(set, order, out, component, n, -1, err, err_len);
            continue;
        }
        for (size_t d = 0; d < set->count && rc == 0; d++) {
            int symbols[DEP_SYMBOLS_MAX];
            size_t k = dep_symbols(set->deps[d].expr, symbols, DEP_SYMBOLS_MAX);
            if (k == 0)
                continue;
            int q = symbols[0];
            while (root[q] != q)
                q = root[q];
            if (q == r)
                rc = add_group(set, order, out, symbols, k, (int)d, err, err_len);
        }
    }
    free(root);
    free(mentioned);
    if (rc != 0)
        dep_policy_free(out);
    return rc;
}

void dep_policy_free(dep_policy *p) {
    for (size_t i = 0; i < p->count; i++)
        group_free(&p->groups[i]);
    free(p->groups);
    p->groups = NULL;
    p->count = 0;
}

const dep_group *dep_policy_next_group(const dep_policy *p, int symbol, size_t *from, size_t *index) {
    for (size_t i = *from; i < p->count; i++)
        for (size_t j = 0; j < p->groups[i].n; j++)
            if (p->groups[i].symbols[j] == symbol) {
                *from = i;
                *index = j;
                return &p->groups[i];
            }
    return NULL;
}

void dep_cover_print(const dep_events *ev, const dep_group *g, const dep_cover *c, buf *out) {
    if (c->count == 0)
        buf_puts(out, "0");
    for (size_t k = 0; k < c->count; k++) {
        if (k)
            buf_puts(out, " | ");
        if (!c->cubes[k].occurred && !c->cubes[k].pending)
            buf_puts(out, "T");
        bool first = true;
        for (size_t i = 0; i < g->n; i++) {
            uint32_t bit = 1u << i;
            if (!((c->cubes[k].occurred | c->cubes[k].pending) & bit))
                continue;
            buf_printf(out, "%s%s%s", first ? "" : " & ", (c->cubes[k].occurred & bit) ? "[]" : "!", ev->names[g->symbols[i]]);
            first = false;
        }
    }
}
