/* serve_page.c: serve_page.h: the route answering the page from a view of the store, the source reading
 * a document by its URI from the store, and the change hook queueing each resource written. */
#include "cli/serve_page.h"

#include <stdlib.h>
#include <string.h>

#include "ldp/ldp_path.h"
#include "rdf/metrics_text.h"

struct serve_page {
    gsm_page *page;
    const char *base_url;           /* the server's, no trailing '/' */
    ldp_store *store;               /* set by serve_page_start: the source reads nothing before */
    ldp_store_change_fn notify;     /* the hook ldp_server_hook_store set, or NULL */
    void *notify_user;
};

static void fill_document(const ldp_doc *doc, gsm_page_document *out) {
    *out = (gsm_page_document){doc->uri, doc->turtle->data, doc->turtle->len, doc->etag[LDP_MEDIA_TURTLE],
                               doc->is_container};
}

/* The page of workflow instances, from a view of the store's documents. */
static void answer_page(void *user, const ldp_store_view *view, const char *base_url, const char *accept,
                        ldp_route_answer *answer) {
    gsm_page *page = ((serve_page *)user)->page;
    (void)accept; /* HTML only */
    gsm_page_document *docs = xmalloc((view->count ? view->count : 1) * sizeof *docs);
    for (size_t i = 0; i < view->count; i++)
        fill_document(view->docs[i], &docs[i]);
    buf base = {0};
    buf_printf(&base, "%s/", base_url);
    char *page_number = ldp_route_query(answer, "page");
    char *instance = ldp_route_query(answer, "instance"), *state = ldp_route_query(answer, "state");
    char *model = ldp_route_query(answer, "model"), *text = ldp_route_query(answer, "text");
    gsm_page_query query = {instance, state, model, text, page_number ? strtoul(page_number, NULL, 10) : 1};
    answer->status = gsm_page_render(page, buf_cstr(&base), &query, docs, view->count, &answer->body);
    free(page_number);
    free(instance);
    free(state);
    free(model);
    free(text);
    buf_free(&base);
    free(docs);
    size_t header_count;
    const gsm_page_header *headers = gsm_page_headers(page, &header_count);
    for (size_t i = 0; i < header_count; i++)
        ldp_route_answer_header(answer, headers[i].name, headers[i].value);
}

/* The page's source: the document at uri as the store holds it now. */
static bool read_document(void *user, const char *uri, gsm_page_document *out, void **hold) {
    serve_page *sp = user;
    size_t base_len = strlen(sp->base_url);
    char *path;
    const char *why;
    if (!sp->store || strncmp(uri, sp->base_url, base_len) != 0 || ldp_path_decode(uri + base_len, &path, &why) != 0)
        return false;
    ldp_doc *doc = ldp_store_get(sp->store, path);
    free(path);
    if (!doc)
        return false;
    fill_document(doc, out);
    *hold = doc;
    return true;
}

static void release_document(void *user, void *hold) {
    (void)user;
    ldp_doc_release(hold);
}

/* The store's change hook (ldp_store.h note 7, under its writer lock): the notifications', then each
 * resource created, updated or deleted queued for the page (containers hold no instance). */
static void store_changed(void *user, const ldp_store_change *changes, size_t count) {
    serve_page *sp = user;
    if (sp->notify)
        sp->notify(sp->notify_user, changes, count);
    buf uri = {0};
    for (size_t i = 0; i < count; i++) {
        const ldp_store_change *c = &changes[i];
        if (c->activity == LDP_ACTIVITY_ADD || c->activity == LDP_ACTIVITY_REMOVE ||
            ldp_path_is_container(c->path, strlen(c->path)))
            continue;
        uri.len = 0;
        buf_puts(&uri, sp->base_url);
        ldp_path_encode(c->path, strlen(c->path), &uri);
        gsm_page_queue(sp->page, buf_cstr(&uri), true);
    }
    buf_free(&uri);
}

/* The page's counters at /metrics (docs/guide/logs-and-metrics.md). */
static void page_metrics(void *user, buf *out) {
    gsm_page_counters counters;
    gsm_page_counters_get(((serve_page *)user)->page, &counters);
    metrics_text_family(out, "ldgsm_page_documents_read_total", "counter",
                        "Documents the instances page read: by its reader in the background, or by a page "
                        "request itself (a few written since the reader read them).");
    metrics_text_sample(out, "ldgsm_page_documents_read_total", counters.read_in_background,
                        (const char *const[]){"by", "reader", NULL});
    metrics_text_sample(out, "ldgsm_page_documents_read_total", counters.read_in_requests,
                        (const char *const[]){"by", "request", NULL});
    metrics_text_single(out, "ldgsm_page_documents_queued", "gauge",
                        "Documents the instances page's reader has still to read (at a start: every one).",
                        counters.queued);
}

serve_page *serve_page_new(ldp_server *server, const gsm_page_config *config, ldp_store_config *store_config) {
    serve_page *sp = xcalloc(1, sizeof *sp);
    sp->base_url = ldp_server_base_url(server);
    sp->notify = store_config->on_change;
    sp->notify_user = store_config->on_change_user;
    gsm_page_config with_source = *config;
    with_source.source = (gsm_page_source){read_document, release_document, sp};
    sp->page = gsm_page_new(&with_source);
    ldp_server_add_route(server, SERVE_PAGE_PATH, answer_page, sp);
    ldp_server_add_metrics(server, page_metrics, sp);
    store_config->on_change = store_changed;
    store_config->on_change_user = sp;
    return sp;
}

void serve_page_start(serve_page *sp, ldp_store *store) {
    sp->store = store;
    ldp_store_view view;
    ldp_store_view_take(store, &view);
    for (size_t i = 0; i < view.count; i++)
        if (!view.docs[i]->is_container)
            gsm_page_queue(sp->page, view.docs[i]->uri, false);
    ldp_store_view_release(&view);
    gsm_page_start_reader(sp->page);
}

void serve_page_free(serve_page *sp) {
    if (!sp)
        return;
    gsm_page_free(sp->page);
    free(sp);
}
