/* sentry_text.c: the text front end. Parses a sentry's SPARQL ASK text with rasqal (the parser only:
 * rasqal evaluates slowly, docs/DESIGN.md §3) and converts rasqal's graph patterns into a sentry tree.
 *
 * NOTES ON THE DESIGN
 *  1. rasqal_query_prepare already rewrites the query: it merges adjacent basic patterns (reordering
 *     their triples), drops empty groups, folds constant expressions (1+2 becomes 3) and canonicalizes
 *     boolean literals. Each rewrite keeps the answer, and sq_normalize() then gives the same tree the
 *     SPIN front end gives. One rewrite loses scope: `OPTIONAL { { P FILTER(F) } }` comes back as
 *     `OPTIONAL { P FILTER(F) }`, so there F may read variables of the left side.
 *  2. A blank node of a pattern is an anonymous variable in rasqal; it becomes a variable named "_:" +
 *     its label (sentry_ast.h). IN and NOT IN become || of = and && of != (their SPARQL definition).
 *  3. rasqal does not parse property paths, EXISTS or NOT EXISTS: they are syntax errors. What it parses
 *     and the evaluator cannot do (GRAPH, SERVICE, MINUS, BIND, VALUES, sub-queries, FROM, functions
 *     other than the SQ_ ones, aggregates) is rejected here by name.
 *  4. rasqal reports errors through the world's log handler; the parser keeps the first error of a parse
 *     (with its line, and column when known) and puts it in the message. Without a base IRI, relative
 *     IRIs resolve against a reserved base (".invalid" cannot be a real host) and are reported, since
 *     rasqal would otherwise resolve them against the working directory.
 *  5. rasqal 0.9.33 merges adjacent basic patterns of a group by widening a column range over the query's
 *     triple list, even when their triples are not adjacent there: `{ A { B FILTER(F) } { C } }` can make
 *     A's range swallow B, which would then be matched twice. Every triple belongs to one basic pattern, so
 *     a triple read twice shows the fault, and the query is rejected rather than changed. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <raptor2.h>
#include <rasqal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/nesting.h"
#include "rdf/term_rules.h"
#include "rdf/utf8.h"
#include "rdf/rdfio.h"
#include "reason/sentry_ast.h"

#define NO_BASE "http://no-base.invalid/"
/* Far beyond a sentry written by hand or generated from an IN list; see check_nesting. */
#define SPARQL_MAX_OPERATORS 1024
#define SPARQL_MAX_OPERATORS_TEXT "1024"

struct sentry_text_parser {
    terms *t;
    raptor_world *raptor;
    rasqal_world *rasqal;
    char logged[512]; /* the first error rasqal logged during the current parse, "" when none */
};

typedef struct text_reader {
    sentry_text_parser *p;
    terms *t;
    rasqal_query *q;
    bool *claimed; /* per triple of the query: already read as part of a basic pattern (note 5) */
    int triple_count;
    term_id query;
    char *error;
    size_t error_len;
    bool failed;
} text_reader;

static void log_first_error(void *user, raptor_log_message *message) {
    sentry_text_parser *p = user;
    if (message->level < RAPTOR_LOG_LEVEL_ERROR || p->logged[0])
        return;
    const raptor_locator *at = message->locator;
    if (at && at->line > 0 && at->column > 0)
        snprintf(p->logged, sizeof p->logged, "line %d, column %d: %s", at->line, at->column, message->text);
    else if (at && at->line > 0)
        snprintf(p->logged, sizeof p->logged, "line %d: %s", at->line, message->text);
    else
        snprintf(p->logged, sizeof p->logged, "%s", message->text);
}

sentry_text_parser *sentry_text_parser_new(terms *t) {
    sentry_text_parser *p = xcalloc(1, sizeof *p);
    p->t = t;
    /* From rdfio's pool: freeing a raptor world cleans libxml2 up under every other thread (raptor_pool.c). */
    p->raptor = rdfio_world_take();
    raptor_world_set_log_handler(p->raptor, p, log_first_error);
    p->rasqal = rasqal_new_world();
    if (p->rasqal) {
        rasqal_world_set_raptor(p->rasqal, p->raptor);
        rasqal_world_set_log_handler(p->rasqal, p, log_first_error);
        if (rasqal_world_open(p->rasqal) == 0)
            return p;
    }
    sentry_text_parser_free(p);
    return NULL;
}

