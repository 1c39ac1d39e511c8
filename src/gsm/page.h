/* page.h: the read-only HTML page `ldgsm serve` shows at /.well-known/ldgsm: every workflow instance among
 * the server's documents, with its state and its drawing (draw.h), updated on every change where the server
 * sends Solid Notifications, otherwise reloading itself every few seconds.
 *
 *  1. An instance is a gsm:StageInstance that is its own artifact instance (gsm:inArtifactInstance
 *     itself: set up) or is gsm:uninitialized (written by its user, not set up yet), in a document the
 *     server holds. Instances are listed in the order of their documents' paths.
 *  2. Each shows its root state and whether it is completed, each stage's state by name with its
 *     milestones, links to its document (and its model's, when held), and the drawing when its model's
 *     document is one of the server's own (otherwise the list alone, saying why).
 *  3. Everything printed that comes from a resource is HTML-escaped; the drawing's text is escaped by
 *     Graphviz from escaped labels (draw.h). The page is sent with a Content-Security-Policy that allows
 *     no remote content, only its own stylesheet and script (by hash; no script at all without
 *     notifications), connections only to the server and its notification listener, and no framing.
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
 *     without notifications) is loaded whole.
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

enum { GSM_PAGE_DEFAULT_REFRESH = 2, GSM_PAGE_DEFAULT_CHANNELS = 16 };

typedef struct gsm_page_config {
    const char *compat_rules;   /* rules/compat-authors-draft.n3, or NULL (shape.h design note 4) */
    unsigned refresh;           /* seconds between reloads (design note 5); 0: GSM_PAGE_DEFAULT_REFRESH */
    const char *notifications;  /* the notification listener, "ws://host:port"; NULL: none offered */
    const char *subscription;   /* the WebSocketChannel2023 subscription service's path on the server */
    unsigned max_channels;      /* documents a page follows at most; 0: GSM_PAGE_DEFAULT_CHANNELS */
} gsm_page_config;

gsm_page *gsm_page_new(const gsm_page_config *config);
void gsm_page_free(gsm_page *page);

/* Appends the page for docs (containers included) to html; base_url, the storage root's URI, names the
 * server in the heading. Safe to call from several
 * threads (design note 4). */
void gsm_page_render(gsm_page *page, const char *base_url, const gsm_page_document *docs, size_t count, buf *html);

/* The headers the page must be sent with (Content-Type, Content-Security-Policy, ...); valid while page
 * lives. */
const gsm_page_header *gsm_page_headers(const gsm_page *page, size_t *count);

#endif
