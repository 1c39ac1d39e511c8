/* page.c: the page of page.h: finds the instances among the documents, reads each one's shape with its
 * model (shape.h), draws it (draw.h) and writes the HTML, escaping every text it did not write itself,
 * with the list of documents its script follows (design note 5). */
#define _GNU_SOURCE /* memmem */
#include "gsm/page.h"

#include <nettle/base64.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsm/draw.h"
#include "gsm/shape.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"
#include "rdf/strmap.h"
#include "rdf/vocab_ns.h"

#define MAX_INDENT 6
#define SETTLE_MS "100" /* design note 5: a burst of notifications makes one update */

/* The page's only style; the Content-Security-Policy allows it by its hash. */
static const char stylesheet[] =
    "body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-bottom:.3em}"
    "section{border-top:1px solid #ccc;padding-top:.5em;margin-top:1.2em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .6em;text-align:left}"
    "th{border-bottom:1px solid #999}.error{color:#a00}.note{color:#555}"
    ".active{background:#b6e8b0}.inactive{background:#e0e0e0}.completed{background:#c6dcff}"
    ".achieved{background:#ffd966}"
    ".d1{padding-left:1.5em}.d2{padding-left:3em}.d3{padding-left:4.5em}.d4{padding-left:6em}"
    ".d5{padding-left:7.5em}.d6{padding-left:9em}"
    ".drawing svg{max-width:100%;height:auto}";

/* The page's only script, where the server sends notifications (design note 5): it follows the documents
 * #topics lists and fetches the page again on a change; the Content-Security-Policy allows it by its hash. */
