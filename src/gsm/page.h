/* page.h: the read-only HTML pages `ldgsm serve` shows at /.well-known/ldgsm: an operations console of
 * the workflow instances among the server's documents (counts by state, a filter, pages of rows saying
 * why each waits), and each instance's own page (its stages, drawing (draw.h), status and history),
 * updated on every change where the server sends Solid Notifications, otherwise reloading every few
 * seconds.
 *
 *  1. An instance is a gsm:StageInstance that is its own artifact instance (gsm:inArtifactInstance
 *     itself: set up) or is gsm:uninitialized (written by its user, not set up yet), in a document the
 *     server holds. Instances are listed in the order of their documents' paths.
 *  2. An instance's own page shows its root state and whether it is completed, each stage's state by
 *     name with its milestones, links to its document (and its model's, when held), the drawing when its
 *     model's document is one of the server's own (otherwise the list alone, saying why), and its report
 *     as `ldgsm status` prints it with its last 10 transitions (note 7).
 *  3. Everything printed that comes from a resource or a request is HTML-escaped; the drawing's text is
 *     escaped by Graphviz from escaped labels (draw.h). The page is sent with a Content-Security-Policy
 *     that allows no remote content, only its own stylesheet and script (by hash; no script at all without
 *     notifications), connections only to the server and its notification listener, forms sent only to
 *     the server (the filter), and no framing.
 *  4. One page is built at a time (the work is bounded whatever the number of readers), beside any
 *     other RDF work of the process, with no lock shared with it: every raptor2 world the page uses,
 *     the one under the sentries' SPARQL parser (rasqal) included, comes from rdfio's pool and is never
 *     freed (freeing one cleans libxml2 up under every other thread, raptor_pool.c). The documents come in as
 *     one consistent view.
 *  5. Live updates (where the server offers WebSocketChannel2023, ldp_notify.h): the page's one script
 *     subscribes to the documents the page depends on, each with the ETag the page was built from as its
 *     state (so a change between building and subscribing is told at once), and on a notification fetches
 *     the page again and swaps its body in: no polling. The documents, in this order, up to max_channels
 *     (the server bounds channels per client address, and agents on the same host share that bound): the
 *     storage root and the containers of the instances shown (a new or removed instance is an Add or
 *     Remove there), the instances' documents, then the other containers. While some are not followed
 *     (beyond max_channels, a subscription refused, a socket closed) the script also fetches the page every
 *     refresh seconds, subscribing again what is missing, and the note says so. A burst of notifications
 *     makes one update: the fetch starts 100 ms after the first, and notifications during a
 *     fetch make one more after it. Without notifications, or without script, the page reloads itself every
 *     refresh seconds (meta refresh), and says so; a fetched page without the list (the server came back
 *     without notifications) is loaded whole. The documents followed are those of the instances shown.
 *  6. Each document's instances (IRI, model, state) are kept with the ETag they were read at, read in the
 *     background (page_index.h): every document once when the server starts, then each document the
 *     server reports written, while pages are being asked for (page_index.h note 6). A page parses none
 *     of them itself beyond GSM_PAGE_READ_IN_REQUEST: with 10,000 instances it costs hashing the
 *     documents' URIs, not parsing them (bench/page/). A page
 *     finding at most GSM_PAGE_READ_IN_REQUEST documents written since they were read reads them itself,
 *     so the page after a write shows it; finding more (the warm-up after a start, a burst of writes), it
 *     shows what was read (a changed document as it was read before), says how many of the documents
 *     are read ("reading 3412 of 10000 documents") and reloads every refresh seconds until all are.
 *     An instance's own page reads its document itself when it is not read yet.
 *  7. The console: the count of instances in each state (not set up, active, retrying: active with a
 *     call being retried after a failure, call exhausted: a call of it exhausted, completed, inactive:
 *     read from the instance's document alone), each a link filtering by it; a filter by state, model
 *     (its gsm:isInstanceOf) and text (a part of the instance's or the model's IRI, any case), sent as
 *     the query parameters state, model and text; pages of GSM_PAGE_ROWS rows (parameter page, from 1).
 *     A row: the instance (a link to its own page: parameter instance), its document, model, state and
 *     why it waits (status_report_why_text: held: and waiting: lines, not set up yet, the calls not
 *     answered with their retries left, deadline and last failure), the report built from the instance's
 *     document and its model's as the server holds them: a document the server holds reads as 200,
 *     another of its paths as 404, a document elsewhere as no answer; sentries are not evaluated here.
 *  8. Only the rows shown are reported on, so a page's work grows with the instances' count only by the
 *     counting and filtering.
 * This layer knows no HTTP server: the caller hands in the documents and sends the page with
 * gsm_page_headers(). */
