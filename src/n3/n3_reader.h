/* n3_reader.h: reads Notation3 as the W3C N3 Community Group's grammar defines it (raptor2 cannot read
 * formulas or `=>`).
 *
 * Supported: @prefix/@base and SPARQL-style PREFIX/BASE (also inside formulas), `a`, `;` and `,`,
 * `[ ... ]`, `[ id <iri> ... ]` (iriPropertyList: the IRI is the subject), `( ... )` lists, every Turtle
 * literal form ("...", '...', long strings, escapes, @lang, ^^datatype, numbers, true/false),
 * `?variables`, `_:` blank nodes, formulas `{ ... }` (nested anywhere a term may stand, e.g.
 * `http:body { ... }` in a rule head), `=>` and `<=` rules, `=` (owl:sameAs), `has P`, `is P of` and
 * `<- P` (inverse: `:a is :p of :b` and `:a <- :p :b` both mean `:b :p :a`), the older `@a`, `@has`,
 * `@is`, `@of` spellings, paths `x!p` (x's p: a fresh blank node b with `x p b`) and `x^p` (what has
 * x as its p: b with `b p x`), read left to right, any expression as predicate (a literal or formula
 * too, as the grammar allows), a subject without predicates (`:a .`), `@forAll` / `@forSome`, bare
 * top-level formulas, and `#` comments.
 * Not N3 and refused: `@keywords` (bare-word mode), `this`, quantifying a `?variable`.
 *
 * Output: the document's top-level statements in order, each with the line and column where it began.
 * A rule `{B} => {H}` is the statement (B, log:implies, H); `{H} <= {B}` is normalized to the same
 * statement with `backward` set (inside formulas the normalization is the same, without the mark), and
 * so is any `<=` with a formula, `true` or a variable on a side; any other `H <= B` (`:a <= :b`, never
 * a rule) is the triple (H, log:isImpliedBy, B) as the N3 spec reads it;
 * `true => {H}` and a bare top-level formula `{H} .` become ({}, log:implies, H).
 * Formulas are formula terms, lists are list terms, `?x` are variable terms; blank node labels and `[]`
 * become fresh blank nodes of this document (never shared with another document; one label is one node
 * throughout the document, formulas included).
 * `@forAll :x .` makes :x a universal: from there to the end of the formula holding the declaration (the
 * document at top level), nested formulas included, :x reads as the variable named by its IRI.
 * `@forSome :x .` makes :x an existential: over the same span it reads as a fresh blank node.
 *
 * As Linked Data-Fu, the '.' after a bare top-level formula may be left out when the next statement
 * starts with '{', '[', '(' or a directive. IRIs are resolved against the base (RFC 3986, iri_resolve.h);
 * without a base they are kept as written. Prefixed names are not resolved (as in Turtle); the empty
 * prefix `:`, when not declared, is `<#>` (the current base's IRI with fragment '#'), as in N3.
 * More than MAX_NESTING (rdf/nesting.h) nested '{', '(' and '[' is an error, so that no input exhausts the stack.
 *
 * Errors: the message names the offending token, "rules.n3:3:17: expected '.' after statement, found '}'",
 * with 1-based line and column (columns count characters). An unterminated string or IRI points at its
 * opening quote or '<'; a bad escape at its backslash; an unclosed '{', '(' or '[' at the token found
 * instead of the closer, naming where it was opened. */
#ifndef LDGSM_N3_READER_H
#define LDGSM_N3_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "rdf/term.h"

typedef struct n3_statement {
    triple t;
    unsigned line, col;
    bool backward; /* a rule written `{H} <= {B}` (t is still (B, log:implies, H)) */
} n3_statement;

typedef struct n3_doc {
    n3_statement *statements;
    size_t count;
} n3_doc;

typedef struct n3_error {
    unsigned line, col;
    char message[512]; /* "source:line:col: expected X, found Y" ready to print */
} n3_error;

/* Parses text (len bytes) named source_name (used in messages; NULL: "<input>") with base IRI base
 * (may be NULL). Returns 0 and fills out, or -1 and fills err (out is then empty; err may be NULL).
 * Terms are interned in t either way. */
int n3_parse(terms *t, const char *text, size_t len, const char *source_name, const char *base, n3_doc *out,
             n3_error *err);
void n3_doc_free(n3_doc *doc);

#endif
