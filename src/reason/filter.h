/* filter.h: SPARQL FILTER expressions (sentry_ast.h's sq_expr) evaluated over a binding, with SPARQL's
 * semantics: comparisons of numbers by value (XPath promotion), of strings by code point, of
 * xsd:dateTime by instant, of booleans; errors (an unbound variable, a type mismatch) make a comparison an
 * error, `&&` and `||` absorb errors as SPARQL 1.1 section 17.2 says, and a FILTER holds only when its
 * effective boolean value is true. */
#ifndef LDGSM_REASON_FILTER_H
#define LDGSM_REASON_FILTER_H

#include <stdbool.h>

#include "reason/sentry_ast.h"

/* The value bound to a variable term, or 0 when unbound. */
typedef term_id (*filter_lookup)(void *user, term_id var);

bool filter_holds_for(terms *t, const sq_expr *e, filter_lookup lookup, void *user);

#endif
