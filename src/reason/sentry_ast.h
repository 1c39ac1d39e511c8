/* sentry_ast.h: a sentry (a SPARQL ASK query, docs/DESIGN.md §5.3) as a tree the rule engine compiles:
 * triple patterns, FILTER expressions, OPTIONAL, UNION and nested groups. Two front ends build it: one
 * from SPIN RDF in working memory (sp:Ask with an sp:where list), one from query text (sp:text, parsed by
 * rasqal). Variables are TERM_VAR terms named as in the query (without '?'); a blank node of a pattern
 * (a SPARQL `_:b` or `[]`, a SPIN blank node with no properties) is a variable named "_:" + its label,
 * which no query variable can be called. gsm:thisArtifactInstance stays the IRI (the evaluator binds it).
 *
 * Both front ends return the tree in one canonical form, so one query gives one tree whichever way it is
 * written (the form changes the order of elements, never the answer):
 *  1. The root is an SQ_GROUP. Every SQ_UNION child is an SQ_GROUP (an alternative); a union has at least
 *     two, and an alternative holding only a union is replaced by that union's alternatives.
 *  2. The children of a group, of an optional, or of an alternative are one SPARQL group: its FILTERs
 *     come last (SPARQL applies a group's filters to the whole group, wherever written; inside an
 *     OPTIONAL they are the left join's condition). Between OPTIONALs, elements are joined in any order,
 *     so each stretch is sorted (by term ids); OPTIONALs keep their places.
 *  3. A nested group is spliced into its parent when that changes nothing: when it holds no FILTER and
 *     no OPTIONAL, or when it is its parent's only non-filter child (not for an OPTIONAL's child holding
 *     a FILTER, whose condition may read the left side). */
#ifndef LDGSM_REASON_SENTRY_AST_H
#define LDGSM_REASON_SENTRY_AST_H

#include <stddef.h>

#include "rdf/buf.h"
#include "rdf/store.h"
#include "rdf/term.h"

enum sq_op {
    SQ_TERM,    /* a constant term or a variable (TERM_VAR) */
    SQ_AND, SQ_OR, SQ_NOT,
    SQ_EQ, SQ_NE, SQ_LT, SQ_GT, SQ_LE, SQ_GE,
    SQ_ADD, SQ_SUB, SQ_MUL, SQ_DIV, SQ_NEG,
    SQ_BOUND, SQ_IS_IRI, SQ_IS_BLANK, SQ_IS_LITERAL, SQ_STR, SQ_LANG, SQ_DATATYPE, SQ_SAME_TERM,
    SQ_REGEX,   /* args: text, pattern[, flags] */
};

typedef struct sq_expr {
    enum sq_op op;
    term_id term;            /* SQ_TERM */
    struct sq_expr **args;
    size_t arg_count;
} sq_expr;

enum sq_kind {
    SQ_PATTERN,  /* a triple pattern */
    SQ_FILTER,   /* FILTER(expr) over the enclosing group */
    SQ_GROUP,    /* a conjunction of children */
    SQ_OPTIONAL, /* OPTIONAL { children } (a left join with the preceding part of the group) */
    SQ_UNION,    /* children are alternatives (each a group) */
    SQ_TRUE,     /* a where-element pre-marked sparql-results:boolean true */
};

typedef struct sq_node {
    enum sq_kind kind;
    triple pattern;          /* SQ_PATTERN */
    sq_expr *filter;         /* SQ_FILTER */
    struct sq_node **children;
    size_t child_count;
} sq_node;

/* ---- front ends ---- */

/* Builds the tree of the SPIN query `query` (an sp:Ask) described in st. Lists are rdf:first/rest chains
 * (or list terms of N3 documents). Returns 0, or -1 with a message naming the query node, the element
 * and what is wrong ("sentry <q>: sp:where element 2: triple pattern has no sp:predicate"). */
int sentry_from_spin(terms *t, store *st, term_id query, sq_node **out, char *error, size_t error_len);

/* The text front end's context: it owns a rasqal world, which is costly to create, so make one and reuse
 * it for every sentry (one thread at a time). NULL when rasqal cannot start. */
typedef struct sentry_text_parser sentry_text_parser;
sentry_text_parser *sentry_text_parser_new(terms *t);
void sentry_text_parser_free(sentry_text_parser *p);

/* Builds the tree of ASK query text (prefixes may be declared in it; base resolves relative IRIs; with no
 * base a relative IRI is an error). query names the sentry in messages (0: "sentry text"). Returns 0, or
 * -1 with a message (syntax errors carry the line, and the column when rasqal gives one). */
int sentry_from_text(sentry_text_parser *p, term_id query, const char *text, const char *base, sq_node **out,
                     char *error, size_t error_len);

/* The same for a SELECT query (an argument query, docs/DESIGN.md §8.3): *vars (owned by the caller) receives
 * its projected variables in order. SELECT *, expressions in the projection and solution modifiers other
 * than DISTINCT and REDUCED are refused. */
int select_from_text(sentry_text_parser *p, term_id query, const char *text, const char *base, sq_node **out,
                     term_id **vars, size_t *var_count, char *error, size_t error_len);

void sq_node_free(sq_node *n);
void sq_expr_free(sq_expr *e);

/* ---- building and showing trees (the front ends and tests) ---- */

sq_node *sq_node_new(enum sq_kind kind);
void sq_node_add(sq_node *parent, sq_node *child);
sq_expr *sq_expr_new(enum sq_op op);
sq_expr *sq_expr_term(term_id term);
void sq_expr_add(sq_expr *e, sq_expr *arg);
/* Writes the front ends' message form into error: "sentry <query>: what" ("sentry text: what" for 0). */
void sq_error(const terms *t, term_id query, const char *what, char *error, size_t error_len);
/* The `what` of an sq_error message about query (the message itself when it names another). */
const char *sq_error_what(const terms *t, term_id query, const char *error);
/* Puts the tree under a root group into the canonical form described above. */
void sq_normalize(sq_node *root);
/* Appends the tree as one line, e.g. `(group (pattern ?m <p> "1") (filter (> ?x 3)))`. */
void sq_print(const terms *t, const sq_node *n, buf *out);
void sq_print_expr(const terms *t, const sq_expr *e, buf *out);

#endif
