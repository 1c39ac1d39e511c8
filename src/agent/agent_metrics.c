/* agent_metrics.c: the agent's counters and their exposition (agent_metrics.h). */
#include "agent/agent_metrics.h"

#include <string.h>

static const char *const methods[METHOD_LABELS] = {"GET", "HEAD", "PUT", "POST", "PATCH", "DELETE", "other"};
static const char *const outcomes[OUTCOME_LABELS] = {"failed", "2xx", "3xx", "4xx", "5xx"};
static const char *const phases[PHASE_COUNT] = {"crawl", "sentries", "later_rules", "plan", "send"};
/* the last of each list is "other": a state outside the vocabulary, or none read */
static const char *const instance_states[INSTANCE_STATES] = {"uninitialized", "active", "inactive", "unread",
                                                              "other"};
static const char *const call_states[CALL_STATES] = {"calling", "answered", "exhausted", "cancelled", "other"};

static size_t index_of(const char *const *names, size_t count, const char *name) {
    size_t i = 0;
    while (i < count - 1 && strcmp(names[i], name) != 0)
        i++;
    return i;
}

void agent_metrics_request(agent_metrics *m, const char *method, long status) {
    size_t outcome = status >= 200 && status < 600 ? (size_t)(status / 100 - 1) : 0;
    metric_add(&m->requests[index_of(methods, METHOD_LABELS, method)][outcome], 1);
    if (status == 412)
        metric_add(&m->precondition_failed, 1);
}

size_t agent_metrics_instance_state(const char *local_name) {
    return index_of(instance_states, INSTANCE_STATES, local_name);
}

size_t agent_metrics_call_state(const char *local_name) {
    return index_of(call_states, CALL_STATES, local_name);
}

void agent_metrics_render(void *metrics, buf *out) {
    agent_metrics *m = metrics;
    metrics_text_single(out, "ldgsm_agent_iterations_total", "counter",
                        "Iterations run to their end.", metric_get(&m->iterations));
    metrics_text_single(out, "ldgsm_agent_iterations_held_total", "counter",
                        "Iterations a cap or an error held before their writes.", metric_get(&m->iterations_held));
    metrics_text_family(out, "ldgsm_agent_iteration_seconds", "histogram", "Iterations' durations.");
    metrics_text_histogram(out, "ldgsm_agent_iteration_seconds", &m->iteration_seconds, NULL);
    metrics_text_family(out, "ldgsm_agent_iteration_phase_seconds", "histogram",
                        "Iterations' phases' durations: crawl, sentries, later_rules, plan, send.");
    for (size_t p = 0; p < PHASE_COUNT; p++)
        metrics_text_histogram(out, "ldgsm_agent_iteration_phase_seconds", &m->phase_seconds[p],
                               (const char *const[]){"phase", phases[p], NULL});
    metrics_text_family(out, "ldgsm_agent_requests_total", "counter",
                        "Requests the agent made, by method and outcome (a status class, or failed: no answer).");
    for (size_t i = 0; i < METHOD_LABELS; i++)
        for (size_t o = 0; o < OUTCOME_LABELS; o++)
            if (metric_get(&m->requests[i][o]))
                metrics_text_sample(out, "ldgsm_agent_requests_total", metric_get(&m->requests[i][o]),
                                    (const char *const[]){"method", methods[i], "outcome", outcomes[o], NULL});
    metrics_text_single(out, "ldgsm_agent_precondition_failed_total", "counter",
                        "Requests answered 412: another writer changed the document first.",
                        metric_get(&m->precondition_failed));
    metrics_text_single(out, "ldgsm_agent_call_retries_total", "counter",
                        "Calls' attempts sent after a failed attempt of the same call.", metric_get(&m->retries));
    metrics_text_single(out, "ldgsm_agent_notifications_received_total", "counter",
                        "Solid Notifications received (WebSocket and webhook channels).",
                        metric_get(&m->notifications));
    metrics_text_family(out, "ldgsm_agent_instances", "gauge",
                        "Workflow instances by the state the last iteration read (unread: none read).");
    for (size_t s = 0; s < INSTANCE_STATES; s++)
        metrics_text_sample(out, "ldgsm_agent_instances", metric_get(&m->instances[s]),
                            (const char *const[]){"state", instance_states[s], NULL});
    metrics_text_single(out, "ldgsm_agent_held_instances", "gauge",
                        "Instances with a held: line true now.", metric_get(&m->held_instances));
    metrics_text_single(out, "ldgsm_agent_waiting_instances", "gauge",
                        "Instances with a waiting: line true now.", metric_get(&m->waiting_instances));
    metrics_text_family(out, "ldgsm_agent_calls", "gauge",
                        "Call records in the status documents the last iteration evaluated, by state.");
    for (size_t s = 0; s < CALL_STATES; s++)
        metrics_text_sample(out, "ldgsm_agent_calls", metric_get(&m->calls[s]),
                            (const char *const[]){"state", call_states[s], NULL});
}
