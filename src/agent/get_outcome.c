/* get_outcome.c: what a GET's answer means (docs/DESIGN.md §2.6): data, an answer with no data, nothing, or
 * a failure that holds back the writes of the groups that asked (get_outcome.h). */
#include "agent/get_outcome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "reason/numeric.h"

void get_outcomes_free(get_outcomes *g) {
    strmap_free(&g->reported);
    strmap_free(&g->unanswered);
}

bool get_unanswered(const get_outcomes *g, const char *resource) {
    const uint32_t *unanswered = strmap_get(&g->unanswered, resource);
    return unanswered && *unanswered;
}

/* Says what a GET brought once while it recurs, so a dead sensor is not logged every poll; an outcome
 * that comes back after more than --remind iterations without is said again. */
void get_report_once(get_outcomes *g, unsigned long iteration, const char *resource, const char *what,
                     const char *detail) {
    buf key = {0};
    buf_printf(&key, "%s %s", resource, what);
    bool first;
    uint32_t *last_met = strmap_put(&g->reported, key.data, 0, &first);
    buf_free(&key);
    if (first || (uint32_t)iteration - *last_met > g->remind)
        log_event(g->log, LOG_WARN, "read_failed", NULL,
                  LOG_FIELDS(LOG_TEXT("url", resource), LOG_TEXT("what", what), LOG_TEXT("detail", detail)),
                  "GET %s: %s%s%s", resource, what, detail && *detail ? ": " : "", detail ? detail : "");
    *last_met = (uint32_t)iteration;
}

/* Every --remind iterations, report_once's table drops what it would say again anyway: it holds what
 * happened lately, not every resource that ever failed. */
void get_forget_old(get_outcomes *g, unsigned long iteration) {
    unsigned long remind = g->remind;
    if (iteration % remind != 0)
        return;
    strmap kept = {0};
    for (uint32_t i = 0; i < g->reported.count; i++)
        if ((uint32_t)iteration - g->reported.values[i] <= remind)
            strmap_put(&kept, g->reported.keys[i], g->reported.values[i], NULL);
    strmap_free(&g->reported);
    g->reported = kept;
    strmap still = {0};
    for (uint32_t i = 0; i < g->unanswered.count; i++)
        if (g->unanswered.values[i] && (uint32_t)iteration - g->unanswered.values[i] <= remind)
            strmap_put(&still, g->unanswered.keys[i], g->unanswered.values[i], NULL);
    strmap_free(&g->unanswered);
    g->unanswered = still;
}

static term_id integer_term(terms *t, long value) {
    number n = number_integer(value);
    return number_to_term(t, &n);
}

/* `<X> ldgsm:readFailure "what"` for an IRI X a rule asked to GET whose document brought no data: it
 * answered 404 or another status that is not 2xx, or brought no answer (no connection, a timeout), or RDF
 * that does not parse. Rules then say why what they wait for is missing (rules/gsm-stalls.n3). */
void get_assert_read_failure(const get_env *e, const request *r, const doc_state *doc) {
    if (doc->found || (doc->status == 0 && doc->failure == HTTP_FAIL_NONE))
        return; /* read, or not answered yet */
    char what[64];
    if (doc->unparsable)
        snprintf(what, sizeof what, "RDF that does not parse");
    else if (doc->failure != HTTP_FAIL_NONE)
        snprintf(what, sizeof what, "%s", http_failure_name(doc->failure));
    else
        snprintf(what, sizeof what, "answers %ld", doc->status);
    store_add(e->wm, r->uri_term, e->v->read_failure, terms_string(e->t, what), e->v->derived_graph);
}

/* A 2xx or a 304: the triples held for its strong ETag, else the body parsed (and held when the tag is
 * strong). */
