/* condition_text.h: the SPARQL ASK text of a pattern's conditions, taken apart so that the compiler can
 * put several of them, and their negations, into one generated sentry: the PREFIX declarations and the
 * group after ASK, with every variable and blank node label renamed apart (`?x` of condition 3 becomes
 * `?c3_x`), so that two conditions in one query never share a variable by accident.
 *
 * The scanner knows SPARQL's lexical structure only (IRIs, strings in their four quotings, comments,
 * variables, blank node labels, braces); whether the result is a valid query is for the sentry parser
 * (rasqal) to say when the compiled model is linted. */
#ifndef LDGSM_GSM_CONDITION_TEXT_H
#define LDGSM_GSM_CONDITION_TEXT_H

#include <stddef.h>

#include "rdf/buf.h"

typedef struct condition_text {
    char **prefix_names, **prefix_iris; /* "shop:", "https://example.org/shop#" */
    size_t prefix_count;
    char *group; /* what stood between ASK's braces, renamed */
} condition_text;

/* Splits text: `PREFIX p: <iri>`* then `ASK [WHERE] { ... }` and nothing after. Variables and blank node
 * labels get the prefix `rename` ("c3_"). Returns 0, or -1 with what is wrong in err (BASE, a SELECT,
 * unbalanced braces, text after the query). */
int condition_text_split(const char *text, const char *rename, condition_text *out, char *err, size_t err_len);
void condition_text_free(condition_text *c);

#endif