static const char script[] =
    "'use strict';\n"
    "const channels = new Map(); // topic -> {id, socket, live, forgotten}\n"
    "let topics, settle = 0, fetching = false, again = false, timer = 0, why = '';\n"
    "\n"
    "// Fetches the page and swaps its body in; one fetch at a time, one more for what came during it.\n"
    "function update() {\n"
    "  if (fetching) { again = true; return; }\n"
    "  fetching = true;\n"
    "  fetch(location.href, {cache: 'no-store'})\n"
    "    .then(answer => answer.ok ? answer.text()\n"
    "                              : Promise.reject(new Error('the page answered ' + answer.status)))\n"
    "    .then(html => {\n"
    "      const page = new DOMParser().parseFromString(html, 'text/html');\n"
    "      if (!page.getElementById('topics')) return location.reload(); // the server sends no notifications now\n"
    "      document.body.replaceWith(page.body);\n"
    "      follow();\n"
    "    })\n"
    "    .catch(error => { why = error.message; note(); })\n"
    "    .finally(() => { fetching = false; if (again) { again = false; update(); } });\n"
    "}\n"
    "\n"
    "// A notification: a burst of them makes one update.\n"
    "function changed() {\n"
    "  if (!settle) settle = setTimeout(() => { settle = 0; update(); }, " SETTLE_MS ");\n"
    "}\n"
    "\n"
    "// Stops following topic, freeing its channel on the server.\n"
    "function forget(topic, channel) {\n"
    "  channel.forgotten = true;\n"
    "  if (channels.get(topic) === channel) channels.delete(topic);\n"
    "  if (channel.socket) channel.socket.close();\n"
    "  if (channel.id) fetch(channel.id, {method: 'DELETE', keepalive: true}).catch(() => {});\n"
    "}\n"
    "\n"
    "function fail(topic, channel, reason) {\n"
    "  if (channel.forgotten) return;\n"
    "  forget(topic, channel);\n"
    "  why = reason;\n"
    "  note();\n"
    "}\n"
    "\n"
    "// A WebSocketChannel2023 subscription; state: the ETag the page shows, so a later change is told at once.\n"
    "function subscribe(topic, state) {\n"
    "  const channel = {id: null, socket: null, live: false, forgotten: false};\n"
    "  channels.set(topic, channel);\n"
    "  const request = {'@context': ['https://www.w3.org/ns/solid/notification/v1'],\n"
    "    type: 'http://www.w3.org/ns/solid/notifications#WebSocketChannel2023', topic, state};\n"
    "  fetch(topics.dataset.service, {method: 'POST', headers: {'Content-Type': 'application/ld+json'},\n"
    "                                 body: JSON.stringify(request)})\n"
    "    .then(answer => answer.ok ? answer.json()\n"
    "                              : Promise.reject(new Error('a subscription answered ' + answer.status)))\n"
    "    .then(description => {\n"
    "      channel.id = description.id;\n"
    "      if (channel.forgotten) return forget(topic, channel);\n"
    "      channel.socket = new WebSocket(description.receiveFrom);\n"
    "      channel.socket.addEventListener('open', () => { channel.live = true; note(); });\n"
    "      channel.socket.addEventListener('message', changed);\n"
    "      channel.socket.addEventListener('close', () => fail(topic, channel, 'a notification socket closed'));\n"
    "    })\n"
    "    .catch(error => fail(topic, channel, error.message));\n"
    "}\n"
    "\n"
    "// Follows what the page lists now: subscribes the new topics, forgets the ones no longer listed.\n"
    "function follow() {\n"
    "  topics = document.getElementById('topics');\n"
    "  const listed = new Map([...topics.children].map(item => [item.textContent, item.dataset.state]));\n"
    "  for (const [topic, channel] of channels) if (!listed.has(topic)) forget(topic, channel);\n"
    "  for (const [topic, state] of listed) if (!channels.has(topic)) subscribe(topic, state);\n"
    "  note();\n"
    "}\n"
    "\n"
    "// Says how the page updates; reloads it every data-refresh seconds while a document is not followed.\n"
    "function note() {\n"
    "  const live = [...channels.values()].filter(channel => channel.live).length;\n"
    "  const all = topics.children.length + Number(topics.dataset.beyond);\n"
    "  const refresh = Number(topics.dataset.refresh);\n"
    "  if (live < all && !timer) timer = setInterval(update, refresh * 1000);\n"
    "  if (live === all) { clearInterval(timer); timer = 0; why = ''; }\n"
    "  document.getElementById('updates').textContent = live === all\n"
    "    ? 'it updates on every change (Solid Notifications).'\n"
    "    : `${live} of ${all} documents followed by notification${why ? ' (' + why + ')' : ''}; `\n"
    "      + `this page reloads every ${refresh} seconds.`;\n"
    "}\n"
    "\n"
    "document.addEventListener('DOMContentLoaded', follow);\n"
    "addEventListener('pagehide', () => { for (const [topic, channel] of channels) forget(topic, channel); });\n";

enum { HEADER_COUNT = 6 };

struct gsm_page {
    char *compat_rules;
    unsigned refresh, max_channels;
    char *subscription; /* NULL: the server sends no notifications */
    pthread_mutex_t lock; /* design note 4 */
    buf csp;
    gsm_page_header headers[HEADER_COUNT];
};

/* Appends "'sha256-BASE64'" of text, as a Content-Security-Policy source. */
static void csp_hash(buf *csp, const char *text, size_t len) {
    struct sha256_ctx sha;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&sha);
    sha256_update(&sha, len, (const uint8_t *)text);
    sha256_digest(&sha, sizeof digest, digest);
    char hash[BASE64_ENCODE_RAW_LENGTH(SHA256_DIGEST_SIZE) + 1];
    base64_encode_raw(hash, sizeof digest, digest);
    hash[BASE64_ENCODE_RAW_LENGTH(SHA256_DIGEST_SIZE)] = '\0';
    buf_printf(csp, "'sha256-%s'", hash);
}

static char *copy(const char *text) { return text ? xstrndup(text, strlen(text)) : NULL; }

