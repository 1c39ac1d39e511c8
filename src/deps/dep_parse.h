/* dep_parse.h: the text syntax of dependencies, guards and event attributes (ldgsm deps FILE):
 *
 *   # the dependency of Singh's Example 2 and its relative D->
 *   D<:  ~e | ~f | e . f
 *   D->: ~e | f
 *   inevitable f
 *   immediate ~c_book
 *   triggerable s_book
 *
 * An event is a name ([A-Za-z_][A-Za-z0-9_]*), ~e its complement; 0 and T the constants; `.` sequence,
 * `&` and, `|` or; the guard operators `[]` (box), `<>` (diamond) and `!` (not yet). Binding, tightest
 * first, as the paper has it: `!` and `~`, `.`, `[]` and `<>`, `&`, `|`; parentheses group. The paper's
 * signs are read too (□ ◇ ¬ · ∧ ∨ ⊤). A statement ends at the end of its line unless a parenthesis is
 * open or the line ends with an operator. A dependency's name is what precedes its colon. */
#ifndef LDGSM_DEPS_DEP_PARSE_H
#define LDGSM_DEPS_DEP_PARSE_H

#include <stddef.h>

#include "deps/dep_expr.h"

/* Event attributes (section 3.2), per literal: an abort can be immediate while its commit is normal. */
enum { DEP_INEVITABLE = 1, DEP_IMMEDIATE = 2, DEP_TRIGGERABLE = 4 };

typedef struct {
    char *name;
    const dep_expr *expr;
    int line;
    char *path; /* the file it was read from */
} dep_dependency;

/* Where a literal was first given an attribute, for the message when no dependency mentions it. */
typedef struct {
    char *path;
    int line, col;
} dep_place;

typedef struct {
    dep_events ev;
    dep_dependency *deps;
    size_t count;
    size_t capacity;
    unsigned char *attributes; /* by literal */
    dep_place *attribute_places; /* by literal: path NULL when it has none */
    size_t attributes_len;
} dep_set;

void dep_set_init(dep_set *set);
void dep_set_free(dep_set *set);
/* Reads statements into set (several files may be read into one set). 0, or -1 with
 * "PATH:LINE:COL: what" in err; a text with no statement (empty, or only comments) is refused. */
int dep_set_read(dep_set *set, const char *path, const char *text, size_t len, char *err, size_t err_len);
/* Once every file is read: every attribute names an event some dependency mentions. The paper's attributes
 * act only through the dependencies that mention their event (alpha, Definition 21; a guard is T by
 * Theorem 22 otherwise), so one on an event no dependency mentions changes nothing: a misspelt name. 0, or
 * -1 with "PATH:LINE:COL: what" (the attribute's place) in err. */
int dep_set_check(const dep_set *set, char *err, size_t err_len);
unsigned dep_attributes(const dep_set *set, int lit);

/* One expression (a dependency or a guard) over set's events, new names added: NULL with "COL: what"
 * in err. */
const dep_expr *dep_parse_expr(dep_events *ev, const char *text, char *err, size_t err_len);
/* A literal ("e" or "~e") of a known event, or -1. */
int dep_parse_lit(const dep_events *ev, const char *text);

#endif
