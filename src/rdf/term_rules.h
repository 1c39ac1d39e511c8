/* term_rules.h: what every term the project reads or stores must be, whatever it came from (a parsed
 * body, an N3 Patch): what the LDP server stores it must serve again, in every syntax and to every reader. */
#ifndef LDGSM_RDF_TERM_RULES_H
#define LDGSM_RDF_TERM_RULES_H

#include <stdbool.h>
#include <stddef.h>

/* The longest language tag taken: raptor2 2.0.15 writes past the end of a heap buffer when it makes a
 * literal whose tag has 256 characters or more. BCP 47 tags that occur are far shorter (RFC 5646 asks
 * implementations for 35 at least). */
#define RDF_MAX_LANGTAG 128
#define RDF_MAX_LANGTAG_TEXT "128"

/* U+0000 in a literal (written as an escape) is refused by every reader, with this message: N-Triples,
 * RDF/XML and the C strings of the libraries below cut a literal at it while Turtle keeps it, so a stored
 * resource would read differently in each syntax. */
#define RDF_NUL_LITERAL_ERROR "a literal holding U+0000 (refused: not every RDF syntax can carry it)"

/* The offset of the first escape of U+0000 (\u0000, \U00000000; a backslash escaped itself starts none)
 * in a text, or len: for readers whose parser (raptor2's N-Triples, rasqal's SPARQL) cuts a literal there
 * without a word. */
size_t rdf_nul_escape_at(const char *text, size_t len);
/* The same in an N-Triples or N-Quads text, looked for inside its literals only (not in comments). */
size_t rdf_nt_nul_escape_at(const char *text, size_t len);

/* Whether iri is rdf:_ followed by anything but a positive decimal number (rdf:_, rdf:_0, rdf:_x): RDF
 * allows such IRIs, but raptor2's N-Triples parser refuses them anywhere ("Illegal ordinal value"), so a
 * resource holding one could not be read back from its N-Triples form; every reader refuses them. */
bool rdf_iri_bad_ordinal(const char *iri, size_t len);
#define RDF_BAD_ORDINAL_ERROR "an rdf:_ IRI that is not rdf:_1, rdf:_2, ... (N-Triples readers refuse it)"

/* The offset of the first character RDF 1.1 forbids in an IRI (controls, space, <>"{}|^`\), or len. */
size_t rdf_iri_forbidden_at(const char *iri, size_t len);

#endif