void sentry_text_parser_free(sentry_text_parser *p) {
    if (!p)
        return;
    if (p->rasqal)
        rasqal_free_world(p->rasqal); /* before the raptor world it uses */
    if (p->raptor)
        rdfio_world_give(p->raptor);
    free(p);
}

__attribute__((format(printf, 2, 3))) static void fail(text_reader *r, const char *fmt, ...) {
    if (r->failed)
        return;
    r->failed = true;
    char what[640];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    sq_error(r->t, r->query, what, r->error, r->error_len);
}

/* ---- terms ---- */

static term_id iri_term(text_reader *r, raptor_uri *uri) {
    size_t len;
    const char *text = (const char *)raptor_uri_as_counted_string(uri, &len);
    if (len >= strlen(NO_BASE) && memcmp(text, NO_BASE, strlen(NO_BASE)) == 0) {
        fail(r, "relative IRI <%s> and no base IRI to resolve it", text + strlen(NO_BASE));
        return 0;
    }
    return terms_iri(r->t, text, len);
}

/* A literal with a datatype, its lexical form as written (rasqal keeps it, booleans aside). */
static term_id typed_literal(text_reader *r, rasqal_literal *l) {
    raptor_uri *datatype = rasqal_literal_datatype(l);
    if (!l->string || !datatype) {
        fail(r, "a %s literal without a lexical form or datatype", rasqal_literal_type_label(l->type));
        return 0;
    }
    term_id dt = iri_term(r, datatype);
    return dt ? terms_literal(r->t, (const char *)l->string, l->string_len, dt, NULL, 0) : 0;
}

/* Our term for a rasqal literal (a constant or a variable); 0 after failing. */
static term_id literal_term(text_reader *r, rasqal_literal *l) {
    if (l->type != RASQAL_LITERAL_URI && l->type != RASQAL_LITERAL_VARIABLE && l->string &&
        memchr(l->string, '\0', l->string_len)) {
        fail(r, "%s", RDF_NUL_LITERAL_ERROR);
        return 0;
    }
    switch (l->type) {
    case RASQAL_LITERAL_URI: return iri_term(r, l->value.uri);
    case RASQAL_LITERAL_VARIABLE: {
        const rasqal_variable *v = l->value.variable;
        if (v->type != RASQAL_VARIABLE_TYPE_ANONYMOUS)
            return terms_var(r->t, (const char *)v->name, strlen((const char *)v->name));
        buf name = {0};
        buf_printf(&name, "_:%s", v->name);
        term_id var = terms_var(r->t, name.data, name.len);
        buf_free(&name);
        return var;
    }
    case RASQAL_LITERAL_STRING:
        if (l->language)
            return terms_literal(r->t, (const char *)l->string, l->string_len, 0, l->language, strlen(l->language));
        if (!l->datatype)
            return terms_literal(r->t, (const char *)l->string, l->string_len, 0, NULL, 0);
        return typed_literal(r, l);
    case RASQAL_LITERAL_XSD_STRING:
    case RASQAL_LITERAL_BOOLEAN:
    case RASQAL_LITERAL_INTEGER:
    case RASQAL_LITERAL_INTEGER_SUBTYPE:
    case RASQAL_LITERAL_FLOAT:
    case RASQAL_LITERAL_DOUBLE:
    case RASQAL_LITERAL_DECIMAL:
    case RASQAL_LITERAL_DATETIME:
    case RASQAL_LITERAL_DATE:
    case RASQAL_LITERAL_UDT: return typed_literal(r, l);
    default:
        fail(r, "a %s term is not supported", rasqal_literal_type_label(l->type));
        return 0;
    }
}

/* ---- expressions ---- */

static sq_expr *convert_expr(text_reader *r, rasqal_expression *e, int depth);

