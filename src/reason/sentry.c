/* sentry.c: sentry trees to single-pass rules (sentry.h). */
#include "reason/sentry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"

typedef struct compiler {
    terms *t;
    rule *r;
    const sentry_constant *constants;
    size_t constant_count;
    bool too_many;
} compiler;

static term_id mapped(const compiler *c, term_id id) {
    for (size_t i = 0; i < c->constant_count; i++)
        if (c->constants[i].constant == id)
            return c->constants[i].var;
    return id;
}

static bool is_constant_var(const compiler *c, term_id var) {
    for (size_t i = 0; i < c->constant_count; i++)
        if (c->constants[i].var == var)
            return true;
    return false;
}

static int slot(compiler *c, term_id var) {
    rule *r = c->r;
    for (unsigned i = 0; i < r->var_count; i++)
        if (r->vars[i] == var)
            return (int)i;
    if (r->var_count == RULE_MAX_VARS) {
        c->too_many = true;
        return 0;
    }
    r->vars[r->var_count] = var;
    return (int)r->var_count++;
}

static pos_code code(compiler *c, term_id id) {
    id = mapped(c, id);
    return terms_kind(c->t, id) == TERM_VAR ? -(pos_code)slot(c, id) - 1 : (pos_code)id;
}

static void map_expr(compiler *c, sq_expr *e) {
    if (e->op == SQ_TERM) {
        e->term = mapped(c, e->term);
        if (terms_kind(c->t, e->term) == TERM_VAR)
            slot(c, e->term);
    }
    for (size_t i = 0; i < e->arg_count; i++)
        map_expr(c, e->args[i]);
}

typedef struct atom_list {
    rule_atom *atoms;
    unsigned count;
} atom_list;

static void push(atom_list *l, rule_atom a) {
    l->atoms = xrealloc(l->atoms, (l->count + 1) * sizeof *l->atoms);
    l->atoms[l->count++] = a;
}

static void compile_into(compiler *c, const sq_node *n, atom_list *out, atom_list *filters);
static rule_seq compile_seq(compiler *c, const sq_node *n);

/* A group's elements. SPARQL joins what follows an OPTIONAL with the left join's result, so a pattern after
 * an OPTIONAL must not be matched before it: the OPTIONAL may bind the pattern's variables (`?s :p ?o
 * OPTIONAL { ?s :q ?v } ?v :r ?w` needs ?v from :q when there is one). The engine runs a body's patterns
 * first, in its own order, and its OPTIONALs and UNIONs after them in their order, each group's elements
 * in order; so what follows an OPTIONAL goes into a UNION of one alternative. */
static void compile_group(compiler *c, sq_node *const *children, size_t count, atom_list *out, atom_list *filters) {
    for (size_t i = 0; i < count; i++) {
        if (children[i]->kind == SQ_GROUP) {
            /* a nested group joins as a whole; its elements can join the enclosing group's only when it
             * reads no variable its patterns leave unbound (rule_seq.hidden) */
            rule_seq nested = compile_seq(c, children[i]);
            if (nested.hidden) {
                rule_seq *group = xmalloc(sizeof *group);
                *group = nested;
                push(out, (rule_atom){.kind = ATOM_UNION, .groups = group, .group_count = 1});
            } else {
                for (unsigned k = 0; k < nested.count; k++)
                    push(nested.atoms[k].kind == ATOM_FILTER ? filters : out, nested.atoms[k]);
                free(nested.atoms);
            }
            continue;
        }
        compile_into(c, children[i], out, filters);
        if (children[i]->kind != SQ_OPTIONAL)
            continue;
        bool joined_after = false;
        for (size_t k = i + 1; k < count; k++)
            joined_after |= children[k]->kind != SQ_FILTER;
        if (!joined_after)
            continue;
        atom_list tail = {0};
        compile_group(c, children + i + 1, count - i - 1, &tail, filters);
        rule_seq *group = xmalloc(sizeof *group);
        *group = (rule_seq){.atoms = tail.atoms, .count = tail.count};
        push(out, (rule_atom){.kind = ATOM_UNION, .groups = group, .group_count = 1});
        return;
    }
}