static void take_representation(get_outcomes *g, const get_env *e, doc_state *doc, const http_result *res,
                                iteration_stats *stats) {
    long s = res->status;
    const char *base = res->final_url ? res->final_url : doc->resource;
    /* a 304 answers the If-None-Match the cache's tag went out in; it may leave the ETag out */
    const char *tag = s == 304 ? (res->etag ? res->etag : doc_cache_etag(e->cache, doc->resource))
                               : res->etag_kind == HTTP_ETAG_STRONG ? res->etag : NULL;
    size_t held_count = 0;
    bool held_patch = false;
    const triple *held = doc_cache_take(e->cache, doc->resource, tag, base, &held_count, &held_patch);
    if (s == 304 && !held) {
        doc->failed = true;
        get_report_once(g, e->iteration, doc->resource, "a 304 for a representation this agent does not hold", NULL);
        return;
    }
    doc->read = doc->found = true;
    /* the rules, the plan and `ldgsm status` see every answer's status; a 304 brings the representation
     * a 200 brought */
    if (s == 304)
        doc->status = 200;
    store_add(e->wm, doc->graph, e->v->http_status, integer_term(e->t, doc->status), e->v->derived_graph);
    if (tag || res->etag) {
        doc->etag = xstrndup(tag ? tag : res->etag, strlen(tag ? tag : res->etag));
        doc->etag_kind = tag ? HTTP_ETAG_STRONG : res->etag_kind;
    }
    bool takes_patch = s == 304 ? held_patch : http_result_accepts_patch(res, "text/n3");
    doc->takes_n3_patch = e->patch && takes_patch && !strmap_get(e->patch_refused, doc->resource);
    stats->bytes += res->body.len;
    uint32_t before = store_size(e->wm);
    if (held) {
        store_reserve(e->wm, (uint32_t)held_count);
        for (size_t i = 0; i < held_count; i++)
            store_add(e->wm, held[i].s, held[i].p, held[i].o, doc->graph);
        stats->triples_read += store_size(e->wm) - before;
        stats->gets_held++;
        return;
    }
    enum rdf_syntax syntax = rdf_syntax_from_media_type(res->content_type);
    if (syntax == RDF_SYNTAX_UNKNOWN) {
        get_report_once(g, e->iteration, doc->resource, "a media type this agent does not parse; it adds nothing",
                        res->content_type);
        return;
    }
    rdf_error err;
    triple *ts;
    size_t n;
    if (rdf_parse_triples(e->io, syntax, res->body.data ? res->body.data : "", res->body.len, base, doc->resource,
                          &ts, &n, &err) != 0) {
        doc->unparsable = true;
        doc->parse_error = xstrndup(err.message, strlen(err.message));
        doc->failed = doc->strict;
        doc->read = doc->found = false;
        get_report_once(g, e->iteration, doc->resource,
                        doc->strict ? "RDF that does not parse" : "RDF that does not parse; it adds nothing",
                        err.message);
        return;
    }
    store_reserve(e->wm, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        store_add(e->wm, ts[i].s, ts[i].p, ts[i].o, doc->graph);
    stats->triples_read += store_size(e->wm) - before;
    if (tag)
        doc_cache_keep(e->cache, doc->resource, tag, base, takes_patch, ts, n);
    else
        free(ts);
}

/* Classifies one GET result (docs/DESIGN.md §2.6) and adds what it brought to working memory. */
void get_take_result(get_outcomes *g, const get_env *e, doc_state *doc, const http_result *res,
                     iteration_stats *stats) {
    doc->status = res->status;
    doc->failure = res->failure;
    if (res->failure == HTTP_FAIL_PENDING) {
        /* failed for this iteration only: the next read of the document takes the answer when it came */
        doc->failed = true;
        *strmap_put(&g->unanswered, doc->resource, 0, NULL) = (uint32_t)e->iteration;
        char what[64];
        snprintf(what, sizeof what, "no answer within %ld ms; still waiting", e->read_wait_ms);
        get_report_once(g, e->iteration, doc->resource, what, NULL);
        return;
    }
    /* answered, or failed without hanging: waited for again; after a timeout it is not (it hung to the end) */
    uint32_t *unanswered = res->failure == HTTP_FAIL_TIMEOUT ? NULL : strmap_get(&g->unanswered, doc->resource);
    if (unanswered)
        *unanswered = 0;
    if (res->failure != HTTP_FAIL_NONE) {
        doc->failed = true;
        /* keyed by the kind of failure: libcurl's message varies (it counts milliseconds) */
        get_report_once(g, e->iteration, doc->resource, http_failure_name(res->failure), res->message);
        return;
    }
    long s = res->status;
    if ((s >= 200 && s < 300) || s == 304) {
        take_representation(g, e, doc, res, stats);
        return;
    }
    if (s == 404 || s == 410) {
        doc->read = true;
        store_add(e->wm, doc->graph, e->v->http_status, integer_term(e->t, s), e->v->derived_graph);
        return;
    }
    if (s == 406 || s == 415) {
        get_report_once(g, e->iteration, doc->resource, s == 406 ? "406: no representation this agent parses; it adds nothing"
                                                : "415; it adds nothing", NULL);
        return;
    }
    doc->failed = true;
    char what[96];
    if (s == 401) /* the usual cause: a pod read without --auth (docs/guide/pod.md) */
        snprintf(what, sizeof what, "status 401: the server wants authentication (--auth FILE) or refused it");
    else
        snprintf(what, sizeof what, "status %ld", s);
    get_report_once(g, e->iteration, doc->resource, what, NULL);
}

static void add_group(doc_state *doc, term_id group) {
    bool first;
    u64map_put(&doc->group_set, group, 0, &first);
    if (!first)
        return;
    if ((doc->group_count & (doc->group_count - 1)) == 0) /* 0, 1, 2, 4, ...: at capacity */
        doc->groups = xrealloc(doc->groups, (doc->group_count ? doc->group_count * 2 : 1) * sizeof *doc->groups);
    doc->groups[doc->group_count++] = group;
}

/* An ldgsm:groupsOf (subject property) of an asker, once per document. */
static void add_group_source(const terms *t, doc_state *doc, term_id relation) {
    size_t n;
    const term_id *source = terms_list_items(t, relation, &n);
    for (size_t i = 0; i < doc->group_source_count; i++)
        if (doc->group_sources[2 * i] == source[0] && doc->group_sources[2 * i + 1] == source[1])
            return;
    doc->group_sources = xrealloc(doc->group_sources, 2 * (doc->group_source_count + 1) * sizeof *source);
    doc->group_sources[2 * doc->group_source_count] = source[0];
    doc->group_sources[2 * doc->group_source_count++ + 1] = source[1];
}

/* Records who asked for a document: its failure holds back every group that did (docs/DESIGN.md §2.6,
 * no write on a partial view). Returns true when this asker makes an unparsable body a failure. */
bool get_note_asker(const terms *t, doc_state *doc, const request *r) {
    bool fails_now = !r->lenient && doc->unparsable && !doc->failed;
    if (!r->lenient) {
        doc->strict = true;
        doc->failed |= doc->unparsable;
    }
    if (r->groups_of)
        add_group_source(t, doc, r->groups_of);
    if (r->group)
        add_group(doc, r->group);
    else if (!r->groups_of)
        doc->asked_ungrouped = true;
    return fails_now;
}

void get_expand_group_sources(store *wm, doc_state *doc) {
    for (size_t i = 0; i < doc->group_source_count; i++) {
        store_iter it;
        store_match(wm, doc->group_sources[2 * i], doc->group_sources[2 * i + 1], 0, 0, store_size(wm), &it);
        uint32_t n;
        for (const triple *tr; (tr = store_next(&it, &n));)
            add_group(doc, tr->o);
    }
}