static sq_expr *call(text_reader *r, enum sq_op op, rasqal_expression *const *args, int n, int depth) {
    sq_expr *out = sq_expr_new(op);
    for (int i = 0; i < n; i++) {
        sq_expr *arg = convert_expr(r, args[i], depth + 1);
        if (!arg) {
            sq_expr_free(out);
            return NULL;
        }
        sq_expr_add(out, arg);
    }
    return out;
}

/* `x IN (a, b)` is `x = a || x = b`; `x NOT IN (a, b)` is `x != a && x != b`; an empty list is false
 * (IN) or true (NOT IN). */
static sq_expr *convert_in(text_reader *r, rasqal_expression *e, bool negated, int depth) {
    int n = e->args ? raptor_sequence_size(e->args) : 0;
    if (n == 0)
        return sq_expr_term(negated ? T_TRUE : T_FALSE);
    sq_expr *out = NULL;
    for (int i = 0; i < n; i++) {
        rasqal_expression *pair[2] = {e->arg1, raptor_sequence_get_at(e->args, i)};
        sq_expr *test = call(r, negated ? SQ_NE : SQ_EQ, pair, 2, depth);
        if (!test) {
            sq_expr_free(out);
            return NULL;
        }
        if (out) {
            sq_expr *both = sq_expr_new(negated ? SQ_AND : SQ_OR);
            sq_expr_add(both, out);
            sq_expr_add(both, test);
            out = both;
        } else {
            out = test;
        }
    }
    return out;
}

static sq_expr *convert_expr(text_reader *r, rasqal_expression *e, int depth) {
    if (depth > MAX_NESTING) {
        fail(r, "expressions %s", NESTING_ERROR);
        return NULL;
    }
    rasqal_expression *const binary[2] = {e->arg1, e->arg2};
    rasqal_expression *const ternary[3] = {e->arg1, e->arg2, e->arg3};
    switch (e->op) {
    case RASQAL_EXPR_LITERAL: {
        term_id term = literal_term(r, e->literal);
        return term ? sq_expr_term(term) : NULL;
    }
    case RASQAL_EXPR_AND: return call(r, SQ_AND, binary, 2, depth);
    case RASQAL_EXPR_OR: return call(r, SQ_OR, binary, 2, depth);
    case RASQAL_EXPR_EQ: return call(r, SQ_EQ, binary, 2, depth);
    case RASQAL_EXPR_NEQ: return call(r, SQ_NE, binary, 2, depth);
    case RASQAL_EXPR_LT: return call(r, SQ_LT, binary, 2, depth);
    case RASQAL_EXPR_GT: return call(r, SQ_GT, binary, 2, depth);
    case RASQAL_EXPR_LE: return call(r, SQ_LE, binary, 2, depth);
    case RASQAL_EXPR_GE: return call(r, SQ_GE, binary, 2, depth);
    case RASQAL_EXPR_PLUS: return call(r, SQ_ADD, binary, 2, depth);
    case RASQAL_EXPR_MINUS: return call(r, SQ_SUB, binary, 2, depth);
    case RASQAL_EXPR_STAR: return call(r, SQ_MUL, binary, 2, depth);
    case RASQAL_EXPR_SLASH: return call(r, SQ_DIV, binary, 2, depth);
    case RASQAL_EXPR_SAMETERM: return call(r, SQ_SAME_TERM, binary, 2, depth);
    case RASQAL_EXPR_UMINUS: return call(r, SQ_NEG, binary, 1, depth);
    case RASQAL_EXPR_BANG: return call(r, SQ_NOT, binary, 1, depth);
    case RASQAL_EXPR_BOUND: return call(r, SQ_BOUND, binary, 1, depth);
    case RASQAL_EXPR_STR: return call(r, SQ_STR, binary, 1, depth);
    case RASQAL_EXPR_LANG: return call(r, SQ_LANG, binary, 1, depth);
    case RASQAL_EXPR_DATATYPE: return call(r, SQ_DATATYPE, binary, 1, depth);
    case RASQAL_EXPR_ISURI: return call(r, SQ_IS_IRI, binary, 1, depth);
    case RASQAL_EXPR_ISBLANK: return call(r, SQ_IS_BLANK, binary, 1, depth);
    case RASQAL_EXPR_ISLITERAL: return call(r, SQ_IS_LITERAL, binary, 1, depth);
    case RASQAL_EXPR_REGEX: return call(r, SQ_REGEX, ternary, e->arg3 ? 3 : 2, depth);
    case RASQAL_EXPR_IN: return convert_in(r, e, false, depth);
    case RASQAL_EXPR_NOT_IN: return convert_in(r, e, true, depth);
    case RASQAL_EXPR_FUNCTION:
        fail(r, "FILTER calls <%s>, which sentries do not support",
             e->name ? (const char *)raptor_uri_as_string(e->name) : "?");
        return NULL;
    default:
        fail(r, "FILTER uses %s, which sentries do not support", rasqal_expression_op_label(e->op));
        return NULL;
    }
}

