/* page.c: the pages of page.h: finds the instances among the documents (reading again only the documents
 * that changed), counts, filters and pages them, shows why each one shown waits (status_report.h), and on
 * an instance's own page reads its shape with its model (shape.h) and draws it (draw.h); writes the HTML,
 * escaping every text it did not write itself, with the list of documents its script follows (design
 * note 5). */
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
#include "gsm/status_report.h"
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

/* What the console counts and filters by (design note 7), from the instance's own document. */
enum console_state { CS_NOT_SET_UP, CS_ACTIVE, CS_RETRYING, CS_EXHAUSTED, CS_COMPLETED, CS_INACTIVE, CS_COUNT };
static const char *const state_words[CS_COUNT] = {"not set up", "active", "retrying", "call exhausted",
                                                  "completed", "inactive"};
static const char *const state_classes[CS_COUNT] = {"notsetup", "active", "retrying", "exhausted", "completed",
                                                    "inactive"};

/* The instances a document holds, kept with its ETag (design note 6). */
typedef struct held_instance {
    char *iri, *model; /* model: its gsm:isInstanceOf, or NULL */
    enum console_state state;
    char *why;         /* why it waits (design note 7), once shown; NULL before */
    char *why_model;   /* the ETag of the model's document it was made with ("": none held) */
} held_instance;

/* The instances of one document as read at its ETag. */
typedef struct doc_instances {
    char *uri, *etag;
    held_instance *items;
    size_t count;
} doc_instances;

static void doc_instances_free(doc_instances *d) {
    for (size_t i = 0; i < d->count; i++) {
        free(d->items[i].iri);
        free(d->items[i].model);
        free(d->items[i].why);
        free(d->items[i].why_model);
    }
    free(d->items);
    free(d->uri);
    free(d->etag);
}

enum { HEADER_COUNT = 6 };

struct gsm_page {
    char *compat_rules;
    unsigned refresh, max_channels;
    char *subscription; /* NULL: the server sends no notifications */
    pthread_mutex_t lock; /* design note 4 */
    doc_instances *cache; /* design note 6: the instances of each document, by its ETag */
    size_t cache_count;
    strmap cache_by_uri;
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
    pthread_mutex_destroy(&p->lock);
    for (size_t i = 0; i < p->cache_count; i++)
        doc_instances_free(&p->cache[i]);
    free(p->cache);
    strmap_free(&p->cache_by_uri);
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

/* ==== the instances each document holds, kept with its ETag (design notes 1 and 6) ==== */

static bool holds(store *st, term_id s, term_id p, term_id o) { return store_find(st, s, p, o) != UINT32_MAX; }

/* The state of instance x: its root's, or, while it is active, its calls' when one failed. */
static enum console_state state_of(terms *t, store *st, term_id x) {
    if (holds(st, x, terms_iri_cstr(t, GSM_hasState), terms_iri_cstr(t, GSM_uninitialized)) ||
        !holds(st, x, terms_iri_cstr(t, GSM_inArtifactInstance), x))
        return CS_NOT_SET_UP;
    if (!holds(st, x, terms_iri_cstr(t, GSM_hasState), terms_iri_cstr(t, GSM_active)))
        return holds(st, x, terms_iri_cstr(t, LDGSM_isCompleted), T_TRUE) ? CS_COMPLETED : CS_INACTIVE;
    term_id record = terms_iri_cstr(t, NS_LDGSM "CallRecord"), call_state = terms_iri_cstr(t, LDGSM_callState);
    term_id in_artifact = terms_iri_cstr(t, GSM_inArtifactInstance), failure = terms_iri_cstr(t, LDGSM_lastFailure);
    term_id calling = terms_iri_cstr(t, NS_LDGSM "calling"), exhausted = terms_iri_cstr(t, NS_LDGSM "exhausted");
    enum console_state state = CS_ACTIVE;
    store_iter it;
    uint32_t n;
    store_match(st, 0, in_artifact, x, 0, store_size(st), &it);
    for (const triple *tr; (tr = store_next(&it, &n));) {
        if (!holds(st, tr->s, T_RDF_TYPE, record))
            continue;
        if (holds(st, tr->s, call_state, exhausted))
            return CS_EXHAUSTED;
        if (holds(st, tr->s, call_state, calling) && store_first_object(st, tr->s, failure))
            state = CS_RETRYING;
    }
    return state;
}

static void find_in_document(terms *t, rdfio *io, const gsm_page_document *doc, doc_instances *out) {
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
            bool set_up = holds(st, x, in_artifact, x), not_yet = holds(st, x, has_state, uninitialized);
            if (terms_kind(t, x) != TERM_IRI || !(set_up || not_yet))
                continue;
            term_id model = store_first_object(st, x, is_instance_of);
            out->items = xrealloc(out->items, (out->count + 1) * sizeof *out->items);
            out->items[out->count++] = (held_instance){
                .iri = copy(terms_lex(t, x, NULL)),
                .model = model && terms_kind(t, model) == TERM_IRI ? copy(terms_lex(t, model, NULL)) : NULL,
                .state = state_of(t, st, x)};
        }
    }
    store_free(st);
}

