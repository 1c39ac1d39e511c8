/* rule.c: compiles N3 rules into body atoms, head templates and per-delta-atom join plans, and reports
 * rules that can never fire instead of dropping them silently. */
#include "reason/rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "reason/sentry_ast.h"

bool rule_statement(const terms *t, const triple *statement) {
    if (statement->p == T_LOG_IS_IMPLIED_BY)
        return terms_kind(t, statement->s) == TERM_FORMULA && terms_kind(t, statement->o) == TERM_FORMULA;
    return statement->p == T_LOG_IMPLIES && terms_kind(t, statement->s) == TERM_FORMULA &&
           (terms_kind(t, statement->o) == TERM_FORMULA || statement->o == T_FALSE);
}

/* A rule statement's body and head: `{B} => {H}`, or `{H} <= {B}` as log:isImpliedBy. */
static void rule_sides(const triple *statement, term_id *body, term_id *head) {
    bool backward = statement->p == T_LOG_IS_IMPLIED_BY;
    *body = backward ? statement->o : statement->s;
    *head = backward ? statement->s : statement->o;
}

static bool is_iri(const terms *t, term_id id, const char *iri) {
    if (terms_kind(t, id) != TERM_IRI)
        return false;
    size_t len;
    const char *text = terms_lex(t, id, &len);
    return len == strlen(iri) && memcmp(text, iri, len) == 0;
}

/* ATOM_NOT for log:notIncludes, ATOM_INCLUDES for log:includes: atoms whose object is a formula of
 * patterns looked for in a scope; ATOM_COLLECT and ATOM_FORALL for log:collectAllIn and log:forAllIn,
 * whose subject lists such formulas; ATOM_MATCH for any other. */
static enum atom_kind scope_kind(const terms *t, const triple *b) {
    if (is_iri(t, b->p, LOG_notIncludes))
        return ATOM_NOT;
    if (is_iri(t, b->p, LOG_collectAllIn))
        return ATOM_COLLECT;
    if (is_iri(t, b->p, LOG_forAllIn))
        return ATOM_FORALL;
    return is_iri(t, b->p, NS_LOG "includes") ? ATOM_INCLUDES : ATOM_MATCH;
}

/* Atoms that bind nothing outside them: a negation, a test over all matches. */
static bool binds_nothing(enum atom_kind kind) { return kind == ATOM_NOT || kind == ATOM_FORALL; }

/* True when position k of body triple b is a formula written where a builtin reads one: a builtin's
 * argument, or the scope of log:includes, log:notIncludes, log:collectAllIn or log:forAllIn. Such a
 * formula is quoted: the rule's bindings of its variables are put into it before it is read (`{ ?x :q :z }`
 * with ?x bound to :a is the formula `{ :a :q :z }`, as EYE reads it), and it binds nothing; its variables
 * bound nowhere else in the body are its own. */
static bool quoted_at(const terms *t, const triple *b, int k) {
    if (k == 1 || terms_kind(t, k == 0 ? b->s : b->o) != TERM_FORMULA)
        return false;
    enum atom_kind kind = scope_kind(t, b);
    if (kind == ATOM_NOT || kind == ATOM_INCLUDES)
        return k == 0; /* the object is the patterns looked for */
    if (kind == ATOM_COLLECT || kind == ATOM_FORALL)
        return k == 2;
    return terms_kind(t, b->p) == TERM_IRI && builtin_lookup(terms_lex(t, b->p, NULL));
}