/* ---- graph patterns ---- */

static int add_element(text_reader *r, rasqal_graph_pattern *gp, sq_node *into, int depth);

/* The position of a basic pattern's first triple in the query's triple list; -1 when not found. */
static int first_column(text_reader *r, const rasqal_triple *first) {
    for (int i = 0; i < r->triple_count; i++)
        if (rasqal_query_get_triple(r->q, i) == first)
            return i;
    return -1;
}

static int add_triples(text_reader *r, rasqal_graph_pattern *gp, sq_node *into) {
    rasqal_triple *t;
    int start = -1;
    for (int i = 0; (t = rasqal_graph_pattern_get_triple(gp, i)); i++) {
        if (i == 0)
            start = first_column(r, t);
        if (start >= 0 && start + i < r->triple_count) {
            if (r->claimed[start + i]) {
                fail(r, "rasqal merged a group's triple patterns with those of a nested group (a rasqal 0.9.33 "
                        "fault); remove the braces around groups that hold only triple patterns, or write the "
                        "sentry in SPIN");
                return -1;
            }
            r->claimed[start + i] = true;
        }
        if (t->origin) {
            fail(r, "GRAPH is not supported (sentries match the union of working memory)");
            return -1;
        }
        triple pattern = {literal_term(r, t->subject), literal_term(r, t->predicate), literal_term(r, t->object)};
        if (r->failed)
            return -1;
        sq_node *n = sq_node_new(SQ_PATTERN);
        n->pattern = pattern;
        sq_node_add(into, n);
    }
    return 0;
}

/* Adds to the group `into` what gp holds: a group's parts, a basic pattern's triples, or gp itself. */
static int add_contents(text_reader *r, rasqal_graph_pattern *gp, sq_node *into, int depth) {
    if (depth > SPARQL_GROUP_NESTING) {
        fail(r, "%s", SPARQL_GROUP_NESTING_ERROR);
        return -1;
    }
    if (rasqal_graph_pattern_get_operator(gp) != RASQAL_GRAPH_PATTERN_OPERATOR_GROUP)
        return add_element(r, gp, into, depth);
    rasqal_graph_pattern *sub;
    for (int i = 0; (sub = rasqal_graph_pattern_get_sub_graph_pattern(gp, i)); i++)
        if (add_element(r, sub, into, depth))
            return -1;
    return 0;
}