static uint64_t expr_vars(const compiler *c, const sq_expr *e) {
    uint64_t set = 0;
    if (e->op == SQ_TERM && terms_kind(c->t, e->term) == TERM_VAR)
        for (unsigned i = 0; i < c->r->var_count; i++)
            if (c->r->vars[i] == e->term)
                set |= (uint64_t)1 << i;
    for (size_t i = 0; i < e->arg_count; i++)
        set |= expr_vars(c, e->args[i]);
    return set;
}

/* Every variable the atoms read or bind, nested groups and FILTERs included. */
static uint64_t referenced_vars(const compiler *c, const rule_atom *atoms, unsigned count) {
    uint64_t set = 0;
    for (unsigned i = 0; i < count; i++) {
        for (int k = 0; k < 3; k++)
            if (atoms[i].pos[k] < 0)
                set |= (uint64_t)1 << (-atoms[i].pos[k] - 1);
        if (atoms[i].filter)
            set |= expr_vars(c, atoms[i].filter);
        for (unsigned g = 0; g < atoms[i].group_count; g++)
            set |= referenced_vars(c, atoms[i].groups[g].atoms, atoms[i].groups[g].count);
    }
    return set;
}

static uint64_t bound_vars(const rule_atom *atoms, unsigned count);

/* The variables a group reads but its own patterns do not bind: they are hidden from it while it runs
 * (rule_seq.hidden). The bound constants (gsm:thisArtifactInstance) never are: each is a constant of the
 * query, which the rule reads as a variable only so that one rule serves every artifact, and the prefix
 * binds it before anything else. (Hiding it made every group that reads it enumerate all artifacts' instances: a cost
 * quadratic in the number of artifacts.) */
static uint64_t unbound_reads(const compiler *c, const rule_atom *atoms, unsigned count) {
    uint64_t set = referenced_vars(c, atoms, count) & ~bound_vars(atoms, count);
    for (unsigned i = 0; i < c->r->var_count; i++)
        if (is_constant_var(c, c->r->vars[i]))
            set &= ~((uint64_t)1 << i);
    return set;
}

/* A group's elements in evaluation order: everything in query order, FILTERs last. */
static rule_seq compile_seq(compiler *c, const sq_node *n) {
    atom_list body = {0}, filters = {0};
    compile_into(c, n, &body, &filters);
    for (unsigned i = 0; i < filters.count; i++)
        push(&body, filters.atoms[i]);
    free(filters.atoms);
    return (rule_seq){body.atoms, body.count, unbound_reads(c, body.atoms, body.count)};
}

static void compile_into(compiler *c, const sq_node *n, atom_list *out, atom_list *filters) {
    switch (n->kind) {
    case SQ_PATTERN:
        push(out, (rule_atom){.kind = ATOM_MATCH,
                              .pos = {code(c, n->pattern.s), code(c, n->pattern.p), code(c, n->pattern.o)}});
        return;
    case SQ_FILTER:
        map_expr(c, n->filter);
        push(filters, (rule_atom){.kind = ATOM_FILTER, .filter = n->filter});
        return;
    case SQ_GROUP:
        compile_group(c, n->children, n->child_count, out, filters);
        return;
    case SQ_OPTIONAL: {
        rule_seq *group = xmalloc(sizeof *group);
        sq_node as_group = {.kind = SQ_GROUP, .children = n->children, .child_count = n->child_count};
        *group = compile_seq(c, &as_group);
        /* The OPTIONAL's own FILTERs are its left join's condition, over the joined solution: only its
         * other elements are evaluated alone (as a one-alternative UNION), the FILTERs after them. */
        atom_list elements = {0}, conditions = {0};
        for (unsigned i = 0; i < group->count; i++)
            push(group->atoms[i].kind == ATOM_FILTER ? &conditions : &elements, group->atoms[i]);
        free(group->atoms);
        uint64_t hidden = unbound_reads(c, elements.atoms, elements.count);
        if (hidden) {
            rule_seq *alone = xmalloc(sizeof *alone);
            *alone = (rule_seq){.atoms = elements.atoms, .count = elements.count, .hidden = hidden};
            elements = (atom_list){0};
            push(&elements, (rule_atom){.kind = ATOM_UNION, .groups = alone, .group_count = 1});
        }
        for (unsigned i = 0; i < conditions.count; i++)
            push(&elements, conditions.atoms[i]);
        free(conditions.atoms);
        *group = (rule_seq){.atoms = elements.atoms, .count = elements.count};
        push(out, (rule_atom){.kind = ATOM_OPTIONAL, .groups = group, .group_count = 1});
        return;
    }
    case SQ_UNION: {
        rule_seq *groups = xcalloc(n->child_count ? n->child_count : 1, sizeof *groups);
        for (size_t i = 0; i < n->child_count; i++)
            groups[i] = compile_seq(c, n->children[i]);
        push(out, (rule_atom){.kind = ATOM_UNION, .groups = groups, .group_count = (unsigned)n->child_count});
        return;
    }
    case SQ_TRUE:
        return;
    }
}

