/* results.c: evaluating a call's ldgsm:results on its answer (results.h). */
#include "agent/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdf/buf.h"
#include "rdf/rdf_list.h"
#include "reason/reasoner.h"
#include "reason/sentry.h"

/* The items of a results list: a list term, or a node heading an RDF list in wm. */
static const term_id *items_of(terms *t, store *wm, term_id results, size_t *count) {
    *count = 0;
    if (!results)
        return NULL;
    term_id list = terms_kind(t, results) == TERM_LIST ? results : rdf_list_read(t, wm, results);
    return list ? terms_list_items(t, list, count) : NULL;
}

size_t results_headers(terms *t, store *wm, const agent_vocab *v, term_id results, const char ***names) {
    size_t count, found = 0;
    const term_id *items = items_of(t, wm, results, &count);
    *names = xcalloc(count ? count : 1, sizeof **names);
    for (size_t i = 0; i < count; i++) {
        term_id from = store_first_object(wm, items[i], v->from);
        term_id header = from ? store_first_object(wm, from, v->header) : 0;
        if (header && terms_kind(t, header) == TERM_LITERAL)
            (*names)[found++] = terms_lex(t, header, NULL);
    }
    return found;
}

/* The one value the SELECT `text` gives over the answer's triples (its first variable), or 0 with *why. */
static term_id select_value(terms *t, sentry_text_parser *parser, term_id query, const char *text, const char *base,
                            const triple *answer, size_t answer_count, char *why, size_t why_len) {
    sq_node *tree;
    term_id *vars;
    size_t var_count;
    if (select_from_text(parser, query, text, base, &tree, &vars, &var_count, why, why_len) != 0)
        return 0;
    term_id holder = terms_iri_cstr(t, "urn:ldgsm:result"), value_p = terms_iri_cstr(t, "urn:ldgsm:value");
    triple head = {holder, value_p, vars[0]};
    free(vars);
    rule *r = sentry_rule_new(t, tree, NULL, 0, &head, 1, NULL, 0, "result", why, why_len);
    if (!r)
        return 0;
    store *st = store_new();
    for (size_t i = 0; i < answer_count; i++)
        store_add(st, answer[i].s, answer[i].p, answer[i].o, 0);
    uint32_t before = store_size(st);
    rule_set rs = {0};
    rule_set_add(&rs, r);
    reasoner_options opt = {0};
    reasoner *R = reasoner_new(t, st, &opt);
    term_id value = 0;
    if (reasoner_run(R, &rs, 0) != 0) {
        snprintf(why, why_len, "%s", reasoner_error(R));
    } else {
        size_t solutions = 0;
        store_iter it;
        store_match(st, holder, value_p, 0, before, store_size(st), &it);
        uint32_t n;
        for (const triple *tr; (tr = store_next(&it, &n));) {
            value = tr->o;
            solutions++;
        }
        if (solutions != 1) {
            snprintf(why, why_len, "its query has %zu solutions over the answer; exactly one is needed", solutions);
            value = 0;
        }
    }
    reasoner_free(R);
    rule_set_free(&rs);
    store_free(st);
    return value;
}

size_t results_evaluate(terms *t, store *wm, const agent_vocab *v, sentry_text_parser *parser, term_id results,
                        const http_result *res, const char *location, const triple *answer, size_t answer_count,
                        const char *request, const log_sink *log, result_value **out) {
    size_t count, found = 0, header = 0;
    const term_id *items = items_of(t, wm, results, &count);
    *out = xcalloc(count ? count : 1, sizeof **out);
    for (size_t i = 0; i < count; i++) {
        term_id property = store_first_object(wm, items[i], v->property);
        term_id from = store_first_object(wm, items[i], v->from);
        char why[512] = "";
        term_id value = 0;
        term_id name = from ? store_first_object(wm, from, v->header) : 0;
        term_id text = from ? store_first_object(wm, from, v->sp_text) : 0;
        if (!property || terms_kind(t, property) != TERM_IRI || !from) {
            snprintf(why, sizeof why, "result %zu names no ldgsm:property IRI or no ldgsm:from", i + 1);
        } else if (from == v->location) {
            if (location)
                value = terms_iri_cstr(t, location);
            else
                snprintf(why, sizeof why, "the answer has no Location");
        } else if (from == v->status) {
            char code[24];
            snprintf(code, sizeof code, "%ld", res->status);
            value = terms_literal(t, code, strlen(code), T_XSD_INTEGER, NULL, 0);
        } else if (name && terms_kind(t, name) == TERM_LITERAL) {
            /* the headers were asked for in results_headers' order */
            const char *kept = header < res->kept_header_count ? res->kept_headers[header] : NULL;
            header++;
            if (kept)
                value = terms_string(t, kept);
            else
                snprintf(why, sizeof why, "the answer has no %s header", terms_lex(t, name, NULL));
        } else if (text && terms_kind(t, text) == TERM_LITERAL) {
            value = select_value(t, parser, from, terms_lex(t, text, NULL), res->final_url, answer, answer_count, why,
                                 sizeof why);
        } else {
            snprintf(why, sizeof why, "ldgsm:from is none of ldgsm:location, ldgsm:status, a header, a query");
        }
        if (value)
            (*out)[found++] = (result_value){property, value};
        else
            log_msg(log, LOG_WARN, "%s: the result %s is not bound: %s", request,
                    property ? terms_lex(t, property, NULL) : "?", why);
    }
    return found;
}
