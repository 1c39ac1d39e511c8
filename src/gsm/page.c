/* page.c: the pages of page.h: finds the instances among the documents (as page_index.h read them; a page
 * reads itself only a few written since: design note 6), counts, filters and pages them, shows why each
 * one shown waits (status_report.h), and on an instance's own page reads its shape with its model
 * (shape.h) and draws it (draw.h); writes the HTML, escaping every text it did not write itself, with the
 * list of documents its script follows (design note 5). */
#define _GNU_SOURCE /* strcasestr */
#include "gsm/page.h"

#include <nettle/base64.h>
#include <nettle/sha2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsm/draw.h"
#include "gsm/page_index.h"
#include "gsm/shape.h"
#include "gsm/status_report.h"
#include "rdf/rdfio.h"
#include "rdf/store.h"
#include "rdf/strmap.h"

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
    ".drawing svg{max-width:100%;height:auto}"
    ".retrying{background:#ffcf99}.exhausted{background:#f4a6a6}.notsetup{background:#fff}"
    "#counts a{padding:.1em .4em;margin-right:.2em;text-decoration:none;color:#222}"
    "td{vertical-align:top}pre.why{margin:0;white-space:pre-wrap;font-size:.85em}";

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
    "// Says how the page updates; reloads it every data-refresh seconds while a document is not followed, or\n"
    "// while the server has documents to read.\n"
    "function note() {\n"
    "  const live = [...channels.values()].filter(channel => channel.live).length;\n"
    "  const all = topics.children.length + Number(topics.dataset.beyond);\n"
    "  const refresh = Number(topics.dataset.refresh);\n"
    "  const reading = 'reading' in topics.dataset; // the server has documents to read (#reading)\n"
    "  if (live === all) why = '';\n"
    "  if ((live < all || reading) && !timer) timer = setInterval(update, refresh * 1000);\n"
    "  if (live === all && !reading) { clearInterval(timer); timer = 0; }\n"
    "  document.getElementById('updates').textContent = live === all\n"
    "    ? 'it updates on every change (Solid Notifications).'\n"
    "    : `${live} of ${all} documents followed by notification${why ? ' (' + why + ')' : ''}; `\n"
    "      + `this page reloads every ${refresh} seconds.`;\n"
    "}\n"
    "\n"
    "document.addEventListener('DOMContentLoaded', follow);\n"
    "addEventListener('pagehide', () => { for (const [topic, channel] of channels) forget(topic, channel); });\n";

static const char *const state_words[CS_COUNT] = {"not set up", "active", "retrying", "call exhausted",
                                                  "completed", "inactive"};
static const char *const state_classes[CS_COUNT] = {"notsetup", "active", "retrying", "exhausted", "completed",
                                                    "inactive"};

enum { HEADER_COUNT = 6 };

