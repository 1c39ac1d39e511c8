/* vocab.h: the IRIs the agent reads in rule heads and writes into working memory (W3C HTTP-in-RDF,
 * its methods vocabulary, Linked Data-Fu's `this:` placeholder, ldgsm's own terms), interned once. */
#ifndef LDGSM_AGENT_VOCAB_H
#define LDGSM_AGENT_VOCAB_H

#include "rdf/term.h"

typedef struct agent_vocab {
    term_id mthd, request_uri, body, headers, field_name, field_value;
    term_id get, head, put, post, delete_, patch; /* httpm: */
    term_id update, add, key, after, group, groups_of, priority, held_because, lenient, http_status, now, agent;
    term_id read_failure, waits_because;                              /* ldgsm: what the agent saw */
    term_id history_property, sequence, at, changed, property, from, to;   /* ldgsm: history entries */
    term_id history_archive, archived_through, reads_history;         /* ldgsm: the history's archive */
    term_id reads, reads_container, holds_for, rule_condition;       /* ldgsm: sentries */
    term_id instance, is_completed, incident, wake_at, serves;       /* ldgsm: workflows; gx:serves */
    /* calls (docs/DESIGN.md §6.1): what a request node carries, and the answer the agent reports back */
    term_id idempotency_key, report_to, called_at, request_timeout, default_timeout;
    term_id answer_to, answer_key, answer_attempt, answer_status, answer_failure, answer_location, answer_body;
    term_id awaited, call_state, calling, exhausted, failed_attempt;
    term_id sp_ask, sp_text;                                         /* SPIN */
    term_id artifact_instance, has_state, active, this_artifact;     /* gsm: */
    term_id stage, is_instance_of, has_milestone, in_artifact_instance, of_stage, is_achieved;
    term_id all_alternatives_failed;
    /* wsm: a state machine's conditions are sentries evaluated per (instance, event) context node */
    term_id wsm_condition, wsm_this_instance, wsm_this_event, wsm_for_instance, wsm_for_event, wsm_machine;
    /* data flow (docs/DESIGN.md §8): argument queries, the contexts they are evaluated in, the requests they fill,
     * and what a call's answer binds */
    term_id arguments, results, header_block, pat_this_item, pat_this_index;
    term_id query_alias, evaluates, this_instance, this_item, this_index, this_event;
    term_id solution_for, solution_request, evaluated, of_request, eval_method, eval_uri, eval_headers,
        eval_body, eval_hash, arguments_problem, why, waits;
    term_id max_link_depth, link, via, link_from; /* reading through links (agent/links.h) */
    term_id location, status, header, answer_result, answer_data, value; /* results (agent/results.h) */
    term_id derived_graph, clock_graph;
} agent_vocab;

void agent_vocab_init(agent_vocab *v, terms *t);

#endif
