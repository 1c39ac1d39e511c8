/* builtin_family.h: what the builtin families (builtins_<namespace>.c) share: their tables, which
 * builtins.c searches, and the argument readers and result emitters of builtin_args.c.
 *
 * A function emits (subject, computed object) when the object is unbound, and its inputs when the bound
 * object is the computed one: as the same term (emit_result), or, for numbers and times, as an equal value
 * (3 = 3.0; the same instant in another timezone), as EYE compares. A test emits its inputs when it holds. */
#ifndef LDGSM_REASON_BUILTIN_FAMILY_H
#define LDGSM_REASON_BUILTIN_FAMILY_H

#include <stddef.h>

#include "reason/builtins.h"

struct number;
struct xsd_time;

extern const builtin builtins_log[], builtins_log_reading[], builtins_math[], builtins_time[], builtins_string[],
    builtins_list[], builtins_crypto[];
extern const size_t builtins_log_count, builtins_log_reading_count, builtins_math_count, builtins_time_count,
    builtins_string_count, builtins_list_count, builtins_crypto_count;

/* The items of a list term or rdf:nil (an empty list); false when the term is not a list. */
bool list_of(const terms *t, term_id id, const term_id **items, size_t *n);
/* The two items of a two-item list (0 or anything else: false). */
bool pair_of(const terms *t, term_id list, term_id *first, term_id *second);
/* A literal's lexical form; false for anything else. */
bool string_of(const terms *t, term_id id, const char **text, size_t *len);
/* string_of, for a string without a NUL inside (C string functions can take it). */
bool c_string_of(const terms *t, term_id id, const char **text, size_t *len);
term_id simple_literal(terms *t, const char *text, size_t len);
void emit_result(term_id subject, term_id object, term_id result, builtin_emit emit, void *user);
void emit_number(terms *t, term_id subject, term_id object, const struct number *result, builtin_emit emit,
                 void *user);
void emit_time(terms *t, term_id subject, term_id object, const struct xsd_time *result, builtin_emit emit,
               void *user);

/* Defines the builtin `name` as a call of the generic builtin `generic` with the builtin's arguments and,
 * between the object and emit, the variant's own (...): a family's variants are one line each. */
#define BUILTIN_VARIANT(name, generic, ...)                                                                    \
    static void name(terms *t, term_id subject, term_id object, builtin_emit emit, void *user) {               \
        generic(t, subject, object, __VA_ARGS__, emit, user);                                                  \
    }

#endif