static uint64_t atom_vars(const rule_atom *a) {
    uint64_t set = 0;
    for (int k = 0; k < 3; k++)
        if (a->pos[k] < 0)
            set |= (uint64_t)1 << (-a->pos[k] - 1);
    return set;
}

/* The variables every solution of the atoms binds: their patterns', and those of the one-alternative
 * UNIONs compile_group makes (a query's UNION has two alternatives or more). */
static uint64_t bound_vars(const rule_atom *atoms, unsigned count) {
    uint64_t set = 0;
    for (unsigned i = 0; i < count; i++) {
        if (atoms[i].kind == ATOM_MATCH)
            set |= atom_vars(&atoms[i]);
        else if (atoms[i].kind == ATOM_UNION && atoms[i].group_count == 1)
            set |= bound_vars(atoms[i].groups[0].atoms, atoms[i].groups[0].count);
    }
    return set;
}

/* Where each variable occurs among the top-level patterns, shared by all of a rule's plans: plan_from
 * rescores only the patterns of a variable that becomes bound, so a plan costs O(patterns) (a few cursor
 * rewinds aside) and the rule's plans O(patterns^2); scanning every pattern per step made them cubic
 * (2,000 SPIN patterns took 28 s to lint). */
typedef struct plan_index {
    unsigned *matches;     /* body positions of the ATOM_MATCH atoms, in body order */
    unsigned match_count;
    unsigned *rank;        /* body position -> its index in matches */
    int *constants;        /* per match: positions holding a constant */
    unsigned occ_start[RULE_MAX_VARS + 1]; /* occurrences of slot v: occ[occ_start[v] .. occ_start[v + 1]) */
    unsigned *occ;         /* match indices, one per position (an atom reading ?v twice is there twice) */
} plan_index;

static void plan_index_init(plan_index *x, const rule *r) {
    *x = (plan_index){0};
    x->matches = xmalloc((r->body_count ? r->body_count : 1) * sizeof *x->matches);
    x->rank = xmalloc((r->body_count ? r->body_count : 1) * sizeof *x->rank);
    unsigned per_var[RULE_MAX_VARS] = {0};
    for (unsigned i = 0; i < r->body_count; i++) {
        if (r->body[i].kind != ATOM_MATCH)
            continue;
        x->rank[i] = x->match_count;
        x->matches[x->match_count++] = i;
        for (int k = 0; k < 3; k++)
            if (r->body[i].pos[k] < 0)
                per_var[-r->body[i].pos[k] - 1]++;
    }
    x->constants = xcalloc(x->match_count ? x->match_count : 1, sizeof *x->constants);
    for (unsigned v = 0; v < RULE_MAX_VARS; v++)
        x->occ_start[v + 1] = x->occ_start[v] + per_var[v];
    x->occ = xmalloc((x->occ_start[RULE_MAX_VARS] ? x->occ_start[RULE_MAX_VARS] : 1) * sizeof *x->occ);
    unsigned fill[RULE_MAX_VARS];
    memcpy(fill, x->occ_start, sizeof fill);
    for (unsigned j = 0; j < x->match_count; j++)
        for (int k = 0; k < 3; k++) {
            pos_code pc = r->body[x->matches[j]].pos[k];
            if (pc > 0)
                x->constants[j]++;
            else if (pc < 0)
                x->occ[fill[-pc - 1]++] = j;
        }
}

