/* sentry_spin.c: the SPIN front end. Reads a sentry written in SPIN RDF (http://spinrdf.org/sp#) from
 * working memory into a sentry tree:
 *
 *   <q> a sp:Ask ; sp:where ( element ... ) .
 *   element := [ sp:subject T ; sp:predicate T ; sp:object T ]        a triple pattern
 *            | [ a sp:Filter ; sp:expression E ]
 *            | [ a sp:Optional ; sp:elements ( element ... ) ]
 *            | [ a sp:Union ; sp:elements ( ( element ... ) ... ) ]   each alternative a list
 *            | ( element ... )                                        a nested group
 *            | any node carrying sparql-results:boolean true          trivially true
 *   T := an IRI or literal constant | a node with sp:varName "x" (a variable) | a blank node with no
 *        properties (an anonymous variable)
 *   E := T | [ a sp:gt ; sp:arg1 E ; sp:arg2 E ] and the other functions of spin_functions below.
 *
 * Other SPIN elements (sub-queries, GRAPH, SERVICE, MINUS, BIND, VALUES, property paths) and functions
 * (EXISTS, IN, ...) are rejected: the evaluator compiles only what the tree can say. Lists are
 * rdf:first/rest chains (raptor2's reading of Turtle lists) or N3 list terms; a chain with a missing,
 * doubled or cyclic link is an error, found by counting: a walk longer than the store's rdf:rest
 * triples has met a node twice. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/nesting.h"
#include "rdf/rdfio.h"
#include "rdf/vocab_ns.h"
#include "reason/sentry_ast.h"

#define SHOW_MAX 256       /* a term shown in a message is cut there */
#define WHERE_SHOWN 240    /* a longer location is shown by its start and end */
#define SPIN_MAX_ARGS 4     /* sp:arg1 .. sp:arg4 are read; no supported function takes more than 3 */

static const struct {
    const char *name; /* local name in sp: */
    enum sq_op op;
    unsigned min_args, max_args;
} spin_functions[] = {
    {"and", SQ_AND, 2, 2},          {"or", SQ_OR, 2, 2},
    {"not", SQ_NOT, 1, 1},          {"eq", SQ_EQ, 2, 2},
    {"ne", SQ_NE, 2, 2},            {"lt", SQ_LT, 2, 2},
    {"gt", SQ_GT, 2, 2},            {"le", SQ_LE, 2, 2},
    {"ge", SQ_GE, 2, 2},            {"add", SQ_ADD, 2, 2},
    {"sub", SQ_SUB, 2, 2},          {"mul", SQ_MUL, 2, 2},
    {"divide", SQ_DIV, 2, 2},       {"unaryMinus", SQ_NEG, 1, 1},
    {"bound", SQ_BOUND, 1, 1},      {"isIRI", SQ_IS_IRI, 1, 1},
    {"isURI", SQ_IS_IRI, 1, 1},     {"isBlank", SQ_IS_BLANK, 1, 1},
    {"isLiteral", SQ_IS_LITERAL, 1, 1}, {"str", SQ_STR, 1, 1},
    {"lang", SQ_LANG, 1, 1},        {"datatype", SQ_DATATYPE, 1, 1},
    {"sameTerm", SQ_SAME_TERM, 2, 2}, {"regex", SQ_REGEX, 2, 3},
};
#define SPIN_FUNCTION_COUNT (sizeof spin_functions / sizeof spin_functions[0])

/* SPIN element classes that sentries reject, each with the reason given in the message. */
static const struct {
    const char *name;
    const char *why;
} spin_rejected[] = {
    {"SubQuery", "sub-queries are not supported"},
    {"NamedGraph", "GRAPH is not supported (sentries match the union of working memory)"},
    {"Service", "SERVICE is not supported (sentries read working memory only)"},
    {"Minus", "MINUS is not supported (use OPTIONAL with !bound)"},
    {"Bind", "BIND is not supported"},
    {"Let", "BIND (sp:Let) is not supported"},
    {"Values", "VALUES is not supported"},
    {"TriplePath", "property paths are not supported"},
    {"exists", "EXISTS is not supported"},
    {"notExists", "NOT EXISTS is not supported (use OPTIONAL with !bound)"},
    {"in", "IN is not supported (use || of =)"},
    {"notIn", "NOT IN is not supported (use && of !=)"},
};
#define SPIN_REJECTED_COUNT (sizeof spin_rejected / sizeof spin_rejected[0])

