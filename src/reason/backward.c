/* backward.c: backward rules compiled to demand-driven forward rules (backward.h). */
#include "reason/backward.h"

#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

#define DEMAND_PREFIX "urn:ldgsm:demand:"
#define ANY_IRI "urn:ldgsm:any"

/* Which sides of a goal are given: the demand predicates' suffixes, in adornment order. */
static const char *const adornments[4] = {"ff", "bf", "fb", "bb"};

typedef struct var_set {
    term_id *ids;
    size_t count, cap;
} var_set;

static bool var_set_has(const var_set *v, term_id id) {
    for (size_t i = 0; i < v->count; i++)
        if (v->ids[i] == id)
            return true;
    return false;
}

/* Adds the variables and blank nodes of term id, in lists and formulas too. */
static void add_vars(const terms *t, term_id id, var_set *v) {
    enum term_kind k = terms_kind(t, id);
    size_t n;
    if (k == TERM_VAR || k == TERM_BNODE) {
        if (var_set_has(v, id))
            return;
        if (v->count == v->cap) {
            v->cap = v->cap ? v->cap * 2 : 16;
            v->ids = xrealloc(v->ids, v->cap * sizeof *v->ids);
        }
        v->ids[v->count++] = id;
    } else if (k == TERM_LIST) {
        const term_id *items = terms_list_items(t, id, &n);
        for (size_t i = 0; i < n; i++)
            add_vars(t, items[i], v);
    } else if (k == TERM_FORMULA) {
        const triple *ts = terms_formula_triples(t, id, &n);
        for (size_t i = 0; i < n; i++) {
            add_vars(t, ts[i].s, v);
            add_vars(t, ts[i].p, v);
            add_vars(t, ts[i].o, v);
        }
    }
}

/* True when every variable of term id is in v. */
static bool all_bound(const terms *t, term_id id, const var_set *v) {
    var_set inside = {0};
    add_vars(t, id, &inside);
    bool bound = true;
    for (size_t i = 0; i < inside.count && bound; i++)
        bound = var_set_has(v, inside.ids[i]);
    free(inside.ids);
    return bound;
}

static bool is_predicate(const terms *t, term_id p, const char *iri) {
    return terms_kind(t, p) == TERM_IRI && strcmp(terms_lex(t, p, NULL), iri) == 0;
}

/* What an atom written as triple tr binds for the atoms after it. */
static void add_bound_by(const terms *t, const triple *tr, var_set *v) {
    if (is_predicate(t, tr->p, LOG_notIncludes) || is_predicate(t, tr->p, LOG_forAllIn))
        return;
    size_t n;
    if (is_predicate(t, tr->p, LOG_collectAllIn) && terms_kind(t, tr->s) == TERM_LIST &&
        terms_list_items(t, tr->s, &n) && n == 3) {
        add_vars(t, terms_list_items(t, tr->s, &n)[2], v);
        return;
    }
    add_vars(t, tr->s, v);
    add_vars(t, tr->p, v);
    add_vars(t, tr->o, v);
}

typedef struct demand_ctx {
    rule_set *rs;
    terms *t;
    const log_sink *log;
    term_id any;
    term_id *predicates; /* the predicates backward rules conclude */
    unsigned predicate_count;
} demand_ctx;

static bool concluded_backward(const demand_ctx *d, term_id p) {
    for (unsigned i = 0; i < d->predicate_count; i++)
        if (d->predicates[i] == p)
            return true;
    return false;
}

static int by_id(const void *a, const void *b) {
    term_id x = *(const term_id *)a, y = *(const term_id *)b;
    return (x > y) - (x < y);
}

/* The demand predicate of predicate p when its subject is given or not, its object given or not. */
static term_id demand_predicate(demand_ctx *d, term_id p, bool subject_given, bool object_given) {
    buf iri = {0};
    buf_printf(&iri, DEMAND_PREFIX "%s:%s", adornments[subject_given + 2 * object_given], terms_lex(d->t, p, NULL));
    term_id id = terms_iri(d->t, iri.data, iri.len);
    buf_free(&iri);
    rule_set *rs = d->rs;
    if (!rule_set_hides(rs, id)) {
        rs->hidden = xrealloc(rs->hidden, (rs->hidden_count + 1) * sizeof *rs->hidden);
        rs->hidden[rs->hidden_count++] = id;
        qsort(rs->hidden, rs->hidden_count, sizeof *rs->hidden, by_id);
    }
    return id;
}

static rule *compile(demand_ctx *d, const triple *body, size_t body_n, const triple *head, size_t head_n,
                     const char *name, const log_sink *log) {
    term_id body_formula = terms_formula(d->t, body, body_n), head_formula = terms_formula(d->t, head, head_n);
    return rule_compile(d->t, body_formula, head_formula, name, log);
}

static void add_rule(demand_ctx *d, const triple *body, size_t body_n, const triple *head, size_t head_n,
                     const char *name) {
    rule_set_add(d->rs, compile(d, body, body_n, head, head_n, name, d->log));
}

