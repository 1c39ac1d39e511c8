/* dep_expr.h: expressions of Singh's intertask dependency algebra (seed 001): the dependency language E
 * (event literals, 0, T, sequence, and, or) and the guard language T over it (box: will always hold,
 * diamond: will eventually hold, not: does not hold yet), with the event table they share.
 *
 * An event is a symbol; a literal is a symbol or its complement, numbered 2*symbol (the event) and
 * 2*symbol+1 (its complement). Expressions live in an arena owned by the event table's dep_set and are
 * never freed one by one: the algebra builds many small trees and drops them together. */
#ifndef LDGSM_DEPS_DEP_EXPR_H
#define LDGSM_DEPS_DEP_EXPR_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { DEP_ZERO, DEP_TOP, DEP_LIT, DEP_SEQ, DEP_AND, DEP_OR, DEP_BOX, DEP_DIA, DEP_NOT } dep_kind;

typedef struct dep_expr {
    dep_kind kind;
    int lit;                    /* DEP_LIT */
    const struct dep_expr *a;   /* SEQ/AND/OR: left; BOX/DIA/NOT: operand */
    const struct dep_expr *b;   /* SEQ/AND/OR: right */
} dep_expr;

#define DEP_SYMBOL(lit) ((lit) >> 1)
#define DEP_COMPLEMENT(lit) ((lit) ^ 1)
#define DEP_NEGATED(lit) ((lit) & 1)

typedef struct dep_arena dep_arena;

typedef struct {
    char **names;   /* by symbol */
    size_t count;
    size_t capacity;
    int *slots;     /* an open-addressed table of the names: symbol, or -1 */
    size_t slot_count;
    dep_arena *arena;
} dep_events;

void dep_events_init(dep_events *ev);
void dep_events_free(dep_events *ev);
/* The symbol named name (len bytes), added when new; -1 when out of memory. */
int dep_events_symbol(dep_events *ev, const char *name, size_t len);
/* -1 when no such symbol */
int dep_events_find(const dep_events *ev, const char *name);

/* Constructors fold constants (0 & x = 0, T | x = T, 0 . x = 0, [] T = T, ...) and nothing else: the
 * algebra's simplifications are semantic (dep_minimize.h), not syntactic. NULL only when out of memory,
 * and every constructor passes a NULL operand on. */
const dep_expr *dep_zero(void);
const dep_expr *dep_top(void);
const dep_expr *dep_lit(dep_events *ev, int lit);
const dep_expr *dep_seq(dep_events *ev, const dep_expr *a, const dep_expr *b);
const dep_expr *dep_and(dep_events *ev, const dep_expr *a, const dep_expr *b);
const dep_expr *dep_or(dep_events *ev, const dep_expr *a, const dep_expr *b);
const dep_expr *dep_unary(dep_events *ev, dep_kind kind, const dep_expr *a);

/* The symbols an expression mentions, ascending, into out (room for max); returns how many there are
 * (more than max when they did not fit). */
size_t dep_symbols(const dep_expr *e, int *out, size_t max);
bool dep_expr_equal(const dep_expr *a, const dep_expr *b);

/* Writes e in the text syntax (dep_parse.h), with the parentheses precedence needs, NUL-terminated;
 * returns the length it needs (as snprintf does). */
size_t dep_print(const dep_events *ev, const dep_expr *e, char *out, size_t len);
/* The same into a new string (free it); NULL when out of memory. */
char *dep_to_string(const dep_events *ev, const dep_expr *e);
/* A literal's name: "e" or "~e", into out. */
size_t dep_print_lit(const dep_events *ev, int lit, char *out, size_t len);

#endif
