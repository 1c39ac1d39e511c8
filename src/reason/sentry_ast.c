/* sentry_ast.c: sentry trees: construction, freeing, the canonical form both front ends produce
 * (sentry_ast.h states it), and a one-line printer for messages and tests. */
#include "reason/sentry_ast.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/rdfio.h"

/* ---- construction ---- */

sq_node *sq_node_new(enum sq_kind kind) {
    sq_node *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    return n;
}

void sq_node_add(sq_node *parent, sq_node *child) {
    parent->children = xrealloc(parent->children, (parent->child_count + 1) * sizeof *parent->children);
    parent->children[parent->child_count++] = child;
}

sq_expr *sq_expr_new(enum sq_op op) {
    sq_expr *e = xcalloc(1, sizeof *e);
    e->op = op;
    return e;
}

sq_expr *sq_expr_term(term_id term) {
    sq_expr *e = sq_expr_new(SQ_TERM);
    e->term = term;
    return e;
}

void sq_expr_add(sq_expr *e, sq_expr *arg) {
    e->args = xrealloc(e->args, (e->arg_count + 1) * sizeof *e->args);
    e->args[e->arg_count++] = arg;
}

void sq_expr_free(sq_expr *e) {
    if (!e)
        return;
    for (size_t i = 0; i < e->arg_count; i++)
        sq_expr_free(e->args[i]);
    free(e->args);
    free(e);
}

void sq_node_free(sq_node *n) {
    if (!n)
        return;
    for (size_t i = 0; i < n->child_count; i++)
        sq_node_free(n->children[i]);
    free(n->children);
    sq_expr_free(n->filter);
    free(n);
}

/* Frees the node itself, not its children (they moved elsewhere). */
static void node_free_shell(sq_node *n) {
    free(n->children);
    free(n);
}

/* ---- canonical order ---- */

static int compare_ids(term_id a, term_id b) { return a < b ? -1 : a > b; }

static int expr_compare(const sq_expr *a, const sq_expr *b) {
    if (a->op != b->op)
        return a->op < b->op ? -1 : 1;
    int c = compare_ids(a->term, b->term);
    if (c)
        return c;
    if (a->arg_count != b->arg_count)
        return a->arg_count < b->arg_count ? -1 : 1;
    for (size_t i = 0; i < a->arg_count; i++)
        if ((c = expr_compare(a->args[i], b->args[i])))
            return c;
    return 0;
}

static int node_compare(const sq_node *a, const sq_node *b) {
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    int c;
    switch (a->kind) {
    case SQ_PATTERN:
        if ((c = compare_ids(a->pattern.s, b->pattern.s)) || (c = compare_ids(a->pattern.p, b->pattern.p)))
            return c;
        return compare_ids(a->pattern.o, b->pattern.o);
    case SQ_FILTER: return expr_compare(a->filter, b->filter);
    default: break;
    }
    if (a->child_count != b->child_count)
        return a->child_count < b->child_count ? -1 : 1;
    for (size_t i = 0; i < a->child_count; i++)
        if ((c = node_compare(a->children[i], b->children[i])))
            return c;
    return 0;
}

static int node_ptr_compare(const void *a, const void *b) {
    return node_compare(*(sq_node *const *)a, *(sq_node *const *)b);
}

/* ---- canonical form ---- */

static sq_node *normalize_node(sq_node *n);

static bool has_child_of_kind(const sq_node *n, enum sq_kind kind) {
    for (size_t i = 0; i < n->child_count; i++)
        if (n->children[i]->kind == kind)
            return true;
    return false;
}

/* Rule 3 of sentry_ast.h: may child group g be spliced into the group-like list of owner? */
static bool splices(const sq_node *owner, const sq_node *g, size_t non_filter_siblings) {
    if (g->kind != SQ_GROUP)
        return false;
    bool has_filter = has_child_of_kind(g, SQ_FILTER);
    if (!has_filter && !has_child_of_kind(g, SQ_OPTIONAL))
        return true;
    return non_filter_siblings == 1 && !(owner->kind == SQ_OPTIONAL && has_filter);
}

