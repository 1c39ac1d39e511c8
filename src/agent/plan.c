/* plan.c: the checks and the composition of docs/DESIGN.md §2.2, in the order plan.h's invariants need:
 * de-duplication, origins, the hold policy, as-written conflicts, update collisions and yields,
 * composition with conditional headers, then tasks behind their writes. */
#include "agent/plan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "agent/body.h"
#include "agent/archive.h"
#include "agent/history.h"
#include "http/http_url.h"
#include "reason/xsd_time.h"
#include "rdf/strmap.h"

const char *outcome_name(enum outcome o) {
    static const char *const names[] = {"sent", "duplicate", "withheld", "conflict", "yielded", "refused",
                                        "unchanged"};
    return names[o];
}

static const doc_state *find_doc(const plan_input *in, const char *resource) {
    const uint32_t *i = strmap_get(in->doc_index, resource);
    return i ? &in->docs[*i] : NULL;
}

static bool is_write_method(const char *m) {
    return strcmp(m, "PUT") == 0 || strcmp(m, "DELETE") == 0 || strcmp(m, "PATCH") == 0;
}

/* Of an unsafe request (the helpers below too: a safe one has no request_detail). */
static bool has_header(const request *r, const char *name) {
    for (size_t i = 0; i < r->detail->header_count; i++)
        if (strcasecmp(r->detail->headers[i].name, name) == 0)
            return true;
    return false;
}

/* What a write does to its resource: its identity without the Idempotency-Key. */
static const char *effect_of(const request *r) { return r->detail->effect ? r->detail->effect : r->detail->identity; }

static char *after_resource(const plan_input *in, const request *r) {
    term_id after = r->detail->after;
    if (!after || terms_kind(in->t, after) != TERM_IRI)
        return NULL;
    return http_url_identity(terms_lex(in->t, after, NULL));
}

static void report(const plan_input *in, const request *r, enum outcome o, const char *why) {
    log_msg(in->log, LOG_WARN, "%s %s %s: %s (rule %s)", r->method, r->url, outcome_name(o), why,
            r->rule ? r->rule->name : "?");
}

/* A withheld request is said once per iteration, group and reason (report_withheld): an instance held
 * back withholds all its requests at once, and one cause is one line. */
static void note_withheld(plan *p, const request *r, const char *why) {
    buf key = {0};
    buf_printf(&key, "%u\t%s", (unsigned)r->group, why);
    bool first;
    uint32_t *count = strmap_put(&p->withheld_reasons, key.data, 0, &first);
    (*count)++;
    buf_free(&key);
}

static void set_outcome(const plan_input *in, plan *p, size_t i, enum outcome o, const char *why) {
    if (p->outcomes[i] != OUTCOME_SEND)
        return;
    p->outcomes[i] = o;
    p->reasons[i] = why;
    if (o == OUTCOME_WITHHELD)
        note_withheld(p, &in->requests[i], why);
    else
        report(in, &in->requests[i], o, why);
}

/* One line per group and reason; a reason the rules gave (`ldgsm:heldBecause`) is the agent's to say,
 * once while it lasts, so here it is said only at -v. */
static void report_withheld(const plan_input *in, plan *p, const u64map *held) {
    for (uint32_t g = 0; g < p->withheld_reasons.count; g++) {
        const char *key = p->withheld_reasons.keys[g];
        char *tab;
        term_id group = (term_id)strtoul(key, &tab, 10);
        const char *why = tab + 1;
        const uint32_t *because = group ? u64map_get(held, group) : NULL;
        bool rules_said = because && strcmp(terms_lex(in->t, *because, NULL), why) == 0;
        uint32_t count = p->withheld_reasons.values[g];
        log_msg(in->log, rules_said ? LOG_DEBUG : LOG_WARN, "withheld: %u request%s%s%s%s: %s", count,
                count == 1 ? "" : "s", group ? " of <" : "", group ? terms_lex(in->t, group, NULL) : "",
                group ? ">" : "", why);
    }
    strmap_free(&p->withheld_reasons);
}

/* Drops every request sharing key: the loser of a priority collision yields whole, an opening with its
 * task and resets (docs/DESIGN.md §7.2 I8), which keeps GSM-1 and GSM-2 when a stage would open as an
 * ancestor closes. */
static void yield_key(const plan_input *in, plan *p, term_id key) {
    for (size_t i = 0; i < in->request_count; i++)
        if (in->requests[i].detail && in->requests[i].detail->key == key && p->outcomes[i] == OUTCOME_SEND)
            set_outcome(in, p, i, OUTCOME_YIELDED, "a higher-priority update to the same slot wins");
}

