/* answers.c: the answers to requests that asked for one (ldgsm:reportTo), kept from the iteration that
 * sent the request and asserted into the later ones until the rules took them in (answers.h). */
#include "agent/answers.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "agent/results.h"
#include "http/http_url.h"
#include "n3/iri_resolve.h"
#include "rdf/nt_writer.h"
#include "reason/numeric.h"

/* One answer, as the rules see it: a node with ldgsm:answerTo, answerKey, answerAttempt, answerStatus or
 * answerFailure, answerLocation, answerBody, answerData, answerResult. */
typedef struct answer {
    term_id node;
    triple *ts;
    size_t n;
    char *doc;     /* the document of the node reported to (identity), whose reading decides its fate */
    bool asserted; /* asserted in the iteration that just ran */
} answer;

struct answers {
    answer *items;
    size_t count;
    unsigned long made; /* names answer nodes */
};

answers *answers_new(void) {
    return xcalloc(1, sizeof(answers));
}

void answers_free(answers *as) {
    if (!as)
        return;
    for (size_t i = 0; i < as->count; i++) {
        free(as->items[i].ts);
        free(as->items[i].doc);
    }
    free(as->items);
    free(as);
}

static term_id integer_term(terms *t, long value) {
    number n = number_integer(value);
    return number_to_term(t, &n);
}

enum { ANSWER_MAX_TRIPLES = 1000 }; /* kept of one answer: it goes into the status document */

/* True when an answer's triple may be kept beside its call record: its subject is a blank node or a
 * resource of the answering service's own documents (`own`: the request's and the Location's, as
 * identities), and it says nothing about the document the record is in (prefix: that document's IRI and
 * '#') and uses no gsm: or ldgsm: term. So a service can neither change a workflow's state nor vouch for
 * other resources (which sentries would read) by what it answers. */
static bool answer_triple_allowed(const answer_env *e, const triple *tr, const char *prefix, size_t prefix_len,
                                  char *const own[2]) {
    if (terms_kind(e->t, tr->s) != TERM_BNODE) {
        char *subject = http_url_identity(terms_lex(e->t, tr->s, NULL));
        bool mine = subject && ((own[0] && strcmp(subject, own[0]) == 0) || (own[1] && strcmp(subject, own[1]) == 0));
        free(subject);
        if (!mine)
            return false;
    }
    const term_id parts[3] = {tr->s, tr->p, tr->o};
    for (int k = 0; k < 3; k++) {
        if (terms_kind(e->t, parts[k]) != TERM_IRI)
            continue;
        const char *iri = terms_lex(e->t, parts[k], NULL);
        if (strncmp(iri, prefix, prefix_len) == 0 || strncmp(iri, NS_GSM, strlen(NS_GSM)) == 0 ||
            strncmp(iri, NS_LDGSM, strlen(NS_LDGSM)) == 0)
            return false;
    }
    return true;
}

/* The triples of an RDF answer body, as one formula (the empty formula when there is none or it is not
 * RDF this agent parses; one that does not parse is reported). Triples answer_triple_allowed refuses, and
 * those past ANSWER_MAX_TRIPLES, are dropped and reported. */