gsm_page *gsm_page_new(const gsm_page_config *config) {
    gsm_page *p = xcalloc(1, sizeof *p);
    p->compat_rules = copy(config->compat_rules);
    p->refresh = config->refresh ? config->refresh : GSM_PAGE_DEFAULT_REFRESH;
    p->max_channels = config->max_channels ? config->max_channels : GSM_PAGE_DEFAULT_CHANNELS;
    p->subscription = config->notifications ? copy(config->subscription) : NULL;
    pthread_mutex_init(&p->lock, NULL);
    buf_puts(&p->csp, "default-src 'none'; style-src ");
    csp_hash(&p->csp, stylesheet, sizeof stylesheet - 1);
    if (p->subscription) {
        buf_puts(&p->csp, "; script-src ");
        csp_hash(&p->csp, script, sizeof script - 1);
        buf_printf(&p->csp, "; connect-src 'self' %s", config->notifications);
    }
    buf_puts(&p->csp, "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    const gsm_page_header headers[HEADER_COUNT] = {
        {"Content-Type", "text/html; charset=utf-8"},
        {"Content-Security-Policy", buf_cstr(&p->csp)},
        {"X-Content-Type-Options", "nosniff"},
        {"Cache-Control", "no-store"},
        {"Referrer-Policy", "no-referrer"},
        {"X-Frame-Options", "DENY"},
    };
    memcpy(p->headers, headers, sizeof headers);
    return p;
}

void gsm_page_free(gsm_page *p) {
    if (!p)
        return;
    pthread_mutex_destroy(&p->lock);
    free(p->compat_rules);
    free(p->subscription);
    buf_free(&p->csp);
    free(p);
}

const gsm_page_header *gsm_page_headers(const gsm_page *p, size_t *count) {
    *count = HEADER_COUNT;
    return p->headers;
}

/* Text for HTML content and double-quoted attribute values. */
static void html_text(buf *out, const char *text) {
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': buf_puts(out, "&amp;"); break;
        case '<': buf_puts(out, "&lt;"); break;
        case '>': buf_puts(out, "&gt;"); break;
        case '"': buf_puts(out, "&quot;"); break;
        case '\'': buf_puts(out, "&#39;"); break;
        default: buf_putc(out, *c);
        }
    }
}

/* ==== finding the instances (design note 1) ==== */

typedef struct instance {
    size_t doc;
    char *iri;
    size_t model_doc; /* the document of its gsm:isInstanceOf, or SIZE_MAX when the server holds none */
    gsm_shape *shape; /* read with the documents; NULL when it could not be, with error */
    char error[1024];
} instance;

typedef struct instance_list {
    instance *items;
    size_t count;
} instance_list;

/* The index of the document whose URI is iri without its fragment, or SIZE_MAX. */
static size_t document_of(const strmap *by_uri, const char *iri) {
    const char *hash = strchr(iri, '#');
    uint32_t *index = strmap_get_n(by_uri, iri, hash ? (size_t)(hash - iri) : strlen(iri));
    return index ? *index : SIZE_MAX;
}

