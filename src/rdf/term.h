/* term.h: the term table. Every RDF/N3 term (IRI, blank node, literal, variable, formula, list) is
 * interned once and named by a 32-bit id, so equality of terms is equality of ids.
 *
 * Literals are RDF 1.1 literals: a simple literal and the same lexical form typed xsd:string are one term
 * (datatype 0); a language-tagged literal has datatype rdf:langString and a lower-cased tag.
 * Formulas ({ ... } in N3) and lists (( ... )) are terms whose content is other terms; a formula's
 * triples are kept sorted and de-duplicated, so two formulas with the same triples are the same term.
 * Blank node labels are table-wide: readers map a document's labels to fresh nodes (terms_fresh_bnode)
 * so that blank nodes of two documents never collide.
 *
 * A long-running user (the agent: every poll parses the documents that changed, with fresh blank nodes)
 * marks the table once its lasting terms are in (terms_mark) and releases what came after (terms_release),
 * keeping the few terms it still holds: the table then stays the size of one round of work. */
#ifndef LDGSM_RDF_TERM_H
#define LDGSM_RDF_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdf/vocab_ns.h" /* NS_RDF, NS_XSD ...: every user of terms names some */

typedef uint32_t term_id; /* 0 is "no term" */

enum term_kind { TERM_NONE, TERM_IRI, TERM_BNODE, TERM_LITERAL, TERM_VAR, TERM_FORMULA, TERM_LIST };

typedef struct triple {
    term_id s, p, o;
} triple;

/* Terms interned by terms_new() at fixed ids, so hot paths compare against constants. */
enum well_known_term {
    T_RDF_TYPE = 1,
    T_RDF_FIRST,
    T_RDF_REST,
    T_RDF_NIL,
    T_RDF_LANGSTRING,
    T_XSD_STRING,
    T_XSD_INTEGER,
    T_XSD_DECIMAL,
    T_XSD_DOUBLE,
    T_XSD_BOOLEAN,
    T_XSD_DATETIME,
    T_LOG_IMPLIES,
    T_TRUE,  /* "true"^^xsd:boolean */
    T_FALSE, /* "false"^^xsd:boolean */
    T_LOG_IS_IMPLIED_BY,
    T_WELL_KNOWN_END
};

/* Orders triples by (s, p, o) ids: a qsort comparator. */
int triple_compare(const void *a, const void *b);
/* Sorts ts and drops repeats in place; returns how many remain. */
size_t triples_canonical(triple *ts, size_t n);

typedef struct terms terms;

terms *terms_new(void);
void terms_free(terms *t);

term_id terms_iri(terms *t, const char *iri, size_t len);
term_id terms_iri_cstr(terms *t, const char *iri);
term_id terms_bnode(terms *t, const char *label, size_t len);
/* A blank node no other call returns (label "_g<n>"). */
term_id terms_fresh_bnode(terms *t);
/* datatype 0 (or T_XSD_STRING) and no lang: simple literal; lang given: datatype is ignored. */
term_id terms_literal(terms *t, const char *lex, size_t len, term_id datatype, const char *lang, size_t lang_len);
term_id terms_string(terms *t, const char *s); /* simple literal from a C string */
term_id terms_var(terms *t, const char *name, size_t len);
/* The formula holding triples ts[0..n) (sorted and de-duplicated into canonical form). */
term_id terms_formula(terms *t, const triple *ts, size_t n);
term_id terms_list(terms *t, const term_id *items, size_t n);

size_t terms_count(const terms *t); /* ids are 1..terms_count */
size_t terms_live(const terms *t);  /* how many of them are not released (terms_release) */

/* Terms interned after a mark are released together. */
typedef struct terms_mark {
    uint32_t count;
    const void *arena_chunk;
    size_t arena_used;
} terms_mark;

terms_mark terms_mark_now(const terms *t);
/* Forgets every term interned after mark m, except keep[0..keep_count): those (and the terms they are made
 * of) are interned again and keep[] is given their new ids. Ids of released terms are handed out again,
 * so nothing may hold one across this call; no other thread may use the table during it. Built with
 * AddressSanitizer, released ids are never handed out again and using one aborts, and their text is
 * freed, so a term or text held across a release is caught. Returns how many terms were released. */
size_t terms_release(terms *t, const terms_mark *m, term_id *keep, size_t keep_count);
enum term_kind terms_kind(const terms *t, term_id id);
/* IRI text, blank node label, literal lexical form or variable name; NUL-terminated. */
const char *terms_lex(const terms *t, term_id id, size_t *len);
term_id terms_datatype(const terms *t, term_id id); /* literals only; 0 for simple literals */
const char *terms_lang(const terms *t, term_id id); /* NULL unless language-tagged */
const triple *terms_formula_triples(const terms *t, term_id id, size_t *n);
const term_id *terms_list_items(const terms *t, term_id id, size_t *n);
/* True when the term is or contains no variable (formulas and lists are searched). */
bool terms_is_ground(const terms *t, term_id id);

#endif