static void add_header(planned_write *w, const char *name, const char *value) {
    w->headers = xrealloc(w->headers, (w->header_count + 1) * sizeof *w->headers);
    w->headers[w->header_count++] = (http_header){xstrndup(name, strlen(name)), xstrndup(value, strlen(value))};
}

static bool write_has_header(const planned_write *w, const char *name) {
    for (size_t i = 0; i < w->header_count; i++)
        if (strcasecmp(w->headers[i].name, name) == 0)
            return true;
    return false;
}

/* If-Match / If-None-Match from what was read. Returns false when the write must be held instead. A GSM
 * step decided on a read that another writer has since changed must not land: without the condition two
 * agents could each write half a step, breaking GSM-1 or GSM-2. */
static bool add_condition(const plan_input *in, planned_write *w, const doc_state *doc, bool status_document) {
    if (write_has_header(w, "If-Match") || write_has_header(w, "If-None-Match"))
        return true; /* the rule's own condition is kept */
    /* guarded so (a PUT, PATCH or DELETE: the writes the plan conditions), a second copy of the write fails
     * its precondition when the first was taken */
    if (doc && doc->read && !doc->found) {
        add_header(w, "If-None-Match", "*");
        w->repeatable = true;
        return true;
    }
    if (doc && doc->found && doc->etag_kind == HTTP_ETAG_STRONG) {
        add_header(w, "If-Match", doc->etag);
        w->repeatable = true;
        return true;
    }
    if (status_document && !in->allow_unconditional_status)
        return false;
    char *origin = http_url_origin(w->url);
    bool first;
    strmap_put(in->warned_origins, origin ? origin : w->url, 1, &first);
    if (first)
        log_msg(in->log, LOG_WARN, "%s gives no strong ETags: writes to it are sent without a condition, so a "
                "concurrent writer's change can be lost (said once per origin)", origin ? origin : w->url);
    free(origin);
    return true;
}

static void free_write(planned_write *w) {
    for (size_t i = 0; i < w->header_count; i++) {
        free((char *)w->headers[i].name);
        free((char *)w->headers[i].value);
    }
    free(w->headers);
    free(w->method);
    free(w->url);
    free(w->doc);
    free(w->after);
    free(w->why);
    free(w->sources);
    free(w->document);
    buf_free(&w->body);
}

/* --- updates ------------------------------------------------------------------------------------------ */

typedef struct slot_value {
    term_id s, p;
    term_id value_set; /* the objects of (s, p) in one update's body, as a list term (sorted) */
    size_t request;
} slot_value;

static int term_cmp(const void *a, const void *b) {
    term_id x = *(const term_id *)a, y = *(const term_id *)b;
    return x < y ? -1 : x > y;
}

/* Appends one slot_value per (s, p) of request i's body. */
static void collect_slots(const plan_input *in, size_t i, slot_value **slots, size_t *count) {
    term_id body = in->requests[i].detail->body;
    if (!body || terms_kind(in->t, body) != TERM_FORMULA)
        return;
    size_t n;
    const triple *ts = terms_formula_triples(in->t, body, &n);
    term_id *objects = xmalloc((n ? n : 1) * sizeof *objects);
    /* formula triples are sorted by (s, p, o): each slot is one run */
    for (size_t a = 0; a < n;) {
        size_t b = a, k = 0;
        while (b < n && ts[b].s == ts[a].s && ts[b].p == ts[a].p)
            objects[k++] = ts[b++].o;
        qsort(objects, k, sizeof *objects, term_cmp);
        *slots = xrealloc(*slots, (*count + 1) * sizeof **slots);
        (*slots)[(*count)++] = (slot_value){ts[a].s, ts[a].p, terms_list(in->t, objects, k), i};
        a = b;
    }
    free(objects);
}

static long priority_of(const request *r) { return r->detail->has_priority ? r->detail->priority : 0; }

/* Resolves collisions among the live updates of one document: yields losers (repeating, since dropping a
 * key may remove a colliding update) and returns true when an equal-priority collision remains. This is
 * close wins (FCR-2b's priority over FCR-1), on which GSM-2 rests; GSM-1 rests on FCR-1 and its resets
 * sharing one key, and FCR-2a's achievement and close another, so that each moves whole. */