static void find_in_document(terms *t, rdfio *io, const gsm_page_document *doc, size_t index,
                             const strmap *by_uri, instance_list *out) {
    /* Only a document that names the class can hold an instance: most of a server's documents are
     * passed over without being parsed. */
    if (doc->container || !memmem(doc->turtle, doc->len, "StageInstance", strlen("StageInstance")))
        return;
    store *st = store_new();
    rdf_error err;
    if (rdf_parse(io, st, RDF_TURTLE, doc->turtle, doc->len, doc->uri, 0, doc->uri, &err) == 0) {
        term_id stage_instance = terms_iri_cstr(t, NS_GSM "StageInstance");
        term_id in_artifact = terms_iri_cstr(t, GSM_inArtifactInstance);
        term_id has_state = terms_iri_cstr(t, GSM_hasState);
        term_id uninitialized = terms_iri_cstr(t, GSM_uninitialized);
        term_id is_instance_of = terms_iri_cstr(t, GSM_isInstanceOf);
        store_iter it;
        uint32_t n;
        const triple *tr;
        store_match(st, 0, T_RDF_TYPE, stage_instance, 0, store_size(st), &it);
        while ((tr = store_next(&it, &n))) {
            term_id x = tr->s;
            bool set_up = store_find(st, x, in_artifact, x) != UINT32_MAX;
            bool not_yet = store_find(st, x, has_state, uninitialized) != UINT32_MAX;
            if (terms_kind(t, x) != TERM_IRI || !(set_up || not_yet))
                continue;
            const char *iri = terms_lex(t, x, NULL);
            store_iter models;
            uint32_t m;
            store_match(st, x, is_instance_of, 0, 0, store_size(st), &models);
            const triple *model = store_next(&models, &m);
            size_t model_doc = model && terms_kind(t, model->o) == TERM_IRI
                                   ? document_of(by_uri, terms_lex(t, model->o, NULL))
                                   : SIZE_MAX;
            out->items = xrealloc(out->items, (out->count + 1) * sizeof *out->items);
            out->items[out->count++] = (instance){.doc = index, .iri = xstrndup(iri, strlen(iri)),
                                                  .model_doc = model_doc};
        }
    }
    store_free(st);
}

/* ==== one instance (design note 2) ==== */

static void write_stage_rows(const gsm_shape *shape, buf *html) {
    buf_puts(html, "<table><tr><th>stage</th><th>state</th><th>milestones</th></tr>\n");
    for (size_t i = 0; i < shape->stage_count; i++) {
        const gsm_shape_stage *stage = &shape->stages[i];
        const char *word = gsm_shape_stage_word(shape, stage);
        size_t indent = stage->depth < MAX_INDENT ? stage->depth : MAX_INDENT;
        buf_printf(html, "<tr><td class=\"d%zu\">", indent);
        html_text(html, stage->name);
        buf_puts(html, "</td><td class=\"");
        html_text(html, word);
        buf_puts(html, "\">");
        html_text(html, word);
        buf_puts(html, "</td><td>");
        bool first = true;
        for (size_t m = 0; m < shape->milestone_count; m++) {
            const gsm_shape_milestone *milestone = &shape->milestones[m];
            if (milestone->stage != i)
                continue;
            buf_puts(html, first ? "" : ", ");
            first = false;
            buf_puts(html, milestone->achieved == 1 ? "<span class=\"achieved\">" : "<span>");
            html_text(html, milestone->name);
            buf_puts(html, milestone->achieved == 1 ? " (achieved)</span>" : "</span>");
        }
        buf_puts(html, "</td></tr>\n");
    }
    buf_puts(html, "</table>\n");
}

/* The picture as inline SVG: Graphviz's output from its <svg> element on (no XML prolog or DOCTYPE). */
static void write_drawing(const gsm_shape *shape, buf *html) {
    buf svg = {0};
    char error[600];
    if (gsm_draw(shape, GSM_DRAW_SVG, &svg, error, sizeof error) != 0) {
        buf_puts(html, "<p class=\"error\">No drawing: ");
        html_text(html, error);
        buf_puts(html, "</p>\n");
    } else {
        const char *start = strstr(buf_cstr(&svg), "<svg");
        buf_puts(html, "<div class=\"drawing\">");
        if (start)
            buf_append(html, start, svg.len - (size_t)(start - svg.data));
        buf_puts(html, "</div>\n");
    }
    buf_free(&svg);
}