typedef struct spin_vocab {
    term_id ask, where, subject, predicate, object, path, var_name, variable, triple_pattern;
    term_id filter, expression, optional, union_, elements, boolean;
    term_id args[SPIN_MAX_ARGS];
    term_id functions[SPIN_FUNCTION_COUNT];
    term_id rejected[SPIN_REJECTED_COUNT];
} spin_vocab;

typedef struct spin_reader {
    terms *t;
    store *st;
    uint32_t size;       /* the triples read: [0, size) */
    uint32_t list_limit; /* rdf:rest triples in the store: a longer list walk is a cycle */
    term_id query;
    spin_vocab v;
    buf where;           /* the element being read ("sp:where element 3 > sp:elements element 1") */
    char *error;
    size_t error_len;
    bool failed;
} spin_reader;

static term_id sp_term(terms *t, const char *local) {
    return vocab_iri(t, NS_SP, local);
}

static void vocab_init(spin_vocab *v, terms *t) {
    v->ask = sp_term(t, "Ask");
    v->where = sp_term(t, "where");
    v->subject = sp_term(t, "subject");
    v->predicate = sp_term(t, "predicate");
    v->object = sp_term(t, "object");
    v->path = sp_term(t, "path");
    v->var_name = sp_term(t, "varName");
    v->variable = sp_term(t, "Variable");
    v->triple_pattern = sp_term(t, "TriplePattern");
    v->filter = sp_term(t, "Filter");
    v->expression = sp_term(t, "expression");
    v->optional = sp_term(t, "Optional");
    v->union_ = sp_term(t, "Union");
    v->elements = sp_term(t, "elements");
    v->boolean = terms_iri_cstr(t, NS_SPARQL_RESULTS "boolean");
    for (int i = 0; i < SPIN_MAX_ARGS; i++) {
        char local[16]; /* "arg" and any int: GCC at -O1 does not bound i */
        snprintf(local, sizeof local, "arg%d", i + 1);
        v->args[i] = sp_term(t, local);
    }
    for (size_t i = 0; i < SPIN_FUNCTION_COUNT; i++)
        v->functions[i] = sp_term(t, spin_functions[i].name);
    for (size_t i = 0; i < SPIN_REJECTED_COUNT; i++)
        v->rejected[i] = sp_term(t, spin_rejected[i].name);
}

/* ---- messages ---- */