static bool resolve_collisions(const plan_input *in, plan *p, const size_t *updates, size_t update_count) {
    for (;;) {
        slot_value *slots = NULL;
        size_t slot_count = 0;
        for (size_t u = 0; u < update_count; u++)
            if (p->outcomes[updates[u]] == OUTCOME_SEND)
                collect_slots(in, updates[u], &slots, &slot_count);
        bool yielded = false, conflict = false;
        for (size_t a = 0; a < slot_count && !yielded; a++) {
            long best = priority_of(&in->requests[slots[a].request]);
            bool disagreement = false;
            for (size_t b = 0; b < slot_count; b++) {
                if (slots[b].s != slots[a].s || slots[b].p != slots[a].p)
                    continue;
                if (slots[b].value_set != slots[a].value_set)
                    disagreement = true;
                long pb = priority_of(&in->requests[slots[b].request]);
                if (pb > best)
                    best = pb;
            }
            if (!disagreement)
                continue;
            /* the winners' value set must be unique among the highest priority */
            term_id winning_set = 0;
            for (size_t b = 0; b < slot_count; b++) {
                if (slots[b].s != slots[a].s || slots[b].p != slots[a].p)
                    continue;
                const request *rb = &in->requests[slots[b].request];
                if (priority_of(rb) == best) {
                    if (winning_set && winning_set != slots[b].value_set)
                        conflict = true;
                    winning_set = slots[b].value_set;
                }
            }
            if (conflict)
                continue;
            for (size_t b = 0; b < slot_count; b++) {
                if (slots[b].s != slots[a].s || slots[b].p != slots[a].p || slots[b].value_set == winning_set)
                    continue;
                const request *loser = &in->requests[slots[b].request];
                if (loser->detail->key)
                    yield_key(in, p, loser->detail->key);
                else
                    set_outcome(in, p, slots[b].request, OUTCOME_YIELDED,
                                "a higher-priority update to the same slot wins");
                yielded = true;
            }
        }
        free(slots);
        if (!yielded)
            return conflict;
    }
}

static bool slot_replaced(const slot_value *slots, size_t n, term_id s, term_id pr) {
    for (size_t i = 0; i < n; i++)
        if (slots[i].s == s && slots[i].p == pr)
            return true;
    return false;
}

/* Appends the triples of formula f with `this:` IRIs resolved against the document written. */
static void append_formula(const plan_input *in, term_id f, const char *doc_url, triple **ts, size_t *n) {
    if (!f || terms_kind(in->t, f) != TERM_FORMULA)
        return;
    size_t m;
    const triple *src = terms_formula_triples(in->t, f, &m);
    *ts = xrealloc(*ts, (*n + m + 1) * sizeof **ts);
    for (size_t i = 0; i < m; i++)
        (*ts)[*n + i] = (triple){body_resolve_placeholder(in->t, src[i].s, doc_url),
                                 body_resolve_placeholder(in->t, src[i].p, doc_url),
                                 body_resolve_placeholder(in->t, src[i].o, doc_url)};
    *n += m;
}

static char *rules_of(const plan_input *in, const size_t *indexes, size_t n) {
    buf b = {0};
    for (size_t i = 0; i < n; i++) {
        const request *r = &in->requests[indexes[i]];
        if (r->rule && !strstr(b.data ? b.data : "", r->rule->name))
            buf_printf(&b, "%s%s", b.len ? ", " : "", r->rule->name);
    }
    return buf_cstr(&b);
}

/* The composed write's method and body: an N3 Patch of what changes where the server takes one and the
 * write can be conditional (a patch applied to another version than the one read would merge
 * silently), else the whole document. Returns -1 when neither can express the document. The body is
 * written in scratch and copied at its size: every document of the plan is held until it is sent, and
 * grown step by step each body was up to twice its size, and left the steps behind as holes in the heap. */
static int write_body(const plan_input *in, const doc_state *doc, const triple *before, size_t before_count,
                      const triple *next, size_t next_count, planned_write *w, buf *scratch) {
    scratch->len = 0;
    int rc = 0;
    if (doc->found && doc->takes_n3_patch && doc->etag_kind == HTTP_ETAG_STRONG &&
        body_patch(in->t, before, before_count, next, next_count, w->url, scratch) == 0) {
        w->method = xstrndup("PATCH", 5);
        add_header(w, "Content-Type", "text/n3");
    } else {
        scratch->len = 0;
        w->method = xstrndup("PUT", 3);
        add_header(w, "Content-Type", "text/turtle");
        rc = body_document(in->io, in->t, next, next_count, w->url, scratch);
    }
    if (rc == 0)
        w->body = (buf){.data = xstrndup(scratch->data ? scratch->data : "", scratch->len), .len = scratch->len,
                        .cap = scratch->len + 1};
    return rc;
}

/* the why of a write made only to move a document's history */
static const char archive_only[] = "(its history moves to its archive)";

/* --archive-history (archive.h): takes the entries the document held when read out of next[0..next_count)
 * (those it gains in this write stay: they move in a later iteration), says where they went and up to which
 * sequence, and makes *archive the PATCH that inserts them into the archive. Returns the new count; *archive
 * is left empty when the document held none. */