struct gsm_page {
    char *compat_rules;
    unsigned refresh, max_channels;
    char *subscription; /* NULL: the server sends no notifications */
    page_index *index; /* design note 6; its lock is the page's (design note 4) */
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

gsm_page *gsm_page_new(const gsm_page_config *config) {
    gsm_page *p = xcalloc(1, sizeof *p);
    p->compat_rules = text_copy(config->compat_rules);
    p->refresh = config->refresh ? config->refresh : GSM_PAGE_DEFAULT_REFRESH;
    p->max_channels = config->max_channels ? config->max_channels : GSM_PAGE_DEFAULT_CHANNELS;
    p->subscription = config->notifications ? text_copy(config->subscription) : NULL;
    p->index = page_index_new(&config->source);
    buf_puts(&p->csp, "default-src 'none'; style-src ");
    csp_hash(&p->csp, stylesheet, sizeof stylesheet - 1);
    if (p->subscription) {
        buf_puts(&p->csp, "; script-src ");
        csp_hash(&p->csp, script, sizeof script - 1);
        buf_printf(&p->csp, "; connect-src 'self' %s", config->notifications);
    }
    buf_puts(&p->csp, "; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
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
    page_index_free(p->index);
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

/* An instance as this page lists it: where it is and what its document said. */
typedef struct listed {
    size_t doc, model_doc; /* model_doc: SIZE_MAX when the server holds no document of its model */
    held_instance *in; /* its why is filled in when shown */
} listed;

/* The index of the document whose URI is iri without its fragment, or SIZE_MAX. */
static size_t document_of(const strmap *by_uri, const char *iri) {
    if (!iri)
        return SIZE_MAX;
    const char *hash = strchr(iri, '#');
    uint32_t *index = strmap_get_n(by_uri, iri, hash ? (size_t)(hash - iri) : strlen(iri));
    return index ? *index : SIZE_MAX;
}

/* The documents' instances as this page knows them (design note 6). */
typedef struct known_docs {
    doc_instances **of; /* per document: its instances as read, or NULL */
    doc_instances *own; /* those this page read itself */
    size_t own_count;
    size_t documents, unread; /* the documents that are not containers; those not read at their ETag */
} known_docs;

static bool read_at(const doc_instances *entry, const char *etag) {
    return entry && entry->etag && etag && strcmp(entry->etag, etag) == 0;
}

/* Finds each document's instances as read at its ETag; when at most GSM_PAGE_READ_IN_REQUEST documents
 * were not, reads them here, and reads must_read (SIZE_MAX: none) whatever their number. The others keep
 * what was read of them before and are counted unread. Under the index lock. */
static void know_documents(gsm_page *p, const gsm_page_document *docs, size_t count, size_t must_read,
                           known_docs *k) {
    *k = (known_docs){.of = xcalloc(count ? count : 1, sizeof *k->of)};
    size_t *stale = xmalloc((count ? count : 1) * sizeof *stale), stale_count = 0;
    for (size_t i = 0; i < count; i++) {
        if (docs[i].container)
            continue;
        k->documents++;
        k->of[i] = page_index_entry(p->index, docs[i].uri);
        if (!read_at(k->of[i], docs[i].etag))
            stale[stale_count++] = i;
    }
    bool read_all = stale_count <= GSM_PAGE_READ_IN_REQUEST;
    k->own = xcalloc(stale_count ? stale_count : 1, sizeof *k->own);
    for (size_t n = 0; n < stale_count; n++) {
        size_t i = stale[n];
        if (!read_all && i != must_read) {
            k->unread++;
            continue;
        }
        doc_instances_read(&docs[i], &k->own[k->own_count]);
        k->of[i] = &k->own[k->own_count++];
        page_index_count_request_read(p->index);
    }
    free(stale);
}

static void known_docs_free(known_docs *k) {
    for (size_t i = 0; i < k->own_count; i++)
        doc_instances_free(&k->own[i]);
    free(k->own);
    free(k->of);
}

/* Every instance known, in its documents' order (design note 1). */
static listed *list_instances(const known_docs *k, const strmap *by_uri, size_t count, size_t *listed_count) {
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        n += k->of[i] ? k->of[i]->count : 0;
    listed *all = xmalloc((n ? n : 1) * sizeof *all);
    n = 0;
    for (size_t i = 0; i < count; i++)
        for (size_t m = 0; k->of[i] && m < k->of[i]->count; m++)
            all[n++] = (listed){i, document_of(by_uri, k->of[i]->items[m].model), &k->of[i]->items[m]};
    *listed_count = n;
    return all;
}

/* ==== why an instance waits: status_report.h, on the documents the server holds (design note 7) ==== */

typedef struct held_reads {
    const strmap *by_uri;
    const char *base_url;
} held_reads;

/* A read as the server's own view: 200 for a document it holds, 404 for another of its paths, and no
 * answer for a document elsewhere (this page reads nothing over the network). */
static bool held_read(void *user, const char *iri, status_read *out) {
    const held_reads *r = user;
    if (document_of(r->by_uri, iri) != SIZE_MAX)
        *out = (status_read){.status = 200};
    else if (strncmp(iri, r->base_url, strlen(r->base_url)) == 0)
        *out = (status_read){.status = 404};
    else
        *out = (status_read){.failure = "not on this server"};
    return true;
}

/* The report of l from its document and its model's (history: how many transitions it keeps). */
static status_report *report_of(terms *t, rdfio *io, const gsm_page_document *docs, const held_reads *reads,
                                const listed *l, unsigned history) {
    store *wm = store_new();
    size_t parts[2] = {l->doc, l->model_doc};
    for (size_t i = 0; i < 2; i++) {
        if (parts[i] == SIZE_MAX || (i == 1 && parts[1] == parts[0]))
            continue;
        const gsm_page_document *doc = &docs[parts[i]];
        rdf_error err;
        rdf_parse(io, wm, RDF_TURTLE, doc->turtle, doc->len, doc->uri, 0, doc->uri, &err);
    }
    status_input in = {.t = t, .wm = wm, .instance = l->in->iri, .read = held_read, .read_user = (void *)reads,
                       .history = history};
    status_report *report = status_report_build(&in);
    store_free(wm);
    return report;
}

/* Fills in why l waits, unless it was made with the model's document as it is (its own document's
 * changes make a new entry: design note 6). */
static void explain(const gsm_page_document *docs, const held_reads *reads, listed *l) {
    const char *model_etag = l->model_doc != SIZE_MAX && docs[l->model_doc].etag ? docs[l->model_doc].etag : "";
    if (l->in->why && strcmp(l->in->why_model, model_etag) == 0)
        return;
    terms *t = terms_new();
    rdfio *io = rdfio_new(t);
    status_report *report = report_of(t, io, docs, reads, l, 0);
    buf why = {0};
    status_report_why_text(report, &why);
    free(l->in->why);
    free(l->in->why_model);
    l->in->why = buf_cstr(&why);
    l->in->why_model = text_copy(model_etag);
    status_report_free(report);
    rdfio_free(io);
    terms_free(t);
}

/* ==== one instance's own page (design note 8) ==== */

typedef struct instance {
    size_t doc;
    const char *iri;
    size_t model_doc;
    gsm_shape *shape; /* read with the documents; NULL when it could not be, with error */
    char error[1024];
} instance;

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

/* Writes the hidden list of the documents the script follows for the instances shown, in design note 5's
 * order, the first max_channels of them (data-beyond: how many more there are). */
static void write_topics(const gsm_page *p, const char *base_url, const gsm_page_document *docs, size_t count,
                         const strmap *by_uri, const listed *shown, size_t shown_count, bool reading, buf *html) {
    bool *chosen = xcalloc(count ? count : 1, sizeof *chosen);
    size_t *order = xmalloc((count ? count : 1) * sizeof *order), n = 0;
    uint32_t *root = strmap_get(by_uri, base_url);
    add_topic(root ? *root : SIZE_MAX, chosen, order, &n);
    for (size_t i = 0; i < shown_count; i++)
        add_topic(container_of(by_uri, docs[shown[i].doc].uri), chosen, order, &n);
    for (size_t i = 0; i < shown_count; i++)
        add_topic(shown[i].doc, chosen, order, &n);
    for (size_t i = 0; i < count; i++)
        if (docs[i].container)
            add_topic(i, chosen, order, &n);
    size_t followed = n < p->max_channels ? n : p->max_channels;
    buf_puts(html, "<ul id=\"topics\" hidden data-service=\"");
    html_text(html, p->subscription);
    buf_printf(html, "\" data-refresh=\"%u\" data-beyond=\"%zu\"%s>\n", p->refresh, n - followed,
               reading ? " data-reading" : "");
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
}

/* ==== the page ==== */

/* Text for a query parameter's value: everything but unreserved characters percent-encoded. */
static void query_text(buf *out, const char *text) {
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || strchr("-._~", *c))
            buf_putc(out, (char)*c);
        else
            buf_printf(out, "%%%02X", *c);
    }
}

static bool given(const char *text) { return text && *text; }

/* A link's href to the console with query's filters, state replaced by state (NULL: none) and page by page
 * (0: the first), escaped for an attribute. */
static void console_href(buf *html, const gsm_page_query *query, const char *state, size_t page) {
    buf href = {0};
    buf_putc(&href, '?');
    const char *names[] = {"state", "model", "text"}, *values[] = {state, query->model, query->text};
    for (size_t i = 0; i < 3; i++)
        if (given(values[i])) {
            buf_printf(&href, "%s%s=", href.len > 1 ? "&" : "", names[i]);
            query_text(&href, values[i]);
        }
    if (page > 1)
        buf_printf(&href, "%spage=%zu", href.len > 1 ? "&" : "", page);
    html_text(html, buf_cstr(&href));
    buf_free(&href);
}

static void instance_href(buf *html, const char *iri) {
    buf href = {0};
    buf_puts(&href, "?instance=");
    query_text(&href, iri);
    html_text(html, buf_cstr(&href));
    buf_free(&href);
}

/* The state a filter names: an index into state_words, CS_COUNT for any, -1 for a word it does not know. */
static int state_named(const char *word) {
    if (!given(word))
        return CS_COUNT;
    for (int i = 0; i < CS_COUNT; i++)
        if (strcmp(word, state_words[i]) == 0)
            return i;
    return -1;
}

static bool kept(const listed *l, const gsm_page_query *query, int state) {
    if (state != CS_COUNT && (int)l->in->state != state)
        return false;
    if (given(query->model) && (!l->in->model || strcmp(l->in->model, query->model) != 0))
        return false;
    return !given(query->text) || strcasestr(l->in->iri, query->text) ||
           (l->in->model && strcasestr(l->in->model, query->text));
}

/* The counts by state, each a link to the instances in that state (the other filters kept). */
static void write_counts(const listed *all, size_t count, const gsm_page_query *query, buf *html) {
    size_t by_state[CS_COUNT] = {0};
    for (size_t i = 0; i < count; i++)
        by_state[all[i].in->state]++;
    buf_printf(html, "<p id=\"counts\"><a href=\"");
    console_href(html, query, NULL, 0);
    buf_printf(html, "\"><b>%zu</b> instance%s</a>", count, count == 1 ? "" : "s");
    for (int s = 0; s < CS_COUNT; s++) {
        if (!by_state[s])
            continue;
        buf_printf(html, " · <a class=\"%s\" href=\"", state_classes[s]);
        console_href(html, query, state_words[s], 0);
        buf_printf(html, "\"><b>%zu</b> %s</a>", by_state[s], state_words[s]);
    }
    buf_puts(html, "</p>\n");
}

/* The filter: a form sent with GET to the page itself, the models offered those of the instances. */
static void write_filter(const listed *all, size_t count, const gsm_page_query *query, int state, buf *html) {
    buf_puts(html, "<form id=\"filter\" method=\"get\"><label>state <select name=\"state\"><option value=\"\">any"
                   "</option>");
    for (int s = 0; s < CS_COUNT; s++)
        buf_printf(html, "<option%s>%s</option>", s == state ? " selected" : "", state_words[s]);
    buf_puts(html, "</select></label> <label>model <select name=\"model\"><option value=\"\">any</option>");
    strmap models = {0};
    bool inserted;
    for (size_t i = 0; i < count; i++) {
        const char *model = all[i].in->model;
        if (!model)
            continue;
        strmap_put(&models, model, 0, &inserted);
        if (!inserted)
            continue;
        buf_puts(html, "<option");
        buf_puts(html, given(query->model) && strcmp(query->model, model) == 0 ? " selected>" : ">");
        html_text(html, model);
        buf_puts(html, "</option>");
    }
    strmap_free(&models);
    buf_puts(html, "</select></label> <label>text <input name=\"text\" value=\"");
    html_text(html, given(query->text) ? query->text : "");
    buf_puts(html, "\"></label> <button>filter</button></form>\n");
}

/* One row of the console: the instance (a link to its own page), its document, model, state and why it
 * waits. */
static void write_row(const gsm_page_document *docs, const listed *l, buf *html) {
    const char *cls = state_classes[l->in->state];
    buf_printf(html, "<tr class=\"instance\"><td><a href=\"");
    instance_href(html, l->in->iri);
    buf_puts(html, "\">");
    html_text(html, l->in->iri);
    buf_puts(html, "</a> <a class=\"note\" href=\"");
    html_text(html, docs[l->doc].uri);
    buf_puts(html, "\">(document)</a></td><td>");
    if (l->model_doc != SIZE_MAX) {
        buf_puts(html, "<a href=\"");
        html_text(html, docs[l->model_doc].uri);
        buf_puts(html, "\">");
    }
    html_text(html, l->in->model ? l->in->model : "(none)");
    buf_puts(html, l->model_doc != SIZE_MAX ? "</a>" : "");
    buf_printf(html, "</td><td class=\"state %s\">%s</td><td><pre class=\"why\">", cls, state_words[l->in->state]);
    html_text(html, l->in->why);
    buf_puts(html, "</pre></td></tr>\n");
}

enum { HISTORY_SHOWN = 10 };

/* The head of the page and its heading, up to the note on how it updates. */
static void write_head(const gsm_page *p, const char *title, const char *base_url, buf *html) {
    buf_puts(html, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    /* With the script, the meta refresh is only for a browser that runs none (design note 5). */
    buf_printf(html, "%s<meta http-equiv=\"refresh\" content=\"%u\">%s\n", p->subscription ? "<noscript>" : "",
               p->refresh, p->subscription ? "</noscript>" : "");
    buf_puts(html, "<title>ldgsm: ");
    html_text(html, title);
    buf_puts(html, "</title>\n<style>");
    buf_puts(html, stylesheet);
    buf_puts(html, "</style>\n");
    if (p->subscription) {
        buf_puts(html, "<script>");
        buf_puts(html, script);
        buf_puts(html, "</script>\n");
    }
    buf_puts(html, "</head>\n<body>\n<h1>");
    html_text(html, title);
    buf_puts(html, " on ");
    html_text(html, base_url);
    buf_printf(html, "</h1>\n<p class=\"note\"><span id=\"updates\">this page reloads every %u seconds%s.</span></p>\n",
               p->refresh, p->subscription ? "" : ": the server sends no notifications");
}

/* The console (design note 7). */
static void write_console(gsm_page *p, const char *base_url, const gsm_page_query *query,
                          const gsm_page_document *docs, size_t count, const strmap *by_uri, const known_docs *known,
                          const listed *all, size_t all_count, buf *html) {
    write_head(p, "Workflow instances", base_url, html);
    if (known->unread)
        buf_printf(html, "<p id=\"reading\" class=\"note\">reading the server's documents: %zu of %zu read; the counts "
                         "and rows below are those of the documents read (a document written since as it was "
                         "read before), and this page reloads every %u seconds until all are.</p>\n",
                   known->documents - known->unread, known->documents, p->refresh);
    int state = state_named(query->state);
    write_counts(all, all_count, query, html);
    write_filter(all, all_count, query, state, html);
    listed *matching = xmalloc((all_count ? all_count : 1) * sizeof *matching);
    size_t match_count = 0;
    for (size_t i = 0; state >= 0 && i < all_count; i++)
        if (kept(&all[i], query, state))
            matching[match_count++] = all[i];
    size_t pages = match_count ? (match_count + GSM_PAGE_ROWS - 1) / GSM_PAGE_ROWS : 1;
    size_t page = query->page < 1 ? 1 : query->page > pages ? pages : query->page;
    size_t first = (page - 1) * GSM_PAGE_ROWS, shown = match_count - first < GSM_PAGE_ROWS ? match_count - first
                                                                                          : GSM_PAGE_ROWS;
    if (p->subscription)
        write_topics(p, base_url, docs, count, by_uri, matching + first, shown, known->unread > 0, html);
    if (state < 0) {
        buf_puts(html, "<p class=\"error\">No such state: ");
        html_text(html, query->state);
        buf_puts(html, ".</p>\n");
    } else if (!all_count) {
        buf_puts(html, "<p>No workflow instance yet: an instance is a document holding "
                       "<code>&lt;#it&gt; a gsm:StageInstance ; gsm:isInstanceOf &lt;model#root&gt; ; "
                       "gsm:hasState gsm:uninitialized .</code></p>\n");
    } else if (!match_count) {
        buf_puts(html, "<p id=\"paging\">No instance matches the filter.</p>\n");
    } else {
        buf_printf(html, "<p id=\"paging\">instances %zu-%zu of %zu", first + 1, first + shown, match_count);
        if (page > 1) {
            buf_puts(html, " · <a rel=\"prev\" href=\"");
            console_href(html, query, query->state, page - 1);
            buf_puts(html, "\">previous</a>");
        }
        if (page < pages) {
            buf_puts(html, " · <a rel=\"next\" href=\"");
            console_href(html, query, query->state, page + 1);
            buf_puts(html, "\">next</a>");
        }
        buf_puts(html, "</p>\n<table id=\"instances\"><tr><th>instance</th><th>model</th><th>state</th>"
                       "<th>why it waits, its calls</th></tr>\n");
        held_reads reads = {by_uri, base_url};
        for (size_t i = first; i < first + shown; i++) {
            explain(docs, &reads, &matching[i]);
            write_row(docs, &matching[i], html);
        }
        buf_puts(html, "</table>\n");
    }
    free(matching);
}

/* One instance's own page (design note 8); 404 when the server holds no such instance. */
static int write_instance_page(gsm_page *p, const char *base_url, const char *iri, const gsm_page_document *docs,
                               size_t count, const strmap *by_uri, const listed *all, size_t all_count,
                               buf *html) {
    const listed *l = NULL;
    for (size_t i = 0; i < all_count && !l; i++)
        if (strcmp(all[i].in->iri, iri) == 0)
            l = &all[i];
    write_head(p, "Workflow instance", base_url, html);
    buf_puts(html, "<p><a href=\"?\">all instances</a></p>\n");
    if (p->subscription)
        write_topics(p, base_url, docs, count, by_uri, l, l ? 1 : 0, false, html);
    if (!l) {
        buf_puts(html, "<p class=\"error\">This server holds no workflow instance ");
        html_text(html, iri);
        buf_puts(html, ".</p>\n</body></html>\n");
        return 404;
    }
    instance in = {.doc = l->doc, .iri = l->in->iri, .model_doc = l->model_doc};
    read_instance(p, docs, &in);
    write_instance(docs, &in, html);
    gsm_shape_free(in.shape);
    terms *t = terms_new();
    rdfio *io = rdfio_new(t);
    held_reads reads = {by_uri, base_url};
    status_report *report = report_of(t, io, docs, &reads, l, HISTORY_SHOWN);
    buf text = {0};
    status_report_text(report, &text);
    buf_puts(html, "<section><h2>Status and history</h2>\n<p class=\"note\">As <code>ldgsm status</code> shows it, "
                   "from the documents this server holds (its sentries are not evaluated here).</p>\n"
                   "<pre id=\"status\">");
    html_text(html, buf_cstr(&text));
    buf_puts(html, "</pre></section>\n</body></html>\n");
    buf_free(&text);
    status_report_free(report);
    rdfio_free(io);
    terms_free(t);
    return 200;
}

int gsm_page_render(gsm_page *p, const char *base_url, const gsm_page_query *query, const gsm_page_document *docs,
                    size_t count, buf *html) {
    page_index_watched(p->index);
    page_index_lock(p->index);
    strmap by_uri = {0};
    bool inserted;
    for (size_t i = 0; i < count; i++)
        strmap_put(&by_uri, docs[i].uri, (uint32_t)i, &inserted);
    known_docs known;
    know_documents(p, docs, count, given(query->instance) ? document_of(&by_uri, query->instance) : SIZE_MAX,
                   &known);
    size_t all_count;
    listed *all = list_instances(&known, &by_uri, count, &all_count);
    int status = 200;
    if (given(query->instance)) {
        status = write_instance_page(p, base_url, query->instance, docs, count, &by_uri, all, all_count, html);
    } else {
        write_console(p, base_url, query, docs, count, &by_uri, &known, all, all_count, html);
        buf_puts(html, "</body></html>\n");
    }
    free(all);
    known_docs_free(&known);
    strmap_free(&by_uri);
    page_index_unlock(p->index);
    return status;
}

void gsm_page_queue(gsm_page *p, const char *uri, bool written) { page_index_queue(p->index, uri, written); }
void gsm_page_start_reader(gsm_page *p) { page_index_start(p->index); }
bool gsm_page_read_next(gsm_page *p) { return page_index_read_next(p->index); }
void gsm_page_counters_get(gsm_page *p, gsm_page_counters *out) { page_index_counters(p->index, out); }