static void plan_index_free(plan_index *x) {
    free(x->matches);
    free(x->rank);
    free(x->constants);
    free(x->occ);
}

/* Plan led by top-level pattern `first` (or by the first `leading` patterns, in body order): the other patterns greedily (most positions bound, a constant or a
 * variable bound before; the first in body order among equals), then the other elements in their order.
 * A pattern's score only grows, so one cursor per score (0..3) walks the matches: no unplaced match of
 * that score lies before it, and a pattern rising to a score moves that score's cursor back to it. */
static unsigned *plan_from(const rule *r, const plan_index *x, unsigned first, unsigned leading) {
    unsigned *order = xmalloc(r->body_count * sizeof *order);
    bool *placed = xcalloc(x->match_count, sizeof *placed);
    int *score = xmalloc(x->match_count * sizeof *score);
    memcpy(score, x->constants, x->match_count * sizeof *score);
    unsigned cursor[4] = {0, 0, 0, 0}, n = 0;
    uint64_t bound = 0;
    unsigned j = leading ? 0 : x->rank[first];
    for (;;) {
        order[n++] = x->matches[j];
        placed[j] = true;
        uint64_t fresh = atom_vars(&r->body[x->matches[j]]) & ~bound;
        bound |= fresh;
        for (unsigned v = 0; fresh; v++, fresh >>= 1) {
            if (!(fresh & 1))
                continue;
            for (unsigned o = x->occ_start[v]; o < x->occ_start[v + 1]; o++) {
                unsigned m = x->occ[o];
                score[m]++;
                if (!placed[m] && m < cursor[score[m]])
                    cursor[score[m]] = m;
            }
        }
        if (n < leading) { /* the leading patterns in their order, whatever their scores */
            j = n;
            continue;
        }
        int s = 3;
        for (; s >= 0; s--) {
            while (cursor[s] < x->match_count && (placed[cursor[s]] || score[cursor[s]] != s))
                cursor[s]++;
            if (cursor[s] < x->match_count)
                break;
        }
        if (s < 0)
            break;
        j = cursor[s];
    }
    for (unsigned i = 0; i < r->body_count; i++)
        if (r->body[i].kind != ATOM_MATCH)
            order[n++] = i;
    free(score);
    free(placed);
    return order;
}

/* The triple patterns of a tree, nested groups included. */
static size_t pattern_count(const sq_node *n) {
    size_t count = n->kind == SQ_PATTERN;
    for (size_t i = 0; i < n->child_count; i++)
        count += pattern_count(n->children[i]);
    return count;
}

