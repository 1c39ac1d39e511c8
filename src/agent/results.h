/* results.h: ρ' = ρ[X̄ ↦ t̄] of seed 000 (docs/DESIGN.md §8.4): the values a call's answer binds.
 * A call's `ldgsm:results ( [ ldgsm:property p ; ldgsm:from f ] ... )` names, for each property p of the
 * instance, where its value comes from: ldgsm:location (the answer's Location, resolved), ldgsm:status
 * (its status code), `[ ldgsm:header "Name" ]` (that header's value, as a string) or a SELECT query
 * (`[ a sp:Select ; sp:text "..." ]`) over the answer's RDF, whose first variable gives the value and which
 * must have exactly one solution. The agent evaluates them when the answer comes (each attempt's answer
 * carries its own) and reports them with it; rules/calls.n3 writes them as `<instance> p value` in the
 * write that marks the call answered. */
#ifndef LDGSM_AGENT_RESULTS_H
#define LDGSM_AGENT_RESULTS_H

#include <stddef.h>

#include "agent/vocab.h"
#include "http/http_client.h"
#include "rdf/log.h"
#include "rdf/store.h"
#include "reason/sentry_ast.h"

typedef struct result_value {
    term_id property, value;
} result_value;

/* The header names `results` (a list term, or a node heading an RDF list in wm) asks for, for
 * http_request.keep_headers; *names (malloc'ed, pointing into t) holds them. Returns how many. */
size_t results_headers(terms *t, store *wm, const agent_vocab *v, term_id results, const char ***names);

/* The values of `results` for an answer: res (with kept_headers for the names results_headers gave),
 * location (resolved, or NULL) and the triples of its RDF body. A result without a value (no Location, no
 * such header, a query without exactly one solution, a query that does not compile) is left out and said
 * through log, naming the request. *out is malloc'ed; returns how many. */
size_t results_evaluate(terms *t, store *wm, const agent_vocab *v, sentry_text_parser *parser, term_id results,
                        const http_result *res, const char *location, const triple *answer, size_t answer_count,
                        const char *request, const log_sink *log, result_value **out);

#endif