/* Records the first error: "sentry <q>: <where>: <what>". */
__attribute__((format(printf, 2, 3))) static void fail(spin_reader *r, const char *fmt, ...) {
    if (r->failed)
        return;
    r->failed = true;
    buf what = {0};
    if (r->where.len > WHERE_SHOWN) { /* a deep location keeps its two ends */
        buf_append(&what, r->where.data, WHERE_SHOWN / 3);
        buf_puts(&what, " ... ");
        buf_append(&what, r->where.data + r->where.len - WHERE_SHOWN / 2, WHERE_SHOWN / 2);
        buf_puts(&what, ": ");
    } else if (r->where.len) {
        buf_append(&what, r->where.data, r->where.len);
        buf_puts(&what, ": ");
    }
    char text[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    buf_puts(&what, text);
    sq_error(r->t, r->query, buf_cstr(&what), r->error, r->error_len);
    buf_free(&what);
}

/* A term as written in N-Triples, for messages. */
static const char *show(spin_reader *r, term_id id, char *out, size_t cap) {
    buf b = {0};
    rdf_write_term_nt(r->t, id, &b);
    snprintf(out, cap, "%s", buf_cstr(&b));
    buf_free(&b);
    return out;
}

/* Appends one step to the location; returns the length to restore afterwards. */
__attribute__((format(printf, 2, 3))) static size_t where_push(spin_reader *r, const char *fmt, ...) {
    size_t mark = r->where.len;
    if (mark)
        buf_puts(&r->where, " > ");
    char step[128];
    va_list args;
    va_start(args, fmt);
    vsnprintf(step, sizeof step, fmt, args);
    va_end(args);
    buf_puts(&r->where, step);
    return mark;
}

static void where_pop(spin_reader *r, size_t mark) { r->where.len = mark; }

/* ---- store access ---- */

static uint32_t count(spin_reader *r, term_id s, term_id p) { return store_count(r->st, s, p, 0, 0, r->size); }

static term_id first_object(spin_reader *r, term_id s, term_id p) {
    store_iter it;
    store_match(r->st, s, p, 0, 0, r->size, &it);
    uint32_t n;
    const triple *found = store_next(&it, &n);
    return found ? found->o : 0;
}

static bool has(spin_reader *r, term_id s, term_id p, term_id o) { return store_find(r->st, s, p, o) < r->size; }

/* The single value of (s, p); 0 after failing when there is none or several. what names s, property p. */
static term_id one(spin_reader *r, term_id s, term_id p, const char *what, const char *property) {
    uint32_t n = count(r, s, p);
    if (n == 1)
        return first_object(r, s, p);
    if (n == 0)
        fail(r, "%s has no %s", what, property);
    else
        fail(r, "%s has %u %s values (one expected)", what, n, property);
    return 0;
}

/* ---- lists ---- */

/* The items of the list at head into *items (caller frees). `what` names the list in messages. */
static int read_list(spin_reader *r, term_id head, const char *what, term_id **items, size_t *n) {
    *items = NULL;
    *n = 0;
    char shown[SHOW_MAX];
    if (terms_kind(r->t, head) == TERM_LIST) {
        size_t k;
        const term_id *its = terms_list_items(r->t, head, &k);
        *items = xmalloc((k ? k : 1) * sizeof **items);
        memcpy(*items, its, k * sizeof **items);
        *n = k;
        return 0;
    }
    size_t cap = 0;
    uint32_t steps = 0;
    for (term_id node = head; node != T_RDF_NIL;) {
        enum term_kind kind = terms_kind(r->t, node);
        bool is_node = (kind == TERM_BNODE || kind == TERM_IRI) &&
                       (count(r, node, T_RDF_FIRST) || count(r, node, T_RDF_REST));
        if (!is_node) {
            if (node == head)
                fail(r, "%s is %s, not a list", what, show(r, node, shown, sizeof shown));
            else
                fail(r, "%s: the list goes on to %s, which is not a list node (no rdf:first or rdf:rest)", what,
                     show(r, node, shown, sizeof shown));
            goto broken;
        }
        char node_what[SHOW_MAX + 64];
        snprintf(node_what, sizeof node_what, "%s: list node %s", what, show(r, node, shown, sizeof shown));
        term_id item = one(r, node, T_RDF_FIRST, node_what, "rdf:first");
        term_id next = item ? one(r, node, T_RDF_REST, node_what, "rdf:rest") : 0;
        if (!next)
            goto broken;
        /* Each node walked so far has its own rdf:rest triple, so a walk longer than their number repeats. */
        if (++steps > r->list_limit) {
            fail(r, "%s is a cyclic list", what);
            goto broken;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            *items = xrealloc(*items, cap * sizeof **items);
        }
        (*items)[(*n)++] = item;
        node = next;
    }
    return 0;
broken:
    free(*items);
    *items = NULL;
    *n = 0;
    return -1;
}

/* ---- terms ---- */

/* A SPARQL VARNAME: letters, digits, '_' and any non-ASCII character. */
static bool valid_var_name(const char *name, size_t len) {
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        bool ok = c >= 0x80 || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!ok)
            return false;
    }
    return true;
}

/* The variable node stands for: 1 with *var set, 0 when node has no sp:varName, -1 after failing. */
static int variable_of(spin_reader *r, term_id node, const char *what, term_id *var) {
    if (count(r, node, r->v.var_name) == 0) {
        if (has(r, node, T_RDF_TYPE, r->v.variable)) {
            fail(r, "%s is an sp:Variable without sp:varName", what);
            return -1;
        }
        return 0;
    }
    term_id name = one(r, node, r->v.var_name, what, "sp:varName");
    if (!name)
        return -1;
    char shown[SHOW_MAX];
    if (terms_kind(r->t, name) != TERM_LITERAL) {
        fail(r, "%s: sp:varName %s is not a literal", what, show(r, name, shown, sizeof shown));
        return -1;
    }
    size_t len;
    const char *lex = terms_lex(r->t, name, &len);
    if (!valid_var_name(lex, len)) {
        fail(r, "%s: sp:varName %s is not a SPARQL variable name%s", what, show(r, name, shown, sizeof shown),
             lex[0] == '?' || lex[0] == '$' ? " (write it without the '?')" : "");
        return -1;
    }
    *var = terms_var(r->t, lex, len);
    return 1;
}

/* A pattern position: a constant, a variable, or an anonymous variable for a bare blank node. 0 after
 * failing. */
