/* page_index.h: the workflow instances each of the server's documents holds (page.h design note 1), kept
 * with the ETag they were read at and read in the background, so that a page request counts, filters
 * and pages what is already known instead of parsing 10,000 documents (bench/page/).
 *
 * NOTES ON THE DESIGN
 *  1. One reader (a thread of the index's own, or a test calling page_index_read_next) reads the
 *     documents queued, one at a time: those written since it started first (a user looks for what
 *     was just written; a document of the warm-up written meanwhile is among them, its place in the
 *     warm-up passed over), then those queued when the server started (the warm-up). A read takes the
 *     document as the source holds it at that moment, so an entry is never older than the last change
 *     queued before its read; a document the source no longer holds loses its entry.
 *  2. Queueing takes only the queue's lock and copies the URI: the store's change hook queues under the
 *     store's writer lock, so a write never waits for a page or a parse. A document queued again
 *     before it is read is read once.
 *  3. Only a document that names gsm:StageInstance is parsed; any other gets an empty entry at the
 *     cost of a search of its bytes, so the writes of documents that are not instances cost the
 *     reader next to nothing.
 *  4. The entries are read and changed only under the index lock (page_index_lock): a page holds it
 *     while it is built; the reader parses outside it and takes it only to swap an entry in.
 *  5. Memory: an entry per document the source holds (its URI, ETag and instances; the entries of
 *     removed documents are compacted away once they outnumber the live ones), and a document's URI
 *     queued twice at most (in the warm-up and among the written).
 *  6. The reader thread reads the warm-up whatever happens, but the written documents only while the
 *     pages are watched: for PAGE_INDEX_WATCH_MS after a page was built (page_index_watched). Under a
 *     storm of writes nobody looks at, reading every one of them again cost the server as much CPU as
 *     checking the writes did (bench/scale, 10,000 instances: 94 s against 55); they stay queued, each
 *     once, and the first page reads what it can (page.h design note 6), says how many it has not, and
 *     sets the reader going. A caller reading in its own thread (page_index_read_next) reads anything
 *     queued. */
#ifndef LDGSM_GSM_PAGE_INDEX_H
#define LDGSM_GSM_PAGE_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "gsm/page.h"

/* What the console counts and filters by (page.h design note 7), from the instance's own document. */
enum console_state { CS_NOT_SET_UP, CS_ACTIVE, CS_RETRYING, CS_EXHAUSTED, CS_COMPLETED, CS_INACTIVE, CS_COUNT };

/* An instance a document holds. */
typedef struct held_instance {
    char *iri, *model; /* model: its gsm:isInstanceOf, or NULL */
    enum console_state state;
    char *why;         /* why it waits (page.h design note 7), once shown; NULL before */
    char *why_model;   /* the ETag of the model's document it was made with ("": none held) */
} held_instance;

/* The instances of one document as read at its ETag. */
typedef struct doc_instances {
    char *uri, *etag; /* uri: the index's key; NULL in a removed document's slot and a page's own read */
    held_instance *items;
    size_t count;
} doc_instances;

/* A copy of text; NULL for NULL. */
char *text_copy(const char *text);

/* Reads doc's instances and ETag into *out, its uri left NULL (no instance for a document that names no
 * gsm:StageInstance: note 3). */
void doc_instances_read(const gsm_page_document *doc, doc_instances *out);
void doc_instances_free(doc_instances *d);

typedef struct page_index page_index;

page_index *page_index_new(const gsm_page_source *source);
/* Stops the reader thread, if one runs, and frees the index. */
void page_index_free(page_index *x);

/* Queues uri to be read (again): written, a document changed since the reader started (read first),
 * otherwise one of the warm-up (note 1). Thread-safe, never waits for a read or a page (note 2). */
void page_index_queue(page_index *x, const char *uri, bool written);
/* Reads the next queued document in the caller's thread; false when none is queued. */
bool page_index_read_next(page_index *x);
/* Starts the reader thread, which reads what is queued (note 6) until page_index_free. */
void page_index_start(page_index *x);
/* A page is being built: the reader follows the writes for PAGE_INDEX_WATCH_MS more (note 6). */
enum { PAGE_INDEX_WATCH_MS = 60000 };
void page_index_watched(page_index *x);

void page_index_lock(page_index *x);
void page_index_unlock(page_index *x);
/* The entry of uri, or NULL; under the lock, valid until it is released. */
doc_instances *page_index_entry(page_index *x, const char *uri);
/* Counts a document a page read itself, under the lock. */
void page_index_count_request_read(page_index *x);
/* The counters and the queue's length (page.h gsm_page_counters). */
void page_index_counters(page_index *x, gsm_page_counters *out);

#endif
