/* rdf_checks.h: the checks rdfio.c's parser makes before and while raptor2 reads a document
 * (rdf_checks.c says which and why), and where in the text a refused document is wrong. Internal to rdf/:
 * callers parse through rdfio.h, which makes every check. */
#ifndef LDGSM_RDF_RDF_CHECKS_H
#define LDGSM_RDF_RDF_CHECKS_H

#include <raptor2.h>
#include <stdbool.h>
#include <stddef.h>

#include "rdf/rdfio.h"
#include "rdf/turtle_scan.h"

/* What every document must be before a parser sees it: 0, or -1 with err filled (source_name:line:col). */
int rdf_check_text(enum rdf_syntax syntax, const char *data, size_t len, const char *source_name, rdf_error *err);
/* A Turtle or TriG text through the recognizer (turtle_scan.h) before raptor2, which expands every name of
 * the whole text before it parses: 0, or -1 with err filled when its names would expand past limit bytes
 * or the recognizer refuses it. *scan is kept for rdf_locate_error. */
int rdf_check_turtle(const char *data, size_t len, bool trig, const char *base, size_t limit, turtle_scan *scan,
                     const char *source_name, rdf_error *err);
/* RDF_EXPANSION_FACTOR times len plus RDF_EXPANSION_SLACK, saturating. */
size_t rdf_expansion_limit(size_t len);
/* Completes where a Turtle or TriG error is that raptor2 reported (raptor_err, its words raptor_text)
 * without a line or a column, from the recognizer's first error; writes err. */
void rdf_locate_error(const char *data, size_t len, const turtle_scan *scan, const rdf_error *raptor_err,
                      const char *raptor_text, const char *source_name, rdf_error *err);
/* Fails a document by what it is, at the byte offset `at`: fills err, returns -1. */
int rdf_refuse_at(const char *data, size_t at, const char *source_name, rdf_error *err, const char *what);
/* The offset of the first byte that does not begin a well-formed UTF-8 character, or len. */
size_t rdf_utf8_invalid_at(const unsigned char *s, size_t len);
/* Why a statement's term (as raptor2 hands it over) is refused, or NULL when it is taken; the words are
 * a constant or written into text (size bytes). */
const char *rdf_term_refusal(const raptor_term *rt, char *text, size_t size);

#endif
