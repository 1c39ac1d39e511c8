/* rule.c: compiles N3 rules into body atoms, head templates and per-delta-atom join plans, and reports
 * rules that can never fire instead of dropping them silently. */
#include "reason/rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "reason/sentry_ast.h"

bool rule_statement(const terms *t, const triple *statement) {
    return statement->p == T_LOG_IMPLIES && terms_kind(t, statement->s) == TERM_FORMULA &&
           terms_kind(t, statement->o) == TERM_FORMULA;
}

static bool is_negation(const terms *t, const triple *b) {
    if (terms_kind(t, b->p) != TERM_IRI)
        return false;
    size_t len;
    const char *iri = terms_lex(t, b->p, &len);
    return len == sizeof NS_LOG "notIncludes" - 1 && memcmp(iri, NS_LOG "notIncludes", len) == 0;
}

static int slot_of(const rule *r, term_id var) {
    for (unsigned i = 0; i < r->var_count; i++)
        if (r->vars[i] == var)
            return (int)i;
    return -1;
}

static bool is_variable_like(const terms *t, term_id id) {
    enum term_kind k = terms_kind(t, id);
    return k == TERM_VAR || k == TERM_BNODE;
}

/* Registers every variable (and, in the body, blank node) inside term id, recursing into lists and
 * formulas. Returns false when the rule has too many variables. */
static bool collect_vars(rule *r, const terms *t, term_id id, bool bnodes_are_vars) {
    enum term_kind k = terms_kind(t, id);
    if (k == TERM_VAR || (k == TERM_BNODE && bnodes_are_vars)) {
        if (slot_of(r, id) >= 0)
            return true;
        if (r->var_count == RULE_MAX_VARS)
            return false;
        r->vars[r->var_count++] = id;
        return true;
    }
    size_t n;
    if (k == TERM_LIST) {
        const term_id *items = terms_list_items(t, id, &n);
        for (size_t i = 0; i < n; i++)
            if (!collect_vars(r, t, items[i], bnodes_are_vars))
                return false;
    } else if (k == TERM_FORMULA) {
        const triple *ts = terms_formula_triples(t, id, &n);
        for (size_t i = 0; i < n; i++)
            if (!collect_vars(r, t, ts[i].s, false) || !collect_vars(r, t, ts[i].p, false) ||
                !collect_vars(r, t, ts[i].o, false))
                return false;
    }
    return true;
}

/* True when every variable inside term id has its slot set in `bound` (a bit set over slots). */
static bool vars_bound(const rule *r, const terms *t, term_id id, uint64_t bound) {
    enum term_kind k = terms_kind(t, id);
    int slot = slot_of(r, id);
    if (slot >= 0 && (k == TERM_VAR || k == TERM_BNODE))
        return bound >> slot & 1;
    size_t n;
    if (k == TERM_LIST) {
        const term_id *items = terms_list_items(t, id, &n);
        for (size_t i = 0; i < n; i++)
            if (!vars_bound(r, t, items[i], bound))
                return false;
    } else if (k == TERM_FORMULA) {
        const triple *ts = terms_formula_triples(t, id, &n);
        for (size_t i = 0; i < n; i++)
            if (!vars_bound(r, t, ts[i].s, bound) || !vars_bound(r, t, ts[i].p, bound) ||
                !vars_bound(r, t, ts[i].o, bound))
                return false;
    }
    return true;
}

static uint64_t vars_in(const rule *r, const terms *t, term_id id) {
    enum term_kind k = terms_kind(t, id);
    int slot = slot_of(r, id);
    if (slot >= 0 && (k == TERM_VAR || k == TERM_BNODE))
        return (uint64_t)1 << slot;
    uint64_t set = 0;
    size_t n;
    if (k == TERM_LIST) {
        const term_id *items = terms_list_items(t, id, &n);
        for (size_t i = 0; i < n; i++)
            set |= vars_in(r, t, items[i]);
    } else if (k == TERM_FORMULA) {
        const triple *ts = terms_formula_triples(t, id, &n);
        for (size_t i = 0; i < n; i++)
            set |= vars_in(r, t, ts[i].s) | vars_in(r, t, ts[i].p) | vars_in(r, t, ts[i].o);
    }
    return set;
}