/* Brings the cache up to the documents: a document whose ETag is the one it was read at keeps its entry,
 * the others are read again, the entries of documents gone are dropped. */
static void refresh_cache(gsm_page *p, const gsm_page_document *docs, size_t count) {
    doc_instances *fresh = NULL;
    size_t fresh_count = 0;
    strmap fresh_by_uri = {0};
    terms *t = NULL;
    rdfio *io = NULL;
    bool inserted;
    fresh = xmalloc((count ? count : 1) * sizeof *fresh);
    for (size_t i = 0; i < count; i++) {
        const gsm_page_document *doc = &docs[i];
        uint32_t *old = doc->container ? NULL : strmap_get(&p->cache_by_uri, doc->uri);
        doc_instances *kept = old ? &p->cache[*old] : NULL;
        bool same = kept && kept->etag && doc->etag && strcmp(kept->etag, doc->etag) == 0;
        /* Only a document that names the class can hold an instance: most of a server's documents are
         * passed over without being parsed. */
        if (!same && (doc->container || !memmem(doc->turtle, doc->len, "StageInstance", strlen("StageInstance"))))
            continue;
        doc_instances *entry = &fresh[fresh_count];
        if (same) {
            *entry = *kept;
            *kept = (doc_instances){0}; /* moved */
        } else {
            *entry = (doc_instances){.uri = copy(doc->uri), .etag = copy(doc->etag)};
            if (!t) {
                t = terms_new();
                io = rdfio_new(t);
            }
            find_in_document(t, io, doc, entry);
        }
        strmap_put(&fresh_by_uri, entry->uri, (uint32_t)fresh_count++, &inserted);
    }
    if (t) {
        rdfio_free(io);
        terms_free(t);
    }
    for (size_t i = 0; i < p->cache_count; i++)
        doc_instances_free(&p->cache[i]);
    free(p->cache);
    strmap_free(&p->cache_by_uri);
    p->cache = fresh;
    p->cache_count = fresh_count;
    p->cache_by_uri = fresh_by_uri;
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

/* Every instance of the documents, in their documents' order (design note 1). */
static listed *list_instances(const gsm_page *p, const strmap *by_uri, size_t *count) {
    size_t n = 0;
    for (size_t i = 0; i < p->cache_count; i++)
        n += p->cache[i].count;
    listed *all = xmalloc((n ? n : 1) * sizeof *all);
    n = 0;
    for (size_t i = 0; i < p->cache_count; i++) {
        const doc_instances *entry = &p->cache[i];
        size_t doc = document_of(by_uri, entry->uri);
        for (size_t k = 0; k < entry->count; k++)
            all[n++] = (listed){doc, document_of(by_uri, entry->items[k].model), &entry->items[k]};
    }
    *count = n;
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
    l->in->why_model = copy(model_etag);
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
                         const strmap *by_uri, const listed *shown, size_t shown_count, buf *html) {
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
                          const gsm_page_document *docs, size_t count, const strmap *by_uri, const listed *all,
                          size_t all_count, buf *html) {
    write_head(p, "Workflow instances", base_url, html);
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
        write_topics(p, base_url, docs, count, by_uri, matching + first, shown, html);
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
        write_topics(p, base_url, docs, count, by_uri, l, l ? 1 : 0, html);
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
    pthread_mutex_lock(&p->lock);
    refresh_cache(p, docs, count);
    strmap by_uri = {0};
    bool inserted;
    for (size_t i = 0; i < count; i++)
        strmap_put(&by_uri, docs[i].uri, (uint32_t)i, &inserted);
    size_t all_count;
    listed *all = list_instances(p, &by_uri, &all_count);
    int status = 200;
    if (given(query->instance)) {
        status = write_instance_page(p, base_url, query->instance, docs, count, &by_uri, all, all_count, html);
    } else {
        write_console(p, base_url, query, docs, count, &by_uri, all, all_count, html);
        buf_puts(html, "</body></html>\n");
    }
    free(all);
    strmap_free(&by_uri);
    pthread_mutex_unlock(&p->lock);
    return status;
}