#ifndef LDGSM_GSM_PAGE_H
#define LDGSM_GSM_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "rdf/buf.h"

/* One of the server's documents: its absolute URI (no fragment), its Turtle (base: uri), its ETag as the
 * server sends it (quotes included) and whether it is a container (its URI ends in '/'). */
typedef struct gsm_page_document {
    const char *uri;
    const char *turtle;
    size_t len;
    const char *etag;
    bool container;
} gsm_page_document;

typedef struct gsm_page_header {
    const char *name, *value;
} gsm_page_header;

typedef struct gsm_page gsm_page;

/* GSM_PAGE_READ_IN_REQUEST: the documents a page reads itself at most (design note 6): about 3 ms each for
 * the evaluation workflow's 30 KB documents, so a page after a few writes stays well under 200 ms. */
enum { GSM_PAGE_DEFAULT_REFRESH = 2, GSM_PAGE_DEFAULT_CHANNELS = 16, GSM_PAGE_ROWS = 50,
       GSM_PAGE_READ_IN_REQUEST = 16 };

/* Where the page's reader reads a document again (design note 6): read fills *doc with the document at
 * uri as the server holds it now and returns true, or returns false when it holds none; release gets
 * *hold back once the reader is done with the document. */
typedef struct gsm_page_source {
    bool (*read)(void *user, const char *uri, gsm_page_document *doc, void **hold);
    void (*release)(void *user, void *hold);
    void *user;
} gsm_page_source;

/* Documents read so far (a document's bytes searched, parsed when it names gsm:StageInstance), and the
 * documents queued for the reader. */
typedef struct gsm_page_counters {
    size_t read_in_background, read_in_requests, queued;
} gsm_page_counters;

/* What the request asks for (design note 7); a NULL or empty string is no filter. */
typedef struct gsm_page_query {
    const char *instance; /* one instance's own page; NULL: the console */
    const char *state, *model, *text;
    size_t page; /* from 1; 0 and beyond the last are the first and the last */
} gsm_page_query;

typedef struct gsm_page_config {
    const char *compat_rules;   /* rules/compat-authors-draft.n3, or NULL (shape.h design note 4) */
    unsigned refresh;           /* seconds between reloads (design note 5); 0: GSM_PAGE_DEFAULT_REFRESH */
    const char *notifications;  /* the notification listener, "ws://host:port"; NULL: none offered */
    const char *subscription;   /* the WebSocketChannel2023 subscription service's path on the server */
    unsigned max_channels;      /* documents a page follows at most; 0: GSM_PAGE_DEFAULT_CHANNELS */
    gsm_page_source source;     /* design note 6; read NULL: documents are read only by the pages */
} gsm_page_config;

gsm_page *gsm_page_new(const gsm_page_config *config);
/* Stops the reader (gsm_page_start_reader) and frees the page; the source is not used after. */
void gsm_page_free(gsm_page *page);

/* Queues the document at uri to be read from the source (design note 6): written, one the server wrote
 * (or removed) since it started, read before the others; otherwise one it held at its start. Cheap and
 * never waits for a page or a read: the server's change hook calls it under its writer lock. */
void gsm_page_queue(gsm_page *page, const char *uri, bool written);
/* Starts the thread that reads the documents queued, now and later, until gsm_page_free. */
void gsm_page_start_reader(gsm_page *page);
/* Reads the next document queued in the caller's thread, instead of the reader thread; false when none
 * is queued. */
bool gsm_page_read_next(gsm_page *page);
void gsm_page_counters_get(gsm_page *page, gsm_page_counters *out);

/* Appends the page query asks for, of docs (containers included), to html; base_url, the storage root's
 * URI, names the server in the heading. Returns the HTTP status: 200, or 404 for an instance the server
 * does not hold. Safe to call from several threads (design note 4). docs must be the source's documents
 * at one moment (design note 6 compares their ETags with those read). */
int gsm_page_render(gsm_page *page, const char *base_url, const gsm_page_query *query, const gsm_page_document *docs,
                    size_t count, buf *html);

/* The headers the page must be sent with (Content-Type, Content-Security-Policy, ...); valid while page
 * lives. */
const gsm_page_header *gsm_page_headers(const gsm_page *page, size_t *count);

#endif
