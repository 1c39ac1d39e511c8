/* metrics_text.h: counters, gauges and histograms, and their Prometheus text exposition (format 0.0.4),
 * for the one metrics struct each process keeps (agent/agent_metrics.h, ldp/ldp_metrics.h).
 *
 * NOTES ON THE DESIGN
 *  1. A value is an atomic, updated with relaxed ordering: a scrape runs on a listener's thread while the
 *     process counts, and needs no snapshot across values (Prometheus takes each sample as it comes). No
 *     lock is taken on either side.
 *  2. A histogram keeps a count per bucket (not cumulative: one increment per observation) and the sum in
 *     microseconds; the exposition adds the buckets up, and its _count is their sum, so that it equals the
 *     +Inf bucket even while observations come in. Its bounds are fixed, in seconds.
 *  3. Names follow Prometheus' conventions: the ldgsm_ prefix, base units (_seconds, _bytes), _total for
 *     counters; a label value is escaped as the format wants (backslash, quote, newline). */
#ifndef LDGSM_RDF_METRICS_TEXT_H
#define LDGSM_RDF_METRICS_TEXT_H

#include <stdatomic.h>
#include <stdint.h>

#include "rdf/buf.h"

typedef atomic_uint_fast64_t metric_value;

static inline void metric_add(metric_value *m, uint64_t n) {
    atomic_fetch_add_explicit(m, n, memory_order_relaxed);
}
static inline void metric_set(metric_value *m, uint64_t v) {
    atomic_store_explicit(m, v, memory_order_relaxed);
}
static inline uint64_t metric_get(const metric_value *m) {
    return atomic_load_explicit((metric_value *)m, memory_order_relaxed);
}

enum { METRIC_BUCKETS = 14 };
extern const double metric_bucket_bounds[METRIC_BUCKETS]; /* seconds: 1 ms .. 30 s, then +Inf */

typedef struct metric_histogram {
    metric_value buckets[METRIC_BUCKETS + 1]; /* the last: above every bound */
    metric_value sum_us;
} metric_histogram;

void metric_observe(metric_histogram *h, double seconds);

/* "# HELP name help\n# TYPE name type\n" */
void metrics_text_family(buf *out, const char *name, const char *type, const char *help);
/* One sample: name{labels} value. labels: NULL, or "k1", "v1", "k2", "v2", ..., NULL (values escaped). */
void metrics_text_sample(buf *out, const char *name, uint64_t value, const char *const *labels);
/* A family of one unlabelled sample: its HELP and TYPE lines, then name value. */
void metrics_text_single(buf *out, const char *name, const char *type, const char *help, uint64_t value);
/* A histogram's samples (name_bucket{...,le=...}, name_sum, name_count) with the given labels. */
void metrics_text_histogram(buf *out, const char *name, const metric_histogram *h, const char *const *labels);

#endif
