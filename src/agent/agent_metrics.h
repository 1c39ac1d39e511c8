/* agent_metrics.h: what `ldgsm run --metrics` exposes, one struct for the agent's process, counted where
 * the events happen (agent.c: iterations, requests, retries, the states read; notifications.c: the
 * notifications received) and read by the metrics listener's thread (rdf/metrics_text.h note 1).
 * docs/guide/logs-and-metrics.md lists every name.
 *
 * NOTES ON THE DESIGN
 *  1. Counters only grow; gauges (instances by state, held and waiting instances, calls by state) are
 *     set at the end of each iteration from what it read, so a scrape sees the last iteration's.
 *  2. Labels take bounded sets of values: the methods the agent sends and "other"; an outcome is a
 *     status class (2xx .. 5xx) or "failed" (no answer); a state is the local name of the state IRI read,
 *     one of a fixed list or "other". */
#ifndef LDGSM_AGENT_AGENT_METRICS_H
#define LDGSM_AGENT_AGENT_METRICS_H

#include <stdbool.h>

#include "rdf/buf.h"
#include "rdf/metrics_text.h"

enum agent_metrics_phase { PHASE_CRAWL, PHASE_SENTRIES, PHASE_LATER_RULES, PHASE_PLAN, PHASE_SEND, PHASE_COUNT };
enum { METHOD_LABELS = 7, OUTCOME_LABELS = 5, INSTANCE_STATES = 5, CALL_STATES = 5 };

typedef struct agent_metrics {
    metric_value iterations, iterations_held;
    metric_histogram iteration_seconds;
    metric_histogram phase_seconds[PHASE_COUNT];
    metric_value requests[METHOD_LABELS][OUTCOME_LABELS];
    metric_value precondition_failed; /* 412 answers to the agent's writes */
    metric_value retries;             /* calls' attempts sent after a failed one */
    metric_value notifications;       /* received on any channel */
    metric_value instances[INSTANCE_STATES];
    metric_value held_instances, waiting_instances;
    metric_value calls[CALL_STATES];
} agent_metrics;

/* Counts a request: method as sent, status (0: no answer). */
void agent_metrics_request(agent_metrics *m, const char *method, long status);
/* The label index of a state's local name ("active", ...) among the instance or call states. */
size_t agent_metrics_instance_state(const char *local_name);
size_t agent_metrics_call_state(const char *local_name);
/* Appends the exposition (a metrics_render_fn). */
void agent_metrics_render(void *metrics, buf *out);

#endif