static size_t move_entries(const plan_input *in, const char *url, const triple *before, size_t before_count,
                           triple *next, size_t next_count, planned_write *archive) {
    triple *entries = NULL;
    size_t entry_count = 0;
    unsigned long long through = archive_entries(in->t, in->v, url, before, before_count, &entries, &entry_count);
    if (!through) {
        free(entries);
        return next_count;
    }
    u64map moved = {0};
    for (size_t i = 0; i < entry_count; i++)
        u64map_put(&moved, entries[i].s, 1, NULL);
    term_id doc = terms_iri_cstr(in->t, url);
    size_t kept = 0;
    for (size_t i = 0; i < next_count; i++) {
        const triple *tr = &next[i];
        bool entry_read = u64map_get(&moved, tr->s) != NULL;
        bool bookkeeping = tr->s == doc && (tr->p == in->v->archived_through || tr->p == in->v->history_archive);
        if (!entry_read && !bookkeeping)
            next[kept++] = *tr;
    }
    u64map_free(&moved);
    char *archive_url = archive_url_of(url), number[24];
    snprintf(number, sizeof number, "%llu", through);
    next[kept++] = (triple){doc, in->v->history_archive, terms_iri_cstr(in->t, archive_url)};
    next[kept++] = (triple){doc, in->v->archived_through,
                            terms_literal(in->t, number, strlen(number), T_XSD_INTEGER, NULL, 0)};
    entry_count = triples_canonical(entries, entry_count);
    buf body = {0};
    body_patch(in->t, NULL, 0, entries, entry_count, archive_url, &body);
    free(entries);
    *archive = (planned_write){.method = xstrndup("PATCH", 5), .url = archive_url,
                               .doc = xstrndup(archive_url, strlen(archive_url)), .body = body,
                               /* an insert sent twice adds nothing twice */
                               .repeatable = true};
    buf why = {0};
    buf_printf(&why, "(the history of %s)", url);
    archive->why = buf_cstr(&why);
    add_header(archive, "Content-Type", "text/n3");
    return kept;
}

/* Composes the live updates of one document into one write (or decides nothing changes): one write per
 * document per iteration, so a GSM step (GSM-1, GSM-2: docs/DESIGN.md §5.4) is never half written. With
 * --archive-history, the entries it held move to its archive (move_entries), also when no update asks. */
static void compose(const plan_input *in, plan *p, const char *resource, const size_t *updates, size_t update_count,
                    planned_write **writes, size_t *write_count, buf *scratch) {
    const doc_state *doc = find_doc(in, resource);
    slot_value *slots = NULL;
    size_t slot_count = 0;
    triple *next = NULL;
    size_t next_count = 0;
    size_t *live = xmalloc(update_count * sizeof *live);
    size_t live_count = 0;
    for (size_t u = 0; u < update_count; u++) {
        if (p->outcomes[updates[u]] != OUTCOME_SEND)
            continue;
        live[live_count++] = updates[u];
    }
    bool archiving = in->archived && strmap_get(in->archived, resource) && doc && doc->found &&
                     doc->etag_kind == HTTP_ETAG_STRONG;
    if (!live_count && !archiving)
        goto done;
    char *url = live_count ? http_url_without_fragment(in->requests[live[0]].url) : xstrndup(resource, strlen(resource));
    for (size_t i = 0; i < live_count; i++) {
        size_t body_start = next_count;
        append_formula(in, in->requests[live[i]].detail->body, url, &next, &next_count);
        /* the replaced slots are those of the body, placeholders resolved */
        for (size_t k = body_start; k < next_count; k++) {
            slots = xrealloc(slots, (slot_count + 1) * sizeof *slots);
            slots[slot_count++] = (slot_value){next[k].s, next[k].p, 0, live[i]};
        }
        append_formula(in, in->requests[live[i]].detail->add, url, &next, &next_count);
    }
    uint32_t read_count = 0;
    const uint32_t *read = doc->found ? store_graph_triples(in->wm, doc->graph, &read_count) : NULL;
    triple *before = xmalloc((read_count + 1) * sizeof *before);
    size_t before_count = 0;
    next = xrealloc(next, (next_count + read_count + 1) * sizeof *next); /* at once, not a step a triple */
    for (uint32_t i = 0; i < read_count; i++) {
        const triple *tr = store_triple(in->wm, read[i]);
        before[before_count++] = *tr;
        if (!slot_replaced(slots, slot_count, tr->s, tr->p))
            next[next_count++] = *tr;
    }
    history_slot *changed = xmalloc((slot_count + 1) * sizeof *changed);
    for (size_t i = 0; i < slot_count; i++)
        changed[i] = (history_slot){slots[i].s, slots[i].p};
    history_input history = {.t = in->t, .v = in->v, .doc_url = url, .clock = in->clock, .limit = in->history_limit,
                             .tracked = in->history_properties};
    history_record(&history, before, before_count, changed, slot_count, &next, &next_count);
    free(changed);
    planned_write archive = {0};
    if (archiving)
        next_count = move_entries(in, url, before, before_count, next, next_count, &archive);
    before_count = triples_canonical(before, before_count);
    next_count = triples_canonical(next, next_count);
    bool unchanged = doc->found && before_count == next_count &&
                     memcmp(before, next, next_count * sizeof *next) == 0;
    if (unchanged) {
        for (size_t i = 0; i < live_count; i++) {
            p->outcomes[live[i]] = OUTCOME_UNCHANGED;
            p->reasons[live[i]] = "the composed document is the document as read";
        }
        free(url);
        free(before);
        free_write(&archive);
        goto done;
    }
    planned_write w = {.composed = true};
    w.url = url;
    w.doc = xstrndup(resource, strlen(resource));
    w.why = live_count ? rules_of(in, live, live_count) : xstrndup(archive_only, sizeof archive_only - 1);
    w.sources = xmalloc((live_count ? live_count : 1) * sizeof *w.sources);
    memcpy(w.sources, live, live_count * sizeof *w.sources);
    w.source_count = live_count;
    int written = write_body(in, doc, before, before_count, next, next_count, &w, scratch);
    free(before);
    if (written != 0) {
        for (size_t i = 0; i < live_count; i++)
            set_outcome(in, p, live[i], OUTCOME_REFUSED, "the composed document holds what Turtle cannot express");
        free_write(&w);
        free_write(&archive);
        goto done;
    }
    if (!add_condition(in, &w, doc, true)) {
        for (size_t i = 0; i < live_count; i++)
            set_outcome(in, p, live[i], OUTCOME_WITHHELD,
                        "the document has no strong ETag, so an update could overwrite another writer "
                        "(--allow-unconditional-status allows it)");
        free_write(&w);
        free_write(&archive);
        goto done;
    }
    if (archive.url) {
        w.archive_first = p->archive_count + 1;
        p->archives = xrealloc(p->archives, (p->archive_count + 1) * sizeof *p->archives);
        p->archives[p->archive_count++] = archive;
    }
    w.document = next;
    w.document_count = next_count;
    next = NULL;
    *writes = xrealloc(*writes, (*write_count + 1) * sizeof **writes);
    (*writes)[(*write_count)++] = w;
done:
    free(live);
    free(slots);
    free(next);
}

