/* ldp_metrics.h: what `ldgsm serve` exposes at /metrics (ldp_server.h note 13), one struct for the
 * server's process: requests by method and status and the bytes they carried, counted by the request
 * threads as each request ends (atomics, rdf/metrics_text.h note 1); and the gauges read when scraped
 * (open connections, Idempotency-Key answers held, notification channels by type).
 * docs/guide/logs-and-metrics.md lists every name. */
#ifndef LDGSM_LDP_LDP_METRICS_H
#define LDGSM_LDP_LDP_METRICS_H

#include "ldp/ldp_notify.h"
#include "rdf/buf.h"
#include "rdf/metrics_text.h"

enum { LDP_METRICS_METHODS = 8, LDP_METRICS_STATUS_MIN = 100, LDP_METRICS_STATUS_MAX = 599 };

typedef struct ldp_metrics {
    /* by the server's method index (GET, HEAD, OPTIONS, PUT, POST, DELETE, PATCH, other) and status */
    metric_value requests[LDP_METRICS_METHODS][LDP_METRICS_STATUS_MAX - LDP_METRICS_STATUS_MIN + 1];
    metric_value request_bytes, response_bytes; /* bodies received and sent */
} ldp_metrics;

/* Read at the scrape. */
typedef struct ldp_metrics_gauges {
    unsigned connections;
    size_t idempotency_keys;
    bool notifications; /* channel counts below (off: none listed) */
    const char *channel_types[LDP_NOTIFY_CHANNEL_TYPES];
    unsigned channels[LDP_NOTIFY_CHANNEL_TYPES];
} ldp_metrics_gauges;

/* Counts an ended request (method: the server's index; a status outside 100..599 is not counted). */
void ldp_metrics_request(ldp_metrics *m, unsigned method, int status, size_t request_bytes, size_t response_bytes);
void ldp_metrics_render(const ldp_metrics *m, const ldp_metrics_gauges *g, buf *out);

#endif