static bool builtin_ready(const rule_atom *a, bool s_bound, bool o_bound) {
    (void)a;
    switch (a->builtin->mode) {
    case BUILTIN_SUBJECT_IN: return s_bound;
    case BUILTIN_OBJECT_IN: return o_bound;
    case BUILTIN_BOTH_IN: return s_bound && o_bound;
    default: return s_bound || o_bound;
    }
}

typedef struct compile_ctx {
    rule *r;
    const terms *t;
    const triple *body; /* the body formula's triples, parallel to r->body */
} compile_ctx;

/* Greedy join order starting from atom `first` (or from nothing when first < 0): builtins as soon as
 * they can run, then the atom with the most bound positions. Returns false when a builtin never becomes
 * ready; *stuck names it. */
static bool plan_order(compile_ctx *cc, int first, unsigned *order, unsigned *stuck) {
    rule *r = cc->r;
    bool *placed = xcalloc(r->body_count, sizeof *placed);
    uint64_t bound = 0;
    unsigned n = 0;
    if (first >= 0) {
        order[n++] = (unsigned)first;
        placed[first] = true;
        const triple *b = &cc->body[first];
        bound |= vars_in(r, cc->t, b->s) | vars_in(r, cc->t, b->p) | vars_in(r, cc->t, b->o);
    }
    while (n < r->body_count) {
        int best = -1, best_score = -1;
        for (unsigned i = 0; i < r->body_count; i++) {
            if (placed[i])
                continue;
            const triple *b = &cc->body[i];
            bool sb = vars_bound(r, cc->t, b->s, bound), pb = vars_bound(r, cc->t, b->p, bound),
                 ob = vars_bound(r, cc->t, b->o, bound);
            int score;
            if (r->body[i].kind == ATOM_NOT) /* a cheap test: as early as it can run */
                score = (r->body[i].needs & ~bound) == 0 ? 101 : -1;
            else if (r->body[i].builtin)
                score = builtin_ready(&r->body[i], sb, ob) ? 100 : -1;
            else
                score = sb * 3 + ob * 2 + pb; /* subjects and objects are more selective than predicates */
            if (score > best_score) {
                best = (int)i;
                best_score = score;
            }
        }
        if (best_score < 0) {
            for (unsigned i = 0; i < r->body_count; i++)
                if (!placed[i])
                    *stuck = i;
            free(placed);
            return false;
        }
        order[n++] = (unsigned)best;
        placed[best] = true;
        const triple *b = &cc->body[best];
        if (r->body[best].kind != ATOM_NOT) /* a negation binds nothing */
            bound |= vars_in(r, cc->t, b->s) | vars_in(r, cc->t, b->p) | vars_in(r, cc->t, b->o);
    }
    free(placed);
    return true;
}

static pos_code encode(const rule *r, const terms *t, term_id id, bool *structured) {
    *structured = false;
    int slot = slot_of(r, id);
    if (slot >= 0 && is_variable_like(t, id))
        return -(pos_code)slot - 1;
    enum term_kind k = terms_kind(t, id);
    if ((k == TERM_LIST || k == TERM_FORMULA) && vars_in(r, t, id))
        *structured = true;
    return (pos_code)id;
}

static char *term_text(const terms *t, term_id id) {
    buf b = {0};
    if (terms_kind(t, id) == TERM_IRI) {
        size_t len;
        const char *s = terms_lex(t, id, &len);
        buf_append(&b, s, len);
    } else {
        buf_puts(&b, "(term)");
    }
    return buf_cstr(&b);
}

static void disable(rule *r, const log_sink *log, const char *what) {
    r->disabled = true;
    log_msg(log, LOG_WARN, "rule %s can never fire: %s", r->name, what);
}

/* A builtin predicate makes the atom a BUILTIN (evaluated, not matched); an unknown IRI of a builtin
 * namespace disables the rule, naming it: a misspelt builtin must not silently match nothing. */
