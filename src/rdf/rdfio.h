/* rdfio.h: RDF in and out. Every parse goes through raptor2 (Turtle, N-Triples, N-Quads, RDF/XML,
 * TriG); Turtle is serialized by raptor2; N-Triples terms are written directly (whole documents by
 * nt_writer.h) because raptor2's serializer is the bottleneck on large outputs (~145k triples/s measured).
 *
 * A parse is all-or-nothing: triples are collected and added to the store only when the whole
 * document parsed, so a syntax error adds nothing and reports source:line:col. Each parse maps the
 * document's blank node labels to fresh blank nodes, so two documents never share one.
 *
 * A document is read from its text alone: no parser fetches a URL or opens a file (external entities and
 * DTDs are refused). Text that is not UTF-8 or holds a NUL byte, and RDF/XML that declares entities
 * (whose expansion nothing bounds) or names an encoding other than UTF-8, US-ASCII or ISO-8859-1, is a
 * syntax error.
 *
 * Where: the raptor2 worlds in raptor_pool.c, parsing in rdfio.c with the text's checks in rdf_checks.c,
 * writing terms and compact Turtle in term_write.c, raptor2's serializers in rdf_serialize.c. */
#ifndef LDGSM_RDF_RDFIO_H
#define LDGSM_RDF_RDFIO_H

#include <stdio.h>

#include "rdf/buf.h"
#include "rdf/store.h"
#include "rdf/term.h"

enum rdf_syntax { RDF_SYNTAX_UNKNOWN, RDF_TURTLE, RDF_NTRIPLES, RDF_NQUADS, RDF_RDFXML, RDF_TRIG };

typedef struct rdf_error {
    int line, col;      /* 0 when unknown */
    char message[512];  /* "source:line:col: what" ready to print */
} rdf_error;

typedef struct rdfio rdfio; /* owns the raptor world */

/* An rdfio takes a raptor world from a process-wide pool and rdfio_free gives it back (worlds are never
 * freed: see raptor_pool.c). rdfios may be used on any number of threads at once, one thread per rdfio. */
rdfio *rdfio_new(terms *t);
void rdfio_free(rdfio *io);
/* A raptor world from the same pool, open, for raptor2 or rasqal work of a caller's own (the SPARQL text
 * of sentries), given back instead of freed; any log handler it was given is dropped then. */
struct raptor_world_s *rdfio_world_take(void);
void rdfio_world_give(struct raptor_world_s *world);
/* Sets libxml2 (under raptor2's RDF/XML parser) up for parsing on several threads and installs the loader
 * that refuses external entities. rdfio_new does it once; a program calls it from its main thread before
 * starting threads that parse, and again after freeing a raptor world of its own (raptor_free_world
 * cleans libxml2 up for the whole process). */
void rdfio_prepare_libxml(void);

enum rdf_syntax rdf_syntax_from_filename(const char *path);
/* From a Content-Type value (parameters ignored); RDF_SYNTAX_UNKNOWN for types raptor2 does not parse. */
enum rdf_syntax rdf_syntax_from_media_type(const char *media_type);
const char *rdf_syntax_media_type(enum rdf_syntax syntax);
/* The Accept header listing exactly the media types this reader parses. */
const char *rdf_accept_header(void);

/* What names written in full may add to a document: prefixed names and relative IRIs gain their namespace
 * or base, and a long namespace used by many short names would otherwise make a small body gigabytes of
 * parser work and memory. A document whose names gain more than RDF_EXPANSION_FACTOR times its length
 * plus RDF_EXPANSION_SLACK bytes is a syntax error, found in Turtle and TriG before raptor2 expands
 * anything (turtle_scan.h), in every syntax by what its statements hold: their text past
 * RDF_STATEMENT_ALLOWANCE bytes each (room for the names a parser makes itself: rdf:first, datatypes,
 * blank node labels) may come to the document's length plus the same bound. */
enum { RDF_EXPANSION_FACTOR = 32, RDF_EXPANSION_SLACK = 16 << 20, RDF_STATEMENT_ALLOWANCE = 256 };

/* Parses data (len bytes) with base IRI base (may be NULL) into st, every triple recorded with source
 * graph g. On error returns -1, fills err (source_name names the document) and adds nothing. A Turtle or
 * TriG error always has a line and a column (raptor2 gives some neither, see rdf_locate_error in rdf_checks.c);
 * N-Triples and N-Quads errors have both, RDF/XML errors a line. */