/* The formulas an ATOM_COLLECT or ATOM_FORALL statement looks for matches of: in its subject list. */
static void quantified_formulas(const terms *t, const triple *b, term_id formulas[2], size_t *count) {
    *count = 0;
    size_t n;
    const term_id *items = terms_kind(t, b->s) == TERM_LIST ? terms_list_items(t, b->s, &n) : NULL;
    enum atom_kind kind = scope_kind(t, b);
    if (kind == ATOM_COLLECT && items && n == 3 && terms_kind(t, items[1]) == TERM_FORMULA) {
        formulas[(*count)++] = items[1];
    } else if (kind == ATOM_FORALL && items && n == 2 && terms_kind(t, items[0]) == TERM_FORMULA &&
               terms_kind(t, items[1]) == TERM_FORMULA) {
        formulas[(*count)++] = items[0];
        formulas[(*count)++] = items[1];
    }
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
        r->bnode_vars |= k == TERM_BNODE;
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
            /* a quoted formula is given once the variables the rest of the body binds in it are (needs) */
            bool sb = r->body[i].quoted[0] || vars_bound(r, cc->t, b->s, bound),
                 pb = vars_bound(r, cc->t, b->p, bound),
                 ob = r->body[i].quoted[2] || vars_bound(r, cc->t, b->o, bound);
            bool needs_met = (r->body[i].needs & ~bound) == 0;
            int score;
            enum atom_kind kind = r->body[i].kind;
            if (kind == ATOM_NOT || kind == ATOM_INCLUDES || kind == ATOM_COLLECT || kind == ATOM_FORALL)
                score = needs_met ? 101 : -1; /* as early as it can run */
            else if (r->body[i].builtin)
                score = needs_met && builtin_ready(&r->body[i], sb, ob) ? 100 : -1;
            else
                score = sb * 3 + ob * 2 + pb; /* subjects and objects are more selective than predicates */
            if (score > best_score) {
                best = (int)i;
                best_score = score;
            }
        }
        /* a builtin that takes a subject with unbound variables runs when nothing else can */
        for (unsigned i = 0; i < r->body_count && best_score < 0; i++)
            if (!placed[i] && r->body[i].builtin && r->body[i].builtin->open_subject && r->body[i].structured[0]) {
                best = (int)i;
                best_score = 0;
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
        const rule_atom *a = &r->body[best];
        if (a->kind == ATOM_COLLECT) /* its template and pattern variables stay its own */
            bound |= vars_in(r, cc->t, (term_id)(a->result > 0 ? a->result : 0)) |
                     (a->result < 0 ? (uint64_t)1 << (-a->result - 1) : 0);
        else if (!binds_nothing(a->kind))
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
    a->iri_lists = a->builtin && strncmp(iri, NS_LOG, strlen(NS_LOG)) != 0; /* log: takes IRIs as names */
    if (!a->builtin && builtin_namespace(iri)) {
        char *what = term_text(t, predicate);
        buf msg = {0};
        buf_printf(&msg, "builtin <%s> is not implemented", what);
        disable(r, log, buf_cstr(&msg));
        buf_free(&msg);
        free(what);
    }
}

/* The atoms of a formula's patterns, for a group looked for in a scope. */
static void compile_group(rule *r, terms *t, term_id formula, rule_seq *group, const log_sink *log) {
    size_t n;
    const triple *ts = terms_formula_triples(t, formula, &n);
    group->atoms = xcalloc(n ? n : 1, sizeof *group->atoms);
    group->count = (unsigned)n;
    for (size_t i = 0; i < n; i++) {
        rule_atom *inner = &group->atoms[i];
        term_id parts[3] = {ts[i].s, ts[i].p, ts[i].o};
        for (int k = 0; k < 3; k++)
            inner->pos[k] = encode(r, t, parts[k], &inner->structured[k]);
        classify_atom(r, t, ts[i].p, inner, log);
    }
}

/* `?scope log:notIncludes { patterns }` and `?f log:includes { patterns }`. The patterns become a group
 * of atoms evaluated in their order: matched, or builtins evaluated (`?a math:greaterThan 18` inside is a
 * test, not a triple to look for). The scope is a formula, written or bound by the rest of the body, whose
 * triples the patterns match; for log:notIncludes, a variable or blank node that nothing else binds is the
 * working memory (EYE's scoped negation as failure), which makes the rule a negation to stratify. The
 * pattern variables shared with the rest of the body must be bound before a negation is tested; the
 * others match anything. (log:includes over the working memory is plain conjunction: compile_rule inlines
 * it.) */
static void compile_scoped(rule *r, terms *t, const triple *b, rule_atom *a, enum atom_kind kind,
                           uint64_t bound_elsewhere, const log_sink *log) {
    a->kind = kind;
    const char *name = kind == ATOM_NOT ? "log:notIncludes" : "log:includes";
    buf msg = {0};
    int slot = slot_of(r, b->s);
    bool formula_scope = terms_kind(t, b->s) == TERM_FORMULA ||
                         (is_variable_like(t, b->s) && slot >= 0 && (bound_elsewhere >> slot & 1));
    if (terms_kind(t, b->o) != TERM_FORMULA)
        buf_printf(&msg, "%s needs a formula as its object", name);
    else if (!formula_scope && !(kind == ATOM_NOT && is_variable_like(t, b->s)))
        buf_printf(&msg, "%s needs as its subject a formula, or a variable bound to one%s", name,
                   kind == ATOM_NOT ? " (or, for the working memory, a variable or blank node bound nowhere)" : "");
    if (msg.len) {
        disable(r, log, buf_cstr(&msg));
        buf_free(&msg);
        return;
    }
    a->groups = xcalloc(1, sizeof *a->groups);
    a->group_count = 1;
    compile_group(r, t, b->o, &a->groups[0], log);
    a->scoped = formula_scope;
    /* the scope's variables the body binds (a variable scope is one) go in first, into a quoted one too */
    a->needs = ((kind == ATOM_NOT ? vars_in(r, t, b->o) : 0) | vars_in(r, t, b->s)) & bound_elsewhere;
    if (kind == ATOM_NOT && !formula_scope) {
        r->has_negation = true;
        r->layer = 1;
    }
}