static term_id read_pattern_term(spin_reader *r, term_id node, const char *position, bool is_predicate) {
    char shown[SHOW_MAX];
    enum term_kind kind = terms_kind(r->t, node);
    if (kind == TERM_LITERAL) {
        if (!is_predicate)
            return node;
        fail(r, "%s is a literal (%s)", position, show(r, node, shown, sizeof shown));
        return 0;
    }
    if (kind != TERM_IRI && kind != TERM_BNODE) {
        fail(r, "%s %s is not an RDF term", position, show(r, node, shown, sizeof shown));
        return 0;
    }
    term_id var;
    int found = variable_of(r, node, position, &var);
    if (found)
        return found > 0 ? var : 0;
    if (kind == TERM_IRI)
        return node;
    if (store_count(r->st, node, 0, 0, 0, r->size)) {
        fail(r, "%s is a blank node with properties but no sp:varName", position);
        return 0;
    }
    /* A blank node in a pattern is a variable no other query variable can be named as ("_:" prefix). */
    size_t len;
    const char *label = terms_lex(r->t, node, &len);
    buf name = {0};
    buf_puts(&name, "_:");
    buf_append(&name, label, len);
    term_id anonymous = terms_var(r->t, name.data, name.len);
    buf_free(&name);
    return anonymous;
}

/* ---- expressions ---- */

static sq_expr *read_expr(spin_reader *r, term_id node, int depth);

/* The arguments of a call of spin_functions[fn] into e; -1 after failing. */
static int read_args(spin_reader *r, term_id call, size_t fn, sq_expr *e, int depth) {
    const char *name = spin_functions[fn].name;
    term_id args[SPIN_MAX_ARGS];
    unsigned n = 0;
    for (unsigned k = 0; k < SPIN_MAX_ARGS; k++) {
        uint32_t c = count(r, call, r->v.args[k]);
        if (c > 1) {
            fail(r, "sp:%s has %u sp:arg%u values (one expected)", name, c, k + 1);
            return -1;
        }
        if (c == 0)
            continue;
        if (k != n) {
            fail(r, "sp:%s has sp:arg%u but no sp:arg%u", name, k + 1, n + 1);
            return -1;
        }
        args[n++] = first_object(r, call, r->v.args[k]);
    }
    if (n < spin_functions[fn].min_args) {
        fail(r, "sp:%s has no sp:arg%u", name, n + 1);
        return -1;
    }
    if (n > spin_functions[fn].max_args) {
        fail(r, "sp:%s takes %u argument%s but has sp:arg%u", name, spin_functions[fn].max_args,
             spin_functions[fn].max_args == 1 ? "" : "s", n);
        return -1;
    }
    for (unsigned k = 0; k < n; k++) {
        size_t mark = where_push(r, "sp:%s sp:arg%u", name, k + 1);
        sq_expr *arg = read_expr(r, args[k], depth + 1);
        where_pop(r, mark);
        if (!arg)
            return -1;
        sq_expr_add(e, arg);
    }
    return 0;
}

/* A constant, a variable or a function call; NULL after failing. */
static sq_expr *read_expr(spin_reader *r, term_id node, int depth) {
    char shown[SHOW_MAX];
    if (depth > MAX_NESTING) {
        fail(r, "expressions %s", NESTING_ERROR);
        return NULL;
    }
    enum term_kind kind = terms_kind(r->t, node);
    if (kind == TERM_LITERAL)
        return sq_expr_term(node);
    if (kind != TERM_IRI && kind != TERM_BNODE) {
        fail(r, "expression %s is not an RDF term", show(r, node, shown, sizeof shown));
        return NULL;
    }
    term_id var;
    int found = variable_of(r, node, "expression", &var);
    if (found)
        return found > 0 ? sq_expr_term(var) : NULL;

    size_t fn = SPIN_FUNCTION_COUNT;
    term_id other_type = 0;
    store_iter it;
    store_match(r->st, node, T_RDF_TYPE, 0, 0, r->size, &it);
    uint32_t number;
    for (const triple *tr; (tr = store_next(&it, &number));) {
        term_id type = tr->o;
        bool known = false;
        for (size_t i = 0; i < SPIN_FUNCTION_COUNT; i++) {
            if (type != r->v.functions[i])
                continue;
            if (fn < SPIN_FUNCTION_COUNT && spin_functions[fn].op != spin_functions[i].op) {
                fail(r, "expression %s is both sp:%s and sp:%s", show(r, node, shown, sizeof shown),
                     spin_functions[fn].name, spin_functions[i].name);
                return NULL;
            }
            fn = i;
            known = true;
        }
        for (size_t i = 0; i < SPIN_REJECTED_COUNT; i++) {
            if (type == r->v.rejected[i]) {
                fail(r, "sp:%s: %s", spin_rejected[i].name, spin_rejected[i].why);
                return NULL;
            }
        }
        if (!known)
            other_type = type;
    }
    if (fn == SPIN_FUNCTION_COUNT) {
        if (kind == TERM_IRI)
            return sq_expr_term(node); /* an IRI constant, whatever its classes */
        if (other_type)
            fail(r, "expression calls %s, which sentries do not support", show(r, other_type, shown, sizeof shown));
        else if (store_count(r->st, node, 0, 0, 0, r->size) == 0)
            fail(r, "expression is a blank node, which SPARQL expressions cannot hold");
        else
            fail(r, "expression is a blank node that is neither a variable (sp:varName) nor a function call "
                    "(rdf:type sp:gt, ...)");
        return NULL;
    }
    sq_expr *e = sq_expr_new(spin_functions[fn].op);
    if (read_args(r, node, fn, e, depth)) {
        sq_expr_free(e);
        return NULL;
    }
    return e;
}