/* Adds gp as one element of the group `into` (a basic pattern adds its triples). */
static int add_element(text_reader *r, rasqal_graph_pattern *gp, sq_node *into, int depth) {
    rasqal_graph_pattern_operator op = rasqal_graph_pattern_get_operator(gp);
    rasqal_expression *condition = rasqal_graph_pattern_get_filter_expression(gp);
    bool plain = op == RASQAL_GRAPH_PATTERN_OPERATOR_BASIC || op == RASQAL_GRAPH_PATTERN_OPERATOR_GROUP ||
                 op == RASQAL_GRAPH_PATTERN_OPERATOR_OPTIONAL || op == RASQAL_GRAPH_PATTERN_OPERATOR_UNION;
    if (condition && plain) { /* rasqal keeps filters as FILTER patterns; a pattern holding one is unknown */
        fail(r, "a %s pattern carrying a filter is not supported", rasqal_graph_pattern_operator_as_string(op));
        return -1;
    }
    sq_node *n = NULL;
    rasqal_graph_pattern *sub;
    switch (op) {
    case RASQAL_GRAPH_PATTERN_OPERATOR_BASIC: return add_triples(r, gp, into);
    case RASQAL_GRAPH_PATTERN_OPERATOR_GROUP:
        n = sq_node_new(SQ_GROUP);
        if (add_contents(r, gp, n, depth + 1))
            goto failed;
        break;
    case RASQAL_GRAPH_PATTERN_OPERATOR_OPTIONAL:
        n = sq_node_new(SQ_OPTIONAL);
        for (int i = 0; (sub = rasqal_graph_pattern_get_sub_graph_pattern(gp, i)); i++)
            if (add_contents(r, sub, n, depth + 1))
                goto failed;
        break;
    case RASQAL_GRAPH_PATTERN_OPERATOR_UNION:
        n = sq_node_new(SQ_UNION);
        for (int i = 0; (sub = rasqal_graph_pattern_get_sub_graph_pattern(gp, i)); i++) {
            sq_node *alternative = sq_node_new(SQ_GROUP);
            sq_node_add(n, alternative);
            if (add_contents(r, sub, alternative, depth + 1))
                goto failed;
        }
        break;
    case RASQAL_GRAPH_PATTERN_OPERATOR_FILTER: {
        sq_expr *e = condition ? convert_expr(r, condition, depth + 1) : NULL;
        if (!e) {
            fail(r, "FILTER without an expression");
            return -1;
        }
        n = sq_node_new(SQ_FILTER);
        n->filter = e;
        break;
    }
    case RASQAL_GRAPH_PATTERN_OPERATOR_GRAPH:
        fail(r, "GRAPH is not supported (sentries match the union of working memory)");
        return -1;
    case RASQAL_GRAPH_PATTERN_OPERATOR_SERVICE:
        fail(r, "SERVICE is not supported (sentries read working memory only)");
        return -1;
    case RASQAL_GRAPH_PATTERN_OPERATOR_MINUS: fail(r, "MINUS is not supported (use OPTIONAL with !bound)"); return -1;
    case RASQAL_GRAPH_PATTERN_OPERATOR_LET: fail(r, "BIND is not supported"); return -1;
    case RASQAL_GRAPH_PATTERN_OPERATOR_VALUES: fail(r, "VALUES is not supported"); return -1;
    case RASQAL_GRAPH_PATTERN_OPERATOR_SELECT: fail(r, "sub-queries are not supported"); return -1;
    default:
        fail(r, "%s patterns are not supported", rasqal_graph_pattern_operator_as_string(op));
        return -1;
    }
    sq_node_add(into, n);
    return 0;
failed:
    sq_node_free(n);
    return -1;
}

/* ---- the query ---- */

/* A SELECT's projection: its variables, each named once; nothing else of SELECT's solution modifiers
 * (an argument query's solutions are counted, exactly one being wanted, so order and slices have no
 * meaning there, and DISTINCT is what counting does anyway). */
static int convert_projection(text_reader *r, rasqal_query *q, term_id **vars, size_t *var_count) {
    if (rasqal_query_get_wildcard(q)) {
        fail(r, "SELECT * is not supported: name the variables the request uses");
        return -1;
    }
    if (rasqal_query_get_limit(q) >= 0 || rasqal_query_get_offset(q) >= 0 ||
        rasqal_query_get_order_condition(q, 0) || rasqal_query_get_group_condition(q, 0) ||
        rasqal_query_get_having_condition(q, 0)) {
        fail(r, "ORDER BY, GROUP BY, HAVING, LIMIT and OFFSET are not supported (exactly one solution is wanted)");
        return -1;
    }
    raptor_sequence *seq = rasqal_query_get_bound_variable_sequence(q);
    int n = seq ? raptor_sequence_size(seq) : 0;
    if (n == 0) {
        fail(r, "the SELECT names no variable");
        return -1;
    }
    *vars = xcalloc((size_t)n, sizeof **vars);
    for (int i = 0; i < n; i++) {
        rasqal_variable *v = raptor_sequence_get_at(seq, i);
        if (v->expression) {
            fail(r, "the SELECT's (expression AS ?%s) is not supported: select variables only", v->name);
            free(*vars);
            *vars = NULL;
            return -1;
        }
        (*vars)[i] = terms_var(r->t, (const char *)v->name, strlen((const char *)v->name));
    }
    *var_count = (size_t)n;
    return 0;
}