/* `( template { where } ?list ) log:collectAllIn scope` and `( { where } { then } ) log:forAllIn scope`,
 * the scope a formula (written or bound by the rest of the body) or, a variable bound nowhere else, the
 * working memory: then, like a negation, what they read must be complete first (has_negation). The
 * variables they share with the rest of the body are bound before they run; the others are their own. */
static void compile_quantified(rule *r, terms *t, const triple *b, rule_atom *a, enum atom_kind kind,
                               uint64_t bound_elsewhere, const log_sink *log) {
    a->kind = kind;
    term_id formulas[2];
    size_t formula_count;
    quantified_formulas(t, b, formulas, &formula_count);
    int slot = slot_of(r, b->o);
    bool formula_scope = terms_kind(t, b->o) == TERM_FORMULA ||
                         (is_variable_like(t, b->o) && slot >= 0 && (bound_elsewhere >> slot & 1));
    if (!formula_count || (!formula_scope && !is_variable_like(t, b->o))) {
        disable(r, log, kind == ATOM_COLLECT ? "log:collectAllIn needs ( template { where } list ) as its subject "
                                               "and a formula or variable as its scope"
                                             : "log:forAllIn needs ( { where } { then } ) as its subject and a "
                                               "formula or variable as its scope");
        return;
    }
    a->group_count = (unsigned)formula_count;
    a->groups = xcalloc(formula_count, sizeof *a->groups);
    for (size_t g = 0; g < formula_count; g++)
        compile_group(r, t, formulas[g], &a->groups[g], log);
    if (kind == ATOM_COLLECT) {
        size_t n;
        const term_id *items = terms_list_items(t, b->s, &n);
        a->template = encode(r, t, items[0], &a->template_structured);
        a->result = encode(r, t, items[2], &a->result_structured);
    }
    a->scoped = formula_scope;
    uint64_t own = vars_in(r, t, b->s);
    if (kind == ATOM_COLLECT) {
        size_t n;
        own &= ~vars_in(r, t, terms_list_items(t, b->s, &n)[2]);
    }
    a->needs = (own | vars_in(r, t, b->o)) & bound_elsewhere; /* the scope's too, quoted or a variable */
    if (!formula_scope) {
        r->has_negation = true;
        r->layer = 1;
    }
}

/* The variables body atom b binds for the rest of the body: none for a negation or log:forAllIn, the
 * list (and scope) for log:collectAllIn, all of its own for the others, save those only inside a quoted
 * formula (quoted_at). */
static uint64_t vars_bound_by(const rule *r, const terms *t, const triple *b) {
    enum atom_kind kind = scope_kind(t, b);
    if (binds_nothing(kind))
        return 0;
    uint64_t scope = quoted_at(t, b, 2) ? 0 : vars_in(r, t, b->o);
    size_t n;
    if (kind == ATOM_COLLECT && terms_kind(t, b->s) == TERM_LIST && terms_list_items(t, b->s, &n) && n == 3)
        return vars_in(r, t, terms_list_items(t, b->s, &n)[2]) | scope;
    return (quoted_at(t, b, 0) ? 0 : vars_in(r, t, b->s)) | vars_in(r, t, b->p) | scope;
}

/* True when term id is, or holds, `var`. */
static bool occurs_in(const terms *t, term_id var, term_id id) {
    if (id == var)
        return true;
    size_t n;
    enum term_kind k = terms_kind(t, id);
    if (k == TERM_LIST) {
        const term_id *items = terms_list_items(t, id, &n);
        for (size_t i = 0; i < n; i++)
            if (occurs_in(t, var, items[i]))
                return true;
    } else if (k == TERM_FORMULA) {
        const triple *ts = terms_formula_triples(t, id, &n);
        for (size_t i = 0; i < n; i++)
            if (occurs_in(t, var, ts[i].s) || occurs_in(t, var, ts[i].p) || occurs_in(t, var, ts[i].o))
                return true;
    }
    return false;
}