/* The demand rules of rule r: for each pattern on a predicate concluded backward, in the order the rule's
 * join visits its atoms from `first` on (the demand atom of a rule answering one), the goal it asks from
 * what the atoms before it bind. */
static void add_demand_rules(demand_ctx *d, const rule *r, unsigned first) {
    if (r->disabled || !r->plans)
        return;
    const unsigned *order = r->plans[0];
    for (unsigned p = 0; p < (r->matched_count ? r->matched_count : 1); p++)
        if (r->plans[p][0] == first)
            order = r->plans[p];
    var_set bound = {0};
    triple *prefix = xmalloc((r->body_count ? r->body_count : 1) * sizeof *prefix);
    for (unsigned k = 0; k < r->body_count; k++) {
        const triple *tr = &r->body_triples[order[k]];
        if (r->body[order[k]].kind == ATOM_MATCH && concluded_backward(d, tr->p)) {
            bool subject_given = all_bound(d->t, tr->s, &bound), object_given = all_bound(d->t, tr->o, &bound);
            triple goal = {subject_given ? tr->s : d->any, demand_predicate(d, tr->p, subject_given, object_given),
                           object_given ? tr->o : d->any};
            buf name = {0};
            buf_printf(&name, "%s (the goal of its atom %u)", r->name, k + 1);
            add_rule(d, prefix, k, &goal, 1, buf_cstr(&name));
            buf_free(&name);
        }
        prefix[k] = *tr;
        add_bound_by(d->t, tr, &bound);
    }
    free(prefix);
    free(bound.ids);
}

void rule_set_compile_backward(rule_set *rs, terms *t, const log_sink *log) {
    if (!rs->backward_count)
        return;
    demand_ctx d = {.rs = rs, .t = t, .log = log, .any = terms_iri_cstr(t, ANY_IRI)};
    d.predicates = xmalloc(rs->backward_count * sizeof *d.predicates);
    for (unsigned i = 0; i < rs->backward_count; i++) {
        size_t n;
        term_id p = terms_formula_triples(t, rs->backward[i].head, &n)[0].p;
        if (!concluded_backward(&d, p))
            d.predicates[d.predicate_count++] = p;
    }
    unsigned forward = rs->count;
    /* each backward rule, once per kind of goal: its body after the goal it answers */
    unsigned *goal_atom = xmalloc(rs->backward_count * 4 * sizeof *goal_atom);
    for (unsigned i = 0; i < rs->backward_count; i++) {
        const backward_rule *b = &rs->backward[i];
        size_t body_n, head_n;
        const triple *body = terms_formula_triples(t, b->body, &body_n);
        const triple *head = terms_formula_triples(t, b->head, &head_n);
        triple *with_goal = xmalloc((body_n + 1) * sizeof *with_goal);
        /* a kind of goal the body cannot answer (its builtins need what the goal leaves open) is no error;
         * the rule is reported when it can answer none */
        const log_sink quiet = {.threshold = LOG_ERROR};
        bool answers_some = false;
        for (int a = 0; a < 4; a++) {
            bool subject_given = a & 1, object_given = a & 2;
            triple goal = {subject_given ? head->s : d.any, demand_predicate(&d, head->p, subject_given, object_given),
                           object_given ? head->o : d.any};
            with_goal[0] = goal;
            memcpy(with_goal + 1, body, body_n * sizeof *body);
            buf name = {0};
            buf_printf(&name, "%s (on demand, %s)", b->name, adornments[a]);
            rule *r = compile(&d, with_goal, body_n + 1, head, head_n, buf_cstr(&name), &quiet);
            rule_set_add(rs, r);
            answers_some |= !r->disabled;
            if (a == 3 && !answers_some) /* compiled again to say why */
                rule_free(compile(&d, with_goal, body_n + 1, head, head_n, buf_cstr(&name), log));
            buf_free(&name);
            /* the compiled body is sorted: find the goal atom again */
            goal_atom[i * 4 + a] = 0;
            for (unsigned k = 0; k < r->body_count; k++)
                if (memcmp(&r->body_triples[k], &goal, sizeof goal) == 0)
                    goal_atom[i * 4 + a] = k;
        }
        free(with_goal);
    }
    unsigned compiled = rs->count;
    for (unsigned i = 0; i < compiled; i++)
        add_demand_rules(&d, rs->rules[i], i < forward ? UINT32_MAX : goal_atom[i - forward]);
    free(goal_atom);
    qsort(d.predicates, d.predicate_count, sizeof *d.predicates, by_id);
    rs->on_demand = d.predicates;
    rs->on_demand_count = d.predicate_count;
    for (unsigned i = 0; i < rs->backward_count; i++)
        free(rs->backward[i].name);
    free(rs->backward);
    rs->backward = NULL;
    rs->backward_count = 0;
}

bool rule_set_on_demand(const rule_set *rs, term_id predicate) {
    return rs->on_demand_count && bsearch(&predicate, rs->on_demand, rs->on_demand_count, sizeof *rs->on_demand, by_id);
}

bool rule_set_hides(const rule_set *rs, term_id predicate) {
    return rs->hidden_count && bsearch(&predicate, rs->hidden, rs->hidden_count, sizeof *rs->hidden, by_id);
}