/* --- as-written requests -------------------------------------------------------------------------------- */

static bool as_written(const plan_input *in, size_t i, planned_write *w) {
    const request *r = &in->requests[i];
    const request_detail *d = r->detail;
    *w = (planned_write){.method = xstrndup(r->method, strlen(r->method))};
    w->url = http_url_without_fragment(r->url);
    w->doc = xstrndup(r->resource, strlen(r->resource));
    w->why = xstrndup(r->rule ? r->rule->name : "", r->rule ? strlen(r->rule->name) : 0);
    w->sources = xmalloc(sizeof *w->sources);
    w->sources[w->source_count++] = i;
    for (size_t h = 0; h < d->header_count; h++)
        add_header(w, d->headers[h].name, d->headers[h].value);
    if (d->body) {
        bool is_rdf;
        bool relative = strcmp(r->method, "POST") != 0;
        if (body_bytes(in->io, in->t, d->body, w->url, relative, &w->body, &is_rdf) != 0)
            return false;
        if (is_rdf && !has_header(r, "Content-Type"))
            add_header(w, "Content-Type", "text/turtle");
    }
    return true;
}

/* ldgsm:requestTimeout of a request, in milliseconds (0: none, or not a positive day-time duration). */
static long timeout_ms_of(const terms *t, term_id timeout) {
    xsd_time d;
    if (!timeout || !xsd_time_from_term(t, timeout, &d) || d.months || d.ms <= 0 || d.ms > LONG_MAX)
        return 0;
    return (long)d.ms;
}

/* --- the plan ------------------------------------------------------------------------------------------- */

static bool origin_allowed(const plan_input *in, const char *url) {
    if (!in->allow_origin_count)
        return true;
    char *origin = http_url_origin(url);
    bool ok = false;
    for (size_t i = 0; origin && i < in->allow_origin_count; i++)
        ok |= strcmp(origin, in->allow_origins[i]) == 0;
    free(origin);
    return ok;
}

/* What the failed GETs of the iteration withhold (the hold policy), and the groups rules hold. */
typedef struct failed_gets {
    bool ungrouped; /* a GET no group asked for failed: everything is held */
    u64map groups;  /* groups whose GET failed */
    u64map held;    /* group -> the literal of a `<group> ldgsm:heldBecause "why"` in working memory */
} failed_gets;