/* The body with each `?s log:includes { patterns }` whose ?s occurs nowhere else (the working memory as
 * the scope) replaced by its patterns: they are atoms of the rule like the others. Sets *n. */
static triple *inline_working_memory_includes(const terms *t, const triple *body, size_t body_n,
                                              term_id head_formula, size_t *n) {
    triple *out = xmalloc((body_n ? body_n : 1) * sizeof *out);
    size_t count = 0, cap = body_n ? body_n : 1;
    for (size_t i = 0; i < body_n; i++) {
        bool inline_it = scope_kind(t, &body[i]) == ATOM_INCLUDES && is_variable_like(t, body[i].s) &&
                         terms_kind(t, body[i].o) == TERM_FORMULA && !occurs_in(t, body[i].s, head_formula);
        for (size_t k = 0; inline_it && k < body_n; k++)
            inline_it = k == i || !(occurs_in(t, body[i].s, body[k].s) || occurs_in(t, body[i].s, body[k].p) ||
                                    occurs_in(t, body[i].s, body[k].o));
        size_t inner_n = 1;
        const triple *inner = inline_it ? terms_formula_triples(t, body[i].o, &inner_n) : &body[i];
        if (count + inner_n > cap) {
            cap = (count + inner_n) * 2;
            out = xrealloc(out, cap * sizeof *out);
        }
        memcpy(out + count, inner, inner_n * sizeof *inner);
        count += inner_n;
    }
    *n = count;
    return out;
}

/* Compiles a rule whose body (after inline_working_memory_includes) is body[0..body_n). */
static void compile_body_and_head(rule *r, terms *t, term_id head_formula, const triple *body, size_t body_n,
                                  const log_sink *log) {
    size_t head_n;
    const triple *head = terms_formula_triples(t, head_formula, &head_n); /* none for `=> false` */
    r->head_formula = head_formula;
    r->is_fuse = head_formula == T_FALSE;

    for (size_t i = 0; i < body_n; i++) {
        bool ok = collect_vars(r, t, body[i].s, true) && collect_vars(r, t, body[i].p, true) &&
                  collect_vars(r, t, body[i].o, true);
        /* blank nodes of a formula looked for are its own variables: "a match for some value" */
        term_id looked_for[2];
        size_t looked_for_n = 0;
        enum atom_kind kind = scope_kind(t, &body[i]);
        if ((kind == ATOM_NOT || kind == ATOM_INCLUDES) && terms_kind(t, body[i].o) == TERM_FORMULA)
            looked_for[looked_for_n++] = body[i].o;
        else if (kind == ATOM_COLLECT || kind == ATOM_FORALL)
            quantified_formulas(t, &body[i], looked_for, &looked_for_n);
        for (size_t f = 0; ok && f < looked_for_n; f++) {
            size_t inner_n;
            const triple *inner = terms_formula_triples(t, looked_for[f], &inner_n);
            for (size_t k = 0; ok && k < inner_n; k++)
                ok = collect_vars(r, t, inner[k].s, true) && collect_vars(r, t, inner[k].p, true) &&
                     collect_vars(r, t, inner[k].o, true);
        }
        if (!ok) {
            disable(r, log, "more than 64 variables");
            return;
        }
    }
    unsigned body_var_count = r->var_count;
    uint64_t bound_outside_negation = 0;
    for (size_t i = 0; i < body_n; i++)
        bound_outside_negation |= vars_bound_by(r, t, &body[i]);

    r->body_count = (unsigned)body_n;
    r->body = xcalloc(body_n, sizeof *r->body);
    for (size_t i = 0; i < body_n; i++) {
        rule_atom *a = &r->body[i];
        term_id parts[3] = {body[i].s, body[i].p, body[i].o};
        for (int k = 0; k < 3; k++) {
            a->pos[k] = encode(r, t, parts[k], &a->structured[k]);
            a->quoted[k] = a->structured[k] && quoted_at(t, &body[i], k);
        }
        uint64_t bound_elsewhere = 0;
        for (size_t k = 0; k < body_n; k++)
            if (k != i)
                bound_elsewhere |= vars_bound_by(r, t, &body[k]);
        enum atom_kind scoped = scope_kind(t, &body[i]);
        if (scoped != ATOM_MATCH) {
            if (scoped == ATOM_COLLECT || scoped == ATOM_FORALL)
                compile_quantified(r, t, &body[i], a, scoped, bound_elsewhere, log);
            else
                compile_scoped(r, t, &body[i], a, scoped, bound_elsewhere, log);
            continue;
        }
        classify_atom(r, t, body[i].p, a, log);
        if (!a->builtin)
            r->matched_count++;
        for (int k = 0; k < 3; k += 2) /* a quoted argument's variables the body binds go in first */
            a->needs |= a->quoted[k] ? vars_in(r, t, parts[k]) & bound_elsewhere : 0;
    }

    r->head_count = (unsigned)head_n;
    r->head = xmalloc((head_n ? head_n : 1) * sizeof *r->head);
    if (head_n) /* none for a fuse */
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
                           slot >= 0 ? " (only inside a log:notIncludes formula or a quoted formula)" : "");
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
    uint64_t head_body_vars = head_var_set & (r->var_count >= 64 ? UINT64_MAX : ((uint64_t)1 << r->var_count) - 1);
    r->head_vars = xmalloc(((size_t)__builtin_popcountll(head_body_vars) + 1) * sizeof *r->head_vars);
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

