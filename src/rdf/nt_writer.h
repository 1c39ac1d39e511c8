/* nt_writer.h: the N-Triples writer of large outputs (ldgsm reason's closure, LDP representations): each
 * distinct term escaped once, lists expanded into rdf:first/rest blank nodes; in one call, or streamed by
 * a thread of its own while the caller goes on deriving. */
#ifndef LDGSM_RDF_NT_WRITER_H
#define LDGSM_RDF_NT_WRITER_H

#include <stddef.h>

#include "rdf/buf.h"
#include "rdf/term.h"

/* Appends triples as N-Triples to out. */
void rdf_write_ntriples(const terms *t, const triple *ts, size_t n, buf *out);

/* A thread that formats the triples it is handed and writes them to a file descriptor, in the order they
 * were handed, while the caller goes on: `ldgsm reason` hands it each round's derivations as the next
 * round runs. The caller may intern new terms meanwhile (term.c never moves a record); the terms of the
 * triples handed must stay in the table until nt_stream_finish. */
typedef struct nt_stream nt_stream;

nt_stream *nt_stream_start(const terms *t, int fd);
/* Queues copies of ts[0..n). */
void nt_stream_push(nt_stream *s, const triple *ts, size_t n);
/* Writes what is queued, stops the thread and frees the stream. Returns 0, or -1 when a write failed
 * (errno says why; nothing more was written after the failure). */
int nt_stream_finish(nt_stream *s);

#endif