static void classify_atom(rule *r, terms *t, term_id predicate, rule_atom *a, const log_sink *log) {
    if (terms_kind(t, predicate) != TERM_IRI)
        return;
    const char *iri = terms_lex(t, predicate, NULL);
    a->builtin = builtin_lookup(iri);
    a->kind = a->builtin ? ATOM_BUILTIN : ATOM_MATCH;
    if (!a->builtin && builtin_namespace(iri)) {
        char *what = term_text(t, predicate);
        buf msg = {0};
        buf_printf(&msg, "builtin <%s> is not implemented", what);
        disable(r, log, buf_cstr(&msg));
        buf_free(&msg);
        free(what);
    }
}

/* `?scope log:notIncludes { patterns }` with a variable or blank-node scope: negation as failure over the
 * store (EYE's scoped negation with the whole working memory as the scope). The patterns become a group of
 * atoms, evaluated in their order: matched against the store, or builtins evaluated (`?a math:greaterThan
 * 18` inside is a test, not a triple to look for); the variables they share with the rest of the body must
 * be bound before it is tested, the others match anything. */
static void compile_negation(rule *r, terms *t, const triple *b, rule_atom *a, uint64_t bound_outside,
                             const log_sink *log) {
    a->kind = ATOM_NOT;
    if (!is_variable_like(t, b->s) || terms_kind(t, b->o) != TERM_FORMULA) {
        disable(r, log, "log:notIncludes needs a variable or blank node as its scope (the working memory) "
                        "and a formula as its object");
        return;
    }
    size_t n;
    const triple *ts = terms_formula_triples(t, b->o, &n);
    a->groups = xcalloc(1, sizeof *a->groups);
    a->group_count = 1;
    a->groups[0].atoms = xcalloc(n ? n : 1, sizeof *a->groups[0].atoms);
    a->groups[0].count = (unsigned)n;
    for (size_t i = 0; i < n; i++) {
        rule_atom *inner = &a->groups[0].atoms[i];
        term_id parts[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++)
            inner->pos[k] = encode(r, t, parts[k], &inner->structured[k]);
        classify_atom(r, t, ts[i].p, inner, log);
    }
    a->needs = vars_in(r, t, b->o) & bound_outside;
    r->has_negation = true;
    r->layer = 1;
}