/* vars is NULL for an ASK query (a sentry); else the query must be a SELECT, whose projection goes there. */
static sq_node *convert_query(text_reader *r, rasqal_query *q, term_id **vars, size_t *var_count) {
    rasqal_query_verb verb = rasqal_query_get_verb(q);
    if (!vars && verb != RASQAL_QUERY_VERB_ASK) {
        fail(r, "is a %s query; a sentry is an ASK query", rasqal_query_verb_as_string(verb));
        return NULL;
    }
    if (vars && verb != RASQAL_QUERY_VERB_SELECT) {
        fail(r, "is a %s query; arguments are a SELECT query", rasqal_query_verb_as_string(verb));
        return NULL;
    }
    raptor_sequence *graphs = rasqal_query_get_data_graph_sequence(q);
    if (graphs && raptor_sequence_size(graphs) > 0) {
        fail(r, "FROM and FROM NAMED are not supported (sentries match working memory)");
        return NULL;
    }
    raptor_sequence *rows = rasqal_query_get_bindings_rows_sequence(q);
    if (rows || rasqal_query_get_bindings_variables_sequence(q)) {
        fail(r, "VALUES is not supported");
        return NULL;
    }
    rasqal_graph_pattern *gp = rasqal_query_get_query_graph_pattern(q);
    if (!gp) {
        fail(r, "the query has no graph pattern");
        return NULL;
    }
    raptor_sequence *triples = rasqal_query_get_triple_sequence(q);
    r->q = q;
    r->triple_count = triples ? raptor_sequence_size(triples) : 0;
    r->claimed = xcalloc(r->triple_count ? (size_t)r->triple_count : 1, sizeof *r->claimed);
    sq_node *root = sq_node_new(SQ_GROUP);
    int rc = add_contents(r, gp, root, 0);
    free(r->claimed);
    if (!rc && vars)
        rc = convert_projection(r, q, vars, var_count);
    if (rc) {
        sq_node_free(root);
        return NULL;
    }
    sq_normalize(root);
    return root;
}

/* ---- the nesting bound, before rasqal ---- */

/* The end of a string starting at i (its quote), or SIZE_MAX when it does not end (the text ends, or a
 * line does inside a short string). */
static size_t string_end(const char *text, size_t len, size_t i) {
    char q = text[i];
    bool long_form = i + 2 < len && text[i + 1] == q && text[i + 2] == q;
    for (i += long_form ? 3 : 1; i < len; i++) {
        if (text[i] == '\\') {
            i++;
        } else if (text[i] == q && (!long_form || (i + 2 < len && text[i + 1] == q && text[i + 2] == q))) {
            return i + (long_form ? 3 : 1);
        } else if (!long_form && (text[i] == '\n' || text[i] == '\r')) {
            return SIZE_MAX;
        }
    }
    return SIZE_MAX;
}

/* The end of an IRI at i as SPARQL's grammar reads it ('<', no character an IRI cannot hold, '>'), or i
 * when '<' is an operator there. */
static size_t iri_end(const char *text, size_t len, size_t i) {
    for (size_t k = i + 1; k < len; k++) {
        unsigned char c = (unsigned char)text[k];
        if (c == '>')
            return k + 1;
        if (c <= 0x20 || strchr("<\"{}|^`\\", c))
            return i;
    }
    return i;
}

/* The same as rasqal 0.9.33's lexer reads it (its QUOTEDURI, <[^><= ][^>]*>: spaces, quotes and braces
 * included), or i. */
static size_t rasqal_iri_end(const char *text, size_t len, size_t i) {
    if (i + 1 >= len || strchr("><= ", text[i + 1]))
        return i;
    const char *close = memchr(text + i + 1, '>', len - i - 1);
    return close ? (size_t)(close - text) + 1 : i;
}