/* Reads the instance's shape from its document and its model's, when the server holds it. */
static void read_instance(gsm_page *p, const gsm_page_document *docs, instance *in) {
    const gsm_page_document *doc = &docs[in->doc];
    gsm_shape *shape = gsm_shape_new(p->compat_rules);
    int rc = gsm_shape_load(shape, doc->uri, doc->uri, RDF_TURTLE, doc->turtle, doc->len, in->error,
                            sizeof in->error);
    const gsm_page_document *model = in->model_doc != SIZE_MAX ? &docs[in->model_doc] : NULL;
    if (rc == 0 && model && model != doc)
        rc = gsm_shape_load(shape, model->uri, model->uri, RDF_TURTLE, model->turtle, model->len, in->error,
                            sizeof in->error);
    if (rc == 0)
        rc = gsm_shape_build(shape, in->iri, in->error, sizeof in->error);
    if (rc == 0)
        in->shape = shape;
    else
        gsm_shape_free(shape);
}

static void write_instance(const gsm_page_document *docs, const instance *in, buf *html) {
    buf_puts(html, "<section>\n<h2><a href=\"");
    html_text(html, docs[in->doc].uri);
    buf_puts(html, "\">");
    html_text(html, in->iri);
    buf_puts(html, "</a></h2>\n");
    const gsm_shape *shape = in->shape;
    if (!shape) {
        buf_puts(html, "<p class=\"error\">");
        html_text(html, in->error);
        buf_puts(html, "</p>\n</section>\n");
        return;
    }
    const gsm_shape_stage *root = &shape->stages[0];
    buf_puts(html, "<p>Workflow <b>");
    html_text(html, root->name);
    buf_puts(html, "</b> (model ");
    if (in->model_doc != SIZE_MAX) {
        buf_puts(html, "<a href=\"");
        html_text(html, docs[in->model_doc].uri);
        buf_puts(html, "\">");
        html_text(html, root->iri);
        buf_puts(html, "</a>");
    } else {
        html_text(html, root->iri);
    }
    buf_puts(html, "): root state <b>");
    html_text(html, gsm_shape_state_name(root->state));
    buf_puts(html, root->completed == 1 ? "</b>, <b>completed</b>.</p>\n" : "</b>, not completed.</p>\n");
    write_stage_rows(shape, html);
    if (shape->has_model)
        write_drawing(shape, html);
    else
        buf_puts(html, "<p class=\"note\">No drawing: this server does not hold the model's document.</p>\n");
    buf_puts(html, "</section>\n");
}

/* ==== the page ==== */

/* Everything that parses RDF (raptor2, and rasqal through the shapes' sentries) runs here, on worlds of
 * rdfio's pool (design note 4). */
static void read_instances(gsm_page *p, const gsm_page_document *docs, size_t count, instance_list *found) {
    terms *t = terms_new();
    rdfio *io = rdfio_new(t);
    strmap by_uri = {0};
    bool inserted;
    for (size_t i = 0; i < count; i++)
        strmap_put(&by_uri, docs[i].uri, (uint32_t)i, &inserted);
    for (size_t i = 0; i < count; i++)
        find_in_document(t, io, &docs[i], i, &by_uri, found);
    strmap_free(&by_uri);
    rdfio_free(io);
    terms_free(t);
    for (size_t i = 0; i < found->count; i++)
        read_instance(p, docs, &found->items[i]);
}

/* ==== the documents the script follows (design note 5) ==== */

static void add_topic(size_t doc, bool *chosen, size_t *order, size_t *n) {
    if (doc != SIZE_MAX && !chosen[doc]) {
        chosen[doc] = true;
        order[(*n)++] = doc;
    }
}

/* The container of a document: its URI up to the last '/'. */
static size_t container_of(const strmap *by_uri, const char *uri) {
    size_t len = strlen(uri);
    while (len && uri[len - 1] != '/')
        len--;
    uint32_t *index = strmap_get_n(by_uri, uri, len);
    return index ? *index : SIZE_MAX;
}

/* Writes the hidden list of the documents the script follows, in design note 5's order, the first
 * max_channels of them (data-beyond: how many more there are). */
