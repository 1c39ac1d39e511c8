/* json_out.h: the JSON documents ldgsm prints (`status --json` for GSM and WSM instances), built as
 * jansson values and written compactly, one document a line. The helpers give the values the reports
 * are made of: a string or null, a count or null, an array of strings. */
#ifndef LDGSM_RDF_JSON_OUT_H
#define LDGSM_RDF_JSON_OUT_H

#include <stddef.h>

#include <jansson.h>

#include "rdf/buf.h"

/* s as a JSON string; null for NULL. A byte that does not begin a UTF-8 character becomes U+FFFD
 * (jansson takes UTF-8 only; a document may hold other bytes). */
json_t *json_out_string(const char *s);
/* value as a JSON integer; null when it is negative (the reports' "not known"). */
json_t *json_out_count(long value);
/* The n strings as a JSON array. */
json_t *json_out_strings(char *const *values, size_t n);
/* Appends v, compact (no spaces) with its keys in the order they were set, and a newline to out;
 * releases v. */
void json_out_line(json_t *v, buf *out);

#endif