/* Marks in quoted[] the bytes one reading of the text takes as the inside of a string, an IRI or a
 * comment: SPARQL's grammar's, or rasqal's lexer's (which also ends '#' comments at '\r', and has '//' and
 * slash-star comments). A string that does not end runs to the end of the text; the first such string, or
 * one escaping U+0000, is *bad_at (what is wrong: *bad), left alone when there is none. */
static void mark_quoted(const char *text, size_t len, bool rasqal_reading, bool *quoted, size_t *bad_at,
                        const char **bad) {
    for (size_t i = 0; i < len;) {
        char c = text[i];
        size_t end = i;
        if (c == '"' || c == '\'') {
            end = string_end(text, len, i);
            const char *wrong = end == SIZE_MAX ? "a string that does not end"
                                : rdf_nul_escape_at(text + i, end - i) < end - i ? RDF_NUL_LITERAL_ERROR
                                                                                   : NULL;
            if (wrong && !*bad) {
                *bad = wrong;
                *bad_at = i;
            }
            end = end == SIZE_MAX ? len : end;
        } else if (c == '<') {
            end = rasqal_reading ? rasqal_iri_end(text, len, i) : iri_end(text, len, i);
        } else if (c == '#' || (rasqal_reading && c == '/' && i + 1 < len && text[i + 1] == '/')) {
            for (end = i; end < len && text[end] != '\n' && !(rasqal_reading && text[end] == '\r'); end++) {}
        } else if (rasqal_reading && c == '/' && i + 1 < len && text[i + 1] == '*') {
            const char *close = i + 2 < len ? memmem(text + i + 2, len - i - 2, "*/", 2) : NULL;
            end = close ? (size_t)(close - text) + 2 : len;
        }
        if (end == i) {
            i++;
            continue;
        }
        memset(quoted + i, 1, end - i);
        i = end;
    }
}

/* An operator character that is not part of a name ('-' in ex:a-b is not one). */
static bool is_operator(const char *text, size_t len, size_t i) {
    char c = text[i];
    if (c == '-')
        return !(i > 0 && i + 1 < len && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_') &&
                 (isalnum((unsigned char)text[i + 1]) || text[i + 1] == '_'));
    return strchr("+*/=!&|<>", c) != NULL;
}

/* Finds what rasqal must not read before it does: brackets of any kind nested deeper than MAX_NESTING
 * (rasqal's parser stack runs out further on, "memory exhausted"), braces deeper than
 * SPARQL_GROUP_NESTING (its preparation is exponential in them), more than SPARQL_MAX_OPERATORS operators
 * (it folds an operator chain in time quadratic in its length, recursing once per operator), a string that
 * does not end (its lexer leaks what it read of it), an escape of U+0000 in a string (it would cut the
 * literal there), a backslash outside one or bytes that are not UTF-8 (its lexer crashes on some).
 * Where the grammar's reading and rasqal's lexer's differ on what is a string, an IRI or a comment, the
 * count takes the deeper: an opener counts unless both readings quote it, a closer only when neither does.
 * 0 when the text is within the bounds. */