static void write_topics(const gsm_page *p, const char *base_url, const gsm_page_document *docs, size_t count,
                         const instance_list *found, buf *html) {
    strmap by_uri = {0};
    bool inserted;
    for (size_t i = 0; i < count; i++)
        strmap_put(&by_uri, docs[i].uri, (uint32_t)i, &inserted);
    bool *chosen = xcalloc(count ? count : 1, sizeof *chosen);
    size_t *order = xmalloc((count ? count : 1) * sizeof *order), n = 0;
    uint32_t *root = strmap_get(&by_uri, base_url);
    add_topic(root ? *root : SIZE_MAX, chosen, order, &n);
    for (size_t i = 0; i < found->count; i++)
        add_topic(container_of(&by_uri, docs[found->items[i].doc].uri), chosen, order, &n);
    for (size_t i = 0; i < found->count; i++)
        add_topic(found->items[i].doc, chosen, order, &n);
    for (size_t i = 0; i < count; i++)
        if (docs[i].container)
            add_topic(i, chosen, order, &n);
    size_t followed = n < p->max_channels ? n : p->max_channels;
    buf_puts(html, "<ul id=\"topics\" hidden data-service=\"");
    html_text(html, p->subscription);
    buf_printf(html, "\" data-refresh=\"%u\" data-beyond=\"%zu\">\n", p->refresh, n - followed);
    for (size_t i = 0; i < followed; i++) {
        const gsm_page_document *doc = &docs[order[i]];
        buf_puts(html, "<li");
        if (doc->etag) {
            buf_puts(html, " data-state=\"");
            html_text(html, doc->etag);
            buf_puts(html, "\"");
        }
        buf_puts(html, ">");
        html_text(html, doc->uri);
        buf_puts(html, "</li>\n");
    }
    buf_puts(html, "</ul>\n");
    free(order);
    free(chosen);
    strmap_free(&by_uri);
}

void gsm_page_render(gsm_page *p, const char *base_url, const gsm_page_document *docs, size_t count, buf *html) {
    pthread_mutex_lock(&p->lock);
    instance_list found = {0};
    read_instances(p, docs, count, &found);
    buf_puts(html, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    /* With the script, the meta refresh is only for a browser that runs none (design note 5). */
    buf_printf(html, "%s<meta http-equiv=\"refresh\" content=\"%u\">%s\n", p->subscription ? "<noscript>" : "",
               p->refresh, p->subscription ? "</noscript>" : "");
    buf_puts(html, "<title>ldgsm: workflow instances</title>\n<style>");
    buf_puts(html, stylesheet);
    buf_puts(html, "</style>\n");
    if (p->subscription) {
        buf_puts(html, "<script>");
        buf_puts(html, script);
        buf_puts(html, "</script>\n");
    }
    buf_puts(html, "</head>\n<body>\n<h1>Workflow instances on ");
    html_text(html, base_url);
    buf_printf(html,
               "</h1>\n<p class=\"note\">%zu instance%s; <span id=\"updates\">this page reloads every %u "
               "seconds%s.</span></p>\n",
               found.count, found.count == 1 ? "" : "s", p->refresh,
               p->subscription ? "" : ": the server sends no notifications");
    if (p->subscription)
        write_topics(p, base_url, docs, count, &found, html);
    if (!found.count)
        buf_puts(html, "<p>No workflow instance yet: an instance is a document holding "
                       "<code>&lt;#it&gt; a gsm:StageInstance ; gsm:isInstanceOf &lt;model#root&gt; ; "
                       "gsm:hasState gsm:uninitialized .</code></p>\n");
    for (size_t i = 0; i < found.count; i++)
        write_instance(docs, &found.items[i], html);
    buf_puts(html, "</body></html>\n");
    for (size_t i = 0; i < found.count; i++) {
        free(found.items[i].iri);
        gsm_shape_free(found.items[i].shape);
    }
    free(found.items);
    pthread_mutex_unlock(&p->lock);
}
