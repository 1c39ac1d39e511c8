/* ldp_metrics.c: the server's counters and their exposition (ldp_metrics.h). */
#include "ldp/ldp_metrics.h"

#include <stdio.h>

/* in the order of ldp_server.c's enum method */
static const char *const methods[LDP_METRICS_METHODS] = {"GET", "HEAD", "OPTIONS", "PUT", "POST", "DELETE", "PATCH",
                                                         "other"};

void ldp_metrics_request(ldp_metrics *m, unsigned method, int status, size_t request_bytes, size_t response_bytes) {
    if (method < LDP_METRICS_METHODS && status >= LDP_METRICS_STATUS_MIN && status <= LDP_METRICS_STATUS_MAX)
        metric_add(&m->requests[method][status - LDP_METRICS_STATUS_MIN], 1);
    metric_add(&m->request_bytes, request_bytes);
    metric_add(&m->response_bytes, response_bytes);
}

void ldp_metrics_render(const ldp_metrics *m, const ldp_metrics_gauges *g, buf *out) {
    metrics_text_family(out, "ldgsm_server_requests_total", "counter",
                        "Requests answered, by method and status (as in the access log; the scrape that reads "
                        "this is counted once it ends).");
    for (unsigned i = 0; i < LDP_METRICS_METHODS; i++)
        for (int s = LDP_METRICS_STATUS_MIN; s <= LDP_METRICS_STATUS_MAX; s++) {
            uint64_t count = metric_get(&m->requests[i][s - LDP_METRICS_STATUS_MIN]);
            if (!count)
                continue;
            char status[16];
            snprintf(status, sizeof status, "%d", s);
            metrics_text_sample(out, "ldgsm_server_requests_total", count,
                                (const char *const[]){"method", methods[i], "status", status, NULL});
        }
    metrics_text_single(out, "ldgsm_server_request_bytes_total", "counter",
                        "Request bodies' bytes received.", metric_get(&m->request_bytes));
    metrics_text_single(out, "ldgsm_server_response_bytes_total", "counter",
                        "Response bodies' bytes sent (the access log's bytes).", metric_get(&m->response_bytes));
    metrics_text_single(out, "ldgsm_server_open_connections", "gauge", "HTTP connections open now.", g->connections);
    metrics_text_single(out, "ldgsm_server_idempotency_keys", "gauge",
                        "Idempotency-Key answers held now (executing or kept).", g->idempotency_keys);
    metrics_text_family(out, "ldgsm_server_notification_channels", "gauge", "Notification channels held now, by type.");
    for (size_t k = 0; g->notifications && k < LDP_NOTIFY_CHANNEL_TYPES; k++)
        metrics_text_sample(out, "ldgsm_server_notification_channels", g->channels[k],
                            (const char *const[]){"type", g->channel_types[k], NULL});
}