rule *rule_compile(terms *t, term_id body_formula, term_id head_formula, const char *name, const log_sink *log) {
    rule *r = xcalloc(1, sizeof *r);
    buf own = {0};
    buf_puts(&own, name);
    r->name = buf_cstr(&own);
    size_t written_n, body_n;
    const triple *written = terms_formula_triples(t, body_formula, &written_n);
    triple *body = inline_working_memory_includes(t, written, written_n, head_formula, &body_n);
    r->body_triples = body;
    compile_body_and_head(r, t, head_formula, body, body_n, log);
    return r;
}

/* A `{ H } <= { B }` that can run on demand: one head triple, its predicate an IRI. */
static bool runs_on_demand(const terms *t, const n3_statement *st) {
    size_t n;
    const triple *head = terms_formula_triples(t, st->t.o, &n);
    return st->backward && st->t.p == T_LOG_IMPLIES && n == 1 && terms_kind(t, head[0].p) == TERM_IRI;
}

unsigned rule_set_add_program(rule_set *rs, terms *t, const n3_doc *doc, const char *source, const log_sink *log) {
    unsigned added = 0;
    for (size_t i = 0; i < doc->count; i++) {
        const n3_statement *st = &doc->statements[i];
        if (!rule_statement(t, &st->t))
            continue;
        buf name = {0};
        buf_printf(&name, "%s:%u:%u", source, st->line, st->col);
        if (runs_on_demand(t, st)) {
            rs->backward = xrealloc(rs->backward, (rs->backward_count + 1) * sizeof *rs->backward);
            rs->backward[rs->backward_count++] = (backward_rule){st->t.s, st->t.o, buf_cstr(&name)};
        } else {
            term_id body, head;
            rule_sides(&st->t, &body, &head);
            rule_set_add(rs, rule_compile(t, body, head, buf_cstr(&name), log));
            buf_free(&name);
        }
        added++;
    }
    return added;
}

unsigned rule_set_add_derived(rule_set *rs, terms *t, const store *st, uint32_t *scanned, const log_sink *log) {
    n3_doc doc = {0};
    size_t cap = 0;
    for (uint32_t total = store_size(st); *scanned < total; ++*scanned) {
        const triple *tr = store_triple(st, *scanned);
        if (!rule_statement(t, tr))
            continue;
        if (doc.count == cap) {
            cap = cap ? cap * 2 : 8;
            doc.statements = xrealloc(doc.statements, cap * sizeof *doc.statements);
        }
        /* named by the triple's number: "derived:N:1" */
        doc.statements[doc.count++] = (n3_statement){.t = *tr, .line = *scanned + 1, .col = 1};
    }
    unsigned added = doc.count ? rule_set_add_program(rs, t, &doc, "derived", log) : 0;
    free(doc.statements);
    return added;
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
    free(r->body_triples);
    free(r->head_codes);
    free(r->existentials);
    free(r->head_vars);
    free(r->name);
    free(r);
}

void rule_set_free(rule_set *rs) {
    for (unsigned i = 0; i < rs->count; i++)
        rule_free(rs->rules[i]);
    for (unsigned i = 0; i < rs->backward_count; i++)
        free(rs->backward[i].name);
    free(rs->backward);
    free(rs->hidden);
    free(rs->on_demand);
    free(rs->rules);
    *rs = (rule_set){0};
}
