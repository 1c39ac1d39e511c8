/* turtle_scan.h: a recognizer for Turtle and TriG as raptor2 2.0.15 reads them (its lexer's tokens and
 * its grammar). It builds nothing; it finds where a text first goes wrong and how many bytes its names
 * gain when raptor2 writes them in full, for rdfio.c: raptor2 reports most Turtle errors with a line and
 * no column, an undeclared prefix with no line at all, and reads the whole document before it parses it,
 * expanding every prefixed name and relative IRI as it goes (a 100 KB namespace used by thousands of names
 * is gigabytes of work before the first statement could be refused). */
#ifndef LDGSM_RDF_TURTLE_SCAN_H
#define LDGSM_RDF_TURTLE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct turtle_scan {
    /* The first syntax error: the byte offsets of the token where the text stops being Turtle (an
     * undeclared prefix's name, a character no token begins with, the token the grammar cannot take;
     * error_at == len for an early end). SIZE_MAX when the text is Turtle. */
    size_t error_at, error_end;
    const char *error_what; /* what is wrong there, in words (NULL when the text is Turtle): what_text */
    char what_text[160];
    /* The bytes prefixed names and relative IRIs gain written in full (their namespace or base added),
     * each name counted once, as raptor2 expands it; counted past a grammar error too (raptor2 parses on
     * after one), not past an error that stops raptor2's lexer. */
    size_t gained;
    /* The offset of the name with which gained passed the limit (the scan stops there), or SIZE_MAX. */
    size_t limit_passed_at;
} turtle_scan;

/* Scans len bytes of Turtle (TriG when trig), relative IRIs resolved against a base of base_len bytes,
 * stopping when the names gain more than limit bytes. */
void turtle_scan_text(const char *data, size_t len, bool trig, size_t base_len, size_t limit, turtle_scan *out);

#endif