/* ---- elements ---- */

static sq_node *read_element(spin_reader *r, term_id el, int depth);

/* Reads the list at head, one element per item, into `into`. label names the list ("sp:where"). */
static int read_elements(spin_reader *r, term_id head, const char *label, sq_node *into, int depth) {
    if (depth > SPARQL_GROUP_NESTING) {
        fail(r, "%s", SPARQL_GROUP_NESTING_ERROR);
        return -1;
    }
    term_id *items;
    size_t n;
    if (read_list(r, head, label, &items, &n))
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t mark = where_push(r, "%s element %zu", label, i + 1);
        sq_node *child = read_element(r, items[i], depth);
        where_pop(r, mark);
        if (!child) {
            free(items);
            return -1;
        }
        sq_node_add(into, child);
    }
    free(items);
    return 0;
}

static sq_node *read_filter(spin_reader *r, term_id el, int depth) {
    term_id expression = one(r, el, r->v.expression, "sp:Filter", "sp:expression");
    if (!expression)
        return NULL;
    sq_expr *e = read_expr(r, expression, depth + 1);
    if (!e)
        return NULL;
    sq_node *f = sq_node_new(SQ_FILTER);
    f->filter = e;
    return f;
}

static sq_node *read_optional(spin_reader *r, term_id el, int depth) {
    term_id list = one(r, el, r->v.elements, "sp:Optional", "sp:elements");
    if (!list)
        return NULL;
    sq_node *o = sq_node_new(SQ_OPTIONAL);
    if (read_elements(r, list, "sp:elements", o, depth + 1)) {
        sq_node_free(o);
        return NULL;
    }
    return o;
}

static sq_node *read_union(spin_reader *r, term_id el, int depth) {
    term_id list = one(r, el, r->v.elements, "sp:Union", "sp:elements");
    term_id *alternatives;
    size_t n;
    if (!list || read_list(r, list, "sp:elements", &alternatives, &n))
        return NULL;
    if (n == 0) {
        fail(r, "sp:Union has no alternatives");
        free(alternatives);
        return NULL;
    }
    sq_node *u = sq_node_new(SQ_UNION);
    for (size_t i = 0; i < n; i++) {
        char label[48];
        snprintf(label, sizeof label, "sp:Union alternative %zu", i + 1);
        sq_node *g = sq_node_new(SQ_GROUP);
        sq_node_add(u, g);
        if (read_elements(r, alternatives[i], label, g, depth + 1)) {
            sq_node_free(u);
            free(alternatives);
            return NULL;
        }
    }
    free(alternatives);
    return u;
}

static sq_node *read_triple_pattern(spin_reader *r, term_id el) {
    if (count(r, el, r->v.path)) {
        fail(r, "property paths (sp:path) are not supported");
        return NULL;
    }
    term_id s = one(r, el, r->v.subject, "triple pattern", "sp:subject");
    term_id p = s ? one(r, el, r->v.predicate, "triple pattern", "sp:predicate") : 0;
    term_id o = p ? one(r, el, r->v.object, "triple pattern", "sp:object") : 0;
    if (!o)
        return NULL;
    triple pattern = {read_pattern_term(r, s, "sp:subject", false), read_pattern_term(r, p, "sp:predicate", true),
                      read_pattern_term(r, o, "sp:object", false)};
    if (r->failed)
        return NULL;
    sq_node *n = sq_node_new(SQ_PATTERN);
    n->pattern = pattern;
    return n;
}