static void collect_failed(const plan_input *in, failed_gets *f) {
    *f = (failed_gets){0};
    store_iter it;
    store_match(in->wm, 0, in->v->held_because, 0, 0, store_size(in->wm), &it);
    uint32_t n;
    for (const triple *tr; (tr = store_next(&it, &n));)
        if (terms_kind(in->t, tr->o) == TERM_LITERAL)
            u64map_put(&f->held, tr->s, tr->o, NULL);
    for (size_t d = 0; d < in->doc_count; d++) {
        const doc_state *doc = &in->docs[d];
        if (!doc->failed)
            continue;
        for (size_t g = 0; g < doc->group_count; g++)
            u64map_put(&f->groups, doc->groups[g], 1, NULL);
        f->ungrouped |= doc->asked_ungrouped;
    }
}

static const char *held_by(const plan_input *in, const failed_gets *f, const request *r) {
    if (in->hold_all)
        return in->hold_all;
    const uint32_t *because = r->group ? u64map_get(&f->held, r->group) : NULL;
    if (because) /* a rule's decision, whatever the failure policy */
        return terms_lex(in->t, *because, NULL);
    if (!in->hold)
        return NULL;
    if (f->ungrouped)
        return "a GET that no group asked for failed in this iteration";
    if (r->group && u64map_get(&f->groups, r->group))
        return "a GET its group asked for failed in this iteration";
    return NULL;
}

/* Requests grouped by a string (their resource): head[group] and next[request] chain them. */
typedef struct grouping {
    strmap index; /* string -> group */
    uint32_t *head, *next;
} grouping;

static void group_add(grouping *g, const char *key, size_t i, size_t n) {
    if (!g->next) {
        g->next = xmalloc((n ? n : 1) * sizeof *g->next);
        g->head = xmalloc((n ? n : 1) * sizeof *g->head);
    }
    bool inserted;
    uint32_t *group = strmap_put(&g->index, key, g->index.count, &inserted);
    g->next[i] = inserted ? UINT32_MAX : g->head[*group];
    g->head[*group] = (uint32_t)i;
}

static void grouping_free(grouping *g) {
    strmap_free(&g->index);
    free(g->head);
    free(g->next);
}

static bool is_live_unsafe(const plan *p, const bool *unsafe, size_t i) {
    return unsafe[i] && p->outcomes[i] != OUTCOME_DUPLICATE;
}

static const char *group_name(const plan_input *in, term_id group) { return terms_lex(in->t, group, NULL); }

/* Writes of different instances to one resource, each instance's alike (two instances' tasks PUTting one
 * URI with their own bodies): one instance's go first, the others' are withheld and retried in the next
 * iteration; withholding all of them, as a conflict does, repeated every iteration (a livelock). Per
 * resource, the instance that has waited the most turns goes first (the first IRI among equals), and each
 * loser's count grows, so every instance gets its turn. False (nothing decided) when some write has no
 * group or one instance's writes differ: a conflict. */
static bool take_turns(const plan_input *in, plan *p, const char *resource, const grouping *writes, uint32_t first) {
    const char *winner = NULL;
    uint32_t winner_waited = 0;
    buf key = {0};
    for (uint32_t i = first; i != UINT32_MAX; i = writes->next[i]) {
        const request *r = &in->requests[i];
        if (!r->group) {
            buf_free(&key);
            return false;
        }
        for (uint32_t k = first; k != UINT32_MAX; k = writes->next[k])
            if (in->requests[k].group == r->group && strcmp(effect_of(&in->requests[k]), effect_of(r)) != 0) {
                buf_free(&key);
                return false;
            }
        if (p->outcomes[i] != OUTCOME_SEND)
            continue;
        const char *name = group_name(in, r->group);
        key.len = 0;
        buf_printf(&key, "%s\t%s", resource, name);
        const uint32_t *waited = in->turns ? strmap_get(in->turns, buf_cstr(&key)) : NULL;
        uint32_t turns = waited ? *waited : 0;
        if (!winner || turns > winner_waited || (turns == winner_waited && strcmp(name, winner) < 0)) {
            winner = name;
            winner_waited = turns;
        }
    }
    for (uint32_t i = first; i != UINT32_MAX; i = writes->next[i]) {
        const char *name = group_name(in, in->requests[i].group);
        bool goes = winner && strcmp(name, winner) == 0;
        bool counted = false; /* an instance's writes here are alike: its count moves once */
        for (uint32_t k = first; k != i && !counted; k = writes->next[k])
            counted = in->requests[k].group == in->requests[i].group;
        if (in->turns && p->outcomes[i] == OUTCOME_SEND && !counted) {
            key.len = 0;
            buf_printf(&key, "%s\t%s", resource, name);
            uint32_t *waited = strmap_put(in->turns, buf_cstr(&key), 0, NULL);
            *waited = goes ? 0 : *waited + 1;
        }
        if (!goes)
            set_outcome(in, p, i, OUTCOME_WITHHELD,
                        "another instance's write to the same resource goes first (retried next iteration)");
    }
    buf_free(&key);
    return true;
}