static term_id answer_body(const answer_env *e, const planned_write *w, const http_result *res, store **parsed) {
    enum rdf_syntax syntax = res->content_type ? rdf_syntax_from_media_type(res->content_type) : RDF_SYNTAX_UNKNOWN;
    *parsed = NULL;
    /* only a success's body is the answer: an error page is not data */
    if (!res->body.len || syntax == RDF_SYNTAX_UNKNOWN || res->status < 200 || res->status >= 300)
        return terms_formula(e->t, NULL, 0);
    store *tmp = store_new();
    rdf_error err;
    const char *base = res->final_url ? res->final_url : w->url;
    term_id graph = terms_iri_cstr(e->t, base);
    term_id body;
    if (rdf_parse(e->io, tmp, syntax, res->body.data, res->body.len, base, graph, base, &err) != 0) {
        log_msg(e->log, LOG_WARN, "%s %s: the answer's RDF does not parse, so it is kept without a body: %s",
                w->method, w->url, err.message);
        body = terms_formula(e->t, NULL, 0);
    } else {
        char *doc = http_url_without_fragment(terms_lex(e->t, w->report_to, NULL));
        buf prefix = {0}, location = {0};
        buf_printf(&prefix, "%s#", doc ? doc : "");
        if (res->location)
            iri_resolve(base, strlen(base), res->location, strlen(res->location), &location);
        char *own[2] = {http_url_identity(base), location.len ? http_url_identity(buf_cstr(&location)) : NULL};
        uint32_t n = store_size(tmp), kept = 0;
        triple *ts = xmalloc((n ? n : 1) * sizeof *ts);
        for (uint32_t i = 0; i < n && kept < ANSWER_MAX_TRIPLES; i++)
            if (answer_triple_allowed(e, store_triple(tmp, i), prefix.data, prefix.len, own))
                ts[kept++] = *store_triple(tmp, i);
        if (kept < n)
            log_msg(e->log, LOG_WARN, "%s %s: %u triples of the answer are not kept (beyond %d, or not about the "
                    "service's own resources, or about the workflow's status)", w->method, w->url, n - kept,
                    ANSWER_MAX_TRIPLES);
        body = terms_formula(e->t, ts, kept);
        free(ts);
        buf_free(&prefix);
        buf_free(&location);
        free(own[0]);
        free(own[1]);
        free(doc);
        *parsed = tmp; /* all of it, for the results' queries */
        return body;
    }
    store_free(tmp);
    return body;
}

/* The results the request asked for (results.h), as `ans ldgsm:answerResult [ ldgsm:property p ;
 * ldgsm:value v ]`; parsed holds the answer's RDF (NULL: none). */
static void answer_results(const answer_env *e, answer *ans, const planned_write *w, const http_result *res,
                           const store *parsed, const char *location) {
    if (!w->results || res->failure != HTTP_FAIL_NONE || res->status < 200 || res->status >= 300)
        return;
    uint32_t n = parsed ? store_size(parsed) : 0;
    triple *body = xmalloc((n ? n : 1) * sizeof *body);
    for (uint32_t i = 0; i < n; i++)
        body[i] = *store_triple(parsed, i);
    char request[256];
    snprintf(request, sizeof request, "%s %s", w->method, w->url);
    result_value *values;
    size_t count = results_evaluate(e->t, e->wm, e->v, sentry_table_text_parser(e->sentries), w->results, res,
                                    location, body, n, request, e->log, &values);
    ans->ts = xrealloc(ans->ts, (ans->n + 3 * count + 1) * sizeof *ans->ts);
    for (size_t i = 0; i < count; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s:result:%zu", terms_lex(e->t, ans->node, NULL), i + 1);
        term_id node = terms_iri_cstr(e->t, name);
        ans->ts[ans->n++] = (triple){ans->node, e->v->answer_result, node};
        ans->ts[ans->n++] = (triple){node, e->v->property, values[i].property};
        ans->ts[ans->n++] = (triple){node, e->v->value, values[i].value};
    }
    free(values);
    free(body);
}

/* Keeps the answer to a request that asked for one (ldgsm:reportTo), to be asserted from the next
 * iteration on. A request that was not sent because the agent is stopping has no answer. */