static sq_node *read_element(spin_reader *r, term_id el, int depth) {
    char shown[SHOW_MAX];
    enum term_kind kind = terms_kind(r->t, el);
    bool is_node = kind == TERM_BNODE || kind == TERM_IRI;
    if (kind == TERM_LIST || el == T_RDF_NIL || (is_node && count(r, el, T_RDF_FIRST))) {
        sq_node *g = sq_node_new(SQ_GROUP);
        if (read_elements(r, el, "group", g, depth + 1)) {
            sq_node_free(g);
            return NULL;
        }
        return g;
    }
    if (!is_node) {
        fail(r, "%s is not an element (a triple pattern, list, sp:Filter, sp:Optional or sp:Union)",
             show(r, el, shown, sizeof shown));
        return NULL;
    }
    if (has(r, el, r->v.boolean, T_TRUE))
        return sq_node_new(SQ_TRUE);

    term_id cls = 0, other_type = 0;
    store_iter it;
    store_match(r->st, el, T_RDF_TYPE, 0, 0, r->size, &it);
    uint32_t number;
    for (const triple *tr; (tr = store_next(&it, &number));) {
        term_id type = tr->o;
        for (size_t i = 0; i < SPIN_REJECTED_COUNT; i++) {
            if (type == r->v.rejected[i]) {
                fail(r, "sp:%s: %s", spin_rejected[i].name, spin_rejected[i].why);
                return NULL;
            }
        }
        if (type == r->v.filter || type == r->v.optional || type == r->v.union_) {
            if (cls && cls != type) {
                char other[SHOW_MAX];
                fail(r, "element is both %s and %s", show(r, cls, other, sizeof other),
                     show(r, type, shown, sizeof shown));
                return NULL;
            }
            cls = type;
        } else if (type != r->v.triple_pattern) {
            other_type = type;
        }
    }
    if (cls == r->v.filter)
        return read_filter(r, el, depth);
    if (cls == r->v.optional)
        return read_optional(r, el, depth);
    if (cls == r->v.union_)
        return read_union(r, el, depth);
    if (count(r, el, r->v.subject) || count(r, el, r->v.predicate) || count(r, el, r->v.object) ||
        count(r, el, r->v.path) || has(r, el, T_RDF_TYPE, r->v.triple_pattern))
        return read_triple_pattern(r, el);
    if (other_type)
        fail(r, "element of class %s is not supported (sentries take triple patterns, lists, sp:Filter, "
                "sp:Optional and sp:Union)",
             show(r, other_type, shown, sizeof shown));
    else
        fail(r, "element %s is neither a triple pattern (sp:subject, sp:predicate, sp:object), a list, nor an "
                "sp:Filter, sp:Optional or sp:Union",
             show(r, el, shown, sizeof shown));
    return NULL;
}

/* ---- the query ---- */

int sentry_from_spin(terms *t, store *st, term_id query, sq_node **out, char *error, size_t error_len) {
    *out = NULL;
    if (error_len)
        error[0] = '\0';
    spin_reader r = {.t = t, .st = st, .size = store_size(st), .query = query, .error = error,
                     .error_len = error_len};
    vocab_init(&r.v, t);
    r.list_limit = store_count(st, 0, T_RDF_REST, 0, 0, r.size);
    sq_node *root = NULL;
    enum term_kind kind = terms_kind(t, query);
    if (kind != TERM_IRI && kind != TERM_BNODE) {
        fail(&r, "is not an IRI or a blank node");
    } else if (!has(&r, query, T_RDF_TYPE, r.v.ask)) {
        fail(&r, "is not an sp:Ask (no rdf:type sp:Ask)");
    } else if (count(&r, query, r.v.where) == 0 && count(&r, query, sp_term(t, "text"))) {
        fail(&r, "has sp:text and no sp:where: it is query text, for the text front end");
    } else {
        term_id where = one(&r, query, r.v.where, "the query", "sp:where");
        if (where) {
            root = sq_node_new(SQ_GROUP);
            read_elements(&r, where, "sp:where", root, 0);
        }
    }
    buf_free(&r.where);
    if (r.failed) {
        sq_node_free(root);
        return -1;
    }
    sq_normalize(root);
    *out = root;
    return 0;
}
