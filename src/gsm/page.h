/* page.h: the read-only HTML page `ldgsm serve` shows at /.well-known/ldgsm: every workflow instance among
 * the server's documents, with its state and its drawing (draw.h), reloading itself every two seconds.
 *
 *  1. An instance is a gsm:StageInstance that is its own artifact instance (gsm:inArtifactInstance
 *     itself: set up) or is gsm:uninitialized (written by its user, not set up yet), in a document the
 *     server holds. Instances are listed in the order of their documents' paths.
 *  2. Each shows its root state and whether it is completed, each stage's state by name with its
 *     milestones, links to its document (and its model's, when held), and the drawing when its model's
 *     document is one of the server's own (otherwise the list alone, saying why).
 *  3. Everything printed that comes from a resource is HTML-escaped; the drawing's text is escaped by
 *     Graphviz from escaped labels (draw.h). The page is sent with a Content-Security-Policy that allows
 *     no script, no remote content and only its own stylesheet (by hash), and no framing.
 *  4. One page is built at a time (the work is bounded whatever the number of readers), beside any
 *     other RDF work of the process, with no lock shared with it: every raptor2 world the page uses,
 *     the one under the sentries' SPARQL parser (rasqal) included, comes from rdfio's pool and is never
 *     freed (freeing one cleans libxml2 up under every other thread, raptor_pool.c). The documents come in as
 *     one consistent view.
 * This layer knows no HTTP server: the caller hands in the documents and sends the page with
 * gsm_page_headers(). */
#ifndef LDGSM_GSM_PAGE_H
#define LDGSM_GSM_PAGE_H

#include <stddef.h>

#include "rdf/buf.h"

/* One of the server's documents: its absolute URI (no fragment) and its Turtle (base: uri). */
typedef struct gsm_page_document {
    const char *uri;
    const char *turtle;
    size_t len;
} gsm_page_document;

typedef struct gsm_page_header {
    const char *name, *value;
} gsm_page_header;

typedef struct gsm_page gsm_page;

/* compat_rules: the path of rules/compat-authors-draft.n3, or NULL (shape.h design note 4). */
gsm_page *gsm_page_new(const char *compat_rules);
void gsm_page_free(gsm_page *page);

/* Appends the page for docs to html; base_url names the server in the heading. Safe to call from several
 * threads (design note 4). */
void gsm_page_render(gsm_page *page, const char *base_url, const gsm_page_document *docs, size_t count, buf *html);

/* The headers the page must be sent with (Content-Type, Content-Security-Policy, ...); valid while page
 * lives. */
const gsm_page_header *gsm_page_headers(const gsm_page *page, size_t *count);

#endif