static void compile_rule(rule *r, terms *t, const n3_statement *st, const char *source, const log_sink *log) {
    buf name = {0};
    buf_printf(&name, "%s:%u:%u", source, st->line, st->col);
    r->name = buf_cstr(&name);
    size_t body_n, head_n;
    const triple *body = terms_formula_triples(t, st->t.s, &body_n);
    const triple *head = terms_formula_triples(t, st->t.o, &head_n);
    r->head_formula = st->t.o;

    for (size_t i = 0; i < body_n; i++) {
        bool ok = collect_vars(r, t, body[i].s, true) && collect_vars(r, t, body[i].p, true) &&
                  collect_vars(r, t, body[i].o, true);
        /* blank nodes of a negated formula are its own variables: "no match for any value" */
        size_t inner_n = 0;
        const triple *inner = is_negation(t, &body[i]) && terms_kind(t, body[i].o) == TERM_FORMULA
                                  ? terms_formula_triples(t, body[i].o, &inner_n)
                                  : NULL;
        for (size_t k = 0; ok && k < inner_n; k++)
            ok = collect_vars(r, t, inner[k].s, true) && collect_vars(r, t, inner[k].p, true) &&
                 collect_vars(r, t, inner[k].o, true);
        if (!ok) {
            disable(r, log, "more than 64 variables");
            return;
        }
    }
    unsigned body_var_count = r->var_count;
    uint64_t bound_outside_negation = 0;
    for (size_t i = 0; i < body_n; i++)
        if (!is_negation(t, &body[i]))
            bound_outside_negation |= vars_in(r, t, body[i].s) | vars_in(r, t, body[i].p) | vars_in(r, t, body[i].o);

    r->body_count = (unsigned)body_n;
    r->body = xcalloc(body_n, sizeof *r->body);
    for (size_t i = 0; i < body_n; i++) {
        rule_atom *a = &r->body[i];
        term_id parts[3] = {body[i].s, body[i].p, body[i].o};
        for (int k = 0; k < 3; k++)
            a->pos[k] = encode(r, t, parts[k], &a->structured[k]);
        if (is_negation(t, &body[i])) {
            compile_negation(r, t, &body[i], a, bound_outside_negation, log);
            continue;
        }
        classify_atom(r, t, body[i].p, a, log);
        if (!a->builtin)
            r->matched_count++;
    }

    r->head_count = (unsigned)head_n;
    r->head = xmalloc((head_n ? head_n : 1) * sizeof *r->head);
    memcpy(r->head, head, head_n * sizeof *head);
    uint64_t head_var_set = 0;
    for (size_t i = 0; i < head_n; i++) {
        term_id parts[3] = {head[i].s, head[i].p, head[i].o};
        for (int k = 0; k < 3; k++) {
            term_id id = parts[k];
            enum term_kind kind = terms_kind(t, id);
            int slot = slot_of(r, id);
            if (kind == TERM_VAR && (slot < 0 || !(bound_outside_negation >> slot & 1))) {
                buf msg = {0};
                buf_printf(&msg, "head variable ?%s is not bound by the body%s", terms_lex(t, id, NULL),
                           slot >= 0 ? " (only inside a log:notIncludes formula)" : "");
                disable(r, log, buf_cstr(&msg));
                buf_free(&msg);
                return;
            }
            if (kind == TERM_BNODE && slot < 0) {
                bool known = false;
                for (unsigned e = 0; e < r->existential_count; e++)
                    known |= r->existentials[e] == id;
                if (!known && r->existential_count == RULE_MAX_VARS) {
                    disable(r, log, "more than 64 blank nodes in the head");
                    return;
                }
                if (!known) {
                    r->existentials = xrealloc(r->existentials, (r->existential_count + 1) * sizeof(term_id));
                    r->existentials[r->existential_count++] = id;
                }
            }
            head_var_set |= vars_in(r, t, id);
        }
    }
    r->var_count = body_var_count;
    r->head_codes = xcalloc(head_n ? head_n : 1, sizeof *r->head_codes);
    for (size_t i = 0; i < head_n; i++) {
        term_id parts[3] = {head[i].s, head[i].p, head[i].o};
        for (int k = 0; k < 3; k++) {
            rule_atom *code = &r->head_codes[i];
            code->pos[k] = encode(r, t, parts[k], &code->structured[k]);
            for (unsigned e = 0; e < r->existential_count; e++)
                if (r->existentials[e] == parts[k])
                    code->pos[k] = HEAD_EXISTENTIAL(e);
            /* existentials inside lists need the general instantiation */
            if (terms_kind(t, parts[k]) == TERM_LIST && r->existential_count)
                code->structured[k] = true;
            r->head_structured |= code->structured[k];
        }
    }
    r->head_vars = xmalloc(RULE_MAX_VARS * sizeof *r->head_vars);
    for (unsigned s = 0; s < r->var_count; s++)
        if (head_var_set >> s & 1)
            r->head_vars[r->head_var_count++] = s;

    compile_ctx cc = {.r = r, .t = t, .body = body};
    unsigned plan_count = r->matched_count ? r->matched_count : 1;
    r->plans = xcalloc(plan_count, sizeof *r->plans);
    unsigned p = 0;
    for (unsigned i = 0; i < r->body_count || (r->matched_count == 0 && p == 0); i++) {
        if (r->matched_count && r->body[i].kind != ATOM_MATCH)
            continue;
        unsigned *order = xmalloc((r->body_count ? r->body_count : 1) * sizeof *order);
        unsigned stuck = 0;
        if (!plan_order(&cc, r->matched_count ? (int)i : -1, order, &stuck)) {
            free(order);
            if (!r->disabled) {
                char *what = term_text(t, body[stuck].p);
                buf msg = {0};
                buf_printf(&msg, "builtin <%s> cannot be evaluated: its input is never bound", what);
                disable(r, log, buf_cstr(&msg));
                buf_free(&msg);
                free(what);
            }
            return;
        }
        r->plans[p++] = order;
        if (r->matched_count == 0)
            break;
    }
}