rule *sentry_rule_new(terms *t, sq_node *where, const triple *prefix, size_t prefix_count, const triple *head,
                      size_t head_count, const sentry_constant *constants, size_t constant_count,
                      const char *name, char *error, size_t error_len) {
    rule *r = xcalloc(1, sizeof *r);
    r->name = xstrndup(name, strlen(name));
    r->single_pass = true;
    r->sentry_tree = where;
    size_t patterns = pattern_count(where);
    if (patterns > SENTRY_MAX_PATTERNS) {
        snprintf(error, error_len, "sentry %s: %zu triple patterns, more than %d: split it into smaller sentries",
                 name, patterns, SENTRY_MAX_PATTERNS);
        rule_free(r);
        return NULL;
    }
    compiler c = {.t = t, .r = r, .constants = constants, .constant_count = constant_count};
    atom_list body = {0}, filters = {0};
    for (size_t i = 0; i < prefix_count; i++)
        push(&body, (rule_atom){.kind = ATOM_MATCH,
                                .pos = {code(&c, prefix[i].s), code(&c, prefix[i].p), code(&c, prefix[i].o)}});
    compile_into(&c, where, &body, &filters);
    for (unsigned i = 0; i < filters.count; i++)
        push(&body, filters.atoms[i]);
    free(filters.atoms);
    r->body = body.atoms;
    r->body_count = body.count;
    for (unsigned i = 0; i < r->body_count; i++)
        r->matched_count += r->body[i].kind == ATOM_MATCH;
    uint64_t top_vars = bound_vars(r->body, r->body_count);

    r->head_count = (unsigned)head_count;
    r->head = xmalloc((head_count ? head_count : 1) * sizeof *r->head);
    r->head_codes = xcalloc(head_count ? head_count : 1, sizeof *r->head_codes);
    for (size_t i = 0; i < head_count; i++) {
        r->head[i] = head[i];
        term_id parts[3] = {head[i].s, head[i].p, head[i].o};
        for (int k = 0; k < 3; k++) {
            pos_code pc = code(&c, parts[k]);
            r->head_codes[i].pos[k] = pc;
            if (pc < 0 && !(top_vars >> (-pc - 1) & 1)) {
                snprintf(error, error_len, "sentry %s: head variable ?%s is not bound outside OPTIONAL", name,
                         terms_lex(t, mapped(&c, parts[k]), NULL));
                rule_free(r);
                return NULL;
            }
        }
    }
    if (c.too_many) {
        snprintf(error, error_len, "sentry %s: more than %d variables", name, RULE_MAX_VARS);
        rule_free(r);
        return NULL;
    }
    r->head_vars = xmalloc(RULE_MAX_VARS * sizeof *r->head_vars);
    unsigned plan_count = r->matched_count ? r->matched_count : 1;
    r->plans = xcalloc(plan_count, sizeof *r->plans);
    plan_index index;
    plan_index_init(&index, r);
    for (unsigned j = 0; j < index.match_count; j++)
        r->plans[j] = plan_from(r, &index, index.matches[j], 0);
    plan_index_free(&index);
    if (!r->matched_count) {
        r->plans[0] = xmalloc((r->body_count ? r->body_count : 1) * sizeof **r->plans);
        for (unsigned i = 0; i < r->body_count; i++)
            r->plans[0][i] = i;
    }
    return r;
}

static void mark_viewed(rule_atom *atoms, unsigned count) {
    for (unsigned i = 0; i < count; i++) {
        atoms[i].viewed = atoms[i].kind == ATOM_MATCH;
        for (unsigned g = 0; g < atoms[i].group_count; g++)
            mark_viewed(atoms[i].groups[g].atoms, atoms[i].groups[g].count);
    }
}

bool sentry_rule_view(rule *r, term_id viewer, size_t prefix_count) {
    int viewer_slot = -1;
    for (unsigned i = 0; i < r->var_count; i++)
        if (r->vars[i] == viewer)
            viewer_slot = (int)i;
    bool bound_by_prefix = false;
    for (size_t i = 0; i < prefix_count && i < r->body_count; i++)
        for (int k = 0; k < 3; k++)
            bound_by_prefix |= viewer_slot >= 0 && r->body[i].pos[k] == -(pos_code)viewer_slot - 1;
    if (!bound_by_prefix)
        return false;
    r->viewer = -(pos_code)viewer_slot - 1;
    mark_viewed(r->body + prefix_count, r->body_count - (unsigned)prefix_count);
    /* every plan is led by the prefix, which binds the viewer before a viewed pattern is matched */
    plan_index index;
    plan_index_init(&index, r);
    for (unsigned j = 0; j < index.match_count; j++) {
        free(r->plans[j]);
        r->plans[j] = plan_from(r, &index, index.matches[j], (unsigned)prefix_count);
    }
    plan_index_free(&index);
    return true;
}
