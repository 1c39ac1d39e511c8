/* serve_page.h: the instances page of `ldgsm serve` (src/gsm/page.h) tied to the server: its route at
 * /.well-known/ldgsm, the store as the page's source, and the store's writes queued for the page's
 * reader (page.h design note 6), so that no request parses the documents the server holds. */
#ifndef LDGSM_CLI_SERVE_PAGE_H
#define LDGSM_CLI_SERVE_PAGE_H

#include "gsm/page.h"
#include "ldp/ldp_server.h"
#include "ldp/ldp_store.h"

#define SERVE_PAGE_PATH "/.well-known/ldgsm"

typedef struct serve_page serve_page;

/* Makes the page (config's source is the store's) and adds its route to server. store_config's change
 * hook, as ldp_server_hook_store set it, is kept and called first; the page's queues written documents
 * after it. Call before the store is opened with store_config. */
serve_page *serve_page_new(ldp_server *server, const gsm_page_config *config, ldp_store_config *store_config);
/* Queues every document store holds and starts the page's reader; once store is open and seeded. */
void serve_page_start(serve_page *sp, ldp_store *store);
/* Stops the reader and frees the page: after the server stopped, before the store is freed. */
void serve_page_free(serve_page *sp);

#endif