unsigned rule_set_add_program(rule_set *rs, terms *t, const n3_doc *doc, const char *source, const log_sink *log) {
    unsigned added = 0;
    for (size_t i = 0; i < doc->count; i++) {
        if (!rule_statement(t, &doc->statements[i].t))
            continue;
        rule *r = xcalloc(1, sizeof *r);
        compile_rule(r, t, &doc->statements[i], source, log);
        rule_set_add(rs, r);
        added++;
    }
    return added;
}

/* The highest layer among the rules of `stratum` deriving predicate p (0 when none does); a head with a
 * variable predicate derives every predicate. */
static unsigned producer_layer(const rule_set *rs, int stratum, pos_code p) {
    unsigned layer = 0;
    for (unsigned i = 0; i < rs->count; i++) {
        const rule *r = rs->rules[i];
        if (r->disabled || r->stratum != stratum || r->is_request)
            continue;
        for (unsigned h = 0; h < r->head_count; h++) {
            pos_code hp = r->head_codes[h].pos[1];
            if ((p <= 0 || hp <= 0 || hp == p) && r->layer > layer)
                layer = r->layer;
        }
    }
    return layer;
}

static unsigned layer_needed(const rule_set *rs, const rule *r) {
    unsigned need = r->has_negation ? 1 : 0;
    for (unsigned b = 0; b < r->body_count; b++) {
        const rule_atom *a = &r->body[b];
        if (a->kind == ATOM_MATCH) {
            unsigned l = producer_layer(rs, r->stratum, a->pos[1]);
            need = l > need ? l : need;
        } else if (a->kind == ATOM_NOT) {
            for (unsigned k = 0; k < a->groups[0].count; k++) {
                if (a->groups[0].atoms[k].kind != ATOM_MATCH)
                    continue; /* a builtin: nothing produces it */
                unsigned l = producer_layer(rs, r->stratum, a->groups[0].atoms[k].pos[1]) + 1;
                need = l > need ? l : need;
            }
        }
    }
    return need;
}

int rule_set_layer_negation(rule_set *rs, char *error, size_t error_len) {
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < rs->count; i++) {
            rule *r = rs->rules[i];
            if (r->disabled)
                continue;
            unsigned need = layer_needed(rs, r);
            if (need <= r->layer)
                continue;
            if (need > rs->count) {
                snprintf(error, error_len, "rule %s: its negation (log:notIncludes) depends on its own result, "
                                           "so the program is not stratifiable", r->name);
                return -1;
            }
            r->layer = need;
            changed = true;
        }
    }
    return 0;
}

void rule_set_add(rule_set *rs, rule *r) {
    r->index = rs->count;
    if (rs->count == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 16;
        rs->rules = xrealloc(rs->rules, rs->cap * sizeof *rs->rules);
    }
    rs->rules[rs->count++] = r;
}

static void free_atoms(rule_atom *atoms, unsigned count) {
    for (unsigned i = 0; i < count; i++) {
        for (unsigned g = 0; g < atoms[i].group_count; g++)
            free_atoms(atoms[i].groups[g].atoms, atoms[i].groups[g].count);
        free(atoms[i].groups);
    }
    free(atoms);
}

void rule_free(rule *r) {
    unsigned plan_count = r->matched_count ? r->matched_count : 1;
    if (r->plans)
        for (unsigned i = 0; i < plan_count; i++)
            free(r->plans[i]);
    free(r->plans);
    free_atoms(r->body, r->body_count);
    if (r->sentry_tree)
        sq_node_free(r->sentry_tree);
    free(r->head);
    free(r->head_codes);
    free(r->existentials);
    free(r->head_vars);
    free(r->name);
    free(r);
}

void rule_set_free(rule_set *rs) {
    for (unsigned i = 0; i < rs->count; i++)
        rule_free(rs->rules[i]);
    free(rs->rules);
    *rs = (rule_set){0};
}