int rdf_parse(rdfio *io, store *st, enum rdf_syntax syntax, const char *data, size_t len, const char *base,
              term_id g, const char *source_name, rdf_error *err);
/* Same, but hands the parsed triples to the caller instead of a store (caller frees *out). */
int rdf_parse_triples(rdfio *io, enum rdf_syntax syntax, const char *data, size_t len, const char *base,
                      const char *source_name, triple **out, size_t *count, rdf_error *err);
/* The file: IRI of a path (absolute when the file exists); the caller frees it. It is the base and the
 * source graph of what the file holds. */
char *rdf_file_iri(const char *path);
/* Reads a whole file; syntax from the file name; base is the file: IRI. */
int rdf_parse_file(rdfio *io, store *st, const char *path, term_id g, rdf_error *err);

/* Appends one term in N-Triples form (formulas as N3 { ... }; lists inside them as ( ... ); a list outside one must be expanded by the caller). */
void rdf_write_term_nt(const terms *t, term_id id, buf *out);
/* Writes triples as compact Turtle, with IRIs relative to base (a document IRI without fragment): what a
 * PUT body needs, without raptor2's serializer on the agent's hot path. The rdf and xsd namespaces, then
 * those of `prefixes` (pairs of a name without ':' and a namespace IRI, then NULL; NULL for none: the
 * caller's vocabularies, which this layer does not know), are written as prefixes, rdf:type as `a`,
 * booleans and integers bare, and consecutive triples of one subject (and predicate) grouped with ';' (and
 * ','): sorted triples (canonical order) give a status document about half the bytes, and half the
 * parsing for every reader, of one full triple per line. Lists and formulas are not expected (documents
 * read from servers hold neither). */
void rdf_write_turtle_compact(const terms *t, const triple *ts, size_t n, const char *base,
                              const char *const *prefixes, buf *out);
/* rdf_write_turtle_compact in two parts, for a text that puts the statements elsewhere (inside an N3
 * formula, where no @prefix may stand): the prefix lines, and the statements that use them. */
void rdf_write_compact_prefixes(const char *const *prefixes, buf *out);
void rdf_write_compact_statements(const terms *t, const triple *ts, size_t n, const char *base,
                                  const char *const *prefixes, buf *out);
/* A subject as rdf_write_compact_statements writes it, at the start of a line (so a text it wrote can be
 * searched for the statements about it). */
void rdf_write_compact_subject(const terms *t, term_id id, const char *base, const char *const *prefixes,
                               buf *out);
/* Appends <iri> relative to base (a document IRI without fragment) as the compact writer does: <#f> for
 * the document's fragments, ../ steps on the same host, absolute otherwise. (Also a SPARQL IRIREF.) */
void rdf_write_relative_iri(const char *iri, const char *base, buf *out);
/* Serializes triples as Turtle through raptor2, with IRIs relative to base when base is given (no @base
 * line is written: the text is meant to be stored at base). */
int rdf_write_turtle(rdfio *io, const triple *ts, size_t n, const char *base, buf *out);
/* The same, with @prefix lines: prefixes holds pairs (name without ':', namespace IRI), then NULL. */
int rdf_write_turtle_prefixed(rdfio *io, const triple *ts, size_t n, const char *base, const char *const *prefixes,
                              buf *out);

/* The same as RDF/XML, one rdf:Description per triple (raptor2's flat serializer: the abbreviating one
 * nests blank nodes, and its indentation made a 4,000-item list a 160 MB text). Returns 0; 1 when the
 * text would pass limit bytes (out is then left as it was, and at most limit bytes were ever held) or
 * raptor2 would check more than 8 characters per byte of limit splitting predicate IRIs into XML names
 * (quadratic in a name's length, see rdf_serialize.c); -1 when a triple cannot be written as RDF/XML (a predicate
 * with no XML name: raptor2 would skip it), with raptor2's words in why (why_size bytes). */
int rdf_write_rdfxml(rdfio *io, const triple *ts, size_t n, const char *base, size_t limit, buf *out, char *why,
                     size_t why_size);

/* Reads a whole file into memory (NUL-terminated); NULL with errno set on failure. */
char *read_file(const char *path, size_t *len);

#endif
