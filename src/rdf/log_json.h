/* log_json.h: a log record (rdf/log.h) as one JSON object on one line, the form `--log-format json`
 * writes: "time" (UTC, RFC 3339 with milliseconds), "level", "event", "instance" (when the line is about
 * one), "message" (the text form's line), then the event's own fields, in that order. The keys are
 * documented in docs/guide/logs-and-metrics.md; a field never takes the name of one of the first five. */
#ifndef LDGSM_RDF_LOG_JSON_H
#define LDGSM_RDF_LOG_JSON_H

#include <stdio.h>

#include "rdf/buf.h"
#include "rdf/log.h"

/* Appends the record's line (newline included) to out. */
void log_json_line(const log_record *record, buf *out);
/* Writes it to stream in one call, so lines of concurrent writers never interleave. */
void log_json_write(const log_record *record, FILE *stream);
/* A sink's write_record writing to the FILE * its user is. */
void log_json_to_stream(void *stream, const log_record *record);

#endif
