/* archive.h: a status document's history moves to its archive, a resource of its own the document links to
 * (`ldgsm run --archive-history`; docs/DESIGN.md §6.5), so that what agents poll holds an instance's state,
 * not its past.
 *
 * The document is the outbox. An entry is written with the change it records, in the document's one
 * conditional write (history.h). In a later iteration the plan moves every entry the document holds: first
 * an N3 Patch that inserts them into the archive (sent twice, it adds nothing twice: RDF is a set, and each
 * entry's node names it), then, once that returned 2xx, the document's conditional write without them,
 * saying `<doc> ldgsm:historyArchive <archive>` and `<doc> ldgsm:archivedThrough N`, the highest sequence
 * moved, from which history.h numbers on. An agent that dies between the two leaves the entries in both;
 * the next one inserts them again, which adds nothing, and drops them: no entry is lost, none is written
 * twice, and none is written for a change that was not made.
 *
 * The archive of <http://host/status/i1> is <http://host/status/i1.history>. */
#ifndef LDGSM_AGENT_ARCHIVE_H
#define LDGSM_AGENT_ARCHIVE_H

#include <stddef.h>

#include "agent/vocab.h"
#include "rdf/term.h"

/* The archive's URL of a document (fragment-free); the caller frees it. */
char *archive_url_of(const char *doc_url);

/* The entries doc_url holds among ts[0..n) (its #t-N nodes with an integer ldgsm:sequence): every triple of
 * theirs appended to *out (*out_count, reallocated). Returns the highest sequence among them, 0 for none. */
unsigned long long archive_entries(const terms *t, const agent_vocab *v, const char *doc_url, const triple *ts,
                                   size_t n, triple **out, size_t *out_count);

/* The `<doc> ldgsm:archivedThrough N` among ts[0..n), 0 when absent. */
unsigned long long archive_through(const terms *t, const agent_vocab *v, term_id doc, const triple *ts, size_t n);

#endif