/* Rule 2: filters last, and each stretch between OPTIONALs sorted. */
static void order_group(sq_node *owner) {
    size_t n = owner->child_count, kept = 0, filters = 0;
    sq_node **sorted = xcalloc(n ? n : 1, sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        if (owner->children[i]->kind != SQ_FILTER)
            sorted[kept++] = owner->children[i];
    for (size_t i = 0; i < n; i++)
        if (owner->children[i]->kind == SQ_FILTER)
            sorted[kept + filters++] = owner->children[i];
    size_t start = 0;
    for (size_t i = 0; i <= kept; i++) {
        if (i == kept || sorted[i]->kind == SQ_OPTIONAL) {
            qsort(sorted + start, i - start, sizeof *sorted, node_ptr_compare);
            start = i + 1;
        }
    }
    qsort(sorted + kept, filters, sizeof *sorted, node_ptr_compare);
    free(owner->children);
    owner->children = sorted;
}

static void normalize_group(sq_node *owner) {
    for (size_t i = 0; i < owner->child_count; i++)
        owner->children[i] = normalize_node(owner->children[i]);
    bool changed = true;
    while (changed) {
        changed = false;
        size_t non_filter = 0;
        for (size_t i = 0; i < owner->child_count; i++)
            non_filter += owner->children[i]->kind != SQ_FILTER;
        sq_node **old = owner->children;
        size_t old_count = owner->child_count;
        owner->children = NULL;
        owner->child_count = 0;
        for (size_t i = 0; i < old_count; i++) {
            sq_node *c = old[i];
            if (splices(owner, c, non_filter)) {
                for (size_t j = 0; j < c->child_count; j++)
                    sq_node_add(owner, c->children[j]);
                node_free_shell(c);
                changed = true;
            } else {
                sq_node_add(owner, c);
            }
        }
        free(old);
    }
    order_group(owner);
}

/* Rule 1: alternatives are groups, an alternative holding only a union is flattened, and a union of one
 * alternative is that group. Returns the node that replaces u. */
static sq_node *normalize_union(sq_node *u) {
    sq_node **old = u->children;
    size_t old_count = u->child_count;
    u->children = NULL;
    u->child_count = 0;
    for (size_t i = 0; i < old_count; i++) {
        sq_node *alt = old[i];
        if (alt->kind != SQ_GROUP) {
            sq_node *g = sq_node_new(SQ_GROUP);
            sq_node_add(g, alt);
            alt = g;
        }
        normalize_group(alt);
        if (alt->child_count == 1 && alt->children[0]->kind == SQ_UNION) {
            sq_node *inner = alt->children[0];
            for (size_t j = 0; j < inner->child_count; j++)
                sq_node_add(u, inner->children[j]);
            node_free_shell(inner);
            node_free_shell(alt);
        } else {
            sq_node_add(u, alt);
        }
    }
    free(old);
    if (u->child_count == 1) {
        sq_node *only = u->children[0];
        node_free_shell(u);
        return only;
    }
    qsort(u->children, u->child_count, sizeof *u->children, node_ptr_compare);
    return u;
}

static sq_node *normalize_node(sq_node *n) {
    switch (n->kind) {
    case SQ_GROUP:
    case SQ_OPTIONAL: normalize_group(n); return n;
    case SQ_UNION: return normalize_union(n);
    default: return n;
    }
}

void sq_normalize(sq_node *root) { normalize_group(root); }

/* ---- messages and printing ---- */

void sq_error(const terms *t, term_id query, const char *what, char *error, size_t error_len) {
    buf name = {0};
    if (query)
        rdf_write_term_nt(t, query, &name);
    else
        buf_puts(&name, "text");
    snprintf(error, error_len, "sentry %s: %s", buf_cstr(&name), what);
    buf_free(&name);
}

const char *sq_error_what(const terms *t, term_id query, const char *error) {
    char prefix[1024];
    sq_error(t, query, "", prefix, sizeof prefix);
    size_t len = strlen(prefix);
    return strncmp(error, prefix, len) == 0 ? error + len : error;
}

static const char *op_name(enum sq_op op) {
    switch (op) {
    case SQ_TERM: return "term";
    case SQ_AND: return "&&";
    case SQ_OR: return "||";
    case SQ_NOT: return "!";
    case SQ_EQ: return "=";
    case SQ_NE: return "!=";
    case SQ_LT: return "<";
    case SQ_GT: return ">";
    case SQ_LE: return "<=";
    case SQ_GE: return ">=";
    case SQ_ADD: return "+";
    case SQ_SUB: return "-";
    case SQ_MUL: return "*";
    case SQ_DIV: return "/";
    case SQ_NEG: return "neg";
    case SQ_BOUND: return "bound";
    case SQ_IS_IRI: return "isIRI";
    case SQ_IS_BLANK: return "isBlank";
    case SQ_IS_LITERAL: return "isLiteral";
    case SQ_STR: return "str";
    case SQ_LANG: return "lang";
    case SQ_DATATYPE: return "datatype";
    case SQ_SAME_TERM: return "sameTerm";
    case SQ_REGEX: return "regex";
    }
    return "?";
}

static const char *kind_name(enum sq_kind kind) {
    switch (kind) {
    case SQ_PATTERN: return "pattern";
    case SQ_FILTER: return "filter";
    case SQ_GROUP: return "group";
    case SQ_OPTIONAL: return "optional";
    case SQ_UNION: return "union";
    case SQ_TRUE: return "true";
    }
    return "?";
}

void sq_print_expr(const terms *t, const sq_expr *e, buf *out) {
    if (e->op == SQ_TERM) {
        rdf_write_term_nt(t, e->term, out);
        return;
    }
    buf_printf(out, "(%s", op_name(e->op));
    for (size_t i = 0; i < e->arg_count; i++) {
        buf_putc(out, ' ');
        sq_print_expr(t, e->args[i], out);
    }
    buf_putc(out, ')');
}

void sq_print(const terms *t, const sq_node *n, buf *out) {
    buf_printf(out, "(%s", kind_name(n->kind));
    if (n->kind == SQ_PATTERN) {
        const term_id spo[3] = {n->pattern.s, n->pattern.p, n->pattern.o};
        for (int i = 0; i < 3; i++) {
            buf_putc(out, ' ');
            rdf_write_term_nt(t, spo[i], out);
        }
    } else if (n->kind == SQ_FILTER) {
        buf_putc(out, ' ');
        sq_print_expr(t, n->filter, out);
    }
    for (size_t i = 0; i < n->child_count; i++) {
        buf_putc(out, ' ');
        sq_print(t, n->children[i], out);
    }
    buf_putc(out, ')');
}