void answers_record(answers *as, const answer_env *e, const planned_write *w, const http_result *res) {
    if (!w->report_to || res->failure == HTTP_FAIL_STOPPED)
        return;
    char name[48];
    snprintf(name, sizeof name, "urn:ldgsm:answer:%lu", ++as->made);
    answer ans = {.node = terms_iri_cstr(e->t, name), .ts = xmalloc(8 * sizeof(triple)),
                  .doc = http_url_identity(terms_lex(e->t, w->report_to, NULL))};
    ans.ts[ans.n++] = (triple){ans.node, e->v->answer_to, w->report_to};
    for (size_t h = 0; h < w->header_count; h++)
        if (strcasecmp(w->headers[h].name, "Idempotency-Key") == 0) {
            /* the key as the rules wrote it: the header's sf-string without its quotes */
            const char *v = w->headers[h].value;
            size_t len = strlen(v);
            bool quoted = len >= 2 && v[0] == '"' && v[len - 1] == '"';
            ans.ts[ans.n++] = (triple){ans.node, e->v->answer_key,
                                       terms_literal(e->t, v + quoted, len - 2 * quoted, 0, NULL, 0)};
            break; /* the first: rules may write the header more than once, an answer has one key */
        }
    if (w->called_at)
        ans.ts[ans.n++] = (triple){ans.node, e->v->answer_attempt, w->called_at};
    buf location = {0};
    if (res->failure == HTTP_FAIL_NONE) {
        ans.ts[ans.n++] = (triple){ans.node, e->v->answer_status, integer_term(e->t, res->status)};
        if (res->location) {
            const char *base = res->final_url ? res->final_url : w->url;
            iri_resolve(base, strlen(base), res->location, strlen(res->location), &location);
            ans.ts[ans.n++] = (triple){ans.node, e->v->answer_location, terms_iri(e->t, location.data, location.len)};
        }
    } else {
        ans.ts[ans.n++] = (triple){ans.node, e->v->answer_failure, terms_string(e->t, http_failure_name(res->failure))};
    }
    store *parsed;
    term_id body = answer_body(e, w, res, &parsed);
    ans.ts[ans.n++] = (triple){ans.node, e->v->answer_body, body};
    size_t kept;
    const triple *kept_triples = terms_formula_triples(e->t, body, &kept);
    if (kept) { /* kept under the call record as text: no instance's sentry matches it (docs/DESIGN.md §8.4) */
        buf text = {0};
        rdf_write_ntriples(e->t, kept_triples, kept, &text);
        ans.ts[ans.n++] = (triple){ans.node, e->v->answer_data, terms_literal(e->t, text.data, text.len, 0, NULL, 0)};
        buf_free(&text);
    }
    answer_results(e, &ans, w, res, parsed, location.len ? buf_cstr(&location) : NULL);
    buf_free(&location);
    store_free(parsed);
    log_msg(e->log, LOG_DEBUG, "answer <%s> to <%s> kept for the rules (%zu facts)", name,
            terms_lex(e->t, w->report_to, NULL), ans.n);
    as->items = xrealloc(as->items, (as->count + 1) * sizeof *as->items);
    as->items[as->count++] = ans;
}

void answers_assert(answers *as, store *wm, term_id graph) {
    for (size_t i = 0; i < as->count; i++) {
        for (size_t k = 0; k < as->items[i].n; k++)
            store_add(wm, as->items[i].ts[k].s, as->items[i].ts[k].p, as->items[i].ts[k].o, graph);
        as->items[i].asserted = true;
    }
}

/* An answer no rule awaits, in an iteration that read the document it is reported to, was taken in (or
 * belongs to nothing that waits) and is forgotten; one whose document was not read is kept. */
void answers_drop_taken(answers *as, const answer_env *e, const doc_state *docs, const strmap *doc_index) {
    size_t kept = 0;
    for (size_t i = 0; i < as->count; i++) {
        answer *ans = &as->items[i];
        const uint32_t *at = ans->doc ? strmap_get(doc_index, ans->doc) : NULL;
        const doc_state *doc = at ? &docs[*at] : NULL;
        bool read = !ans->doc || (doc && doc->found); /* a node in no document: read whenever rules run */
        if (ans->asserted && read && store_find(e->wm, ans->node, e->v->awaited, T_TRUE) == UINT32_MAX) {
            free(ans->ts);
            free(ans->doc);
            continue;
        }
        as->items[kept++] = *ans;
    }
    as->count = kept;
}

size_t answers_held_terms(answers *as, term_id ***held) {
    size_t count = 0;
    for (size_t i = 0; i < as->count; i++)
        count += 1 + 3 * as->items[i].n;
    term_id **at = *held = xmalloc((count ? count : 1) * sizeof **held);
    for (size_t i = 0; i < as->count; i++) {
        *at++ = &as->items[i].node;
        for (size_t k = 0; k < as->items[i].n; k++) {
            *at++ = &as->items[i].ts[k].s;
            *at++ = &as->items[i].ts[k].p;
            *at++ = &as->items[i].ts[k].o;
        }
    }
    return count;
}