void plan_make(const plan_input *in, plan *p) {
    *p = (plan){0};
    size_t n = in->request_count;
    p->outcomes = xcalloc(n ? n : 1, sizeof *p->outcomes);
    p->reasons = xcalloc(n ? n : 1, sizeof *p->reasons);
    bool *unsafe = xcalloc(n ? n : 1, sizeof *unsafe);
    failed_gets failed;
    collect_failed(in, &failed);

    /* identity, origins, the hold policy */
    strmap identities = {0};
    for (size_t i = 0; i < n; i++) {
        const request *r = &in->requests[i];
        unsafe[i] = r->kind != REQUEST_SAFE;
        if (!unsafe[i])
            continue;
        bool inserted;
        strmap_put(&identities, r->detail->identity, (uint32_t)i, &inserted);
        if (!inserted) {
            p->outcomes[i] = OUTCOME_DUPLICATE;
            continue;
        }
        p->unsafe++;
        const char *hold = held_by(in, &failed, r);
        if (!origin_allowed(in, r->url))
            set_outcome(in, p, i, OUTCOME_REFUSED, "its origin is not among --allow-origin");
        else if (hold)
            set_outcome(in, p, i, OUTCOME_WITHHELD, hold);
    }
    strmap_free(&identities);
    u64map_free(&failed.groups);

    /* writes grouped by the resource they target; updates separately */
    grouping writes = {0}, updates = {0};
    for (size_t i = 0; i < n; i++) {
        if (!is_live_unsafe(p, unsafe, i))
            continue;
        const request *r = &in->requests[i];
        if (r->kind == REQUEST_UPDATE)
            group_add(&updates, r->resource, i, n);
        else if (is_write_method(r->method))
            group_add(&writes, r->resource, i, n);
    }

    /* tasks may not target a status document (one that updates write) */
    for (size_t i = 0; i < n; i++)
        if (is_live_unsafe(p, unsafe, i) && in->requests[i].detail->after &&
            strmap_get(&updates.index, in->requests[i].resource))
            set_outcome(in, p, i, OUTCOME_REFUSED, "a task may not write a status document");

    /* two different as-written writes to one resource, or one and an update: all of them conflict, unless
     * they are different instances' writes (one goes first) */
    for (uint32_t g = 0; g < writes.index.count; g++) {
        const char *resource = writes.index.keys[g];
        uint32_t first = writes.head[g];
        bool clash = strmap_get(&updates.index, resource) != NULL;
        for (uint32_t i = writes.next[first]; i != UINT32_MAX && !clash; i = writes.next[i])
            clash = strcmp(effect_of(&in->requests[i]), effect_of(&in->requests[first])) != 0;
        if (!clash || (!strmap_get(&updates.index, resource) && take_turns(in, p, resource, &writes, first)))
            continue;
        for (uint32_t i = first; i != UINT32_MAX; i = writes.next[i])
            set_outcome(in, p, i, OUTCOME_CONFLICT, "another write to the same resource in this iteration");
        const uint32_t *ug = strmap_get(&updates.index, resource);
        for (uint32_t i = ug ? updates.head[*ug] : UINT32_MAX; i != UINT32_MAX; i = updates.next[i])
            set_outcome(in, p, i, OUTCOME_CONFLICT, "an as-written write to the same document in this iteration");
    }

    /* a task withheld for its own reasons holds back the write it waits for */
    strmap blocked = {0};
    for (size_t i = 0; i < n; i++) {
        if (!is_live_unsafe(p, unsafe, i) || !in->requests[i].detail->after)
            continue;
        enum outcome o = p->outcomes[i];
        if (o != OUTCOME_WITHHELD && o != OUTCOME_CONFLICT && o != OUTCOME_REFUSED)
            continue;
        char *after = after_resource(in, &in->requests[i]);
        if (after)
            strmap_put(&blocked, after, 1, NULL);
        free(after);
    }

    /* updates, document by document */
    size_t *members = xmalloc((n ? n : 1) * sizeof *members);
    buf scratch = {0}; /* each composed body is written here first (write_body) */
    for (uint32_t g = 0; g < updates.index.count; g++) {
        const char *resource = updates.index.keys[g];
        size_t count = 0;
        for (uint32_t i = updates.head[g]; i != UINT32_MAX; i = updates.next[i])
            members[count++] = i;
        /* the chain runs newest first; compose in the order the rules asked */
        for (size_t a = 0, b = count ? count - 1 : 0; a < b; a++, b--) {
            size_t tmp = members[a];
            members[a] = members[b];
            members[b] = tmp;
        }
        const doc_state *doc = find_doc(in, resource);
        const char *why = NULL;
        if (!doc || !doc->read)
            why = "the document was not read in this iteration";
        else if (strmap_get(&blocked, resource))
            why = "a task waiting on this write is withheld";
        else if (resolve_collisions(in, p, members, count)) {
            for (size_t u = 0; u < count; u++)
                set_outcome(in, p, members[u], OUTCOME_CONFLICT,
                            "two updates of equal priority give one slot different values (conflict)");
            why = "conflict";
        }
        if (why) {
            for (size_t u = 0; u < count; u++)
                set_outcome(in, p, members[u], OUTCOME_WITHHELD, why);
            strmap_put(&blocked, resource, 1, NULL);
            continue;
        }
        compose(in, p, resource, members, count, &p->writes, &p->write_count, &scratch);
    }
    /* --archive-history: the run's documents no update writes in this iteration move their entries alone */
    for (size_t d = 0; in->archived && !in->hold_all && d < in->doc_count; d++) {
        const char *resource = in->docs[d].resource;
        if (!in->docs[d].found || !strmap_get(in->archived, resource) || strmap_get(&updates.index, resource) ||
            strmap_get(&writes.index, resource) || strmap_get(&blocked, resource))
            continue;
        uint32_t count;
        const uint32_t *read = store_graph_triples(in->wm, in->docs[d].graph, &count);
        bool holds_entries = false; /* most documents hold none: no composing for them */
        for (uint32_t i = 0; i < count && !holds_entries; i++)
            holds_entries = store_triple(in->wm, read[i])->p == in->v->sequence;
        if (holds_entries)
            compose(in, p, resource, NULL, 0, &p->writes, &p->write_count, &scratch);
    }
    free(members);
    buf_free(&scratch);

    /* as-written requests and tasks */
    strmap composed = {0};
    for (size_t w = 0; w < p->write_count; w++)
        strmap_put(&composed, p->writes[w].doc, (uint32_t)w, NULL);
    for (size_t i = 0; i < n; i++) {
        const request *r = &in->requests[i];
        if (!unsafe[i] || r->kind != REQUEST_AS_WRITTEN || p->outcomes[i] != OUTCOME_SEND)
            continue;
        char *after = after_resource(in, r);
        if (after && !strmap_get(&composed, after)) {
            set_outcome(in, p, i, OUTCOME_WITHHELD,
                        strmap_get(&blocked, after) ? "the write it waits for is withheld"
                                                    : "no write to the document it waits for");
            free(after);
            continue;
        }
        planned_write w;
        if (!as_written(in, i, &w)) {
            free_write(&w);
            free(after);
            set_outcome(in, p, i, OUTCOME_REFUSED, "its body holds what Turtle cannot express");
            continue;
        }
        /* a keyed request is a command sent as its rule gives it, like a task: no condition added */
        if (!after && !r->detail->key && is_write_method(r->method))
            add_condition(in, &w, find_doc(in, r->resource), false);
        w.key = r->detail->key;
        w.report_to = r->detail->report_to;
        w.called_at = r->detail->called_at;
        w.results = r->detail->results;
        w.timeout_ms = timeout_ms_of(in->t, r->detail->timeout);
        if (after) {
            w.is_task = true;
            w.after = after;
            p->tasks = xrealloc(p->tasks, (p->task_count + 1) * sizeof *p->tasks);
            p->tasks[p->task_count++] = w;
        } else {
            p->writes = xrealloc(p->writes, (p->write_count + 1) * sizeof *p->writes);
            p->writes[p->write_count++] = w;
        }
    }
    strmap_free(&composed);
    strmap_free(&blocked);
    grouping_free(&writes);
    grouping_free(&updates);

    for (size_t i = 0; i < n; i++) {
        if (!unsafe[i])
            continue;
        switch (p->outcomes[i]) {
        case OUTCOME_WITHHELD: p->withheld++; break;
        case OUTCOME_CONFLICT: p->conflicts++; break;
        case OUTCOME_YIELDED: p->yielded++; break;
        case OUTCOME_REFUSED: p->refused++; break;
        /* an update that changes nothing was not really asked for: quiescence ignores it */
        case OUTCOME_UNCHANGED: p->unsafe--; break;
        default: break;
        }
    }
    report_withheld(in, p, &failed.held);
    u64map_free(&failed.held);
    free(unsafe);
}

void plan_free(plan *p) {
    for (size_t i = 0; i < p->archive_count; i++)
        free_write(&p->archives[i]);
    free(p->archives);
    for (size_t i = 0; i < p->write_count; i++)
        free_write(&p->writes[i]);
    for (size_t i = 0; i < p->task_count; i++)
        free_write(&p->tasks[i]);
    free(p->writes);
    free(p->tasks);
    free(p->outcomes);
    free(p->reasons);
    *p = (plan){0};
}