static int check_nesting(text_reader *r, const char *text) {
    size_t len = strlen(text);
    bool *grammar_quoted = xcalloc(len + 1, 1), *rasqal_quoted = xcalloc(len + 1, 1);
    /* a string either reading finds wrong is refused: the grammar's may take for a comment what rasqal
     * reads as an IRI followed by a string (<h#x> """...) */
    const char *string_wrong = NULL, *rasqal_wrong = NULL;
    size_t string_wrong_at = len, rasqal_wrong_at = len;
    mark_quoted(text, len, false, grammar_quoted, &string_wrong_at, &string_wrong);
    mark_quoted(text, len, true, rasqal_quoted, &rasqal_wrong_at, &rasqal_wrong);
    if (rasqal_wrong_at < string_wrong_at) {
        string_wrong_at = rasqal_wrong_at;
        string_wrong = rasqal_wrong;
    }
    /* SPARQL reads code point escapes anywhere in a query, and rasqal's lexer crashes on an escape outside
     * a string (\u0000, or \u with a byte that is no hex digit: fuzz_sentry_text); no sentry needs one */
    for (size_t k = 0; k < string_wrong_at; k++)
        if (text[k] == '\\' && !grammar_quoted[k]) {
            string_wrong_at = k;
            string_wrong = "a backslash outside a string (sentries take no escapes there)";
        }
    size_t invalid = 0;
    for (uint32_t cp; invalid < len;) {
        size_t n = utf8_decode(text + invalid, len - invalid, &cp);
        if (!n)
            break;
        invalid += n;
    }
    if (invalid < string_wrong_at) {
        string_wrong_at = invalid;
        string_wrong = "text that is not UTF-8";
    }
    unsigned depth = 0, braces = 0, operators = 0, line = 1;
    size_t line_start = 0, i = 0;
    const char *wrong = NULL;
    for (; i < len; i++) {
        char c = text[i];
        if (i == string_wrong_at) {
            wrong = string_wrong;
            break;
        }
        bool code = !grammar_quoted[i] || !rasqal_quoted[i]; /* code in one reading at least */
        bool surely_code = !grammar_quoted[i] && !rasqal_quoted[i];
        if (code && (c == '(' || c == '[' || c == '{')) {
            braces += c == '{';
            if (++depth > MAX_NESTING)
                wrong = NESTING_ERROR;
            else if (braces > SPARQL_GROUP_NESTING)
                wrong = SPARQL_GROUP_NESTING_ERROR;
        } else if (surely_code && (c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
            braces -= c == '}' && braces > 0;
        } else if (code && is_operator(text, len, i) && ++operators > SPARQL_MAX_OPERATORS) {
            wrong = "more than " SPARQL_MAX_OPERATORS_TEXT " operators";
        }
        if (wrong)
            break;
        if (c == '\n') {
            line++;
            line_start = i + 1;
        }
    }
    free(grammar_quoted);
    free(rasqal_quoted);
    if (!wrong)
        return 0;
    unsigned col = 1;
    for (size_t k = line_start; k < i; k++) /* columns count characters */
        col += ((unsigned char)text[k] & 0xC0) != 0x80;
    fail(r, "%s at %u:%u", wrong, line, col);
    return -1;
}

static int from_text(sentry_text_parser *p, term_id query, const char *text, const char *base, sq_node **out,
                     term_id **vars, size_t *var_count, char *error, size_t error_len) {
    *out = NULL;
    if (error_len)
        error[0] = '\0';
    text_reader r = {.p = p, .t = p->t, .query = query, .error = error, .error_len = error_len};
    if (!text) {
        fail(&r, "no query text");
        return -1;
    }
    if (check_nesting(&r, text))
        return -1;
    p->logged[0] = '\0';
    rasqal_query *q = rasqal_new_query(p->rasqal, "sparql11-query", NULL);
    raptor_uri *base_uri = raptor_new_uri(p->raptor, (const unsigned char *)(base ? base : NO_BASE));
    if (!q || !base_uri)
        fail(&r, "rasqal could not start a query%s%s", p->logged[0] ? ": " : "", p->logged);
    else if (rasqal_query_prepare(q, (const unsigned char *)text, base_uri))
        fail(&r, "%s", p->logged[0] ? p->logged : "rasqal could not parse the query");
    else
        *out = convert_query(&r, q, vars, var_count);
    if (base_uri)
        raptor_free_uri(base_uri);
    if (q)
        rasqal_free_query(q);
    return r.failed ? -1 : 0;
}

int sentry_from_text(sentry_text_parser *p, term_id query, const char *text, const char *base, sq_node **out,
                     char *error, size_t error_len) {
    return from_text(p, query, text, base, out, NULL, NULL, error, error_len);
}

int select_from_text(sentry_text_parser *p, term_id query, const char *text, const char *base, sq_node **out,
                     term_id **vars, size_t *var_count, char *error, size_t error_len) {
    *vars = NULL;
    *var_count = 0;
    return from_text(p, query, text, base, out, vars, var_count, error, error_len);
}
