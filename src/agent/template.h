/* template.h: filling a request's templates with the values of its arguments (docs/DESIGN.md §8.3,
 * "Arguments and templates"): the one solution of its argument query binds variable names to terms, and those fill
 *   - the request URI, an RFC 6570 URI template (levels 1 to 3),
 *   - header values, `{var}` templates substituted as plain text,
 *   - the body, N3/Turtle text whose `?var` tokens are replaced by terms.
 *
 * What every template keeps:
 *   1. A variable the bindings lack (or bind to no term) is an error, never "expands to nothing" as RFC
 *      6570 has it: in ldgsm a missing argument is a mistake in the model.
 *   2. A blank node is never a value: a request has no way to name it.
 *   3. A value fills exactly one place and cannot change what is around it: in a URI it is
 *      percent-encoded as RFC 6570 says, in a header it may hold no control character (no header
 *      injection), in a body it is written as one RDF term (quotes, '>', newlines or '}' in it are
 *      escaped), and the body must parse as Turtle afterwards.
 *   4. Everything of a template that is not a variable is kept as written (a body's `<>`, prefixes and
 *      relative IRIs mean what its author wrote).
 * Errors are one line naming the position in the template (URI and header: a column; body: line:col)
 * and the variable. */
#ifndef LDGSM_AGENT_TEMPLATE_H
#define LDGSM_AGENT_TEMPLATE_H

#include <stddef.h>

#include "rdf/buf.h"
#include "rdf/rdfio.h"
#include "rdf/strmap.h"
#include "rdf/term.h"

/* One argument: a variable name (without '?') and its value (0: the solution leaves it unbound). */
typedef struct template_binding {
    const char *name;
    term_id value;
} template_binding;

enum template_kind { TEMPLATE_URI, TEMPLATE_HEADER, TEMPLATE_BODY };

/* Each function appends the filled template to out and returns 0, or returns -1 with a message in error
 * (error_len bytes, NUL-terminated) and out as it was. A value is its term's text: an IRI's full IRI, a
 * literal's lexical form (numbers as written). */

/* An RFC 6570 template: `{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`, `{;var}`, `{?var}`, `{&var}` and
 * comma lists of variables; level 4 modifiers (`{var:3}`, `{var*}`) and the reserved operators are
 * refused. Variable names are matched as written (a pct-encoded one matches no SPARQL variable). */
int template_uri(const terms *t, const char *tmpl, const template_binding *b, size_t n, buf *out, char *error,
                 size_t error_len);

/* A header value: `{var}` (one variable, no operator) replaced by the value's text. The result must be a
 * valid field value: no control character but TAB, no whitespace at either end (HTTP strips it). */
int template_header(const terms *t, const char *tmpl, const template_binding *b, size_t n, buf *out, char *error,
                    size_t error_len);

/* An N3/Turtle body: each `?var` token (found by the N3 lexer, so `?x` inside a string, an IRI or a
 * comment is text) is replaced by its value written as one Turtle term; a variable cannot take a
 * language tag or a datatype of its own. The result is then parsed as Turtle by io (which reads into t)
 * with base IRI base, the request URI; a body that does not parse is an error. */
int template_body(terms *t, rdfio *io, const char *tmpl, const char *base, const template_binding *b, size_t n,
                  buf *out, char *error, size_t error_len);

/* For lint: adds to names each variable the template uses (URI and header: names in braces; body: `?var`
 * names), once each, in order of first use; the value of a new entry is the byte offset of its first use.
 * Returns -1 with a message in error when the template is malformed (as the functions above say it). */
int template_variables(const char *tmpl, enum template_kind kind, strmap *names, char *error, size_t error_len);

#endif
